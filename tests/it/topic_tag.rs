//! topic-tag, run as the real binary over the recorded-looking streams in
//! testdata/topic: chapter ordering, stamping, duplicates, --wrap/--split,
//! --summary, the TITLE form. Sessions (--current), bad lines, files, pipes
//! and exit codes are in `topic_tag_edges`, which shares this file's
//! runners.

use std::path::{Path, PathBuf};

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::prelude::*;
use serde_json::{Value, json};

use crate::support::events;

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_topic-tag");

pub(crate) fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/topic")
        .join(name)
}

fn run_ok(args: &[&str]) -> String {
    let out = cargo_bin_cmd!("topic-tag")
        .args(args)
        .env_remove("GEMINI_SESSION_ID")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// `type` plus the field that tells events of that type apart.
fn brief(e: &Value) -> String {
    let kind = e["type"].as_str().unwrap_or("?");
    let detail = match kind {
        "topic" => e["title"].as_str().unwrap_or("?").to_string(),
        "tool_use" => e["tool_name"].as_str().unwrap_or("?").to_string(),
        "tool_result" => e["tool_id"]
            .as_str()
            .unwrap_or("?")
            .split('-')
            .next()
            .unwrap()
            .to_string(),
        _ => String::new(),
    };
    let topic = e
        .get("topic")
        .and_then(Value::as_str)
        .map(|t| format!(" @{t}"))
        .unwrap_or_default();
    format!("{kind}:{detail}{topic}")
}

#[test]
fn gemini_cli_stream_gets_chapters_first_in_each_turn() {
    let path = data("gemini-cli-stream.jsonl");
    let out = run_ok(&["--input", path.to_str().unwrap()]);
    let got: Vec<String> = events(&out).iter().map(brief).collect();
    assert_eq!(
        got,
        [
            "init:",
            "message:",
            "message:",
            "message:",
            // The model wrote create_new_topic third; it opens the turn.
            "topic:Researching BMW data @Researching BMW data",
            "tool_use:google_web_search @Researching BMW data",
            "tool_use:google_web_search @Researching BMW data",
            // create_new_topic's own result is gone with its call.
            "tool_result:google_web_search @Researching BMW data",
            "tool_result:google_web_search @Researching BMW data",
            // The same title again opens no new chapter.
            "tool_use:web_fetch @Researching BMW data",
            "tool_result:web_fetch @Researching BMW data",
            "message: @Researching BMW data",
            "topic:Charting @Charting",
            "tool_use:render_visualization @Charting",
            "tool_result:render_visualization @Charting",
            "message: @Charting",
            "result: @Charting",
        ]
    );
    // The topic made from the call keeps the call's time.
    let first_topic = out.lines().nth(4).unwrap();
    assert_eq!(
        first_topic,
        r#"{"type":"topic","title":"Researching BMW data","timestamp":"2026-03-13T16:16:27.005Z","topic":"Researching BMW data"}"#
    );
}

#[test]
fn passthrough_is_byte_identical_apart_from_the_stamp() {
    let path = data("gem-ask-stream.jsonl");
    let input = std::fs::read_to_string(&path).unwrap();
    let out = run_ok(&["--input", path.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().collect();
    let inp: Vec<&str> = input.lines().collect();
    // Before any topic: untouched.
    assert_eq!(lines[0], inp[0]);
    assert_eq!(lines[1], inp[1]);
    // An unknown type with odd number spellings and field order: only the
    // stamp is added, at the end.
    let custom = inp.iter().find(|l| l.contains("x-custom")).unwrap();
    let stamped = format!(
        "{},\"topic\":\"Researching BMW data\"}}",
        &custom[..custom.len() - 1]
    );
    assert!(lines.contains(&stamped.as_str()), "{out}");
    // An old stamp is overwritten in place.
    assert!(lines.contains(
        &r#"{"type":"message","role":"assistant","content":"Done.","topic":"Charting","timestamp":"2026-03-13T17:00:06.500Z"}"#
    ));
    // Every event after the first topic carries the active chapter.
    let evs = events(&out);
    let first_topic = evs.iter().position(|e| e["type"] == "topic").unwrap();
    assert!(evs[..first_topic].iter().all(|e| e.get("topic").is_none()));
    assert!(evs[first_topic..].iter().all(|e| e["topic"].is_string()));
}

#[test]
fn stamping_order_and_duplicates_in_a_gem_ask_stream() {
    let path = data("gem-ask-stream.jsonl");
    let out = run_ok(&["-i", path.to_str().unwrap()]);
    let got: Vec<String> = events(&out).iter().map(brief).collect();
    assert_eq!(
        got,
        [
            "init:",
            "thought:",
            "topic:Researching BMW data @Researching BMW data",
            "tool_use:google_web_search @Researching BMW data",
            "tool_result:c1 @Researching BMW data",
            "retry: @Researching BMW data",
            "x-custom: @Researching BMW data",
            "signal: @Researching BMW data",
            // A topic right after a call of the same run goes first.
            "topic:Charting @Charting",
            "tool_use:render_visualization @Charting",
            "visualization: @Charting",
            "tool_result:c2 @Charting",
            // The second "Charting" topic is dropped.
            "error: @Charting",
            "error: @Charting",
            "message: @Charting",
            "result: @Charting",
        ]
    );
    // A topic event keeps its own fields (summary, timestamp).
    assert!(out.contains(
        r#"{"type":"topic","title":"Charting","summary":"one bar chart","timestamp":"2026-03-13T17:00:03.000Z","topic":"Charting"}"#
    ));
}

#[test]
fn run_ordering_on_stdin_keeps_call_order_and_ends_at_other_events() {
    let input = [
        r#"{"type":"tool_use","tool_name":"a","tool_id":"1","parameters":{}}"#,
        r#"{"type":"tool_use","tool_name":"create_new_topic","tool_id":"2","parameters":{"title":"One"}}"#,
        "",
        r#"{"type":"tool_use","tool_name":"b","tool_id":"3","parameters":{}}"#,
        r#"{"type":"tool_use","tool_name":"create_new_topic","tool_id":"4","parameters":{"title":"Two"}}"#,
        r#"{"type":"tool_result","tool_id":"1","status":"success"}"#,
        r#"{"type":"tool_result","tool_id":"2","status":"success"}"#,
        r#"{"type":"tool_use","tool_name":"c","tool_id":"5","parameters":{}}"#,
        r#"{"type":"message","role":"assistant","content":"x"}"#,
        r#"{"type":"tool_use","tool_name":"create_new_topic","tool_id":"6","parameters":{"title":"Three"}}"#,
    ]
    .join("\n");
    let out = cargo_bin_cmd!("topic-tag")
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let got: Vec<String> = events(&String::from_utf8(out).unwrap())
        .iter()
        .map(brief)
        .collect();
    assert_eq!(
        got,
        [
            "topic:One @One",
            "topic:Two @Two",
            "tool_use:a @Two",
            "tool_use:b @Two",
            "tool_result:1 @Two",
            // A run ends at the first other event: c is not moved.
            "tool_use:c @Two",
            "message: @Two",
            // A run held at the end of the input is let go.
            "topic:Three @Three",
        ]
    );
}

#[test]
fn wrap_and_split_on_a_build_log() {
    let path = data("build.log");
    let out = run_ok(&["--wrap", "--split", "^==> ", "-i", path.to_str().unwrap()]);
    let evs = events(&out);
    let titles: Vec<&str> = evs
        .iter()
        .filter(|e| e["type"] == "topic")
        .map(|e| e["title"].as_str().unwrap())
        .collect();
    // "==> Tests" twice in a row is one chapter; the CR of a CRLF line goes.
    assert_eq!(
        titles,
        [
            "Configuring gemline v0.1.0 (/home/ci/gemline)",
            "Build",
            "Tests",
            "Package"
        ]
    );
    assert_eq!(evs.len(), 25, "{out}");
    let messages: Vec<&Value> = evs.iter().filter(|e| e["type"] == "message").collect();
    assert_eq!(messages.len(), 21);
    assert!(
        messages.iter().all(|m| m["role"] == "assistant"
            && m["timestamp"].is_string()
            && m["topic"].is_string())
    );
    assert_eq!(messages[2]["content"], "   Compiling proc-macro2 v1.0.103");
    assert_eq!(messages[2]["topic"], "Build");
    // Blank lines stay (as empty messages); escape sequences stay data,
    // JSON-escaped, never raw on the wire.
    assert!(messages.iter().any(|m| m["content"] == ""));
    assert!(out.contains(
        r#""content":"\u001b[1m\u001b[31mtest result: FAILED\u001b[0m. 27 passed; 1 failed""#
    ));
    assert!(!out.contains('\x1b'));
}

#[test]
fn split_titles_by_the_capture_group() {
    let out = cargo_bin_cmd!("topic-tag")
        .args(["--wrap", "--split", r"^==> (\w+)"])
        .write_stdin("pre\n==> Build the thing\nok\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let got: Vec<String> = events(&String::from_utf8(out).unwrap())
        .iter()
        .map(brief)
        .collect();
    assert_eq!(got, ["message:", "topic:Build @Build", "message: @Build"]);
}

#[test]
fn bad_split_regex_is_a_usage_error() {
    cargo_bin_cmd!("topic-tag")
        .args(["--wrap", "--split", "("])
        .write_stdin("x\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad --split regex"));
}

#[test]
fn summary_counts_chapters_and_durations() {
    let path = data("gemini-cli-stream.jsonl");
    let out = run_ok(&["--summary", "-i", path.to_str().unwrap()]);
    let last: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(
        last,
        json!({"type":"topic_summary","chapters":[
            {"events":3,"tool_calls":0,"errors":0,"duration_ms":1903},
            {"title":"Researching BMW data","events":7,"tool_calls":3,"errors":1,"duration_ms":9016},
            {"title":"Charting","events":4,"tool_calls":1,"errors":0,"duration_ms":1630}],
            "total":{"events":14,"tool_calls":4,"errors":1}})
    );
    // `init` is not counted (as in viz-render --chapters), but the stretch
    // before the first topic starts at its time.
    // The summary event is not stamped and comes last, once.
    assert_eq!(out.matches("topic_summary").count(), 1);
    assert!(last.get("topic").is_none());
}

#[test]
fn a_summary_passing_through_again_is_not_stamped_or_counted() {
    let path = data("gem-ask-stream.jsonl");
    let once = run_ok(&["--summary", "-i", path.to_str().unwrap()]);
    let summary = once.lines().last().unwrap().to_string();
    let twice = cargo_bin_cmd!("topic-tag")
        .arg("--summary")
        .write_stdin(once.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let twice = String::from_utf8(twice).unwrap();
    let lines: Vec<&str> = twice.lines().collect();
    // The first summary passes byte for byte; the second counts the same.
    assert_eq!(lines[lines.len() - 2], summary);
    assert_eq!(lines[lines.len() - 1], summary);
}

#[test]
fn summary_table_goes_to_stderr() {
    let path = data("gem-ask-stream.jsonl");
    let assert = cargo_bin_cmd!("topic-tag")
        .args(["--summary=table", "-i", path.to_str().unwrap()])
        .assert()
        .success();
    let o = assert.get_output();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(
            "| - | (before the first chapter) | 1      | 0          | 0      | 1.0s     |"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "| 2 | Charting                   | 7      | 1          | 1      | 3.5s     |"
        )
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(!stdout.contains("| Chapter"));
    assert!(stdout.lines().last().unwrap().contains(
        r#"{"title":"Charting","events":7,"tool_calls":1,"errors":1,"duration_ms":3500}"#
    ));
}

#[test]
fn title_mode_prints_one_timestamped_topic() {
    let out = run_ok(&["Build", "and", "test"]);
    let evs = events(&out);
    assert_eq!(evs.len(), 1);
    assert_eq!(evs[0]["type"], "topic");
    assert_eq!(evs[0]["title"], "Build and test");
    let ts = evs[0]["timestamp"].as_str().unwrap();
    assert!(
        gemline::topic::summary::parse_rfc3339_ms(ts).is_some(),
        "{ts}"
    );
    assert!(out.starts_with(r#"{"type":"topic","title":"Build and test","timestamp":""#));
    cargo_bin_cmd!("topic-tag").arg(" ").assert().code(2);
    cargo_bin_cmd!("topic-tag")
        .args(["Build", "--wrap"])
        .assert()
        .code(2);
}

#[test]
fn summary_table_titles_are_sanitized_on_one_line() {
    let assert = cargo_bin_cmd!("topic-tag")
        .args(["--summary=table"])
        .write_stdin("{\"type\":\"topic\",\"title\":\"A\\u001b[2J\\nB\\u202e\"}\n")
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("| A^[[2J B<U+202E> |"), "{stderr}");
}

/// A build log: --error makes failing lines `error` events, so the
/// summary counts them (a plain --wrap counts 0 errors for a failed build).
#[test]
fn wrap_marks_error_lines_and_the_summary_counts_them() {
    let out = cargo_bin_cmd!("topic-tag")
        .args([
            "--wrap",
            "--split",
            "^==> ",
            "--error",
            r"(?i)\b(error|failed)\b",
            "--summary",
        ])
        .write_stdin(
            "==> Build\ncompiling\nerror[E0308]: mismatched types\nbuild FAILED\nerrors.rs ok\n",
        )
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let ev = events(&String::from_utf8(out).unwrap());
    let kinds: Vec<&str> = ev.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "topic",
            "message",
            "error",
            "error",
            "message",
            "topic_summary"
        ]
    );
    assert_eq!(ev[2]["severity"], "error");
    assert_eq!(ev[2]["message"], "error[E0308]: mismatched types");
    assert_eq!(ev[2]["topic"], "Build");
    assert_eq!(ev[5]["total"]["errors"], 2);
    assert_eq!(ev[5]["chapters"][0]["errors"], 2);
}

#[test]
fn error_needs_wrap_and_a_good_regex() {
    cargo_bin_cmd!("topic-tag")
        .args(["--error", "x"])
        .assert()
        .code(2);
    cargo_bin_cmd!("topic-tag")
        .args(["--wrap", "--error", "("])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad --error regex"));
}

/// A bare `==> ` marker opens no chapter titled "==>"; split titles have
/// their whitespace runs made one space.
#[test]
fn a_bare_split_marker_opens_no_chapter() {
    let out = cargo_bin_cmd!("topic-tag")
        .args(["--wrap", "--split", "^==> "])
        .write_stdin("==> \n==> Build   the\tthing\nx\n")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let ev = events(&String::from_utf8(out).unwrap());
    assert_eq!(ev.len(), 3);
    assert_eq!(ev[0]["type"], "message");
    assert_eq!(ev[0]["content"], "==> ");
    assert_eq!(ev[1]["type"], "topic");
    assert_eq!(ev[1]["title"], "Build the thing");
    assert_eq!(ev[2]["topic"], "Build the thing");
}
