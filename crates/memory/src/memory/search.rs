//! Finding memories: two rankings fused by reciprocal rank.
//!
//! - **Keywords**: BM25 (FTS5's `bm25()`, k1 1.2, b 0.75) of the query's
//!   words, any of them (`"w1" OR "w2" ...`), over each memory's key,
//!   content and tags (Unicode words, diacritics folded, no stemming); see
//!   [`super::keywords`].
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

impl Store {
    /// The memories that best answer `q`, at most `q.limit`.
    pub fn search(&self, q: &Query) -> Result<Vec<Hit>, MemoryError> {
        let deep = depth(q.limit);
        let words = super::keywords::words(&q.text);
        let keyword = self.keyword_ranking(&words, &q.filter, deep)?;
        let by_vector = match &q.vector {
            Some((model, v)) => self.nearest(model, v, &q.filter, deep)?,
            None => Vec::new(),
        };
        if words.is_empty() && q.vector.is_none() {
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
            Some(self.filtered_vectors(model_id, filter)?)
        };
        let rows = self.sign_pass(
            model_id,
            &vector::sign_bits(&unit),
            CANDIDATES,
            allowed.as_ref(),
        )?;
        let mut scored = self.cosines(&rows, &unit)?;
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
        scored.truncate(limit);
        Ok(scored)
    }

    /// The `vectors` rows of the model whose memories the filter lets through.
    fn filtered_vectors(
        &self,
        model_id: i64,
        filter: &Filter,
    ) -> Result<HashSet<i64>, MemoryError> {
        let mut params = vec![rusqlite::types::Value::Integer(model_id)];
        let cond = filter.sql(&mut params);
        let sql = format!(
            "SELECT v.id FROM vectors v JOIN memories m ON m.id = v.memory WHERE v.model = ?{cond}"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(params), |r| r.get(0))
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
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

/// The two passes of the vector ranking over the sign blocks
/// (`super::blocks`) and the vectors.
impl Store {
    /// The `vectors` rows of the `n` vectors of the model whose sign bits
    /// are nearest `bits` (all of them when there are no more), among
    /// `allowed` rows when given.
    pub(super) fn sign_pass(
        &self,
        model_id: i64,
        bits: &[u8],
        n: usize,
        allowed: Option<&HashSet<i64>>,
    ) -> Result<Vec<i64>, MemoryError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT n, ids, bits FROM sign_blocks WHERE model = ?1 ORDER BY id")
            .map_err(|e| self.err(e))?;
        let mut rows = stmt.query([model_id]).map_err(|e| self.err(e))?;
        // A max-heap of the nearest so far: the farthest on top.
        let mut heap: BinaryHeap<(u32, i64)> = BinaryHeap::with_capacity(n + 1);
        let len = bits.len();
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
            let used = r.get::<_, i64>(0).map_err(|e| self.err(e))? as usize;
            let ids = r
                .get_ref(1)
                .map_err(|e| self.err(e))?
                .as_blob()
                .unwrap_or(&[]);
            let signs = r
                .get_ref(2)
                .map_err(|e| self.err(e))?
                .as_blob()
                .unwrap_or(&[]);
            for slot in 0..used.min(ids.len() / 8).min(signs.len() / len.max(1)) {
                let id =
                    i64::from_le_bytes(ids[slot * 8..slot * 8 + 8].try_into().expect("8 bytes"));
                if id == 0 || allowed.is_some_and(|a| !a.contains(&id)) {
                    continue;
                }
                let d = vector::hamming(bits, &signs[slot * len..slot * len + len]);
                if heap.len() < n {
                    heap.push((d, id));
                } else if heap.peek().is_some_and(|top| d < top.0) {
                    heap.pop();
                    heap.push((d, id));
                }
            }
        }
        Ok(heap.into_iter().map(|(_, id)| id).collect())
    }

    /// The memory and cosine of each `vectors` row to the unit query.
    pub(super) fn cosines(
        &self,
        rows: &[i64],
        unit: &[f32],
    ) -> Result<Vec<(i64, f64)>, MemoryError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT memory, vec FROM vectors WHERE id = ?1")
            .map_err(|e| self.err(e))?;
        let mut out = Vec::with_capacity(rows.len());
        for id in rows {
            let (memory, c) = stmt
                .query_row([id], |r| {
                    let blob = r.get_ref(1)?.as_blob().unwrap_or(&[]);
                    Ok((r.get::<_, i64>(0)?, f64::from(vector::dot_blob(unit, blob))))
                })
                .map_err(|e| self.err(e))?;
            out.push((memory, c));
        }
        Ok(out)
    }
}
