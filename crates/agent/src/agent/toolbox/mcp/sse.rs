//! The older HTTP+SSE transport of MCP (protocol 2024-11-05), for
//! servers that do not speak Streamable HTTP; rmcp has no client for it
//! any more. The client opens an event stream with a GET; the server's
//! first event (`endpoint`) names where to POST messages, which must be on
//! the same origin (else the headers would go elsewhere); its answers come
//! as `message` events on the stream. An event past [`pipe::MAX_MESSAGE`]
//! is dropped and counted in the server's [`pipe::Watch`], as a line too
//! long is for a server over stdio, so a call waiting for it ends at once.

use std::sync::Arc;

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, WWW_AUTHENTICATE};
use rmcp::RoleClient;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::{mpsc, oneshot};

use super::fault::{Fault, Headers, of_reqwest};
use super::pipe::{self, Watch};

/// A connection to a server over HTTP+SSE.
pub struct Legacy {
    client: reqwest::Client,
    post_to: reqwest::Url,
    headers: HeaderMap,
    rx: mpsc::Receiver<RxJsonRpcMessage<RoleClient>>,
    reader: tokio::task::JoinHandle<()>,
}

impl Legacy {
    /// Opens the event stream at `url` and waits for its endpoint.
    pub async fn open(
        client: reqwest::Client,
        url: &str,
        headers: &Headers,
        watch: Arc<Watch>,
    ) -> Result<Legacy, Fault> {
        let headers: HeaderMap = headers
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let response = client
            .get(url)
            .headers(headers.clone())
            .header(ACCEPT, "text/event-stream")
            .send()
            .await
            .map_err(|e| of_reqwest(&e))?;
        let status = response.status().as_u16();
        if !response.status().is_success() {
            return Err(Fault::of_status(
                status,
                response.headers().get(WWW_AUTHENTICATE),
            ));
        }
        let kind = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        if !kind
            .as_deref()
            .is_some_and(|k| k.starts_with("text/event-stream"))
        {
            return Err(Fault::NotMcp(kind));
        }
        let base = response.url().clone();
        let (endpoint_tx, endpoint_rx) = oneshot::channel();
        let (tx, rx) = mpsc::channel(64);
        let reader = tokio::spawn(read(response, endpoint_tx, tx, watch));
        let endpoint = endpoint_rx.await.map_err(|_| {
            Fault::Other("its event stream ended before it named an endpoint".into())
        })?;
        let post_to = base
            .join(&endpoint)
            .map_err(|_| Fault::Other("its event stream named no valid endpoint".into()))?;
        if post_to.origin() != base.origin() {
            reader.abort();
            return Err(Fault::CrossHost(post_to.origin().ascii_serialization()));
        }
        Ok(Legacy {
            client,
            post_to,
            headers,
            rx,
            reader,
        })
    }
}

impl Drop for Legacy {
    fn drop(&mut self) {
        self.reader.abort();
    }
}

/// Reads the event stream: the endpoint once, then each message.
async fn read(
    mut response: reqwest::Response,
    endpoint: oneshot::Sender<String>,
    tx: mpsc::Sender<RxJsonRpcMessage<RoleClient>>,
    watch: Arc<Watch>,
) {
    let mut parser = Parser::new(pipe::MAX_MESSAGE);
    let mut endpoint = Some(endpoint);
    let mut events = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        parser.feed(&chunk, &mut events, &watch);
        for ev in events.drain(..) {
            match ev.kind.as_str() {
                "endpoint" => {
                    if let Some(e) = endpoint.take() {
                        let _ = e.send(ev.data);
                    }
                }
                "message" | "" => {
                    // A message that is no JSON-RPC is skipped, as rmcp
                    // skips a line that is none over stdio.
                    if let Ok(m) = serde_json::from_str(&ev.data)
                        && tx.send(m).await.is_err()
                    {
                        return;
                    }
                }
                _ => {}
            }
        }
    }
}

