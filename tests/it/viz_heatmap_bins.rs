//! `--chart heatmap` of binned numbers (issue 36): where -x or -s is a
//! column of numbers (more values than its bins, or any with `--bins`),
//! viz-parse bins it on Vega's nice edges and each cell is a count or an
//! `--aggregate` that merges. On the real-data excerpts of testdata/real:
//! the cells checked against the rows, snapshots at widths 20 to 200 in
//! Unicode and ASCII (colour on and off), every bin drawn in numeric
//! order, the empty ones too (terminal, SVG, Markdown), the Vega-Lite
//! export binning the same axes (validated, compiled and rendered by the
//! real Vega tools, which compute the same cells from the rows), the
//! aggregates that do not merge refused, and generated numbers drawn
//! within any width.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::Value;
use unicode_width::UnicodeWidthStr;

use crate::support;

const PENGUINS: &str = "testdata/real/penguins.csv";
const GAPMINDER: &str = "testdata/real/gapminder.csv";
const WEATHER: &str = "testdata/real/seattle-weather.csv";

use crate::viz_scales_calendar::{event, parse, render};

/// A command line's words.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The series' names: the rows down.
fn names(chart: &Value) -> Vec<&str> {
    chart["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect()
}

fn json(event: &str) -> Value {
    serde_json::from_str(event.lines().next().unwrap()).unwrap()
}

/// The chart drawn at each width, Unicode and ASCII, colour off (and on
/// at 80 columns): each line within the width, ASCII output ASCII.
fn snapshots(event: &str, name: &str) {
    for w in [20, 40, 80, 200] {
        for (mode, tag) in [("--unicode", "unicode"), ("--ascii", "ascii")] {
            let args = [mode, "--color", "never", "--width", &w.to_string()];
            let (code, out, err) = render(&args, event);
            assert_eq!((code, err.as_str()), (0, ""), "{name} {tag} {w}");
            for line in out.lines() {
                assert!(line.width() <= w, "{name} at {w}: too wide: {line:?}");
            }
            if tag == "ascii" {
                assert!(out.is_ascii(), "{name} --ascii: {out}");
            }
            insta::assert_snapshot!(format!("{name}_{tag}_{w}"), out);
        }
    }
    let (code, out, _) = render(&["--color", "always", "--width", "80"], event);
    assert_eq!(code, 0);
    assert!(out.contains("\x1b[48;5;"), "{name}: no colour: {out}");
    insta::assert_snapshot!(format!("{name}_colour_80"), out);
}

/// The numbers in a column of a CSV file (a header first).
fn column(file: &str, name: &str) -> Vec<Option<f64>> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut lines = text.lines();
    let at = lines
        .next()
        .unwrap()
        .split(',')
        .position(|h| h == name)
        .unwrap();
    lines
        .map(|l| l.split(',').nth(at).and_then(|c| c.parse().ok()))
        .collect()
}

/// A binned axis of the chart: (start, step, count).
fn axis(chart: &Value, which: &str) -> (f64, f64, usize) {
    let b = &chart["bins"][which];
    (
        b["start"].as_f64().unwrap(),
        b["step"].as_f64().unwrap(),
        b["count"].as_u64().unwrap() as usize,
    )
}

