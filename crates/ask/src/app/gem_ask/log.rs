//! `gem-ask log ...`: the audit log of past sessions (`memory::log`):
//! `list`, `search TEXT` and `show ID`, with the filters `--since`,
//! `--tool`, `--model`, `--status` and `--cost-over`. The front resolves
//! the sessions directory (the one the run's `Environ` holds), the filters
//! and the redaction (every secret gem-ask knows, and words that look like
//! credentials), prints the engine's lines and its warnings.

use std::io::{self, Write};

use clap::Args as ClapArgs;

use crate::agent::exit;
use crate::log::{self, Filters, Guard, LogError, LogOptions};
use crate::term::{coded, diag};

/// `gem-ask log ...`.
#[derive(Debug, Clone, ClapArgs)]
#[command(args_conflicts_with_subcommands = true, disable_help_subcommand = true)]
pub struct LogArgs {
    #[command(subcommand)]
    pub action: Option<Action>,
    /// Words of a prompt that starts with "log" (no log command): asked as a prompt.
    #[arg(hide = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub words: Vec<String>,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum Action {
    /// The sessions, most recently written first: a `record` event each (session, created,
    /// updated, model, turns, tool_calls, tokens, cost_usd, status, tools, topic, prompt).
    List {
        #[command(flatten)]
        which: Which,
    },
    /// Full-text search over prompts, answers, tool calls and their results: a `record` event a
    /// text found (session, time, kind, tool, status, model, text), best match first.
    Search {
        #[command(flatten)]
        which: Which,
        /// The words to find (every one must occur).
        #[arg(required = true)]
        text: Vec<String>,
    },
    /// One session replayed as the events of a run (init, message, tool_use, tool_result,
    /// result), for viz-render.
    Show {
        /// The session's id (as `log list` shows it).
        id: String,
    },
}

/// The filters of `list` and `search`.
#[derive(Debug, Clone, ClapArgs)]
pub struct Which {
    /// Only what was written since: a date (2026-11-20), a moment (RFC 3339) or a time back
    /// (30m, 12h, 7d, 2w).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only sessions that called this tool (search: only its calls and results).
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
    /// Only sessions with this model (the one asked for, or a served version).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    /// Only sessions and map runs whose status is this: success, error (a tool call failed or was
    /// denied, a map record failed, or the last run stopped on an error), budget (the last run stopped
    /// by --max-requests, --max-tokens or --max-cost), interrupted (by a signal) or incomplete (a turn
    /// not completely written).
    #[arg(long, value_name = "STATUS", value_parser = clap::builder::PossibleValuesParser::new(log::STATUSES))]
    pub status: Option<String>,
    /// Only sessions that cost more than this many US dollars (a session of unknown cost never).
    #[arg(long, value_name = "USD")]
    pub cost_over: Option<f64>,
    /// At most this many lines.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub limit: usize,
}

fn filters(w: &Which) -> anyhow::Result<Filters> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default();
    let since = w
        .since
        .as_deref()
        .map(|t| log::since(t, now))
        .transpose()
        .map_err(|e| coded(exit::USAGE, e))?;
    if w.cost_over.is_some_and(|c| !c.is_finite() || c < 0.0) {
        return Err(coded(
            exit::USAGE,
            "--cost-over: an amount of US dollars, not negative (e.g. 0.50)",
        ));
    }
    Ok(Filters {
        since,
        tool: w.tool.clone(),
        model: w.model.clone(),
        status: w.status.clone(),
        cost_over: w.cost_over,
    })
}

/// What the log may not show: every secret gem-ask knows (the API keys,
/// the values of secret-named variables), then each word that looks like
/// a credential by itself (a known token prefix, a URL with a password,
/// a secret `NAME=value`), as command lines are shown.
fn guard() -> Guard {
    let known = crate::agent::toolbox::secrets::known();
    Box::new(move |text: &str| {
        let redacted = crate::agent::toolbox::secrets::redact_with(text, &known);
        let t = redacted.as_deref().unwrap_or(text);
        let words: Vec<&str> = t.split_whitespace().collect();
        if !words.iter().any(|w| credential(w)) {
            return redacted;
        }
        let mut out = t.to_string();
        for w in words.into_iter().filter(|w| credential(w)) {
            out = out.replace(w, crate::config::secrets::REDACTED);
        }
        Some(out)
    })
}

/// A word that looks like a credential; a hash (hex digits alone) does not.
fn credential(word: &str) -> bool {
    let w = word.trim_matches(|c: char| "\"'`,;:()[]{}<>".contains(c));
    !w.chars().all(|c| c.is_ascii_hexdigit()) && crate::config::secrets::looks_secret(w)
}

/// Runs one log command; the exit code. No such session is 1; a
/// sessions directory that cannot be read is 1 too, with why.
pub fn run(action: Action) -> anyhow::Result<u8> {
    let dir = crate::agent::environ::get()
        .sessions_dir
        .clone()
        .map_err(|e| coded(exit::FAILURE, format!("log: {}", e.0)))?;
    let options = |w: Option<&Which>| -> anyhow::Result<LogOptions> {
        Ok(LogOptions {
            dir: dir.clone(),
            guard: guard(),
            filters: w.map(filters).transpose()?.unwrap_or_default(),
            limit: w.map_or(usize::MAX, |w| w.limit),
        })
    };
    let answer = match &action {
        Action::List { which } => log::list(&options(Some(which))?),
        Action::Search { which, text } => log::search(&options(Some(which))?, &text.join(" ")),
        Action::Show { id } => log::show(&options(None)?, id),
    };
    let answer = answer.map_err(|e| match e {
        LogError::NoSession(..) => coded(exit::FAILURE, format!("log show: {e}")),
        e => coded(exit::FAILURE, format!("log: {e}")),
    })?;
    for n in &answer.notes {
        diag(format!("gem-ask: warning: {n}"));
    }
    let mut out = io::stdout().lock();
    for l in &answer.lines {
        writeln!(out, "{l}")?;
    }
    out.flush()?;
    Ok(exit::OK)
}
