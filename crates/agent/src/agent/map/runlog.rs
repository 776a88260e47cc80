//! A map run's trace for the audit log (issue 35): at the run's end, a
//! file `map-ID.jsonl` in the sessions directory with the session files'
//! `meta` line and one `map` record: the template, the inputs' names, the
//! model, the counts of the `result` event (records, answered, failed,
//! skipped, cached, bad lines), tokens, cost when the price is known, the
//! output file and batch job when there were, and the status: `success`,
//! `error` (a record failed), `budget` (a cap stopped it) or `interrupted`
//! (a signal). The records' answers are not kept there: they are in the
//! run's output (or `--cache`), and a long run would copy them all.
//! `gem-ask log` lists and searches it beside the sessions
//! (`log::maprun`); as a session it would hold no conversation (a
//! history reader skips its `map` record).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{MapOptions, Summary};

/// The status word of a map run for the log, from its `result` event.
pub fn status_of(result: &Value) -> &'static str {
    match result.pointer("/error/type").and_then(Value::as_str) {
        None => "success",
        Some("interrupted") => "interrupted",
        Some("max_requests" | "max_tokens" | "max_cost") => "budget",
        Some(_) => "error",
    }
}

/// The `map` record of a run.
pub fn record(o: &MapOptions, sum: &Summary, result: &Value) -> Value {
    let inputs: Vec<String> = if o.files.is_empty() {
        vec!["-".to_string()]
    } else {
        o.files.iter().map(|f| f.display().to_string()).collect()
    };
    let mut r = json!({
        "record": "map",
        "timestamp": crate::events::now_rfc3339(),
        "template": o.template,
        "inputs": inputs,
        "model": o.model,
        "tokens": sum.usage.total,
        "duration_ms": sum.elapsed.as_millis() as u64,
        "status": status_of(result),
    });
    // The counts (records, answered, failed, skipped, cached, bad_lines,
    // batch) as the `result` event has them.
    if let Some(Value::Object(counts)) = result.pointer("/stats/map") {
        for (k, v) in counts {
            r[k] = v.clone();
        }
    }
    if let Some(c) = result.pointer("/stats/cost_usd") {
        r["cost_usd"] = c.clone();
    }
    if let Some(e) = result.get("error") {
        r["error"] = e.clone();
    }
    if let Some(out) = &o.output {
        r["output"] = out.display().to_string().into();
    }
    r
}

/// Writes the run's file in `dir`; its path.
pub fn write(
    dir: &Path,
    o: &MapOptions,
    sum: &Summary,
    result: &Value,
) -> std::io::Result<PathBuf> {
    let path = dir.join(format!("map-{}.jsonl", crate::session::new_id()));
    crate::session::append(&path, &o.model, &[record(o, sum, result)])?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_names_what_stopped_the_run() {
        for (result, want) in [
            (json!({"status": "success"}), "success"),
            (json!({"error": {"type": "max_cost"}}), "budget"),
            (json!({"error": {"type": "interrupted"}}), "interrupted"),
            (json!({"error": {"type": "records_failed"}}), "error"),
        ] {
            assert_eq!(status_of(&result), want, "{result}");
        }
    }
}
