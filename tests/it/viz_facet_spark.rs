//! Small multiples (`viz-parse --facet`) and sparklines (`--chart spark`),
//! issue 36, end to end through the real binaries on testdata/real: the
//! terminal at widths 20 to 200 in Unicode and ASCII (snapshots), colour,
//! a CI log, Markdown, SVG, and the Vega-Lite export judged by the real
//! Vega tools (tests/vega/check.mjs, as viz_render_vegalite does); and a
//! property test that any faceted or sparkline chart draws within the
//! width without panicking.

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use gemline::render::{RenderOptions, render_chart};
use gemline::spec::{Chart, ChartType, Facet, FacetScales, Point, Series};
use proptest::prelude::*;
use serde_json::Value;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use crate::support;

const WIDTHS: [usize; 5] = [20, 40, 80, 132, 200];

fn parse(args: &[&str]) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-parse"), args, "")
}

fn render(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-render"), args, stdin)
}

/// The chart event viz-parse writes for these flags (it must succeed).
fn event(args: &[&str]) -> String {
    let (code, out, err) = parse(args);
    assert_eq!(code, 0, "viz-parse {args:?}: {err}");
    out
}

/// Terminal lines fit the width and keep the mode's promises.
fn check_drawn(text: &str, width: usize, ascii: bool, what: &str) {
    for line in text.lines() {
        let plain = gemline::render::text::strip_ansi(line);
        let by_char: usize = plain.chars().map(|c| c.width().unwrap_or(0)).sum();
        assert!(
            by_char.max(plain.width()) <= width,
            "{what} at {width}: too wide: {plain:?}"
        );
        assert_eq!(line, line.trim_end(), "trailing blanks in {line:?}");
    }
    if ascii {
        assert!(text.is_ascii(), "{what} --ascii: non-ASCII output");
    }
}

fn snapshots(name: &str, stream: &str) {
    for w in WIDTHS {
        for (mode, tag) in [("--unicode", "unicode"), ("--ascii", "ascii")] {
            let (code, out, err) = render(
                &[mode, "--color", "never", "--width", &w.to_string()],
                stream,
            );
            assert_eq!((code, err.as_str()), (0, ""), "{name} {tag} {w}");
            check_drawn(&out, w, tag == "ascii", name);
            insta::assert_snapshot!(format!("{name}_{tag}_{w}"), out);
        }
    }
}

/// testdata/real/stocks.csv's price by date, with these flags.
fn stocks(flags: &[&str]) -> String {
    let mut args = vec!["testdata/real/stocks.csv", "-x", "date", "-y", "price"];
    args.extend_from_slice(flags);
    event(&args)
}

fn stocks_facet() -> String {
    stocks(&["--facet", "symbol", "--title", "Stock prices"])
}

fn stocks_spark() -> String {
    stocks(&[
        "-s",
        "symbol",
        "--chart",
        "spark",
        "--title",
        "Stock prices",
    ])
}

#[test]
fn facet_lines_snapshots_at_every_width() {
    let stream = stocks_facet();
    let v: Value = serde_json::from_str(stream.lines().next().unwrap()).unwrap();
    assert_eq!(v["facet"]["field"], "symbol");
    assert_eq!(v["facet"]["scales"], "shared");
    let panels: Vec<&str> = v["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["facet"].as_str().unwrap())
        .collect();
    assert_eq!(panels, ["MSFT", "AMZN", "IBM", "GOOG", "AAPL"]);
    snapshots("facet_stocks", &stream);
}

#[test]
fn spark_snapshots_at_every_width() {
    let stream = stocks_spark();
    let v: Value = serde_json::from_str(stream.lines().next().unwrap()).unwrap();
    assert_eq!(v["chartType"], "spark");
    assert_eq!(v["series"].as_array().unwrap().len(), 5);
    snapshots("spark_stocks", &stream);
}

#[test]
fn shared_scales_give_every_panel_the_same_ticks_and_free_ones_their_own() {
    let draw = |scales: &str| {
        let stream = stocks(&[
            "--facet",
            "symbol",
            "--facet-columns",
            "1",
            "--facet-scales",
            scales,
        ]);
        let (code, out, err) = render(&["--width", "60", "--color", "never"], &stream);
        assert_eq!(code, 0, "{err}");
        out
    };
    // The top tick of each panel's y axis: the first line with a tick.
    let tops = |out: &str| -> Vec<String> {
        let mut tops = Vec::new();
        let mut want = false;
        for l in out.lines() {
            if l.starts_with("symbol: ") {
                want = true;
            } else if want && l.contains('┤') {
                tops.push(l.split('┤').next().unwrap().trim().to_string());
                want = false;
            }
        }
        tops
    };
    let shared = tops(&draw("shared"));
    assert_eq!(shared.len(), 5, "{shared:?}");
    assert!(shared.iter().all(|t| *t == shared[0]), "{shared:?}");
    let free = tops(&draw("free"));
    assert_eq!(free.len(), 5, "{free:?}");
    assert!(free.iter().any(|t| *t != free[0]), "{free:?}");
}

#[test]
fn facet_columns_lay_the_panels_out_and_the_width_caps_them() {
    let stream = stocks_facet();
    let titles_a_row = |args: &[&str]| -> Vec<usize> {
        let (code, out, err) = render(args, &stream);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .map(|l| l.matches("symbol: ").count())
            .filter(|&n| n > 0)
            .collect()
    };
    assert_eq!(titles_a_row(&["--width", "200"]), [5]);
    assert_eq!(titles_a_row(&["--width", "80"]), [4, 1]);
    let two = stocks(&["--facet", "symbol", "--facet-columns", "2"]);
    let (code, out, _) = render(&["--width", "200"], &two);
    assert_eq!(code, 0);
    let rows: Vec<usize> = out
        .lines()
        .map(|l| l.matches("symbol: ").count())
        .filter(|&n| n > 0)
        .collect();
    assert_eq!(rows, [2, 2, 1]);
}

/// testdata/real/penguins.csv's body mass by bill length, a scatter, with
/// these flags.
fn penguins_scatter(flags: &[&str]) -> String {
    let mut args = vec![
        "testdata/real/penguins.csv",
        "-x",
        "bill_length_mm",
        "-y",
        "body_mass_g",
        "--chart",
        "point",
    ];
    args.extend_from_slice(flags);
    event(&args)
}

#[test]
fn real_data_facet_of_a_scatter_and_colour() {
    let stream = penguins_scatter(&["--facet", "species"]);
    let (code, out, err) = render(&["--width", "100", "--color", "always"], &stream);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains('\x1b'), "no colour");
    check_drawn(&out, 100, false, "penguins facet");
    let plain = gemline::render::text::strip_ansi(&out);
    for s in ["species: Adelie", "species: Gentoo", "species: Chinstrap"] {
        assert!(plain.contains(s), "{s} missing:\n{plain}");
    }
    // The axes' titles once for the grid, not once a panel.
    assert_eq!(plain.matches("body_mass_g").count(), 1, "{plain}");
    assert_eq!(plain.matches("bill_length_mm").count(), 1, "{plain}");
}

