//! The store: one SQLite file opened with WAL (readers never wait for a
//! writer; writers wait their turn up to the open's wait), foreign keys on,
//! and every write in one immediate transaction, so 32 processes
//! remembering at once each get their write in and none is torn. Opening
//! a file runs its migrations ([`super::schema`]); a file that is not a
//! database is reported and never written to.

use std::fs;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::types::Value as Sql;
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

use super::schema::{self, Schema};

use super::{Edge, MAX_CONTENT, MAX_KEY, MAX_TAG, MAX_TAGS, Memory, MemoryError};

/// `$XDG_DATA_HOME/gemline/memory.sqlite3` (or the platform's equivalent).
pub fn default_path() -> Result<PathBuf, MemoryError> {
    use etcetera::BaseStrategy;
    let base = etcetera::choose_base_strategy().map_err(|e| MemoryError::Io {
        path: PathBuf::from("$XDG_DATA_HOME"),
        why: format!("cannot find the data directory: {e}"),
    })?;
    Ok(base.data_dir().join("gemline").join("memory.sqlite3"))
}

/// What to remember: a key (made from the content when there is none),
/// the content, tags, and who wrote it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewMemory {
    pub key: Option<String>,
    pub content: String,
    /// Replace the tags (an update keeps them when this is empty).
    pub tags: Vec<String>,
    pub session: Option<String>,
    /// Keeps the stored one on an update when `None`; new memories get 1.
    pub confidence: Option<f64>,
    /// Times to keep (an import); `None`: now.
    pub created: Option<i64>,
    pub updated: Option<i64>,
}

/// Which memories: all given tags, and updated in `[since, until)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub tags: Vec<String>,
    pub since: Option<i64>,
    pub until: Option<i64>,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.since.is_none() && self.until.is_none()
    }

    /// ` AND ...` conditions on `m`, their values pushed on `params`.
    pub(super) fn sql(&self, params: &mut Vec<Sql>) -> String {
        let mut s = String::new();
        if let Some(t) = self.since {
            s.push_str(" AND m.updated >= ?");
            params.push(Sql::Integer(t));
        }
        if let Some(t) = self.until {
            s.push_str(" AND m.updated < ?");
            params.push(Sql::Integer(t));
        }
        for tag in &self.tags {
            s.push_str(" AND EXISTS (SELECT 1 FROM tags t WHERE t.memory = m.id AND t.tag = ?)");
            params.push(Sql::Text(normal_tag(tag)));
        }
        s
    }
}

/// The columns of a memory, in [`row_memory`]'s order.
pub(super) const COLUMNS: &str = "m.id, m.key, m.content, m.created, m.updated, m.session, m.confidence, \
     (SELECT group_concat(tag, ' ') FROM (SELECT tag FROM tags WHERE memory = m.id ORDER BY tag))";

pub(super) fn row_memory(r: &rusqlite::Row<'_>) -> rusqlite::Result<Memory> {
    let tags: Option<String> = r.get(7)?;
    Ok(Memory {
        id: r.get(0)?,
        key: r.get(1)?,
        content: r.get(2)?,
        created: r.get(3)?,
        updated: r.get(4)?,
        session: r.get(5)?,
        confidence: r.get(6)?,
        tags: tags
            .map(|t| t.split(' ').map(str::to_string).collect())
            .unwrap_or_default(),
    })
}

/// A tag as stored: trimmed, without a leading `#`, lower case.
pub fn normal_tag(t: &str) -> String {
    t.trim().trim_start_matches('#').to_lowercase()
}

/// A relation's kind as stored: lower case, spaces as `_`.
pub fn normal_kind(k: &str) -> String {
    k.split_whitespace()
        .collect::<Vec<_>>()
        .join("_")
        .to_lowercase()
}

/// The kind of a relation given without one.
pub const RELATED_TO: &str = "related_to";

pub struct Store {
    pub(super) conn: Connection,
    path: PathBuf,
    /// The schema version of a newer gemline: read only.
    newer: Option<i64>,
}

