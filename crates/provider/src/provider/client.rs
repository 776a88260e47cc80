//! One streamed model call with its retries: POST the body, read the SSE
//! answer, fold it into a [`Turn`], pass each text piece to the caller the
//! moment it arrives, and try again on 429/5xx/connection trouble as long as
//! nothing has been shown yet. The wire format (path, body, chunks, error
//! bodies) is the [`Provider`]'s; this is the same for every provider.
//!
//! The network is read on a worker thread that hands SSE payloads over a
//! bounded channel (a slow reader of our output holds the network back
//! instead of queueing the answer in memory); the caller's thread waits on that channel in short slices, so a
//! SIGINT/SIGTERM (an atomic flag) ends the call within ~50 ms even while
//! the model is silent, and the program can still write its `result`.

use std::io::{BufReader, Read};
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use serde_json::Value;

use super::blob::Blobs;
use super::error::GenError;
use super::retry::RetryPolicy;
use super::sse::SseReader;
use super::transport::{Transport, TransportErrorKind};
use super::turn::{Delta, Turn};
use crate::provider::{Provider, ProviderKind};

/// What the caller sees of a call in progress.
pub trait Observer {
    fn delta(&mut self, d: &Delta) -> std::io::Result<()>;
    /// Called before each wait between attempts.
    fn retry(&mut self, attempt: u32, delay: Duration, reason: &str) -> std::io::Result<()>;
    /// Polled while waiting; true ends the call with [`GenError::Interrupted`].
    fn interrupted(&self) -> bool;
    /// Called after a wait between attempts, before the next attempt.
    fn resume(&mut self) {}
    /// Something the user should know that does not stop the call.
    fn warning(&mut self, _text: &str) -> std::io::Result<()> {
        Ok(())
    }
}

#[derive(Clone)]
pub struct Client {
    transport: Arc<dyn Transport>,
    provider: Arc<dyn Provider>,
    model: String,
    pub retry: RetryPolicy,
}

/// Payloads read ahead of the caller at most: enough to keep the network
/// busy, few enough that memory stays flat however long the answer.
const CHUNK_QUEUE: usize = 64;

/// What the worker thread reports.
enum Wire {
    Status(u16, Option<String>),
    ErrorBody(String),
    Data(String),
    ReadFailed(String),
    End,
    NoReply(String, TransportErrorKind),
    Warning(String),
}

impl Client {
    /// A client of Gemini's own API.
    pub fn new(transport: Arc<dyn Transport>, model: &str, retry: RetryPolicy) -> Client {
        Client::with_provider(ProviderKind::Gemini.provider(), transport, model, retry)
    }

    pub fn with_provider(
        provider: Arc<dyn Provider>,
        transport: Arc<dyn Transport>,
        model: &str,
        retry: RetryPolicy,
    ) -> Client {
        Client {
            transport,
            provider,
            model: model.to_string(),
            retry,
        }
    }

    /// The transport, for requests that are not a streamed answer (the
    /// Files API, the models list, countTokens: `provider::models`).
    pub fn transport(&self) -> &dyn Transport {
        self.transport.as_ref()
    }

