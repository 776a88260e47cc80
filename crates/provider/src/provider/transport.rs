//! How a request body reaches the model and the raw answer comes back:
//! over HTTPS ([`Http`]), from a `--replay` file ([`Replay`], in
//! `replay.rs`), or either one with a copy of every exchange written to a
//! `--record` file ([`Recording`]). The client above sees only a status, a
//! `Retry-After` and a byte stream, so replayed sessions go through
//! exactly the code that live ones do. Requests other than for an answer
//! (the models list, the Files API) are [`Exchange`]s (`exchange.rs`).
//!
//! The record format is JSON lines, one exchange per line:
//! `{"request":{"method","path","body"},"response":{"status","headers","body"},"timestamp"}`
//! where `response.body` is the raw bytes as text (SSE framing kept). The
//! API key is a header and headers are never recorded.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

/// The raw answer to one POST.
pub struct Reply {
    pub status: u16,
    pub content_type: Option<String>,
    pub retry_after: Option<String>,
    pub body: Box<dyn Read + Send>,
    /// Said to the user as a warning: a `--replay` answer recorded for a
    /// different request.
    pub warning: Option<String>,
    /// Every response header, names in lower case (the Files API's
    /// upload URL is one); empty where nobody needs them.
    pub headers: Vec<(String, String)>,
}

/// A failure before any HTTP status arrived.
#[derive(Debug, Clone)]
pub struct TransportError {
    pub message: String,
    pub kind: TransportErrorKind,
}

/// Whether another attempt can help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportErrorKind {
    /// Connection trouble that another attempt may not meet: refused,
    /// reset, timed out, name not resolved.
    Retryable,
    /// The same request would fail the same way: a bad URL, an unknown
    /// scheme, a TLS or configuration error.
    Fatal,
    /// A `--replay` file with no exchange left.
    ReplayExhausted,
}

/// A `--base-url` that parsed as an http(s) URL with a host.
#[derive(Debug, Clone)]
pub struct BaseUrl {
    /// As given, without a trailing `/`; used for requests only.
    pub raw: String,
    /// `host:port` (port defaulted from the scheme), for messages.
    pub authority: String,
}

/// A base URL that is not one: the URL as [`display_url`] shows it (no
/// credentials, no query) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid base URL {shown:?}: {why}; expected an http(s) URL such as {}",
    super::DEFAULT_BASE_URL
)]
pub struct BadBaseUrl {
    pub shown: String,
    pub why: &'static str,
}

impl BaseUrl {
    /// Checks `text` is an http(s) URL with a host. The error names the URL
    /// without its credentials or query.
    pub fn parse(text: &str) -> Result<BaseUrl, BadBaseUrl> {
        let bad = |why: &'static str| BadBaseUrl {
            shown: display_url(text),
            why,
        };
        let uri: ureq::http::Uri = text.trim().parse().map_err(|_| bad("not a URL"))?;
        let raw = text.trim().trim_end_matches('/');
        let default_port = match uri.scheme_str() {
            Some(s) if s.eq_ignore_ascii_case("https") => 443,
            Some(s) if s.eq_ignore_ascii_case("http") => 80,
            Some(_) => return Err(bad("the scheme is not http or https")),
            None => return Err(bad("no scheme")),
        };
        let host = uri
            .host()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad("no host"))?;
        // The request path is appended to the base; a query or fragment
        // there would end up in the middle of the URL.
        if text.contains(['?', '#']) {
            return Err(bad("a query or fragment cannot be part of it"));
        }
        Ok(BaseUrl {
            raw: raw.to_string(),
            authority: format!("{host}:{}", uri.port_u16().unwrap_or(default_port)),
        })
    }
}

/// `url` without its userinfo (`user:password@`), query and fragment: the
/// form every message shows, since those parts may hold credentials.
pub fn display_url(url: &str) -> String {
    let (scheme, rest) = match url.find("://") {
        Some(i) => url.split_at(i + 3),
        None => ("", url),
    };
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let auth_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(auth_end);
    let host = authority.rsplit('@').next().unwrap_or(authority);
    format!("{scheme}{host}{path}")
}

/// `text` with the secret parts of `url` (userinfo, query, fragment)
/// replaced, wherever a library quoted the URL in an error.
pub fn scrub_url(text: &str, url: &str) -> String {
    let mut out = text.replace(url, &display_url(url));
    let (_, rest) = url.split_at(url.find("://").map_or(0, |i| i + 3));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let mut secrets: Vec<&str> = Vec::new();
    if let Some(at) = authority.rfind('@') {
        secrets.push(&authority[..at]);
    }
    if let Some(q) = rest.find(['?', '#']) {
        secrets.push(&rest[q + 1..]);
    }
    for s in secrets.into_iter().filter(|s| s.len() >= 3) {
        out = out.replace(s, "[REDACTED]");
    }
    out
}

pub trait Transport: Send + Sync {
    /// POSTs `body` to `path` (`/v1beta/models/...`, query included).
    fn post(&self, path: &str, body: &[u8]) -> Result<Reply, TransportError>;

