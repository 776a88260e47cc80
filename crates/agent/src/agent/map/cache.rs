//! `gem-ask map --cache`: answers kept by request key in one SQLite file
//! (`$XDG_DATA_HOME/gemline/map-cache.sqlite3`, beside the memory store), so
//! a byte-identical request to the same model is answered again without
//! being sent. Only answers are kept, never failures.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

/// The open cache; shared by the workers.
pub struct Cache {
    db: Mutex<Connection>,
}

impl Cache {
    pub fn open(path: &Path) -> rusqlite::Result<Cache> {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let db = Connection::open(path)?;
        db.busy_timeout(std::time::Duration::from_secs(10))?;
        db.execute_batch(
            "PRAGMA journal_mode=WAL;
             CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, text TEXT NOT NULL);",
        )?;
        Ok(Cache { db: Mutex::new(db) })
    }

    /// The answer kept for `key`.
    pub fn get(&self, key: &str) -> Option<String> {
        let db = self.db.lock().ok()?;
        db.query_row(
            "SELECT text FROM answers WHERE key = ?1",
            params![key],
            |r| r.get(0),
        )
        .optional()
        .ok()
        .flatten()
    }

    /// Keeps `text` as the answer of `key` (a failure to write is not the
    /// run's: the answer is still written out).
    pub fn put(&self, key: &str, text: &str) {
        if let Ok(db) = self.db.lock() {
            let _ = db.execute(
                "INSERT OR REPLACE INTO answers (key, text) VALUES (?1, ?2)",
                params![key, text],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_found_by_its_key_across_opens() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.sqlite3");
        Cache::open(&p).unwrap().put("k1", "hello");
        let c = Cache::open(&p).unwrap();
        assert_eq!(c.get("k1").as_deref(), Some("hello"));
        assert_eq!(c.get("k2"), None);
    }
}
