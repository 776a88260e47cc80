//! Finding memories: two rankings fused by reciprocal rank.
//!
//! - **Keywords**: BM25 (FTS5's `bm25()`, k1 1.2, b 0.75) of the query's
//!   words, any of them (`"w1" OR "w2" ...`), over each memory's key,
//!   content and tags (Porter-stemmed, diacritics folded).
//! - **Meaning**: cosine similarity of the query's vector to the memories'
//!   vectors of the same embedding model (never another's). A first pass
//!   ranks every vector by the Hamming distance of its sign bits to the
//!   query's; the best [`CANDIDATES`] are then ranked by exact cosine. A
//!   store that has no more vectors than that is ranked exactly.
//! - **Fusion**: each memory scores `sum 1 / (RRF_K + rank)` over the
//!   rankings it is in (ranks from 1, each ranking cut at [`depth`]);
//!   ties go to the more recently updated memory, then the newer one.
//!
//! A query without words or vector lists memories by recency.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, HashSet};

use rusqlite::types::Value as Sql;

use super::store::{Filter, Store};
use super::{Memory, MemoryError, vector};

/// The reciprocal rank fusion constant (Cormack et al.'s 60).
pub const RRF_K: f64 = 60.0;

/// How many vectors the sign-bit pass hands to exact cosine.
pub const CANDIDATES: usize = 1000;

/// What to look for.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub text: String,
    /// The query's vector and the model that made it.
    pub vector: Option<(String, Vec<f32>)>,
    pub filter: Filter,
    pub limit: usize,
}

/// One memory found, with where each ranking put it.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub memory: Memory,
    /// The fused score (or 0 for a listing by recency).
    pub score: f64,
    /// Rank (from 1) and score in the keyword ranking (BM25, larger is better).
    pub keyword: Option<(usize, f64)>,
    /// Rank (from 1) and cosine in the vector ranking.
    pub vector: Option<(usize, f64)>,
}

/// How deep each ranking goes before fusion.
pub fn depth(limit: usize) -> usize {
    (limit * 5).max(50)
}

/// The words of a query as an FTS5 expression (each quoted, any of
/// them); `None` without words.
pub fn fts_query(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| format!("\"{}\"", w.to_lowercase()))
        .collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}

impl Store {
    /// The memories that best answer `q`, at most `q.limit`.
    pub fn search(&self, q: &Query) -> Result<Vec<Hit>, MemoryError> {
        let deep = depth(q.limit);
        let keyword = match fts_query(&q.text) {
            Some(expr) => self.bm25(&expr, &q.filter, deep)?,
            None => Vec::new(),
        };
        let by_vector = match &q.vector {
            Some((model, v)) => self.nearest(model, v, &q.filter, deep)?,
            None => Vec::new(),
        };
        if keyword.is_empty()
            && by_vector.is_empty()
            && fts_query(&q.text).is_none()
            && q.vector.is_none()
        {
            let listed = self.list(&q.filter, q.limit)?;
            return Ok(listed
                .into_iter()
                .map(|memory| Hit {
                    memory,
                    score: 0.0,
                    keyword: None,
                    vector: None,
                })
                .collect());
        }
        self.fuse(&keyword, &by_vector, q.limit)
    }