    /// Any other request (the Files API's upload and polling, see
    /// [`exchange`]); a transport that makes none says so.
    fn exchange(&self, req: Exchange) -> Result<Reply, TransportError> {
        Err(TransportError {
            message: format!(
                "cannot {} {}: this transport only asks for answers",
                req.method, req.target
            ),
            kind: TransportErrorKind::Fatal,
        })
    }
}

pub mod exchange;
mod replay;

pub use exchange::{Exchange, ExchangeBody};
pub use replay::Replay;

/// The live API over ureq (rustls).
pub struct Http {
    pub(super) agent: ureq::Agent,
    pub(super) base_url: String,
    /// `host:port`, named in connection errors.
    pub(super) authority: String,
    /// The header carrying the key, and its value; none for a server that
    /// needs no key.
    pub(super) auth: Option<(&'static str, String)>,
    pub(super) timeouts: Timeouts,
    /// The `Accept` header: SSE for the chat stream.
    pub(super) accept: &'static str,
}

/// Connect and per-read limits; no total limit, so a long healthy stream is
/// never cut, while a silent peer is.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    pub connect: Duration,
    pub read: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            connect: Duration::from_secs(30),
            read: Duration::from_secs(300),
        }
    }
}

impl Http {
    /// Gemini's API, the key in `x-goog-api-key`.
    pub fn new(base_url: &str, api_key: String, timeouts: Timeouts) -> Http {
        Http::with_auth(base_url, Some(("x-goog-api-key", api_key)), timeouts)
    }

    pub fn with_auth(
        base_url: &str,
        auth: Option<(&'static str, String)>,
        timeouts: Timeouts,
    ) -> Http {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(None)
            .timeout_per_call(None)
            .timeout_connect(Some(timeouts.connect))
            .timeout_recv_response(Some(timeouts.read))
            .timeout_recv_body(None)
            .timeout_per_read(Some(timeouts.read))
            // The API never redirects; following one would hand the key
            // header to whatever host the Location names.
            .max_redirects(0)
            .user_agent(concat!("gemline/", env!("CARGO_PKG_VERSION")))
            .build();
        let authority = BaseUrl::parse(base_url)
            .map(|b| b.authority)
            .unwrap_or_else(|_| display_url(base_url));
        Http {
            agent: config.into(),
            base_url: base_url.trim().trim_end_matches('/').to_string(),
            authority,
            auth,
            timeouts,
            accept: "text/event-stream",
        }
    }

    /// The same client asking for another content type (JSON answers
    /// such as embeddings').
    pub fn accepting(mut self, accept: &'static str) -> Http {
        self.accept = accept;
        self
    }
}

impl Transport for Http {
    fn post(&self, path: &str, body: &[u8]) -> Result<Reply, TransportError> {
        let url = format!("{}{}", self.base_url, path);
        let mut req = self.agent.post(&url);
        if let Some((name, value)) = &self.auth {
            req = req.header(*name, value);
        }
        req.header("content-type", "application/json")
            .header("accept", self.accept)
            .send(body)
            .map(|resp| self.reply(resp))
            .map_err(|e| self.failed(e))
    }

    fn exchange(&self, req: Exchange) -> Result<Reply, TransportError> {
        exchange::http(self, req)
    }
}

pub(super) fn classify(e: ureq::Error, t: &Timeouts) -> TransportError {
    use ureq::Error as E;
    use ureq::Timeout as T;
    let kind = if matches!(
        e,
        E::Io(_)
            | E::Timeout(_)
            | E::HostNotFound
            | E::ConnectionFailed
            | E::Protocol(_)
            | E::BodyStalled
    ) {
        TransportErrorKind::Retryable
    } else {
        TransportErrorKind::Fatal
    };
    // ureq's messages carry the URL at most, never headers: the key stays
    // out. Its timeout names ("timeout: connect") are said in our flags.
    let message = match e {
        E::Timeout(T::Connect | T::Resolve) => format!(
            "no connection within {}s (--connect-timeout)",
            t.connect.as_secs_f64()
        ),
        E::Timeout(T::RecvResponse | T::PerRead) => {
            format!(
                "no answer within {}s (--read-timeout)",
                t.read.as_secs_f64()
            )
        }
        other => other.to_string(),
    };
    TransportError { message, kind }
}

/// The response body, with ureq's per-read timeout told as `--read-timeout`.
pub(super) struct NamedTimeouts<R> {
    pub(super) inner: R,
    pub(super) read: Duration,
}

impl<R: Read> Read for NamedTimeouts<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(|e| {
            let timed_out = e
                .get_ref()
                .and_then(|x| x.downcast_ref::<ureq::Error>())
                .is_some_and(|x| matches!(x, ureq::Error::Timeout(_)));
            if timed_out {
                io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("no data for {}s (--read-timeout)", self.read.as_secs_f64()),
                )
            } else {
                e
            }
        })
    }
}

/// Wraps a transport and appends every exchange to a record file.
pub struct Recording<T> {
    pub(super) inner: T,
    pub(super) file: Arc<Mutex<File>>,
}

