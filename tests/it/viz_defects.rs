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

/// The labels of the first series of a chart event.
fn labels(v: &Value) -> Vec<&str> {
    v["series"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["label"].as_str().unwrap())
        .collect()
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
    // A line from a file keeps up to 200 points (the hard cap) by default.
    assert!((30..=200).contains(&pts.len()), "{}", pts.len());
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

/// The columns of the markers (`●`) on each line of a terminal drawing.
fn marker_columns(text: &str) -> Vec<usize> {
    let mut cols: Vec<usize> = text
        .lines()
        .flat_map(|l| {
            l.chars()
                .enumerate()
                .filter(|(_, c)| *c == '●')
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        })
        .collect();
    cols.sort_unstable();
    cols
}

/// Defect 4: a line kept file order when x was a date out of order, and
/// drew irregular gaps in time as even steps (the x axis was ordinal).
#[test]
fn a_line_over_dates_is_in_date_order_and_to_scale() {
    let (ev, err) = parse(&[], "month,v\n2020-01,1\n2020-03,3\n2020-02,2\n");
    let labels = labels(&ev[0]);
    assert_eq!(labels, ["2020-01", "2020-02", "2020-03"]);
    assert!(
        err.contains("not in date order (2020-03 comes before 2020-02)"),
        "{err}"
    );
    assert_eq!(ev[0]["xType"], "date");
    // Two days apart, then five months: the gap shows.
    let input = "date,v\n2020-01-01,1\n2020-01-03,2\n2020-06-01,3\n";
    let (ev, _) = parse(&[], input);
    let x: Vec<f64> = ev[0]["series"][0]["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["x"].as_f64().unwrap())
        .collect();
    assert_eq!(x[1] - x[0], 2.0 * 86_400.0);
    let text = pipe(&[], input, &["--color", "never", "--width", "80"]);
    let cols = marker_columns(&text);
    assert_eq!(cols.len(), 3, "{text}");
    assert!(
        cols[2] - cols[1] > 10 * (cols[1] - cols[0]).max(1),
        "{cols:?}\n{text}"
    );
}

/// Defect 10: dates written like `Jan 1 2000`, newest first, were not
/// reordered (ISO dates were).
#[test]
fn dates_with_month_names_newest_first_are_reordered() {
    let (ev, err) = parse(
        &[],
        "date,price\nMar 1 2000,3\nFeb 1 2000,2\nJan 1 2000,1\n",
    );
    let labels = labels(&ev[0]);
    assert_eq!(labels, ["Jan 1 2000", "Feb 1 2000", "Mar 1 2000"]);
    assert_eq!(ev[0]["chartType"], "line");
    assert!(err.contains("date order"), "{err}");
}

/// Defect 3: years were written with thousands separators: the
/// grammar's ticks (`1,960`), bar values (`2,007`), a line's axis (`2,020`).
#[test]
fn years_are_written_without_separators() {
    let mut rows = String::from("year,v\n");
    for y in 1952..=2007 {
        rows.push_str(&format!("{y},{}\n", (y * 7) % 13));
    }
    let grammar = pipe(
        &["--grammar", "-x", "year", "-y", "v"],
        &rows,
        &["--color", "never"],
    );
    let line = pipe(&[], &rows, &["--color", "never"]);
    // Years are never a value by choice (issue 22); named with -y, they are one.
    let bars = pipe(
        &["-y", "year"],
        "country,year\nA,2007\nB,1952\n",
        &["--color", "never"],
    );
    for (what, text, year) in [
        ("grammar", &grammar, "1960"),
        ("line", &line, "1960"),
        ("bar", &bars, "2007"),
    ] {
        assert!(text.contains(year), "{what}: {text}");
        assert!(
            !text.contains("1,9") && !text.contains("2,0"),
            "{what}: {text}"
        );
    }
}

/// Defect 5: a grammar line over repeated x values stroked back across
/// the plot without a word (gapminder: from 2007 back to 1952). It is
/// said, with the -s that splits it, and drawn in x order.
#[test]
fn a_grammar_line_over_repeated_x_is_said_and_drawn_in_x_order() {
    let rows = "country,year,life\nA,1952,30\nA,2007,70\nB,1952,40\nB,2007,60\n";
    let (_, err) = parse(&["--grammar", "-x", "year", "-y", "life"], rows);
    assert!(
        err.contains("x column \"year\" repeats (1952 is in 2 rows)"),
        "{err}"
    );
    assert!(err.contains("-s \"country\""), "{err}");
    let svg = pipe(
        &["--grammar", "-x", "x", "-y", "y"],
        "x,y\n3,30\n1,10\n2,20\n",
        &["--format", "svg"],
    );
    let line = svg
        .split("<polyline")
        .find(|p| p.contains("stroke-width=\"2\""))
        .expect("the data line");
    let points = line
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let xs: Vec<i32> = points
        .split_whitespace()
        .map(|p| p.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(xs.len(), 3);
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
}

/// Defect 6: grammar bars over repeated categories were summed in the
/// terminal and SVG but overlapped (`stack: null`) in Vega-Lite, and the
/// sum was not named. Every output sums them and says `sum(v)`.
#[test]
fn grammar_bars_over_repeated_categories_are_sums_everywhere() {
    let args = ["--grammar", "-x", "k", "-y", "v"];
    let input = "k,v\na,1\na,2\nb,3\n";
    let text = pipe(&args, input, &["--color", "never"]);
    assert!(text.contains("sum(v)"), "{text}");
    let a_row = text.lines().find(|l| l.starts_with("a ")).unwrap();
    assert!(a_row.trim_end().ends_with(" 3"), "{text}");
    let vl: Value = serde_json::from_str(&pipe(&args, input, &["--format", "vega-lite"])).unwrap();
    let y = &vl["layer"][0]["encoding"]["y"];
    assert_eq!(y["aggregate"], "sum", "{vl}");
    assert_eq!(y["title"], "sum(v)", "{vl}");
    let md = pipe(&args, input, &["--format", "markdown"]);
    assert!(
        md.contains("y-axis \"sum(v)\"") && md.contains("bar \"v\" [3, 3]"),
        "{md}"
    );
    let svg = pipe(&args, input, &["--format", "svg"]);
    assert!(svg.contains("sum(v)"), "{svg}");
}

/// `2000-01-01` plus `day` days, as ISO `YYYY-MM-DD`.
fn iso_day(day: i64) -> String {
    gemline::events::format_rfc3339((10_957 + day) * 86_400, 0)[..10].to_string()
}

/// A kept line of `n` days: the first and the last day, in date order.
fn assert_ends_in_order(kept: &[&str], n: i64) {
    assert!(kept.len() <= 100, "{}", kept.len());
    assert_eq!(kept[0], iso_day(0));
    assert_eq!(kept[kept.len() - 1], iso_day(n - 1));
    assert!(kept.windows(2).all(|w| w[0] < w[1]), "{kept:?}");
}

/// A daily series of `n` days in a shuffled row order (a fixed
/// permutation), each day's value distinct: the CSV and the values by day.
fn shuffled_days(n: i64) -> (String, Vec<f64>) {
    let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % 20_011) as f64).collect();
    let mut csv = String::from("date,v\n");
    for k in 0..n {
        let day = (k * 1447 + 11) % n;
        csv.push_str(&format!("{},{}\n", iso_day(day), values[day as usize]));
    }
    (csv, values)
}

/// A line of `v` over `date`, at most 100 points, by min and max.
const MINMAX_100: [&str; 10] = [
    "--chart",
    "line",
    "-x",
    "date",
    "-y",
    "v",
    "--max-points",
    "100",
    "--downsample",
    "minmax",
];

/// A line over dates out of order and past `--max-points` is reduced as
/// the date-sorted series would be: it was reduced in file order (minmax
/// buckets of file positions, each mixing dates years apart), then sorted,
/// so the first and last dates and each range's extremes were lost.
#[test]
fn a_shuffled_series_is_downsampled_in_date_order() {
    let n = 3000;
    let (csv, values) = shuffled_days(n);
    let (ev, err) = parse(&MINMAX_100, &csv);
    let kept = labels(&ev[0]);
    assert_ends_in_order(&kept, n);
    // minmax: 25 equal ranges of the sorted days, each its first, last,
    // min and max.
    let ranges = 25;
    let mut start = 0usize;
    for r in 0..ranges {
        let end = ((r + 1) * n as usize).div_ceil(ranges);
        let days = start..end;
        let by = |a: &usize, b: &usize| values[*a].total_cmp(&values[*b]);
        let lo = days.clone().min_by(by).unwrap();
        let hi = days.clone().max_by(by).unwrap();
        for d in [lo, hi] {
            assert!(
                kept.contains(&iso_day(d as i64).as_str()),
                "range {r}: day {d} ({}) missing",
                values[d]
            );
        }
        start = end;
    }
    assert!(err.contains("not in date order"), "{err}");
    assert!(!err.contains("x repeats"), "{err}");
}

/// Past the exact window (4,096 rows) the rows are bucketed by date in
/// bounded memory: still the first and last dates, the lowest and highest
/// values, in date order.
#[test]
fn a_long_shuffled_series_keeps_its_ends_and_extremes() {
    let n = 20_000;
    let (csv, values) = shuffled_days(n);
    let (ev, err) = parse(&MINMAX_100, &csv);
    let kept = labels(&ev[0]);
    assert_ends_in_order(&kept, n);
    let by = |a: &&f64, b: &&f64| a.total_cmp(b);
    let lo = values
        .iter()
        .position(|v| v == values.iter().min_by(by).unwrap());
    let hi = values
        .iter()
        .position(|v| v == values.iter().max_by(by).unwrap());
    for d in [lo.unwrap(), hi.unwrap()] {
        assert!(
            kept.contains(&iso_day(d as i64).as_str()),
            "day {d} missing"
        );
    }
    assert!(err.contains("not in date order"), "{err}");
    assert!(!err.contains("x repeats"), "{err}");
}

/// Rows sorted by place (each place's days in turn, as weather.csv is):
/// that x repeats is said although no kept point shows it (it was said
/// only when two kept points shared a date).
#[test]
fn a_date_repeated_in_rows_not_kept_is_said() {
    let mut csv = String::from("date,v\n");
    for place in 0..2i64 {
        for day in 0..6000 {
            csv.push_str(&format!(
                "{},{}\n",
                iso_day(day),
                (day * 37 + place * 11) % 101
            ));
        }
    }
    let (_, err) = parse(&MINMAX_100[..8], &csv);
    assert!(err.contains("x repeats"), "{err}");
}
