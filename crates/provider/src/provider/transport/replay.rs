//! Answering from a `--record` file (`--replay`): each request for an
//! answer gets the recorded exchange that fits it best; the other
//! requests (the models list, the Files API) are answered by method and
//! path ([`by_path`]), and never take an answer's exchange.

use std::io::Cursor;
use std::path::Path;
use std::sync::Mutex;

use serde_json::Value;

use super::{Exchange, Reply, Transport, TransportError, TransportErrorKind, exchange};

/// Answers from a `--record` file without a network or a key.
///
/// Each request gets the first unused exchange whose recorded `contents`
/// equal the request's; failing that, the first whose last content (the
/// newest prompt or tool results) is the same; failing that, the next
/// unused one. So one file holding a whole session answers each of its
/// runs: a follow-up run finds its own turn, not the first one again.
/// An answer recorded for a different request (other contents, model or
/// declared tools) still comes, with a warning saying how it differs.
pub struct Replay {
    pub(super) exchanges: Mutex<Vec<(bool, Value)>>,
}

impl Replay {
    pub fn open(path: &Path) -> anyhow::Result<Replay> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read replay file {}: {e}", path.display()))?;
        let mut exchanges = Vec::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let v: Value = serde_json::from_str(line).map_err(|e| {
                anyhow::anyhow!("{}: line {}: not JSON: {e}", path.display(), i + 1)
            })?;
            if v.get("response").and_then(|r| r.get("status")).is_none() {
                anyhow::bail!(
                    "{}: line {}: expected an exchange {{\"request\":...,\"response\":{{\"status\":...,\"body\":...}}}}",
                    path.display(),
                    i + 1
                );
            }
            exchanges.push((false, v));
        }
        Ok(Replay {
            exchanges: Mutex::new(exchanges),
        })
    }
}

/// Whether a recorded exchange answered a request for an answer (a
/// POST to the model), not another request: a GET (the models list, a
/// file's state) or an upload to the Files API.
fn is_answer(v: &Value) -> bool {
    let rq = v.get("request");
    let method = rq.and_then(|r| r.get("method")).and_then(Value::as_str);
    let path = rq.and_then(|r| r.get("path")).and_then(Value::as_str);
    method.is_none_or(|m| m == "POST") && !path.is_some_and(|p| p.contains("/upload/"))
}

impl Transport for Replay {
    fn post(&self, path: &str, body: &[u8]) -> Result<Reply, TransportError> {
        let request: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        // Gemini's conversation is `contents`; an OpenAI-compatible one's
        // is `messages`.
        let contents = conversation(&request);
        let last = contents.and_then(Value::as_array).and_then(|a| a.last());
        let mut exchanges = self.exchanges.lock().expect("replay lock");
        let recorded = |v: &Value| {
            v.get("request")
                .and_then(|r| r.get("body"))
                .and_then(conversation)
                .cloned()
        };
        let unused = || {
            exchanges
                .iter()
                .enumerate()
                .filter(|(_, (used, v))| !used && is_answer(v))
        };
        let pick = unused()
            .find(|(_, (_, v))| contents.is_some() && recorded(v).as_ref() == contents)
            .or_else(|| {
                unused().find(|(_, (_, v))| {
                    last.is_some()
                        && recorded(v)
                            .as_ref()
                            .and_then(Value::as_array)
                            .and_then(|a| a.last())
                            == last
                })
            })
            .or_else(|| unused().next())
            .map(|(i, _)| i);
        let Some(i) = pick else {
            return Err(TransportError {
                message: "replay file has no exchange left for this request".into(),
                kind: TransportErrorKind::ReplayExhausted,
            });
        };
        exchanges[i].0 = true;
        let v = exchanges[i].1.clone();
        drop(exchanges);
        let warning = replay_mismatch(path, &request, &v["request"]);
        Ok(recorded_reply(&v["response"], warning))
    }

    fn exchange(&self, req: Exchange) -> Result<Reply, TransportError> {
        by_path(self, req)
    }
}

