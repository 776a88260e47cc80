//! `--chart heatmap` and `--chart box` end to end: viz-parse on the
//! real-data excerpts (testdata/real: flights, weather, penguins,
//! gapminder) into viz-render, snapshots at several widths in Unicode and
//! ASCII, with colour on and off; the numbers each chart carries checked
//! against the data; the flags' refusals; and a property test that any
//! heatmap or box plot draws within any width without panicking. The
//! examples in testdata/render (heatmap*.jsonl, box*.jsonl) also go
//! through every other format's tests (SVG, PNG, the Markdown report,
//! Vega-Lite validated, compiled and rendered by the real Vega tools).

use assert_cmd::cargo::cargo_bin_cmd;
use gemline::render::{RenderOptions, render_chart};
use gemline::spec::boxplot::BoxStats;
use gemline::spec::{Chart, ChartType, Point, Series};
use proptest::prelude::*;
use serde_json::Value;
use unicode_width::UnicodeWidthStr;

use crate::support;

fn parse(args: &[&str]) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-parse"), args, "")
}

fn chart_of(args: &[&str]) -> Value {
    let (code, out, err) = parse(args);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(out.lines().next().unwrap()).unwrap()
}

/// viz-render's drawing of `event` at a width, checked for the width,
/// ASCII and escapes.
fn draw(event: &str, width: usize, mode: &str, color: &str) -> String {
    let (code, out, err) = support::filter(
        cargo_bin_cmd!("viz-render"),
        &[mode, "--color", color, "--width", &width.to_string()],
        event,
    );
    assert_eq!((code, err.as_str()), (0, ""));
    for line in out.lines() {
        let plain = gemline::render::text::strip_ansi(line);
        assert!(plain.width() <= width, "too wide at {width}: {plain:?}");
        assert_eq!(line, line.trim_end(), "trailing blanks in {line:?}");
    }
    if mode == "--ascii" {
        assert!(out.is_ascii(), "non-ASCII in {out}");
    }
    assert_eq!(color == "always", out.contains('\x1b'), "{out}");
    out
}

fn snapshots(event: &str, name: &str) {
    for w in [20, 40, 80, 132] {
        for (mode, tag) in [("--unicode", "unicode"), ("--ascii", "ascii")] {
            insta::assert_snapshot!(format!("{name}_{tag}_{w}"), draw(event, w, mode, "never"));
        }
    }
    insta::assert_snapshot!(
        format!("{name}_color_80"),
        draw(event, 80, "--unicode", "always")
    );
}

fn cell(chart: &Value, row: &str, column: &str) -> Option<f64> {
    chart["series"]
        .as_array()?
        .iter()
        .find(|s| s["name"] == row)?["points"]
        .as_array()?
        .iter()
        .find(|p| p["label"] == column)?["value"]
        .as_f64()
}

#[test]
fn a_heatmap_counts_two_categories_of_real_flights() {
    let args = [
        "--chart",
        "heatmap",
        "-x",
        "origin",
        "-s",
        "carrier",
        "testdata/real/flights.csv",
    ];
    let chart = chart_of(&args);
    assert_eq!(chart["chartType"], "heatmap");
    assert_eq!(chart["seriesLabel"], "carrier");
    assert_eq!(chart["yLabel"], "count");
    // Counted from the file itself.
    let text = std::fs::read_to_string("testdata/real/flights.csv").unwrap();
    let mut rows = text.lines();
    let head: Vec<&str> = rows.next().unwrap().split(',').collect();
    let (o, c) = (
        head.iter().position(|h| *h == "origin").unwrap(),
        head.iter().position(|h| *h == "carrier").unwrap(),
    );
    let jfk_b6 = rows
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| r[o] == "JFK" && r[c] == "B6")
        .count();
    assert_eq!(cell(&chart, "B6", "JFK"), Some(jfk_b6 as f64));
    // Rows and columns in reading order.
    let names: Vec<&str> = chart["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    snapshots(&serde_json::to_string(&chart).unwrap(), "heatmap_flights");
}

