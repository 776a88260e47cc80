//! Vectors as stored: a `vectors` row each (the memory, the model, the
//! unit vector as `f32` little-endian), and the sign bits of every vector
//! of a model packed into `sign_blocks` rows of [`BLOCK`] slots, each
//! with the `vectors` row it belongs to (0 once emptied). A search reads a
//! model's few blocks whole, compares the sign bits of every vector with
//! the query's, and reads only the best ones' vectors for exact cosine.
//! A slot is written in place (incremental blob I/O), so a write touches
//! a page or two whatever the store's size.

use std::path::Path;

use rusqlite::{Connection, MAIN_DB, OptionalExtension, params};

use super::{MemoryError, vector};

/// Vectors a block holds.
pub const BLOCK: usize = 512;

fn sql_err(tx: &Connection) -> impl Fn(rusqlite::Error) -> MemoryError + '_ {
    move |e| MemoryError::from_sqlite(Path::new(tx.path().unwrap_or("")), e)
}

/// The id and dimension of a model's vectors, if any are stored.
pub(super) fn model_in(c: &Connection, name: &str) -> rusqlite::Result<Option<(i64, usize)>> {
    c.prepare_cached("SELECT id, dim FROM models WHERE name = ?1")?
        .query_row([name], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)))
        .optional()
}

/// Why a vector cannot be stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum BadVector {
    #[error("model {0}: a vector of finite numbers")]
    NotFinite(String),
    #[error("model {model} made a vector of {made} dimensions; its stored vectors have {stored}")]
    Dimension {
        model: String,
        made: usize,
        stored: usize,
    },
}

/// Why a vector of `model` cannot be stored (a wrong dimension, a value
/// that is not a finite number), or `Ok`.
pub(super) fn check_vector(tx: &Connection, model: &str, v: &[f32]) -> Result<(), BadVector> {
    if v.is_empty() || v.iter().any(|x| !x.is_finite()) {
        return Err(BadVector::NotFinite(model.to_string()));
    }
    match model_in(tx, model) {
        Ok(Some((_, d))) if d != v.len() => Err(BadVector::Dimension {
            model: model.to_string(),
            made: v.len(),
            stored: d,
        }),
        _ => Ok(()),
    }
}

/// The model's id, registered with this dimension if new; a dimension
/// other than its stored vectors' is refused.
fn model_id(tx: &Connection, model: &str, dim: usize) -> Result<i64, MemoryError> {
    let err = sql_err(tx);
    match model_in(tx, model).map_err(&err)? {
        Some((id, d)) if d == dim => Ok(id),
        Some((_, d)) => Err(MemoryError::Invalid(format!(
            "model {model} made a vector of {dim} dimensions; its stored vectors have {d}"
        ))),
        None => {
            tx.execute(
                "INSERT INTO models (name, dim) VALUES (?1, ?2)",
                params![model, dim as i64],
            )
            .map_err(&err)?;
            Ok(tx.last_insert_rowid())
        }
    }
}

/// Writes `bytes` at `offset` of a block's column.
fn write_at(
    tx: &Connection,
    column: &std::ffi::CStr,
    block: i64,
    offset: usize,
    bytes: &[u8],
) -> rusqlite::Result<()> {
    let mut b = tx.blob_open(MAIN_DB, c"sign_blocks", column, block, false)?;
    b.write_at(bytes, offset)?;
    b.close()
}

/// A free slot of the model's last block, or the first of a new one.
fn place(tx: &Connection, model_id: i64, sign_len: usize) -> rusqlite::Result<(i64, usize)> {
    let last: Option<(i64, i64)> = tx
        .prepare_cached("SELECT id, n FROM sign_blocks WHERE model = ?1 ORDER BY id DESC LIMIT 1")?
        .query_row([model_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    if let Some((block, n)) = last.filter(|(_, n)| (*n as usize) < BLOCK) {
        tx.prepare_cached("UPDATE sign_blocks SET n = n + 1 WHERE id = ?1")?
            .execute([block])?;
        return Ok((block, n as usize));
    }
    tx.prepare_cached(
        "INSERT INTO sign_blocks (model, n, ids, bits) VALUES (?1, 1, zeroblob(?2), zeroblob(?3))",
    )?
    .execute(params![
        model_id,
        (BLOCK * 8) as i64,
        (BLOCK * sign_len) as i64
    ])?;
    Ok((tx.last_insert_rowid(), 0))
}

/// Stores each memory's vector of `model` (replacing one it had), unit
/// length: one of exactly unit length is kept bit for bit, so an import
/// of an export stores what was exported.
pub(super) fn set_vectors_in(
    tx: &Connection,
    model: &str,
    items: &[(i64, Vec<f32>)],
) -> Result<(), MemoryError> {
    let err = sql_err(tx);
    let dim = items[0].1.len();
    let model_id = model_id(tx, model, dim)?;
    let sign_len = dim.div_ceil(64) * 8;
    for (memory, v) in items {
        if v.len() != dim || v.iter().any(|x| !x.is_finite()) {
            return Err(MemoryError::Invalid(format!(
                "model {model}: every vector needs {dim} finite numbers"
            )));
        }
        let norm: f64 = v.iter().map(|x| f64::from(*x) * f64::from(*x)).sum();
        let unit = if (norm - 1.0).abs() < 1e-6 {
            v.clone()
        } else {
            vector::normalized(v)
        };
        let blob = vector::to_blob(&unit);
        let old: Option<(i64, i64, i64)> = tx
            .prepare_cached("SELECT id, block, slot FROM vectors WHERE memory = ?1 AND model = ?2")
            .and_then(|mut s| {
                s.query_row([memory, &model_id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()
            })
            .map_err(&err)?;
        let (row, block, slot) = match old {
            Some((row, block, slot)) => {
                tx.prepare_cached("UPDATE vectors SET vec = ?2 WHERE id = ?1")
                    .and_then(|mut s| s.execute(params![row, blob]))
                    .map_err(&err)?;
                (row, block, slot as usize)
            }
            None => {
                let (block, slot) = place(tx, model_id, sign_len).map_err(&err)?;
                tx.prepare_cached(
                    "INSERT INTO vectors (memory, model, block, slot, vec) VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .and_then(|mut s| s.execute(params![memory, model_id, block, slot as i64, blob]))
                .map_err(&err)?;
                let row = tx.last_insert_rowid();
                write_at(tx, c"ids", block, slot * 8, &row.to_le_bytes()).map_err(&err)?;
                (row, block, slot)
            }
        };
        let _ = row;
        write_at(
            tx,
            c"bits",
            block,
            slot * sign_len,
            &vector::sign_bits(&unit),
        )
        .map_err(&err)?;
    }
    Ok(())
}

/// Empties the slots of a memory's vectors and deletes them (a memory
/// forgotten, or its content changed).
pub(super) fn drop_vectors_of(tx: &Connection, memory: i64) -> Result<(), MemoryError> {
    let err = sql_err(tx);
    let slots: Vec<(i64, i64)> = tx
        .prepare_cached("SELECT block, slot FROM vectors WHERE memory = ?1")
        .and_then(|mut s| {
            s.query_map([memory], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()
        })
        .map_err(&err)?;
    for (block, slot) in slots {
        write_at(tx, c"ids", block, slot as usize * 8, &0i64.to_le_bytes()).map_err(&err)?;
    }
    tx.prepare_cached("DELETE FROM vectors WHERE memory = ?1")
        .and_then(|mut s| s.execute([memory]))
        .map_err(&err)?;
    Ok(())
}
