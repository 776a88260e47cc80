//! The `signal` tool: how the model tells gem-ask where it stands, instead
//! of a magic string in its text. `signal(kind, progress?, message?)` with
//! the kinds `need_input` (it cannot go on without the user),
//! `task_complete` (the task is done) and `progress` (a share of the work,
//! 0-100). Each call becomes a `signal` event (docs/events.md) and a short
//! acknowledgement for the model; the turn loop reads each back as a
//! [`Signal`], hands it to the mode's [`SignalHook`] as it arrives and
//! lists the turn's in its `TurnReport`. Consent level `auto`: it acts on
//! nothing.
//!
//! `--progress-reporting off` leaves `progress` out of the declaration, and
//! a progress call made anyway is answered as an error, with no event.

use serde_json::{Value, json};

use crate::agent::toolbox::{Done, Failed, Level, Ran, Source, Tool};
use crate::events::Event;

pub const SIGNAL: &str = "signal";
pub const NEED_INPUT: &str = "need_input";
pub const TASK_COMPLETE: &str = "task_complete";
pub const PROGRESS: &str = "progress";

/// The longest message kept, in columns; a signal is a status line, not
/// an answer.
const MAX_MESSAGE: usize = 500;

/// The tool, with or without the `progress` kind.
pub fn tool(progress_reporting: bool) -> Tool {
    Tool::new(
        declaration(progress_reporting),
        Source::Builtin,
        Level::Auto,
        move |args, _| run(args, progress_reporting),
    )
    .with_guidance(super::place::SIGNAL, move |_| {
        guidance(progress_reporting).to_string()
    })
}

/// A `signal` event seen during a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Signal {
    /// `need_input`, `task_complete` or `progress`.
    pub kind: String,
    pub progress: Option<u64>,
    pub message: Option<String>,
}

impl Signal {
    /// The signal an event carries, if it is a `signal` event.
    pub fn from_event(e: &Event) -> Option<Signal> {
        if e.kind() != "signal" {
            return None;
        }
        Some(Signal {
            kind: e.str_field("signal")?.to_string(),
            progress: e.0.get("progress").and_then(Value::as_u64),
            message: e.str_field("message").map(str::to_string),
        })
    }
}

/// Told of each signal as it arrives.
pub type SignalHook = Box<dyn FnMut(&Signal)>;

fn kinds(progress_reporting: bool) -> Vec<&'static str> {
    let mut k = vec![NEED_INPUT, TASK_COMPLETE];
    if progress_reporting {
        k.push(PROGRESS);
    }
    k
}

/// The `FunctionDeclaration` (OpenAPI subset, as the chart tools).
pub fn declaration(progress_reporting: bool) -> Value {
    let mut what = String::from(
        "Tells gem-ask and the user where the work stands. need_input: you cannot go on without \
         the user's answer (ask the question in your text, then call this and end your turn). \
         task_complete: the task you were given is done (call it once, after the work, then give \
         a short final summary).",
    );
    if progress_reporting {
        what.push_str(
            " progress: a status update during long work, with progress as a percentage \
             (0-100) of the whole task and a one-line message.",
        );
    }
    json!({
        "name": SIGNAL,
        "description": what,
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "kind": {"type": "STRING", "enum": kinds(progress_reporting),
                         "description": "Which signal."},
                "progress": {"type": "INTEGER", "minimum": 0, "maximum": 100,
                             "description": "Percent of the task done (progress only)."},
                "message": {"type": "STRING",
                            "description": "One line for the user: the question, the result or the current step."}
            },
            "required": ["kind"]
        }
    })
}

/// The system prompt's line for the tool.
fn guidance(progress_reporting: bool) -> &'static str {
    if progress_reporting {
        "Use signal to say where the work stands: kind progress (with progress 0-100) at each major \
         step of long work, need_input when you need the user's answer, task_complete once the task \
         is done. Never write these words in your text instead.\n"
    } else {
        "Use signal to say where the work stands: need_input when you need the user's answer, \
         task_complete once the task is done. Never write these words in your text instead.\n"
    }
}

fn run(args: &Value, progress_reporting: bool) -> Ran {
    match parse(args, progress_reporting) {
        Ok((kind, progress, message)) => Ran {
            events: vec![Event::signal(kind, progress, message.as_deref())],
            result: Ok(Done::text(acknowledgement(kind, progress))),
            new_topic: None,
        },
        Err(f) => Ran::failed(f),
    }
}

