//! `viz-render --format vega-lite` end to end: one spec per chart for every
//! example chart (testdata/render: bar, line, table; testdata/grammar:
//! every mark of the plot grammar; testdata/vega: awkward field names,
//! dates with times, domains, constants on every axis), then the real Vega
//! tools judge them (tests/vega/check.mjs: the official v5 JSON schema,
//! the vega-lite compiler, vega's headless View rendering SVG). Those tools
//! are installed by .ci/setup-vega.sh: under CI=true a missing install is
//! a failure; elsewhere the script is tried once, else the check is
//! skipped with a loud note.

use std::path::{Path, PathBuf};

use crate::support;

use assert_cmd::cargo::cargo_bin_cmd;

use serde_json::Value;

const EXAMPLE_DIRS: [&str; 3] = ["render", "grammar", "vega"];

fn render(args: &[&str], stdin: &str) -> (i32, String, String) {
    support::filter(cargo_bin_cmd!("viz-render"), args, stdin)
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn examples() -> Vec<PathBuf> {
    support::example_files(&EXAMPLE_DIRS)
}

/// The events of a stream that are charts: `visualization`, `ui`, or a
/// bare chart spec.
fn charts_in(stream: &str) -> usize {
    stream
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| match e.get("type").and_then(Value::as_str) {
            Some(t) => t == "visualization" || t == "ui",
            None => e.get("series").is_some(),
        })
        .count()
}

/// Every example chart as Vega-Lite: one compact line per chart, each a
/// v5 spec; written under target/vega/out for the real tools.
fn export_examples() -> Vec<PathBuf> {
    let out_dir = root().join("target/vega/out");
    let _ = std::fs::remove_dir_all(&out_dir);
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut written = Vec::new();
    for file in examples() {
        let input = std::fs::read_to_string(&file).unwrap();
        let (code, stdout, stderr) = render(&["--format", "vega-lite"], &input);
        assert_eq!((code, stderr.as_str()), (0, ""), "{}", file.display());
        let specs: Vec<Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("one JSON document per line"))
            .collect();
        assert_eq!(specs.len(), charts_in(&input), "{}", file.display());
        for s in &specs {
            assert_eq!(
                s["$schema"],
                "https://vega.github.io/schema/vega-lite/v5.json"
            );
        }
        if specs.is_empty() {
            continue;
        }
        let dir = file
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy();
        let stem = file.file_stem().unwrap().to_string_lossy();
        let dest = out_dir.join(format!("{dir}_{stem}.vl.jsonl"));
        std::fs::write(&dest, &stdout).unwrap();
        written.push(dest);
    }
    written
}

/// The Vega tools' node_modules, installed by .ci/setup-vega.sh; see the
/// module doc for what happens when they are missing.
pub(crate) fn vega_tools() -> Option<PathBuf> {
    let dir = root().join("target/vega/node");
    let schema = dir.join("node_modules/vega-lite/build/vega-lite-schema.json");
    support::setup_tool(".ci/setup-vega.sh", "the Vega tools", || schema.exists())?;
    Some(dir)
}

#[test]
fn every_example_chart_validates_compiles_and_renders_with_the_real_vega_tools() {
    let specs = export_examples();
    assert!(specs.len() >= 20, "only {} example files", specs.len());
    let Some(modules) = vega_tools() else { return };
    support::node_check("tests/vega/check.mjs", &modules, &specs, specs.len());
}

#[test]
fn json_is_a_format_and_the_flag_its_alias() {
    let input = std::fs::read_to_string(root().join("testdata/render/multi.jsonl")).unwrap();
    let (code, flag, stderr) = render(&["--json"], &input);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(flag, render(&["--format", "json"], &input).1);
    assert!(flag.contains("\"fallbackMode\""));
    let (code, _, stderr) = render(&["--json", "--format", "terminal"], &input);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn a_stream_without_charts_exports_nothing() {
    let input =
        std::fs::read_to_string(root().join("testdata/render/gemini-stream.jsonl")).unwrap();
    let (code, stdout, stderr) = render(&["--format", "vega-lite"], &input);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
}

#[test]
fn a_refused_chart_is_a_warning_naming_line_and_rule_and_with_strict_exit_65() {
    let good = r#"{"type":"visualization","chartType":"bar","series":[{"name":"s","points":[{"label":"a","value":1}]}]}"#;
    let bad_ui = r#"{"type":"ui","id":"r","kind":"chart","version":1,"spec":{"dataset":{"rows":[{"x":1}]},"marks":[{"type":"line","x":"x","y":"nope"}]},"fallbackText":"fb"}"#;
    let bad_chart = r#"{"type":"visualization","chartType":"bar","series":[]}"#;
    let input = format!("{good}\n{bad_ui}\n{bad_chart}\n{good}\n");
    let (code, stdout, stderr) = render(&["--format", "vega-lite"], &input);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().count(), 2, "the two good charts");
    assert!(
        stderr.contains("line 2: ui event \"r\" not exported")
            && stderr.contains("rule encoding-field"),
        "{stderr}"
    );
    assert!(stderr.contains("line 3: invalid chart"), "{stderr}");
    let (code, stdout, stderr) = render(&["--format", "vega-lite", "--strict"], &input);
    assert_eq!(code, 65, "{stderr}");
    let before = stdout.lines().count();
    assert_eq!(before, 1, "the chart before the refused one");
}

