//! `viz-parse --grammar` end to end: tables in, one `ui` chart of the plot
//! grammar out, drawn by viz-render and exported to Vega-Lite.

use crate::support;

use assert_cmd::cargo::cargo_bin_cmd;

use serde_json::{Value, json};

fn parse(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-parse"), args, stdin)
}

fn render(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-render"), args, stdin)
}

/// The one `ui` event a successful run writes.
fn ui(args: &[&str], stdin: &str) -> Value {
    let (code, stdout, stderr) = parse(args, stdin);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    let e: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        (
            e["type"].as_str(),
            e["kind"].as_str(),
            e["version"].as_u64()
        ),
        (Some("ui"), Some("chart"), Some(1))
    );
    e
}

const RUN: [&str; 9] = [
    "--grammar",
    "-x",
    "km",
    "-y",
    "pace",
    "-y",
    "hr",
    "--rule",
    "x=5:5K",
];

#[test]
fn the_readme_run_chart_is_two_lines_and_a_rule_with_units_from_the_headers() {
    let mut args = RUN.to_vec();
    args.push("testdata/run.csv");
    let e = ui(&args, "");
    let spec = &e["spec"];
    assert_eq!(e["id"], "run");
    assert_eq!(
        spec["fields"]["pace"],
        json!({"type": "number", "label": "pace", "unit": "s/km"})
    );
    assert_eq!(spec["fields"]["hr"]["unit"], "bpm");
    assert_eq!(spec["fields"]["km"]["type"], "number");
    assert_eq!(
        spec["marks"],
        json!([{"type": "line", "x": "km", "y": "pace"}, {"type": "line", "x": "km", "y": "hr"},
               {"type": "rule", "xValue": 5.0, "label": "5K"}])
    );
    assert_eq!(
        spec["dataset"]["rows"][1],
        json!({"km": 0.25, "pace": 298.4, "hr": 131.0})
    );
    assert_eq!(spec["dataset"]["rows"].as_array().unwrap().len(), 41);
    assert_eq!(e["fallbackText"], "pace and hr by km, 41 rows; marked: 5K");

    let stream = serde_json::to_string(&e).unwrap();
    let (code, drawn, stderr) = render(&["--width", "60", "--color", "never"], &stream);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(
        drawn.contains("5K") && drawn.contains("pace") && drawn.contains("hr"),
        "{drawn}"
    );
    let (code, vl, stderr) = render(&["--format", "vega-lite"], &stream);
    assert_eq!((code, stderr.as_str(), vl.lines().count()), (0, "", 1));
}

#[test]
fn each_mark_follows_its_y_and_bands_and_rules_go_on_either_axis() {
    let e = ui(
        &[
            "--grammar",
            "-x",
            "km",
            "-y",
            "pace",
            "--mark",
            "area",
            "-y",
            "hr",
            "--mark",
            "point",
            "--band",
            "x=2..3:lap 3",
            "--rule",
            "y=150",
            "testdata/run.csv",
        ],
        "",
    );
    let marks = &e["spec"]["marks"];
    assert_eq!(
        (marks[0]["type"].as_str(), marks[1]["type"].as_str()),
        (Some("area"), Some("point"))
    );
    assert_eq!(marks[2], json!({"type": "rule", "yValue": 150.0}));
    assert_eq!(
        marks[3],
        json!({"type": "rectangle", "xStart": 2.0, "xEnd": 3.0, "label": "lap 3"})
    );
}

#[test]
fn a_mark_must_follow_a_y_and_each_y_takes_one() {
    let (code, _, stderr) = parse(
        &["--grammar", "--mark", "bar", "-y", "hr", "testdata/run.csv"],
        "",
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("put a -y first"), "{stderr}");
    let (code, _, stderr) = parse(
        &[
            "--grammar",
            "-y",
            "hr",
            "--mark",
            "bar",
            "--mark",
            "line",
            "testdata/run.csv",
        ],
        "",
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("two --mark"), "{stderr}");
    let (code, _, stderr) = parse(&["--mark", "bar", "-y", "hr", "testdata/run.csv"], "");
    assert_eq!(code, 2, "--mark needs --grammar: {stderr}");
}