type Parsed = (&'static str, Option<u8>, Option<String>);

fn parse(args: &Value, progress_reporting: bool) -> Result<Parsed, Failed> {
    let bad = |m: String| Failed::new("invalid_arguments", format!("signal: {m}"));
    let allowed = kinds(progress_reporting);
    let given = args.get("kind").and_then(Value::as_str).unwrap_or("");
    let Some(kind) = allowed.iter().copied().find(|k| *k == given.trim()) else {
        if given.trim() == PROGRESS {
            return Err(bad(
                "progress reporting is off in this run (--progress-reporting off); do not send progress signals".into(),
            ));
        }
        return Err(bad(format!(
            "kind must be one of {}, e.g. {{\"kind\":\"{TASK_COMPLETE}\",\"message\":\"the report is written\"}}",
            allowed.join(", ")
        )));
    };
    let progress = match args.get("progress") {
        None | Some(Value::Null) => None,
        Some(v) => match v.as_f64() {
            Some(p) if (0.0..=100.0).contains(&p) => Some(p.round() as u8),
            _ => {
                return Err(bad(format!(
                    "progress must be a number from 0 to 100, not {v}"
                )));
            }
        },
    };
    let message = match args.get("message") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            let s = s.trim();
            (!s.is_empty()).then(|| crate::render::wrap::truncate(s, MAX_MESSAGE, true))
        }
        Some(v) => return Err(bad(format!("message must be a string, not {v}"))),
    };
    Ok((kind, progress, message))
}

fn acknowledgement(kind: &str, progress: Option<u8>) -> String {
    match kind {
        NEED_INPUT => {
            "Noted: the user will be asked. End your turn now; do not call more tools.".into()
        }
        TASK_COMPLETE => {
            "Noted: the task is marked complete. Give a short final summary and call no more tools."
                .into()
        }
        _ => match progress {
            Some(p) => format!("Progress noted ({p}%). Go on with the work."),
            None => "Progress noted. Go on with the work.".into(),
        },
    }
}

/// The progress line shown on the terminal for a signal, if it has one
/// (progress signals, and a completed task); `None` for the others.
pub fn progress_line(kind: &str, progress: Option<u64>, message: Option<&str>) -> Option<String> {
    let message = message.map(|m| crate::term::sanitize_line(&m.replace(['\n', '\t'], " ")));
    let label = match kind {
        PROGRESS => match progress {
            Some(p) => format!("progress {:>3}%", p.min(100)),
            None => "progress".to_string(),
        },
        TASK_COMPLETE => "task complete".to_string(),
        _ => return None,
    };
    Some(match message {
        Some(m) => format!("gem-ask: {label}: {m}"),
        None => format!("gem-ask: {label}"),
    })
}

/// Writes each signal's progress line on stderr, when stderr is a
/// terminal (never into a pipe or file, never on stdout).
pub fn terminal_progress() -> Option<SignalHook> {
    use std::io::{IsTerminal, Write};
    if !std::io::stderr().is_terminal() {
        return None;
    }
    Some(Box::new(|s: &Signal| {
        if let Some(line) = progress_line(&s.kind, s.progress, s.message.as_deref()) {
            let _ = writeln!(std::io::stderr().lock(), "{line}");
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(args: Value, progress: bool) -> Ran {
        run(&args, progress)
    }

    #[test]
    fn each_kind_becomes_an_event_and_an_acknowledgement() {
        let r = call(
            json!({"kind": "progress", "progress": 40, "message": "tests written"}),
            true,
        );
        assert_eq!(
            serde_json::to_value(&r.events[0].0).unwrap(),
            json!({"type": "signal", "signal": "progress", "progress": 40, "message": "tests written"})
        );
        assert_eq!(
            r.result.unwrap().output,
            "Progress noted (40%). Go on with the work."
        );
        let r = call(json!({"kind": "task_complete"}), true);
        assert_eq!(
            serde_json::to_value(&r.events[0].0).unwrap(),
            json!({"type": "signal", "signal": "task_complete"})
        );
        let r = call(
            json!({"kind": "need_input", "message": "which file?", "progress": 12.6}),
            false,
        );
        assert_eq!(r.events[0].0["progress"], 13);
    }

    #[test]
    fn bad_arguments_are_an_error_answer_without_an_event() {
        for args in [
            json!({}),
            json!({"kind": "done"}),
            json!({"kind": "progress", "progress": 140}),
            json!({"kind": "progress", "progress": "half"}),
            json!({"kind": "task_complete", "message": 3}),
        ] {
            let r = call(args.clone(), true);
            assert!(r.events.is_empty(), "{args}");
            assert_eq!(r.result.unwrap_err().kind, "invalid_arguments", "{args}");
        }
        let off = call(json!({"kind": "progress", "progress": 10}), false);
        assert!(off.events.is_empty());
        assert!(
            off.result
                .unwrap_err()
                .message
                .contains("--progress-reporting off")
        );
    }

    #[test]
    fn the_declaration_follows_progress_reporting() {
        let on = declaration(true);
        assert_eq!(
            on["parameters"]["properties"]["kind"]["enum"],
            json!(["need_input", "task_complete", "progress"])
        );
        let off = declaration(false);
        assert_eq!(
            off["parameters"]["properties"]["kind"]["enum"],
            json!(["need_input", "task_complete"])
        );
        assert!(!off["description"].as_str().unwrap().contains("percentage"));
    }

    #[test]
    fn progress_lines_are_one_clean_line() {
        assert_eq!(
            progress_line("progress", Some(7), Some("step\n2\x1b[2J")).unwrap(),
            "gem-ask: progress   7%: step 2^[[2J"
        );
        assert_eq!(progress_line("need_input", None, Some("x")), None);
        assert_eq!(
            progress_line("task_complete", None, None).unwrap(),
            "gem-ask: task complete"
        );
    }
}
