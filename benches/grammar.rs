//! Library time of the plot grammar (issue 7, Proof): a 5,000-row spec
//! with three marks (pace and heart-rate lines, a rule at 5 km) read from
//! its JSON line, validated and drawn at 100 columns, on one core. Prints
//! the median and 90th percentile of each phase over the runs, and the
//! total against the 5 ms target. Run by benches/grammar.sh, or alone:
//!
//!   cargo bench --bench grammar [-- RUNS]
//!   cargo bench --bench grammar -- --emit   (the event line, for timing
//!                                             whole processes)

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use gemline::events::Event;
use gemline::render::{RenderOptions, render_spec};
use gemline::spec::grammar::{Limits, UiEnvelope};
use serde_json::json;

mod support;
use support::{ms, stats};

const ROWS: usize = 5_000;
const TARGET: Duration = Duration::from_millis(5);

/// The seed's pace and heart-rate run, 5,000 samples over 10 km.
fn event_line() -> String {
    let rows: Vec<_> = (0..ROWS)
        .map(|i| {
            let km = i as f64 * 10.0 / ROWS as f64;
            let pace = 300.0 - 12.0 * (km / 1.7).sin() + 0.8 * km;
            let hr = 128.0 + 22.0 * (1.0 - (-km / 2.5).exp()) + 2.0 * (km * 2.0).sin();
            json!({"km": (km * 1000.0).round() / 1000.0, "pace": (pace * 10.0).round() / 10.0,
                   "hr": (hr * 10.0).round() / 10.0})
        })
        .collect();
    json!({"type": "ui", "id": "bench", "kind": "chart", "version": 1, "title": "Run",
        "spec": {
            "dataset": {"rows": rows},
            "fields": {"km": {"type": "number", "label": "Distance", "unit": "km"},
                       "pace": {"type": "number", "label": "Pace", "unit": "s/km"},
                       "hr": {"type": "number", "label": "Heart rate", "unit": "bpm"}},
            "marks": [{"type": "line", "x": "km", "y": "pace", "series": "pace"},
                      {"type": "line", "x": "km", "y": "hr", "series": "hr"},
                      {"type": "rule", "xValue": 5.0, "label": "5K"}],
            "axes": {"y": {"invert": true}}},
        "fallbackText": "Pace and heart rate"})
    .to_string()
}

fn main() -> ExitCode {
    let runs: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(101);
    let line = event_line();
    if std::env::args().any(|a| a == "--emit") {
        let _ = writeln!(io::stdout().lock(), "{line}");
        return ExitCode::SUCCESS;
    }
    let opts = RenderOptions {
        width: 100,
        ..RenderOptions::default()
    };
    let (mut parse, mut validate, mut render, mut total) = (vec![], vec![], vec![], vec![]);
    let mut drawn = 0;
    for i in 0..runs + 5 {
        let t0 = Instant::now();
        let Ok(Some(e)) = Event::from_line(&line, 1) else {
            return ExitCode::FAILURE;
        };
        let t1 = Instant::now();
        let ui = UiEnvelope::read(&e.0);
        let Ok(valid) = ui.validate(&Limits::default()) else {
            return ExitCode::FAILURE;
        };
        let t2 = Instant::now();
        let lines = render_spec(ui.title, &valid.spec, &opts);
        let t3 = Instant::now();
        drawn = std::hint::black_box(lines).len();
        // The first runs warm caches and the allocator.
        if i >= 5 {
            parse.push(t1 - t0);
            validate.push(t2 - t1);
            render.push(t3 - t2);
            total.push(t3 - t1);
        }
    }
    let mut out = io::stdout().lock();
    let bytes = line.len();
    let _ = writeln!(
        out,
        "grammar: {ROWS} rows, 3 marks, {bytes} bytes of JSON, drawn in {drawn} lines at 100 columns; {runs} runs"
    );
    for (name, v) in [
        ("JSON line to event", &parse),
        ("validate", &validate),
        ("render", &render),
    ] {
        let (med, p90) = stats(v.clone());
        let _ = writeln!(out, "  {name:<20} median {med:7.3} ms  p90 {p90:7.3} ms");
    }
    let (med, p90) = stats(total);
    let verdict = if med < ms(TARGET) { "ok" } else { "MISSED" };
    let _ = writeln!(
        out,
        "  {:<20} median {med:7.3} ms  p90 {p90:7.3} ms  (target < {} ms: {verdict})",
        "validate + render",
        ms(TARGET)
    );
    ExitCode::SUCCESS
}
