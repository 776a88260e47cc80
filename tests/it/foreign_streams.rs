//! Other agents' streams through the real binaries: OpenAI Codex's `codex
//! exec --json` and Claude Code's `stream-json`, as the programs wrote
//! them (testdata/foreign, recorded against a scripted server; its README
//! says how), piped through viz-render (terminal at a width, Markdown, CI
//! logs, --chapters), topic-tag and viz-parse. Malformed lines of those
//! formats are warnings naming the line; unknown lines go on unchanged.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::Value;
use unicode_width::UnicodeWidthStr;

use crate::support::{events, filter, of_type};

fn stream(name: &str) -> String {
    let p = format!("{}/testdata/foreign/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn render(args: &[&str], input: &str) -> (i32, String, String) {
    filter(cargo_bin_cmd!("viz-render"), args, input)
}

/// viz-render with `args` over a fixture: it succeeds without a word on
/// stderr; its stdout.
fn render_ok(args: &[&str], name: &str) -> String {
    let (code, out, err) = render(args, &stream(name));
    assert_eq!(code, 0, "{name}: {err}");
    assert!(err.is_empty(), "{name}: {err}");
    out
}

/// Where each of `parts` is found in `text`, in order; fails naming the
/// first missing or out of order.
fn in_order(text: &str, parts: &[&str]) {
    let mut from = 0;
    for p in parts {
        match text[from..].find(p) {
            Some(at) => from += at + p.len(),
            None => panic!("{p:?} missing or out of order in:\n{text}"),
        }
    }
}

/// The types of our contract a translated stream may hold.
const OURS: &[&str] = &[
    "init",
    "retry",
    "message",
    "thought",
    "tool_use",
    "tool_result",
    "error",
    "result",
    "topic",
    "signal",
    "visualization",
    "topic_summary",
];

fn all_ours(ev: &[Value]) {
    for e in ev {
        let t = e["type"].as_str().unwrap_or("");
        assert!(OURS.contains(&t), "not one of ours: {e}");
    }
}

#[test]
fn codex_plan_steps_are_chapters_in_the_terminal_at_a_width() {
    let out = render_ok(&["--color", "never", "--width", "50"], "codex_plan.jsonl");
    in_order(
        &out,
        &[
            "1 · Read the sales figures",
            "step 1 of 3",
            "The figures run from January to March.",
            "2 · Chart the monthly totals",
            "step 2 of 3",
            "command_execution failed: exit code 1",
            "3 · Write the summary",
            "March was the best month.",
            "│ Mar   │ 160   │",
        ],
    );
    // The steps all done open no fourth chapter.
    assert!(!out.contains("4 ·"), "{out}");
    for line in out.lines() {
        assert!(line.width() <= 50, "too wide: {line:?}");
    }
    // `--live` reads the stream on a thread of its own, the same way.
    let live = render_ok(
        &["--live", "--color", "never", "--width", "50"],
        "codex_plan.jsonl",
    );
    in_order(
        &live,
        &[
            "1 · Read the sales figures",
            "2 · Chart the monthly totals",
            "3 · Write the summary",
        ],
    );
}

#[test]
fn claude_todo_steps_are_chapters_in_a_markdown_report() {
    let out = render_ok(&["--format", "markdown"], "claude_todo.jsonl");
    in_order(
        &out,
        &[
            "## 1. Read the sales figures",
            "The figures run from January to March.",
            "## 2. Chart the monthly totals",
            "## 3. Write the summary",
            "March was the best month.",
            "| month | total |",
        ],
    );
    // The plan's calls are the chapters' bookkeeping, not tool calls.
    assert!(!out.contains("TodoWrite"), "{out}");
    assert!(!out.contains("Todos have been modified"), "{out}");
}

#[test]
fn ci_logs_have_a_section_a_step_and_the_failures_as_annotations() {
    let gh = render_ok(
        &["--format", "github", "--color", "never", "--width", "60"],
        "codex_plan.jsonl",
    );
    in_order(
        &gh,
        &[
            "::group::1 · Read the sales figures",
            "::endgroup::",
            "::group::2 · Chart the monthly totals",
            "::endgroup::",
            "::group::3 · Write the summary",
            "::endgroup::",
        ],
    );
    let failed = render_ok(
        &["--format", "github", "--color", "never"],
        "codex_failed.jsonl",
    );
    in_order(
        &failed,
        &[
            "Checking the build.",
            "::warning::Reconnecting... 1/1",
            "error: stream disconnected before completion",
        ],
    );
    let gl = render_ok(
        &["--format", "gitlab", "--color", "never"],
        "claude_todo.jsonl",
    );
    assert_eq!(gl.matches("section_start:").count(), 3, "{gl}");
    assert!(gl.contains("Write the summary"), "{gl}");
}

#[test]
fn chapters_view_counts_each_steps_calls_and_errors() {
    let out = render_ok(
        &["--chapters", "--color", "never", "--width", "60"],
        "claude_todo.jsonl",
    );
    in_order(
        &out,
        &[
            "1 · Read the sales figures",
            "3 events · 1 tool call · 0 errors",
            "2 · Chart the monthly totals",
            "2 events · 1 tool call · 1 error",
            "3 · Write the summary",
        ],
    );
}

#[test]
fn topic_tag_writes_our_events_stamped_with_the_step_under_way() {
    let (code, out, err) = filter(
        cargo_bin_cmd!("topic-tag"),
        &["--summary"],
        &stream("codex_plan.jsonl"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let ev = events(&out);
    all_ours(&ev);
    let titles: Vec<&str> = of_type(&ev, "topic")
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Read the sales figures",
            "Chart the monthly totals",
            "Write the summary"
        ]
    );
    let failed = ev
        .iter()
        .find(|e| e["type"] == "tool_result" && e["status"] == "error")
        .unwrap();
    assert_eq!(failed["topic"], "Chart the monthly totals");
    let summary = of_type(&ev, "topic_summary")[0];
    assert_eq!(summary["total"]["tool_calls"], 4, "{summary}");
    assert_eq!(summary["total"]["errors"], 1, "{summary}");
    // What it wrote draws the same chapters.
    let (code, chapters, _) = render(&["--chapters", "--color", "never", "--width", "60"], &out);
    assert_eq!(code, 0);
    in_order(
        &chapters,
        &[
            "1 · Read the sales figures",
            "2 · Chart the monthly totals",
            "3 · Write the summary",
        ],
    );
}

#[test]
fn partial_messages_are_said_once_and_tasks_are_chapters() {
    let out = render_ok(&["--format", "json"], "claude_tasks_partial.jsonl");
    let ev = events(&out);
    all_ours(&ev);
    let said: Vec<&Value> = of_type(&ev, "message");
    assert_eq!(said.len(), 2, "{out}");
    assert!(said.iter().all(|m| m["delta"] == true), "{out}");
    let topics = of_type(&ev, "topic");
    assert_eq!(topics.len(), 2, "{out}");
    assert_eq!(topics[0]["title"], "Read the sales figures");
    assert_eq!(topics[0]["summary"], "cat sales.csv");
    assert_eq!(topics[1]["title"], "Write the summary");
    let md = render_ok(&["--format", "markdown"], "claude_tasks_partial.jsonl");
    assert_eq!(md.matches("Reading them now.").count(), 1, "{md}");
    assert_eq!(md.matches("March was the best month.").count(), 1, "{md}");
}

#[test]
fn results_carry_usage_cost_and_the_failure() {
    let ev = events(&render_ok(&["--format", "json"], "claude_todo.jsonl"));
    let r = of_type(&ev, "result")[0];
    assert_eq!(r["status"], "success");
    let s = &r["stats"];
    assert_eq!(s["input_tokens"], 7200 + 16384, "{r}");
    assert_eq!(s["cached_input_tokens"], 16384, "{r}");
    assert_eq!(s["output_tokens"], 296, "{r}");
    assert_eq!(s["total_tokens"], 7200 + 16384 + 296, "{r}");
    assert_eq!(s["tool_calls"], 3, "{r}");
    assert_eq!(s["turns"], 8, "{r}");
    assert!(s["cost_usd"].as_f64().unwrap() > 0.05, "{r}");

    let ev = events(&render_ok(&["--format", "json"], "claude_max_turns.jsonl"));
    let r = of_type(&ev, "result")[0];
    assert_eq!(r["status"], "error");
    assert_eq!(r["error"]["type"], "error_max_turns");
    assert_eq!(r["error"]["message"], "Reached maximum number of turns (1)");

    let ev = events(&render_ok(&["--format", "json"], "claude_refused.jsonl"));
    assert!(
        of_type(&ev, "message").is_empty(),
        "the notice is no answer: {ev:?}"
    );
    let r = of_type(&ev, "result")[0];
    assert_eq!(r["status"], "error");
    assert_eq!(r["error"]["type"], "api_error");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Prompt is too long")
    );

    let ev = events(&render_ok(&["--format", "json"], "claude_retry.jsonl"));
    let retry = of_type(&ev, "retry")[0];
    assert_eq!(retry["attempt"], 1, "{retry}");
    assert_eq!(retry["delay_ms"], 617, "{retry}");
    assert_eq!(retry["reason"], "overloaded (HTTP 529)", "{retry}");

    let ev = events(&render_ok(&["--format", "json"], "codex_plan.jsonl"));
    let r = of_type(&ev, "result")[0];
    assert_eq!(r["stats"]["input_tokens"], 13200, "{r}");
    assert_eq!(r["stats"]["cached_input_tokens"], 8192, "{r}");
    assert_eq!(r["stats"]["reasoning_tokens"], 64, "{r}");
    assert_eq!(r["stats"]["tool_calls"], 4, "{r}");
    assert_eq!(
        of_type(&ev, "init")[0]["session_id"],
        "01a22054-1f35-7be0-8b62-1c663cd44ee7"
    );

    let ev = events(&render_ok(&["--format", "json"], "codex_failed.jsonl"));
    let r = of_type(&ev, "result")[0];
    assert_eq!(r["status"], "error");
    assert_eq!(r["error"]["type"], "turn_failed");
    let warnings = of_type(&ev, "error");
    assert_eq!(warnings.len(), 2);
    assert!(warnings.iter().all(|w| w["severity"] == "warning"));
    let (code, out, _) = render(
        &["--verbose", "--color", "never"],
        &stream("codex_plan.jsonl"),
    );
    assert_eq!(code, 0);
    assert!(out.contains("March was the best month."));
}