/// The first unused recorded exchange of the same method and path.
fn by_path(r: &Replay, req: Exchange) -> Result<Reply, TransportError> {
    let want = exchange::path_of(&req.target);
    let mut exchanges = r.exchanges.lock().expect("replay lock");
    let found = exchanges.iter().position(|(used, v)| {
        let rq = &v["request"];
        !used
            && rq.get("method").and_then(Value::as_str) == Some(req.method)
            && rq
                .get("path")
                .and_then(Value::as_str)
                .map(exchange::path_of)
                == Some(want)
    });
    let Some(i) = found else {
        return Err(TransportError {
            message: format!("replay file has no exchange left for {} {want}", req.method),
            kind: TransportErrorKind::ReplayExhausted,
        });
    };
    exchanges[i].0 = true;
    let resp = exchanges[i].1["response"].clone();
    drop(exchanges);
    let headers: Vec<(String, String)> = resp
        .get("headers")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.to_ascii_lowercase(), v.as_str()?.to_string())))
        .collect();
    let find = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    Ok(Reply {
        status: resp["status"].as_u64().unwrap_or(200) as u16,
        content_type: find("content-type"),
        retry_after: find("retry-after"),
        body: Box::new(Cursor::new(
            resp.get("body")
                .and_then(Value::as_str)
                .unwrap_or("")
                .as_bytes()
                .to_vec(),
        )),
        headers,
        warning: None,
    })
}

/// A recorded response as a reply.
fn recorded_reply(resp: &Value, warning: Option<String>) -> Reply {
    let status = resp["status"].as_u64().unwrap_or(200) as u16;
    let header = |name: &str| {
        resp.get("headers")
            .and_then(|h| h.get(name))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let body = resp
        .get("body")
        .and_then(Value::as_str)
        .unwrap_or("")
        .as_bytes()
        .to_vec();
    Reply {
        status,
        content_type: header("content-type"),
        retry_after: header("retry-after"),
        headers: Vec::new(),
        body: Box::new(Cursor::new(body)),
        warning,
    }
}

fn conversation(body: &Value) -> Option<&Value> {
    body.get("contents").or_else(|| body.get("messages"))
}

/// How a request differs from the recorded one it is answered with, as a
/// warning; `None` when contents, model and declared tools all match.
fn replay_mismatch(path: &str, request: &Value, recorded: &Value) -> Option<String> {
    // Gemini names the model in the path, OpenAI-compatible servers in
    // the body; Gemini declares `functionDeclarations`, they `function`s.
    let model = |p: &str, b: &Value| {
        p.split("/models/")
            .nth(1)
            .and_then(|m| m.split(':').next())
            .or_else(|| b.get("model").and_then(Value::as_str))
            .unwrap_or("")
            .to_string()
    };
    let tools = |b: &Value| -> Vec<String> {
        let tools = b
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        tools
            .flat_map(
                |t| match t.get("functionDeclarations").and_then(Value::as_array) {
                    Some(decls) => decls.iter().collect::<Vec<_>>(),
                    None => t.get("function").into_iter().collect(),
                },
            )
            .filter_map(|d| d.get("name").and_then(Value::as_str).map(str::to_string))
            .collect()
    };
    let rec_body = recorded.get("body").unwrap_or(&Value::Null);
    let mut diffs = Vec::new();
    if conversation(request) != conversation(rec_body) {
        diffs.push("other contents".to_string());
    }
    let (m, rm) = (
        model(path, request),
        model(
            recorded.get("path").and_then(Value::as_str).unwrap_or(""),
            rec_body,
        ),
    );
    if m != rm {
        diffs.push(format!("model {m}, recorded {rm}"));
    }
    let (t, rt) = (tools(request), tools(rec_body));
    if t != rt {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        diffs.push(format!("tools {}, recorded {}", list(&t), list(&rt)));
    }
    (!diffs.is_empty()).then(|| {
        format!(
            "replay: request differs from the recording ({}); answering with the recorded one",
            diffs.join("; ")
        )
    })
}
