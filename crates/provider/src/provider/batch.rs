//! Gemini's Batch API: many generateContent requests answered within a
//! day at half the price. A job is created with
//! `POST /v1beta/models/MODEL:batchGenerateContent`, its requests inline
//! (`batch.inputConfig.requests.requests[]`, each `{request, metadata:
//! {key}}`) or in a JSONL file uploaded through the Files API
//! (`batch.inputConfig.fileName`, each line `{key, request}`). The answer
//! is a long-running operation named `batches/ID`; `GET /v1beta/batches/ID`
//! gives its `metadata.state` (`BATCH_STATE_PENDING`, `_RUNNING`,
//! `_SUCCEEDED`, `_FAILED`, `_CANCELLED`, `_EXPIRED`), its
//! `metadata.batchStats`, and once `done` its `metadata.output` (where
//! google-genai reads it; the operation's `response` is read too): the answers
//! inline (`inlinedResponses.inlinedResponses[]`, each `{response |
//! error, metadata: {key}}`) or a file (`responsesFile`) downloaded from
//! `/download/v1beta/FILE:download?alt=media`, one `{key, response |
//! error}` a line. 429, 5xx and connection failures are retried as the
//! retry policy allows.

use std::io::{Read, Write};
use std::time::Duration;

use serde_json::{Value, json};

use super::error::GenError;
use super::files::{Step, send};
use super::retry::RetryPolicy;
use super::transport::{Exchange, ExchangeBody, Transport};

/// Where a job stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    Pending,
    Running,
    Succeeded,
    Failed,
    Cancelled,
    Expired,
    /// A state this code does not know, as the API named it.
    Other(String),
}

impl State {
    fn parse(s: &str) -> State {
        match s
            .trim_start_matches("BATCH_STATE_")
            .trim_start_matches("JOB_STATE_")
        {
            "PENDING" | "QUEUED" | "UNSPECIFIED" => State::Pending,
            "RUNNING" => State::Running,
            "SUCCEEDED" => State::Succeeded,
            "FAILED" => State::Failed,
            "CANCELLED" => State::Cancelled,
            "EXPIRED" => State::Expired,
            _ => State::Other(s.to_string()),
        }
    }

    /// The job will not change any more.
    pub fn ended(&self) -> bool {
        !matches!(self, State::Pending | State::Running)
    }

    /// In lower case, for messages and error types.
    pub fn word(&self) -> &str {
        match self {
            State::Pending => "pending",
            State::Running => "running",
            State::Succeeded => "succeeded",
            State::Failed => "failed",
            State::Cancelled => "cancelled",
            State::Expired => "expired",
            State::Other(s) => s,
        }
    }
}

/// `metadata.batchStats`: the API writes its int64 counts as strings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    pub requests: u64,
    pub pending: u64,
    pub succeeded: u64,
    pub failed: u64,
}

/// Where the answers of a job that succeeded are.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// `inlinedResponses.inlinedResponses`: each `{response | error, metadata}`.
    Inline(Vec<Value>),
    /// `responsesFile`: a file to download, one `{key, response | error}` a line.
    File(String),
}

/// A job as one `GET` saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// `batches/ID`.
    pub name: String,
    pub state: State,
    pub stats: Stats,
    pub output: Option<Output>,
    /// The operation's `error.message`, when it has one.
    pub error: Option<String>,
}

/// One request of a job: its key (ours: the request's hash) and body.
pub struct Request {
    pub key: String,
    pub body: Value,
}

/// One answer of a job, by its key: a GenerateContentResponse or an error
/// status.
pub struct Answer {
    pub key: String,
    pub result: Result<Value, String>,
}

/// The JSON body that creates a job of `requests` inline.
pub fn inline_body(display_name: &str, requests: &[Request]) -> Value {
    let items: Vec<Value> = requests
        .iter()
        .map(|r| json!({"request": r.body, "metadata": {"key": r.key}}))
        .collect();
    json!({"batch": {"displayName": display_name,
                     "inputConfig": {"requests": {"requests": items}}}})
}

/// One line of the JSONL file of a job's requests.
pub fn file_line(r: &Request) -> Value {
    json!({"key": r.key, "request": r.body})
}

/// The JSON body that creates a job of the requests in the uploaded file
/// `file_name` (`files/ID`).
pub fn file_body(display_name: &str, file_name: &str) -> Value {
    json!({"batch": {"displayName": display_name, "inputConfig": {"fileName": file_name}}})
}

