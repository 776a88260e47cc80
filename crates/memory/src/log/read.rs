//! One session file read for the log: what the list shows of it (a
//! [`Summary`]) and the texts a search finds (its [`Item`]s: prompts,
//! answers, tool calls and their results), each through the redaction
//! guard before it is kept. The file is only read; a line that cannot be
//! used makes the session `incomplete` and the rest is read.

pub mod maprun;

use serde_json::Value;

use super::Guard;

/// What `gem-ask log list` shows of a session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub id: String,
    /// RFC 3339 (UTC): the meta line's `created`, else the first record's time.
    pub created: String,
    /// The last record's time.
    pub updated: String,
    /// The model the session was started with (the meta line).
    pub model: String,
    /// Every model named in the file (the meta line's, the served
    /// versions of its turns), space-separated, for `--model`.
    pub models: String,
    pub turns: u64,
    pub tool_calls: u64,
    pub tokens: u64,
    /// The sum of the turns' `cost_usd`; `None` when no turn has one
    /// (the price unknown, or a file from before costs were kept).
    pub cost_usd: Option<f64>,
    /// `success`, `error` (a tool call answered with an error, or the
    /// last run stopped by an error), `budget` (the last run stopped by a
    /// cap), `interrupted` (by a signal) or `incomplete` (a turn without
    /// its closing record, or a line that cannot be read).
    pub status: String,
    /// The first prompt, cut to [`PROMPT_CHARS`].
    pub prompt: String,
    pub topic: Option<String>,
    /// The tools called, each once, space-separated.
    pub tools: String,
}

/// A searchable text of a session.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// `prompt`, `answer`, `tool_call` or `tool_result`.
    pub kind: &'static str,
    pub tool: Option<String>,
    /// A tool result's `success` or `error`.
    pub status: Option<&'static str>,
    pub time: String,
    pub text: String,
}

/// How much of the first prompt a list shows.
pub const PROMPT_CHARS: usize = 120;

/// Reads a session file's bytes: its summary and items, redacted.
pub fn read(id: &str, bytes: &[u8], guard: &Guard) -> (Summary, Vec<Item>) {
    let mut r = Reader {
        s: Summary {
            id: id.to_string(),
            status: "success".into(),
            ..Summary::default()
        },
        items: Vec::new(),
        open_turn: false,
        bad: false,
        tool_error: false,
        stopped: None,
    };
    for line in bytes.split(|&b| b == b'\n') {
        if line.trim_ascii().is_empty() {
            continue;
        }
        match serde_json::from_slice::<Value>(line) {
            Ok(v) if v.is_object() => r.take(&v),
            _ => r.bad = true,
        }
    }
    r.finish(guard)
}

struct Reader {
    s: Summary,
    items: Vec<Item>,
    open_turn: bool,
    bad: bool,
    tool_error: bool,
    /// The last run's `stop` record's status, until a turn completes.
    stopped: Option<String>,
}

