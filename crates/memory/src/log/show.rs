//! One session replayed as the event stream a run writes (`init`, the
//! user's and the model's `message`s, `tool_use` and `tool_result`,
//! `topic`, and a closing `result` with the session's totals), so
//! `gem-ask log show ID | viz-render` draws the conversation as it was.
//! Every text the session holds passes the redaction guard.

use serde_json::{Map, Value, json};

use super::Guard;
use super::read::Summary;

/// The events of a session file's bytes; `summary` gives the closing
/// `result`'s totals.
pub fn events(bytes: &[u8], summary: &Summary, guard: &Guard) -> Vec<Value> {
    let mut out = vec![json!({
        "type": "init", "session_id": summary.id, "model": summary.model,
        "timestamp": summary.created,
    })];
    let mut pending: Vec<(String, String)> = Vec::new();
    let mut n = 0usize;
    // The error of the last `stop` or `map` record, until a turn completes.
    let mut stopped: Option<Value> = None;
    for line in bytes.split(|&b| b == b'\n') {
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        let time = v.get("timestamp").cloned().unwrap_or(Value::Null);
        match v.get("record").and_then(Value::as_str) {
            Some("content") => {
                for mut e in content(&v["content"], &mut pending, &mut n) {
                    if !time.is_null() {
                        e["timestamp"] = time.clone();
                    }
                    out.push(e);
                }
            }
            Some("topic") => {
                out.push(json!({"type": "topic", "title": v["title"], "timestamp": time}))
            }
            // A stopped run's prompt, or a map run's template.
            Some(kind @ ("stop" | "map")) => {
                let key = if kind == "map" { "template" } else { "prompt" };
                if let Some(p) = v.get(key).and_then(Value::as_str) {
                    out.push(
                        json!({"type": "message", "role": "user", "content": p, "timestamp": time}),
                    );
                }
                stopped = v.get("error").cloned();
            }
            Some("turn") => stopped = None,
            _ => {}
        }
    }
    let failed = summary.status != "success";
    let mut result = json!({
        "type": "result",
        "status": if failed { "error" } else { "success" },
        "stats": {"total_tokens": summary.tokens, "tool_calls": summary.tool_calls,
                  "turns": summary.turns},
        "timestamp": summary.updated,
    });
    if let Some(c) = summary.cost_usd {
        result["stats"]["cost_usd"] = json!(c);
    }
    if let Some(e) = stopped.filter(|_| failed) {
        result["error"] = e;
    } else if failed {
        result["error"] = json!({"type": summary.status, "message": match summary.status.as_str() {
            "incomplete" => "a turn of the session was not completely written, or a line cannot be read",
            _ => "a tool call of the session ended in an error",
        }});
    }
    out.push(result);
    for e in &mut out {
        // What the session said; its ids and times are the log's own.
        for k in ["content", "parameters", "output", "error", "title"] {
            if let Some(v) = e.get_mut(k) {
                redact(v, guard);
            }
        }
    }
    out
}

/// The events of one Content.
fn content(c: &Value, pending: &mut Vec<(String, String)>, n: &mut usize) -> Vec<Value> {
    let role = match c.get("role").and_then(Value::as_str) {
        Some("model") => "assistant",
        _ => "user",
    };
    let mut out = Vec::new();
    let mut words = String::new();
    for p in c
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(t) = p.get("text").and_then(Value::as_str) {
            if p.get("thought").and_then(Value::as_bool) != Some(true) {
                words.push_str(t);
            }
        } else if let Some(f) = p.get("functionCall") {
            *n += 1;
            let name = f["name"].as_str().unwrap_or_default().to_string();
            let id = f["id"]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| format!("{name}-{n}"));
            pending.push((name.clone(), id.clone()));
            out.push(json!({"type": "tool_use", "tool_name": name, "tool_id": id,
                            "parameters": f.get("args").cloned().unwrap_or(json!({}))}));
        } else if let Some(f) = p.get("functionResponse") {
            out.push(response(f, pending));
        }
    }
    if !words.is_empty() {
        out.insert(
            0,
            json!({"type": "message", "role": role, "content": words}),
        );
    }
    out
}

/// A functionResponse as a `tool_result`, paired with its call by id,
/// else by name in order.
fn response(f: &Value, pending: &mut Vec<(String, String)>) -> Value {
    let name = f["name"].as_str().unwrap_or_default();
    let at = match f["id"].as_str() {
        Some(id) => pending.iter().position(|(_, p)| p == id),
        None => pending.iter().position(|(p, _)| p == name),
    };
    let id = match at {
        Some(i) => pending.remove(i).1,
        None => f["id"].as_str().unwrap_or(name).to_string(),
    };
    let r = &f["response"];
    let mut e = Map::new();
    e.insert("type".into(), "tool_result".into());
    e.insert("tool_id".into(), id.into());
    match r.get("error") {
        Some(err) => {
            e.insert("status".into(), "error".into());
            let message = err
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| err.to_string());
            e.insert(
                "error".into(),
                json!({"type": "tool_error", "message": message}),
            );
        }
        None => {
            e.insert("status".into(), "success".into());
            let output = match r.get("output") {
                Some(Value::String(s)) => s.clone(),
                _ => r.to_string(),
            };
            e.insert("output".into(), output.into());
        }
    }
    Value::Object(e)
}

/// Every string (and key) of `v` through the guard.
pub fn redact(v: &mut Value, guard: &Guard) {
    match v {
        Value::String(s) => {
            if let Some(r) = guard(s) {
                *s = r;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| redact(x, guard)),
        Value::Object(m) => {
            if m.keys().any(|k| guard(k).is_some()) {
                let old = std::mem::take(m);
                for (k, x) in old {
                    m.insert(guard(&k).unwrap_or(k), x);
                }
            }
            m.values_mut().for_each(|x| redact(x, guard));
        }
        _ => {}
    }
}
