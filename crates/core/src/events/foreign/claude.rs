//! Claude Code's `claude -p --output-format stream-json --verbose` stream
//! (the Agent SDK's `SDKMessage`s) as our events. `system` `init` is
//! `init` (the other `system` lines are the session's bookkeeping and say
//! nothing a reader shows); an `assistant` message's content blocks are
//! answers (`text`), thoughts (`thinking`) and calls (`tool_use`,
//! `server_tool_use`); a `user` message's `tool_result` blocks are
//! results; `result` is our `result` with its usage, cost and turns. With
//! `--include-partial-messages`, `stream_event` text and thinking deltas
//! are streamed pieces, and the same text in the complete message that
//! follows is not said twice. Plans are chapters: the `TodoWrite` list's
//! step `in_progress`, a `TaskUpdate` to `in_progress` (titled by the
//! task's `TaskCreate`); those calls and their results are the chapter's
//! bookkeeping and are not shown otherwise, as a `create_new_topic` call
//! is not.

use std::collections::VecDeque;

use serde_json::{Map, Value, json};

use super::plan::Chapters;
use super::{
    Ids, Lines, MAX_OPEN, Shape, block_text, count_of, event, object_of, str_of, string_of,
};
use crate::events::Event;

/// The types only Claude Code writes (`result` is ours too).
pub const TYPES: &[&str] = &["system", "assistant", "user", "stream_event"];

/// The tools whose calls are plans.
const TODO_WRITE: &str = "TodoWrite";
const TASK_CREATE: &str = "TaskCreate";
const TASK_UPDATE: &str = "TaskUpdate";

/// A Claude Code stream's state.
#[derive(Debug, Clone, Default)]
pub struct State {
    /// Messages whose text came as `stream_event` deltas.
    streamed: Ids,
    /// The message being streamed now.
    streaming: Option<String>,
    /// Plan calls whose results are dropped.
    plan_calls: Ids,
    /// Tasks by id: subject and description, from `TaskCreate` results.
    tasks: VecDeque<(String, String, Option<String>)>,
    /// `TaskCreate` calls still to answer: their subject and description.
    creating: VecDeque<(String, String, Option<String>)>,
    tool_calls: u64,
    chapters: Chapters,
}

type Obj = Map<String, Value>;

impl State {
    pub(super) fn line(&mut self, kind: &str, o: &Obj) -> Lines {
        match kind {
            "system" => Ok(Some((self.system(o), None))),
            "assistant" => self.assistant(o).map(Some),
            "user" => self.user(o).map(Some),
            "stream_event" => self.partial(o).map(|e| Some((e, None))),
            _ => self.result(o).map(|e| Some((vec![e], None))),
        }
    }

