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
fn vega_tools() -> Option<PathBuf> {
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
