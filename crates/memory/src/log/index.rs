//! The log's SQLite index, one file beside the session files
//! ([`INDEX_FILE`]): a row per session ([`super::Summary`]), a row per
//! searchable text with an FTS5 table over them, and each file's size and
//! modification time as indexed. Before every query the sessions directory
//! is compared with it: a file new, changed (its size or mtime differs)
//! or gone is read again or dropped, so the session files stay the truth
//! and the index is only ever behind by what this refresh catches up.
//!
//! Faults: an index SQLite cannot read (damaged, not a database, another
//! schema) is deleted and built again; one that cannot be written (locked
//! by another process past the wait, a read-only directory) is left alone
//! and the query runs on an index built in memory. Either way a note says
//! so and the answer is the same.

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, params};

use super::{Guard, LogError, read};

/// The index's name in the sessions directory.
pub const INDEX_FILE: &str = "log-index.sqlite3";

/// Bumped when the tables change: an index of another version is rebuilt.
const SCHEMA_VERSION: i64 = 1;

/// How long a refresh waits for another process's write.
const BUSY_WAIT: Duration = Duration::from_millis(750);

const SCHEMA: &str = "
CREATE TABLE sessions(
  id TEXT PRIMARY KEY, mtime INTEGER NOT NULL, size INTEGER NOT NULL,
  created TEXT NOT NULL, updated TEXT NOT NULL, model TEXT NOT NULL, models TEXT NOT NULL,
  turns INTEGER NOT NULL, tool_calls INTEGER NOT NULL, tokens INTEGER NOT NULL, cost REAL,
  status TEXT NOT NULL, prompt TEXT NOT NULL, topic TEXT, tools TEXT NOT NULL);
CREATE INDEX sessions_updated ON sessions(updated);
CREATE TABLE items(
  id INTEGER PRIMARY KEY, session TEXT NOT NULL, kind TEXT NOT NULL,
  tool TEXT, status TEXT, time TEXT NOT NULL);
CREATE INDEX items_session ON items(session);
CREATE INDEX items_tool ON items(tool, time);
CREATE VIRTUAL TABLE items_fts USING fts5(text);
";

/// An index brought up to date with its directory.
pub struct Index {
    pub conn: Connection,
    /// What went wrong on the way, for warnings.
    pub notes: Vec<String>,
}

/// Opens (or builds) the index of `dir` and refreshes it.
pub fn open(dir: &Path, guard: &Guard) -> Result<Index, LogError> {
    let files = scan(dir)?;
    let path = dir.join(INDEX_FILE);
    let mut notes = Vec::new();
    if !dir.is_dir() {
        // No session yet: nothing to index, and no directory to make.
        let conn = Connection::open_in_memory()?;
        conn.execute_batch(SCHEMA)?;
        return Ok(Index { conn, notes });
    }
    match on_disk(&path, &files, dir, guard) {
        Ok(conn) => return Ok(Index { conn, notes }),
        Err(e) if damaged(&e) => {
            notes.push(format!(
                "the log index {} cannot be read ({e}); it is built again from the session files",
                path.display()
            ));
            remove(&path);
            match on_disk(&path, &files, dir, guard) {
                Ok(conn) => return Ok(Index { conn, notes }),
                Err(e) => notes.push(skipped(&path, &e)),
            }
        }
        Err(e) => notes.push(skipped(&path, &e)),
    }
    let mut conn = Connection::open_in_memory()?;
    conn.execute_batch(SCHEMA)?;
    refresh(&mut conn, &files, dir, guard)?;
    Ok(Index { conn, notes })
}

fn skipped(path: &Path, e: &rusqlite::Error) -> String {
    format!(
        "the log index {} cannot be used ({e}); the session files were read without it",
        path.display()
    )
}

/// Whether an error says the file is not a usable index (as opposed to
/// busy, locked or not writable, which a later run may not meet).
fn damaged(e: &rusqlite::Error) -> bool {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => true,
        Some(_) => false,
        None => matches!(
            e,
            rusqlite::Error::InvalidQuery | rusqlite::Error::QueryReturnedNoRows
        ),
    }
}

fn remove(path: &Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}

fn on_disk(
    path: &Path,
    files: &HashMap<String, (i64, i64)>,
    dir: &Path,
    guard: &Guard,
) -> Result<Connection, rusqlite::Error> {
    let fresh = !path.exists();
    let mut conn = Connection::open(path)?;
    conn.busy_timeout(BUSY_WAIT)?;
    if fresh {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    }
    conn.pragma_update(None, "journal_mode", "WAL")?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version != SCHEMA_VERSION {
        let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
        if tables != 0 {
            // Another version's tables: not ours to migrate, built again.
            return Err(rusqlite::Error::InvalidQuery);
        }
        let tx = conn.transaction()?;
        tx.execute_batch(SCHEMA)?;
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.commit()?;
    }
    refresh(&mut conn, files, dir, guard)?;
    Ok(conn)
}