/// Creates a job for `model` with `body` ([`inline_body`] or
/// [`file_body`]).
pub fn create(
    t: &dyn Transport,
    model: &str,
    body: &Value,
    retry: &RetryPolicy,
) -> Result<Job, GenError> {
    let model = model.trim_start_matches("models/");
    let bytes = serde_json::to_vec(body).expect("a JSON value always serializes");
    let v = call(t, retry, "create", || Exchange {
        method: "POST",
        target: format!("/v1beta/models/{model}:batchGenerateContent"),
        headers: vec![("content-type", "application/json".into())],
        body: ExchangeBody::Bytes(bytes.clone()),
    })?;
    job_of(&v)
}

/// The job `name` (`batches/ID`) as it stands now.
pub fn get(t: &dyn Transport, name: &str, retry: &RetryPolicy) -> Result<Job, GenError> {
    let name = full_name(name);
    let v = call(t, retry, &name, || Exchange {
        method: "GET",
        target: format!("/v1beta/{name}"),
        headers: Vec::new(),
        body: ExchangeBody::None,
    })?;
    job_of(&v)
}

/// `batches/ID` from `ID` or `batches/ID`.
pub fn full_name(name: &str) -> String {
    let name = name.trim();
    if name.contains('/') {
        name.to_string()
    } else {
        format!("batches/{name}")
    }
}

/// Copies the file of answers `file` (`files/ID`) into `to`.
pub fn download(
    t: &dyn Transport,
    file: &str,
    to: &mut dyn Write,
    retry: &RetryPolicy,
) -> Result<u64, GenError> {
    let mut attempt = 0;
    loop {
        let req = Exchange {
            method: "GET",
            target: format!("/download/v1beta/{file}:download?alt=media"),
            headers: Vec::new(),
            body: ExchangeBody::None,
        };
        let why = match send(t, req, file) {
            Ok(mut reply) => match std::io::copy(&mut reply.body, to) {
                Ok(n) => return Ok(n),
                Err(e) => format!("reading {file}: {e}"),
            },
            Err(Step::Final(e)) => return Err(as_batch(e)),
            Err(Step::Again(why)) => why,
        };
        attempt += 1;
        wait(retry, attempt, &why)?;
    }
}

/// The answers of one line of a downloaded file, or of one inline item.
pub fn answer_of(item: &Value) -> Option<Answer> {
    let key = item
        .get("key")
        .or_else(|| item.get("metadata").and_then(|m| m.get("key")))
        .and_then(Value::as_str)?
        .to_string();
    let result = match (item.get("response"), item.get("error")) {
        (Some(r), _) if r.is_object() => Ok(r.clone()),
        (_, Some(e)) => Err(status_message(e)),
        _ => Err("the batch gave neither a response nor an error".to_string()),
    };
    Some(Answer { key, result })
}

/// A `Status` (`{code, message}`) in one line.
fn status_message(e: &Value) -> String {
    let msg = e.get("message").and_then(Value::as_str).unwrap_or("");
    match e.get("code").and_then(Value::as_i64) {
        Some(c) if !msg.is_empty() => format!("{msg} (code {c})"),
        Some(c) => format!("code {c}"),
        None if !msg.is_empty() => msg.to_string(),
        None => e.to_string(),
    }
}

/// A job from the operation (or the `GenerateContentBatch` itself, which
/// some answers give).
pub fn job_of(v: &Value) -> Result<Job, GenError> {
    let meta = v.get("metadata").filter(|m| m.is_object()).unwrap_or(v);
    let name = v
        .get("name")
        .or_else(|| meta.get("name"))
        .and_then(Value::as_str)
        .ok_or_else(|| GenError::Batch("the API's answer names no batch".into()))?
        .to_string();
    let state = meta
        .get("state")
        .and_then(Value::as_str)
        .map(State::parse)
        .unwrap_or(State::Pending);
    let count = |k: &str| {
        let s = meta.get("batchStats").and_then(|s| s.get(k));
        s.and_then(|n| n.as_u64().or_else(|| n.as_str()?.parse().ok()))
            .unwrap_or(0)
    };
    let stats = Stats {
        requests: count("requestCount"),
        pending: count("pendingRequestCount"),
        succeeded: count("successfulRequestCount"),
        failed: count("failedRequestCount"),
    };
    // The SDK reads the answers from `metadata.output`; an operation's
    // `response` may hold them too, bare or under `output`.
    let places = [
        meta.get("output"),
        v.get("response").and_then(|r| r.get("output")),
        v.get("response"),
    ];
    let output = places.into_iter().flatten().find_map(|o| {
        if let Some(f) = o.get("responsesFile").and_then(Value::as_str) {
            return Some(Output::File(f.to_string()));
        }
        let items = o.get("inlinedResponses")?;
        let items = items.get("inlinedResponses").unwrap_or(items);
        Some(Output::Inline(items.as_array()?.clone()))
    });
    // A job the API marks done with an error and no state is a failed one.
    let error = v.get("error").map(status_message);
    let state = match (&state, &error, v.get("done").and_then(Value::as_bool)) {
        (State::Pending | State::Running, Some(_), Some(true)) => State::Failed,
        _ => state,
    };
    Ok(Job {
        name,
        state,
        stats,
        output,
        error,
    })
}

