//! Issue 36's remainder, end to end: bars on a log or square-root scale
//! (`--scale` on `--chart bar`: from the scale's floor, ticks at powers
//! of ten, non-positive values refused), one value scale shared by the
//! bar and histogram panels of small multiples (and a log axis shared
//! across plot panels), and days and months in calendar order wherever
//! categories are ordered. Snapshots at widths 20 to 200, Unicode and
//! ASCII, colour on and off, on the real-data excerpts of testdata/real;
//! the Vega-Lite export judged by the real Vega tools; generated data
//! drawn within the width without a panic.

use std::path::Path;

use assert_cmd::cargo::cargo_bin_cmd;
use gemline::render::{RenderOptions, render_chart};
use gemline::spec::{Chart, ChartType, Facet, FacetScales, Point, ScaleType, Series};
use proptest::prelude::*;
use serde_json::Value;

use crate::support;
use crate::viz_render_props::check_line;

const WIDTHS: [usize; 5] = [20, 40, 80, 132, 200];
const GAPMINDER: &str = "testdata/real/gapminder.csv";

pub(crate) fn parse(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-parse"), args, stdin)
}

pub(crate) fn render(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-render"), args, stdin)
}

/// viz-parse's event for these flags, which must succeed (notes aside).
pub(crate) fn event(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = parse(args, stdin);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert!(!err.contains("error"), "{args:?}: {err}");
    out
}

/// The chart drawn at each width, Unicode and ASCII, colour off (and on
/// at 80 columns); each line within the width, ASCII output ASCII.
pub(crate) fn snapshots(event: &str, name: &str) {
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
    let (code, out, _) = render(&["--color", "always", "--width", "80"], event);
    assert_eq!(code, 0);
    assert!(out.contains("\x1b["), "{name}: no colour: {out}");
    insta::assert_snapshot!(format!("{name}_colour_80"), out);
}

/// Asia's and Europe's populations in 2007, a bar a country.
fn populations(extra: &[&str]) -> String {
    let mut args = vec![
        "--chart",
        "bar",
        "-x",
        "country",
        "-y",
        "pop",
        "--filter",
        "year = 2007",
        "--filter",
        "continent ~ ^(Asia|Europe)$",
        "--max-points",
        "8",
    ];
    args.extend_from_slice(extra);
    args.push(GAPMINDER);
    event(&args, "")
}

#[test]
fn bars_on_a_log_scale_run_from_its_floor_with_ticks_at_powers_of_ten() {
    let e = populations(&["--scale", "log"]);
    let chart: Value = serde_json::from_str(e.lines().next().unwrap()).unwrap();
    assert_eq!(chart["yScale"], "log");
    snapshots(&e, "log_bars");
    let (_, out, _) = render(&["--color", "never", "--width", "80"], &e);
    // The axis under the bars: a power of ten and the scale said.
    assert!(out.contains("1e6"), "{out}");
    assert!(out.contains("y on a log scale"), "{out}");
    snapshots(&populations(&["--scale", "sqrt"]), "sqrt_bars");
}

#[test]
fn non_positive_bars_on_a_log_scale_are_refused_naming_how_many_and_the_first() {
    let (code, out, err) = parse(
        &["--chart", "bar", "--scale", "log"],
        "team,score\nA,5\nB,0\nC,-2\nD,8\n",
    );
    assert_eq!(code, 65, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("a log scale on y takes values above 0: 2 values are not (the first: label \"B\", y = 0)"),
        "{err}"
    );
    // A square root takes zero, not below.
    let (code, _, err) = parse(
        &["--chart", "bar", "--scale", "sqrt"],
        "team,score\nA,5\nB,0\nC,-2\n",
    );
    assert_eq!(code, 65, "{err}");
    assert!(
        err.contains("1 value is not (the first: label \"C\""),
        "{err}"
    );
    // Stacked bars are lengths end to end: no log scale (a usage error).
    let (code, _, err) = parse(
        &[
            "--chart", "bar", "-s", "g", "--stack", "zero", "--scale", "log",
        ],
        "team,g,score\nA,x,5\nA,y,3\n",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("stacked bars add lengths end to end"), "{err}");
}

