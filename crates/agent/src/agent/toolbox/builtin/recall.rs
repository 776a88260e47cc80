//! `recall(query?, tags?, since?, until?, limit?)`: searches the user's
//! long-term memory, by words and meaning fused (or lists the latest when
//! there is no query). Consent `auto`: it only reads.

use serde_json::{Value, json};

use super::memory::{self, RECALL};
use crate::agent::toolbox::{Ctx, Done, Failed, Level, Ran, Source, Tool};
use crate::memory::{Filter, handle, now_ms, parse_when};

/// The most memories one call returns.
const MAX: u64 = 50;

pub fn tool() -> Tool {
    Tool::new(declaration(), Source::Builtin, Level::Auto, run)
        .with_guidance(super::place::MEMORY, |_| memory::guidance())
}

fn declaration() -> Value {
    json!({
        "name": RECALL,
        "description": "Searches the user's long-term memory by meaning and words; without a query, lists the \
            most recently updated memories. Each line: key, tags, date updated, content.",
        "parameters": {"type": "OBJECT", "properties": {
            "query": {"type": "STRING", "description": "What to look for, in words."},
            "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "description": "Only memories with all of these tags."},
            "since": {"type": "STRING", "description": "Only memories updated since: a date (2026-03-01) or an age (7d, 12h)."},
            "until": {"type": "STRING", "description": "Only memories updated before: a date or an age."},
            "limit": {"type": "INTEGER", "minimum": 1, "maximum": MAX, "description": "Most memories to return (default 10)."}
        }}
    })
}

fn filter(args: &Value) -> Result<Filter, Failed> {
    let now = now_ms();
    let when = |key: &str| -> Result<Option<i64>, Failed> {
        memory::text(args, key)
            .map(|t| parse_when(t, now))
            .transpose()
            .map_err(|e| Failed::new("invalid_arguments", format!("recall: {key} {e}")))
    };
    Ok(Filter {
        tags: memory::tags(RECALL, args)?,
        since: when("since")?,
        until: when("until")?,
    })
}

fn run(args: &Value, ctx: &Ctx<'_>) -> Ran {
    let done = (|| {
        let store = memory::memory(ctx, RECALL)?;
        let limit = args
            .get("limit")
            .and_then(Value::as_u64)
            .unwrap_or(10)
            .clamp(1, MAX) as usize;
        let query = memory::text(args, "query").unwrap_or("");
        let found = store
            .search(query, &filter(args)?, limit, handle::WRITE_WAIT)
            .map_err(|e| memory::failed(RECALL, e))?;
        let (hits, notes) = (found.hits, found.notes);
        let mut out = String::new();
        for n in &notes {
            out.push_str(&format!("({n})\n"));
        }
        if hits.is_empty() {
            out.push_str("No memory matches.");
        }
        for h in &hits {
            out.push_str(&crate::memory::context::line(&h.memory));
        }
        Ok(Done::text(out.trim_end()))
    })();
    Ran::from(done)
}
