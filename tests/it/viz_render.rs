//! viz-render end to end: the real binary, real pipes, a clean environment.
//! This file: the runners the viz-render modules share and the charts
//! drawn in the terminal; `viz_render_stream` has messages, chapters and
//! the event stream, `viz_render_terminal` the terminal's settings, pipes,
//! files and exit codes.

use assert_cmd::cargo::cargo_bin_cmd;

pub(crate) struct Out {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

pub(crate) fn render(args: &[&str], env: &[(&str, &str)], stdin: &str) -> Out {
    let mut cmd = cargo_bin_cmd!("viz-render");
    cmd.env_clear().env("LANG", "C.UTF-8");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

pub(crate) fn ok(args: &[&str], stdin: &str) -> String {
    let o = render(args, &[], stdin);
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    o.stdout
}

pub(crate) fn testdata(name: &str) -> String {
    std::fs::read_to_string(format!("testdata/render/{name}")).unwrap()
}

pub(crate) fn bar(points: &[(&str, f64)]) -> String {
    let pts: Vec<_> = points
        .iter()
        .map(|(l, v)| serde_json::json!({"label": l, "value": v}))
        .collect();
    serde_json::json!({"type": "visualization", "chartType": "bar",
        "series": [{"name": "s", "points": pts}],
        "meta": {"truncated": false, "originalPointCount": points.len()}})
    .to_string()
}

#[test]
fn bmw_bar_chart_has_labels_bars_and_values_with_unit() {
    let out = ok(&["--width", "40"], &testdata("bmw.jsonl"));
    assert_eq!(
        out,
        "0-60 mph\n\
         fastest three\n\
         Model                               Time\n\
         M5 CS         █████████████████    2.9 s\n\
         M8 Competiti… █████████████████▋   3.0 s\n\
         M3 Competiti… ████████████████████ 3.4 s\n"
    );
}

#[test]
fn ascii_bars_use_hashes_and_dots() {
    let out = ok(&["--width", "40", "--ascii"], &testdata("bmw.jsonl"));
    assert!(out.contains("M8 Competi... "), "{out}");
    assert!(out.contains("#################### 3.4 s"), "{out}");
    assert!(out.is_ascii());
}

#[test]
fn negative_values_diverge_from_a_zero_axis() {
    let out = ok(&["--width", "40"], &testdata("negative.jsonl"));
    let rows: Vec<&str> = out.lines().skip(1).collect();
    let col = |r: &str| r.chars().position(|c| c == '│');
    let axis = col(rows[0]).unwrap();
    for r in &rows {
        assert_eq!(col(r), Some(axis), "axis moves: {out}");
    }
    // The negative bar ends at the axis, the positive one starts there.
    assert!(rows[2].contains("████│"), "{out}");
    assert!(rows[0].contains("│████"), "{out}");
    assert!(rows[2].ends_with("-15.00%"));
}

#[test]
fn eighth_blocks_give_sub_cell_resolution() {
    let out = ok(&["--width", "30"], &bar(&[("a", 8.0), ("b", 1.0)]));
    // 8 to 1 over a bar area: b is a fraction of a's length, in eighths.
    let b = out.lines().nth(1).unwrap();
    assert!(
        b.chars().any(|c| "▏▎▍▌▋▊▉".contains(c) || c == '█'),
        "{out}"
    );
}

#[test]
fn line_chart_uses_braille_nice_ticks_and_end_labels() {
    let out = ok(&["--width", "60"], &testdata("yearly.jsonl"));
    assert!(out.contains("20 ┤"), "{out}");
    assert!(out.contains("12 ┤"), "{out}");
    assert!(out.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)));
    let labels = out.lines().find(|l| l.contains("2020")).unwrap();
    assert!(labels.trim_end().ends_with("2024"), "{out}");
    assert!(labels.contains("2022"), "{out}");
}

#[test]
fn line_chart_height_is_capped() {
    let out = ok(
        &["--width", "100", "--height", "6"],
        &testdata("yearly.jsonl"),
    );
    let axis_rows = out
        .lines()
        .filter(|l| l.contains('┤') || l.contains('│'))
        .count();
    assert_eq!(axis_rows, 6, "{out}");
    let out = ok(&["--width", "100"], &testdata("yearly.jsonl"));
    let axis_rows = out
        .lines()
        .filter(|l| l.contains('┤') || l.contains('│'))
        .count();
    assert_eq!(axis_rows, 15, "{out}");
}

