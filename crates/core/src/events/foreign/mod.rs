//! Other agents' streams read as ours: OpenAI Codex's `codex exec --json`
//! ([`codex`]) and Claude Code's `claude -p --output-format stream-json
//! --verbose` ([`claude`]) are translated line by line into the events of
//! docs/events.md, so every reader (viz-render's outputs, topic-tag,
//! viz-parse) takes them as it takes gemini-cli's. A [`Translator`] holds
//! one stream's state (which agent wrote it, the calls still open, the
//! text already streamed, the chapter open); a line it does not know is
//! [`Translated::Native`] and goes on unchanged, as before. A line of a
//! known type without its shape is [`Translated::Malformed`]: the reader
//! warns, naming the line, and passes it on as it came.

pub mod claude;
pub mod codex;
mod plan;

use std::collections::VecDeque;

use serde_json::{Map, Value};

use super::{Event, LineError};

/// Which agent wrote a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Codex,
    Claude,
}

impl Agent {
    pub fn name(self) -> &'static str {
        match self {
            Agent::Codex => "Codex",
            Agent::Claude => "Claude Code",
        }
    }
}

/// What one line is, translated.
#[derive(Debug, Clone, PartialEq)]
pub enum Translated {
    /// Not another agent's line (ours, gemini-cli's, or a type no one
    /// here knows): handled as it is.
    Native,
    /// The line's events in our vocabulary, in order (none for a line
    /// that says nothing a reader shows, `turn.started` say), and what was
    /// wrong with a part of it that was left out.
    Events(Vec<Event>, Option<String>),
    /// A line of another agent's type without that type's shape: why.
    Malformed(String),
}

/// The most ids of open calls and streamed messages a translator keeps:
/// a call whose end never comes must not make memory grow.
pub(crate) const MAX_OPEN: usize = 256;

/// A bounded list of ids, oldest first out.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ids(VecDeque<String>);

impl Ids {
    pub(crate) fn add(&mut self, id: &str) {
        if self.contains(id) {
            return;
        }
        if self.0.len() == MAX_OPEN {
            self.0.pop_front();
        }
        self.0.push_back(id.to_string());
    }

    pub(crate) fn contains(&self, id: &str) -> bool {
        self.0.iter().any(|i| i == id)
    }

    /// Forgets `id`; whether it was there.
    pub(crate) fn take(&mut self, id: &str) -> bool {
        match self.0.iter().position(|i| i == id) {
            Some(at) => {
                self.0.remove(at);
                true
            }
            None => false,
        }
    }
}

/// One stream's translation state. A new input is a new stream
/// ([`Translator::reset`]).
#[derive(Debug, Clone, Default)]
pub struct Translator {
    agent: Option<Agent>,
    codex: codex::State,
    claude: claude::State,
}

impl Translator {
    pub fn new() -> Translator {
        Translator::default()
    }

    /// A new stream begins: nothing of the last one carries over.
    pub fn reset(&mut self) {
        *self = Translator::default();
    }

    /// The agent whose stream this is, once a line has said so.
    pub fn agent(&self) -> Option<Agent> {
        self.agent
    }

    /// Whether a line of this `type` is another agent's (to be
    /// translated): a type only that agent writes, or `error` (Codex) and
    /// `result` (Claude Code), which are ours too, once the stream has
    /// shown whose it is. Cheap: readers ask it of every line.
    pub fn wants(&self, kind: &str) -> bool {
        agent_of_type(kind).is_some()
            || matches!(
                (kind, self.agent),
                ("error", Some(Agent::Codex)) | ("result", Some(Agent::Claude))
            )
    }

    /// Translates one event read from a line.
    pub fn translate(&mut self, e: &Event) -> Translated {
        let kind = e.kind();
        if !self.wants(kind) {
            return Translated::Native;
        }
        let agent = agent_of_type(kind).or(self.agent).unwrap_or(Agent::Codex);
        self.agent = Some(agent);
        let out = match agent {
            Agent::Codex => self.codex.line(kind, &e.0),
            Agent::Claude => self.claude.line(kind, &e.0),
        };
        match out {
            Ok(Some((mut events, warning))) => {
                if let Some(ts) = e.get("timestamp") {
                    for ev in &mut events {
                        if ev.get("timestamp").is_none() {
                            ev.set("timestamp", ts.clone());
                        }
                    }
                }
                Translated::Events(events, warning)
            }
            Ok(None) => Translated::Native,
            Err(why) => Translated::Malformed(format!("a {} `{kind}` line: {why}", agent.name())),
        }
    }

