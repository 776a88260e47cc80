//! The Files API: a file too large to go inline is uploaded once and
//! referenced by its URI (`fileData`). The resumable protocol: a `start`
//! request (`POST /upload/v1beta/files`, the size and MIME type in
//! `X-Goog-Upload-Header-*` headers, the display name in a JSON body)
//! answers with an upload URL (`x-goog-upload-url`); the bytes go there
//! in one `upload, finalize` request, streamed from the file; the answer
//! is the `File` (`name`, `uri`, `state`, `expirationTime`). A file still
//! `PROCESSING` (video, large PDFs) is polled (`GET /v1beta/files/NAME`)
//! until `ACTIVE`; `FAILED` is an error. 429, 5xx and connection failures
//! start the upload again as the retry policy allows.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::error::{ApiError, GenError};
use super::retry::RetryPolicy;
use super::transport::{Exchange, ExchangeBody, Reply, Transport, TransportErrorKind};

/// A file to upload.
pub struct Upload<'a> {
    pub path: &'a Path,
    pub size: u64,
    pub mime: &'a str,
    /// The name it is shown under (`displayName`).
    pub display_name: &'a str,
}

/// An uploaded file the API holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uploaded {
    /// `files/abc-123`.
    pub name: String,
    pub uri: String,
    pub mime: String,
    /// RFC 3339; after it the URI no longer works (48 hours).
    pub expires: Option<String>,
}

/// What the caller sees of an upload: called from the reader the
/// transport pulls the bytes through, hence shared.
pub trait Progress: Send + Sync {
    /// `sent` of `total` bytes are on their way.
    fn sent(&self, sent: u64, total: u64);
    /// True ends the upload as interrupted.
    fn interrupted(&self) -> bool;
}

/// Most polls of a file still processing, and the longest wait between two.
const POLLS: u32 = 120;
const MAX_POLL_WAIT: Duration = Duration::from_secs(5);

/// Uploads `up` and waits until it is `ACTIVE`.
pub fn upload(
    t: &dyn Transport,
    up: &Upload,
    retry: &RetryPolicy,
    progress: Arc<dyn Progress>,
) -> Result<Uploaded, GenError> {
    let name = up.display_name;
    let mut attempt = 0;
    loop {
        match upload_once(t, up, &progress) {
            Ok((file, state)) => {
                return poll_until_active(t, file, state, retry, progress.as_ref(), name);
            }
            Err(Step::Final(e)) => return Err(e),
            Err(Step::Again(why)) => {
                attempt += 1;
                let delay = retry
                    .delay(attempt, None, Duration::ZERO)
                    .filter(|_| attempt <= retry.retries);
                let Some(delay) = delay else {
                    return Err(GenError::Upload(format!(
                        "{name}: {why} (after {attempt} attempts)"
                    )));
                };
                pause(delay, progress.as_ref())?;
            }
        }
    }
}

pub(super) enum Step {
    /// Worth another attempt: 429, 5xx, the connection.
    Again(String),
    Final(GenError),
}

fn upload_once(
    t: &dyn Transport,
    up: &Upload,
    progress: &Arc<dyn Progress>,
) -> Result<(Uploaded, Option<String>), Step> {
    let name = up.display_name;
    let meta = json!({"file": {"displayName": name}})
        .to_string()
        .into_bytes();
    let start = Exchange {
        method: "POST",
        target: "/upload/v1beta/files".into(),
        headers: vec![
            ("x-goog-upload-protocol", "resumable".into()),
            ("x-goog-upload-command", "start".into()),
            ("x-goog-upload-header-content-length", up.size.to_string()),
            ("x-goog-upload-header-content-type", up.mime.into()),
            ("content-type", "application/json".into()),
        ],
        body: ExchangeBody::Bytes(meta),
    };
    let reply = send(t, start, name)?;
    let url = reply
        .headers
        .iter()
        .find(|(k, _)| k == "x-goog-upload-url")
        .map(|(_, v)| v.clone())
        .ok_or_else(|| {
            final_err(format!(
                "{name}: the API gave no upload URL (x-goog-upload-url)"
            ))
        })?;
    let _ = read_json(reply, name)?;
    let file = File::open(up.path)
        .map_err(|e| Step::Final(GenError::Attachment(format!("{}: {e}", up.path.display()))))?;
    let counted = Counted {
        inner: file,
        sent: 0,
        total: up.size,
        last: 0,
        progress: progress.clone(),
    };
    let bytes = Exchange {
        method: "POST",
        target: url,
        headers: vec![
            ("x-goog-upload-offset", "0".into()),
            ("x-goog-upload-command", "upload, finalize".into()),
        ],
        body: ExchangeBody::Reader(Box::new(counted), up.size),
    };
    let reply = send(t, bytes, name)?;
    if progress.interrupted() {
        return Err(Step::Final(GenError::Interrupted));
    }
    progress.sent(up.size, up.size);
    let v = read_json(reply, name)?;
    file_of(v.get("file").unwrap_or(&v), name).map_err(Step::Final)
}