impl Store {
    /// Opens (creating it, mode 0600, in a directory of mode 0700) the
    /// store at `path`, waiting up to `wait` for other processes' locks.
    pub fn open(path: &Path, wait: Duration) -> Result<Store, MemoryError> {
        let io = |e: std::io::Error| MemoryError::Io {
            path: path.to_path_buf(),
            why: e.to_string(),
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(io)?;
        }
        let meta = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .and_then(|f| f.metadata())
            .map_err(io)?;
        if !meta.is_file() {
            return Err(MemoryError::Io {
                path: path.to_path_buf(),
                why: "not a regular file".into(),
            });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| MemoryError::from_sqlite(path, e))?;
        Store::setup(conn, path, wait)
    }

    /// A store in memory (tests, benchmarks).
    pub fn in_memory() -> Result<Store, MemoryError> {
        let path = Path::new(":memory:");
        let conn = Connection::open_in_memory().map_err(|e| MemoryError::from_sqlite(path, e))?;
        Store::setup(conn, path, Duration::ZERO)
    }

    fn setup(mut conn: Connection, path: &Path, wait: Duration) -> Result<Store, MemoryError> {
        let err = |e| MemoryError::from_sqlite(path, e);
        conn.busy_timeout(wait).map_err(err)?;
        // Reads the header first: a file that is not a database fails
        // here, before anything is written to it.
        conn.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))
            .map_err(err)?;
        conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0))
            .map_err(err)?;
        conn.execute_batch(
            "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL; \
             PRAGMA cache_size = -16000; PRAGMA mmap_size = 268435456;",
        )
        .map_err(err)?;
        let newer = match schema::migrate(&mut conn).map_err(err)? {
            Schema::Current => None,
            Schema::Newer(v) => {
                conn.pragma_update(None, "query_only", true).map_err(err)?;
                Some(v)
            }
        };
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            newer,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(super) fn err(&self, e: rusqlite::Error) -> MemoryError {
        MemoryError::from_sqlite(&self.path, e)
    }

    /// Refuses to write a newer gemline's file.
    fn writable(&self) -> Result<(), MemoryError> {
        match self.newer {
            Some(found) => Err(MemoryError::Newer {
                path: self.path.clone(),
                found,
                known: schema::VERSION,
            }),
            None => Ok(()),
        }
    }

    /// Runs `f` in one immediate transaction: all of it is written or none.
    pub fn write<T>(
        &mut self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, MemoryError>,
    ) -> Result<T, MemoryError> {
        self.writable()?;
        let path = self.path.clone();
        let err = |e| MemoryError::from_sqlite(&path, e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(err)?;
        let v = f(&tx)?;
        tx.commit().map_err(err)?;
        Ok(v)
    }

    pub fn count(&self) -> Result<u64, MemoryError> {
        self.conn
            .query_row("SELECT count(*) FROM memories", [], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .map_err(|e| self.err(e))
    }

    /// The memory of this key (any case).
    pub fn get(&self, key: &str) -> Result<Option<Memory>, MemoryError> {
        get_in(&self.conn, key.trim()).map_err(|e| self.err(e))
    }

    /// These memories, in this order (ids not found are left out).
    pub fn by_ids(&self, ids: &[i64]) -> Result<Vec<Memory>, MemoryError> {
        let mut stmt = self
            .conn
            .prepare_cached(&format!("SELECT {COLUMNS} FROM memories m WHERE m.id = ?1"))
            .map_err(|e| self.err(e))?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(m) = stmt
                .query_row([id], row_memory)
                .optional()
                .map_err(|e| self.err(e))?
            {
                out.push(m);
            }
        }
        Ok(out)
    }

    /// The memories the filter lets through, most recently updated first.
    pub fn list(&self, filter: &Filter, limit: usize) -> Result<Vec<Memory>, MemoryError> {
        let mut params = Vec::new();
        let cond = filter.sql(&mut params);
        params.push(Sql::Integer(limit.min(i64::MAX as usize) as i64));
        let sql = format!(
            "SELECT {COLUMNS} FROM memories m WHERE 1{cond} ORDER BY m.updated DESC, m.id DESC LIMIT ?"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(params), row_memory)
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Adds a memory, or updates the one with its key; the memory as
    /// stored and whether it is new. An update that changes the content
    /// drops its vectors (they described the old text).
    pub fn remember(&mut self, new: &NewMemory, now: i64) -> Result<(Memory, bool), MemoryError> {
        let checked = check(new)?;
        self.write(|tx| remember_in(tx, &checked, now))
    }

    /// Deletes the memory of this key with its relations and vectors.
    pub fn forget(&mut self, key: &str) -> Result<Memory, MemoryError> {
        let path = self.path.clone();
        self.write(|tx| {
            let err = |e| MemoryError::from_sqlite(&path, e);
            let m = get_in(tx, key.trim())
                .map_err(err)?
                .ok_or_else(|| MemoryError::NotFound(key.trim().to_string()))?;
            super::blocks::drop_vectors_of(tx, m.id)?;
            tx.execute("DELETE FROM memories_fts WHERE rowid = ?1", [m.id])
                .map_err(err)?;
            tx.execute("DELETE FROM memories WHERE id = ?1", [m.id])
                .map_err(err)?;
            Ok(m)
        })
    }

    /// Relates two memories (`kind` defaults to `related_to`); relating
    /// them again the same way changes nothing.
    pub fn relate(
        &mut self,
        from: &str,
        to: &str,
        kind: &str,
        now: i64,
    ) -> Result<Edge, MemoryError> {
        let kind = check_kind(kind)?;
        let path = self.path.clone();
        self.write(|tx| {
            let err = |e| MemoryError::from_sqlite(&path, e);
            let find = |k: &str| {
                get_in(tx, k.trim())
                    .map_err(err)?
                    .ok_or_else(|| MemoryError::NotFound(k.trim().to_string()))
            };
            let (a, b) = (find(from)?, find(to)?);
            if a.id == b.id {
                return Err(MemoryError::Invalid(format!(
                    "a memory cannot be related to itself ({:?})",
                    a.key
                )));
            }
            tx.execute(
                "INSERT OR IGNORE INTO relations (src, dst, kind, created) VALUES (?1, ?2, ?3, ?4)",
                params![a.id, b.id, kind, now],
            )
            .map_err(err)?;
            Ok(Edge {
                from: a.key,
                to: b.key,
                kind,
            })
        })
    }

    /// Removes relations between two memories (of one kind, or all);
    /// how many went.
    pub fn unrelate(
        &mut self,
        from: &str,
        to: &str,
        kind: Option<&str>,
    ) -> Result<usize, MemoryError> {
        let kind = kind.map(normal_kind);
        let path = self.path.clone();
        self.write(|tx| {
            let err = |e| MemoryError::from_sqlite(&path, e);
            let id = |k: &str| {
                get_in(tx, k.trim())
                    .map_err(err)?
                    .map(|m| m.id)
                    .ok_or_else(|| MemoryError::NotFound(k.trim().to_string()))
            };
            let (a, b) = (id(from)?, id(to)?);
            tx.execute(
                "DELETE FROM relations WHERE ((src = ?1 AND dst = ?2) OR (src = ?2 AND dst = ?1)) \
                 AND (?3 IS NULL OR kind = ?3)",
                params![a, b, kind],
            )
            .map_err(err)
        })
    }

    /// The relations of one memory, both ways, as stored (`from` → `to`).
    pub fn edges_of(&self, id: i64) -> Result<Vec<Edge>, MemoryError> {
        self.edges("WHERE r.src = ?1 OR r.dst = ?1", &[Sql::Integer(id)])
    }

    /// Every relation.
    pub fn all_edges(&self) -> Result<Vec<Edge>, MemoryError> {
        self.edges("", &[])
    }

    fn edges(&self, cond: &str, params: &[Sql]) -> Result<Vec<Edge>, MemoryError> {
        let sql = format!(
            "SELECT a.key, b.key, r.kind FROM relations r JOIN memories a ON a.id = r.src \
             JOIN memories b ON b.id = r.dst {cond} ORDER BY a.key, b.key, r.kind"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(params), |r| {
                Ok(Edge {
                    from: r.get(0)?,
                    to: r.get(1)?,
                    kind: r.get(2)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// The id and dimension of an embedding model's vectors, if any are stored.
    pub fn model(&self, name: &str) -> Result<Option<(i64, usize)>, MemoryError> {
        super::blocks::model_in(&self.conn, name).map_err(|e| self.err(e))
    }

    /// Stores each memory's vector of `model` (replacing one it had), in
    /// one transaction. A vector whose dimension is not the model's is
    /// refused: vectors of one model are compared with each other only.
    pub fn set_vectors(
        &mut self,
        model: &str,
        items: &[(i64, Vec<f32>)],
    ) -> Result<(), MemoryError> {
        if items.is_empty() {
            return Ok(());
        }
        self.write(|tx| super::blocks::set_vectors_in(tx, model, items))
    }

    /// Memories without a vector of `model`, oldest first.
    pub fn without_vector(&self, model: &str, limit: usize) -> Result<Vec<Memory>, MemoryError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM memories m WHERE NOT EXISTS (SELECT 1 FROM vectors v \
             JOIN models d ON d.id = v.model WHERE v.memory = m.id AND d.name = ?1) \
             ORDER BY m.id LIMIT ?2"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params![model, limit as i64], row_memory)
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    pub fn meta(&self, key: &str) -> Result<Option<String>, MemoryError> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(e))
    }

    pub fn set_meta(&mut self, key: &str, value: Option<&str>) -> Result<(), MemoryError> {
        let path = self.path.clone();
        self.write(|tx| {
            match value {
                Some(v) => tx.execute(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2) \
                     ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    params![key, v],
                ),
                None => tx.execute("DELETE FROM meta WHERE key = ?1", [key]),
            }
            .map_err(|e| MemoryError::from_sqlite(&path, e))
            .map(drop)
        })
    }
}

fn has_control(s: &str) -> bool {
    s.chars().any(|c| c.is_control() && c != '\n' && c != '\t')
}

/// What is to be remembered, checked and normalized (key and content
/// trimmed, tags as stored); the error says what is accepted.
pub(super) fn check(new: &NewMemory) -> Result<NewMemory, MemoryError> {
    let bad = |m: String| Err(MemoryError::Invalid(m));
    let key = new.key.as_deref().map(str::trim).filter(|k| !k.is_empty());
    if let Some(k) = key
        && (k.chars().count() > MAX_KEY || k.chars().any(char::is_control))
    {
        return bad(format!(
            "key {k:?}: at most {MAX_KEY} characters, no control characters"
        ));
    }
    let content = new.content.trim();
    if content.is_empty() {
        return bad("content is empty: say what to remember".into());
    }
    if content.len() > MAX_CONTENT || has_control(content) {
        return bad(format!(
            "content: at most {} KiB of text, no control characters but newlines and tabs",
            MAX_CONTENT / 1024
        ));
    }
    let mut tags: Vec<String> = new.tags.iter().map(|t| normal_tag(t)).collect();
    tags.retain(|t| !t.is_empty());
    tags.sort();
    tags.dedup();
    if let Some(t) = tags.iter().find(|t| {
        t.chars().count() > MAX_TAG
            || t.chars()
                .any(|c| c.is_whitespace() || c == ',' || c.is_control())
    }) {
        return bad(format!(
            "tag {t:?}: a word of at most {MAX_TAG} characters, no spaces or commas (e.g. infra, deploy-2026)"
        ));
    }
    if tags.len() > MAX_TAGS {
        return bad(format!("at most {MAX_TAGS} tags, {} given", tags.len()));
    }
    if let Some(c) = new.confidence
        && !(0.0..=1.0).contains(&c)
    {
        return bad(format!("confidence {c}: a number from 0 to 1"));
    }
    Ok(NewMemory {
        key: key.map(str::to_string),
        content: content.to_string(),
        tags,
        session: new.session.clone(),
        confidence: new.confidence,
        created: new.created,
        updated: new.updated,
    })
}

fn check_kind(kind: &str) -> Result<String, MemoryError> {
    let k = normal_kind(kind);
    let k = if k.is_empty() {
        RELATED_TO.to_string()
    } else {
        k
    };
    if k.len() > 32
        || !k
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(MemoryError::Invalid(format!(
            "relation {kind:?}: a word of letters, digits, _ or - (at most 32), e.g. depends_on, part_of, contradicts"
        )));
    }
    Ok(k)
}

pub(super) fn get_in(c: &Connection, key: &str) -> rusqlite::Result<Option<Memory>> {
    c.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM memories m WHERE m.key = ?1"
    ))?
    .query_row([key], row_memory)
    .optional()
}

