//! What the Rust benchmarks share: durations in milliseconds and the
//! median and 90th percentile of a run's samples.

use std::time::Duration;

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// (median, 90th percentile) in ms.
pub fn stats(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    (ms(v[v.len() / 2]), ms(v[v.len() * 9 / 10]))
}