    /// One input line read whole: its events (or its problem, then the
    /// line as it came) appended to `out`, in order. Blank lines add
    /// nothing; a line that is not an event is its [`LineError`].
    pub fn read_line(
        &mut self,
        text: &str,
        line: usize,
        out: &mut VecDeque<Result<Event, LineError>>,
    ) {
        match Event::from_line(text, line) {
            Ok(None) => {}
            Ok(Some(e)) => self.push(e, text, line, out),
            Err(bad) => out.push_back(Err(bad)),
        }
    }

    /// [`Translator::translate`] of an event read from `text`, appended
    /// to `out` as [`Translator::read_line`] says.
    pub fn push(
        &mut self,
        e: Event,
        text: &str,
        line: usize,
        out: &mut VecDeque<Result<Event, LineError>>,
    ) {
        match self.translate(&e) {
            Translated::Native => out.push_back(Ok(e)),
            Translated::Events(events, warning) => {
                if let Some(why) = warning {
                    out.push_back(Err(problem(text, line, why)));
                }
                out.extend(events.into_iter().map(Ok));
            }
            Translated::Malformed(why) => {
                out.push_back(Err(problem(text, line, why)));
                out.push_back(Ok(e));
            }
        }
    }
}

/// The warning for a line of another agent's that is not as it should be.
pub fn problem(text: &str, line: usize, reason: String) -> LineError {
    LineError {
        line,
        reason,
        start: text.trim().chars().take(40).collect(),
    }
}

/// The agent whose alone a `type` is ([`codex::TYPES`],
/// [`claude::TYPES`]). A `match`, not a search of the lists: every line
/// of every stream is asked.
fn agent_of_type(kind: &str) -> Option<Agent> {
    match kind {
        "thread.started" | "turn.started" | "turn.completed" | "turn.failed" | "item.started"
        | "item.updated" | "item.completed" | "item.plan.delta" | "request_user_input" => {
            Some(Agent::Codex)
        }
        "system" | "assistant" | "user" | "stream_event" => Some(Agent::Claude),
        _ => None,
    }
}

/// Whether a JSON object's `type` (and, for Claude Code's plain words, its
/// `session_id`, which every line of that stream carries) says it is a
/// line of another agent's stream: viz-parse's detection of an event
/// stream asks this of a line that is none of ours.
pub fn is_foreign_line(kind: &str, has_session_id: bool) -> bool {
    match agent_of_type(kind) {
        Some(Agent::Codex) => true,
        Some(Agent::Claude) => has_session_id,
        None => false,
    }
}

/// What a translation of one line gives: its events and a warning about a
/// part left out; `None` when the line is one the agent writes but this
/// reader passes on as it came (a kind of item it does not know).
pub(crate) type Lines = Result<Option<(Vec<Event>, Option<String>)>, Shape>;

/// Why a line of another agent's does not have the shape its kind needs;
/// its text is the reason of the line's warning.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Shape {
    /// A field of another JSON type than the one it must have.
    #[error("field `{path}` must be {want}, found {found}")]
    Wrong {
        path: String,
        want: &'static str,
        found: &'static str,
    },
    /// A field that must be there is missing.
    #[error("field `{path}` ({want}) is missing")]
    Missing { path: String, want: &'static str },
    /// A field or block that is not what it must be (the sentence says).
    #[error("{0}")]
    Not(&'static str),
}

impl From<&'static str> for Shape {
    fn from(why: &'static str) -> Shape {
        Shape::Not(why)
    }
}

/// A string field of an object.
pub(crate) fn str_of<'a>(o: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    o.get(key).and_then(Value::as_str)
}

/// A field that must be an object, or why not.
pub(crate) fn object_of<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<&'a Map<String, Value>, Shape> {
    match o.get(key) {
        Some(Value::Object(m)) => Ok(m),
        Some(other) => Err(Shape::Wrong {
            path: path.into(),
            want: "an object",
            found: super::kind_of(other),
        }),
        None => Err(Shape::Missing {
            path: path.into(),
            want: "an object",
        }),
    }
}

/// A field that must be a string, or why not.
pub(crate) fn string_of<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<&'a str, Shape> {
    match o.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(Shape::Wrong {
            path: path.into(),
            want: "a string",
            found: super::kind_of(other),
        }),
        None => Err(Shape::Missing {
            path: path.into(),
            want: "a string",
        }),
    }
}

