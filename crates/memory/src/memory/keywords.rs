//! The keyword ranking: BM25 as FTS5 computes it (`bm25()`: k1 1.2,
//! b 0.75, IDF floored at 1e-6), over the query's words (any of them),
//! the best `limit` memories.
//!
//! English function words (Lucene's English stop set: "the", "is", "of",
//! ...) are not matched, as in most BM25 search: they say nothing of what
//! is asked and match most memories. A word that half the memories or
//! more hold has no weight in BM25 anyway (its
//! IDF, `ln((N - n + 0.5) / (n + 0.5))`, is not above 0, so FTS5 floors
//! it to 1e-6): it is left out of the match, so that it neither pulls
//! every memory into the ranking (FTS5 scores each memory a word matches
//! before it can sort) nor moves a score by more than 2.2e-6. Only when
//! every word is that common are they matched all the same. How many
//! memories hold a word comes from the FTS5 vocabulary (`memories_vocab`)
//! for words of plain ASCII; any other word is always kept, since the
//! index folds its diacritics.

use rusqlite::OptionalExtension;
use rusqlite::types::Value as Sql;

use super::MemoryError;
use super::store::{Filter, Store};

/// Lucene's English stop words (its `EnglishAnalyzer` default set).
pub const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
];

/// The FTS5 expression of these words: each quoted, any of them.
pub fn any_of(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// The query's words, lower case, each once, in order.
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
    {
        if !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

impl Store {
    /// The best `limit` memories by BM25 of `words` (larger is better).
    pub fn keyword_ranking(
        &self,
        words: &[String],
        filter: &Filter,
        limit: usize,
    ) -> Result<Vec<(i64, f64)>, MemoryError> {
        let telling = self.telling(words)?;
        if telling.is_empty() {
            return Ok(Vec::new());
        }
        self.bm25(&any_of(&telling), filter, limit)
    }

    /// The words worth matching: not stop words, held by some memory and
    /// by fewer than half (all such when every one is that common).
    fn telling(&self, words: &[String]) -> Result<Vec<String>, MemoryError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT doc FROM memories_vocab WHERE term = ?1")
            .map_err(|e| self.err(e))?;
        let mut kept = Vec::new();
        let mut common = Vec::new();
        let mut total = None;
        for w in words {
            if STOP_WORDS.contains(&w.as_str()) {
                continue;
            }
            if !w.is_ascii() {
                kept.push(w.clone());
                continue;
            }
            let held: i64 = stmt
                .query_row([w], |r| r.get(0))
                .optional()
                .map_err(|e| self.err(e))?
                .unwrap_or(0);
            if held == 0 {
                continue;
            }
            let n = match total {
                Some(n) => n,
                None => *total.insert(self.count()? as i64),
            };
            if held * 2 >= n {
                common.push(w.clone());
            } else {
                kept.push(w.clone());
            }
        }
        Ok(if kept.is_empty() { common } else { kept })
    }

    /// Memory ids by BM25 of `expr` (best first; ties: later updated
    /// first) with their scores.
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_quoted_words_each_once() {
        let w = words("Where's the deploy-host? THE host");
        assert_eq!(w, ["where", "s", "the", "deploy", "host"]);
        assert_eq!(any_of(&w[..2]), "\"where\" OR \"s\"");
        assert!(words(" ?! ").is_empty());
        assert_eq!(
            any_of(&words("AND OR NOT \"x")),
            "\"and\" OR \"or\" OR \"not\" OR \"x\""
        );
    }
}