#[test]
fn a_ui_event_of_another_kind_is_skipped_quietly_even_with_strict() {
    let other = r#"{"type":"ui","id":"m","kind":"map","version":1,"fallbackText":"a map"}"#;
    let (code, stdout, stderr) = render(&["--format", "vega-lite", "--strict"], other);
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
    assert!(stderr.contains("not exported"), "{stderr}");
}

#[test]
fn chapters_take_no_other_format() {
    let (code, _, stderr) = render(&["--chapters", "--format", "vega-lite"], "");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--chapters"), "{stderr}");
}

#[test]
fn a_plot_call_no_ui_event_answers_is_exported_from_its_spec_argument() {
    let spec = r#"{"dataset":{"rows":[{"x":1,"y":2},{"x":2,"y":3}]},"marks":[{"type":"line","x":"x","y":"y"}]}"#;
    let call = |id: &str| {
        format!(
            r#"{{"type":"tool_use","tool_name":"plot","tool_id":"{id}","parameters":{{"title":"T {id}","spec":{spec}}}}}"#
        )
    };
    let result =
        |id: &str| format!(r#"{{"type":"tool_result","tool_id":"{id}","status":"success"}}"#);
    let ui = format!(
        r#"{{"type":"ui","id":"a","kind":"chart","version":1,"title":"T ui","spec":{spec}}}"#
    );
    // a: answered by its ui event; b: not, closed by its result; c: still open at the end.
    let input = [
        call("a"),
        ui,
        result("a"),
        call("b"),
        result("b"),
        call("c"),
    ]
    .join("\n");
    let (code, stdout, stderr) = render(&["--format", "vega-lite"], &input);
    assert_eq!(code, 0, "{stderr}");
    let titles: Vec<String> = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["title"]["text"].to_string())
        .collect();
    assert_eq!(titles, ["\"T ui\"", "\"T b\"", "\"T c\""]);
}