#[test]
fn an_unknown_column_is_a_usage_error_naming_the_columns() {
    let (code, stdout, stderr) = parse(
        &["--grammar", "-x", "km", "-y", "speed", "testdata/run.csv"],
        "",
    );
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("\"speed\": no such column")
            && stderr.contains("\"km\"")
            && stderr.contains("\"pace (s/km)\"")
            && stderr.contains("\"hr (bpm)\""),
        "{stderr}"
    );
    let (code, _, stderr) = parse(&["--grammar", "testdata/run.csv"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("needs a -y COLUMN"), "{stderr}");
}

#[test]
fn flags_that_describe_an_invalid_chart_are_refused_with_the_rule() {
    let (code, _, stderr) = parse(
        &[
            "--grammar",
            "-x",
            "km",
            "-y",
            "hr",
            "--rule",
            "x=Tue",
            "testdata/run.csv",
        ],
        "",
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("not valid") && stderr.contains("rule encoding-type"),
        "{stderr}"
    );
    let (code, _, stderr) = parse(
        &["--grammar", "-y", "hr", "--rule", "z=5", "testdata/run.csv"],
        "",
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("the axis is x or y"), "{stderr}");
}

#[test]
fn dates_categories_and_series_get_their_types() {
    let csv = "day,symbol,close\n2026-03-02,AAA,10.5\n2026-03-03,AAA,11\n2026-03-02,BBB,20\n2026-03-03,BBB,n/a\n";
    let e = ui(
        &[
            "--grammar",
            "-x",
            "day",
            "-y",
            "close",
            "-s",
            "symbol",
            "--rule",
            "x=2026-03-02T12:00:noon",
        ],
        csv,
    );
    let spec = &e["spec"];
    assert_eq!(spec["fields"]["day"]["type"], "date");
    assert_eq!(spec["fields"]["symbol"]["type"], "string");
    assert_eq!(
        spec["marks"][0],
        json!({"type": "line", "x": "day", "y": "close", "series": "symbol"})
    );
    assert_eq!(spec["marks"][1]["xValue"], "2026-03-02T12:00");
    assert_eq!(
        spec["dataset"]["rows"][3],
        json!({"day": "2026-03-03", "symbol": "BBB"}),
        "n/a is a gap"
    );
    assert_eq!(e["id"], "table");

    let e = ui(
        &["--grammar", "-y", "2"],
        "city;temp\nOslo;4,5\nRome;18,25\n",
    );
    let spec = &e["spec"];
    assert_eq!(spec["fields"]["city"]["type"], "string");
    assert_eq!(
        spec["marks"][0]["type"], "bar",
        "categories default to bars"
    );
    assert_eq!(spec["dataset"]["rows"][1]["temp"], 18.25, "a decimal comma");
}

#[test]
fn a_cell_that_is_not_a_number_is_a_gap_with_a_warning_or_with_strict_exit_65() {
    let csv = "x,y\n1,2\n2,oops\n3,4\n";
    let (code, stdout, stderr) = parse(&["--grammar", "-x", "x", "-y", "y"], csv);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("line 3, column \"y\": \"oops\" is not a number"),
        "{stderr}"
    );
    let e: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(e["spec"]["dataset"]["rows"][1], json!({"x": 2.0}));
    let (code, _, stderr) = parse(&["--grammar", "--strict", "-x", "x", "-y", "y"], csv);
    assert_eq!(code, 65, "{stderr}");
    let (code, _, stderr) = parse(&["--grammar", "-x", "y", "-y", "x"], "x,y\na,b\n");
    assert_eq!(code, 65, "{stderr}");
    assert!(stderr.contains("holds no numbers"), "{stderr}");
}

#[test]
fn json_records_and_events_as_input() {
    let e = ui(
        &["--grammar", "-x", "m", "-y", "v"],
        r#"[{"m": "a", "v": 1}, {"m": "b", "v": 2}]"#,
    );
    assert_eq!(e["spec"]["dataset"]["rows"][1], json!({"m": "b", "v": 2.0}));
    let (code, _, stderr) = parse(
        &["--grammar", "-y", "v"],
        r#"{"type":"message","role":"assistant","content":"hi"}"#,
    );
    assert_eq!(code, 65, "{stderr}");
    assert!(stderr.contains("not a stream of events"), "{stderr}");
}
