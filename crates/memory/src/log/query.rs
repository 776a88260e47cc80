//! The index's answers: the sessions a filter keeps, newest first
//! ([`list`]), and the texts a full-text search finds, best first
//! ([`search`]), each as the `record` a line of output carries.

use rusqlite::types::Value as Sql;
use serde_json::{Value, json};

use super::Filters;

/// The filters as SQL over `sessions` (aliased `s`) and, for a search,
/// `items` (`i`): the WHERE clause's terms and their parameters.
fn terms(f: &Filters, on_items: bool, sql: &mut Vec<String>, params: &mut Vec<Sql>) {
    if let Some(since) = &f.since {
        sql.push(
            if on_items {
                "i.time >= ?"
            } else {
                "s.updated >= ?"
            }
            .into(),
        );
        params.push(Sql::Text(since.clone()));
    }
    if let Some(model) = &f.model {
        sql.push("(' ' || s.models || ' ') LIKE ? ESCAPE '\\'".into());
        params.push(Sql::Text(format!("% {} %", like_escaped(model))));
    }
    if let Some(status) = &f.status {
        sql.push("s.status = ?".into());
        params.push(Sql::Text(status.clone()));
    }
    if let Some(over) = f.cost_over {
        sql.push("s.cost > ?".into());
        params.push(Sql::Real(over));
    }
    if let Some(tool) = &f.tool {
        if on_items {
            sql.push("i.tool = ?".into());
        } else {
            sql.push(
                "EXISTS (SELECT 1 FROM items t WHERE t.session = s.id AND t.kind = 'tool_call' \
                 AND t.tool = ?)"
                    .into(),
            );
        }
        params.push(Sql::Text(tool.clone()));
    }
}

fn like_escaped(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

fn clause(sql: &[String]) -> String {
    if sql.is_empty() {
        String::new()
    } else {
        format!(" AND {}", sql.join(" AND "))
    }
}

/// The sessions the filters keep, the most recently written first.
pub fn list(
    conn: &rusqlite::Connection,
    f: &Filters,
    limit: usize,
) -> Result<Vec<Value>, rusqlite::Error> {
    let (mut sql, mut params) = (Vec::new(), Vec::new());
    terms(f, false, &mut sql, &mut params);
    params.push(Sql::Integer(limit as i64));
    let q = format!(
        "SELECT s.id, s.created, s.updated, s.model, s.turns, s.tool_calls, s.tokens, s.cost,
                s.status, s.tools, s.topic, s.prompt
         FROM sessions s WHERE 1{} ORDER BY s.updated DESC, s.id DESC LIMIT ?",
        clause(&sql)
    );
    let mut st = conn.prepare(&q)?;
    let rows = st.query_map(rusqlite::params_from_iter(params), |r| {
        Ok(json!({
            "session": r.get::<_, String>(0)?,
            "created": r.get::<_, String>(1)?,
            "updated": r.get::<_, String>(2)?,
            "model": r.get::<_, String>(3)?,
            "turns": r.get::<_, i64>(4)?,
            "tool_calls": r.get::<_, i64>(5)?,
            "tokens": r.get::<_, i64>(6)?,
            "cost_usd": r.get::<_, Option<f64>>(7)?,
            "status": r.get::<_, String>(8)?,
            "tools": r.get::<_, String>(9)?,
            "topic": r.get::<_, Option<String>>(10)?,
            "prompt": r.get::<_, String>(11)?,
        }))
    })?;
    rows.collect()
}

/// The words of `text` as an FTS5 query: each a quoted string, so every
/// word must occur and none is read as an operator.
pub fn fts_query(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The texts that hold every word of `text` and pass the filters, best
/// match (BM25) first, each with a snippet around the words found.
pub fn search(
    conn: &rusqlite::Connection,
    text: &str,
    f: &Filters,
    limit: usize,
) -> Result<Vec<Value>, rusqlite::Error> {
    let Some(matching) = fts_query(text) else {
        return Ok(Vec::new());
    };
    let (mut sql, mut params) = (Vec::new(), vec![Sql::Text(matching)]);
    terms(f, true, &mut sql, &mut params);
    params.push(Sql::Integer(limit as i64));
    let q = format!(
        "SELECT i.session, i.time, i.kind, i.tool, i.status, s.model,
                snippet(items_fts, 0, '', '', '…', 16)
         FROM items_fts JOIN items i ON i.id = items_fts.rowid JOIN sessions s ON s.id = i.session
         WHERE items_fts MATCH ?{} ORDER BY bm25(items_fts), i.time DESC LIMIT ?",
        clause(&sql)
    );
    let mut st = conn.prepare(&q)?;
    let rows = st.query_map(rusqlite::params_from_iter(params), |r| {
        Ok(json!({
            "session": r.get::<_, String>(0)?,
            "time": r.get::<_, String>(1)?,
            "kind": r.get::<_, String>(2)?,
            "tool": r.get::<_, Option<String>>(3)?,
            "status": r.get::<_, Option<String>>(4)?,
            "model": r.get::<_, String>(5)?,
            "text": super::read::cut(&r.get::<_, String>(6)?, 200),
        }))
    })?;
    rows.collect()
}
