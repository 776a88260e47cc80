//! A fake of Gemini's Batch API beside its generateContent, both answering
//! by the record (the answer is the prompt reversed, a prompt holding
//! `fail` a per-request error): `POST models/M:batchGenerateContent`
//! (inline requests, or a file uploaded through the Files API's resumable
//! start and upload), `GET batches/N` walking a scripted list of states
//! (the last one stays; `SUCCEEDED` carries the answers inline or as a
//! `responsesFile`, `FAILED` an operation error), and the responses file's
//! download. Each create body is captured as
//! `map-batch-F-N.batchCreate.json` (fake F, its job N) and each of its
//! requests as `map-batch-F-N-K.json` for
//! tests/validate_requests.sh.

use std::collections::HashMap;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::{Captured, capture_dir, read_request};

/// A job: its (key, request) list, whether it came inline, its polls.
type FakeJob = (Vec<(String, Value)>, bool, usize);

#[derive(Default)]
struct State {
    /// This fake's number in the process, for the captured files' names.
    id: usize,
    /// The states each job walks through, one a GET.
    script: Vec<String>,
    jobs: HashMap<usize, FakeJob>,
    uploads: HashMap<String, Vec<u8>>,
    creates: Vec<Value>,
    /// streamGenerateContent calls (the online run's).
    online: usize,
    /// Their bodies.
    online_bodies: Vec<Value>,
    polls: usize,
}

pub struct BatchFake {
    pub url: String,
    state: Arc<Mutex<State>>,
}

impl BatchFake {
    /// A fake whose jobs walk `script` (`PENDING`, `RUNNING`,
    /// `SUCCEEDED`, `FAILED`, `EXPIRED`, ...).
    pub fn start(script: &[&str]) -> BatchFake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        static FAKES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let state = Arc::new(Mutex::new(State {
            id: FAKES.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1,
            script: script.iter().map(|s| s.to_string()).collect(),
            ..State::default()
        }));
        let (st, own) = (state.clone(), url.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (st, own) = (st.clone(), own.clone());
                std::thread::spawn(move || {
                    if let Some(req) = read_request(&stream) {
                        answer(&stream, &req, &st, &own);
                    }
                });
            }
        });
        BatchFake { url, state }
    }

    /// The create calls' bodies.
    pub fn creates(&self) -> Vec<Value> {
        self.state.lock().unwrap().creates.clone()
    }

    pub fn online_requests(&self) -> usize {
        self.state.lock().unwrap().online
    }

    pub fn online_bodies(&self) -> Vec<Value> {
        self.state.lock().unwrap().online_bodies.clone()
    }

    pub fn polls(&self) -> usize {
        self.state.lock().unwrap().polls
    }

    pub fn uploads(&self) -> usize {
        self.state.lock().unwrap().uploads.len()
    }
}

/// The answer of one request: the prompt reversed, or an error for `fail`.
fn response_of(req: &Value) -> Result<Value, Value> {
    // Attachments come before the prompt: its text is the last part.
    let parts = req["contents"][0]["parts"].as_array();
    let last = parts.and_then(|p| p.last());
    let prompt = last.and_then(|p| p["text"].as_str()).unwrap_or("");
    if prompt.contains("fail") {
        return Err(json!({"code": 500, "message": "boom"}));
    }
    let text: String = prompt.chars().rev().collect();
    Ok(
        json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
        "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}}),
    )
}

fn answer(stream: &TcpStream, req: &Captured, st: &Mutex<State>, url: &str) {
    let mut parts = req.request_line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut st = st.lock().unwrap();
    let (status, body, headers) = if path.contains(":streamGenerateContent") {
        st.online += 1;
        st.online_bodies.push(req.json());
        let r = response_of(&req.json()).unwrap_or_else(|e| json!({"error": e}));
        let body = format!("data: {r}\r\n\r\n");
        return write(stream, 200, "text/event-stream", &body, &[]);
    } else if path.contains(":batchGenerateContent") {
        create(&mut st, req.json())
    } else if path == "/upload/v1beta/files" {
        let n = st.uploads.len() + 1;
        let at = format!("{url}/upload/session/{n}");
        (
            200,
            "{}".to_string(),
            vec![("x-goog-upload-url".to_string(), at)],
        )
    } else if let Some(n) = path.strip_prefix("/upload/session/") {
        let name = format!("files/in{n}");
        st.uploads.insert(name.clone(), req.body.clone());
        let f = json!({"file": {"name": name, "uri": format!("{url}/v1beta/{name}"),
            "mimeType": "application/jsonl", "state": "ACTIVE"}});
        (200, f.to_string(), Vec::new())
    } else if let Some(n) = path.strip_prefix("/v1beta/batches/") {
        st.polls += 1;
        (
            200,
            poll(&mut st, n.parse().unwrap_or(0)).to_string(),
            Vec::new(),
        )
    } else if let Some(n) = path
        .strip_prefix("/download/v1beta/files/out")
        .and_then(|p| p.strip_suffix(":download?alt=media"))
    {
        let reqs = st.jobs.get(&n.parse().unwrap_or(0)).map(|j| j.0.clone());
        let lines: String = reqs
            .unwrap_or_default()
            .iter()
            .map(|(k, r)| match response_of(r) {
                Ok(resp) => format!("{}\n", json!({"key": k, "response": resp})),
                Err(e) => format!("{}\n", json!({"key": k, "error": e})),
            })
            .collect();
        (200, lines, Vec::new())
    } else {
        let e = json!({"error": {"code": 404, "message": format!("fake: no {method} {path}")}});
        (404, e.to_string(), Vec::new())
    };
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    write(stream, status, "application/json", &body, &headers);
}