fn text_of(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

impl Reader {
    fn take(&mut self, v: &Value) {
        let time = text_of(v, "timestamp").or_else(|| text_of(v, "created"));
        if let Some(t) = &time {
            if self.s.created.is_empty() {
                self.s.created = t.clone();
            }
            if *t > self.s.updated {
                self.s.updated = t.clone();
            }
        }
        let time = time.unwrap_or_else(|| self.s.updated.clone());
        match v.get("record").and_then(Value::as_str) {
            Some("meta") => {
                self.s.model = text_of(v, "model").unwrap_or_default();
                self.add_model(&self.s.model.clone());
            }
            Some("content") => {
                self.open_turn = true;
                match v.get("content") {
                    Some(c) => self.content(c, &time),
                    None => self.bad = true,
                }
            }
            Some("topic") => self.s.topic = text_of(v, "title").filter(|t| !t.is_empty()),
            Some("stop") => self.stop(v, &time),
            Some("map") => maprun::take(&mut self.s, &mut self.items, v, &time),
            Some("turn") => {
                self.open_turn = false;
                self.stopped = None;
                self.s.turns += 1;
                self.s.tokens += v.get("tokens").and_then(Value::as_u64).unwrap_or(0);
                if let Some(c) = v.get("cost_usd").and_then(Value::as_f64) {
                    *self.s.cost_usd.get_or_insert(0.0) += c;
                }
                if let Some(m) = v.get("model_version").and_then(Value::as_str) {
                    self.add_model(m);
                }
            }
            _ => {}
        }
    }

    /// A run that stopped before its turn completed: its status, and its
    /// prompt (the turn's content was not kept).
    fn stop(&mut self, v: &Value, time: &str) {
        // A turn's content without its closing record was that run's.
        self.open_turn = false;
        self.stopped = Some(text_of(v, "status").unwrap_or_else(|| "error".into()));
        if let Some(p) = text_of(v, "prompt").filter(|p| !p.trim().is_empty()) {
            if self.s.prompt.is_empty() {
                self.s.prompt = p.clone();
            }
            self.item("prompt", None, None, time, p);
        }
        if let Some(m) = v.pointer("/error/message").and_then(Value::as_str) {
            self.item("stop", None, None, time, m.to_string());
        }
    }

    fn add_model(&mut self, m: &str) {
        if !m.is_empty() && !self.s.models.split(' ').any(|x| x == m) {
            if !self.s.models.is_empty() {
                self.s.models.push(' ');
            }
            self.s.models.push_str(m);
        }
    }

    /// A Content's parts: the user's words, the model's answer (thoughts
    /// left out), its calls, the tools' responses.
    fn content(&mut self, c: &Value, time: &str) {
        let role = c.get("role").and_then(Value::as_str).unwrap_or_default();
        let parts = c.get("parts").and_then(Value::as_array);
        let mut words = String::new();
        for p in parts.into_iter().flatten() {
            if let Some(t) = p.get("text").and_then(Value::as_str) {
                if p.get("thought").and_then(Value::as_bool) != Some(true) {
                    words.push_str(t);
                }
            } else if let Some(f) = p.get("functionCall") {
                let name = text_of(f, "name").unwrap_or_default();
                let args = f.get("args").map(Value::to_string).unwrap_or_default();
                self.call(&name);
                self.item(
                    "tool_call",
                    Some(name.clone()),
                    None,
                    time,
                    format!("{name} {args}"),
                );
            } else if let Some(f) = p.get("functionResponse") {
                let name = text_of(f, "name").unwrap_or_default();
                let response = f.get("response").cloned().unwrap_or(Value::Null);
                let failed = response.get("error").is_some();
                self.tool_error |= failed;
                let status = if failed { "error" } else { "success" };
                self.item(
                    "tool_result",
                    Some(name),
                    Some(status),
                    time,
                    plain(&response),
                );
            }
        }
        if words.is_empty() {
            return;
        }
        let kind = if role == "model" { "answer" } else { "prompt" };
        if kind == "prompt" && self.s.prompt.is_empty() {
            self.s.prompt = words.clone();
        }
        self.item(kind, None, None, time, words);
    }

    fn call(&mut self, name: &str) {
        self.s.tool_calls += 1;
        if !self.s.tools.split(' ').any(|t| t == name) {
            if !self.s.tools.is_empty() {
                self.s.tools.push(' ');
            }
            self.s.tools.push_str(name);
        }
    }

    fn item(
        &mut self,
        kind: &'static str,
        tool: Option<String>,
        status: Option<&'static str>,
        time: &str,
        text: String,
    ) {
        self.items.push(Item {
            kind,
            tool,
            status,
            time: time.to_string(),
            text,
        });
    }

    fn finish(mut self, guard: &Guard) -> (Summary, Vec<Item>) {
        if let Some(stopped) = self.stopped.take() {
            self.s.status = stopped;
        } else if self.bad || self.open_turn {
            self.s.status = "incomplete".into();
        } else if self.tool_error {
            self.s.status = "error".into();
        }
        let redact = |t: &mut String| {
            if let Some(r) = guard(t) {
                *t = r;
            }
        };
        redact(&mut self.s.prompt);
        self.s.prompt = cut(&self.s.prompt, PROMPT_CHARS);
        for i in &mut self.items {
            redact(&mut i.text);
        }
        if let Some(t) = &mut self.s.topic {
            redact(t);
        }
        (self.s, self.items)
    }
}

/// A tool's response as text: its `output` (or `error`) when it is one
/// string, else the JSON.
fn plain(response: &Value) -> String {
    ["output", "error", "result"]
        .iter()
        .find_map(|k| response.get(*k).and_then(Value::as_str))
        .map(str::to_string)
        .unwrap_or_else(|| response.to_string())
}

/// `text` on one line, at most `max` characters (an ellipsis when cut).
pub fn cut(text: &str, max: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &flat[..i]),
        None => flat,
    }
}