#[test]
fn viz_parse_charts_an_agents_render_visualization_calls() {
    for name in ["claude_chart.jsonl", "codex_mcp.jsonl"] {
        let (code, out, err) = filter(cargo_bin_cmd!("viz-parse"), &[], &stream(name));
        assert_eq!(code, 0, "{name}: {err}");
        assert!(err.is_empty(), "{name}: {err}");
        let ev = events(&out);
        all_ours(&ev);
        let charts = of_type(&ev, "visualization");
        assert_eq!(charts.len(), 1, "{name}: {out}");
        assert_eq!(charts[0]["title"], "Sales by month");
        assert_eq!(
            charts[0]["series"][0]["points"].as_array().unwrap().len(),
            3
        );
        let (code, drawn, _) = render(&["--color", "never", "--width", "60"], &out);
        assert_eq!(code, 0);
        in_order(
            &drawn,
            &[
                "Charting the monthly totals.",
                "Sales by month",
                "Mar ",
                "160",
                "March was the best month.",
            ],
        );
    }
    // A failed MCP call is a failed result, and the error item a warning.
    let (_, out, _) = render(
        &["--color", "never", "--width", "60"],
        &stream("codex_mcp.jsonl"),
    );
    in_order(
        &out,
        &[
            "lookup failed: server docs is not running",
            "Codex is ignoring 1 unrecognized",
        ],
    );
}

