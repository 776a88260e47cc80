//! `--calculate`, `--fold` and `-x @row` as a user meets them: a rate
//! whose division by zero or missing cell leaves the point out, said
//! once; a bad expression refused (exit 2) naming the character and what
//! is accepted; wide columns folded by name or pattern into a mean per
//! column or a series per column; a line over the row order; each in
//! every output format, with --aggregate, -s, --filter and --chart; the
//! Vega-Lite export computing the same numbers with Vega's own
//! `calculate`, `fold` and `window` (the real tools, as issue 22's
//! transforms are checked); a long file streamed; and any expression
//! string refused or computed, never a panic.

use assert_cmd::cargo::cargo_bin_cmd;
use proptest::prelude::*;
use serde_json::Value;

use crate::support;
use crate::support::viz::{points, points_of, pts};

fn parse(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-parse"), args, stdin)
}

fn chart(args: &[&str], stdin: &str) -> (Value, String) {
    let (code, out, err) = parse(args, stdin);
    assert_eq!(code, 0, "{args:?}: {err}");
    (serde_json::from_str(out.trim()).unwrap(), err)
}

fn render(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = support::filter(cargo_bin_cmd!("viz-render"), args, stdin);
    assert_eq!(code, 0, "{err}");
    out
}

const SHOTS: &str = "Team,Made,Trials,Made Shots\nA,3,4,1\nB,5,0,2\nC,,5,3\nD,8,10,4\nE,1,4,5\n";

const WIDE: &str = "region,sales_2020,sales_2021,sales_2022,price\n\
                    North,10,12,15,3\nSouth,7,9,11,4\nEast,5,6,8,2\n";

#[test]
fn a_rate_leaves_out_a_division_by_zero_and_a_missing_cell_said_once() {
    // With -x and no -y, the calculated column is charted.
    let (v, err) = chart(&["--calculate", "rate=Made/Trials", "-x", "Team"], SHOTS);
    assert_eq!(
        points(&v),
        pts(&[("A", 0.75), ("D", 0.8), ("E", 0.25)]),
        "{v}"
    );
    assert_eq!(err.matches("--calculate").count(), 1, "said once: {err}");
    assert!(!err.contains("row skipped"), "not row by row: {err}");
    assert!(
        err.contains("no value in 2 rows") && err.contains("the first at line 3"),
        "{err}"
    );
    assert_eq!(v["yLabel"], "rate");
}

#[test]
fn a_bad_expression_is_a_usage_error_naming_the_place_and_what_is_accepted() {
    for (expr, says) in [
        (
            "rate=Made/",
            "at character 11: found the end, expected a number",
        ),
        ("rate=Made//Trials", "at character 11: found '/'"),
        ("rate=(Made/Trials", "expected ')'"),
        (
            "rate=Made Trials",
            "at character 11: expected an operator or the end",
        ),
        ("rate=mean(Made)", "no function \"mean\""),
        ("rate=log(Made, 2)", "log takes 1 argument, got 2"),
        ("Made/Trials", "no '=' between"),
        ("rate=Made % 2", "'%' is not accepted"),
        ("rate=\"Made Shots/2", "never closes"),
    ] {
        let (code, out, err) = parse(&["--calculate", expr, "-x", "Team"], SHOTS);
        assert_eq!(code, 2, "{expr}: {err}");
        assert!(out.is_empty());
        assert!(err.contains(says), "{expr}: {err}");
        assert!(
            err.contains("+ - * /, parentheses and abs ceil exp floor log"),
            "{expr}: says what is accepted: {err}"
        );
    }
    // A column that is not there, and a name that is taken.
    let (code, _, err) = parse(&["--calculate", "rate=Made/Trialz"], SHOTS);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("column \"Trialz\": no such column; the columns are 1:\"Team\""),
        "{err}"
    );
    let (code, _, err) = parse(&["--calculate", "Made=Made*2"], SHOTS);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("exists already"), "{err}");
}

