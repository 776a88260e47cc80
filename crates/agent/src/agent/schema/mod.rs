//! Answers as data: `gem-ask --schema SCHEMA` (one record) and
//! `--schema-multi SCHEMA` (a list of records).
//!
//! SCHEMA is a JSON Schema (inline, or `@file.json`) or the concise form
//! of [`concise`]. [`Schema::parse`] reads it, checks it against its
//! meta-schema and compiles its validator (the `jsonschema` crate, without
//! network or file resolving: a remote `$ref` is an error, not a fetch).
//! A list is asked for as `{"items": [RECORD, ...]}`, the shape the model
//! is constrained to (`responseJsonSchema`, or `response_format` for an
//! OpenAI-compatible server). [`Schema::check`] reads an answer into its
//! records or says every way it fails the schema; [`sink`] writes the plain
//! JSON lines into a pipe. The turn with its one retry is
//! `agent::schema_turn`.

pub mod concise;
pub mod sink;

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};

pub use sink::RecordSink;

/// The event type of one record (docs/events.md).
pub const RECORD: &str = "record";

/// The most validation errors told, to the model and to the user.
const MAX_ERRORS: usize = 20;

/// Why a JSON value is no usable schema: where it breaks the meta-schema.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotASchema {
    /// The kind of JSON value it is instead.
    #[error("a JSON Schema is an object; this is {0}")]
    NotAnObject(&'static str),
    #[error("not a valid JSON Schema at {at}: {why}")]
    Invalid { at: String, why: String },
}

/// A parsed `--schema` or `--schema-multi`.
#[derive(Clone)]
pub struct Schema {
    /// One record's schema, as given or made from the concise form.
    pub record: Value,
    /// `--schema-multi`: a list of records.
    pub multi: bool,
    /// What the model is asked for: the record's schema, or for a list
    /// `{"items": [record, ...]}`.
    pub sent: Value,
    validator: Arc<jsonschema::Validator>,
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema")
            .field("multi", &self.multi)
            .field("sent", &self.sent)
            .finish_non_exhaustive()
    }
}

/// What is wrong with a SCHEMA argument (exit 2; exit 66 for a file that
/// cannot be read). Its text names the flag, the position and shows an
/// example.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    pub flag: &'static str,
    /// The file it came from (`@file.json`).
    pub file: Option<String>,
    /// What is wrong, with its position.
    pub problem: String,
    /// The line in question with a caret under the position, when known.
    pub excerpt: Option<String>,
    /// The file could not be read at all.
    pub unreadable: bool,
}

/// How each form looks, under every error.
pub const EXAMPLES: &str = "accepted: a JSON Schema, e.g. '{\"type\": \"object\", \"properties\": \
{\"model\": {\"type\": \"string\"}, \"year\": {\"type\": \"integer\"}}, \"required\": [\"model\", \"year\"]}' \
(or @schema.json), or the concise form, e.g. 'model, zero_to_sixty float: seconds from 0 to 60 mph, year int' \
(types str, int, float, bool)";

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.flag)?;
        if let Some(file) = &self.file {
            write!(f, " {file}")?;
        }
        write!(f, ": {}", self.problem)?;
        if let Some(x) = &self.excerpt {
            write!(f, "\n{x}")?;
        }
        if !self.unreadable {
            write!(f, "\n{EXAMPLES}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaError {}

/// `line` with a caret under 1-based character `column`, both indented.
fn caret(line: &str, column: usize) -> String {
    let shown: String = line
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    // Long lines (a schema on one line) are shown around the column.
    let start = column.saturating_sub(60);
    let window: String = shown.chars().skip(start).take(100).collect();
    format!(
        "  {window}\n  {}^",
        " ".repeat(column.saturating_sub(1) - start)
    )
}

/// Why an answer is not a valid one: each problem on a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub problems: Vec<String>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "- {p}")?;
        }
        Ok(())
    }
}

