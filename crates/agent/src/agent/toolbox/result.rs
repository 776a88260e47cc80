//! What running a tool gives back: a [`Done`] answer (the text the user
//! sees and the response the model reads) or a [`Failed`] one (an
//! `error.type` and its message), as a [`ToolResult`]; with the events it
//! made on the way, a [`Ran`]. [`ResultExt`] turns either into the
//! `tool_result` event and the model's `functionResponse.response`. The
//! dispatch path (`Toolbox::dispatch`) redacts a `Ran` before either is
//! made (`secrets::redact_ran`).

use std::time::Duration;

use serde_json::{Value, json};

use crate::events::Event;

/// A successful run: what the user sees as `tool_result.output` and what
/// the model gets as `functionResponse.response`.
#[derive(Debug, Clone, PartialEq)]
pub struct Done {
    pub output: String,
    pub response: Value,
}

impl Done {
    /// The common case: the model reads the same text as the user.
    pub fn text(output: impl Into<String>) -> Done {
        let output = output.into();
        Done {
            response: json!({ "output": output }),
            output,
        }
    }
}

/// A failed, refused or timed-out call: `tool_result.error` and the
/// model's `{"error": message}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Failed {
    /// `tool_result.error.type`, e.g. `invalid_arguments`, `consent_denied`.
    pub kind: &'static str,
    pub message: String,
}

impl Failed {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Failed {
        Failed {
            kind,
            message: message.into(),
        }
    }

    pub fn unknown_tool<S: AsRef<str>>(name: &str, declared: &[S]) -> Failed {
        let names: Vec<&str> = declared.iter().map(AsRef::as_ref).collect();
        Failed::new(
            "unknown_tool",
            format!(
                "unknown tool {name:?}; available tools: {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        )
    }

    pub fn timed_out(name: &str, timeout: Duration) -> Failed {
        Failed::new(
            "timeout",
            format!(
                "{name} was stopped after {} s (--tool-timeout)",
                timeout.as_secs_f64()
            ),
        )
    }
}

/// The outcome of one call.
pub type ToolResult = Result<Done, Failed>;

/// Turning an outcome into its event and the model's answer.
pub trait ResultExt {
    fn result_event(&self, tool_id: &str) -> Event;
    fn response(&self) -> Value;
}

impl ResultExt for ToolResult {
    fn result_event(&self, tool_id: &str) -> Event {
        match self {
            Ok(d) => Event::tool_result_ok(tool_id, &d.output),
            Err(f) => Event::tool_result_err(tool_id, f.kind, &f.message),
        }
    }

    fn response(&self) -> Value {
        match self {
            Ok(d) => d.response.clone(),
            Err(f) => json!({ "error": f.message }),
        }
    }
}

/// What running a tool produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Ran {
    /// Shown between `tool_use` and `tool_result` (a chart, a chapter).
    pub events: Vec<Event>,
    pub result: ToolResult,
    /// Set by create_new_topic.
    pub new_topic: Option<String>,
}

impl Ran {
    pub fn done(d: Done) -> Ran {
        Ran {
            events: Vec::new(),
            result: Ok(d),
            new_topic: None,
        }
    }

    pub fn failed(f: Failed) -> Ran {
        Ran {
            events: Vec::new(),
            result: Err(f),
            new_topic: None,
        }
    }
}

impl From<ToolResult> for Ran {
    fn from(result: ToolResult) -> Ran {
        Ran {
            events: Vec::new(),
            result,
            new_topic: None,
        }
    }
}
