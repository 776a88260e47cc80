//! The store's schema and its migrations. `PRAGMA user_version` says how
//! many of [`MIGRATIONS`] a file has had; opening a file runs the ones it
//! lacks, in one transaction, so a file is always at one version or the
//! next. A file from a newer gemline (a version past the list) is used
//! read-only: nothing this build does not know is touched.
//!
//! - `memories`: one row a memory; its key is unique whatever its case.
//! - `tags`: the memory's tags, one row each, for filtering.
//! - `relations`: typed edges between two memories, stored once and read
//!   from both ends (deleted with either memory).
//! - `models` and `vectors`: the embedding models seen, and each memory's
//!   vector by the model that made it (unit length, `f32` little-endian);
//!   `sign_blocks` packs the sign bits of a model's vectors, many to a
//!   row, for the first pass of a search (`super::blocks`). Vectors of two
//!   models are never compared.
//! - `memories_fts`: FTS5 (contentless, rows deleted with their memory)
//!   over key, content and tags, for BM25 (Unicode words, diacritics
//!   folded, no stemming); `memories_vocab` its words with how many
//!   memories hold each.
//! - `meta`: small facts about the store (what was already said once).

use rusqlite::{Connection, TransactionBehavior};

/// Each migration, in order; the file's `user_version` counts those done.
pub const MIGRATIONS: &[&str] = &[r#"
CREATE TABLE memories (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE COLLATE NOCASE,
    content TEXT NOT NULL,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    session TEXT,
    confidence REAL NOT NULL DEFAULT 1.0
);
CREATE INDEX memories_updated ON memories(updated);
CREATE TABLE tags (
    tag TEXT NOT NULL,
    memory INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    PRIMARY KEY (tag, memory)
) WITHOUT ROWID;
CREATE INDEX tags_memory ON tags(memory);
CREATE TABLE relations (
    src INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    dst INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    created INTEGER NOT NULL,
    PRIMARY KEY (src, dst, kind)
) WITHOUT ROWID;
CREATE INDEX relations_dst ON relations(dst);
CREATE TABLE models (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    dim INTEGER NOT NULL
);
CREATE TABLE vectors (
    id INTEGER PRIMARY KEY,
    memory INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    model INTEGER NOT NULL REFERENCES models(id),
    block INTEGER NOT NULL,
    slot INTEGER NOT NULL,
    vec BLOB NOT NULL,
    UNIQUE (memory, model)
);
CREATE TABLE sign_blocks (
    id INTEGER PRIMARY KEY,
    model INTEGER NOT NULL REFERENCES models(id),
    n INTEGER NOT NULL,
    ids BLOB NOT NULL,
    bits BLOB NOT NULL
);
CREATE INDEX sign_blocks_model ON sign_blocks(model, id);
CREATE VIRTUAL TABLE memories_fts USING fts5(
    body, content='', contentless_delete=1,
    tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'row');
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
"#];

/// The version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// What opening found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    /// At this build's version (after any migrations).
    Current,
    /// Written by a newer gemline: read, never written.
    Newer(i64),
}

/// Brings the file to [`VERSION`], in one immediate transaction (so two
/// processes opening a new file at once migrate it once).
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<Schema> {
    let version = |c: &Connection| c.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0));
    let now = version(conn)?;
    if now > VERSION {
        return Ok(Schema::Newer(now));
    }
    if now == VERSION {
        return Ok(Schema::Current);
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Another process may have migrated while this one waited for the lock.
    let now = version(&tx)?;
    if now > VERSION {
        return Ok(Schema::Newer(now));
    }
    for (i, m) in MIGRATIONS.iter().enumerate().skip(now as usize) {
        tx.execute_batch(m)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    tx.commit()?;
    Ok(Schema::Current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_file_gets_every_migration_once() {
        let mut c = Connection::open_in_memory().unwrap();
        assert_eq!(migrate(&mut c).unwrap(), Schema::Current);
        assert_eq!(migrate(&mut c).unwrap(), Schema::Current);
        let v: i64 = c
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, VERSION);
        c.pragma_update(None, "user_version", VERSION + 1).unwrap();
        assert_eq!(migrate(&mut c).unwrap(), Schema::Newer(VERSION + 1));
    }
}
