//! Export and import: the whole store as JSON lines, one memory a line
//! (`"type":"memory_item"`) with its tags, times, session, confidence, the
//! relations it starts and its vectors with their models. Importing an
//! export into an empty store gives the same store (the same export);
//! into a store with memories, it adds and updates by key. A line that
//! cannot be used is reported with its number and skipped; the good ones
//! are imported, all in one transaction.

use std::io::{self, BufRead, Write};

use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};

use super::store::{self, NewMemory, Store};
use super::{Memory, MemoryError, rfc3339};

/// One exported memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    #[serde(rename = "type", default = "item_type")]
    pub kind: String,
    #[serde(default)]
    pub key: Option<String>,
    pub content: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relations: Vec<Link>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vectors: Vec<Vector>,
}

fn item_type() -> String {
    "memory_item".into()
}

/// A relation this memory starts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub to: String,
    #[serde(default = "related_to")]
    pub relation: String,
}

fn related_to() -> String {
    store::RELATED_TO.into()
}

/// A vector and the model that made it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Vector {
    pub model: String,
    #[serde(deserialize_with = "floats")]
    pub values: Vec<f32>,
}

/// A JSON array of numbers as `f32`s, each read straight to the nearest
/// `f32` (an export's shortest forms come back bit for bit), without
/// serde_json's exact `f64` reading: thousands of vectors are millions of
/// numbers.
fn floats<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<f32>, D::Error> {
    let raw: Box<serde_json::value::RawValue> = Deserialize::deserialize(d)?;
    parse_floats(raw.get().as_bytes())
        .ok_or_else(|| serde::de::Error::custom("values: a list of numbers"))
}