/// A create call: the job's requests kept, the bodies captured.
fn create(st: &mut State, body: Value) -> (u16, String, Vec<(String, String)>) {
    let n = st.creates.len() + 1;
    let dir = capture_dir();
    let _ = std::fs::create_dir_all(&dir);
    let name = format!("map-batch-{}-{n}", st.id);
    let _ = std::fs::write(
        dir.join(format!("{name}.batchCreate.json")),
        body.to_string(),
    );
    let input = &body["batch"]["inputConfig"];
    let (reqs, inline): (Vec<(String, Value)>, bool) =
        if let Some(items) = input["requests"]["requests"].as_array() {
            let r = items
                .iter()
                .map(|i| {
                    (
                        i["metadata"]["key"].as_str().unwrap().to_string(),
                        i["request"].clone(),
                    )
                })
                .collect();
            (r, true)
        } else {
            let file = input["fileName"].as_str().unwrap_or("");
            let bytes = st.uploads.get(file).cloned().unwrap_or_default();
            let r = String::from_utf8_lossy(&bytes)
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .map(|v| (v["key"].as_str().unwrap().to_string(), v["request"].clone()))
                .collect();
            (r, false)
        };
    for (k, (_, r)) in reqs.iter().enumerate() {
        let _ = std::fs::write(dir.join(format!("{name}-{}.json", k + 1)), r.to_string());
    }
    st.creates.push(body);
    let count = reqs.len();
    st.jobs.insert(n, (reqs, inline, 0));
    let op = json!({"name": format!("batches/{n}"), "metadata": {
        "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
        "name": format!("batches/{n}"), "state": "BATCH_STATE_PENDING",
        "batchStats": {"requestCount": count.to_string(), "pendingRequestCount": count.to_string()}}});
    (200, op.to_string(), Vec::new())
}

/// A GET of job `n`: the next state of the script, with its output.
fn poll(st: &mut State, n: usize) -> Value {
    let script = st.script.clone();
    let Some(job) = st.jobs.get_mut(&n) else {
        return json!({"error": {"code": 404, "message": "no such batch"}});
    };
    let state = script[job.2.min(script.len() - 1)].clone();
    job.2 += 1;
    let count = job.0.len();
    let done = !matches!(state.as_str(), "PENDING" | "RUNNING");
    let mut op = json!({"name": format!("batches/{n}"), "metadata": {
        "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
        "name": format!("batches/{n}"), "state": format!("BATCH_STATE_{state}"),
        "batchStats": {"requestCount": count.to_string(),
            "successfulRequestCount": if done { count.to_string() } else { "0".into() }}},
        "done": done});
    match state.as_str() {
        "SUCCEEDED" if job.1 => {
            let items: Vec<Value> = job
                .0
                .iter()
                .map(|(k, r)| match response_of(r) {
                    Ok(resp) => json!({"response": resp, "metadata": {"key": k}}),
                    Err(e) => json!({"error": e, "metadata": {"key": k}}),
                })
                .collect();
            op["metadata"]["output"] = json!({"inlinedResponses": {"inlinedResponses": items}});
        }
        "SUCCEEDED" => {
            op["metadata"]["output"] = json!({"responsesFile": format!("files/out{n}")});
        }
        "FAILED" => op["error"] = json!({"code": 13, "message": "the batch failed inside"}),
        _ => {}
    }
    op
}

fn write(stream: &TcpStream, status: u16, ctype: &str, body: &str, headers: &[(&str, &str)]) {
    let mut w = stream;
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    let _ = write!(
        w,
        "HTTP/1.1 {status} X\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n{body}",
        body.len()
    );
}
