//! The audit log (`gem-ask log`): what past sessions asked, answered and
//! ran, found again. The session files (`session`) stay the truth; an
//! SQLite index beside them ([`index`]: a row a session, an FTS5 table
//! over every prompt, answer, tool call and tool result) is brought up to
//! date from them before each query, and rebuilt or done without when it
//! is damaged or locked. [`read`] is what a session file says to the log,
//! [`query`] the list and the search, [`show`] one session replayed as
//! events. Every text passes the run's redaction [`Guard`] before it is
//! indexed and again before it is shown, so no secret gem-ask knows is
//! kept in the index or printed.
//!
//! A `gem-ask map` run leaves a run file beside the sessions
//! (`map-ID.jsonl`, [`read::maprun`]): the log lists, searches and filters it as
//! a session whose prompt is the map's template.

pub mod index;
pub mod query;
pub mod read;
pub mod show;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use read::{Item, Summary};

/// Replaces what must not be shown; `None` when the text holds nothing
/// to hide (the memory's guard has the same shape).
pub type Guard = Box<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// What a log query keeps.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// RFC 3339 UTC with milliseconds (as the session files write
    /// times): sessions written, or texts written, at or after it.
    pub since: Option<String>,
    /// A tool's name: sessions that called it; a search's tool calls and
    /// results of it.
    pub tool: Option<String>,
    /// A model the session used (its meta line's or a turn's served version).
    pub model: Option<String>,
    /// One of [`STATUSES`] (see [`Summary::status`]).
    pub status: Option<String>,
    /// Sessions that cost more than this many US dollars.
    pub cost_over: Option<f64>,
}

/// The statuses a session can have.
pub const STATUSES: &[&str] = &["success", "error", "budget", "interrupted", "incomplete"];

/// The resolved options of a log query.
pub struct LogOptions {
    /// The sessions directory (the index lives in it).
    pub dir: PathBuf,
    pub guard: Guard,
    pub filters: Filters,
    /// At most this many lines.
    pub limit: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("cannot read the sessions directory {0}: {1}")]
    Dir(PathBuf, std::io::Error),
    #[error("no session {0} in {1}")]
    NoSession(String, PathBuf),
    #[error("session {0}: {1}")]
    Session(String, std::io::Error),
    #[error("the log index: {0}")]
    Sql(#[from] rusqlite::Error),
}

/// What a query printed (its lines, each a JSON value) and what it
/// should warn of.
#[derive(Debug, Default)]
pub struct Answer {
    pub lines: Vec<Value>,
    pub notes: Vec<String>,
}

/// `gem-ask log list`: a `record` event a session.
pub fn list(o: &LogOptions) -> Result<Answer, LogError> {
    let ix = index::open(&o.dir, &o.guard)?;
    let rows = query::list(&ix.conn, &o.filters, o.limit)?;
    Ok(records(rows, ix.notes, &o.guard))
}

/// `gem-ask log search TEXT`: a `record` event a text found.
pub fn search(o: &LogOptions, text: &str) -> Result<Answer, LogError> {
    let ix = index::open(&o.dir, &o.guard)?;
    let rows = query::search(&ix.conn, text, &o.filters, o.limit)?;
    Ok(records(rows, ix.notes, &o.guard))
}

fn records(rows: Vec<Value>, notes: Vec<String>, guard: &Guard) -> Answer {
    let lines = rows
        .into_iter()
        .map(|mut r| {
            // The free texts; ids, times, names and numbers are the log's own.
            for k in ["prompt", "topic", "text"] {
                if let Some(v) = r.get_mut(k) {
                    show::redact(v, guard);
                }
            }
            serde_json::json!({"type": "record", "record": r})
        })
        .collect();
    Answer { lines, notes }
}

/// `gem-ask log show ID`: the session as the events of a run. Read from
/// its file, not the index.
pub fn show(o: &LogOptions, id: &str) -> Result<Answer, LogError> {
    let path = o.dir.join(format!("{id}.jsonl"));
    let no_session = || LogError::NoSession(id.to_string(), o.dir.clone());
    if !crate::session::valid_id(id) {
        return Err(no_session());
    }
    let bytes = read_file(&path)
        .map_err(|e| LogError::Session(id.to_string(), e))?
        .ok_or_else(no_session)?;
    let (summary, _) = read::read(id, &bytes, &o.guard);
    Ok(Answer {
        lines: show::events(&bytes, &summary, &o.guard),
        notes: Vec::new(),
    })
}

fn read_file(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let Some(file) = crate::session::open_for_reading(path)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    (&file).read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

/// `--since`: a date (`2026-11-20`, midnight UTC), a moment (RFC 3339),
/// or a time back from `now` (seconds since the epoch): a number and
/// `s`, `m`, `h`, `d` or `w` (`7d`). The moment as the session files
/// write times, or why the text is none of these.
pub fn since(text: &str, now: i64) -> Result<String, String> {
    let t = text.trim();
    let secs = if let Ok(ts) = t.parse::<jiff::Timestamp>() {
        ts.as_second()
    } else if let Ok(d) = t.parse::<jiff::civil::Date>() {
        d.to_zoned(jiff::tz::TimeZone::UTC)
            .map_err(|e| e.to_string())?
            .timestamp()
            .as_second()
    } else {
        let unit = t.chars().last().unwrap_or(' ');
        let n: i64 = t[..t.len() - unit.len_utf8().min(t.len())]
            .parse()
            .map_err(|_| accepted(text))?;
        let per = match unit {
            's' => 1,
            'm' => 60,
            'h' => 3_600,
            'd' => 86_400,
            'w' => 7 * 86_400,
            _ => return Err(accepted(text)),
        };
        now.saturating_sub(n.saturating_mul(per))
    };
    Ok(crate::events::format_rfc3339(secs, 0))
}

fn accepted(text: &str) -> String {
    format!(
        "--since {text:?}: a date (2026-11-20), a moment (2026-11-20T09:30:00Z) or a time back \
         (30m, 12h, 7d, 2w)"
    )
}

#[cfg(test)]
mod tests;