/// The numbers of a JSON array's text, in one pass.
fn parse_floats(b: &[u8]) -> Option<Vec<f32>> {
    let skip = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let mut i = skip(0);
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = skip(i + 1);
    let mut out = Vec::with_capacity(b.len() / 10);
    if b.get(i) == Some(&b']') {
        return Some(out);
    }
    loop {
        let (v, used) = fast_float2::parse_partial::<f32, _>(&b[i..]).ok()?;
        out.push(v);
        i = skip(i + used);
        match b.get(i) {
            Some(b',') => i = skip(i + 1),
            Some(b']') => return Some(out),
            _ => return None,
        }
    }
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imported {
    pub added: usize,
    pub updated: usize,
    pub relations: usize,
    pub vectors: usize,
    /// Lines not used: (line number, why).
    pub skipped: Vec<(usize, String)>,
}

/// Milliseconds of an RFC 3339 time.
pub fn parse_time(s: &str) -> Option<i64> {
    let t: jiff::Timestamp = s.trim().parse().ok()?;
    Some(t.as_millisecond())
}

impl Item {
    /// The item of a stored memory (relations and vectors added by the export).
    pub fn of(m: &Memory) -> Item {
        Item {
            kind: item_type(),
            key: Some(m.key.clone()),
            content: m.content.clone(),
            tags: m.tags.clone(),
            created: Some(rfc3339(m.created)),
            updated: Some(rfc3339(m.updated)),
            session: m.session.clone(),
            confidence: Some(m.confidence),
            relations: Vec::new(),
            vectors: Vec::new(),
        }
    }
}

impl Store {
    /// Writes every memory (oldest first) as one JSON line.
    pub fn export(&self, out: &mut dyn Write) -> Result<usize, MemoryError> {
        let io = |e: io::Error| MemoryError::Io {
            path: self.path().to_path_buf(),
            why: e.to_string(),
        };
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT {} FROM memories m ORDER BY m.id",
                store::COLUMNS
            ))
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], store::row_memory)
            .map_err(|e| self.err(e))?;
        let mut n = 0;
        for m in rows {
            let m = m.map_err(|e| self.err(e))?;
            let mut item = Item::of(&m);
            item.relations = self
                .edges_of(m.id)?
                .into_iter()
                .filter(|e| e.from == m.key)
                .map(|e| Link {
                    to: e.to,
                    relation: e.kind,
                })
                .collect();
            item.vectors = self.vectors_of(m.id)?;
            serde_json::to_writer(&mut *out, &item).map_err(|e| io(e.into()))?;
            out.write_all(b"\n").map_err(io)?;
            n += 1;
        }
        out.flush().map_err(io)?;
        Ok(n)
    }

    /// The vectors of a memory, by model name.
    pub fn vectors_of(&self, id: i64) -> Result<Vec<Vector>, MemoryError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT d.name, v.vec FROM vectors v JOIN models d ON d.id = v.model \
                 WHERE v.memory = ?1 ORDER BY d.name",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([id], |r| {
                let blob: Vec<u8> = r.get(1)?;
                Ok(Vector {
                    model: r.get(0)?,
                    values: super::vector::from_blob(&blob).unwrap_or_default(),
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Imports JSON lines as [`Store::export`] writes them (a line needs
    /// only `content`), read and written one at a time in one transaction:
    /// all the good lines or, should the store fail, none.
    pub fn import(&mut self, input: &mut dyn BufRead, now: i64) -> Result<Imported, MemoryError> {
        let path = self.path().to_path_buf();
        let mut report = Imported::default();
        self.write(|tx| {
            let mut links = Vec::new();
            let mut line = String::new();
            let mut n = 0;
            loop {
                line.clear();
                let read = input.read_line(&mut line).map_err(|e| MemoryError::Io {
                    path: "import input".into(),
                    why: e.to_string(),
                })?;
                if read == 0 {
                    break;
                }
                n += 1;
                if line.trim().is_empty() {
                    continue;
                }
                let item = match parse_line(&line) {
                    Ok(item) => item,
                    Err(why) => {
                        report.skipped.push((n, why.to_string()));
                        continue;
                    }
                };
                match import_one(tx, &item, now) {
                    Ok((created, key)) => {
                        if created {
                            report.added += 1;
                        } else {
                            report.updated += 1;
                        }
                        report.vectors += item.vectors.len();
                        links.extend(item.relations.into_iter().map(|l| (n, key.clone(), l)));
                    }
                    Err(MemoryError::Invalid(why)) => report.skipped.push((n, why)),
                    Err(e) => return Err(e),
                }
            }
            for (n, from, l) in links {
                match link(tx, &from, &l, now).map_err(|e| MemoryError::from_sqlite(&path, e))? {
                    true => report.relations += 1,
                    false => report.skipped.push((
                        n,
                        format!("relations: no memory {:?} to relate {from:?} to", l.to),
                    )),
                }
            }
            Ok(())
        })?;
        report.skipped.sort();
        Ok(report)
    }
}

/// A line as an item, or why it is not one (naming the field).
fn parse_line(line: &str) -> Result<Item, NotAnItem> {
    let item: Item = serde_json::from_str(line).map_err(NotAnItem::Json)?;
    if item.kind != "memory_item" {
        return Err(NotAnItem::Kind(item.kind));
    }
    for (field, t) in [("created", &item.created), ("updated", &item.updated)] {
        if let Some(t) = t
            && parse_time(t).is_none()
        {
            return Err(NotAnItem::Time {
                field,
                time: t.clone(),
            });
        }
    }
    Ok(item)
}

/// Why an imported line is skipped, naming the field.
#[derive(Debug, thiserror::Error)]
enum NotAnItem {
    #[error("not a memory: {0} (a JSON object with at least \"content\")")]
    Json(serde_json::Error),
    #[error("type {0:?}: only memory_item lines are imported")]
    Kind(String),
    #[error("{field} {time:?}: an RFC 3339 time, e.g. 2026-03-01T10:00:00Z")]
    Time { field: &'static str, time: String },
}

/// Writes one item; whether it was new, and its key. Nothing is written
/// for an item refused.
fn import_one(
    tx: &rusqlite::Connection,
    item: &Item,
    now: i64,
) -> Result<(bool, String), MemoryError> {
    let new = NewMemory {
        key: item.key.clone(),
        content: item.content.clone(),
        tags: item.tags.clone(),
        session: item.session.clone(),
        confidence: item.confidence,
        created: item.created.as_deref().and_then(parse_time),
        updated: item.updated.as_deref().and_then(parse_time),
    };
    let checked = store::check(&new)?;
    for v in &item.vectors {
        super::blocks::check_vector(tx, &v.model, &v.values)
            .map_err(|why| MemoryError::Invalid(format!("vectors: {why}")))?;
    }
    let (m, created) = store::remember_in(tx, &checked, now)?;
    for v in &item.vectors {
        super::blocks::set_vectors_in(tx, &v.model, &[(m.id, v.values.clone())])?;
    }
    Ok((created, m.key))
}

/// Adds one exported relation; false when its target is missing.
fn link(tx: &rusqlite::Connection, from: &str, l: &Link, now: i64) -> rusqlite::Result<bool> {
    let id = |k: &str| {
        tx.query_row("SELECT id FROM memories WHERE key = ?1", [k], |r| {
            r.get::<_, i64>(0)
        })
        .optional()
    };
    let (Some(a), Some(b)) = (id(from)?, id(&l.to)?) else {
        return Ok(false);
    };
    tx.execute(
        "INSERT OR IGNORE INTO relations (src, dst, kind, created) VALUES (?1, ?2, ?3, ?4)",
        rusqlite::params![a, b, store::normal_kind(&l.relation), now],
    )?;
    Ok(true)
}
