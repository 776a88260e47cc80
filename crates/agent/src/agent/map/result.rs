//! The `result` event of a map run (docs/events.md, "`result` of a map
//! run"): the core counts (tokens, duration, cost where the price is
//! known) and `stats.map`, the records answered, failed, skipped (already
//! in `--output`), answered from the cache, and the bad input lines, with
//! the batch job's name when there was one. `status` is `error` when a
//! record failed or the run was stopped (by a signal, or by a cap: then
//! `error.type` is the cap's, as a one-shot run's).

use serde_json::{Map, Value, json};

use super::Summary;

/// The event; `stopped` names the signal that ended the run early.
pub fn event(sum: &Summary, batch: Option<&str>, stopped: Option<&str>) -> Value {
    let u = &sum.usage;
    let mut map = json!({
        "records": sum.records,
        "answered": sum.answered,
        "failed": sum.failed,
        "skipped": sum.resumed,
        "cached": sum.cached,
        "bad_lines": sum.bad_lines,
    });
    if let Some(name) = batch {
        map["batch"] = name.into();
    }
    let mut stats = json!({
        "input_tokens": u.prompt,
        "output_tokens": u.candidates + u.thoughts,
        "total_tokens": u.total,
        "cached_input_tokens": u.cached,
        "duration_ms": sum.elapsed.as_millis() as u64,
        "map": map,
    });
    // Absent when unknown or when nothing was paid for, as gem-ask's.
    if let Some(cost) = sum.cost.filter(|_| sum.answered > sum.cached) {
        stats["cost_usd"] = json!((cost * 1e6).round() / 1e6);
    }
    let mut e = Map::new();
    e.insert("type".into(), "result".into());
    let error = match (stopped, &sum.capped) {
        (Some(sig), _) => Some(("interrupted", format!("stopped by {sig}"))),
        (None, Some((cap, why))) => Some((
            *cap,
            format!(
                "{why}; {} of {} records failed or not sent (their lines carry error; a rerun with --output sends them)",
                sum.failed, sum.records
            ),
        )),
        (None, None) if sum.failed > 0 => Some((
            "records_failed",
            format!(
                "{} of {} records failed (their lines carry error)",
                sum.failed, sum.records
            ),
        )),
        (None, None) => None,
    };
    match error {
        Some((kind, message)) => {
            e.insert("status".into(), "error".into());
            e.insert("error".into(), json!({"type": kind, "message": message}));
        }
        None => {
            e.insert("status".into(), "success".into());
        }
    }
    e.insert("stats".into(), stats);
    e.insert("timestamp".into(), crate::events::now_rfc3339().into());
    Value::Object(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_record_makes_the_status_error_and_the_cost_is_kept() {
        let sum = Summary {
            records: 3,
            answered: 2,
            failed: 1,
            cost: Some(0.000_123_4),
            ..Summary::default()
        };
        let e = event(&sum, Some("batches/x"), None);
        assert_eq!(e["status"], "error");
        assert_eq!(e["error"]["type"], "records_failed");
        assert_eq!(e["stats"]["map"]["batch"], "batches/x");
        assert_eq!(e["stats"]["cost_usd"], 0.000123);
        let ok = Summary {
            failed: 0,
            cost: None,
            ..sum
        };
        let e = event(&ok, None, None);
        assert_eq!(e["status"], "success");
        assert!(e["stats"].get("cost_usd").is_none());
    }
}
