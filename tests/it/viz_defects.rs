//! The defects issue 22 found trying real datasets as a new user would,
//! each with the command that showed it: the real binaries, piped.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

use crate::support::events;

/// viz-parse with `args` over `stdin`: its events and stderr (exit 0).
fn parse(args: &[&str], stdin: &str) -> (Vec<Value>, String) {
    let o = cargo_bin_cmd!("viz-parse")
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    (events(&o.stdout), err)
}

/// viz-render with `args` over `stdin`: its stdout (exit 0).
fn render(args: &[&str], stdin: &str) -> String {
    let o = cargo_bin_cmd!("viz-render")
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// `viz-parse ARGS | viz-render RENDER`.
fn pipe(args: &[&str], stdin: &str, render_args: &[&str]) -> String {
    let (ev, _) = parse(args, stdin);
    let lines: Vec<String> = ev.iter().map(Value::to_string).collect();
    render(render_args, &(lines.join("\n") + "\n"))
}

/// Defect 1: a table dropped rows with a repeated label, in the terminal
/// and in the Markdown report (SVG and Vega-Lite kept all three).
#[test]
fn a_table_keeps_every_row_of_a_repeated_label() {
    let input = "k,v\na,1\na,2\nb,3\n";
    let text = pipe(&["--chart", "table"], input, &["--color", "never"]);
    let rows: Vec<&str> = text.lines().filter(|l| l.contains("│ a")).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(
        text.contains('1') && text.contains('2') && text.contains('3'),
        "{text}"
    );
    let md = pipe(&["--chart", "table"], input, &["--format", "markdown"]);
    for row in ["| a | 1 |", "| a | 2 |", "| b | 3 |"] {
        assert!(md.contains(row), "{row} in:\n{md}");
    }
}

/// Defect 2: `--downsample minmax` lost the first and the last point
/// (sp500-2000: 2000-01-14 .. 2020-03-23 instead of 2000-01-03 .. 2020-04-17).
#[test]
fn minmax_downsampling_keeps_the_first_and_the_last_point() {
    let mut csv = String::from("date,price\n");
    for i in 0..5000u32 {
        let v = 1000.0 + f64::from((i * 7919) % 211) - f64::from(i % 17);
        csv.push_str(&format!("r{i:05},{v}\n"));
    }
    let (ev, _) = parse(&["--chart", "line", "--downsample", "minmax"], &csv);
    let pts = ev[0]["series"][0]["points"].as_array().unwrap();
    assert_eq!(pts.len(), 30);
    assert_eq!(pts[0]["label"], "r00000");
    assert_eq!(pts[pts.len() - 1]["label"], "r04999");
}

/// Defect 11: a header that names its unit got it twice (`0-60 mph (s)
/// (s)`), in the Markdown report and wherever a title adds the unit.
#[test]
fn a_header_naming_its_unit_is_not_given_it_twice() {
    let csv =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/bmw.csv")).unwrap();
    for format in ["markdown", "vega-lite", "svg", "terminal"] {
        let out = pipe(
            &["--chart", "bar"],
            &csv,
            &["--format", format, "--color", "never"],
        );
        assert!(out.contains("0-60 mph (s)"), "{format}: {out}");
        assert!(!out.contains("(s) (s)"), "{format}: {out}");
    }
    let out = pipe(&["--chart", "table"], &csv, &["--color", "never"]);
    assert!(!out.contains("(s) (s)"), "{out}");
}

/// Defect 7: an SVG line chart wrote every x label, 200 overlapping.
#[test]
fn an_svg_line_chart_writes_only_the_x_labels_that_fit() {
    let mut csv = String::from("item,v\n");
    for i in 0..200 {
        csv.push_str(&format!("item {i:03},{}\n", (i * 37) % 101));
    }
    let svg = pipe(
        &["--chart", "line", "--max-points", "200"],
        &csv,
        &["--format", "svg"],
    );
    let labels: Vec<&str> = svg
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("item "))
        .collect();
    assert!(
        (2..=40).contains(&labels.len()),
        "{} x labels",
        labels.len()
    );
    assert_eq!(labels[0], "item 000", "the first label is kept");
}
