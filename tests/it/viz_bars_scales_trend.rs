//! Issue 36's bars of several series (`--stack`), log and square-root
//! scales (`--scale`, `--x-scale`) and trends (`--trend`), end to end:
//! viz-parse on the real-data excerpts of testdata/real, viz-render in
//! every format. Snapshots at widths 20 to 132, Unicode and ASCII (one
//! with colour); the refusals and their exit code; the fit in the event;
//! the Vega-Lite exports judged by the real Vega tools; any generated
//! chart with any drawing within the width without a panic.

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use gemline::render::render_chart;
use gemline::spec::{ChartType, ScaleType, Stack, Trend, TrendMethod};
use proptest::prelude::*;
use serde_json::Value;

use crate::support;
use crate::viz_render_props::{chart, check_line, options};

const WIDTHS: [usize; 4] = [20, 40, 80, 132];

fn parse(args: &[&str]) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-parse"), args, "")
}

fn parse_stdin(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-parse"), args, stdin)
}

fn render(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-render"), args, stdin)
}

/// viz-parse's event for these flags, which must succeed.
fn event(args: &[&str]) -> String {
    let (code, out, err) = parse(args);
    assert_eq!((code, err.as_str()), (0, ""), "{args:?}");
    out
}

fn chart_of(event: &str) -> Value {
    serde_json::from_str(event.lines().next().unwrap()).unwrap()
}

/// The chart drawn at each width, Unicode and ASCII, without colour;
/// each line within the width, ASCII output ASCII.
fn snapshots(event: &str, name: &str) {
    for w in WIDTHS {
        for (mode, tag) in [("--unicode", "unicode"), ("--ascii", "ascii")] {
            let args = [mode, "--color", "never", "--width", &w.to_string()];
            let (code, out, err) = render(&args, event);
            assert_eq!((code, err.as_str()), (0, ""), "{name} {tag} {w}");
            for line in out.lines() {
                let n = unicode_width::UnicodeWidthStr::width(line);
                assert!(n <= w, "{name} at {w}: too wide: {line:?}");
            }
            if tag == "ascii" {
                assert!(out.is_ascii(), "{name} --ascii: {out}");
            }
            insta::assert_snapshot!(format!("{name}_{tag}_{w}"), out);
        }
    }
}

const IOWA: &str = "testdata/real/iowa-electricity.csv";
const GAPMINDER: &str = "testdata/real/gapminder.csv";
const STOCKS: &str = "testdata/real/stocks.csv";

fn iowa(extra: &[&str]) -> String {
    let mut args = vec![
        "--chart",
        "bar",
        "-x",
        "year",
        "-y",
        "net_generation",
        "-s",
        "source",
        "--max-points",
        "4",
        "--keep",
        "last",
    ];
    args.extend_from_slice(extra);
    args.push(IOWA);
    event(&args)
}

#[test]
fn several_series_of_bars_are_grouped_by_default() {
    let e = iowa(&[]);
    let c = chart_of(&e);
    assert_eq!(c["series"].as_array().unwrap().len(), 3);
    assert!(c.get("stack").is_none());
    snapshots(&e, "bars_grouped");
    // The series' colours on: the legend's glyphs in the bars' colours.
    let (_, out, _) = render(&["--unicode", "--color", "always", "--width", "60"], &e);
    insta::assert_snapshot!("bars_grouped_color_60", out);
}

#[test]
fn stacked_bars_are_one_row_a_label_as_long_as_its_sum() {
    let e = iowa(&["--stack", "zero"]);
    assert_eq!(chart_of(&e)["stack"], "zero");
    snapshots(&e, "bars_stacked");
    let (_, out, _) = render(&["--ascii", "--color", "never", "--width", "60"], &e);
    // 2017: 29,329 + 5,214 + 21,933.
    assert!(
        out.contains("2017-01-01") && out.contains("56,476"),
        "{out}"
    );
    assert!(
        out.contains("# Fossil Fuels  = Nuclear Energy  + Renewables"),
        "{out}"
    );
}