#[test]
fn real_data_spark_of_several_columns_in_a_ci_log_and_markdown() {
    let stream = event(&[
        "testdata/real/seattle-weather.csv",
        "-x",
        "date",
        "-y",
        "temp_max",
        "-y",
        "temp_min",
        "-y",
        "wind",
        "--chart",
        "spark",
    ]);
    let (code, out, err) = render(&["--format", "github", "--width", "70"], &stream);
    assert_eq!((code, err.as_str()), (0, ""));
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("temp_max") || l.starts_with("temp_min") || l.starts_with("wind"))
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    // temp_max over 2012: its max is the file's 34.4 (16 August), its min -1.1.
    assert!(
        rows[0].contains("34.4") && rows[0].contains("-1.1"),
        "{out}"
    );
    assert!(rows[0].chars().any(|c| ('▁'..='█').contains(&c)), "{out}");
    let (code, md, _) = render(&["--format", "markdown"], &stream);
    assert_eq!(code, 0);
    assert!(
        md.contains("| series | sparkline | last | min | max |"),
        "{md}"
    );
    assert!(
        md.lines()
            .any(|l| l.starts_with("| temp_max | ▁") || l.starts_with("| temp_max |")),
        "{md}"
    );
    assert!(!md.contains("mermaid"), "{md}");
}

#[test]
fn facet_markdown_is_a_section_a_panel_and_svg_a_grid() {
    let stream = stocks_facet();
    let (code, md, _) = render(&["--format", "markdown"], &stream);
    assert_eq!(code, 0);
    let sections: Vec<&str> = md.lines().filter(|l| l.starts_with("#### ")).collect();
    assert_eq!(
        sections,
        [
            "#### symbol: MSFT",
            "#### symbol: AMZN",
            "#### symbol: IBM",
            "#### symbol: GOOG",
            "#### symbol: AAPL"
        ]
    );
    assert_eq!(md.matches("```mermaid").count(), 5, "{md}");
    let (code, svg, err) = render(&["--format", "svg"], &stream);
    assert_eq!((code, err.as_str()), (0, ""));
    // The frame (title) and a picture a panel, nested in one document.
    assert_eq!(svg.matches("<svg x=").count(), 6, "{svg}");
    assert!(svg.contains("symbol: GOOG"));
    assert!(svg.trim_end().ends_with("</svg>"));
}