#[test]
fn quoted_names_functions_and_one_calculation_reading_another() {
    let (v, _) = chart(
        &[
            "--calculate",
            "rate=Made/Trials",
            "--calculate",
            "pct=round(rate*100) + \"Made Shots\" - `Made Shots`",
            "-x",
            "Team",
            "-y",
            "pct",
            "--filter",
            "pct>=50",
        ],
        SHOTS,
    );
    assert_eq!(points(&v), pts(&[("A", 75.0), ("D", 80.0)]), "{v}");
}

#[test]
fn calculate_goes_with_aggregate_and_series_on_a_real_file() {
    // Total GDP (billions) by continent, one series per year of two.
    let (v, _) = chart(
        &[
            "--calculate",
            "gdp=pop*gdpPercap/1e9",
            "--filter",
            "year>=2002",
            "--aggregate",
            "sum",
            "-x",
            "continent",
            "-y",
            "gdp",
            "-s",
            "year",
            "--chart",
            "line",
            "testdata/real/gapminder.csv",
        ],
        "",
    );
    assert_eq!(v["yLabel"], "sum(gdp)");
    let series = v["series"].as_array().unwrap();
    assert_eq!(series.len(), 2, "{v}");
    // The reference, computed here from the file.
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/real/gapminder.csv"),
    )
    .unwrap();
    let mut asia_2007 = 0.0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[1] == "Asia" && f[2] == "2007" {
            asia_2007 += f[4].parse::<f64>().unwrap() * f[5].parse::<f64>().unwrap() / 1e9;
        }
    }
    let s2007 = series.iter().position(|s| s["name"] == "2007").unwrap();
    let asia = points_of(&v, s2007)
        .into_iter()
        .find(|(l, _)| l == "Asia")
        .unwrap();
    assert!(
        (asia.1 - asia_2007).abs() < 1e-6 * asia_2007,
        "{asia:?} {asia_2007}"
    );
}