#[test]
fn log_bars_in_svg_and_in_vega_lite_that_the_real_vega_tools_compile() {
    let e = populations(&["--scale", "log"]);
    let (code, svg, err) = render(&["--format", "svg"], &e);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(svg.contains("1e6") || svg.contains("1e7"), "{svg}");
    assert!(svg.contains("y on a log scale"), "{svg}");
    // Mermaid's bars are linear: a report shows the data instead.
    let (code, md, _) = render(&["--format", "markdown"], &e);
    assert_eq!(code, 0);
    assert!(
        md.contains("Not drawn: mermaid has no bar chart on a log"),
        "{md}"
    );
    assert!(md.contains("| China |"), "{md}");
    let (code, vl, err) = render(&["--format", "vega-lite"], &e);
    assert_eq!((code, err.as_str()), (0, ""));
    let spec: Value = serde_json::from_str(&vl).unwrap();
    assert_eq!(spec["mark"]["type"], "bar");
    assert_eq!(spec["encoding"]["x"]["scale"]["type"], "log", "{spec}");
    // From the floor the terminal draws from: the power of ten at or
    // below the smallest value (Bosnia and Herzegovina's 4.55M).
    assert_eq!(spec["encoding"]["x"]["scale"]["domainMin"], 1e6, "{spec}");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/vega/issue36-g36");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = vec![dir.join("log_bars.vl.jsonl")];
    std::fs::write(&files[0], vl).unwrap();
    let facet = populations(&["--scale", "log", "--facet", "continent"]);
    let (code, vl, err) = render(&["--format", "vega-lite"], &facet);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(vl.contains(r#""type":"log""#), "{vl}");
    files.push(dir.join("log_bars_facet.vl.jsonl"));
    std::fs::write(&files[1], vl).unwrap();
    let Some(modules) = crate::viz_render_vegalite::vega_tools() else {
        return;
    };
    support::node_check("tests/vega/check.mjs", &modules, &files, files.len());
}

/// The bar drawn for `label` in a drawing: its run of block characters.
fn bar_of(out: &str, label: &str) -> Vec<usize> {
    out.lines()
        .flat_map(|l| {
            l.split("  ")
                .filter(|cell| cell.trim_start().starts_with(label))
                .map(|cell| cell.chars().filter(|c| "█▉▊▋▌▍▎▏#".contains(*c)).count())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn bar_panels_share_one_value_scale_unless_the_scales_are_free() {
    let csv = "panel,item,n\nP,a,10\nP,b,100\nQ,c,10\n";
    let shared = event(
        &[
            "--chart", "bar", "-x", "item", "-y", "n", "--facet", "panel",
        ],
        csv,
    );
    let (_, out, _) = render(&["--ascii", "--color", "never", "--width", "80"], &shared);
    let (a, c) = (bar_of(&out, "a "), bar_of(&out, "c "));
    assert_eq!(a.len(), 1, "{out}");
    // Q's 10 is as long as P's 10, not the whole panel.
    assert_eq!(a, c, "{out}");
    assert!(bar_of(&out, "b ")[0] > 5 * c[0], "{out}");
    // SVG: Q's axis runs to 100 as P's does (P's tick, P's value, Q's tick).
    let (_, svg, _) = render(&["--format", "svg"], &shared);
    let texts: Vec<&str> = svg
        .split("</text>")
        .filter_map(|t| t.rsplit('>').next())
        .map(str::trim)
        .collect();
    assert_eq!(
        texts.iter().filter(|t| **t == "100").count(),
        3,
        "{texts:?}"
    );
    let free = event(
        &[
            "--chart",
            "bar",
            "-x",
            "item",
            "-y",
            "n",
            "--facet",
            "panel",
            "--facet-scales",
            "free",
        ],
        csv,
    );
    let (_, out, _) = render(&["--ascii", "--color", "never", "--width", "80"], &free);
    assert!(bar_of(&out, "c ")[0] > 5 * bar_of(&out, "a ")[0], "{out}");
    // The real data: populations by continent, one scale (and one log
    // scale) across the panels.
    snapshots(&populations(&["--facet", "continent"]), "facet_bars_shared");
    snapshots(
        &populations(&["--facet", "continent", "--scale", "log"]),
        "facet_log_bars_shared",
    );
}

#[test]
fn a_log_axis_is_shared_across_plot_panels() {
    let e = event(
        &[
            "--chart",
            "line",
            "-x",
            "year",
            "-y",
            "pop",
            "-s",
            "country",
            "--filter",
            "country ~ ^(China|Bulgaria)$",
            "--facet",
            "continent",
            "--scale",
            "log",
            GAPMINDER,
        ],
        "",
    );
    let (_, out, _) = render(&["--ascii", "--color", "never", "--width", "120"], &e);
    // China's 1e9 and Bulgaria's 1e6 on each panel's axis.
    let (nine, six) = (out.matches("1e9").count(), out.matches("1e6").count());
    assert!(nine >= 2 && six >= 2, "{out}");
}

#[test]
fn days_and_months_read_in_calendar_order_in_bars_and_heatmaps() {
    let days = "day,n\nSun,3\nMon,5\nTue,2\nFri,7\nWed,1\nThu,4\nSat,6\n";
    let e = event(&["--chart", "bar"], days);
    let chart: Value = serde_json::from_str(e.lines().next().unwrap()).unwrap();
    let labels: Vec<&str> = chart["series"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]);
    // Sorted by value when asked.
    let e = event(&["--chart", "bar", "--sort", "desc"], days);
    assert!(
        e.find("\"Fri\"").unwrap() < e.find("\"Mon\"").unwrap(),
        "{e}"
    );
    // Months, written whole, across a heatmap, and days down it.
    let csv = "day,month\nFriday,March\nMonday,January\nSunday,December\nMonday,March\n\
               Tuesday,September\nFriday,January\n";
    let e = event(&["--chart", "heatmap", "-x", "month", "-s", "day"], csv);
    let chart: Value = serde_json::from_str(e.lines().next().unwrap()).unwrap();
    let rows: Vec<&str> = chart["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(rows, ["Monday", "Tuesday", "Friday", "Sunday"]);
    let (_, out, _) = render(&["--ascii", "--color", "never", "--width", "80"], &e);
    let head = out.lines().find(|l| l.contains("January")).unwrap();
    let at = |m: &str| head.find(m).unwrap();
    assert!(
        at("January") < at("March") && at("March") < at("September"),
        "{out}"
    );
    assert!(at("September") < at("December"), "{out}");
}

fn scaled_chart() -> impl Strategy<Value = (Chart, bool)> {
    let point = ("[a-z]{0,12}", 1e-6..1e12f64);
    let series = (
        "[a-z]{1,6}",
        prop::collection::vec(point, 1..20),
        prop::option::of("[a-c]"),
    )
        .prop_map(|(name, pts, facet)| Series {
            name,
            points: pts
                .into_iter()
                .map(|(label, value)| Point::new(label, value))
                .collect(),
            facet,
        });
    (
        prop::collection::vec(series, 1..5),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(series, log, facet, hist)| {
            let chart = Chart {
                chart_type: if hist {
                    ChartType::Hist
                } else {
                    ChartType::Bar
                },
                y_scale: Some(if log { ScaleType::Log } else { ScaleType::Sqrt }),
                facet: facet.then(|| Facet {
                    field: "f".into(),
                    columns: None,
                    scales: FacetScales::Shared,
                }),
                series,
                ..Chart::default()
            };
            (chart, facet)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: support::proptest_cases(256), ..ProptestConfig::default() })]

    /// Bars of any positive values on a log or square-root scale, alone
    /// or in panels, draw within any width without a panic.
    #[test]
    fn any_scaled_bars_draw_within_the_width(
        (chart, _) in scaled_chart(),
        width in 1usize..=200,
        unicode in any::<bool>(),
        color in any::<bool>(),
    ) {
        let opts = RenderOptions { width, unicode, color, ..RenderOptions::default() };
        for line in render_chart(&chart, &opts) {
            check_line(&line, &opts)?;
        }
    }
}
