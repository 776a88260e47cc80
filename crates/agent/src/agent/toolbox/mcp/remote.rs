//! MCP servers over HTTP (`url`, `http_url` in `[mcp.NAME]`). Streamable
//! HTTP is rmcp's own client transport over reqwest; a server that
//! answers its first POST with a 4xx (not 401 or 403) is an older one and,
//! for a `url`, is spoken to over HTTP+SSE instead ([`super::sse`], since
//! rmcp no longer has that client). Both send the entry's headers, their
//! `$NAME`s taken from the environment, marked sensitive (reqwest keeps
//! them out of its debug output) and never put in a message.
//!
//! The connection is bounded: a connect timeout for the TCP (and TLS)
//! connection, the whole start (handshake and tool list) within the same
//! time, each message within [`pipe::MAX_MESSAGE`], redirects followed only
//! to the same origin (307 and 308, which keep the request); a redirect to
//! another host is refused, so the headers never reach it. What went
//! wrong is said for people ([`super::fault`]): a server that is down, that
//! answers with a web page, that redirects elsewhere, that wants OAuth
//! (not supported: a token in a header works).

use std::error::Error as StdError;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue};
use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use super::fault::{CrossHost, Fault, Headers, init_fault, list_fault};
use super::{Connected, ServerSpec, StartError, pipe, sse};

/// Most redirects (to the same origin) followed for one request.
const MAX_REDIRECTS: usize = 10;

/// Connects to the server at `url` within `timeout`: Streamable HTTP,
/// else (with `fallback`) HTTP+SSE.
pub(super) async fn connect(
    spec: &ServerSpec,
    url: &str,
    fallback: bool,
    timeout: Duration,
) -> Result<Connected, StartError> {
    let (headers, secrets) = headers(spec, |n| crate::agent::environ::get().var(n))
        .map_err(|e| StartError::Remote(e.to_string()))?;
    // A server that echoes a header back (a debug tool, an error page)
    // must not hand it to the model: its values are redacted from output.
    crate::agent::toolbox::secrets::also_known(secrets);
    let client = client(timeout)
        .map_err(|e| StartError::Remote(format!("cannot set up its HTTP client: {e}")))?;
    let work = async {
        match streamable(&client, url, &headers).await {
            Ok(c) => Ok(c),
            Err(f) if fallback && f.older_server() => sse_connect(&client, url, &headers)
                .await
                .map_err(|g| match g {
                    Fault::Oauth(_) => StartError::Remote(g.to_string()),
                    g => StartError::Remote(format!(
                        "it does not speak Streamable HTTP ({f}), nor HTTP+SSE: {g}"
                    )),
                }),
            Err(f) => Err(StartError::Remote(f.to_string())),
        }
    };
    tokio::time::timeout(timeout, work)
        .await
        .map_err(|_| StartError::Timeout(timeout))?
}

async fn streamable(
    client: &reqwest::Client,
    url: &str,
    headers: &Headers,
) -> Result<Connected, Fault> {
    let config = StreamableHttpClientTransportConfig::with_uri(url)
        .custom_headers(headers.clone())
        .max_json_response_size(pipe::MAX_MESSAGE)
        .max_sse_event_size(pipe::MAX_MESSAGE);
    let transport = StreamableHttpClientTransport::with_client(client.clone(), config);
    let client = ().serve(transport).await.map_err(|e| init_fault(&e))?;
    let tools = client.list_all_tools().await.map_err(|e| list_fault(&e))?;
    Ok(Connected {
        client,
        tools,
        watch: Arc::default(),
        how: " over Streamable HTTP",
    })
}

async fn sse_connect(
    client: &reqwest::Client,
    url: &str,
    headers: &Headers,
) -> Result<Connected, Fault> {
    let watch = Arc::new(pipe::Watch::default());
    let transport = sse::Legacy::open(client.clone(), url, headers, watch.clone()).await?;
    let client = ().serve(transport).await.map_err(|e| init_fault(&e))?;
    let tools = client.list_all_tools().await.map_err(|e| list_fault(&e))?;
    Ok(Connected {
        client,
        tools,
        watch,
        how: " over HTTP+SSE",
    })
}

/// Why an entry's headers cannot be sent; never a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum HeaderError {
    #[error("header {0:?} is not an HTTP header name")]
    BadName(String),
    #[error("header {header} names ${var}, which is not set")]
    Unset { header: String, var: String },
    #[error("header {0}: its value is not valid in HTTP (a line break or a control character?)")]
    BadValue(String),
}

/// A variable a header names that is unset (or empty): its name.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Unset(String);