fn final_err(message: String) -> Step {
    Step::Final(GenError::Upload(message))
}

/// Sends one request; a non-2xx answer is its API error, retried when it
/// can be.
pub(super) fn send(t: &dyn Transport, req: Exchange, name: &str) -> Result<Reply, Step> {
    let mut reply = match t.exchange(req) {
        Ok(r) => r,
        Err(e) => {
            return Err(match e.kind {
                TransportErrorKind::Retryable => {
                    Step::Again(format!("connection failed: {}", e.message))
                }
                TransportErrorKind::ReplayExhausted => Step::Final(GenError::Replay(e.message)),
                TransportErrorKind::Fatal => final_err(format!("{name}: {}", e.message)),
            });
        }
    };
    if (200..300).contains(&reply.status) {
        return Ok(reply);
    }
    let mut body = String::new();
    let _ = (&mut reply.body).take(1 << 20).read_to_string(&mut body);
    let err = ApiError::from_body(reply.status, &body, reply.retry_after.as_deref());
    if err.retryable() {
        return Err(Step::Again(
            format!("HTTP {} {}", err.code, err.status)
                .trim()
                .to_string(),
        ));
    }
    Err(final_err(format!("{name}: {err}")))
}

fn read_json(mut reply: Reply, name: &str) -> Result<Value, Step> {
    let mut bytes = Vec::new();
    (&mut reply.body)
        .take(1 << 20)
        .read_to_end(&mut bytes)
        .map_err(|e| Step::Again(format!("reading the answer: {e}")))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| final_err(format!("{name}: the answer is not JSON ({e})")))
}

/// A `File` resource as ours, with its `state`; `FAILED` is an error.
fn file_of(f: &Value, name: &str) -> Result<(Uploaded, Option<String>), GenError> {
    let s = |k: &str| f.get(k).and_then(Value::as_str).map(str::to_string);
    let state = s("state");
    if state.as_deref() == Some("FAILED") {
        let why = f
            .get("error")
            .and_then(|e| e.get("message"))
            .and_then(Value::as_str)
            .unwrap_or("no reason given");
        return Err(GenError::Upload(format!(
            "{name}: the API could not process the file: {why}"
        )));
    }
    match (s("name"), s("uri")) {
        (Some(n), Some(uri)) => Ok((
            Uploaded {
                name: n,
                uri,
                mime: s("mimeType").unwrap_or_default(),
                expires: s("expirationTime"),
            },
            state,
        )),
        _ => Err(GenError::Upload(format!(
            "{name}: the API's answer names no file and URI"
        ))),
    }
}

/// Polls a file still `PROCESSING` (`GET /v1beta/files/NAME`) until it is
/// `ACTIVE`, waiting the retry policy's steps (at most 5 s) between.
fn poll_until_active(
    t: &dyn Transport,
    mut file: Uploaded,
    mut state: Option<String>,
    retry: &RetryPolicy,
    progress: &dyn Progress,
    name: &str,
) -> Result<Uploaded, GenError> {
    let mut polls = 0;
    while state.as_deref() == Some("PROCESSING") {
        polls += 1;
        if polls > POLLS {
            return Err(GenError::Upload(format!(
                "{name}: still processing after {POLLS} polls; try again later"
            )));
        }
        let wait = retry
            .base
            .saturating_mul(1 << polls.min(8))
            .min(MAX_POLL_WAIT);
        pause(wait, progress)?;
        let get = Exchange {
            method: "GET",
            target: format!("/v1beta/{}", file.name),
            headers: Vec::new(),
            body: ExchangeBody::None,
        };
        let reply = match send(t, get, name) {
            Ok(r) => r,
            Err(Step::Again(_)) => continue,
            Err(Step::Final(e)) => return Err(e),
        };
        let v = match read_json(reply, name) {
            Ok(v) => v,
            Err(Step::Again(_)) => continue,
            Err(Step::Final(e)) => return Err(e),
        };
        let (f, s) = file_of(&v, name)?;
        file = f;
        state = s;
    }
    Ok(file)
}

pub(super) fn pause(total: Duration, progress: &dyn Progress) -> Result<(), GenError> {
    let start = Instant::now();
    while start.elapsed() < total {
        if progress.interrupted() {
            return Err(GenError::Interrupted);
        }
        std::thread::sleep(Duration::from_millis(20).min(total.saturating_sub(start.elapsed())));
    }
    Ok(())
}

/// A file read for the upload, reporting progress every 256 KiB; a
/// signal stops it.
struct Counted {
    inner: File,
    sent: u64,
    total: u64,
    last: u64,
    progress: Arc<dyn Progress>,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.progress.interrupted() {
            return Err(io::Error::other("interrupted"));
        }
        let n = self.inner.read(buf)?;
        self.sent += n as u64;
        if self.sent - self.last >= 256 << 10 || self.sent == self.total {
            self.last = self.sent;
            self.progress.sent(self.sent, self.total);
        }
        Ok(n)
    }
}
