//! OpenAI Codex's `codex exec --json` stream (the `ThreadEvent`s of
//! codex-rs/exec/src/exec_events.rs) as our events. `thread.started` is
//! `init`; the items of a turn (`item.started`, `item.updated`,
//! `item.completed`) are answers (`agent_message`, a `plan`), thoughts
//! (`reasoning`), calls and their results (`command_execution`,
//! `file_change`, `mcp_tool_call`, `collab_tool_call`, `web_search`),
//! warnings (`error` items) and chapters (`todo_list`: the first step not
//! done is the one under way); `turn.completed` is a `result` with its
//! usage, `turn.failed` an error `result`; a top-level `error` (Codex
//! sends its retries this way, the failure itself comes as `turn.failed`)
//! is a warning; `request_user_input` is a `need_input` signal.

use serde_json::{Map, Value, json};

use super::plan::Chapters;
use super::{Ids, Lines, Shape, block_text, count_of, event, object_of, str_of, string_of};
use crate::events::Event;

/// The types only Codex writes (`error` is ours too).
pub const TYPES: &[&str] = &[
    "thread.started",
    "turn.started",
    "turn.completed",
    "turn.failed",
    "item.started",
    "item.updated",
    "item.completed",
    "item.plan.delta",
    "request_user_input",
];

/// A Codex stream's state: the calls shown as begun, the turn's calls
/// counted, the chapter open.
#[derive(Debug, Clone, Default)]
pub struct State {
    begun: Ids,
    tool_calls: u64,
    chapters: Chapters,
}

type Obj = Map<String, Value>;

impl State {
    pub(super) fn line(&mut self, kind: &str, o: &Obj) -> Lines {
        let events = match kind {
            "thread.started" => {
                let id = string_of(o, "thread_id", "thread_id")?;
                vec![event("init", json!({"session_id": id}))]
            }
            "turn.started" | "item.plan.delta" => Vec::new(),
            "turn.completed" => vec![self.completed(o)],
            "turn.failed" => {
                let err = object_of(o, "error", "error")?;
                let msg = string_of(err, "message", "error.message")?;
                let stats = json!({"tool_calls": std::mem::take(&mut self.tool_calls)});
                vec![event(
                    "result",
                    json!({"status": "error", "error": {"type": "turn_failed", "message": msg}, "stats": stats}),
                )]
            }
            "error" => {
                let msg = string_of(o, "message", "message")?;
                vec![event(
                    "error",
                    json!({"severity": "warning", "message": msg}),
                )]
            }
            "request_user_input" => vec![need_input(o)],
            _ => {
                let item = object_of(o, "item", "item")?;
                return self.item(kind, item);
            }
        };
        Ok(Some((events, None)))
    }

    /// `turn.completed`: the turn's usage as our `result` stats.
    fn completed(&mut self, o: &Obj) -> Event {
        let mut stats = Map::new();
        if let Some(Value::Object(u)) = o.get("usage") {
            let input = count_of(u, "input_tokens");
            let output = count_of(u, "output_tokens");
            let put = |s: &mut Map<String, Value>, k: &str, v: Option<u64>| {
                if let Some(v) = v {
                    s.insert(k.into(), v.into());
                }
            };
            put(&mut stats, "input_tokens", input);
            put(&mut stats, "output_tokens", output);
            put(
                &mut stats,
                "total_tokens",
                input.zip(output).map(|(i, o)| i + o),
            );
            put(
                &mut stats,
                "cached_input_tokens",
                count_of(u, "cached_input_tokens"),
            );
            put(
                &mut stats,
                "reasoning_tokens",
                count_of(u, "reasoning_output_tokens"),
            );
        }
        stats.insert(
            "tool_calls".into(),
            std::mem::take(&mut self.tool_calls).into(),
        );
        event("result", json!({"status": "success", "stats": stats}))
    }

    /// An item's event: `phase` is `item.started`, `item.updated` or
    /// `item.completed`.
    fn item(&mut self, phase: &str, item: &Obj) -> Lines {
        let kind = string_of(item, "type", "item.type")?;
        let done = phase == "item.completed";
        let events = match kind {
            "agent_message" | "plan" if done => {
                let text = string_of(item, "text", "item.text")?;
                vec![event(
                    "message",
                    json!({"role": "assistant", "content": text}),
                )]
            }
            "reasoning" if done => {
                let text = string_of(item, "text", "item.text")?;
                vec![event("thought", json!({"content": text}))]
            }
            "agent_message" | "plan" | "reasoning" => Vec::new(),
            "error" => {
                let msg = string_of(item, "message", "item.message")?;
                vec![event(
                    "error",
                    json!({"severity": "warning", "message": msg}),
                )]
            }
            "todo_list" => {
                let Some(Value::Array(steps)) = item.get("items") else {
                    return Err("field `item.items` must be an array of {text, completed}".into());
                };
                let steps = steps.iter().filter_map(|s| {
                    let text = s.get("text")?.as_str()?;
                    Some((
                        text,
                        s.get("completed").and_then(Value::as_bool) != Some(true),
                    ))
                });
                self.chapters.plan(steps).into_iter().collect()
            }
            "command_execution" | "file_change" | "mcp_tool_call" | "collab_tool_call"
            | "web_search" => self.call(kind, done, item)?,
            _ => return Ok(None),
        };
        Ok(Some((events, None)))
    }

