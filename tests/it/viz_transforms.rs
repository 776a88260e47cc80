//! The transform flags' contract as a user meets it: a bad --filter or
//! one naming no column is a usage error (exit 2) that names the columns;
//! past --max-groups the input is refused naming the flag (exit 65); flags
//! that do not go together are said; every output of a transformed chart
//! (terminal, SVG, Markdown) names the aggregate; a large scatter is
//! binned and drawn in every format, its Markdown data capped; one column
//! of numbers under its header, or without one, is read (a histogram of
//! it).

use assert_cmd::cargo::cargo_bin_cmd;

use crate::support;

fn parse(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-parse"), args, stdin)
}

fn render(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = support::filter(cargo_bin_cmd!("viz-render"), args, stdin);
    assert_eq!(code, 0, "{err}");
    out
}

const PENGUINS: &str = "testdata/real/penguins.csv";

#[test]
fn a_filter_that_cannot_be_read_or_names_no_column_is_a_usage_error() {
    let (code, _, err) = parse(&["--filter", "species", PENGUINS], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--filter \"species\": no comparison; write COLUMN=VALUE"),
        "{err}"
    );
    let (code, _, err) = parse(&["--filter", "origin~(", PENGUINS], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the regex does not compile"), "{err}");
    let (code, _, err) = parse(&["--filter", "spcies=Adelie", PENGUINS], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--filter \"spcies\": no such column; the columns are 1:\"species\""),
        "{err}"
    );
}

