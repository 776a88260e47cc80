//! The progress line of a map run on a terminal (stderr): records done of
//! the total (estimated from the input files' lines; unknown for stdin),
//! failures, the rate, the time left, the tokens and the cost so far with
//! the cost of the whole run at that pace. Redrawn at most four times a
//! second; nothing when stderr is not a terminal.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::Summary;

/// The line on stderr, while a run goes.
pub struct Progress {
    on: bool,
    start: Instant,
    last: Option<Instant>,
    /// The input's lines, counted on a thread of its own (0 until known).
    total: Arc<AtomicU64>,
}

impl Progress {
    pub fn new(files: &[PathBuf]) -> Progress {
        let on = std::io::stderr().is_terminal();
        let total = Arc::new(AtomicU64::new(0));
        let regular: Vec<PathBuf> = files
            .iter()
            .filter(|f| f.as_os_str() != "-" && f.is_file())
            .cloned()
            .collect();
        if on && !files.is_empty() && regular.len() == files.len() {
            let t = total.clone();
            std::thread::spawn(move || t.store(count_lines(&regular), Ordering::Relaxed));
        }
        Progress {
            on,
            start: Instant::now(),
            last: None,
            total,
        }
    }

    pub fn show(&mut self, sum: &Summary) {
        if !self.on
            || self
                .last
                .is_some_and(|t| t.elapsed() < Duration::from_millis(250))
        {
            return;
        }
        self.last = Some(Instant::now());
        let total = Some(self.total.load(Ordering::Relaxed)).filter(|n| *n > 0);
        let text = line(sum, self.start.elapsed(), total);
        let _ = write!(std::io::stderr(), "\r\x1b[K{text}");
    }

    pub fn clear(&self) {
        if self.on && self.last.is_some() {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
    }
}

/// The lines of the inputs: about their records (a CSV's header and a
/// field's line breaks make it an estimate).
fn count_lines(files: &[PathBuf]) -> u64 {
    use std::io::Read;
    let mut n = 0u64;
    let mut buf = vec![0u8; 256 << 10];
    for f in files {
        let Ok(mut file) = std::fs::File::open(f) else {
            continue;
        };
        while let Ok(k) = file.read(&mut buf) {
            if k == 0 {
                break;
            }
            n += buf[..k].iter().filter(|b| **b == b'\n').count() as u64;
        }
    }
    n
}

/// The progress line: `done[/~total]`, failures, rate, ETA, tokens, cost.
pub fn line(sum: &Summary, elapsed: Duration, total: Option<u64>) -> String {
    let secs = elapsed.as_secs_f64().max(0.001);
    let rate = sum.records as f64 / secs;
    let mut s = format!("gem-ask map: {}", sum.records);
    // The estimate is never shown below what is done.
    let total = total.map(|t| t.max(sum.records));
    if let Some(t) = total {
        s.push_str(&format!("/~{t}"));
    }
    s.push_str(&format!(" done, {} failed, {rate:.1}/s", sum.failed));
    let left = total.map(|t| t - sum.records);
    if let Some(left) = left.filter(|_| rate > 0.0 && sum.records > 0) {
        s.push_str(&format!(", ETA {}", duration(left as f64 / rate)));
    }
    s.push_str(&format!(
        ", {} tokens ({} in, {} out)",
        short(sum.usage.total),
        short(sum.usage.prompt),
        short(sum.usage.candidates + sum.usage.thoughts)
    ));
    if let Some(cost) = sum.cost {
        s.push_str(&format!(", ${cost:.4}"));
        let sent = sum.records.saturating_sub(sum.resumed);
        if let (Some(left), true) = (left, sent > 0) {
            let all = cost + cost / sent as f64 * left as f64;
            s.push_str(&format!(" (~${all:.4} in all)"));
        }
    }
    s
}

/// 1234567 as `1.2M`, 12345 as `12.3k`.
fn short(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// Seconds as `42s`, `3m05s` or `2h07m`.
fn duration(secs: f64) -> String {
    let s = secs.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::Usage;

    #[test]
    fn the_line_says_rate_eta_tokens_and_cost() {
        let sum = Summary {
            records: 100,
            failed: 2,
            usage: Usage {
                prompt: 9_000,
                candidates: 3_400,
                total: 12_400,
                ..Usage::default()
            },
            cost: Some(0.01),
            ..Summary::default()
        };
        assert_eq!(
            line(&sum, Duration::from_secs(10), Some(1_000)),
            "gem-ask map: 100/~1000 done, 2 failed, 10.0/s, ETA 1m30s, 12.4k tokens (9.0k in, \
             3.4k out), $0.0100 (~$0.1000 in all)"
        );
        let unpriced = Summary { cost: None, ..sum };
        assert_eq!(
            line(&unpriced, Duration::from_secs(10), None),
            "gem-ask map: 100 done, 2 failed, 10.0/s, 12.4k tokens (9.0k in, 3.4k out)"
        );
    }
}