#[test]
fn several_series_share_an_x_axis_in_first_seen_order_with_a_legend() {
    let out = ok(&["--width", "80"], &testdata("multi.jsonl"));
    let labels = out.lines().find(|l| l.contains("Jan")).unwrap();
    let order: Vec<usize> = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul"]
        .iter()
        .map(|m| {
            labels
                .find(m)
                .unwrap_or_else(|| panic!("{m} missing: {out}"))
        })
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{labels}");
    assert!(out.contains("● AAPL  ◆ MSFT  ▲ GOOG"), "{out}");
    let ascii = ok(&["--width", "80", "--ascii"], &testdata("multi.jsonl"));
    assert!(ascii.contains("* AAPL  + MSFT  o GOOG"), "{ascii}");
    for m in ['*', '+', 'o', '|', '-'] {
        assert!(ascii.contains(m), "{m} missing: {ascii}");
    }
}

#[test]
fn table_has_borders_right_aligned_numbers_and_unit_in_header() {
    let spec = r#"{"type":"visualization","chartType":"table","yLabel":"Time","unit":"s","series":[{"name":"t","points":[{"label":"M5 CS","value":2.9},{"label":"M8","value":12.25}]}],"meta":{"truncated":false,"originalPointCount":2}}"#;
    let out = ok(&["--width", "40"], spec);
    assert_eq!(
        out,
        "╭───────┬──────────╮\n\
         │ Label │ Time (s) │\n\
         ├───────┼──────────┤\n\
         │ M5 CS │     2.90 │\n\
         │ M8    │    12.25 │\n\
         ╰───────┴──────────╯\n"
    );
    let ascii = ok(&["--width", "40", "--ascii"], spec);
    assert!(
        ascii.starts_with("+-------+----------+\n| Label | Time (s) |\n"),
        "{ascii}"
    );
}

#[test]
fn footer_says_when_points_were_dropped() {
    let out = ok(&["--width", "80"], &testdata("table.jsonl"));
    assert!(
        out.ends_with("showing 5 of 1,204 points, top by value\n"),
        "{out}"
    );
    let line = r#"{"type":"visualization","chartType":"line","series":[{"name":"a","points":[{"label":"1","value":1},{"label":"2","value":3}]}],"meta":{"truncated":true,"originalPointCount":1000,"reduction":"even"}}"#;
    assert!(ok(&[], line).contains("showing 2 of 1,000 points, evenly sampled"));
    assert!(!ok(&[], &testdata("bmw.jsonl")).contains("showing"));
}

#[test]
fn the_footer_names_how_points_were_dropped() {
    for (method, words) in [
        ("top", "top by value"),
        ("first", "the first in input order"),
        ("last", "the last in input order"),
        ("even", "evenly sampled"),
        ("minmax", "first, last, min and max per bucket"),
        ("lttb", "largest-triangle sampled"),
    ] {
        let spec = format!(
            r#"{{"type":"visualization","chartType":"line","series":[{{"name":"a","points":[{{"label":"1","value":1}},{{"label":"2","value":3}}]}}],"meta":{{"truncated":true,"originalPointCount":1204,"reduction":"{method}"}}}}"#
        );
        let out = ok(&["--width", "80"], &spec);
        assert!(
            out.ends_with(&format!("\nshowing 2 of 1,204 points, {words}\n")),
            "{method}: {out}"
        );
    }
}