#[test]
fn a_facet_column_of_too_many_values_or_none_is_refused_naming_it() {
    let (code, _, err) = parse(&[
        "testdata/real/stocks.csv",
        "-x",
        "date",
        "-y",
        "price",
        "--facet",
        "nope",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--facet") && err.contains("nope"), "{err}");
    // A date column has far more than 24 values.
    let (code, _, err) = parse(&["testdata/real/stocks.csv", "-y", "price", "--facet", "date"]);
    assert_eq!(code, 65, "{err}");
    assert!(err.contains("\"date\"") && err.contains("24"), "{err}");
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn vega_lite_facet_and_spark_validate_compile_and_render_with_the_real_vega_tools() {
    let dir = root().join("target/vega/facet");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let free = penguins_scatter(&[
        "--facet",
        "island",
        "--facet-scales",
        "free",
        "--facet-columns",
        "2",
    ]);
    let hist = event(&[
        "testdata/real/penguins.csv",
        "-y",
        "flipper_length_mm",
        "--chart",
        "hist",
        "--facet",
        "species",
    ]);
    let mut files: Vec<PathBuf> = Vec::new();
    for (name, stream) in [
        ("lines", stocks_facet()),
        ("spark", stocks_spark()),
        ("free", free),
        ("hist", hist),
    ] {
        let (code, vl, err) = render(&["--format", "vega-lite"], &stream);
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        let spec: Value = serde_json::from_str(vl.trim()).unwrap();
        match name {
            "spark" => assert_eq!(spec["facet"]["row"]["field"], "series"),
            _ => {
                assert_eq!(spec["facet"]["field"], "facet", "{name}");
                let rows = spec["data"]["values"].as_array().unwrap();
                let ev: Value = serde_json::from_str(stream.trim()).unwrap();
                let points: usize = ev["series"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s["points"].as_array().unwrap().len())
                    .sum();
                assert_eq!(rows.len(), points, "{name}: a row a point");
            }
        }
        assert_eq!(
            spec["resolve"].is_object(),
            name == "free" || name == "spark"
        );
        if name == "free" {
            assert_eq!(spec["columns"], 2);
        }
        let path = dir.join(format!("{name}.vl.jsonl"));
        std::fs::write(&path, &vl).unwrap();
        files.push(path);
    }
    let modules = root().join("target/vega/node");
    let schema = modules.join("node_modules/vega-lite/build/vega-lite-schema.json");
    if support::setup_tool(".ci/setup-vega.sh", "the Vega tools", || schema.exists()).is_none() {
        return;
    }
    support::node_check("tests/vega/check.mjs", &modules, &files, files.len());
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ._-]{0,16}",
        "[日本語テキスト😀é]{0,8}",
        "[a-z\u{1b}\r\n\t]{0,10}",
    ]
}

fn chart() -> impl Strategy<Value = Chart> {
    let point = (name(), -1e6..1e6f64, prop::option::of(-1e3..1e3f64));
    let series = (
        name(),
        prop::collection::vec(point, 0..40),
        prop::option::of("[a-c]{1,2}"),
    )
        .prop_map(|(name, pts, facet)| Series {
            name,
            points: pts
                .into_iter()
                .map(|(label, value, x)| Point {
                    label,
                    value,
                    x,
                    x2: x.map(|x| x + 1.0),
                    count: None,
                })
                .collect(),
            facet,
        });
    (
        0usize..5,
        prop::collection::vec(series, 0..8),
        prop::option::of((name(), prop::option::of(1usize..30), any::<bool>())),
    )
        .prop_map(|(k, series, facet)| Chart {
            chart_type: [
                ChartType::Bar,
                ChartType::Line,
                ChartType::Point,
                ChartType::Hist,
                ChartType::Spark,
            ][k],
            series,
            facet: facet.map(|(field, columns, free)| Facet {
                field,
                columns,
                scales: if free {
                    FacetScales::Free
                } else {
                    FacetScales::Shared
                },
            }),
            ..Chart::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(256), ..ProptestConfig::default() })]

    #[test]
    fn any_facet_or_spark_chart_draws_within_the_width(
        chart in chart(),
        width in 20usize..=200,
        unicode in any::<bool>(),
        color in any::<bool>(),
    ) {
        let opts = RenderOptions { width, unicode, color, ..RenderOptions::default() };
        for line in render_chart(&chart, &opts) {
            let plain = gemline::render::text::strip_ansi(&line);
            let w: usize = plain.chars().map(|c| c.width().unwrap_or(0)).sum();
            prop_assert!(w.max(plain.width()) <= width, "{} > {}: {:?}", w, width, plain);
            if !unicode {
                prop_assert!(line.is_ascii(), "{:?}", line);
            }
            prop_assert!(!plain.chars().any(|c| c.is_control() && c != '\t'), "{:?}", plain);
        }
        let _ = gemline::render::vegalite::chart_spec(&chart);
    }
}

#[test]
fn the_render_visualization_arguments_take_a_spark() {
    let args = r#"{"chartType":"spark","title":"Sales","series":[
        {"name":"north","points":[{"label":"2021","value":120},{"label":"2022","value":135},{"label":"2023","value":150}]},
        {"name":"south","points":[{"label":"2021","value":80},{"label":"2022","value":70},{"label":"2023","value":95}]}]}"#;
    let (code, stream, err) = support::filter(cargo_bin_cmd!("viz-parse"), &[], args);
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, out, _) = render(&["--width", "40", "--color", "never"], &stream);
    assert_eq!(code, 0);
    assert!(out.contains("north ▁▅█  150 120 150"), "{out}");
    assert!(out.contains("south ▄▁█   95  70  95"), "{out}");
}