#[test]
fn fold_by_pattern_or_names_gives_a_mean_per_column_or_a_series_per_column() {
    let (v, err) = chart(&["--fold", "sales_*"], WIDE);
    assert_eq!(
        points(&v),
        pts(&[
            ("sales_2020", 22.0 / 3.0),
            ("sales_2021", 9.0),
            ("sales_2022", 34.0 / 3.0)
        ]),
        "{v}"
    );
    assert_eq!(v["yLabel"], "mean(value)");
    assert!(
        err.contains("--fold: the mean of each folded column"),
        "{err}"
    );
    // -x another column: one series per folded column, named by --fold-as.
    let (v, _) = chart(
        &[
            "--fold",
            "sales_2020, 3",
            "--fold-as",
            "year,sales",
            "-x",
            "region",
            "--chart",
            "line",
        ],
        WIDE,
    );
    let names: Vec<&str> = v["series"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["sales_2020", "sales_2021"], "{v}");
    assert_eq!(v["yLabel"], "sales");
    assert_eq!(
        points_of(&v, 1),
        pts(&[("North", 12.0), ("South", 9.0), ("East", 6.0)])
    );
    // Sums per column with --aggregate, and a calculation on the folded values.
    let (v, _) = chart(
        &[
            "--fold",
            "sales_*",
            "--calculate",
            "k=value*10",
            "-x",
            "key",
            "-y",
            "k",
            "--aggregate",
            "sum",
        ],
        WIDE,
    );
    let mut sums = points(&v);
    sums.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        sums,
        pts(&[
            ("sales_2020", 220.0),
            ("sales_2021", 270.0),
            ("sales_2022", 340.0)
        ]),
        "{v}"
    );
    // A pattern that matches nothing, and names that are taken.
    let (code, _, err) = parse(&["--fold", "cost_*"], WIDE);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("matches no column; the columns are"), "{err}");
    let (code, _, err) = parse(&["--fold", "sales_*", "--fold-as", "region,v"], WIDE);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--fold-as"), "{err}");
    let (code, _, err) = parse(&["--fold-as", "a,b"], WIDE);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn row_order_draws_a_series_stored_a_row_a_year_as_a_line() {
    // No date column: the rows are the time.
    let (v, _) = chart(&["-x", "@row"], "temp\n3\n5\n4\n8\n2\n");
    assert_eq!(v["chartType"], "line");
    assert_eq!(v["xType"], "number");
    assert_eq!(v["xLabel"], "row");
    assert_eq!(
        points(&v),
        pts(&[("1", 3.0), ("2", 5.0), ("3", 4.0), ("4", 8.0), ("5", 2.0)])
    );
    // Wide columns over the row order: a series each.
    let (v, _) = chart(&["-x", "@row", "--fold", "sales_2020,sales_2022"], WIDE);
    assert_eq!(v["series"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(
        points_of(&v, 1),
        pts(&[("1", 15.0), ("2", 11.0), ("3", 8.0)])
    );
    // A column named row already: the row number is @row.
    let (v, _) = chart(&["-x", "@row", "-y", "v"], "row,v\nb,1\na,2\n");
    assert_eq!(v["xLabel"], "@row");
}

#[test]
fn every_output_format_draws_the_derived_columns() {
    let (_, event, _) = parse(
        &[
            "--calculate",
            "rate=Made/Trials",
            "-x",
            "Team",
            "-y",
            "rate",
        ],
        SHOTS,
    );
    for args in [
        &["--format", "markdown"][..],
        &["--format", "svg"][..],
        &["--format", "vega-lite"][..],
        &["--format", "github"][..],
        &["--color", "never", "--width", "80"][..],
    ] {
        let out = render(args, &event);
        assert!(out.contains("rate"), "{args:?}: {out}");
        assert!(out.contains('D'), "{args:?}: {out}");
    }
}

/// The Vega tools (see viz_render_vegalite.rs), the export of each case,
/// and Vega's points compared with viz-parse's.
#[test]
fn derived_columns_exported_to_vega_lite_compute_the_same_numbers_in_vega() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/vega/derived");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let shots = dir.join("shots.csv");
    std::fs::write(&shots, SHOTS).unwrap();
    let wide = dir.join("wide.csv");
    std::fs::write(&wide, WIDE).unwrap();
    let (shots, wide) = (shots.to_str().unwrap(), wide.to_str().unwrap());
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "--calculate",
            "rate=Made/Trials",
            "-x",
            "Team",
            "-y",
            "rate",
            shots,
        ],
        vec![
            "--calculate",
            "r=round(-\"Made Shots\"/2)",
            "--calculate",
            "l=log10(abs(r)+1)*max(Made,2)",
            "-x",
            "Team",
            "-y",
            "l",
            shots,
        ],
        vec!["--fold", "sales_*", wide],
        vec!["-x", "@row", "--fold", "sales_2020,sales_2022", wide],
        vec![
            "--calculate",
            "gdp=pop*gdpPercap/1e9",
            "--aggregate",
            "sum",
            "-x",
            "continent",
            "-y",
            "gdp",
            "testdata/real/gapminder.csv",
        ],
        vec![
            "--fold",
            "bill_*",
            "--calculate",
            "cm=value/10",
            "-y",
            "cm",
            "--aggregate",
            "median",
            "-x",
            "key",
            "-s",
            "species",
            "--chart",
            "line",
            "testdata/real/penguins.csv",
        ],
        vec![
            "-x",
            "@row",
            "-y",
            "net_generation",
            "--filter",
            "source=Nuclear Energy",
            "testdata/real/iowa-electricity.csv",
        ],
    ];
    let mut exported = Vec::new();
    for (k, args) in cases.iter().enumerate() {
        let (code, event, err) = parse(args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        let vl = render(&["--format", "vega-lite"], &event);
        let spec: Value = serde_json::from_str(vl.trim()).unwrap();
        let steps = spec["transform"].to_string();
        assert!(
            ["\"calculate\"", "\"fold\"", "\"window\""]
                .iter()
                .any(|s| steps.contains(s)),
            "{args:?}: {steps}"
        );
        assert!(
            spec["data"]["values"]
                .as_array()
                .is_some_and(|v| !v.is_empty()),
            "{args:?}: the export's data are the input rows: {vl}"
        );
        let dest = dir.join(format!("{k:02}.vl.jsonl"));
        std::fs::write(&dest, &vl).unwrap();
        exported.push((
            args,
            serde_json::from_str::<Value>(event.trim()).unwrap(),
            dest,
        ));
    }
    let Some(modules) = crate::viz_render_vegalite::vega_tools() else {
        return;
    };
    let files: Vec<_> = exported.iter().map(|e| e.2.clone()).collect();
    support::node_check("tests/vega/check.mjs", &modules, &files, files.len());
    for (args, event, spec) in exported {
        let out = std::process::Command::new("node")
            .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vega/values.mjs"))
            .arg("--modules")
            .arg(&modules)
            .arg(&spec)
            .output()
            .expect("node runs");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        crate::viz_render_vegalite::assert_same_points(args, &event, &rows);
    }
}