#[test]
fn flags_that_do_not_go_together_are_said() {
    for (args, says) in [
        (&["--bins", "5"][..], "--bins goes with --chart hist"),
        (
            &["--chart", "hist", "--aggregate", "mean"][..],
            "--chart hist counts the rows in each bin",
        ),
        (
            &["--chart", "point", "--time-unit", "year"][..],
            "--chart point draws every row",
        ),
        (
            &["--grammar", "--aggregate", "mean", "-y", "x"][..],
            "cannot be used with",
        ),
    ] {
        let mut all = args.to_vec();
        all.push(PENGUINS);
        let (code, _, err) = parse(&all, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn past_the_group_cap_the_input_is_refused_naming_the_flag() {
    let args = [
        "--aggregate",
        "count",
        "-x",
        "bill_length_mm",
        "--max-groups",
        "50",
        PENGUINS,
    ];
    let (code, out, err) = parse(&args, "");
    assert_eq!((code, out.as_str()), (65, ""), "{err}");
    assert!(
        err.contains("more than 50 groups of \"bill_length_mm\"") && err.contains("--max-groups N"),
        "{err}"
    );
    let mut args = args.to_vec();
    args[5] = "500";
    assert_eq!(parse(&args, "").0, 0);
}

#[test]
fn every_output_names_the_aggregate() {
    let (code, event, err) = parse(
        &[
            "--aggregate",
            "mean",
            "-x",
            "species",
            "-y",
            "bill_length_mm",
            PENGUINS,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    for format in ["terminal", "svg", "markdown", "vega-lite"] {
        let out = render(&["--format", format, "--color", "never"], &event);
        assert!(out.contains("mean(bill_length_mm)"), "{format}: {out}");
    }
}

#[test]
fn a_large_scatter_is_binned_and_drawn_in_every_format() {
    let mut csv = String::from("x,y\n");
    for i in 0..20_000u32 {
        let x = f64::from(i % 1000) / 10.0;
        csv.push_str(&format!(
            "{x},{}\n",
            (x / 7.0).sin() * 10.0 + f64::from(i % 13)
        ));
    }
    let (code, event, err) = parse(&["--chart", "point", "-x", "x", "-y", "y"], &csv);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("20,000 points binned onto a grid"), "{err}");
    let v: serde_json::Value = serde_json::from_str(event.trim()).unwrap();
    let pts = v["series"][0]["points"].as_array().unwrap();
    let rows: u64 = pts.iter().map(|p| p["count"].as_u64().unwrap()).sum();
    assert_eq!(rows, 20_000);
    let text = render(&["--color", "never", "--width", "60"], &event);
    assert!(text.lines().count() > 10, "{text}");
    let ascii = render(&["--color", "never", "--ascii", "--width", "60"], &event);
    assert!(
        ascii.contains('@'),
        "the crowded cells are the darkest: {ascii}"
    );
    let md = render(&["--format", "markdown"], &event);
    assert!(md.contains("mermaid has no point mark"), "{md}");
    assert!(md.contains("more rows (a scatter's points)"), "{md}");
    let svg = render(&["--format", "svg"], &event);
    // Each cell a filled square, shaded by its rows.
    assert!(svg.matches("<rect").count() > 100, "{svg}");
    let vl = render(&["--format", "vega-lite"], &event);
    assert!(vl.contains("\"size\":{\"field\":\"count\""), "{vl}");
}

/// A million points, nine in ten crowded into a small square near
/// (10, 10), the rest spread evenly over 0..100 × 0..100.
fn crowded_cloud(n: u32) -> String {
    let mut csv = String::with_capacity(n as usize * 14);
    csv.push_str("x,y\n");
    let mut seed = 7u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    for i in 0..n {
        let (x, y) = if i % 10 == 0 {
            (next() * 100.0, next() * 100.0)
        } else {
            (10.0 + next() * 2.0, 10.0 + next() * 2.0)
        };
        csv.push_str(&format!("{x:.3},{y:.3}\n"));
    }
    csv
}

#[test]
fn a_million_points_are_a_few_thousand_cells_and_crowded_places_stay_visible() {
    let (code, event, err) = parse(
        &["--chart", "point", "-x", "x", "-y", "y"],
        &crowded_cloud(1_000_000),
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("1,000,000 points binned onto a grid"), "{err}");
    // What viz-render reads stays small: a few thousand cells (the grid
    // is about a terminal chart's dots), not tens of thousands.
    assert!(event.len() < 400_000, "{} bytes", event.len());
    let v: serde_json::Value = serde_json::from_str(event.trim()).unwrap();
    let pts = v["series"][0]["points"].as_array().unwrap();
    assert!(pts.len() <= 128 * 48, "{} cells", pts.len());
    let cell = v["meta"]["cell"].as_array().expect("the cell size");
    assert!(cell.iter().all(|c| c.as_f64().unwrap() > 0.0), "{cell:?}");
    let at = |p: &serde_json::Value| {
        (
            p["x"].as_f64().unwrap(),
            p["value"].as_f64().unwrap(),
            p["count"].as_u64().unwrap(),
        )
    };
    assert_eq!(pts.iter().map(|p| at(p).2).sum::<u64>(), 1_000_000);
    // The crowd is a few cells holding its 900,000 rows, the fullest of
    // all; the spread points still reach every corner.
    let crowd: u64 = pts
        .iter()
        .map(at)
        .filter(|&(x, y, _)| (9.0..13.0).contains(&x) && (9.0..13.0).contains(&y))
        .map(|(_, _, n)| n)
        .sum();
    assert!(crowd >= 900_000, "{crowd}");
    let fullest = pts.iter().map(at).max_by_key(|p| p.2).unwrap();
    assert!((9.0..13.0).contains(&fullest.0), "{fullest:?}");
    for (cx, cy) in [(5.0, 5.0), (95.0, 5.0), (5.0, 95.0), (95.0, 95.0)] {
        assert!(
            pts.iter()
                .map(at)
                .any(|(x, y, _)| (x - cx).abs() < 5.0 && (y - cy).abs() < 5.0),
            "nothing near ({cx}, {cy})"
        );
    }
    // Drawn: the crowd the few darkest characters in ASCII over a lighter
    // spread, and the terminal's spread filled in (cells, not a lattice
    // of dots).
    let ascii = render(&["--color", "never", "--ascii", "--width", "80"], &event);
    let (dark, light) = (ascii.matches('@').count(), ascii.matches('+').count());
    assert!((1..=8).contains(&dark) && light > 500, "{ascii}");
    let text = render(&["--color", "never", "--width", "160"], &event);
    let full = text.matches('\u{28FF}').count();
    assert!(full > 1_000, "{full} full braille cells: {text}");
}

/// The values a histogram's bins count, all together.
fn counted(chart: &serde_json::Value) -> f64 {
    chart["series"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["value"].as_f64().unwrap())
        .sum()
}

#[test]
fn one_column_of_numbers_under_its_header_is_a_histogram() {
    // As `cut -d, -f3 flights.csv | viz-parse --chart hist` gives it: a
    // header, numbers, a missing value (said, not lost silently).
    let input = "dep_delay\n-3\n0\n2\nNA\n7\n12\n15\n31\n";
    let (code, out, err) = parse(&["--chart", "hist"], input);
    assert_eq!(code, 0, "{err}");
    let chart: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(chart["chartType"], "hist", "{out}");
    assert_eq!(chart["xLabel"], "dep_delay", "{out}");
    assert_eq!(counted(&chart), 7.0, "{out}");
    assert!(err.contains("\"NA\""), "{err}");
    // A sentence above a number is still prose, not a header.
    let (code, _, err) = parse(&["--chart", "hist"], "The results are in.\n12\n");
    assert_ne!(code, 0, "{err}");
}

#[test]
fn a_headerless_file_of_one_number_a_line_is_a_histogram_of_every_line() {
    // lowcharts' input (`lowcharts hist values.txt`): no header, one number
    // a line, large enough to be read ahead on the workers through mapped
    // windows. Every line is counted (the first is no header), and a
    // stray word is said with its line and skipped.
    let dir = support::temp_dir("headerless-hist");
    let path = dir.join("values.txt");
    let mut text = String::new();
    for i in 0..60_000u32 {
        if i == 41_234 {
            text.push_str("oops\n");
        } else {
            text.push_str(&format!("{}.{}\n", i % 100, i % 7));
        }
    }
    std::fs::write(&path, &text).unwrap();
    let (code, out, err) = parse(&["--chart", "hist", path.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    let chart: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(chart["chartType"], "hist", "{out}");
    let points = chart["series"][0]["points"].as_array().unwrap();
    assert_eq!(counted(&chart), 59_999.0, "{out}");
    // 0.0 (the first line) is in the first bin, whose edges hold 0..5.
    assert_eq!(points[0]["x"], 0.0, "{out}");
    assert_eq!(points[0]["value"], 3_000.0, "{out}");
    assert!(
        err.contains("line 41235") && err.contains("\"oops\""),
        "{err}"
    );
    // A word among the first lines (the ones looked at to tell the
    // format) is skipped the same way, not taken for prose.
    let (code, out, err) = parse(&["--chart", "hist"], "1.5\n2\nx\n4\n2.5\n");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("line 3") && err.contains("\"x\""), "{err}");
    let chart: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(counted(&chart), 4.0, "{out}");
}