impl Schema {
    /// Reads a SCHEMA argument of `flag` (`--schema` or `--schema-multi`):
    /// `@FILE`, inline JSON (text starting with `{`), or the concise form.
    pub fn parse(arg: &str, multi: bool) -> Result<Schema, SchemaError> {
        let flag = if multi { "--schema-multi" } else { "--schema" };
        let err = |file: Option<&str>, problem: String, excerpt: Option<String>| SchemaError {
            flag,
            file: file.map(str::to_string),
            problem,
            excerpt,
            unreadable: false,
        };
        let (file, text) = match arg.strip_prefix('@') {
            Some(path) => match std::fs::read_to_string(Path::new(path)) {
                Ok(t) => (Some(path), t),
                Err(e) => {
                    return Err(SchemaError {
                        unreadable: true,
                        ..err(Some(path), format!("cannot read it: {e}"), None)
                    });
                }
            },
            None => (None, arg.to_string()),
        };
        let record = if text.trim_start().starts_with('{') {
            serde_json::from_str::<Value>(&text).map_err(|e| {
                let line = text.lines().nth(e.line().saturating_sub(1)).unwrap_or("");
                err(
                    file,
                    format!(
                        "not valid JSON at line {}, column {}: {}",
                        e.line(),
                        e.column(),
                        json_reason(&e)
                    ),
                    Some(caret(line, e.column().max(1))),
                )
            })?
        } else {
            concise::parse(&text).map_err(|e| {
                let line = text.lines().nth(e.line - 1).unwrap_or("");
                let at = if text.contains('\n') {
                    format!("line {}, column {}", e.line, e.column)
                } else {
                    format!("column {}", e.column)
                };
                err(
                    file,
                    format!("{} (at {at})", e.message),
                    Some(caret(line, e.column)),
                )
            })?
        };
        Schema::from_json(record, multi).map_err(|problem| err(file, problem.to_string(), None))
    }

    /// A schema given as JSON; the error says where it breaks its
    /// meta-schema.
    pub fn from_json(record: Value, multi: bool) -> Result<Schema, NotASchema> {
        if !record.is_object() {
            return Err(NotASchema::NotAnObject(kind_of(&record)));
        }
        let sent = if multi {
            json!({"type": "object",
                   "properties": {"items": {"type": "array", "items": record}},
                   "required": ["items"]})
        } else {
            record.clone()
        };
        let validator = jsonschema::validator_for(&record)
            .and_then(|_| jsonschema::validator_for(&sent))
            .map_err(|e| {
                let at = e.instance_path().as_str();
                let at = if at.is_empty() { "/" } else { at };
                NotASchema::Invalid {
                    at: at.to_string(),
                    why: e.to_string(),
                }
            })?;
        Ok(Schema {
            record,
            multi,
            sent,
            validator: Arc::new(validator),
        })
    }

    /// The answer's records, or every way it fails the schema (at most
    /// [`MAX_ERRORS`] of them). A fence the model put around the JSON is
    /// taken off; for a list, a bare array is read as its items.
    pub fn check(&self, answer: &str) -> Result<Vec<Value>, Mismatch> {
        let text = unfence(answer);
        let mut value: Value = serde_json::from_str(text).map_err(|e| Mismatch {
            problems: vec![format!(
                "the answer is not JSON: {} (line {}, column {})",
                json_reason(&e),
                e.line(),
                e.column()
            )],
        })?;
        if self.multi && value.is_array() {
            value = json!({ "items": value });
        }
        let mut problems: Vec<String> = Vec::new();
        let mut more = 0usize;
        // A valid answer (the usual case) is not walked for errors.
        let errors = if self.validator.is_valid(&value) {
            None
        } else {
            Some(self.validator.iter_errors(&value))
        };
        for e in errors.into_iter().flatten() {
            if problems.len() == MAX_ERRORS {
                more += 1;
                continue;
            }
            let at = e.instance_path().as_str();
            let at = if at.is_empty() { "the top level" } else { at };
            problems.push(format!("at {at}: {}", shorten(&e.to_string())));
        }
        if more > 0 {
            problems.push(format!("and {more} more"));
        }
        if !problems.is_empty() {
            return Err(Mismatch { problems });
        }
        Ok(match value {
            Value::Object(mut m) if self.multi => match m.remove("items") {
                Some(Value::Array(items)) => items,
                _ => Vec::new(),
            },
            v => vec![v],
        })
    }

    /// What the system prompt says when the schema cannot be sent as a
    /// constraint (tools are declared: Gemini 2.5 takes no JSON mode with
    /// function calling), so the final answer still comes as JSON.
    pub fn instruction(&self) -> String {
        format!(
            "Your final answer (after any tool calls) must be only JSON, no prose and no code fence, \
             matching this JSON Schema: {}\n",
            self.sent
        )
    }

