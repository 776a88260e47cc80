//! What the viz-parse tests read out of a `visualization` event.

use serde_json::Value;

/// The (label, value) points of series `series`.
pub fn points_of(v: &Value, series: usize) -> Vec<(String, f64)> {
    v["series"][series]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["label"].as_str().unwrap().to_string(),
                p["value"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The points of the first series.
pub fn points(v: &Value) -> Vec<(String, f64)> {
    points_of(v, 0)
}

/// Expected points, written briefly.
pub fn pts(list: &[(&str, f64)]) -> Vec<(String, f64)> {
    list.iter().map(|(l, v)| (l.to_string(), *v)).collect()
}