#[test]
fn two_numbers_of_real_penguins_are_binned_and_every_row_counted() {
    let mut args = words("--chart heatmap -x bill_length_mm -s flipper_length_mm");
    args.push(PENGUINS);
    let e = event(&args, "");
    let chart = json(&e);
    assert_eq!(chart["chartType"], "heatmap");
    // Vega's rule for 32.1..59.6 in at most 10 bins, 172..231 in 20.
    assert_eq!(axis(&chart, "x"), (30.0, 5.0, 6));
    assert_eq!(axis(&chart, "series"), (170.0, 5.0, 13));
    // Each cell counts the rows whose two numbers fall in it.
    let xs = column(PENGUINS, "bill_length_mm");
    let ys = column(PENGUINS, "flipper_length_mm");
    let mut want = vec![vec![0u32; 6]; 13];
    for (x, y) in xs.iter().zip(&ys) {
        if let (Some(x), Some(y)) = (x, y) {
            want[((y - 170.0) / 5.0) as usize][((x - 30.0) / 5.0) as usize] += 1;
        }
    }
    let mut total = 0.0;
    let series = chart["series"].as_array().unwrap();
    assert_eq!(names(&chart)[..3], ["170 – 175", "175 – 180", "180 – 185"]);
    for s in series {
        let r = (s["name"].as_str().unwrap()[..3].parse::<f64>().unwrap() - 170.0) / 5.0;
        let mut last = f64::NEG_INFINITY;
        for p in s["points"].as_array().unwrap() {
            let x = p["x"].as_f64().unwrap();
            assert!(x > last, "columns in numeric order: {s}");
            last = x;
            assert_eq!(p["x2"].as_f64().unwrap(), x + 5.0);
            assert_eq!(p["label"], format!("{x} – {}", x + 5.0));
            let v = p["value"].as_f64().unwrap();
            assert_eq!(v, f64::from(want[r as usize][((x - 30.0) / 5.0) as usize]));
            total += v;
        }
    }
    assert_eq!(total, 342.0, "344 penguins, two without measures");
    snapshots(&e, "heatmap_bins_penguins");
}

#[test]
fn a_binned_axis_beside_categories_takes_an_aggregate_and_bins() {
    // Life expectancy binned across, the continents down, each cell the
    // mean GDP per head.
    let base = words("--chart heatmap -x lifeExp -s continent -y gdpPercap");
    let mut args = base.to_vec();
    args.extend(["--aggregate", "mean", GAPMINDER]);
    let chart = json(&event(&args, ""));
    assert!(chart["bins"]["series"].is_null(), "{}", chart["bins"]);
    let (start, step, count) = axis(&chart, "x");
    assert_eq!((start, step), (20.0, 10.0));
    assert!(count <= 10);
    let continents = ["Africa", "Americas", "Asia", "Europe", "Oceania"];
    assert_eq!(names(&chart), continents);
    // --bins sets the bins of each numeric axis.
    args.splice(args.len() - 1..args.len() - 1, ["--bins", "4"]);
    let e = event(&args, "");
    let chart = json(&e);
    assert_eq!(axis(&chart, "x"), (20.0, 20.0, 4));
    snapshots(&e, "heatmap_bins_gapminder");
    // Few numbers stay categories, as before; --bins bins them anyway.
    let mut few = words("--chart heatmap -x year -s species");
    few.push(PENGUINS);
    let chart = json(&event(&few, ""));
    assert!(chart["bins"].is_null(), "{chart}");
    few.extend(["--bins", "2"]);
    assert!(json(&event(&few, ""))["bins"]["x"].is_object());
    // Whole numbers stay categories up to 31 of them (the hours of a
    // day); past that they are binned.
    let args = words("--chart heatmap -x h -s d");
    let rows = |n: u32| -> String {
        let body: String = (0..2 * n)
            .map(|i| format!("{},{}\n", i % n, i % 7))
            .collect();
        format!("h,d\n{body}")
    };
    assert!(json(&event(&args, &rows(24)))["bins"].is_null());
    let chart = json(&event(&args, &rows(40)));
    assert_eq!(axis(&chart, "x"), (0.0, 5.0, 8));
}