#[test]
fn normalized_stacks_fill_the_width_whatever_the_total() {
    let e = iowa(&["--stack", "normalize"]);
    assert_eq!(chart_of(&e)["stack"], "normalize");
    snapshots(&e, "bars_normalized");
    let (_, out, _) = render(&["--ascii", "--color", "never", "--width", "60"], &e);
    let bars: Vec<usize> = out
        .lines()
        .filter(|l| l.starts_with("20"))
        .map(|l| l.chars().filter(|c| "#=+".contains(*c)).count())
        .collect();
    assert_eq!(bars.len(), 4, "{out}");
    assert!(bars.iter().all(|&n| n == bars[0]), "{bars:?}\n{out}");
    // --stack alone asks for bars (-s alone would make lines).
    let (code, e, err) = parse(
        &"-x year -y net_generation -s source --stack normalize testdata/real/iowa-electricity.csv"
            .split(' ')
            .collect::<Vec<_>>(),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(chart_of(&e)["chartType"], "bar");
}

#[test]
fn bars_of_several_series_in_svg_vega_lite_and_markdown() {
    for (flags, stack) in [
        (&[][..], Value::Null),
        (&["--stack", "zero"][..], "zero".into()),
        (&["--stack", "normalize"][..], "normalize".into()),
    ] {
        let e = iowa(flags);
        let (code, svg, err) = render(&["--format", "svg"], &e);
        assert_eq!((code, err.as_str()), (0, ""));
        assert!(svg.contains("Nuclear Energy") && svg.contains("2017-01-01"));
        let (_, vl, _) = render(&["--format", "vega-lite"], &e);
        let vl: Value = serde_json::from_str(&vl).unwrap();
        assert_eq!(vl["encoding"]["x"]["stack"], stack, "{vl}");
        assert_eq!(vl["encoding"]["color"]["field"], "series");
        if stack.is_null() {
            assert_eq!(vl["encoding"]["yOffset"]["field"], "series");
        }
        let (_, md, _) = render(&["--format", "markdown"], &e);
        assert!(
            md.contains("| year | Fossil Fuels | Nuclear Energy | Renewables |"),
            "{md}"
        );
        // Mermaid overlays bars: stacked ones are drawn as running totals,
        // grouped ones are their data.
        if stack.is_null() {
            assert!(md.contains("Not drawn: mermaid has no"), "{md}");
        } else {
            assert!(md.contains("xychart-beta horizontal"), "{md}");
        }
    }
}

#[test]
fn several_value_columns_make_grouped_bars_too() {
    let (code, out, err) = parse_stdin(
        &[
            "--chart", "bar", "-y", "north", "-y", "south", "--stack", "zero",
        ],
        "month,north,south\nJan,3,4\nFeb,5,-2\n",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let c = chart_of(&out);
    assert_eq!(c["series"][1]["name"], "south");
    let (_, text, _) = render(&["--ascii", "--color", "never", "--width", "40"], &out);
    // Feb: 5 right of the axis, -2 left of it, the total 3.
    let feb = text.lines().find(|l| l.starts_with("Feb")).unwrap();
    assert!(feb.contains("=|#") && feb.ends_with(" 3"), "{text}");
}

#[test]
fn stack_without_bars_and_a_table_of_several_series_are_refused() {
    let (code, _, err) = parse(&["--chart", "line", "--stack", "zero", IOWA]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--stack goes with --chart bar"), "{err}");
    let (code, _, err) = parse(&["--chart", "table", "-s", "source", IOWA]);
    assert_eq!(code, 65, "{err}");
    assert!(err.contains("--chart line or bar"), "{err}");
}

#[test]
fn a_log_x_and_a_linear_trend_over_a_real_scatter() {
    let e = event(&[
        "--chart",
        "point",
        "-x",
        "gdpPercap",
        "-y",
        "lifeExp",
        "--x-scale",
        "log",
        "--trend",
        "linear",
        GAPMINDER,
    ]);
    let c = chart_of(&e);
    assert_eq!(c["xScale"], "log");
    let fit = &c["trend"]["fits"][0];
    assert_eq!(c["trend"]["method"], "linear");
    assert!(fit["slope"].as_f64().unwrap() > 0.0, "{fit}");
    let r2 = fit["r2"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&r2), "{fit}");
    snapshots(&e, "scatter_log_trend");
    let (_, out, _) = render(&["--unicode", "--color", "never", "--width", "80"], &e);
    // Powers of ten on the log axis, the fit in the footer.
    assert!(out.contains("1,000") && out.contains("10,000"), "{out}");
    assert!(out.contains("linear trend: y = "), "{out}");
    assert!(out.contains(&format!("r² = {r2:.3}")), "{out}");
    assert!(out.contains("x on a log scale"), "{out}");
}

#[test]
fn the_fit_is_exact_on_a_straight_line() {
    let (code, out, err) = parse_stdin(
        &["--chart", "point", "--trend", "linear"],
        "x,y\n1,3\n2,5\n3,7\n4,9\n",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let fit = chart_of(&out)["trend"]["fits"][0].clone();
    assert_eq!(fit["slope"], 2.0, "{fit}");
    assert_eq!(fit["intercept"], 1.0, "{fit}");
    assert_eq!(fit["r2"], 1.0, "{fit}");
    assert_eq!(fit["n"], 4);
    let (_, text, _) = render(&["--ascii", "--width", "60"], &out);
    assert!(
        text.contains("linear trend: y = 2x + 1, r^2 = 1.000, 4 points"),
        "{text}"
    );
}

#[test]
fn a_loess_trend_on_a_log_line_over_dates() {
    let e = event(&[
        "--chart", "line", "-x", "date", "-y", "price", "-s", "symbol", "--scale", "log",
        "--trend", "loess", STOCKS,
    ]);
    let c = chart_of(&e);
    assert_eq!(c["yScale"], "log");
    assert_eq!(c["trend"]["fits"].as_array().unwrap().len(), 5);
    assert!(c["trend"]["fits"][0].get("slope").is_none());
    snapshots(&e, "line_log_loess");
    let (_, md, _) = render(&["--format", "markdown"], &e);
    assert!(
        md.contains("loess trend: local regression over the nearest 30% of each series' points"),
        "{md}"
    );
    assert!(md.contains("Not drawn"), "{md}");
    let (code, svg, err) = render(&["--format", "svg"], &e);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(svg.contains("y on a log scale"), "{svg}");
}

#[test]
fn non_positive_values_on_a_log_scale_are_refused_naming_how_many_and_the_first() {
    let (code, out, err) = parse_stdin(
        &["--chart", "point", "--scale", "log"],
        "x,y\n1,5\n2,-1\n3,0\n4,8\n",
    );
    assert_eq!(code, 65, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("a log scale on y takes values above 0: 2 values are not (the first: label \"2\", y = -1)"),
        "{err}"
    );
    let (code, _, err) = parse_stdin(
        &["--chart", "point", "--x-scale", "sqrt"],
        "x,y\n-4,5\n2,1\n",
    );
    assert_eq!(code, 65, "{err}");
    assert!(
        err.contains("1 value is not (the first: label \"-4\", x = -4)"),
        "{err}"
    );
    // A hand-written event is refused by viz-render the same way.
    let bad = r#"{"type":"visualization","chartType":"line","yScale":"log","series":[{"name":"a","points":[{"label":"a","value":0}]}],"meta":{"truncated":false,"originalPointCount":1}}"#;
    let (_, out, _) = render(&["--width", "200"], bad);
    assert!(
        out.contains("a log scale on y takes values above 0: 1 value is not"),
        "{out}"
    );
}

#[test]
fn the_vega_lite_exports_validate_compile_and_render_with_the_real_vega_tools() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/vega/issue36");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let events = [
        ("grouped", iowa(&[])),
        ("stacked", iowa(&["--stack", "zero"])),
        ("normalized", iowa(&["--stack", "normalize"])),
        (
            "scatter_log_linear",
            event(&[
                "--chart",
                "point",
                "-x",
                "gdpPercap",
                "-y",
                "lifeExp",
                "--x-scale",
                "log",
                "--trend",
                "linear",
                GAPMINDER,
            ]),
        ),
        (
            "scatter_sqrt_loess",
            event(&[
                "--chart",
                "point",
                "-x",
                "gdpPercap",
                "-y",
                "lifeExp",
                "-s",
                "continent",
                "--scale",
                "sqrt",
                "--trend",
                "loess",
                GAPMINDER,
            ]),
        ),
        (
            "line_dates_log_linear",
            event(&[
                "--chart", "line", "-x", "date", "-y", "price", "-s", "symbol", "--scale", "log",
                "--trend", "linear", STOCKS,
            ]),
        ),
    ];
    let mut files = Vec::new();
    for (name, e) in &events {
        let (code, vl, err) = render(&["--format", "vega-lite"], e);
        assert_eq!((code, err.as_str()), (0, ""), "{name}");
        let spec: Value = serde_json::from_str(&vl).unwrap();
        let text = spec.to_string();
        if name.contains("log") {
            assert!(text.contains(r#""scale":{"type":"log"}"#), "{name}: {text}");
        }
        if name.contains("linear") {
            assert!(text.contains(r#""regression":"value""#), "{name}: {text}");
        }
        if name.contains("loess") {
            assert!(text.contains(r#""loess":"value""#), "{name}: {text}");
        }
        let f = dir.join(format!("{name}.vl.jsonl"));
        std::fs::write(&f, vl).unwrap();
        files.push(f);
    }
    let Some(modules) = crate::viz_render_vegalite::vega_tools() else {
        return;
    };
    support::node_check("tests/vega/check.mjs", &modules, &files, files.len());
}

fn drawing() -> impl Strategy<Value = (u8, u8, u8, u8)> {
    (0u8..3, 0u8..3, 0u8..3, 0u8..3)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: support::proptest_cases(256), ..ProptestConfig::default() })]

    /// Any chart with any drawing, valid or not, draws within the width
    /// without a panic.
    #[test]
    fn any_drawing_fits_any_width(mut c in chart(), opts in options(), d in drawing(), bars in any::<bool>()) {
        let scale = |k: u8| [None, Some(ScaleType::Log), Some(ScaleType::Sqrt)][k as usize];
        if bars {
            c.chart_type = ChartType::Bar;
        }
        c.stack = [None, Some(Stack::Zero), Some(Stack::Normalize)][d.0 as usize];
        c.y_scale = scale(d.1);
        c.x_scale = scale(d.2);
        c.trend = [None, Some(TrendMethod::Linear), Some(TrendMethod::Loess)][d.3 as usize]
            .map(|method| Trend { method, fits: Vec::new() });
        for line in render_chart(&c, &opts) {
            check_line(&line, &opts)?;
        }
    }
}