    /// `init`, and `api_retry` as our `retry`; the other `system` lines
    /// are the session's bookkeeping.
    fn system(&mut self, o: &Obj) -> Vec<Event> {
        match str_of(o, "subtype") {
            Some("init") => vec![event(
                "init",
                json!({"session_id": str_of(o, "session_id"), "model": str_of(o, "model")}),
            )],
            Some("api_retry") => {
                let delay = o
                    .get("retry_delay_ms")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0);
                let why = str_of(o, "error").unwrap_or("the request failed");
                let reason = match count_of(o, "error_status") {
                    Some(status) => format!("{why} (HTTP {status})"),
                    None => why.to_string(),
                };
                vec![event(
                    "retry",
                    json!({"attempt": count_of(o, "attempt"), "delay_ms": delay.max(0.0).round() as u64, "reason": reason}),
                )]
            }
            _ => Vec::new(),
        }
    }

    /// An `assistant` message: each content block's event; a block
    /// without its shape is left out and named.
    fn assistant(&mut self, o: &Obj) -> Result<(Vec<Event>, Option<String>), Shape> {
        let message = object_of(o, "message", "message")?;
        let Some(Value::Array(blocks)) = message.get("content") else {
            return Err("field `message.content` must be an array of content blocks".into());
        };
        // A message Claude Code made to say a request failed (`error` set):
        // its text is that notice, not the model's answer, and the
        // `result` that ends the run carries the failure.
        if o.get("error").is_some_and(|e| !e.is_null()) {
            return Ok((Vec::new(), None));
        }
        let streamed = str_of(message, "id").is_some_and(|id| self.streamed.contains(id));
        let mut events = Vec::new();
        let mut problem = None;
        for (i, b) in blocks.iter().enumerate() {
            match self.block(b, streamed, &mut events) {
                Ok(()) => {}
                Err(why) => {
                    problem.get_or_insert(format!("a Claude Code `assistant` line: `message.content[{i}]`: {why}; that block left out"));
                }
            }
        }
        Ok((events, problem))
    }

    fn block(&mut self, b: &Value, streamed: bool, events: &mut Vec<Event>) -> Result<(), Shape> {
        let Value::Object(b) = b else {
            return Err("a content block must be an object".into());
        };
        match string_of(b, "type", "type")? {
            "text" if !streamed => {
                let text = string_of(b, "text", "text")?;
                events.push(event(
                    "message",
                    json!({"role": "assistant", "content": text}),
                ));
            }
            "thinking" if !streamed => {
                let text = string_of(b, "thinking", "thinking")?;
                events.push(event("thought", json!({"content": text})));
            }
            "tool_use" | "server_tool_use" | "mcp_tool_use" => {
                let id = string_of(b, "id", "id")?;
                let name = string_of(b, "name", "name")?;
                let input = b.get("input").cloned().unwrap_or(json!({}));
                if let Some(topic) = self.plan_call(id, name, &input) {
                    events.extend(topic);
                } else {
                    self.tool_calls += 1;
                    let (server, tool) = mcp_name(name);
                    events.push(event(
                        "tool_use",
                        json!({"tool_name": tool, "tool_id": id, "parameters": input, "server": server}),
                    ));
                }
            }
            "web_search_tool_result" | "mcp_tool_result" => {
                let id = string_of(b, "tool_use_id", "tool_use_id")?;
                events.push(result_event(id, b.get("content"), bool_of(b, "is_error")));
            }
            _ => {}
        }
        Ok(())
    }

    /// A plan call: the chapter it opens (none, or one), or `None` when
    /// the call is no plan.
    fn plan_call(&mut self, id: &str, name: &str, input: &Value) -> Option<Option<Event>> {
        let topic = match name {
            TODO_WRITE => {
                let todos = input.get("todos")?.as_array()?;
                let steps = todos.iter().filter_map(|t| {
                    let text = t.get("content")?.as_str()?;
                    Some((
                        text,
                        t.get("status").and_then(Value::as_str) == Some("in_progress"),
                    ))
                });
                self.chapters.plan(steps)
            }
            TASK_CREATE => {
                let subject = input.get("subject")?.as_str()?.to_string();
                let description = input
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                push_bounded(&mut self.creating, (id.to_string(), subject, description));
                None
            }
            TASK_UPDATE => {
                let task = input.get("taskId")?.as_str()?;
                if input.get("status").and_then(Value::as_str) != Some("in_progress") {
                    None
                } else {
                    let known = self.tasks.iter().find(|(t, ..)| t == task);
                    let subject = input
                        .get("subject")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .or_else(|| known.map(|(_, s, _)| s.clone()))
                        .unwrap_or_else(|| format!("Task #{task}"));
                    let summary = known.and_then(|(.., d)| d.clone());
                    self.chapters.begin(&subject, summary)
                }
            }
            _ => return None,
        };
        self.plan_calls.add(id);
        Some(topic)
    }

    /// A `user` message: its tool results (a plan call's dropped unless it
    /// failed), or its text as the user's message.
    fn user(&mut self, o: &Obj) -> Result<(Vec<Event>, Option<String>), Shape> {
        let message = object_of(o, "message", "message")?;
        let blocks = match message.get("content") {
            Some(Value::String(text)) => {
                return Ok((
                    vec![event("message", json!({"role": "user", "content": text}))],
                    None,
                ));
            }
            Some(Value::Array(blocks)) => blocks,
            _ => {
                return Err(
                    "field `message.content` must be a string or an array of content blocks".into(),
                );
            }
        };
        let mut events = Vec::new();
        let mut problem = None;
        for (i, b) in blocks.iter().enumerate() {
            let Some(b) = b.as_object() else {
                problem.get_or_insert(format!(
                    "a Claude Code `user` line: `message.content[{i}]` must be an object; left out"
                ));
                continue;
            };
            match str_of(b, "type") {
                Some("tool_result") => {
                    let Some(id) = str_of(b, "tool_use_id") else {
                        problem.get_or_insert(format!("a Claude Code `user` line: `message.content[{i}].tool_use_id` must be a string; left out"));
                        continue;
                    };
                    let failed = bool_of(b, "is_error");
                    if self.plan_calls.take(id) {
                        self.task_created(id, o.get("tool_use_result"));
                        if !failed {
                            continue;
                        }
                    }
                    events.push(result_event(id, b.get("content"), failed));
                }
                Some("text") => {
                    if let Some(text) = str_of(b, "text") {
                        events.push(event("message", json!({"role": "user", "content": text})));
                    }
                }
                _ => {}
            }
        }
        Ok((events, problem))
    }

    /// A `TaskCreate` call answered: the task's id (from the result's
    /// `tool_use_result.task.id`) now names its subject.
    fn task_created(&mut self, call: &str, result: Option<&Value>) {
        let Some(at) = self.creating.iter().position(|(c, ..)| c == call) else {
            return;
        };
        let (_, subject, description) = self.creating.remove(at).unwrap_or_default();
        if let Some(id) = result
            .and_then(|r| r.get("task"))
            .and_then(|t| t.get("id"))
            .and_then(Value::as_str)
        {
            push_bounded(&mut self.tasks, (id.to_string(), subject, description));
        }
    }

    /// A `stream_event` (`--include-partial-messages`): text and thinking
    /// deltas as streamed pieces.
    fn partial(&mut self, o: &Obj) -> Result<Vec<Event>, Shape> {
        let e = object_of(o, "event", "event")?;
        let delta = match str_of(e, "type") {
            Some("message_start") => {
                self.streaming = e
                    .get("message")
                    .and_then(|m| m.get("id"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
                return Ok(Vec::new());
            }
            Some("content_block_delta") => object_of(e, "delta", "event.delta")?,
            _ => return Ok(Vec::new()),
        };
        let (kind, text) = match str_of(delta, "type") {
            Some("text_delta") => ("message", string_of(delta, "text", "event.delta.text")?),
            Some("thinking_delta") => (
                "thought",
                string_of(delta, "thinking", "event.delta.thinking")?,
            ),
            _ => return Ok(Vec::new()),
        };
        if let Some(id) = &self.streaming {
            self.streamed.add(id);
        }
        let fields = match kind {
            "message" => json!({"role": "assistant", "content": text, "delta": true}),
            _ => json!({"content": text, "delta": true}),
        };
        Ok(vec![event(kind, fields)])
    }

    /// The run's `result`: its status, usage, cost and turns.
    fn result(&mut self, o: &Obj) -> Result<Event, Shape> {
        let subtype = match o.get("subtype") {
            Some(Value::String(s)) => s.as_str(),
            None => "success",
            Some(_) => {
                return Err(
                    "field `subtype` must be a string (`success`, `error_max_turns`, ...)".into(),
                );
            }
        };
        let failed = bool_of(o, "is_error") || subtype != "success";
        let mut stats = Map::new();
        if let Some(Value::Object(u)) = o.get("usage") {
            let fresh = count_of(u, "input_tokens").unwrap_or(0);
            let read = count_of(u, "cache_read_input_tokens").unwrap_or(0);
            let written = count_of(u, "cache_creation_input_tokens").unwrap_or(0);
            let output = count_of(u, "output_tokens").unwrap_or(0);
            let input = fresh + read + written;
            stats.insert("input_tokens".into(), input.into());
            stats.insert("output_tokens".into(), output.into());
            stats.insert("total_tokens".into(), (input + output).into());
            stats.insert("cached_input_tokens".into(), read.into());
        }
        for (ours, theirs) in [("duration_ms", "duration_ms"), ("turns", "num_turns")] {
            if let Some(n) = count_of(o, theirs) {
                stats.insert(ours.into(), n.into());
            }
        }
        if let Some(cost) = o.get("total_cost_usd").filter(|v| v.is_number()) {
            stats.insert("cost_usd".into(), cost.clone());
        }
        stats.insert(
            "tool_calls".into(),
            std::mem::take(&mut self.tool_calls).into(),
        );
        let error = failed.then(|| {
            let message = o
                .get("errors")
                .and_then(Value::as_array)
                .map(|es| {
                    es.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join("; ")
                })
                .filter(|m| !m.is_empty())
                .or_else(|| str_of(o, "result").map(str::to_string))
                .unwrap_or_else(|| subtype.replace('_', " "));
            // A failed request ends the run as a "success" of the loop.
            let kind = match subtype {
                "success" if o.get("api_error_status").is_some_and(Value::is_number) => "api_error",
                "success" => "error",
                other => other,
            };
            json!({"type": kind, "message": message})
        });
        let status = if failed { "error" } else { "success" };
        Ok(event(
            "result",
            json!({"status": status, "error": error, "stats": stats}),
        ))
    }
}

/// An MCP tool's name as Claude Code gives it, `mcp__SERVER__TOOL`: the
/// server and the tool's own name (which is what a reader knows it by,
/// `render_visualization` say). Other names are the tool's own.
fn mcp_name(name: &str) -> (Option<&str>, &str) {
    name.strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
        .filter(|(server, tool)| !server.is_empty() && !tool.is_empty())
        .map_or((None, name), |(server, tool)| (Some(server), tool))
}

fn bool_of(o: &Obj, key: &str) -> bool {
    o.get(key).and_then(Value::as_bool) == Some(true)
}

fn push_bounded<T>(list: &mut VecDeque<T>, item: T) {
    if list.len() == MAX_OPEN {
        list.pop_front();
    }
    list.push_back(item);
}

/// A tool result block's `tool_result`: its content (a string, or text
/// blocks, other blocks named) as the output or the error's message.
fn result_event(id: &str, content: Option<&Value>, failed: bool) -> Event {
    let text = match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => blocks.iter().map(block_text).collect::<Vec<_>>().join("\n"),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    if failed {
        event(
            "tool_result",
            json!({"tool_id": id, "status": "error", "error": {"type": "tool_error", "message": text}}),
        )
    } else {
        event(
            "tool_result",
            json!({"tool_id": id, "status": "success", "output": text}),
        )
    }
}