#[test]
fn every_bin_is_drawn_in_order_the_empty_ones_too() {
    // Temperatures of 1..4 and 31: the bins between are empty.
    let csv = "t,w,n\n1,1,1\n2,1,1\n3,2,1\n4,2,1\n31,9,1\n";
    let e = event(
        &["--chart", "heatmap", "-x", "t", "-s", "w", "--bins", "10"],
        csv,
    );
    let chart = json(&e);
    assert_eq!(axis(&chart, "x"), (0.0, 5.0, 7));
    assert_eq!(axis(&chart, "series"), (1.0, 1.0, 8));
    let (code, out, _) = render(&["--ascii", "--color", "never", "--width", "120"], &e);
    assert_eq!(code, 0);
    let head = out.lines().find(|l| l.contains("0 - 5")).unwrap();
    let at = |s: &str| head.find(s).unwrap_or_else(|| panic!("{s} in {head}"));
    assert!(
        at("0 - 5") < at("10 - 15") && at("10 - 15") < at("30 - 35"),
        "{out}"
    );
    let rows: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.parse::<u32>().is_ok())
        .collect();
    assert_eq!(rows, ["1", "2", "3", "4", "5", "6", "7", "8"], "{out}");
    // The Markdown report's table and the SVG have the empty bins too.
    let (code, md, _) = render(&["--format", "markdown"], &e);
    assert_eq!(code, 0);
    assert!(md.contains("| 5 – 6 |"), "{md}");
    assert!(md.contains("| 15 – 20 |") || md.contains("15 – 20"), "{md}");
    let (code, svg, _) = render(&["--format", "svg"], &e);
    assert_eq!(code, 0);
    assert!(svg.contains("5 – 6"), "an empty row's name: {svg}");
}