    pub fn provider(&self) -> &dyn Provider {
        self.provider.as_ref()
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    /// The request path; the key is a header, never part of it.
    pub fn path(&self) -> String {
        self.provider.path(&self.model)
    }

    /// Sends one request, built in Gemini's shape (`request::build`), in
    /// the provider's wire format and streams the answer, retrying as the
    /// policy allows.
    pub fn generate(&self, body: Value, obs: &mut dyn Observer) -> Result<Turn, GenError> {
        self.generate_with(body, &Blobs::default(), obs)
    }

    /// [`Client::generate`] of a body whose inline attachments are
    /// placeholders of `blobs`: their base64 is written into the body
    /// bytes once, from their files ([`Blobs::splice`]).
    pub fn generate_with(
        &self,
        body: Value,
        blobs: &Blobs,
        obs: &mut dyn Observer,
    ) -> Result<Turn, GenError> {
        let wire = self.provider.body(body, &self.model);
        let json = serde_json::to_vec(&wire).expect("a JSON value always serializes");
        drop(wire);
        // Shared with each attempt's reader thread, not copied to it.
        let bytes = Arc::new(
            blobs
                .splice(json)
                .map_err(|e| GenError::Attachment(e.to_string()))?,
        );
        let mut attempt = 0u32;
        let mut waited = Duration::ZERO;
        loop {
            let (result, shown) = self.attempt(&bytes, obs);
            let err = match result {
                Ok(turn) => return Ok(turn),
                Err(e) => e,
            };
            let hint = match &err {
                GenError::Api(a) if a.retryable() => Some(a.retry_after),
                GenError::Connection(_) | GenError::StreamCut(_) => Some(None),
                _ => None,
            };
            // Once text went out, another attempt would show it twice.
            let Some(hint) = hint.filter(|_| !shown) else {
                return Err(err);
            };
            attempt += 1;
            let Some(delay) = self.retry.delay(attempt, hint, waited) else {
                if attempt > self.retry.retries {
                    return Err(err);
                }
                // Retries were left but the wait did not fit: say so, or a
                // 429 that asks for 60 s looks like a refusal to retry.
                let note = format!(
                    " (not retried: {}waiting would pass --max-wait {}s)",
                    hint.map(|h| format!("the server asked for {}s; ", h.as_secs_f64()))
                        .unwrap_or_default(),
                    self.retry.max_wait.as_secs()
                );
                return Err(err.with_note(&note));
            };
            let reason = match &err {
                GenError::Api(a) => format!("HTTP {} {}", a.code, a.status).trim().to_string(),
                other => other.to_string(),
            };
            obs.retry(attempt, delay, &reason)?;
            sleep_interruptibly(delay, obs)?;
            obs.resume();
            waited += delay;
        }
    }

    /// One attempt; the flag says whether any delta reached the observer.
    fn attempt(
        &self,
        body: &Arc<Vec<u8>>,
        obs: &mut dyn Observer,
    ) -> (Result<Turn, GenError>, bool) {
        let (tx, rx) = mpsc::sync_channel(CHUNK_QUEUE);
        let transport = self.transport.clone();
        let path = self.path();
        let body = body.clone();
        std::thread::spawn(move || pump(transport.as_ref(), &path, &body, &tx));
        let mut fold = self.provider.stream();
        let mut shown = false;
        let mut status = 0;
        let mut retry_after = None;
        loop {
            let msg = match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => {
                    if obs.interrupted() {
                        return (Err(GenError::Interrupted), shown);
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => Wire::ReadFailed("reader stopped".into()),
            };
            if obs.interrupted() {
                return (Err(GenError::Interrupted), shown);
            }
            match msg {
                Wire::NoReply(m, kind) => {
                    let e = match kind {
                        TransportErrorKind::Retryable => GenError::Connection(m),
                        TransportErrorKind::Fatal => GenError::ConnectionFatal(m),
                        TransportErrorKind::ReplayExhausted => GenError::Replay(m),
                    };
                    return (Err(e), shown);
                }
                Wire::Warning(w) => {
                    if let Err(e) = obs.warning(&w) {
                        return (Err(GenError::Output(e)), shown);
                    }
                }
                Wire::Status(s, ra) => {
                    status = s;
                    retry_after = ra;
                }
                Wire::ErrorBody(b) => {
                    let e = self.provider.error(status, &b, retry_after.as_deref());
                    let e = match super::error::ModelGone::from_api(&e, &self.model) {
                        Some(gone) => GenError::ModelGone(gone),
                        None => GenError::Api(e),
                    };
                    return (Err(e), shown);
                }
                Wire::Data(d) => {
                    let deltas = match fold.push(&d) {
                        Ok(d) => d,
                        Err(e) => return (Err(e), shown),
                    };
                    for d in &deltas {
                        if let Err(e) = obs.delta(d) {
                            return (Err(GenError::Output(e)), true);
                        }
                        shown = true;
                    }
                }
                Wire::ReadFailed(m) => return (Err(GenError::StreamCut(m)), shown),
                Wire::End => return (fold.finish(), shown),
            }
        }
    }
}

/// The worker: sends, then forwards the answer piece by piece. A closed
/// channel (the caller gave up) ends it quietly.
fn pump(transport: &dyn Transport, path: &str, body: &[u8], tx: &mpsc::SyncSender<Wire>) {
    let reply = match transport.post(path, body) {
        Ok(r) => r,
        Err(e) => {
            let _ = tx.send(Wire::NoReply(e.message, e.kind));
            return;
        }
    };
    if let Some(w) = &reply.warning {
        let _ = tx.send(Wire::Warning(w.clone()));
    }
    let _ = tx.send(Wire::Status(reply.status, reply.retry_after.clone()));
    let mut body = reply.body;
    // The body is dropped before the last message goes out: a --record tee
    // writes its line on drop, and the caller may exit right after.
    if !(200..300).contains(&reply.status) {
        let mut buf = Vec::new();
        let _ = body.by_ref().take(1 << 20).read_to_end(&mut buf);
        drop(body);
        let _ = tx.send(Wire::ErrorBody(String::from_utf8_lossy(&buf).into_owned()));
        return;
    }
    // Without alt=sse (some gateways drop the query) the same chunks come
    // as one JSON array.
    if reply
        .content_type
        .as_deref()
        .is_some_and(|ct| ct.contains("json"))
    {
        // Bounded like the SSE reader: a peer cannot exhaust memory.
        let limit = super::sse::MAX_EVENT as u64;
        let mut buf = Vec::new();
        let read = body.by_ref().take(limit + 1).read_to_end(&mut buf);
        drop(body);
        let last = match read {
            Err(e) => Wire::ReadFailed(e.to_string()),
            Ok(_) if buf.len() as u64 > limit => Wire::ReadFailed(format!(
                "the JSON answer is longer than {} MiB",
                limit >> 20
            )),
            Ok(_) => match serde_json::from_slice::<Value>(&buf) {
                Ok(Value::Array(chunks)) => {
                    for c in chunks {
                        if tx.send(Wire::Data(c.to_string())).is_err() {
                            return;
                        }
                    }
                    Wire::End
                }
                Ok(obj @ Value::Object(_)) => {
                    let _ = tx.send(Wire::Data(obj.to_string()));
                    Wire::End
                }
                Ok(_) | Err(_) => {
                    Wire::ReadFailed("the JSON answer is not a chunk or a list of chunks".into())
                }
            },
        };
        let _ = tx.send(last);
        return;
    }
    let mut sse = SseReader::new(BufReader::with_capacity(64 * 1024, body));
    let last = loop {
        match sse.next_event() {
            Ok(Some(ev)) => {
                if tx.send(Wire::Data(ev.data)).is_err() {
                    return;
                }
            }
            Ok(None) => break Wire::End,
            Err(e) => break Wire::ReadFailed(e.to_string()),
        }
    };
    drop(sse);
    let _ = tx.send(last);
}

fn sleep_interruptibly(total: Duration, obs: &dyn Observer) -> Result<(), GenError> {
    let step = Duration::from_millis(20);
    let start = std::time::Instant::now();
    while start.elapsed() < total {
        if obs.interrupted() {
            return Err(GenError::Interrupted);
        }
        std::thread::sleep(step.min(total.saturating_sub(start.elapsed())));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::transport::{Reply, TransportError};
    use std::sync::atomic::{AtomicU32, Ordering};

    struct Failing(TransportErrorKind, AtomicU32);

    impl Transport for Failing {
        fn post(&self, _: &str, _: &[u8]) -> Result<Reply, TransportError> {
            self.1.fetch_add(1, Ordering::SeqCst);
            Err(TransportError {
                message: "x".into(),
                kind: self.0,
            })
        }
    }

    struct Quiet;

    impl Observer for Quiet {
        fn delta(&mut self, _: &Delta) -> std::io::Result<()> {
            Ok(())
        }
        fn retry(&mut self, _: u32, _: Duration, _: &str) -> std::io::Result<()> {
            Ok(())
        }
        fn interrupted(&self) -> bool {
            false
        }
    }

    fn attempts(kind: TransportErrorKind) -> (u32, GenError) {
        let t = Arc::new(Failing(kind, AtomicU32::new(0)));
        let policy = RetryPolicy {
            retries: 3,
            base: Duration::from_millis(1),
            ..RetryPolicy::default()
        };
        let client = Client::new(t.clone(), "m", policy);
        let err = client.generate(Value::Null, &mut Quiet).unwrap_err();
        (t.1.load(Ordering::SeqCst), err)
    }

    #[test]
    fn fatal_transport_errors_are_not_retried() {
        let (n, e) = attempts(TransportErrorKind::Fatal);
        assert_eq!(n, 1);
        assert_eq!(e.kind(), "connection_error");
        let (n, e) = attempts(TransportErrorKind::ReplayExhausted);
        assert_eq!(n, 1);
        assert_eq!(e.kind(), "replay_error");
        let (n, _) = attempts(TransportErrorKind::Retryable);
        assert_eq!(n, 4);
    }
}