/// A token count, when the field is a non-negative integer.
/// A content block (MCP's or Anthropic's) as text: its `text`, else its
/// kind in brackets (`[image]`), so a result says what it held.
pub(crate) fn block_text(b: &Value) -> String {
    match (
        b.get("type").and_then(Value::as_str),
        b.get("text").and_then(Value::as_str),
    ) {
        (_, Some(t)) => t.to_string(),
        (Some(kind), None) => format!("[{kind}]"),
        (None, None) => "[content]".into(),
    }
}

pub(crate) fn count_of(o: &Map<String, Value>, key: &str) -> Option<u64> {
    o.get(key).and_then(Value::as_u64)
}

/// An event of `kind` with these fields (nulls left out).
pub(crate) fn event(kind: &str, fields: Value) -> Event {
    Event::typed(kind, fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(line: &str) -> Event {
        Event::from_line(line, 1).unwrap().unwrap()
    }

    fn kinds(t: Translated) -> Vec<String> {
        match t {
            Translated::Events(events, _) => events.iter().map(|e| e.kind().to_string()).collect(),
            other => panic!("not translated: {other:?}"),
        }
    }

    #[test]
    fn error_and_result_are_ours_until_the_stream_says_whose_it_is() {
        let mut t = Translator::new();
        let error = ev(r#"{"type":"error","message":"x"}"#);
        assert_eq!(t.translate(&error), Translated::Native);
        kinds(t.translate(&ev(r#"{"type":"thread.started","thread_id":"t"}"#)));
        assert_eq!(t.agent(), Some(Agent::Codex));
        let Translated::Events(e, None) = t.translate(&error) else {
            panic!()
        };
        assert_eq!(e[0].str_field("severity"), Some("warning"));
        let result = ev(r#"{"type":"result","status":"success"}"#);
        assert_eq!(t.translate(&result), Translated::Native);
        t.reset();
        assert_eq!(t.translate(&error), Translated::Native);
        kinds(t.translate(&ev(
            r#"{"type":"system","subtype":"init","session_id":"s"}"#,
        )));
        assert_eq!(kinds(t.translate(&result)), ["result"]);
    }

    #[test]
    fn a_call_complete_without_its_start_still_has_both_halves() {
        let mut t = Translator::new();
        let done = r#"{"type":"item.completed","item":{"id":"i","type":"command_execution","command":"ls","aggregated_output":"a\n","exit_code":0,"status":"completed"}}"#;
        assert_eq!(kinds(t.translate(&ev(done))), ["tool_use", "tool_result"]);
        let started = done
            .replace("completed\"}}", "in_progress\"}}")
            .replace("item.completed", "item.started");
        assert_eq!(kinds(t.translate(&ev(&started))), ["tool_use"]);
        assert_eq!(kinds(t.translate(&ev(done))), ["tool_result"]);
    }

    #[test]
    fn mcp_tools_are_named_as_their_servers_name_them() {
        let mut t = Translator::new();
        let line = r#"{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"u","name":"mcp__chart_2__render_visualization","input":{}},{"type":"tool_use","id":"v","name":"mcp__odd","input":{}}]}}"#;
        let Translated::Events(e, None) = t.translate(&ev(line)) else {
            panic!()
        };
        assert_eq!(e[0].str_field("tool_name"), Some("render_visualization"));
        assert_eq!(e[0].str_field("server"), Some("chart_2"));
        assert_eq!(e[1].str_field("tool_name"), Some("mcp__odd"));
        assert_eq!(e[1].get("server"), None);
    }

    #[test]
    fn each_formats_types_are_its_own() {
        for k in codex::TYPES {
            assert_eq!(agent_of_type(k), Some(Agent::Codex), "{k}");
        }
        for k in claude::TYPES {
            assert_eq!(agent_of_type(k), Some(Agent::Claude), "{k}");
        }
        for k in ["error", "result", "message", "init", ""] {
            assert_eq!(agent_of_type(k), None, "{k}");
        }
    }

    #[test]
    fn ids_are_bounded() {
        let mut ids = Ids::default();
        for i in 0..=MAX_OPEN {
            ids.add(&i.to_string());
        }
        assert!(!ids.contains("0"));
        assert!(ids.take(&MAX_OPEN.to_string()));
        assert!(!ids.take(&MAX_OPEN.to_string()));
    }
}
