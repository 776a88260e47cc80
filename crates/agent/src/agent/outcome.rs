//! How a run ends: why a turn failed ([`Failure`]), the counts gathered on
//! the way ([`Stats`]), and the one `result` event that closes every
//! stream, with the exit code that goes with it ([`super::exit`]).

use std::io;
use std::time::Duration;

use serde_json::{Map, json};

use super::keys::redact_key;
use super::sink::EventSink;
use super::{exit, signals, tool_stats};
use crate::events::{Event, now_rfc3339};
use crate::provider::transport::scrub_url;
use crate::provider::{GenError, Usage};
use crate::term::coded;

/// Why a turn (or a run) did not complete.
#[derive(Debug)]
pub enum Failure {
    Gen(GenError),
    NoKey,
    MaxRounds(u32),
    Session(String),
    /// A `--record`/`--replay` file that cannot be opened.
    Setup(u8, String),
    /// Task mode: `--max-iterations` turns without `task_complete`.
    Iterations(u32),
    /// Task mode: `--task-timeout` passed.
    TimeLimit(Duration),
    /// Task mode without a user to ask: the model asked for input, or
    /// `--auto-continue off` stopped it; why.
    NeedsUser(String),
    /// `--schema`: the answer did not match, also after its retry.
    Schema(String),
    /// A cap of `--max-requests` / `--max-tokens` / `--max-cost` would be passed
    /// (`super::budget`): its `error.type` and the message.
    Budget(&'static str, String),
}

impl From<GenError> for Failure {
    fn from(e: GenError) -> Self {
        Failure::Gen(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Gen(GenError::Output(e))
    }
}

/// What a run has cost so far, over all its turns.
#[derive(Debug, Default)]
pub struct Stats {
    pub usage: Usage,
    pub requests: u64,
    pub tool_calls: u64,
    pub tools: tool_stats::ToolStats,
    /// Task mode: the turns taken (`result.stats.iterations`).
    pub iterations: Option<u64>,
    /// The model that answered the last request (its `modelVersion`),
    /// which may not be the one asked for: an alias, or a retired model
    /// the API routes to another.
    pub model_version: Option<String>,
    /// The last request's prompt tokens: the least the next one costs
    /// (`super::budget`).
    pub last_prompt: u64,
    /// What the answered requests cost in US dollars; `None` when the
    /// model's price is unknown (`super::price`).
    pub cost_usd: Option<f64>,
}

/// An ended run's exit code and, for a failure, its `error.type` and
/// message.
pub struct Verdict {
    pub code: u8,
    pub error: Option<(&'static str, String)>,
}

/// The exit code and error of a failure; `Err` for our own stdout
/// failing (a closed pipe), where nothing more can be said.
pub fn verdict(failure: Failure) -> Result<Verdict, io::Error> {
    let v = |code, kind, message: String| Verdict {
        code,
        error: Some((kind, message)),
    };
    Ok(match failure {
        Failure::Gen(GenError::Output(e)) => return Err(e),
        Failure::Gen(GenError::Interrupted) => {
            let sig = signals::received().unwrap_or(libc::SIGINT);
            let code = if sig == libc::SIGTERM {
                exit::TERMINATED
            } else {
                exit::INTERRUPTED
            };
            v(
                code,
                "interrupted",
                format!("interrupted by {}", signals::name(sig)),
            )
        }
        Failure::Gen(e) => {
            let code = match e {
                GenError::Blocked(_) => exit::BLOCKED,
                GenError::Attachment(_) => exit::NO_INPUT,
                GenError::ModelGone(_) => exit::MODEL_GONE,
                _ => exit::API,
            };
            v(code, e.kind(), e.to_string())
        }
        Failure::NoKey => v(
            exit::NO_API_KEY,
            "missing_api_key",
            "no API key: set GEMINI_API_KEY or GOOGLE_API_KEY".to_string(),
        ),
        Failure::MaxRounds(n) => v(
            exit::FAILURE,
            "max_tool_rounds",
            format!("the model was still calling tools after {n} rounds (--max-tool-rounds)"),
        ),
        Failure::Session(m) => v(exit::FAILURE, "session_error", m),
        Failure::Setup(code, m) => v(code, "setup_error", m),
        Failure::Iterations(n) => v(
            exit::TASK_ITERATIONS,
            "max_iterations",
            format!("the task was not complete after {n} iterations (--max-iterations)"),
        ),
        Failure::TimeLimit(t) => v(
            exit::TASK_TIMEOUT,
            "task_timeout",
            format!(
                "the task was not complete after {} s (--task-timeout)",
                t.as_secs_f64()
            ),
        ),
        Failure::NeedsUser(why) => v(exit::TASK_NEEDS_INPUT, "needs_input", why),
        Failure::Schema(why) => v(exit::DATA, "schema_mismatch", why),
        Failure::Budget(kind, why) => v(exit::BUDGET, kind, why),
    })
}

/// How the `result` event is written and its error reported.
pub struct Closing<'a> {
    pub sink: &'a mut dyn EventSink,
    pub stats: &'a Stats,
    pub elapsed: Duration,
    /// Its userinfo and query never reach a message.
    pub base_url: &'a str,
    /// The renderer draws a failed result as an error line; saying it
    /// again on stderr would show it twice on the terminal.
    pub error_drawn: bool,
}

/// Writes the `result` event for `outcome` and turns it into the exit
/// code; a failure not drawn on the terminal is returned as the error
/// `app::main_with` prints once.
pub fn finish(c: Closing<'_>, outcome: Result<(), Failure>) -> anyhow::Result<u8> {
    // A signal that arrived after the last check still ends as interrupted.
    let outcome = match (outcome, signals::received()) {
        (Ok(()), Some(_)) => Err(Failure::Gen(GenError::Interrupted)),
        (o, _) => o,
    };
    let Verdict { code, error } = match outcome {
        Ok(()) => Verdict {
            code: exit::OK,
            error: None,
        },
        Err(f) => verdict(f)?,
    };
    finish_with(c, code, error)
}

/// Writes the `result` event for an exit code and optional error
/// (`error.type`, message), as [`finish`] does for a [`Failure`].
pub fn finish_with(c: Closing<'_>, code: u8, error: Option<(&str, String)>) -> anyhow::Result<u8> {
    // A proxy or gateway may echo the key back in an error message, and
    // the HTTP library quotes the URL with its credentials and query.
    let error = error.map(|(kind, message)| (kind, redact_key(&scrub_url(&message, c.base_url))));
    c.sink
        .emit(&result_event(c.stats, c.elapsed, error.as_ref()))?;
    c.sink.finish()?;
    match error {
        None => Ok(code),
        Some(_) if c.error_drawn => Ok(code),
        Some((_, message)) => Err(coded(code, message)),
    }
}

/// The `result` event: status, error and the run's stats.
pub fn result_event(stats: &Stats, elapsed: Duration, error: Option<&(&str, String)>) -> Event {
    let u = stats.usage;
    let mut map = Map::new();
    map.insert("type".into(), "result".into());
    map.insert(
        "status".into(),
        if error.is_some() { "error" } else { "success" }.into(),
    );
    if let Some((kind, message)) = error {
        map.insert("error".into(), json!({"type": kind, "message": message}));
    }
    let mut stats_json = json!({
            "input_tokens": u.prompt,
            "output_tokens": u.candidates,
            "thought_tokens": u.thoughts,
            "cached_input_tokens": u.cached,
            "total_tokens": u.total,
            "duration_ms": elapsed.as_millis() as u64,
            "tool_calls": stats.tool_calls,
            "requests": stats.requests,
            "tools": stats.tools.to_json(),
    });
    if let Some(n) = stats.iterations {
        stats_json["iterations"] = n.into();
    }
    if let Some(c) = stats.cost_usd {
        stats_json["cost_usd"] = c.into();
    }
    if let Some(m) = &stats.model_version {
        map.insert("model_version".into(), m.as_str().into());
    }
    map.insert("stats".into(), stats_json);
    map.insert("timestamp".into(), now_rfc3339().into());
    Event(map)
}
