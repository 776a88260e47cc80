//! A `gem-ask map` run's file, read for the log: `map-ID.jsonl` beside
//! the sessions, its `meta` line and one `map` record (written by
//! `agent::map::runlog` at the run's end). The log lists it as a session
//! whose prompt is the map's template and whose topic counts its records;
//! a search finds its template, its input names and why it stopped. The
//! records' answers are not in it: they are in the run's output, and a
//! run of a million records would make the index a copy of them.

use serde_json::Value;

use super::{Item, Summary};

/// The `map` record into the summary and the items.
pub fn take(s: &mut Summary, items: &mut Vec<Item>, v: &Value, time: &str) {
    let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default();
    let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    let mut push = |kind: &'static str, text: String| {
        items.push(Item {
            kind,
            tool: None,
            status: None,
            time: time.to_string(),
            text,
        })
    };
    let template = text("template");
    if s.prompt.is_empty() {
        s.prompt = template.to_string();
    }
    push("prompt", template.to_string());
    let inputs: Vec<&str> = v
        .get("inputs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if !inputs.is_empty() {
        push("map_input", inputs.join(" "));
    }
    if let Some(m) = v.pointer("/error/message").and_then(Value::as_str) {
        push("stop", m.to_string());
    }
    s.tokens += n("tokens");
    if let Some(c) = v.get("cost_usd").and_then(Value::as_f64) {
        *s.cost_usd.get_or_insert(0.0) += c;
    }
    s.status = match text("status") {
        "" => "incomplete".to_string(),
        st => st.to_string(),
    };
    s.topic = Some(format!(
        "map: {} records, {} answered, {} failed, {} skipped",
        n("records"),
        n("answered"),
        n("failed"),
        n("skipped")
    ));
}
