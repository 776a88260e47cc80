//! Memory: what the user and the model learned, kept across sessions and
//! found again. One SQLite file (`$XDG_DATA_HOME/gemline/memory.sqlite3`,
//! mode 0600, WAL, so gem-ask processes share it safely) holds memories
//! (a key, content, tags, times, the session that wrote it, a confidence),
//! typed relations between them, and each memory's embedding vectors with
//! the model that made them ([`schema`], [`store`]).
//!
//! Finding memories ([`search`]) fuses two rankings by reciprocal rank:
//! BM25 over an FTS5 index of the text, and cosine similarity of vectors
//! of one embedding model (a sign-bit pass, then exact cosine on the
//! best; [`vector`]); recency breaks ties. Embeddings come from the
//! provider (`provider::embed`: Gemini's `batchEmbedContents` or an
//! OpenAI-compatible `/embeddings`, E5 prefixes for E5 models); without
//! an embedding model the search is by keywords only. [`context`] fits
//! the best memories into a turn's token budget; [`graph`] draws the
//! relations and finds paths; [`transfer`] exports and imports JSON
//! lines; [`command`] is what a person asks (`/memory`, `gem-ask
//! memory`); [`event`] makes the stream's `memory` events; [`handle`] is
//! what the agent holds: the store opened on first
//! use, every fault (a damaged or locked file, a full disk, a failed
//! embedding) turned into a warning while nothing stored is lost.

mod blocks;
pub mod command;
pub mod context;
pub mod event;
pub mod graph;
pub mod handle;
pub mod keywords;
pub mod schema;
pub mod search;
pub mod store;
#[cfg(test)]
mod store_tests;
pub mod transfer;
pub mod vector;

use std::path::PathBuf;

pub use handle::{Handle, MemoryOptions};
pub use search::{Hit, Query};
pub use store::{Filter, NewMemory, Store};

/// One memory as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    pub id: i64,
    /// Unique, whatever its case.
    pub key: String,
    pub content: String,
    /// Lower case, sorted.
    pub tags: Vec<String>,
    /// Milliseconds since the epoch.
    pub created: i64,
    pub updated: i64,
    /// The session that wrote it last.
    pub session: Option<String>,
    /// 0 to 1: how sure whoever wrote it was.
    pub confidence: f64,
}

/// A typed relation between two memories, as seen from one of them.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub kind: String,
}

/// The longest key, content and tag accepted, and the most tags.
pub const MAX_KEY: usize = 200;
pub const MAX_CONTENT: usize = 16 * 1024;
pub const MAX_TAG: usize = 64;
pub const MAX_TAGS: usize = 16;

/// Why the store could not do something.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    /// The file is not a database, or a damaged one. It is left as it is.
    #[error(
        "the memory store {} is damaged ({why}); it is left untouched: move it aside to start a new one",
        path.display()
    )]
    Damaged { path: PathBuf, why: String },
    /// Another process holds the store past the wait.
    #[error("the memory store {} is locked by another process ({why})", path.display())]
    Locked { path: PathBuf, why: String },
    /// The disk (or the file system's quota) is full; nothing was written.
    #[error("the memory store {} cannot grow: {why}; nothing was written", path.display())]
    Full { path: PathBuf, why: String },
    /// Written by a newer gemline: read only.
    #[error(
        "the memory store {} was written by a newer gemline (schema {found}, this one knows {known}); it is read only here",
        path.display()
    )]
    Newer {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    #[error("the memory store {}: {why}", path.display())]
    Io { path: PathBuf, why: String },
    /// No memory has this key.
    #[error("no memory with key {0:?}")]
    NotFound(String),
    /// A key, content, tag or relation that is not accepted; says what is.
    #[error("{0}")]
    Invalid(String),
}

impl MemoryError {
    /// The error a SQLite failure on `path` is.
    pub fn from_sqlite(path: &std::path::Path, e: rusqlite::Error) -> MemoryError {
        use rusqlite::ErrorCode as C;
        let path = path.to_path_buf();
        let why = e.to_string();
        match e.sqlite_error_code() {
            Some(C::DatabaseCorrupt | C::NotADatabase) => MemoryError::Damaged { path, why },
            Some(C::DatabaseBusy | C::DatabaseLocked) => MemoryError::Locked { path, why },
            Some(C::DiskFull) => MemoryError::Full { path, why },
            _ => MemoryError::Io { path, why },
        }
    }

    /// Whether the store itself is at fault (as opposed to what was asked
    /// of it): a turn then goes on without memory.
    pub fn is_fault(&self) -> bool {
        !matches!(self, MemoryError::NotFound(_) | MemoryError::Invalid(_))
    }
}

/// Milliseconds since the epoch, now.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// RFC 3339 (UTC, milliseconds) of a time in milliseconds.
pub fn rfc3339(ms: i64) -> String {
    crate::events::format_rfc3339(ms.div_euclid(1000), ms.rem_euclid(1000) as u32)
}

/// A rough token count (four bytes a token), as the history uses.
pub fn tokens(text: &str) -> u64 {
    (text.len() as u64).div_ceil(4)
}

/// A time a filter starts or ends at: an RFC 3339 time, a date
/// (`2026-03-01`, UTC midnight), or an age before `now` (`90m`, `12h`,
/// `7d`, `2w`). The error says what is accepted.
pub fn parse_when(s: &str, now: i64) -> Result<i64, BadWhen> {
    let t = s.trim();
    if let Some(ms) = transfer::parse_time(t) {
        return Ok(ms);
    }
    if let Ok(d) = t.parse::<jiff::civil::Date>()
        && let Ok(z) = d.to_zoned(jiff::tz::TimeZone::UTC)
    {
        return Ok(z.timestamp().as_millisecond());
    }
    let unit = t.chars().last().unwrap_or(' ');
    let step: i64 = match unit {
        'm' => 60_000,
        'h' => 3_600_000,
        'd' => 86_400_000,
        'w' => 7 * 86_400_000,
        _ => 0,
    };
    match t[..t.len().saturating_sub(1)].parse::<i64>() {
        Ok(n) if step > 0 && n >= 0 => Ok(now - n.saturating_mul(step)),
        _ => Err(BadWhen(s.to_string())),
    }
}

/// A `since`/`until` that is neither a time, a date nor an age: the text
/// as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: a time (2026-03-01T10:00:00Z), a date (2026-03-01) or an age (90m, 12h, 7d, 2w)")]
pub struct BadWhen(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_dates_and_ages() {
        let now = 1_772_323_200_000; // 2026-03-01T00:00:00Z
        assert_eq!(parse_when("2026-03-01", 0), Ok(now));
        assert_eq!(parse_when("2026-03-01T00:00:01.5Z", 0), Ok(now + 1500));
        assert_eq!(parse_when("7d", now), Ok(now - 7 * 86_400_000));
        assert_eq!(parse_when("90m", now), Ok(now - 90 * 60_000));
        assert!(
            parse_when("yesterday", now)
                .unwrap_err()
                .to_string()
                .contains("an age")
        );
        assert!(parse_when("-3d", now).is_err());
        assert_eq!(rfc3339(now + 1500), "2026-03-01T00:00:01.500Z");
    }
}