/// The session files of `dir`: id to (mtime in nanoseconds, size).
fn scan(dir: &Path) -> Result<HashMap<String, (i64, i64)>, LogError> {
    let mut files = HashMap::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(files),
        Err(e) => return Err(LogError::Dir(dir.to_path_buf(), e)),
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".jsonl")) else {
            continue;
        };
        if !crate::session::valid_id(id) {
            continue;
        }
        let Ok(m) = e.metadata() else { continue };
        if m.is_file() {
            let mtime = m.mtime().saturating_mul(1_000_000_000) + m.mtime_nsec();
            files.insert(id.to_string(), (mtime, m.len() as i64));
        }
    }
    Ok(files)
}

/// Brings the tables up to date with `files`, in one transaction.
fn refresh(
    conn: &mut Connection,
    files: &HashMap<String, (i64, i64)>,
    dir: &Path,
    guard: &Guard,
) -> Result<(), rusqlite::Error> {
    let mut indexed: HashMap<String, (i64, i64)> = HashMap::new();
    {
        let mut st = conn.prepare("SELECT id, mtime, size FROM sessions")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))?;
        for row in rows {
            let (id, stamp): (String, (i64, i64)) = row?;
            indexed.insert(id, stamp);
        }
    }
    let gone: Vec<&String> = indexed
        .keys()
        .filter(|id| !files.contains_key(*id))
        .collect();
    let stale: Vec<(&String, &(i64, i64))> = files
        .iter()
        .filter(|(id, stamp)| indexed.get(*id) != Some(stamp))
        .collect();
    if gone.is_empty() && stale.is_empty() {
        return Ok(());
    }
    let read_again = stale.len();
    let tx = conn.transaction()?;
    for id in gone.iter().copied().chain(stale.iter().map(|(id, _)| *id)) {
        drop_session(&tx, id)?;
    }
    for (id, stamp) in stale {
        // A file that went away or cannot be read since the scan is left
        // out this time; the next refresh sees it again.
        let Some(bytes) = read_session(&dir.join(format!("{id}.jsonl"))) else {
            continue;
        };
        let (summary, items) = read::read(id, &bytes, guard);
        insert(&tx, &summary, &items, *stamp)?;
    }
    tx.commit()?;
    if read_again >= OPTIMIZE_AFTER {
        // Many sessions read at once leave the FTS5 index in many
        // segments, each sought on every query: merged into one, a search
        // among 10,000 sessions takes a third of the time.
        conn.execute("INSERT INTO items_fts(items_fts) VALUES ('optimize')", [])?;
    }
    Ok(())
}

/// How many sessions read in one refresh make it merge the FTS5 index
/// (a few read now and then are left to FTS5's own merging).
const OPTIMIZE_AFTER: usize = 256;

/// A session file's bytes, under the session module's checks (a regular
/// file within the size cap, read under its shared lock).
fn read_session(path: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let file = crate::session::open_for_reading(path).ok()??;
    let mut bytes = Vec::new();
    (&file)
        .take(crate::session::MAX_SESSION_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

fn drop_session(tx: &rusqlite::Transaction, id: &str) -> Result<(), rusqlite::Error> {
    tx.execute(
        "DELETE FROM items_fts WHERE rowid IN (SELECT id FROM items WHERE session = ?1)",
        [id],
    )?;
    tx.execute("DELETE FROM items WHERE session = ?1", [id])?;
    tx.execute("DELETE FROM sessions WHERE id = ?1", [id])?;
    Ok(())
}

fn insert(
    tx: &rusqlite::Transaction,
    s: &read::Summary,
    items: &[read::Item],
    (mtime, size): (i64, i64),
) -> Result<(), rusqlite::Error> {
    tx.prepare_cached(
        "INSERT INTO sessions(id, mtime, size, created, updated, model, models, turns, tool_calls,
           tokens, cost, status, prompt, topic, tools)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    )?
    .execute(params![
        s.id,
        mtime,
        size,
        s.created,
        s.updated,
        s.model,
        s.models,
        s.turns as i64,
        s.tool_calls as i64,
        s.tokens as i64,
        s.cost_usd,
        s.status,
        s.prompt,
        s.topic,
        s.tools
    ])?;
    let mut item = tx.prepare_cached(
        "INSERT INTO items(session, kind, tool, status, time) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    let mut text = tx.prepare_cached("INSERT INTO items_fts(rowid, text) VALUES (?1, ?2)")?;
    for i in items {
        item.execute(params![s.id, i.kind, i.tool, i.status, i.time])?;
        text.execute(params![tx.last_insert_rowid(), i.text])?;
    }
    Ok(())
}