#[test]
fn a_heatmap_of_a_value_normalized_by_row_and_by_column() {
    let base = ["--chart", "heatmap", "-x", "weather", "-s", "location"];
    let f = "testdata/real/weather.csv";
    let rows = chart_of(&[&base[..], &["--normalize", "row", f]].concat());
    assert_eq!(rows["yLabel"], "count, % of row");
    for s in rows["series"].as_array().unwrap() {
        let total: f64 = s["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["value"].as_f64().unwrap())
            .sum();
        assert!((total - 100.0).abs() < 1e-9, "{total}");
    }
    let cols = chart_of(&[&base[..], &["--normalize", "column", f]].concat());
    let sun = ["Seattle", "New York"].map(|r| cell(&cols, r, "sun").unwrap());
    assert!((sun[0] + sun[1] - 100.0).abs() < 1e-9);
    let mean = chart_of(&[&base[..], &["-y", "temp_max", "--aggregate", "mean", f]].concat());
    assert_eq!(mean["yLabel"], "mean(temp_max)");
    snapshots(
        &serde_json::to_string(&rows).unwrap(),
        "heatmap_weather_rows",
    );
}

#[test]
fn a_box_plot_of_real_penguins_has_vega_quartiles() {
    let chart = chart_of(&[
        "--chart",
        "box",
        "-x",
        "species",
        "-y",
        "body_mass_g",
        "testdata/real/penguins.csv",
    ]);
    assert_eq!(chart["chartType"], "box");
    let c: Chart = serde_json::from_value(chart.clone()).unwrap();
    // The same numbers from the file, by the definition in spec::boxplot.
    let text = std::fs::read_to_string("testdata/real/penguins.csv").unwrap();
    let mut gentoo: Vec<f64> = text
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("Gentoo,"))
        .filter_map(|l| l.split(',').nth(5)?.parse().ok())
        .collect();
    let want = BoxStats::of(&mut gentoo).unwrap();
    let s = c.series.iter().find(|s| s.name == "Gentoo").unwrap();
    assert_eq!(BoxStats::from_series(s).unwrap(), want);
    assert_eq!((want.q1, want.median, want.q3), (4700.0, 5000.0, 5500.0));
    snapshots(&serde_json::to_string(&chart).unwrap(), "box_penguins");
}

#[test]
fn a_box_plot_draws_its_outliers_past_the_whiskers() {
    let chart = chart_of(&[
        "--chart",
        "box",
        "-x",
        "continent",
        "-y",
        "lifeExp",
        "testdata/real/gapminder.csv",
    ]);
    let c: Chart = serde_json::from_value(chart.clone()).unwrap();
    let europe = BoxStats::from_series(c.series.iter().find(|s| s.name == "Europe").unwrap());
    let europe = europe.unwrap();
    assert!(!europe.outliers.is_empty());
    let iqr = europe.q3 - europe.q1;
    assert!(
        europe
            .outliers
            .iter()
            .all(|&o| o < europe.q1 - 1.5 * iqr || o > europe.q3 + 1.5 * iqr)
    );
    let out = draw(
        &serde_json::to_string(&chart).unwrap(),
        80,
        "--unicode",
        "never",
    );
    let row = out.lines().find(|l| l.starts_with("Europe")).unwrap();
    assert!(row.contains('•') && row.contains('┃'), "{row}");
}