impl<T: Transport> Recording<T> {
    pub fn new(inner: T, path: &Path) -> anyhow::Result<Recording<T>> {
        let file = File::create(path)
            .map_err(|e| anyhow::anyhow!("cannot create record file {}: {e}", path.display()))?;
        Ok(Recording {
            inner,
            file: Arc::new(Mutex::new(file)),
        })
    }
}

impl<T: Transport> Transport for Recording<T> {
    fn post(&self, path: &str, body: &[u8]) -> Result<Reply, TransportError> {
        let request_body: Value =
            serde_json::from_slice(body).unwrap_or_else(|_| String::from_utf8_lossy(body).into());
        let request = json!({"method": "POST", "path": path, "body": request_body});
        match self.inner.post(path, body) {
            Ok(reply) => {
                let mut headers = serde_json::Map::new();
                if let Some(ct) = &reply.content_type {
                    headers.insert("content-type".into(), ct.clone().into());
                }
                if let Some(ra) = &reply.retry_after {
                    headers.insert("retry-after".into(), ra.clone().into());
                }
                let tee = Tee {
                    inner: reply.body,
                    copy: Vec::new(),
                    pending: Some((request, reply.status, Value::Object(headers))),
                    file: self.file.clone(),
                };
                Ok(Reply {
                    status: reply.status,
                    content_type: reply.content_type,
                    retry_after: reply.retry_after,
                    headers: reply.headers,
                    body: Box::new(tee),
                    warning: reply.warning,
                })
            }
            Err(e) => {
                write_record(
                    &self.file,
                    json!({"request": request, "error": e.message, "timestamp": crate::events::now_rfc3339()}),
                );
                Err(e)
            }
        }
    }

    fn exchange(&self, req: Exchange) -> Result<Reply, TransportError> {
        exchange::record(&self.inner, &self.file, req)
    }
}

/// Copies the body as it is read; the record line is written when the body
/// is dropped, so a stream cut midway is recorded as far as it came.
struct Tee {
    inner: Box<dyn Read + Send>,
    copy: Vec<u8>,
    pending: Option<(Value, u16, Value)>,
    file: Arc<Mutex<File>>,
}

impl Read for Tee {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.copy.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

impl Drop for Tee {
    fn drop(&mut self) {
        if let Some((request, status, headers)) = self.pending.take() {
            let body = String::from_utf8_lossy(&self.copy).into_owned();
            write_record(
                &self.file,
                json!({"request": request,
                       "response": {"status": status, "headers": headers, "body": body},
                       "timestamp": crate::events::now_rfc3339()}),
            );
        }
    }
}

pub(super) fn write_record(file: &Mutex<File>, line: Value) {
    let mut text = line.to_string();
    text.push('\n');
    if let Ok(mut f) = file.lock() {
        // A record file is a debugging aid: failing to write it must not
        // fail the answer, but it is said once on stderr.
        if let Err(e) = f.write_all(text.as_bytes()) {
            crate::term::diag(format!(
                "gem-ask: warning: cannot write the record file: {e}"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_are_checked() {
        let ok = BaseUrl::parse("https://generativelanguage.googleapis.com/").unwrap();
        assert_eq!(ok.authority, "generativelanguage.googleapis.com:443");
        assert_eq!(ok.raw, "https://generativelanguage.googleapis.com");
        assert_eq!(
            BaseUrl::parse("http://127.0.0.1:8080/v").unwrap().authority,
            "127.0.0.1:8080"
        );
        for bad in [
            "ftp://x",
            "localhost:8080",
            "http://",
            "not a url",
            "",
            "https://gw.example/v?tenant=a",
            "https://gw.example/#x",
        ] {
            let e = BaseUrl::parse(bad).unwrap_err().to_string();
            assert!(e.contains("expected an http(s) URL"), "{bad}: {e}");
        }
        let e = BaseUrl::parse("ftp://u:pw@x/?key=s3cret")
            .unwrap_err()
            .to_string();
        assert!(!e.contains("pw") && !e.contains("s3cret"), "{e}");
    }

    #[test]
    fn userinfo_and_query_never_shown() {
        assert_eq!(
            display_url("https://user:pw@host:1/p/a?key=k#f"),
            "https://host:1/p/a"
        );
        assert_eq!(display_url("http://h"), "http://h");
        let url = "https://user:hunter2@host/p?token=abcdef";
        let msg = format!("bad uri {url} and https://user:hunter2@host/p");
        let s = scrub_url(&msg, url);
        assert!(!s.contains("hunter2") && !s.contains("abcdef"), "{s}");
    }

    #[test]
    fn configuration_errors_are_fatal() {
        let t = Timeouts::default();
        assert_eq!(
            classify(ureq::Error::BadUri("x".into()), &t).kind,
            TransportErrorKind::Fatal
        );
        assert_eq!(
            classify(ureq::Error::Tls("no roots"), &t).kind,
            TransportErrorKind::Fatal
        );
        assert_eq!(
            classify(ureq::Error::ConnectionFailed, &t).kind,
            TransportErrorKind::Retryable
        );
    }
}
