//! `viz-parse --follow` on any input: nothing panics, what is kept stays
//! within the window whatever the stream's length, and every update is a
//! chart a renderer accepts. First the library's line reader and window
//! (many cases, fast), then the program itself on arbitrary bytes.

use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin_cmd;
use gemline::parse::follow::lines::{LineOptions, LineReader, MAX_NAME};
use gemline::parse::follow::window::{Labels, MAX_SERIES, Window};
use proptest::prelude::*;
use regex::Regex;

/// Lines of every form the reader knows, and of forms it does not.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<f64>().prop_map(|v| v.to_string()),
        prop::collection::vec(-1e9f64..1e9, 1..6).prop_map(|v| {
            v.iter()
                .map(|x| format!("{x:.3}"))
                .collect::<Vec<_>>()
                .join(" ")
        }),
        prop::collection::vec("[a-z%]{1,6}", 1..8).prop_map(|w| w.join(" ")),
        prop::collection::vec("[0-9a-z\" ]{0,6}", 1..10).prop_map(|c| c.join(",")),
        prop::collection::vec("[0-9.a-z]{0,6}", 1..10).prop_map(|c| c.join("\t")),
        ("[a-zA-Z ]{1,80}", "[0-9.,kM%$ -]{1,10}").prop_map(|(k, v)| format!("{k}: {v}")),
        prop::collection::vec(("[a-z_]{1,70}", -1e6f64..1e6), 1..20).prop_map(|kv| kv
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")),
        prop::collection::vec(("[a-z]{1,4}", "[0-9]{1,4}|\"[^\"]{0,5}\"|null|true"), 0..20)
            .prop_map(|kv| format!(
                "{{{}}}",
                kv.iter()
                    .map(|(k, v)| format!("\"{k}\": {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        "time=[0-9.]{0,8} ms [^\n]{0,20}",
        "\\PC{0,200}",
        any::<String>(),
    ]
}

fn options() -> impl Strategy<Value = (Option<usize>, bool, bool, Vec<String>)> {
    (
        prop::option::of(0usize..3),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec("[a-z0-9]{1,3}", 0..3),
    )
        .prop_map(|(extract, rate, clock, select)| (extract, rate, clock, select))
}

const EXTRACTS: [&str; 3] = [r"time=(?P<ms>[0-9.]+)", r"([0-9]+)\D+([0-9.]+)", r"[0-9]+"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn any_lines_stay_within_the_window_and_make_valid_charts(
        lines in prop::collection::vec(line(), 0..200),
        cap in 2usize..40,
        (extract, rate, clock, select) in options(),
        columns in prop::collection::vec("[a-z]{1,3}", 0..3),
    ) {
        let opts = LineOptions {
            extract: extract.map(|i| Regex::new(EXTRACTS[i]).unwrap()),
            columns,
            ..LineOptions::default()
        };
        let mut reader = LineReader::new(&opts);
        let mut window = Window::new(cap, rate, clock, select);
        let t0 = Instant::now();
        for (i, l) in lines.iter().enumerate() {
            window.line(t0 + Duration::from_millis(i as u64 * 7), 1_700_000_000 + i as i64 / 3);
            reader.read(l, &mut |n: &str, c: Option<usize>, v: f64, u: &str| window.push(n, c, v, u));
            prop_assert!(window.held() <= cap * MAX_SERIES);
        }
        if let Some(chart) = window.chart(&Labels::default()) {
            prop_assert!(chart.validate().is_ok(), "{:?}", chart.validate());
            prop_assert!(chart.series.len() <= MAX_SERIES);
            for s in &chart.series {
                prop_assert!(s.points.len() <= cap);
                prop_assert!(s.name.chars().count() <= MAX_NAME);
            }
            let event = chart.to_event();
            let drawn = gemline::render::chart_from_event(&event);
            prop_assert!(drawn.is_ok());
            let lines = gemline::render::live_frame(&drawn.unwrap(), &Default::default());
            prop_assert!(!lines.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn the_program_takes_any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..4000), window in 2u32..20) {
        let out = cargo_bin_cmd!("viz-parse")
            .args(["--follow", "--window", &window.to_string()])
            .write_stdin(bytes)
            .output()
            .unwrap();
        let code = out.status.code();
        prop_assert!(code == Some(0) || code == Some(65), "{code:?}");
        for l in String::from_utf8(out.stdout).unwrap().lines() {
            let e: serde_json::Value = serde_json::from_str(l).unwrap();
            prop_assert_eq!(&e["live"], &serde_json::Value::Bool(true));
            prop_assert_eq!(&e["id"], "stdin");
            for s in e["series"].as_array().unwrap() {
                prop_assert!(s["points"].as_array().unwrap().len() <= window as usize);
            }
        }
    }
}