#[test]
fn aggregates_that_do_not_merge_are_refused_naming_the_flag() {
    for op in ["median", "distinct"] {
        let line = "--chart heatmap -x bill_length_mm -s species -y body_mass_g --aggregate";
        let mut args = words(line);
        args.extend([op, PENGUINS]);
        let (code, out, err) = parse(&args, "");
        assert_eq!(code, 2, "{op}: {err}");
        assert!(out.is_empty());
        assert!(err.contains(&format!("--aggregate {op}")), "{err}");
        assert!(err.contains("column \"bill_length_mm\""), "{err}");
        assert!(err.contains("count, sum, mean, min or max"), "{err}");
    }
    // Categories on both axes still take a median.
    let line = "--chart heatmap -x island -s species -y body_mass_g --aggregate median";
    let mut args = words(line);
    args.push(PENGUINS);
    let (code, _, err) = parse(&args, "");
    assert_eq!(code, 0, "{err}");
    // Small multiples would bin each panel on edges of its own.
    let mut args = words("--chart heatmap -x bill_length_mm -s flipper_length_mm --facet sex");
    args.push(PENGUINS);
    let (code, _, err) = parse(&args, "");
    assert_eq!(code, 2);
    assert!(
        err.contains("--facet with a heatmap of binned numbers"),
        "{err}"
    );
    let (code, _, err) = parse(&["--chart", "bar", "--bins", "5", PENGUINS], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("--bins goes with --chart hist or --chart heatmap"),
        "{err}"
    );
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Vega's cells (from tests/vega/values.mjs) and ours, as (x start,
/// row, value): the row a bin's start or a category.
fn same_cells(chart: &Value, rows: &[Value]) {
    let binned_rows = chart["bins"]["series"].is_object();
    let mut ours: Vec<(String, String, f64)> = Vec::new();
    for s in chart["series"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        let row = match binned_rows {
            true => name
                .split(" – ")
                .next()
                .unwrap()
                .parse::<f64>()
                .unwrap()
                .to_string(),
            false => name.to_string(),
        };
        for p in s["points"].as_array().unwrap() {
            let x = p["x"].as_f64().unwrap().to_string();
            ours.push((x, row.clone(), p["value"].as_f64().unwrap()));
        }
    }
    let mut theirs: Vec<(String, String, f64)> = rows
        .iter()
        .map(|r| {
            let row = match &r["series"] {
                Value::String(s) => s.clone(),
                n => n.as_f64().unwrap().to_string(),
            };
            let x = r["label"].as_f64().unwrap().to_string();
            (x, row, r["value"].as_f64().unwrap())
        })
        .collect();
    let key = |c: &(String, String, f64)| (c.0.clone(), c.1.clone());
    ours.sort_by_key(key);
    theirs.sort_by_key(key);
    assert_eq!(ours.len(), theirs.len(), "ours {ours:?}\nvega {theirs:?}");
    for (o, t) in ours.iter().zip(&theirs) {
        assert_eq!((&o.0, &o.1), (&t.0, &t.1), "ours {ours:?}\nvega {theirs:?}");
        assert!(
            (o.2 - t.2).abs() <= 1e-9 * o.2.abs().max(1.0),
            "{o:?} vega {t:?}"
        );
    }
}

#[test]
fn vega_lite_bins_the_same_axes_and_the_real_vega_tools_compute_the_same_cells() {
    let cases: [&[&str]; 3] = [
        &["-x", "bill_length_mm", "-s", "flipper_length_mm", PENGUINS],
        &[
            "-x",
            "temp_max",
            "-s",
            "weather",
            "-y",
            "precipitation",
            "--aggregate",
            "sum",
            WEATHER,
        ],
        &[
            "-x",
            "lifeExp",
            "-s",
            "year",
            "-y",
            "pop",
            "--aggregate",
            "max",
            "--bins",
            "6",
            GAPMINDER,
        ],
    ];
    let dir = root().join("target/vega/heatmap-bins");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    let mut charts = Vec::new();
    for (k, case) in cases.iter().enumerate() {
        let mut args = vec!["--chart", "heatmap"];
        args.extend(*case);
        let e = event(&args, "");
        let (code, vl, err) = render(&["--format", "vega-lite"], &e);
        assert_eq!((code, err.as_str()), (0, ""));
        let spec: Value = serde_json::from_str(vl.trim()).unwrap();
        assert_eq!(spec["encoding"]["x"]["bin"]["binned"], true, "{spec}");
        assert_eq!(spec["encoding"]["x"]["type"], "quantitative");
        let bins = spec["transform"].as_array().unwrap();
        assert!(
            bins.iter().any(|t| t["bin"]["maxbins"].is_number()),
            "{spec}"
        );
        let dest = dir.join(format!("{k}.vl.jsonl"));
        std::fs::write(&dest, &vl).unwrap();
        files.push(dest);
        charts.push(json(&e));
    }
    // Past 5,000 rows the points are the data: the binned fields are
    // the bins' edges. (Seattle's weather twenty times over.)
    let weather = std::fs::read_to_string(WEATHER).unwrap();
    let body: String = weather.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let big = format!("{}\n{}", weather.lines().next().unwrap(), body.repeat(20));
    let e = event(
        &["--chart", "heatmap", "-x", "temp_max", "-s", "wind"],
        &big,
    );
    let (code, vl, _) = render(&["--format", "vega-lite"], &e);
    assert_eq!(code, 0);
    let spec: Value = serde_json::from_str(vl.trim()).unwrap();
    assert!(spec["transform"].is_null(), "the points are the data");
    let first = &spec["data"]["values"][0];
    assert!(
        first["label_end"].is_number() && first["series_end"].is_number(),
        "{first}"
    );
    let dest = dir.join("big.vl.jsonl");
    std::fs::write(&dest, &vl).unwrap();
    files.push(dest);
    let Some(modules) = crate::viz_render_vegalite::vega_tools() else {
        return;
    };
    support::node_check("tests/vega/check.mjs", &modules, &files, files.len());
    for (spec, chart) in files.iter().zip(&charts) {
        let rows = crate::viz_render_vegalite::vega_values(&modules, spec);
        same_cells(chart, &rows);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: crate::support::proptest_cases(24), ..ProptestConfig::default() })]

    /// Any numbers on two axes, binned by viz-parse, draw within any
    /// width, Unicode or ASCII, colour or not, without a panic.
    #[test]
    fn generated_numbers_binned_draw_within_the_width(
        rows in prop::collection::vec((
            prop_oneof![-1e9..1e9f64, -1.0..1.0f64, Just(0.0), 1e300..1e301f64],
            prop_oneof![-1e6..1e6f64, 0.0..0.001f64, Just(7.0)],
        ), 1..300),
        bins in prop::option::of(1u16..=200),
        width in 20usize..=200,
        unicode: bool,
        color: bool,
    ) {
        let csv: String = std::iter::once("a,b\n".to_string())
            .chain(rows.iter().map(|(a, b)| format!("{a},{b}\n")))
            .collect();
        let n = bins.map(|b| b.to_string());
        let mut args = vec!["--chart", "heatmap", "-x", "a", "-s", "b"];
        if let Some(n) = &n {
            args.extend(["--bins", n.as_str()]);
        }
        let (code, event, err) = parse(&args, &csv);
        prop_assert_eq!(code, 0, "{}", err);
        let chart = json(&event);
        let total: f64 = chart["series"].as_array().unwrap().iter()
            .flat_map(|s| s["points"].as_array().unwrap())
            .map(|p| p["value"].as_f64().unwrap())
            .sum();
        prop_assert_eq!(total, rows.len() as f64, "every row counted once");
        let w = width.to_string();
        let mode = if unicode { "--unicode" } else { "--ascii" };
        let colour = if color { "always" } else { "never" };
        let (code, out, err) = render(&[mode, "--color", colour, "--width", &w], &event);
        prop_assert_eq!(code, 0, "{}", err);
        for line in out.lines() {
            let plain = gemline::render::text::strip_ansi(line);
            prop_assert!(plain.width() <= width, "{} > {width}: {plain:?}", plain.width());
            prop_assert!(unicode || line.is_ascii());
        }
    }
}