#[test]
fn the_flags_are_refused_where_they_do_not_apply() {
    let f = "testdata/real/flights.csv";
    let (code, _, err) = parse(&["--chart", "heatmap", "-x", "origin", f]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("-s COLUMN"), "{err}");
    let (code, _, err) = parse(&["--normalize", "row", "-x", "origin", f]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--normalize goes with --chart heatmap"),
        "{err}"
    );
    let (code, _, err) = parse(&[
        "--chart",
        "box",
        "-y",
        "dep_delay",
        "--aggregate",
        "mean",
        f,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--chart box"), "{err}");
}

#[test]
fn every_format_draws_both_kinds() {
    let files = [
        "heatmap.jsonl",
        "heatmap-normalized.jsonl",
        "box.jsonl",
        "box-layers.jsonl",
    ];
    for file in files {
        let input = std::fs::read_to_string(format!("testdata/render/{file}")).unwrap();
        for format in ["svg", "vega-lite", "markdown"] {
            let (code, out, err) =
                support::filter(cargo_bin_cmd!("viz-render"), &["--format", format], &input);
            // Two charts on stdout are two SVG documents, as the warning says.
            let warned =
                err.is_empty() || (format == "svg" && err.contains("several SVG documents"));
            assert!(code == 0 && warned, "{file} {format}: {err}");
            match format {
                "svg" => assert_eq!(out.matches("<svg").count(), 1, "{file}"),
                "vega-lite" => {
                    let specs: Vec<Value> = out
                        .lines()
                        .map(|l| serde_json::from_str(l).unwrap())
                        .collect();
                    assert_eq!(specs.len(), 1);
                    let text = out.as_str();
                    let mark = match file {
                        "box.jsonl" => "\"boxplot\"",     // the rows carried: Vega-Lite's box
                        "box-layers.jsonl" => "\"tick\"", // the numbers, drawn in layers
                        _ => "\"rect\"",
                    };
                    assert!(text.contains(mark), "{file}: {text}");
                }
                _ => assert!(out.contains("| ---: |") || out.contains("---:"), "{out}"),
            }
        }
    }
}

fn label() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ]{0,12}",
        "[日本語😀\u{1b}\u{7f}\r]{0,6}",
        "[a-z]{30,60}"
    ]
}

fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e6..1e6f64,
        Just(0.0),
        Just(f64::MAX),
        Just(f64::MIN),
        0.0..1.0f64
    ]
}

fn heatmap() -> impl Strategy<Value = Chart> {
    let row = (label(), prop::collection::vec((label(), value()), 0..60));
    prop::collection::vec(row, 1..40).prop_map(|rows| Chart {
        chart_type: ChartType::Heatmap,
        series: rows
            .into_iter()
            .map(|(name, cells)| Series {
                name,
                points: cells.into_iter().map(|(l, v)| Point::new(l, v)).collect(),
                facet: None,
            })
            .collect(),
        series_label: Some("rows".into()),
        x_label: Some("columns".into()),
        y_label: Some("count".into()),
        ..Chart::default()
    })
}

fn boxes() -> impl Strategy<Value = Chart> {
    let group = (label(), prop::collection::vec(value(), 1..80));
    prop::collection::vec(group, 1..12).prop_map(|groups| Chart {
        chart_type: ChartType::Box,
        series: groups
            .into_iter()
            .filter_map(|(name, mut v)| Some(BoxStats::of(&mut v)?.series(name)))
            .collect(),
        series_label: Some("group".into()),
        ..Chart::default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(128), ..ProptestConfig::default() })]

    #[test]
    fn any_heatmap_or_box_plot_fits_any_width(
        chart in prop_oneof![heatmap(), boxes()],
        width in 20usize..=200,
        unicode: bool,
        color: bool,
    ) {
        let opts = RenderOptions { width, unicode, color, ..RenderOptions::default() };
        for line in render_chart(&chart, &opts) {
            let plain = gemline::render::text::strip_ansi(&line);
            prop_assert!(plain.width() <= width, "{} > {width}: {plain:?}", plain.width());
            prop_assert!(unicode || line.is_ascii());
            prop_assert!(color || !line.contains('\x1b'));
            prop_assert!(!plain.chars().any(|c| c.is_control()), "{plain:?}");
        }
        let svg = gemline::render::vegalite::chart_spec(&chart);
        prop_assert!(svg.is_object());
    }
}