/// A transformed chart exported to Vega-Lite carries its input rows and
/// its transforms: Vega itself computes the points (tests/vega/values.mjs
/// runs the spec and reads the rows its mark draws), and they are the
/// numbers viz-parse computed, for every aggregate, a time unit, a
/// filter, a series and the bins of a histogram.
#[test]
fn transforms_exported_to_vega_lite_compute_the_same_numbers_in_vega() {
    let cases: &[(&[&str], &str)] = &[
        (
            &[
                "--aggregate",
                "mean",
                "-x",
                "species",
                "-y",
                "bill_length_mm",
            ],
            "penguins.csv",
        ),
        (
            &["--aggregate", "median", "-x", "island", "-y", "body_mass_g"],
            "penguins.csv",
        ),
        (
            &[
                "--aggregate",
                "sum",
                "-x",
                "species",
                "-y",
                "flipper_length_mm",
            ],
            "penguins.csv",
        ),
        (
            &["--aggregate", "min", "-x", "carrier", "-y", "dep_delay"],
            "flights.csv",
        ),
        (
            &["--aggregate", "max", "-x", "continent", "-y", "lifeExp"],
            "gapminder.csv",
        ),
        (
            &[
                "--aggregate",
                "count",
                "-x",
                "carrier",
                "--filter",
                "origin=JFK",
            ],
            "flights.csv",
        ),
        (
            &["--aggregate", "distinct", "-x", "carrier", "-y", "dest"],
            "flights.csv",
        ),
        (
            &[
                "--aggregate",
                "mean",
                "-x",
                "carrier",
                "-y",
                "arr_delay",
                "--filter",
                "dep_delay>=15",
                "--filter",
                "dest~^[A-M]",
            ],
            "flights.csv",
        ),
        (
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
        ),
        (
            &[
                "--aggregate",
                "mean",
                "-x",
                "month",
                "-y",
                "dep_delay",
                "-s",
                "origin",
                "--chart",
                "line",
            ],
            "flights.csv",
        ),
        (
            &["--chart", "hist", "-y", "dep_delay", "--bins", "15"],
            "flights.csv",
        ),
        (&["--chart", "hist", "-y", "bill_depth_mm"], "penguins.csv"),
        // Issue 36: heatmaps, counted, normalized, aggregated.
        (
            &["--chart", "heatmap", "-x", "origin", "-s", "carrier"],
            "flights.csv",
        ),
        (
            &[
                "--chart",
                "heatmap",
                "-x",
                "weather",
                "-s",
                "location",
                "--normalize",
                "row",
            ],
            "weather.csv",
        ),
        (
            &[
                "--chart",
                "heatmap",
                "-x",
                "island",
                "-s",
                "species",
                "--normalize",
                "column",
            ],
            "penguins.csv",
        ),
        (
            &[
                "--chart",
                "heatmap",
                "-x",
                "month",
                "-s",
                "origin",
                "-y",
                "dep_delay",
                "--aggregate",
                "mean",
            ],
            "flights.csv",
        ),
    ];
    let dir = root().join("target/vega/transforms");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut exported = Vec::new();
    for (k, (args, file)) in cases.iter().enumerate() {
        let path = root().join("testdata/real").join(file);
        let mut all: Vec<&str> = args.to_vec();
        let p = path.to_string_lossy().into_owned();
        all.push(&p);
        let (code, event, err) = support::filter(cargo_bin_cmd!("viz-parse"), &all, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        let (code, vl, err) = render(&["--format", "vega-lite"], &event);
        assert_eq!(code, 0, "{err}");
        let spec: Value = serde_json::from_str(vl.trim()).unwrap();
        assert!(
            spec["transform"].is_array(),
            "{args:?}: the export carries its transforms"
        );
        assert!(
            spec["data"]["values"].as_array().unwrap().len() > 20,
            "{args:?}: the export's data are the input rows"
        );
        let dest = dir.join(format!("{k:02}.vl.jsonl"));
        std::fs::write(&dest, &vl).unwrap();
        exported.push((
            args,
            serde_json::from_str::<Value>(event.trim()).unwrap(),
            dest,
        ));
    }
    let Some(modules) = vega_tools() else { return };
    for (args, event, spec) in exported {
        let rows = vega_values(&modules, &spec);
        assert_same_points(args, &event, &rows);
    }
}

/// The rows the first mark of the spec in `spec` (a file) draws, as Vega
/// computes them (tests/vega/values.mjs).
pub(crate) fn vega_values(modules: &Path, spec: &Path) -> Vec<Value> {
    let out = std::process::Command::new("node")
        .arg(root().join("tests/vega/values.mjs"))
        .arg("--modules")
        .arg(modules)
        .arg(spec)
        .output()
        .expect("node runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}: {err}", spec.display());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Vega's rows and viz-parse's points: the same points (a histogram's
/// empty bins aside: Vega draws no row for them), values equal to 1e-9.
pub(crate) fn assert_same_points(args: &[&str], event: &Value, rows: &[Value]) {
    let date = event["xType"] == "date";
    let hist = event["chartType"] == "hist";
    let mut ours: Vec<(String, String, f64)> = Vec::new();
    for s in event["series"].as_array().unwrap() {
        for p in s["points"].as_array().unwrap() {
            let v = p["value"].as_f64().unwrap();
            if hist && v == 0.0 {
                continue;
            }
            let label = if hist || date {
                let x = p["x"].as_f64().unwrap() * if date { 1000.0 } else { 1.0 };
                format!("{x}")
            } else {
                p["label"].as_str().unwrap().to_string()
            };
            let several = event["series"].as_array().unwrap().len() > 1;
            let series = if several {
                s["name"].as_str().unwrap()
            } else {
                ""
            };
            ours.push((series.to_string(), label, v));
        }
    }
    let mut theirs: Vec<(String, String, f64)> = rows
        .iter()
        .map(|r| {
            let label = match &r["label"] {
                Value::String(s) => s.clone(),
                n => format!("{}", n.as_f64().unwrap()),
            };
            let series = r["series"].as_str().unwrap_or("").to_string();
            (series, label, r["value"].as_f64().unwrap())
        })
        .collect();
    ours.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    theirs.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    assert_eq!(
        ours.len(),
        theirs.len(),
        "{args:?}\nours {ours:?}\nvega {theirs:?}"
    );
    for (o, t) in ours.iter().zip(&theirs) {
        assert_eq!(
            (&o.0, &o.1),
            (&t.0, &t.1),
            "{args:?}\nours {ours:?}\nvega {theirs:?}"
        );
        let close = (o.2 - t.2).abs() <= 1e-9 * o.2.abs().max(t.2.abs()).max(1.0);
        assert!(
            close,
            "{args:?}: {} {}: ours {} vega {}",
            o.0, o.1, o.2, t.2
        );
    }
}