    /// A call item: its `tool_use` when it begins (or when it comes
    /// complete without having begun), its `tool_result` when complete.
    fn call(&mut self, kind: &str, done: bool, item: &Obj) -> Result<Vec<Event>, Shape> {
        let id = string_of(item, "id", "item.id")?;
        let (name, parameters) = call_of(kind, item)?;
        let mut events = Vec::new();
        if !self.begun.contains(id) {
            self.begun.add(id);
            self.tool_calls += 1;
            let mut use_ = event(
                "tool_use",
                json!({"tool_name": name, "tool_id": id, "parameters": parameters}),
            );
            if let Some(server) = str_of(item, "server") {
                use_.set("server", server);
            }
            events.push(use_);
        }
        if done {
            self.begun.take(id);
            events.push(result_of(kind, id, item));
        }
        Ok(events)
    }
}

/// A call item's tool name and parameters.
fn call_of(kind: &str, item: &Obj) -> Result<(String, Value), Shape> {
    Ok(match kind {
        "command_execution" => {
            let command = string_of(item, "command", "item.command")?;
            (kind.into(), json!({"command": command}))
        }
        "file_change" => {
            let Some(Value::Array(changes)) = item.get("changes") else {
                return Err("field `item.changes` must be an array of {path, kind}".into());
            };
            (kind.into(), json!({"changes": changes}))
        }
        "mcp_tool_call" => {
            let tool = string_of(item, "tool", "item.tool")?;
            let args = item.get("arguments").cloned().unwrap_or(json!({}));
            (tool.into(), args)
        }
        "collab_tool_call" => {
            let tool = string_of(item, "tool", "item.tool")?;
            let mut p = Map::new();
            for k in ["prompt", "receiver_thread_ids"] {
                if let Some(v) = item.get(k).filter(|v| !v.is_null()) {
                    p.insert(k.into(), v.clone());
                }
            }
            (tool.into(), Value::Object(p))
        }
        _ => {
            let query = str_of(item, "query").unwrap_or("");
            (kind.into(), json!({"query": query}))
        }
    })
}

/// A completed call item's `tool_result`.
fn result_of(kind: &str, id: &str, item: &Obj) -> Event {
    let status = str_of(item, "status").unwrap_or("completed");
    let failed = |err_type: &str, message: String| {
        event(
            "tool_result",
            json!({"tool_id": id, "status": "error", "error": {"type": err_type, "message": message}}),
        )
    };
    let ok = |output: String| {
        event(
            "tool_result",
            json!({"tool_id": id, "status": "success", "output": output}),
        )
    };
    match kind {
        "command_execution" => {
            let output = str_of(item, "aggregated_output").unwrap_or("").to_string();
            let code = item.get("exit_code").and_then(Value::as_i64);
            match (status, code) {
                ("declined", _) => failed("declined", "the command was declined".into()),
                ("completed", Some(0) | None) => ok(output),
                (_, code) => {
                    let why = code.map_or_else(
                        || format!("the command {status}"),
                        |c| format!("exit code {c}"),
                    );
                    let mut e = failed("exit_code", why);
                    e.set("output", output);
                    e
                }
            }
        }
        "file_change" => {
            let lines: Vec<String> = item
                .get("changes")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|c| {
                    Some(format!(
                        "{} {}",
                        c.get("kind")?.as_str()?,
                        c.get("path")?.as_str()?
                    ))
                })
                .collect();
            match status {
                "completed" => ok(lines.join("\n")),
                _ => failed(
                    "patch_failed",
                    format!("the patch {status}: {}", lines.join(", ")),
                ),
            }
        }
        "mcp_tool_call" => match item
            .get("error")
            .and_then(|e| e.get("message"))
            .and_then(Value::as_str)
        {
            Some(msg) => failed("tool_error", msg.to_string()),
            None if status == "failed" => failed("tool_error", "the tool call failed".into()),
            None => ok(mcp_output(item.get("result"))),
        },
        _ if status == "failed" => failed("tool_error", "the call failed".into()),
        _ => ok(String::new()),
    }
}

/// An MCP result's text: its text blocks, a note for each other block, or
/// its structured content.
fn mcp_output(result: Option<&Value>) -> String {
    let Some(r) = result else {
        return String::new();
    };
    let blocks: Vec<String> = r
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(block_text)
        .collect();
    if blocks.is_empty() {
        r.get("structured_content")
            .filter(|v| !v.is_null())
            .map(Value::to_string)
            .unwrap_or_default()
    } else {
        blocks.join("\n")
    }
}

/// `request_user_input`: the model asks the user; its questions as a
/// `need_input` signal.
fn need_input(o: &Obj) -> Event {
    let questions: Vec<&str> = o
        .get("questions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|q| q.get("question").and_then(Value::as_str))
        .collect();
    let message = (!questions.is_empty()).then(|| questions.join("\n"));
    event(
        "signal",
        json!({"signal": "need_input", "message": message}),
    )
}
