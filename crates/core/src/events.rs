//! The event vocabulary of `docs/events.md`: one JSON object per line.
//!
//! An [`Event`] keeps the whole object it was read from (field order
//! included), so filters pass unknown types and unknown fields on untouched;
//! typed constructors build the events our programs produce. Reading is
//! tolerant by contract: a bad line is a [`LineError`] the caller reports
//! and skips, never a reason to stop the stream.

pub mod foreign;
pub mod topic;

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};

use serde_json::{Map, Value, json};

/// One event: a JSON object with a string `type`.
#[derive(Debug, Clone, PartialEq)]
pub struct Event(pub Map<String, Value>);

/// Up to this many fields, [`Event::get`] scans the keys instead of
/// hashing.
const SCAN_FIELDS: usize = 12;

/// Why one input line is not an event.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("line {line}: {reason} (starts with {start:?})")]
pub struct LineError {
    pub line: usize,
    pub reason: String,
    /// The first bytes of the line, for the warning.
    pub start: String,
}

impl Event {
    /// Parses one line. Blank lines are `Ok(None)`: producers may end a
    /// stream with a newline and people type them.
    pub fn from_line(text: &str, line: usize) -> Result<Option<Event>, LineError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(None);
        }
        let err = |reason: String| LineError {
            line,
            reason,
            start: trimmed.chars().take(40).collect(),
        };
        match serde_json::from_str::<Value>(trimmed) {
            Ok(Value::Object(map)) => Ok(Some(Event(map))),
            Ok(other) => Err(err(format!(
                "expected a JSON object, found {}",
                kind_of(&other)
            ))),
            Err(e) => Err(err(format!("not JSON: {e}"))),
        }
    }

    /// The `type` field, or `""` when the object has none (a bare spec).
    pub fn kind(&self) -> &str {
        self.get("type").and_then(Value::as_str).unwrap_or("")
    }

    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }

    pub fn bool_field(&self, key: &str) -> Option<bool> {
        self.get(key).and_then(Value::as_bool)
    }

    /// A field by name. Events have a handful of fields and are asked
    /// for them several times each (a renderer, per text delta), so a
    /// scan of the keys in order, `type` first, beats hashing the key:
    /// it was a tenth of drawing a streamed answer.
    pub fn get(&self, key: &str) -> Option<&Value> {
        if self.0.len() <= SCAN_FIELDS {
            self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
        } else {
            self.0.get(key)
        }
    }

    pub fn set(&mut self, key: &str, value: impl Into<Value>) {
        self.0.insert(key.to_string(), value.into());
    }

    /// Compact JSON, no trailing newline.
    pub fn to_line(&self) -> String {
        serde_json::to_string(&self.0).expect("a JSON map always serializes")
    }

    fn typed(kind: &str, fields: Value) -> Event {
        let mut map = Map::new();
        map.insert("type".into(), Value::String(kind.into()));
        if let Value::Object(rest) = fields {
            for (k, v) in rest {
                if !v.is_null() {
                    map.insert(k, v);
                }
            }
        }
        Event(map)
    }

    pub fn init(session_id: &str, model: &str, timestamp: &str) -> Event {
        Self::typed(
            "init",
            json!({"session_id": session_id, "model": model, "timestamp": timestamp}),
        )
    }

    pub fn message(role: &str, content: &str, delta: bool) -> Event {
        let mut e = Self::typed("message", json!({"role": role, "content": content}));
        if delta {
            e.set("delta", true);
        }
        e
    }

    pub fn tool_use(tool_name: &str, tool_id: &str, parameters: Value) -> Event {
        Self::typed(
            "tool_use",
            json!({"tool_name": tool_name, "tool_id": tool_id, "parameters": parameters}),
        )
    }

    pub fn tool_result_ok(tool_id: &str, output: &str) -> Event {
        Self::typed(
            "tool_result",
            json!({"tool_id": tool_id, "status": "success", "output": output}),
        )
    }

    pub fn tool_result_err(tool_id: &str, err_type: &str, message: &str) -> Event {
        Self::typed(
            "tool_result",
            json!({"tool_id": tool_id, "status": "error",
                   "error": {"type": err_type, "message": message}}),
        )
    }

    /// `severity` is `warning` or `error`.
    pub fn error(severity: &str, message: &str) -> Event {
        Self::typed("error", json!({"severity": severity, "message": message}))
    }

    pub fn topic(title: &str, summary: Option<&str>) -> Event {
        Self::typed("topic", json!({"title": title, "summary": summary}))
    }

    pub fn retry(attempt: u32, delay_ms: u64, reason: &str) -> Event {
        Self::typed(
            "retry",
            json!({"attempt": attempt, "delay_ms": delay_ms, "reason": reason}),
        )
    }

    /// A file gem-ask wrote: an image or audio the model or a tool made.
    pub fn media(path: &str, mime_type: &str, size: usize, source: &str) -> Event {
        Self::typed(
            "media",
            json!({"path": path, "mime_type": mime_type, "size": size, "source": source}),
        )
    }

    pub fn thought(content: &str, delta: bool) -> Event {
        Self::typed("thought", json!({"content": content, "delta": delta}))
    }

    pub fn signal(signal: &str, progress: Option<u8>, message: Option<&str>) -> Event {
        Self::typed(
            "signal",
            json!({"signal": signal, "progress": progress, "message": message}),
        )
    }
}

