//! What the two HTTP transports of MCP servers ([`super::remote`]'s
//! Streamable HTTP, [`super::sse`]'s HTTP+SSE) share: the headers as rmcp
//! takes them, and what went wrong ([`Fault`]) worked out of the errors of
//! rmcp and reqwest and said for people, naming no type, no URL (which
//! may hold a key) and no header value.

use std::collections::HashMap;
use std::error::Error as StdError;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::service::{ClientInitializeError, ServiceError};
use rmcp::transport::streamable_http_client::StreamableHttpError;

use super::pipe;

/// Headers as rmcp takes them.
pub type Headers = HashMap<HeaderName, HeaderValue>;

/// A redirect to another origin, refused.
#[derive(Debug, thiserror::Error)]
#[error("redirected to {0}")]
pub(super) struct CrossHost(pub(super) String);

/// What went wrong with a server over HTTP, said for people.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Fault {
    #[error(
        "it asks for OAuth sign-in (HTTP 401, WWW-Authenticate: {0}); gem-ask does not sign in \
         with OAuth: give a token in its headers instead, e.g. headers = {{ Authorization = \
         \"Bearer $TOKEN\" }}"
    )]
    Oauth(String),
    #[error("it answered HTTP {0}")]
    Status(u16),
    #[error(
        "it answered with {}, not MCP (is the URL the server's MCP endpoint?)",
        .0.as_deref().unwrap_or("no content type")
    )]
    NotMcp(Option<String>),
    #[error(
        "it redirects to another host ({0}); refused, so that its headers go nowhere else \
         (configure that URL if it is the server)"
    )]
    CrossHost(String),
    #[error("cannot connect: {0} (is the server running?)")]
    Down(String),
    #[error(
        "it sent a message over the {} MiB an MCP message may have",
        pipe::MAX_MESSAGE / (1024 * 1024)
    )]
    TooLarge,
    #[error("{0}")]
    Other(String),
}

impl Fault {
    /// The answer of a server that speaks only the older HTTP+SSE
    /// transport to a POST (MCP's backwards compatibility rule).
    pub(super) fn older_server(&self) -> bool {
        matches!(self, Fault::Status(s) if (400..500).contains(s) && *s != 401 && *s != 403)
    }

    /// A status answer, as a fault: 401 with a challenge is OAuth.
    pub(super) fn of_status(status: u16, challenge: Option<&HeaderValue>) -> Fault {
        match challenge {
            Some(c) if status == 401 => Fault::Oauth(shown_text(c.to_str().unwrap_or("?"))),
            _ => Fault::Status(status),
        }
    }
}

/// Text from a server as a message may hold it: no control characters,
/// at most 200 bytes.
fn shown_text(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    super::schema::cut_text(&clean, 200).unwrap_or(clean)
}

pub(super) fn init_fault(e: &ClientInitializeError) -> Fault {
    match e {
        ClientInitializeError::TransportError { error, .. } => fault_of(&*error.error),
        other => Fault::Other(format!("no MCP handshake: {other}")),
    }
}

pub(super) fn list_fault(e: &ServiceError) -> Fault {
    match e {
        ServiceError::TransportSend(t) => fault_of(&*t.error),
        ServiceError::McpError(d) => Fault::Other(format!("cannot list its tools: {}", d.message)),
        other => Fault::Other(format!("cannot list its tools: {other}")),
    }
}

/// Why a call's connection failed, said for people (rmcp's own words
/// name its types).
pub(super) fn said(e: &ServiceError) -> String {
    match e {
        ServiceError::TransportSend(t) => fault_of(&*t.error).to_string(),
        other => other.to_string(),
    }
}

/// Whether a call failed for an answer over the message limit.
pub(super) fn too_large(e: &ServiceError) -> bool {
    matches!(e, ServiceError::TransportSend(t) if fault_of(&*t.error) == Fault::TooLarge)
}

/// The fault an error of the transports comes down to.
fn fault_of(e: &(dyn StdError + 'static)) -> Fault {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(e) = cur {
        if let Some(f) = e.downcast_ref::<Fault>() {
            return f.clone();
        }
        if let Some(h) = e.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            match h {
                StreamableHttpError::AuthRequired(a) => {
                    return Fault::Oauth(shown_text(&a.www_authenticate_header));
                }
                StreamableHttpError::InsufficientScope(a) => {
                    return Fault::Oauth(shown_text(&a.www_authenticate_header));
                }
                StreamableHttpError::HttpStatus(s) => return Fault::Status(s.status),
                StreamableHttpError::UnexpectedContentType(ct) => {
                    return Fault::NotMcp(ct.as_deref().map(shown_text));
                }
                StreamableHttpError::ResponseBodyTooLarge { .. } => return Fault::TooLarge,
                StreamableHttpError::Client(r) => return of_reqwest(r),
                // rmcp says a 4xx as "HTTP 404 Not Found: BODY" (the body
                // is a web page as often as not: left out).
                StreamableHttpError::UnexpectedServerResponse(m) => {
                    if let Some(code) = m
                        .strip_prefix("HTTP ")
                        .and_then(|r| r.get(..3))
                        .and_then(|c| c.parse().ok())
                    {
                        return Fault::Status(code);
                    }
                }
                _ => {}
            }
        }
        if let Some(r) = e.downcast_ref::<reqwest::Error>() {
            return of_reqwest(r);
        }
        if cur.and_then(StdError::source).is_none() {
            return Fault::Other(shown_text(&e.to_string()));
        }
        cur = e.source();
    }
    Fault::Other("the connection failed".into())
}

/// A reqwest error as a fault, without its URL (which may hold a key).
pub(super) fn of_reqwest(r: &reqwest::Error) -> Fault {
    let mut innermost = None;
    let mut cur = r.source();
    while let Some(e) = cur {
        if let Some(c) = e.downcast_ref::<CrossHost>() {
            return Fault::CrossHost(c.0.clone());
        }
        innermost = Some(e);
        cur = e.source();
    }
    let why = innermost.map_or_else(
        || "the request failed".to_string(),
        |e| shown_text(&e.to_string()),
    );
    if r.is_connect() {
        Fault::Down(why)
    } else if r.is_timeout() {
        Fault::Other("the request timed out".into())
    } else {
        Fault::Other(why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_are_said_for_people() {
        let f = Fault::of_status(401, Some(&HeaderValue::from_static("Bearer realm=\"x\"\t")));
        let said = f.to_string();
        assert!(
            said.starts_with(
                "it asks for OAuth sign-in (HTTP 401, WWW-Authenticate: Bearer realm=\"x\" );"
            ),
            "{said}"
        );
        assert!(said.contains("Authorization = \"Bearer $TOKEN\""), "{said}");
        assert!(Fault::Status(404).older_server());
        assert!(Fault::Status(405).older_server());
        assert!(!Fault::Status(401).older_server());
        assert!(!Fault::Status(500).older_server());
        assert!(
            Fault::NotMcp(Some("text/html".into()))
                .to_string()
                .starts_with("it answered with text/html, not MCP")
        );
    }
}
