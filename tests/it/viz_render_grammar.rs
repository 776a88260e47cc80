//! viz-render and `ui` chart events that are not drawn: one test per
//! validation rule, each showing the event's fallbackText on stdout and a
//! warning on stderr naming the rule; with --json an `error` event of
//! severity warning follows the event; --strict makes it exit 65; the
//! caps move with --max-spec-bytes and --max-rows.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::{Value, json};

const FALLBACK: &str = "Pace fell from 300 to 290 s/km";

/// The smallest example (testdata/grammar/two_points.jsonl): its spec,
/// which the tests break one rule at a time.
fn base_spec() -> Value {
    let text = std::fs::read_to_string("testdata/grammar/two_points.jsonl").unwrap();
    let event: Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(event["fallbackText"], FALLBACK);
    event["spec"].clone()
}

fn event(spec: Value) -> String {
    let e = json!({"type": "ui", "id": "pace", "kind": "chart", "version": 1,
                   "title": "Pace", "spec": spec, "fallbackText": FALLBACK});
    format!("{e}\n")
}

fn run(args: &[&str], input: &str) -> (i32, String, String) {
    let out = cargo_bin_cmd!("viz-render")
        .env_clear()
        .env("LANG", "C.UTF-8")
        .args(["--width", "60", "--color", "never"])
        .args(args)
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The event is not drawn: its fallback text is, with a warning naming
/// `rule`; --json passes it on with a warning event; --strict is exit 65.
fn falls_back(input: &str, args: &[&str], rule: &str) {
    let (code, out, err) = run(args, input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{FALLBACK}\n"), "{rule}: {err}");
    assert!(
        err.contains("viz-render: warning: ui event \"pace\" not drawn"),
        "{err}"
    );
    assert!(err.contains(&format!("(rule {rule})")), "{rule}: {err}");
    assert!(err.contains("accepted: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let json_args: Vec<&str> = args.iter().copied().chain(["--json"]).collect();
    let (code, out, err) = run(&json_args, input);
    assert_eq!(code, 0, "{err}");
    let events: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 2, "{out}");
    assert_eq!(
        events[0],
        serde_json::from_str::<Value>(input.trim()).unwrap()
    );
    assert_eq!(events[1]["type"], "error");
    assert_eq!(events[1]["severity"], "warning");
    let msg = events[1]["message"].as_str().unwrap();
    assert!(msg.contains(&format!("(rule {rule})")), "{msg}");
    assert!(err.contains(&format!("(rule {rule})")), "{err}");

    if !matches!(rule, "kind" | "version") {
        let strict: Vec<&str> = args.iter().copied().chain(["--strict"]).collect();
        let (code, _, err) = run(&strict, input);
        assert_eq!(code, 65, "{rule}: {err}");
    }
}

fn broken(edit: impl FnOnce(&mut Value)) -> String {
    let mut spec = base_spec();
    edit(&mut spec);
    event(spec)
}

fn add(spec: &mut Value, mark: Value) {
    spec["marks"].as_array_mut().unwrap().push(mark);
}

#[test]
fn a_valid_spec_is_drawn_without_a_warning() {
    let (code, out, err) = run(&[], &event(base_spec()));
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("Pace\n"), "{out}");
    assert!(out.contains("0 km"), "{out}");
    assert!(!out.contains(FALLBACK), "{out}");
}

#[test]
fn unknown_kind_and_version_fall_back() {
    let mut e: Value = serde_json::from_str(event(base_spec()).trim()).unwrap();
    e["kind"] = json!("map");
    falls_back(&format!("{e}\n"), &[], "kind");
    e["kind"] = json!("chart");
    e["version"] = json!(2);
    falls_back(&format!("{e}\n"), &[], "version");
}

#[test]
fn payload_size_cap() {
    falls_back(
        &event(base_spec()),
        &["--max-spec-bytes", "100"],
        "payload-size",
    );
    // The default cap is 256 KB.
    let rows: Vec<Value> = (0..4000)
        .map(|i| json!({"km": i, "pace": 300, "note": "x".repeat(60)}))
        .collect();
    let big = broken(|s| s["dataset"]["rows"] = json!(rows));
    falls_back(&big, &[], "payload-size");
    let (code, out, err) = run(&["--max-spec-bytes", "1000000"], &big);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
}

#[test]
fn row_count_cap() {
    falls_back(&event(base_spec()), &["--max-rows", "1"], "row-count");
    let rows: Vec<Value> = (0..5001).map(|i| json!({"km": i, "pace": 300})).collect();
    let many = broken(|s| s["dataset"]["rows"] = json!(rows));
    falls_back(&many, &[], "row-count");
    let (code, _, err) = run(&["--max-rows", "6000"], &many);
    assert_eq!((code, err.as_str()), (0, ""));
}

#[test]
fn structure_rules() {
    falls_back(&broken(|s| s["marks"] = json!([])), &[], "mark-count");
    falls_back(&broken(|s| s["dataset"] = json!("rows")), &[], "shape");
    falls_back(
        &broken(|s| s["marks"][0]["type"] = json!("pie")),
        &[],
        "mark-type",
    );
    falls_back(
        &broken(|s| s["fields"]["km"]["type"] = json!("float")),
        &[],
        "field-type",
    );
}

#[test]
fn value_rules() {
    falls_back(
        &broken(|s| s["dataset"]["rows"][1]["pace"] = json!("fast")),
        &[],
        "finite-number",
    );
    falls_back(
        &broken(|s| s["dataset"]["rows"][0]["day"] = json!("2026-02-30")),
        &[],
        "date-value",
    );
}

#[test]
fn encoding_rules() {
    falls_back(
        &broken(|s| add(s, json!({"type": "rule", "label": "nowhere"}))),
        &[],
        "encoding-missing",
    );
    falls_back(
        &broken(|s| s["marks"][0]["y"] = json!("hr")),
        &[],
        "encoding-field",
    );
    falls_back(
        &broken(|s| s["marks"][0]["y"] = json!("name")),
        &[],
        "encoding-type",
    );
    falls_back(
        &broken(|s| add(s, json!({"type": "point", "x": "day", "y": "pace"}))),
        &[],
        "scale-conflict",
    );
    falls_back(
        &broken(|s| s["axes"] = json!({"y": {"domain": [300, 300]}})),
        &[],
        "domain",
    );
}

#[test]
fn unknown_top_level_members_are_trimmed_and_drawn() {
    let spec = broken(|s| s["style"] = json!({"theme": "dark"}));
    let (code, out, err) = run(&[], &spec);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(!out.contains(FALLBACK), "{out}");
}

#[test]
fn a_ui_event_without_fallback_text_shows_its_title() {
    let mut e: Value = serde_json::from_str(event(base_spec()).trim()).unwrap();
    e["kind"] = json!("map");
    e.as_object_mut().unwrap().remove("fallbackText");
    let (code, out, err) = run(&[], &format!("{e}\n"));
    assert_eq!(code, 0);
    assert_eq!(out, "Pace\n");
    assert!(err.contains("(rule kind)"), "{err}");
}

#[test]
fn interaction_is_named_in_the_footer() {
    let spec = broken(|s| s["interaction"] = json!({"xSelection": true}));
    let (_, out, _) = run(&[], &spec);
    assert!(
        out.contains("interaction (xSelection) is not drawn in the terminal"),
        "{out}"
    );
}

#[test]
fn chapters_count_a_refused_chart_as_an_error() {
    let topic = r#"{"type":"topic","title":"Plots"}"#;
    let bad = broken(|s| s["marks"][0]["type"] = json!("pie"));
    let (code, out, _) = run(
        &["--chapters"],
        &format!("{topic}\n{bad}{}", event(base_spec())),
    );
    assert_eq!(code, 0);
    assert!(out.contains("2 events · 0 tool calls · 1 error"), "{out}");
}

#[test]
fn a_legend_of_many_series_is_cut_with_a_count() {
    let rows: Vec<Value> = (0..40)
        .flat_map(|s| (0..2).map(move |x| json!({"x": x, "y": s, "who": format!("s{s}")})))
        .collect();
    let spec = json!({"dataset": {"rows": rows},
                      "marks": [{"type": "line", "x": "x", "y": "y", "series": "who"}]});
    let (code, out, err) = run(&[], &event(spec));
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("s23") && !out.contains("s24 "), "{out}");
    assert!(out.contains("and 16 more"), "{out}");
}

/// Found by the property test: bars in a domain far narrower than their
/// slot made a bar wider than the plot (and overflowed).
#[test]
fn grouped_bars_in_a_tiny_domain_stay_in_the_plot() {
    let spec = json!({
        "dataset": {"rows": [{"x": 0, "y": 1, "s": "a"}, {"x": 1, "y": 2, "s": "b"}]},
        "marks": [{"type": "bar", "x": "x", "y": "y", "series": "s"}],
        "axes": {"x": {"domain": [0, 1e-300]}}
    });
    for args in [&["--ascii"][..], &["--unicode"]] {
        let (code, out, err) = run(args, &event(spec.clone()));
        assert_eq!((code, err.as_str()), (0, ""), "{out}");
        assert!(out.lines().all(|l| l.chars().count() <= 60), "{out}");
    }
}

fn plot_call(spec: Value) -> String {
    let e = json!({"type": "tool_use", "tool_name": "plot", "tool_id": "p1",
                   "parameters": {"title": "Pace", "spec": spec, "fallbackText": FALLBACK}});
    format!("{e}\n")
}

fn plot_result(status: &str) -> String {
    let e = if status == "error" {
        json!({"type": "tool_result", "tool_id": "p1", "status": "error",
               "error": {"type": "invalid_spec", "message": "plot: spec.marks[0].y names no field"}})
    } else {
        json!({"type": "tool_result", "tool_id": "p1", "status": "success", "output": "drew 1 line"})
    };
    format!("{e}\n")
}

/// The seed's order of sources: a `ui` event answers its `plot` call (drawn
/// once); without one, the call's `spec` argument is drawn; an invalid one
/// falls back to the call's `fallbackText`; a failed call draws nothing.
#[test]
fn plot_calls_are_drawn_from_their_ui_event_else_their_arguments() {
    let chart_titles = |out: &str| out.lines().filter(|l| *l == "Pace").count();
    let with_ui = format!(
        "{}{}{}",
        plot_call(base_spec()),
        event(base_spec()),
        plot_result("success")
    );
    let (code, out, err) = run(&[], &with_ui);
    assert_eq!(
        (code, err.as_str(), chart_titles(&out)),
        (0, "", 1),
        "{out}"
    );

    let args_only = format!("{}{}", plot_call(base_spec()), plot_result("success"));
    let (code, out, err) = run(&[], &args_only);
    assert_eq!(
        (code, err.as_str(), chart_titles(&out)),
        (0, "", 1),
        "{out}"
    );
    assert!(out.contains("0 km"), "{out}");

    let unanswered = plot_call(base_spec());
    let (_, out, _) = run(&[], &unanswered);
    assert_eq!(chart_titles(&out), 1, "{out}");

    let invalid = broken(|s| s["marks"][0]["y"] = json!("hr"));
    let invalid: Value = serde_json::from_str(invalid.trim()).unwrap();
    let input = format!(
        "{}{}",
        plot_call(invalid["spec"].clone()),
        plot_result("success")
    );
    let (code, out, err) = run(&[], &input);
    assert_eq!((code, out), (0, format!("{FALLBACK}\n")));
    assert!(
        err.contains("ui event \"p1\" not drawn") && err.contains("(rule encoding-field)"),
        "{err}"
    );

    let failed = format!("{}{}", plot_call(base_spec()), plot_result("error"));
    let (code, out, _) = run(&[], &failed);
    assert_eq!(code, 0);
    assert_eq!(chart_titles(&out), 0, "{out}");
    assert!(
        out.contains("warning: plot failed: spec.marks[0].y names no field"),
        "{out}"
    );
}