impl Transport<RoleClient> for Legacy {
    type Error = Fault;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Fault>> + Send + 'static {
        let request = self
            .client
            .post(self.post_to.clone())
            .headers(self.headers.clone())
            .header(CONTENT_TYPE, "application/json")
            .body(serde_json::to_vec(&item).unwrap_or_default());
        async move {
            let r = request.send().await.map_err(|e| of_reqwest(&e))?;
            if r.status().is_success() {
                Ok(())
            } else {
                Err(Fault::of_status(
                    r.status().as_u16(),
                    r.headers().get(WWW_AUTHENTICATE),
                ))
            }
        }
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.rx.recv()
    }

    async fn close(&mut self) -> Result<(), Fault> {
        self.reader.abort();
        Ok(())
    }
}

/// One server-sent event.
#[derive(Debug, PartialEq)]
struct Event {
    kind: String,
    data: String,
}

/// Server-sent events from their bytes, each at most `max` bytes.
struct Parser {
    line: Vec<u8>,
    kind: String,
    data: String,
    /// Bytes of the current event so far.
    size: usize,
    /// The current event is past `max`: skipped to its end.
    over: bool,
    /// Bytes of the current line other than line breaks.
    visible: usize,
    max: usize,
}

impl Parser {
    fn new(max: usize) -> Parser {
        Parser {
            line: Vec::new(),
            kind: String::new(),
            data: String::new(),
            size: 0,
            over: false,
            visible: 0,
            max,
        }
    }

    /// Takes `bytes`; the events they end go to `out`, an event too
    /// large is counted in `watch`.
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<Event>, watch: &Watch) {
        for part in bytes.split_inclusive(|b| *b == b'\n') {
            self.visible += part.iter().filter(|b| !matches!(b, b'\r' | b'\n')).count();
            self.size += part.len();
            if self.size > self.max && !self.over {
                self.over = true;
                watch.flag();
                self.line.clear();
                self.data.clear();
            }
            if !self.over {
                self.line.extend_from_slice(part);
            }
            if part.ends_with(b"\n") {
                let blank = self.visible == 0;
                self.visible = 0;
                let line = std::mem::take(&mut self.line);
                if blank {
                    self.dispatch(out);
                } else if !self.over {
                    self.field(&line);
                }
            }
        }
    }

    /// A blank line: the event ends (one too large is dropped).
    fn dispatch(&mut self, out: &mut Vec<Event>) {
        if !self.over && !self.data.is_empty() {
            self.data.pop();
            out.push(Event {
                kind: std::mem::take(&mut self.kind),
                data: std::mem::take(&mut self.data),
            });
        }
        self.kind.clear();
        self.data.clear();
        self.size = 0;
        self.over = false;
    }

    /// A line of the event: `field: value` (a comment starts with `:`).
    fn field(&mut self, line: &[u8]) {
        let line = String::from_utf8_lossy(line);
        let line = line.trim_end_matches(['\n', '\r']);
        if line.starts_with(':') {
            return;
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => self.kind = value.to_string(),
            "data" => {
                self.data.push_str(value);
                self.data.push('\n');
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_read_across_chunks_and_oversized_ones_dropped_and_counted() {
        let watch = Watch::default();
        let mut p = Parser::new(64);
        let mut out = Vec::new();
        p.feed(b"event: endpoint\r\ndata: /message?s", &mut out, &watch);
        p.feed(
            b"=1\r\n\r\n: comment\n\nevent: message\ndata: {\"a\":",
            &mut out,
            &watch,
        );
        p.feed(b"\ndata: 1}\n\n", &mut out, &watch);
        assert_eq!(
            out,
            [
                Event {
                    kind: "endpoint".into(),
                    data: "/message?s=1".into()
                },
                Event {
                    kind: "message".into(),
                    data: "{\"a\":\n1}".into()
                }
            ]
        );
        out.clear();
        let big = format!("event: message\ndata: {}\n", "x".repeat(100));
        p.feed(big.as_bytes(), &mut out, &watch);
        p.feed(
            b"data: more\n\nevent: message\ndata: ok\n\n",
            &mut out,
            &watch,
        );
        assert_eq!(watch.count(), 1);
        assert_eq!(
            out,
            [Event {
                kind: "message".into(),
                data: "ok".into()
            }]
        );
    }
}
