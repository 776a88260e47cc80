//! Issue 33's lines that lied: a long daily series thinned to 30 evenly
//! sampled points drew a fake wave (each sample in another season), and a
//! series computed by `--time-unit`/`--aggregate` was thinned like raw
//! rows. Real binaries, no flags but the ones a person would type.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

use crate::support::events;
use crate::support::viz::points;

fn parse(args: &[&str], stdin: &str) -> Value {
    let o = cargo_bin_cmd!("viz-parse")
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
    events(&o.stdout).remove(0)
}

/// ISO date of day `d` after 1990-01-01 (a 365.25-day year is close enough
/// for a season test; the dates only need to be valid and rising).
fn day(d: i64) -> String {
    let (mut y, mut left) = (1990i64, d);
    loop {
        let len = if y % 4 == 0 { 366 } else { 365 };
        if left < len {
            break;
        }
        left -= len;
        y += 1;
    }
    let months = [
        31,
        if y % 4 == 0 { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let mut m = 0;
    while left >= months[m] {
        left -= months[m];
        m += 1;
    }
    format!("{y}-{:02}-{:02}", m + 1, left + 1)
}

/// 25 years of daily temperatures (a yearly wave from 24 to 70) with one
/// record day: every year keeps its summer and its winter, and the record.
#[test]
fn a_long_daily_series_keeps_its_seasons_and_its_record() {
    let n = 9131;
    let temp = |d: i64| 47.0 - 23.0 * (2.0 * std::f64::consts::PI * d as f64 / 365.25).cos();
    let mut csv = String::from("date,temp\n");
    for d in 0..n {
        let v = if d == 6000 { 99.5 } else { temp(d) };
        csv.push_str(&format!("{},{v:.1}\n", day(d)));
    }
    let v = parse(&[], &csv);
    assert_eq!(v["chartType"], "line");
    let pts = points(&v);
    assert!(pts.len() <= 200, "{}", pts.len());
    assert!(pts.iter().any(|p| p.1 == 99.5), "the record day was lost");
    for y in 1990..2015 {
        let year: Vec<f64> = pts
            .iter()
            .filter(|p| p.0.starts_with(&y.to_string()))
            .map(|p| p.1)
            .collect();
        let hi = year.iter().cloned().fold(f64::MIN, f64::max);
        let lo = year.iter().cloned().fold(f64::MAX, f64::min);
        assert!(
            hi > 68.0 && lo < 26.0,
            "{y}: summer {hi}, winter {lo}: seasons aliased"
        );
    }
    assert_eq!(v["meta"]["reduction"], "minmax");
}

/// 48 monthly means asked for with `--time-unit yearmonth --aggregate mean`
/// are 48 points, never thinned to 30.
#[test]
fn a_series_computed_by_time_unit_is_never_thinned() {
    let mut csv = String::from("date,sales\n");
    for d in 0..1461 {
        csv.push_str(&format!("{},{}\n", day(d), d % 97));
    }
    let v = parse(
        &[
            "-x",
            "date",
            "-y",
            "sales",
            "--time-unit",
            "yearmonth",
            "--aggregate",
            "mean",
        ],
        &csv,
    );
    assert_eq!(v["chartType"], "line");
    assert_eq!(points(&v).len(), 48);
    assert_ne!(v["meta"]["truncated"], true, "{}", v["meta"]);
}

/// `--max-points` still caps what a person asks for, and the footer of
/// the drawn line says how the points were chosen.
#[test]
fn a_reduced_line_says_how_in_its_footer() {
    let mut csv = String::from("date,v\n");
    for i in 0..5000 {
        csv.push_str(&format!("{},{}\n", day(i), (i * 7919) % 211));
    }
    let o = cargo_bin_cmd!("viz-parse")
        .args(["--max-points", "40"])
        .write_stdin(csv)
        .output()
        .unwrap();
    let drawn = cargo_bin_cmd!("viz-render")
        .args(["--width", "80", "--color", "never"])
        .write_stdin(o.stdout)
        .output()
        .unwrap();
    let out = String::from_utf8(drawn.stdout).unwrap();
    assert!(
        out.contains("points, first, last, min and max per bucket"),
        "{out}"
    );
}