/// What a JSON value is, as a message names it ("a string").
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Reads events line by line, handing bad lines to the caller instead of
/// failing, so one malformed line never costs the good ones around it.
/// Another agent's stream (Codex, Claude Code) is read as our events
/// ([`foreign`]).
pub struct EventReader<R> {
    input: R,
    line: usize,
    buf: String,
    foreign: foreign::Translator,
    pending: VecDeque<Result<Event, LineError>>,
}

impl<R: BufRead> EventReader<R> {
    pub fn new(input: R) -> Self {
        EventReader {
            input,
            line: 0,
            buf: String::new(),
            foreign: foreign::Translator::new(),
            pending: VecDeque::new(),
        }
    }

    /// The number of the last line read (1-based).
    pub fn line(&self) -> usize {
        self.line
    }

    /// `None` at end of input; an `Err(io)` is fatal, an `Ok(Err(line))` is
    /// one bad line to report and skip.
    pub fn next_event(&mut self) -> io::Result<Option<Result<Event, LineError>>> {
        loop {
            if let Some(next) = self.pending.pop_front() {
                return Ok(Some(next));
            }
            self.buf.clear();
            if read_line_lossy(&mut self.input, &mut self.buf)? == 0 {
                return Ok(None);
            }
            self.line += 1;
            // A byte order mark opens the input (editors on Windows write
            // one), it is not part of the first event.
            if self.line == 1 && self.buf.starts_with('\u{feff}') {
                self.buf.drain(..'\u{feff}'.len_utf8());
            }
            // Our own lines (nearly all) go straight out; another
            // agent's are translated into the queue.
            match Event::from_line(&self.buf, self.line) {
                Ok(Some(e)) if !self.foreign.wants(e.kind()) => return Ok(Some(Ok(e))),
                Ok(Some(e)) => self
                    .foreign
                    .push(e, &self.buf, self.line, &mut self.pending),
                Ok(None) => continue,
                Err(e) => return Ok(Some(Err(e))),
            }
        }
    }
}

/// Like `BufRead::read_line`, but invalid UTF-8 is replaced rather than
/// fatal: one bad byte in a log must not end the stream.
pub fn read_line_lossy<R: BufRead>(input: &mut R, buf: &mut String) -> io::Result<usize> {
    let mut bytes = Vec::new();
    let n = input.read_until(b'\n', &mut bytes)?;
    match String::from_utf8(bytes) {
        Ok(s) => buf.push_str(&s),
        Err(e) => buf.push_str(&String::from_utf8_lossy(e.as_bytes())),
    }
    Ok(n)
}

/// Writes events as JSON lines, flushed one by one so a reader downstream
/// sees each as soon as it exists.
pub struct EventWriter<W: Write> {
    out: W,
}

impl<W: Write> EventWriter<W> {
    pub fn new(out: W) -> Self {
        EventWriter { out }
    }

    pub fn write(&mut self, event: &Event) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, &event.0)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    /// Several events, flushed once after the last.
    pub fn write_all(&mut self, events: &[Event]) -> io::Result<()> {
        for e in events {
            serde_json::to_writer(&mut self.out, &e.0)?;
            self.out.write_all(b"\n")?;
        }
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// RFC 3339 UTC timestamp for "now", with milliseconds.
pub fn now_rfc3339() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format_rfc3339(now.as_secs() as i64, now.subsec_millis())
}

/// Civil-from-days (Howard Hinnant's algorithm): no date crate for one
/// timestamp format.
pub fn format_rfc3339(secs: i64, millis: u32) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_survive_a_round_trip_in_order() {
        let line = r#"{"type":"weird","z":1,"a":{"b":[1,2]},"m":"x"}"#;
        let e = Event::from_line(line, 1).unwrap().unwrap();
        assert_eq!(e.kind(), "weird");
        assert_eq!(e.to_line(), line);
    }

    #[test]
    fn bad_lines_are_errors_with_their_number() {
        let err = Event::from_line("[1,2]", 7).unwrap_err();
        assert_eq!(err.line, 7);
        assert!(err.reason.contains("an array"));
        assert!(Event::from_line("{nope", 3).is_err());
        assert_eq!(Event::from_line("   \r\n", 3).unwrap(), None);
    }

    #[test]
    fn constructors_drop_absent_optionals() {
        let t = Event::topic("Build", None).to_line();
        assert_eq!(t, r#"{"type":"topic","title":"Build"}"#);
    }

    #[test]
    fn rfc3339_known_instants() {
        assert_eq!(format_rfc3339(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_rfc3339(1_709_251_199, 5), "2024-02-29T23:59:59.005Z");
    }
}