/// A file long enough for the memory-mapped reader and its workers: every
/// row derived as it streams, the sums exact.
#[test]
fn a_long_file_streams_through_calculate_and_fold() {
    let dir = support::temp_dir("calculate-fold-long");
    let path = dir.join("long.csv");
    let mut text = String::from("g,a,b\n");
    let (mut sum_ab, mut sum_b) = (0.0, 0.0);
    for i in 0..200_000u64 {
        let (a, b) = (i % 97, i % 13);
        text.push_str(&format!("g{},{a},{b}\n", i % 3));
        if i % 3 == 1 {
            sum_ab += (a * b) as f64;
            sum_b += b as f64;
        }
    }
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let (v, _) = chart(
        &[
            "--calculate",
            "ab=a*b",
            "--aggregate",
            "sum",
            "-x",
            "g",
            "-y",
            "ab",
            p,
        ],
        "",
    );
    let g1 = points(&v).into_iter().find(|(l, _)| l == "g1").unwrap();
    assert_eq!(g1.1, sum_ab);
    let (v, _) = chart(&["--fold", "a,b", "--aggregate", "sum", "-x", "g", p], "");
    let b = v["series"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["name"] == "b")
        .unwrap();
    let g1 = points_of(&v, b)
        .into_iter()
        .find(|(l, _)| l == "g1")
        .unwrap();
    assert_eq!(g1.1, sum_b);
    let _ = std::fs::remove_dir_all(dir);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any expression, of the language's pieces or of any characters:
    /// read or refused with a usage error naming a character, and when
    /// read, computed on a table or refused, never a panic.
    #[test]
    fn any_expression_is_read_or_refused_never_a_panic(
        expr in prop_oneof![
            "[ab0-9+*/()., -]{0,24}",
            prop::collection::vec(
                prop::sample::select(vec![
                    "a", "b", "\"c d\"", "`c d`", "1", "0", "2.5e3", "+", "-", "*", "/", "(",
                    ")", ",", "log(", "abs(", "round(", "min(", "pow(", "zz", "\"", ".", "e",
                ]),
                0..14,
            )
            .prop_map(|v| v.concat()),
            any::<String>(),
        ],
    ) {
        use gemline::parse::transform::{Calculate, TransformOptions};
        use gemline::parse::{ParseOptions, parse_text};
        let text = format!("x={expr}");
        match Calculate::parse(&text) {
            Err(e) => prop_assert!(e.to_string().contains("write NAME=EXPR"), "{e}"),
            Ok(c) => {
                let opts = ParseOptions {
                    label: Some("@row".into()),
                    values: vec!["x".into()],
                    transform: TransformOptions {
                        calculate: vec![c],
                        ..TransformOptions::default()
                    },
                    ..ParseOptions::default()
                };
                let table = "a,b,c d\n1,2,3\n0,0,\n-4,NA,1e308\n5,x,2\n";
                if let Err(e) = parse_text(table, &opts) {
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }
}