#[test]
fn a_long_heatmap_of_categories_read_ahead_counts_every_row() {
    // 60,000 rows of hour by day (the fast lane reads them ahead, keyed
    // by the day), with a day first met past the sample, rows whose
    // value is no number and a row without an hour: each cell's count
    // and sum as the rows give them.
    let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    let mut csv = String::from("hour,day,value\n");
    let mut counts = std::collections::BTreeMap::new();
    let mut sums = std::collections::BTreeMap::new();
    for i in 0u32..60_000 {
        let hour = (i * 7 + i / 13) % 24;
        let day = if i > 40_000 && i % 5 == 0 {
            "Holiday"
        } else {
            days[(i % 7) as usize]
        };
        let value = if i % 997 == 0 {
            "n/a".to_string()
        } else {
            format!("{}", i % 10)
        };
        csv.push_str(&format!("{hour},{day},{value}\n"));
        *counts.entry((day, hour.to_string())).or_insert(0.0) += 1.0;
        if let Ok(v) = value.parse::<f64>() {
            *sums.entry((day, hour.to_string())).or_insert(0.0) += v;
        }
    }
    csv.push_str(",Mon,1\n");
    *counts.entry(("Mon", "(empty)".into())).or_insert(0.0) += 1.0;
    *sums.entry(("Mon", "(empty)".into())).or_insert(0.0) += 1.0;
    let dir = root().join("target/heatmap-bins");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hours.csv");
    std::fs::write(&file, &csv).unwrap();
    let path = file.to_string_lossy().into_owned();
    for (extra, want) in [
        (&[][..], &counts),
        (&["-y", "value", "--aggregate", "sum"][..], &sums),
    ] {
        let mut args = words("--chart heatmap -x hour -s day");
        args.extend(extra);
        args.push(&path);
        let chart = json(&event(&args, ""));
        assert!(chart["bins"].is_null(), "hours stay categories");
        let mut got = std::collections::BTreeMap::new();
        for s in chart["series"].as_array().unwrap() {
            let day = s["name"].as_str().unwrap();
            for p in s["points"].as_array().unwrap() {
                let hour = p["label"].as_str().unwrap().to_string();
                got.insert((day, hour), p["value"].as_f64().unwrap());
            }
        }
        assert_eq!(&got, want, "{extra:?}");
    }
}