/// The entry's headers, each `$NAME` or `${NAME}` in a value replaced by
/// that variable of `env` (`$$` is a `$`), and the secrets among them:
/// the variables' values, and the value and its words of a header that
/// carries credentials. An error names the header and the variable,
/// never a value.
pub(super) fn headers(
    spec: &ServerSpec,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(Headers, Vec<String>), HeaderError> {
    let mut out = Headers::new();
    let mut secrets = Vec::new();
    for (k, v) in &spec.headers {
        let name =
            HeaderName::from_bytes(k.as_bytes()).map_err(|_| HeaderError::BadName(k.clone()))?;
        let (value, vars) = expand(v, &env).map_err(|Unset(var)| HeaderError::Unset {
            header: k.clone(),
            var,
        })?;
        let credential = matches!(
            name.as_str(),
            "authorization" | "proxy-authorization" | "cookie"
        ) || crate::agent::toolbox::secrets::is_secret_name(k);
        if credential || !vars.is_empty() {
            secrets.extend(value.split_whitespace().map(str::to_string));
            secrets.push(value.clone());
        }
        secrets.extend(vars);
        let mut value =
            HeaderValue::from_str(&value).map_err(|_| HeaderError::BadValue(k.clone()))?;
        value.set_sensitive(true);
        out.insert(name, value);
    }
    Ok((out, secrets))
}

/// `value` with its variables replaced, and their values; the name of
/// one unset (or empty).
fn expand(
    value: &str,
    env: &impl Fn(&str) -> Option<String>,
) -> Result<(String, Vec<String>), Unset> {
    let mut vars = Vec::new();
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        rest = &rest[i + 1..];
        if let Some(r) = rest.strip_prefix('$') {
            out.push('$');
            rest = r;
            continue;
        }
        let (name, after) = match rest.strip_prefix('{') {
            Some(r) => match r.find('}') {
                Some(end) => (&r[..end], &r[end + 1..]),
                None => ("", rest),
            },
            None => {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                (&rest[..end], &rest[end..])
            }
        };
        let valid = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        if !valid {
            // Not a variable: a `$` as it is.
            out.push('$');
            continue;
        }
        match env(name).filter(|v| !v.is_empty()) {
            Some(v) => {
                out.push_str(&v);
                vars.push(v);
            }
            None => return Err(Unset(name.to_string())),
        }
        rest = after;
    }
    out.push_str(rest);
    Ok((out, vars))
}

/// The HTTP client: TLS by rustls (ring, webpki's roots), `timeout` to
/// connect, redirects only to the same origin.
fn client(timeout: Duration) -> Result<reqwest::Client, Box<dyn StdError + Send + Sync>> {
    let roots = rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()?
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(reqwest::Client::builder()
        .tls_backend_preconfigured(tls)
        .connect_timeout(timeout)
        .pool_max_idle_per_host(0)
        .redirect(reqwest::redirect::Policy::custom(|attempt| {
            let same = attempt
                .previous()
                .first()
                .is_some_and(|o| o.origin() == attempt.url().origin());
            if !same {
                let to = attempt.url().origin().ascii_serialization();
                return attempt.error(CrossHost(to));
            }
            let keeps_body = matches!(attempt.status().as_u16(), 307 | 308);
            if !keeps_body || attempt.previous().len() > MAX_REDIRECTS {
                return attempt.stop();
            }
            attempt.follow()
        }))
        .build()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_take_variables_and_never_show_them() {
        let env = |n: &str| match n {
            "TOKEN" => Some("s3cr3t".to_string()),
            "EMPTY" => Some(String::new()),
            _ => None,
        };
        let e = |v: &str| expand(v, &env).map(|(v, _)| v);
        assert_eq!(expand("a $TOKEN", &env).unwrap().1, ["s3cr3t"]);
        assert_eq!(e("Bearer $TOKEN").unwrap(), "Bearer s3cr3t");
        assert_eq!(e("Bearer ${TOKEN}x").unwrap(), "Bearer s3cr3tx");
        assert_eq!(e("cost $5 and $$HOME $").unwrap(), "cost $5 and $HOME $");
        assert_eq!(e("$MISSING").unwrap_err(), Unset("MISSING".into()));
        assert_eq!(e("${EMPTY}").unwrap_err(), Unset("EMPTY".into()));
        let spec: ServerSpec = toml::from_str(
            "url = \"http://h/\"\nheaders = { Authorization = \"Bearer $TOKEN\", X-Other = \"${NOPE}\" }\n",
        )
        .unwrap();
        let err = headers(&spec, env).unwrap_err().to_string();
        assert_eq!(err, "header X-Other names $NOPE, which is not set");
        let mut spec = spec;
        spec.headers.remove("X-Other");
        spec.headers
            .insert("Accept-Language".into(), "en-GB-oxendict".into());
        let (h, secrets) = headers(&spec, env).unwrap();
        assert_eq!(secrets, ["Bearer", "s3cr3t", "Bearer s3cr3t", "s3cr3t"]);
        let v = &h[&HeaderName::from_static("authorization")];
        assert!(v.is_sensitive());
        assert!(!format!("{v:?}").contains("s3cr3t"));
    }
}