    /// Memory ids by BM25 (best first) with their scores (larger is better).
    pub fn bm25(
        &self,
        expr: &str,
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<(i64, f64)>, MemoryError> {
        let mut params = vec![Sql::Text(expr.to_string())];
        let cond = filter.sql(&mut params);
        params.push(Sql::Integer(limit as i64));
        let sql = format!(
            "SELECT m.id, bm25(memories_fts) AS s FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid \
             WHERE memories_fts MATCH ?{cond} ORDER BY s, m.updated DESC, m.id DESC LIMIT ?"
        );
        let mut stmt = self.conn.prepare_cached(&sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(params), |r| {
                Ok((r.get::<_, i64>(0)?, -r.get::<_, f64>(1)?))
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Memory ids by cosine similarity to `q` among the vectors of
    /// `model` (best first), with their cosines.
    pub fn nearest(
        &self,
        model: &str,
        q: &[f32],
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<(i64, f64)>, MemoryError> {
        let Some((model_id, dim)) = self.model(model)? else {
            return Ok(Vec::new());
        };
        if dim != q.len() {
            return Err(MemoryError::Invalid(format!(
                "the query's vector has {} dimensions; {model}'s stored vectors have {dim}",
                q.len()
            )));
        }
        let unit = vector::normalized(q);
        let allowed = if filter.is_empty() {
            None
        } else {
            Some(self.filtered_ids(filter)?)
        };
        let candidates = self.sign_pass(model_id, &unit, allowed.as_ref())?;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT vec FROM vectors WHERE memory = ?1 AND model = ?2")
            .map_err(|e| self.err(e))?;
        let mut scored = Vec::with_capacity(candidates.len());
        for id in candidates {
            let blob: Vec<u8> = stmt
                .query_row([id, model_id], |r| r.get(0))
                .map_err(|e| self.err(e))?;
            scored.push((id, f64::from(vector::dot_blob(&unit, &blob))));
        }
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        scored.truncate(limit);
        Ok(scored)
    }

    fn filtered_ids(&self, filter: &Filter) -> Result<HashSet<i64>, MemoryError> {
        let mut params = Vec::new();
        let cond = filter.sql(&mut params);
        let sql = format!("SELECT m.id FROM memories m WHERE 1{cond}");
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(params), |r| r.get(0))
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// The ids of the [`CANDIDATES`] vectors of the model whose sign bits
    /// are nearest the query's (all of them when there are no more).
    fn sign_pass(
        &self,
        model_id: i64,
        unit: &[f32],
        allowed: Option<&HashSet<i64>>,
    ) -> Result<Vec<i64>, MemoryError> {
        let bits = vector::sign_bits(unit);
        let mut stmt = self
            .conn
            .prepare_cached("SELECT memory, bits FROM signs WHERE model = ?1")
            .map_err(|e| self.err(e))?;
        let mut rows = stmt.query([model_id]).map_err(|e| self.err(e))?;
        // A max-heap of the nearest so far: the farthest on top.
        let mut heap: BinaryHeap<(u32, i64)> = BinaryHeap::with_capacity(CANDIDATES + 1);
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
            let id: i64 = r.get(0).map_err(|e| self.err(e))?;
            if allowed.is_some_and(|a| !a.contains(&id)) {
                continue;
            }
            let stored = r.get_ref(1).map_err(|e| self.err(e))?;
            let d = vector::hamming(&bits, stored.as_blob().unwrap_or(&[]));
            if heap.len() < CANDIDATES {
                heap.push((d, id));
            } else if heap.peek().is_some_and(|top| d < top.0) {
                heap.pop();
                heap.push((d, id));
            }
        }
        Ok(heap.into_iter().map(|(_, id)| id).collect())
    }

    /// Reciprocal rank fusion of the two rankings, `limit` best.
    fn fuse(
        &self,
        keyword: &[(i64, f64)],
        by_vector: &[(i64, f64)],
        limit: usize,
    ) -> Result<Vec<Hit>, MemoryError> {
        let mut seen: HashMap<i64, Fused> = HashMap::new();
        for (i, (id, s)) in keyword.iter().enumerate() {
            let e = seen.entry(*id).or_default();
            e.0 += 1.0 / (RRF_K + (i + 1) as f64);
            e.1 = Some((i + 1, *s));
        }
        for (i, (id, c)) in by_vector.iter().enumerate() {
            let e = seen.entry(*id).or_default();
            e.0 += 1.0 / (RRF_K + (i + 1) as f64);
            e.2 = Some((i + 1, *c));
        }
        let ids: Vec<i64> = seen.keys().copied().collect();
        let mut hits: Vec<Hit> = self
            .by_ids(&ids)?
            .into_iter()
            .map(|memory| {
                let (score, keyword, vector) = seen[&memory.id];
                Hit {
                    memory,
                    score,
                    keyword,
                    vector,
                }
            })
            .collect();
        hits.sort_by(fused_order);
        hits.truncate(limit);
        Ok(hits)
    }
}

/// A memory's fused score and its place in each ranking.
type Fused = (f64, Option<(usize, f64)>, Option<(usize, f64)>);

/// Better fused score first; then more recently updated; then newer.
pub fn fused_order(a: &Hit, b: &Hit) -> Ordering {
    b.score
        .total_cmp(&a.score)
        .then(b.memory.updated.cmp(&a.memory.updated))
        .then(b.memory.id.cmp(&a.memory.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_quoted_words() {
        assert_eq!(
            fts_query("Where's the deploy-host?").unwrap(),
            "\"where\" OR \"s\" OR \"the\" OR \"deploy\" OR \"host\""
        );
        assert_eq!(fts_query(" ?! "), None);
        assert_eq!(
            fts_query("AND OR NOT \"x"),
            Some("\"and\" OR \"or\" OR \"not\" OR \"x\"".into())
        );
    }
}