    /// The user message of the one retry: the problems, and the ask.
    pub fn retry_prompt(&self, m: &Mismatch) -> String {
        format!(
            "Your answer does not match the JSON Schema it must follow:\n{m}\n\
             Answer again with only the JSON, matching this schema: {}",
            self.sent
        )
    }
}

/// serde_json's message without its own "at line L column C" tail.
fn json_reason(e: &serde_json::Error) -> String {
    let s = e.to_string();
    match s.rfind(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// A validator message quoting a huge value, cut.
fn shorten(s: &str) -> String {
    const MAX: usize = 300;
    if s.len() <= MAX {
        return s.to_string();
    }
    format!("{}...", &s[..s.floor_char_boundary(MAX)])
}

use crate::events::kind_of;

/// The JSON inside a ```json ... ``` fence, else the text trimmed.
fn unfence(answer: &str) -> &str {
    let t = answer.trim();
    if let Some(rest) = t.strip_prefix("```")
        && let Some(nl) = rest.find('\n')
        && let Some(body) = rest[nl + 1..].trim_end().strip_suffix("```")
    {
        return body.trim();
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_asked_as_items_and_read_back_as_records() {
        let s = Schema::parse("model, secs float", true).unwrap();
        assert_eq!(s.sent["properties"]["items"]["items"], s.record);
        let r = s
            .check(r#"{"items":[{"model":"M5","secs":2.9},{"model":"M8","secs":3}]}"#)
            .unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[1]["secs"], 3);
        // A bare array and a fenced answer are read too.
        assert_eq!(
            s.check("```json\n[{\"model\":\"M5\",\"secs\":2.9}]\n```")
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn every_problem_is_named_with_its_path() {
        let s = Schema::parse("model, secs float", true).unwrap();
        let m = s
            .check(r#"{"items":[{"model":"M5","secs":"fast"},{"secs":1}]}"#)
            .unwrap_err();
        let text = m.to_string();
        assert!(text.contains("at /items/0/secs:"), "{text}");
        assert!(
            text.contains("at /items/1:") && text.contains("model"),
            "{text}"
        );
        let m = s.check("Sure! Here it is").unwrap_err();
        assert!(m.problems[0].starts_with("the answer is not JSON"), "{m}");
    }

    #[test]
    fn bad_schemas_say_where_and_show_an_example() {
        let e = Schema::parse(
            r#"{"type": "object", "properties": {"a": {"type": "strnig"}}}"#,
            false,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("--schema: not a valid JSON Schema at /properties/a/type"),
            "{e}"
        );
        assert!(e.contains("accepted: a JSON Schema, e.g."), "{e}");
        let e = Schema::parse("{\"type\": \"object\",\n \"properties\": {,}}", true)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("--schema-multi: not valid JSON at line 2, column 17"),
            "{e}"
        );
        assert!(
            e.contains("\n   \"properties\": {,}}\n                  ^"),
            "{e}"
        );
        let e = Schema::parse("model, year integer", false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("(at column 13)"), "{e}");
        assert!(e.contains("  model, year integer\n              ^"), "{e}");
        let e = Schema::parse("@/nonexistent/s.json", false).unwrap_err();
        assert!(
            e.unreadable && e.to_string().contains("cannot read it"),
            "{e}"
        );
        let e = Schema::parse("{\"$ref\": \"https://example.com/s.json\"}", false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a valid JSON Schema"), "{e}");
    }
}

#[cfg(test)]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// No SCHEMA argument and no answer makes gem-ask panic: each is a
        /// schema, or an error that points inside the text.
        #[test]
        fn any_schema_text_parses_or_says_where(arg in "[a-z ,:{}\\[\\]\"\n]{0,60}", multi: bool) {
            if let Err(e) = Schema::parse(&arg, multi) {
                prop_assert!(e.to_string().contains("accepted:"));
            }
        }

        #[test]
        fn any_answer_is_records_or_problems(answer in "[a-z0-9 ,:{}\\[\\]\"`\n]{0,80}") {
            let s = Schema::parse("model, secs float", true).unwrap();
            if let Err(m) = s.check(&answer) {
                prop_assert!(!m.problems.is_empty());
            }
        }
    }
}
