//! Requests besides the model's answers, through the same transports:
//! the models list (`--list-models`), the Files API's resumable upload (a
//! `start`, then the bytes streamed from their file) and its `files/NAME`
//! polling. Over HTTP ([`http`]) a
//! path goes under the base URL with the key; a whole URL (the upload
//! URL the API handed out) must be on the base URL's own scheme, host and
//! port, and gets no key: the upload id in it is the credential. A
//! `--record` file gets each exchange (an upload's bytes as their count
//! only, [`record`]); `--replay` answers by method and path (`replay.rs`).

use std::io::{Cursor, Read};
use std::sync::Mutex;

use serde_json::{Value, json};

use super::{
    BaseUrl, Http, Reply, Transport, TransportError, TransportErrorKind, display_url, write_record,
};

/// One request.
pub struct Exchange {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// A path under the base URL (query included), or a whole URL.
    pub target: String,
    pub headers: Vec<(&'static str, String)>,
    pub body: ExchangeBody,
}

pub enum ExchangeBody {
    None,
    /// A small body (JSON), sent with its length.
    Bytes(Vec<u8>),
    /// A stream of exactly this many bytes, sent with that length.
    Reader(Box<dyn Read + Send>, u64),
}

fn fatal(message: String) -> TransportError {
    TransportError {
        message,
        kind: TransportErrorKind::Fatal,
    }
}

/// The scheme and `host:port` of an http(s) URL.
fn origin(url: &str) -> Option<(String, String)> {
    let b = BaseUrl::parse(url.split(['?', '#']).next().unwrap_or(url)).ok()?;
    let scheme = url.split("://").next()?.to_ascii_lowercase();
    Some((scheme, b.authority.to_ascii_lowercase()))
}

pub(super) fn http(h: &Http, req: Exchange) -> Result<Reply, TransportError> {
    let whole = req.target.starts_with("http://") || req.target.starts_with("https://");
    let url = if whole {
        if origin(&req.target).is_none() || origin(&req.target) != origin(&h.base_url) {
            return Err(fatal(format!(
                "the API sent an address on another host ({}); nothing was sent there",
                display_url(&req.target)
            )));
        }
        req.target.clone()
    } else {
        format!("{}{}", h.base_url, req.target)
    };
    let result = match (req.method, req.body) {
        ("GET", _) => {
            let mut r = h.agent.get(&url);
            if let Some((k, v)) = h.auth.as_ref().filter(|_| !whole) {
                r = r.header(*k, v);
            }
            for (k, v) in &req.headers {
                r = r.header(*k, v);
            }
            r.call()
        }
        (_, body) => {
            let mut r = h.agent.post(&url);
            if let Some((k, v)) = h.auth.as_ref().filter(|_| !whole) {
                r = r.header(*k, v);
            }
            for (k, v) in &req.headers {
                r = r.header(*k, v);
            }
            match body {
                ExchangeBody::None => r.send_empty(),
                ExchangeBody::Bytes(b) => r.send(&b[..]),
                ExchangeBody::Reader(reader, len) => r
                    .header("content-length", len.to_string())
                    .send(ureq::SendBody::from_owned_reader(reader)),
            }
        }
    };
    match result {
        Ok(resp) => Ok(h.reply(resp)),
        Err(e) => Err(h.failed(e)),
    }
}

impl Http {
    /// A ureq error as ours, the URL's secrets scrubbed.
    pub(super) fn failed(&self, e: ureq::Error) -> TransportError {
        let mut err = super::classify(e, &self.timeouts);
        err.message = super::scrub_url(
            &format!("{}: {}", self.authority, err.message),
            &self.base_url,
        );
        err
    }

    /// A response as a [`Reply`], every header kept.
    pub(super) fn reply(&self, resp: ureq::http::Response<ureq::Body>) -> Reply {
        let headers: Vec<(String, String)> = resp
            .headers()
            .iter()
            .filter_map(|(k, v)| {
                Some((
                    k.as_str().to_ascii_lowercase(),
                    v.to_str().ok()?.to_string(),
                ))
            })
            .collect();
        let find = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        Reply {
            status: resp.status().as_u16(),
            content_type: find("content-type"),
            retry_after: find("retry-after"),
            headers: headers.clone(),
            body: Box::new(super::NamedTimeouts {
                inner: resp.into_body().into_reader(),
                read: self.timeouts.read,
            }),
            warning: None,
        }
    }
}

/// The path of a target, without its query or its scheme and host.
pub(super) fn path_of(target: &str) -> &str {
    let rest = match target.find("://") {
        Some(i) => {
            let after = &target[i + 3..];
            after.find('/').map_or("/", |j| &after[j..])
        }
        None => target,
    };
    rest.split(['?', '#']).next().unwrap_or(rest)
}

/// Makes the request through `inner` and writes it to the record file:
/// a JSON body as JSON, a stream as its length. The answer is read whole
/// (these are small: 16 MiB at most, as `models` reads) and handed on
/// from memory.
pub(super) fn record<T: Transport>(
    inner: &T,
    file: &Mutex<std::fs::File>,
    req: Exchange,
) -> Result<Reply, TransportError> {
    let body = match &req.body {
        ExchangeBody::None => Value::Null,
        ExchangeBody::Bytes(b) => serde_json::from_slice(b)
            .unwrap_or_else(|_| String::from_utf8_lossy(b).into_owned().into()),
        ExchangeBody::Reader(_, n) => format!("<{n} bytes>").into(),
    };
    // An upload URL's query is its credential: recorded without it.
    let path = display_url(&req.target);
    let request = json!({"method": req.method, "path": path, "body": body});
    match inner.exchange(req) {
        Ok(mut reply) => {
            let mut bytes = Vec::new();
            let read = (&mut reply.body).take(16 << 20).read_to_end(&mut bytes);
            // An upload URL's query (its upload id) is a credential.
            let headers: serde_json::Map<String, Value> = reply
                .headers
                .iter()
                .map(|(k, v)| match k.as_str() {
                    "x-goog-upload-url" | "x-goog-upload-control-url" => {
                        (k.clone(), Value::from(display_url(v)))
                    }
                    _ => (k.clone(), Value::from(v.clone())),
                })
                .collect();
            write_record(
                file,
                json!({"request": request,
                       "response": {"status": reply.status, "headers": headers,
                                    "body": String::from_utf8_lossy(&bytes)},
                       "timestamp": crate::events::now_rfc3339()}),
            );
            if let Err(e) = read {
                return Err(TransportError {
                    message: e.to_string(),
                    kind: TransportErrorKind::Retryable,
                });
            }
            reply.body = Box::new(Cursor::new(bytes));
            Ok(reply)
        }
        Err(e) => {
            write_record(
                file,
                json!({"request": request, "error": e.message, "timestamp": crate::events::now_rfc3339()}),
            );
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_origins() {
        assert_eq!(
            path_of("https://h.example/upload/v1beta/files?upload_id=x"),
            "/upload/v1beta/files"
        );
        assert_eq!(path_of("/v1beta/files/abc"), "/v1beta/files/abc");
        assert_eq!(
            origin("https://H.example/upload?x=1"),
            Some(("https".into(), "h.example:443".into()))
        );
        assert_ne!(origin("http://h.example/"), origin("https://h.example/"));
        assert_eq!(origin("nonsense"), None);
    }
}