#[test]
fn tables_show_exact_values_and_the_data_decimals() {
    let spec = |values: &[f64]| {
        let pts: Vec<_> = values
            .iter()
            .enumerate()
            .map(|(i, v)| serde_json::json!({"label": format!("p{i}"), "value": v}))
            .collect();
        serde_json::json!({"type": "visualization", "chartType": "table",
            "series": [{"name": "n", "points": pts}],
            "meta": {"truncated": false, "originalPointCount": values.len()}})
        .to_string()
    };
    let out = ok(&["--width", "40"], &spec(&[37_400_000.0, 131_136.0, 2.5e9]));
    assert_eq!(
        out,
        "╭───────┬───────────────╮\n\
         │ Label │             n │\n\
         ├───────┼───────────────┤\n\
         │ p0    │    37,400,000 │\n\
         │ p1    │       131,136 │\n\
         │ p2    │ 2,500,000,000 │\n\
         ╰───────┴───────────────╯\n"
    );
    let out = ok(&["--width", "40"], &spec(&[2.9, 3.0, 0.125]));
    assert!(
        out.contains("│ 2.900 │") && out.contains("│ 3.000 │"),
        "{out}"
    );
    assert!(out.contains("│ 0.125 │"), "{out}");
    // Where exact numbers cannot fit whole, the compact form is used
    // rather than a cut number.
    let out = ok(&["--width", "20"], &spec(&[37_400_000.0, 131_136.0, 2.5e9]));
    assert!(out.contains("37.4M") && out.contains("2.5B"), "{out}");
    assert!(!out.contains('…'), "{out}");
    // Bars keep the compact form.
    let bar = spec(&[37_400_000.0, 131_136.0]).replace("\"table\"", "\"bar\"");
    assert!(ok(&["--width", "60"], &bar).contains("37.4M"));
}

#[test]
fn a_line_with_few_points_marks_every_point() {
    let line = |n: usize| {
        let pts: Vec<_> = (0..n)
            .map(|i| serde_json::json!({"label": (2000 + i).to_string(), "value": (i * i) as f64}))
            .collect();
        serde_json::json!({"type": "visualization", "chartType": "line",
            "series": [{"name": "n", "points": pts}],
            "meta": {"truncated": false, "originalPointCount": n}})
        .to_string()
    };
    let markers = |out: &str| out.chars().filter(|&c| c == '●').count();
    let out = ok(&["--width", "80"], &line(5));
    assert_eq!(markers(&out), 5, "{out}");
    let out = ok(&["--width", "20"], &line(5));
    assert_eq!(markers(&out), 5, "{out}");
    // Dense: the braille line alone.
    let out = ok(&["--width", "40"], &line(30));
    assert_eq!(markers(&out), 0, "{out}");
    // ASCII draws the line with the marker; nothing else is added.
    let out = ok(&["--width", "80", "--ascii"], &line(5));
    assert!(out.contains('*') && out.is_ascii(), "{out}");
}

#[test]
fn a_partial_meta_is_accepted() {
    let e = r#"{"type":"visualization","chartType":"bar","series":[{"name":"s","points":[{"label":"a","value":1}]}],"meta":{"fallbackMode":"ascii"}}"#;
    assert_eq!(ok(&["--width", "20"], e), "a ████████████████ 1\n");
}

/// Missing cells of a wide table: each series skips a date, and the x
/// axis must still read in date order with every point at its date.
#[test]
fn series_with_gaps_share_an_x_axis_in_every_series_order() {
    let input = r#"{"type":"visualization","chartType":"line","xLabel":"date","series":[{"name":"a","points":[{"label":"2024-01-01","value":1.0},{"label":"2024-01-03","value":4.0}]},{"name":"b","points":[{"label":"2024-01-02","value":3.0},{"label":"2024-01-03","value":5.0}]}],"meta":{"truncated":false,"originalPointCount":4}}"#;
    let out = ok(&["--ascii", "--width", "40", "--height", "4"], input);
    let axis = out
        .lines()
        .find(|l| l.contains("2024-01-01"))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(axis.trim_end(), "   2024-01-01   2024-01-02    2024-01-03");
    // b's first point (3) sits in the middle column, not at the right.
    insta::assert_snapshot!(out);
}

/// Values near ±f64::MAX: every tick is a number, none a `?`.
#[test]
fn huge_values_get_proper_tick_labels() {
    let input = r#"{"type":"visualization","chartType":"line","series":[{"name":"s","points":[{"label":"a","value":1e308},{"label":"b","value":-1e308}]}]}"#;
    for w in ["40", "50", "80"] {
        let out = ok(&["--width", w], input);
        assert!(!out.contains('?'), "{out}");
        let first = out.lines().next().unwrap();
        assert!(first.trim_start().starts_with("1e308 ┤"), "{out}");
    }
}