/// A key made of the content's first words, not yet taken.
fn free_key(c: &Connection, content: &str) -> rusqlite::Result<String> {
    let words: Vec<String> = content
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(6)
        .map(str::to_lowercase)
        .collect();
    let mut base = words.join("-");
    if base.is_empty() {
        base = "memory".into();
    }
    while base.len() > 48 {
        match base.rfind('-') {
            Some(i) => base.truncate(i),
            None => {
                base.truncate(base.floor_char_boundary(48));
            }
        }
    }
    for n in 1.. {
        let key = if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        if get_in(c, &key)?.is_none() {
            return Ok(key);
        }
    }
    unreachable!("some suffix is free")
}

/// The text the keyword index holds for a memory.
fn fts_body(key: &str, content: &str, tags: &[String]) -> String {
    format!("{key}\n{content}\n{}", tags.join(" "))
}

pub(super) fn remember_in(
    tx: &Connection,
    new: &NewMemory,
    now: i64,
) -> Result<(Memory, bool), MemoryError> {
    let err = |e| MemoryError::from_sqlite(Path::new(tx.path().unwrap_or("")), e);
    let key = match &new.key {
        Some(k) => k.clone(),
        None => free_key(tx, &new.content).map_err(err)?,
    };
    let old = get_in(tx, &key).map_err(err)?;
    let updated = new.updated.unwrap_or(now);
    let (id, created) = match &old {
        Some(o) => {
            tx.execute(
                "UPDATE memories SET key = ?2, content = ?3, updated = ?4, session = coalesce(?5, session), \
                 confidence = coalesce(?6, confidence) WHERE id = ?1",
                params![o.id, key, new.content, updated, new.session, new.confidence],
            )
            .map_err(err)?;
            if o.content != new.content {
                super::blocks::drop_vectors_of(tx, o.id)?;
            }
            tx.execute("DELETE FROM memories_fts WHERE rowid = ?1", [o.id])
                .map_err(err)?;
            (o.id, false)
        }
        None => {
            tx.execute(
                "INSERT INTO memories (key, content, created, updated, session, confidence) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    key,
                    new.content,
                    new.created.unwrap_or(updated),
                    updated,
                    new.session,
                    new.confidence.unwrap_or(1.0)
                ],
            )
            .map_err(err)?;
            (tx.last_insert_rowid(), true)
        }
    };
    if created || !new.tags.is_empty() {
        tx.execute("DELETE FROM tags WHERE memory = ?1", [id])
            .map_err(err)?;
        let mut ins = tx
            .prepare_cached("INSERT INTO tags (tag, memory) VALUES (?1, ?2)")
            .map_err(err)?;
        for t in &new.tags {
            ins.execute(params![t, id]).map_err(err)?;
        }
    }
    let m = get_in(tx, &key).map_err(err)?.expect("just written");
    tx.execute(
        "INSERT INTO memories_fts (rowid, body) VALUES (?1, ?2)",
        params![id, fts_body(&m.key, &m.content, &m.tags)],
    )
    .map_err(err)?;
    Ok((m, created))
}