/// Answers bigger than this are not read (the inline answers of a job
/// are bounded by its 20 MB of requests and their answers).
const MAX_ANSWER: u64 = 512 << 20;

/// One JSON call, retried on 429, 5xx and connection failures.
fn call(
    t: &dyn Transport,
    retry: &RetryPolicy,
    what: &str,
    req: impl Fn() -> Exchange,
) -> Result<Value, GenError> {
    let mut attempt = 0;
    loop {
        let step = send(t, req(), what).and_then(|reply| read_value(reply.body, what));
        let why = match step {
            Ok(v) => return Ok(v),
            Err(Step::Final(e)) => return Err(as_batch(e)),
            Err(Step::Again(why)) => why,
        };
        attempt += 1;
        wait(retry, attempt, &why)?;
    }
}

fn read_value(mut body: Box<dyn Read + Send>, what: &str) -> Result<Value, Step> {
    let mut bytes = Vec::new();
    body.as_mut()
        .take(MAX_ANSWER)
        .read_to_end(&mut bytes)
        .map_err(|e| Step::Again(format!("reading the answer: {e}")))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        Step::Final(GenError::Batch(format!(
            "{what}: the answer is not JSON ({e})"
        )))
    })
}

/// Waits before attempt `attempt`, or says the retries are spent.
fn wait(retry: &RetryPolicy, attempt: u32, why: &str) -> Result<(), GenError> {
    let delay = retry
        .delay(attempt, None, Duration::ZERO)
        .filter(|_| attempt <= retry.retries)
        .ok_or_else(|| GenError::Batch(format!("{why} (after {attempt} attempts)")))?;
    std::thread::sleep(delay);
    Ok(())
}

/// The error of a Files-API-shaped call as a batch one.
fn as_batch(e: GenError) -> GenError {
    match e {
        GenError::Upload(m) => GenError::Batch(m),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operation_gives_state_counts_and_inline_answers() {
        let op = json!({"name": "batches/b1", "done": true,
            "metadata": {"state": "BATCH_STATE_SUCCEEDED",
                "batchStats": {"requestCount": "2", "successfulRequestCount": "1", "failedRequestCount": "1"}},
            "response": {"inlinedResponses": {"inlinedResponses": [
                {"response": {"candidates": []}, "metadata": {"key": "k1"}},
                {"error": {"code": 3, "message": "bad"}, "metadata": {"key": "k2"}}]}}});
        let job = job_of(&op).unwrap();
        assert_eq!(job.name, "batches/b1");
        assert_eq!(job.state, State::Succeeded);
        assert_eq!(job.stats.requests, 2);
        assert_eq!(job.stats.failed, 1);
        let Some(Output::Inline(items)) = &job.output else {
            panic!("{:?}", job.output)
        };
        let answers: Vec<Answer> = items.iter().filter_map(answer_of).collect();
        assert_eq!(answers[0].key, "k1");
        assert!(answers[0].result.is_ok());
        assert_eq!(answers[1].result.as_ref().unwrap_err(), "bad (code 3)");
    }

    #[test]
    fn a_file_of_answers_a_done_error_and_the_states() {
        let op = json!({"name": "batches/b2", "metadata": {"state": "BATCH_STATE_SUCCEEDED"},
            "response": {"@type": "x", "output": {"responsesFile": "files/out"}}});
        assert_eq!(
            job_of(&op).unwrap().output,
            Some(Output::File("files/out".into()))
        );
        let failed = json!({"name": "batches/b3", "done": true, "error": {"code": 13, "message": "x"},
            "metadata": {"state": "BATCH_STATE_RUNNING"}});
        let job = job_of(&failed).unwrap();
        assert_eq!(job.state, State::Failed);
        assert_eq!(job.error.as_deref(), Some("x (code 13)"));
        assert_eq!(State::parse("BATCH_STATE_EXPIRED"), State::Expired);
        assert!(!State::parse("BATCH_STATE_PENDING").ended());
        assert_eq!(full_name("abc"), "batches/abc");
        let line = answer_of(&json!({"key": "k", "response": {"candidates": []}})).unwrap();
        assert_eq!(line.key, "k");
    }
}