#[test]
fn malformed_lines_are_warnings_naming_the_line_and_the_rest_goes_on() {
    for (name, lines) in [
        ("malformed.jsonl", [2, 3, 5, 6]),
        ("claude_malformed.jsonl", [2, 3, 4, 5]),
    ] {
        let input = stream(name);
        let (code, out, err) = render(&["--color", "never"], &input);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(
            out.contains("Still read after the bad lines."),
            "{name}: {out}"
        );
        for n in lines {
            assert!(
                err.contains(&format!("line {n}: a ")),
                "{name}: line {n} not named in:\n{err}"
            );
        }
        let (code, _, err) = render(&["--strict"], &input);
        assert_eq!(code, 65, "{name}: {err}");
        assert!(err.contains(&format!("line {}:", lines[0])), "{err}");
        for (bin, path) in [
            ("topic-tag", env!("CARGO_BIN_EXE_topic-tag")),
            ("viz-parse", env!("CARGO_BIN_EXE_viz-parse")),
        ] {
            let cmd = assert_cmd::Command::new(path);
            let (code, out, err) = filter(cmd, &[], &input);
            assert_eq!(code, 0, "{bin} {name}: {err}");
            assert!(
                out.contains("Still read after the bad lines."),
                "{bin} {name}: {out}"
            );
            assert!(
                err.contains(&format!("line {}: a ", lines[0])),
                "{bin} {name}: {err}"
            );
        }
    }
    // An item of a kind no one here knows, and a malformed line, go on
    // through the filters as they came.
    let input = stream("malformed.jsonl");
    let (_, out, _) = filter(cargo_bin_cmd!("viz-parse"), &[], &input);
    for n in [2, 3, 4] {
        let line = input.lines().nth(n - 1).unwrap();
        assert!(
            out.lines().any(|l| l == line),
            "line {n} not passed on: {out}"
        );
    }
}

#[test]
fn streams_of_ours_and_unknown_lines_are_untouched() {
    // A gemini-cli stream with a line of a type no one knows: viz-parse
    // passes every line on byte for byte, as before.
    let input = "{\"type\":\"init\",\"session_id\":\"s\",\"model\":\"gemini-3.5-flash\"}\n\
                 {\"type\":\"weird\",\"z\":1,\"a\":[1, 2]}\n\
                 {\"type\":\"error\",\"message\":\"no severity\"}\n\
                 {\"type\":\"result\",\"status\":\"success\",\"subtype\":\"x\"}\n";
    let (code, out, err) = filter(cargo_bin_cmd!("viz-parse"), &[], input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, input);
    let (code, out, _) = filter(cargo_bin_cmd!("topic-tag"), &[], input);
    assert_eq!(code, 0);
    assert_eq!(out, input);
}
