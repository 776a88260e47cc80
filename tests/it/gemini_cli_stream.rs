//! gemini-cli 0.61's headless stream as it really is: the file in
//! testdata/gemini-cli was written by gemini-cli itself (`--output-format
//! stream-json`) against a scripted Gemini server (how, in its README), so
//! its shapes are nobody's guess here. Its two `update_topic` calls are
//! chapters in topic-tag and in every viz-render drawing, with their
//! summary; the text before and after its tool calls are separate
//! paragraphs in every format; its `result.stats`, with the per-model
//! breakdown, is read.

use assert_cmd::cargo::cargo_bin_cmd;
use serde_json::{Value, json};

const STREAM: &str = "gemini-cli/gemini-cli-0.61-stream.jsonl";

fn testdata(path: &str) -> String {
    std::fs::read_to_string(format!("{}/testdata/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// A program in a clean environment: its stdout, its stderr.
fn run(program: &str, args: &[&str], stdin: &str) -> (String, String) {
    let mut cmd = match program {
        "topic-tag" => cargo_bin_cmd!("topic-tag"),
        "viz-parse" => cargo_bin_cmd!("viz-parse"),
        _ => cargo_bin_cmd!("viz-render"),
    };
    let out = cmd
        .env_clear()
        .env("LANG", "C.UTF-8")
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{program} {args:?}: {out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// stdout of a run that has nothing to say on stderr.
fn quiet(program: &str, args: &[&str], stdin: &str) -> String {
    let (out, err) = run(program, args, stdin);
    assert_eq!(err, "", "{program} {args:?}");
    out
}

fn tagged() -> String {
    quiet("topic-tag", &[], &testdata(STREAM))
}

fn events(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn topic_tag_makes_each_update_topic_call_a_chapter() {
    let ev = events(&tagged());
    let topics: Vec<&Value> = ev.iter().filter(|e| e["type"] == "topic").collect();
    assert_eq!(topics.len(), 2, "{ev:?}");
    assert_eq!(topics[0]["title"], "Researching BMW data");
    assert_eq!(
        topics[0]["summary"],
        "Starting from the figures in bmw.csv: the 0-60 mph time of each model, as published by BMW."
    );
    assert_eq!(
        topics[0]["strategic_intent"],
        "Read the 0-60 figures from bmw.csv."
    );
    assert_eq!(topics[1]["title"], "Ranking the cars");
    assert_eq!(
        topics[1]["strategic_intent"],
        "Sort by 0-60 time and keep the first three."
    );
    // The calls became the chapters; their results (gemini-cli's display
    // of the topic) are dropped, the other call is stamped.
    assert!(
        ev.iter().all(|e| e["tool_name"] != "update_topic"
            && e["output"].as_str().is_none_or(|o| !o.contains("Topic:"))),
        "{ev:?}"
    );
    let read = ev.iter().find(|e| e["tool_name"] == "read_file").unwrap();
    assert_eq!(read["topic"], "Researching BMW data");
    assert_eq!(ev.last().unwrap()["type"], "result");
    assert_eq!(ev.last().unwrap()["topic"], "Ranking the cars");

    let with_summary = quiet("topic-tag", &["--summary"], &testdata(STREAM));
    let summary = events(&with_summary).pop().unwrap();
    let counts: Vec<Value> = summary["chapters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| json!([c["title"], c["events"], c["tool_calls"], c["errors"]]))
        .collect();
    assert_eq!(
        counts,
        [
            json!([null, 3, 0, 0]),
            json!(["Researching BMW data", 3, 1, 0]),
            json!(["Ranking the cars", 4, 0, 0]),
        ]
    );
}

/// `topic-tag | viz-render --chapters`, as the issue ran it, and
/// viz-render on the raw stream: the same chapters with the summary's
/// first line, and the counts topic-tag's summary has. viz-parse (the
/// README's pipes start with it) passes the stream on as it came.
#[test]
fn chapters_are_drawn_from_the_stream_raw_or_tagged() {
    let want = "\
-- (before the first chapter) --------------------------------
   3 events, 0 tool calls, 0 errors
-- 1 . Researching BMW data ----------------------------------
   Starting from the figures in bmw.csv: the 0-60 mph time ...
   3 events, 1 tool call, 0 errors
-- 2 . Ranking the cars --------------------------------------
   The research phase found seven models in bmw.csv. Now so...
   4 events, 0 tool calls, 0 errors
";
    let args = ["--chapters", "--ascii", "--width", "62"];
    assert_eq!(quiet("viz-render", &args, &tagged()), want);
    assert_eq!(quiet("viz-render", &args, &testdata(STREAM)), want);
    assert_eq!(quiet("viz-parse", &[], &testdata(STREAM)), testdata(STREAM));
}

#[test]
fn every_format_has_the_chapters_and_the_paragraphs() {
    for input in [testdata(STREAM), tagged()] {
        let md = quiet("viz-render", &["--format", "markdown"], &input);
        assert!(
            md.contains(
                "I'll read the figures first.\n\n## 1. Researching BMW data\n\n\
                 _Starting from the figures in bmw.csv: the 0-60 mph time of each model, as published by BMW._\n\n\
                 **Intent:** Read the 0-60 figures from bmw.csv.\n\n\
                 The file has seven models with their times.\n\n## 2. Ranking the cars\n"
            ),
            "{md}"
        );
        assert!(
            md.contains("**Intent:** Sort by 0-60 time and keep the first three.\n\nHere are the quickest three:\n\n1. M5 CS: 2.9 s\n"),
            "{md}"
        );
        let term = quiet("viz-render", &["--width", "70", "--ascii"], &input);
        assert!(
            term.contains("I'll read the figures first.\n\n-- 1 . Researching BMW data ---"),
            "{term}"
        );
        assert!(
            term.contains(
                "intent: Read the 0-60 figures from bmw.csv.\n\nThe file has seven models"
            ),
            "{term}"
        );
        for (format, opens) in [
            ("github", "::group::1 · Researching BMW data\n"),
            ("gitlab", "[collapsed=true]\r\x1b[0K2 · Ranking the cars\n"),
        ] {
            let log = quiet("viz-render", &["--format", format, "--width", "70"], &input);
            assert!(log.contains(opens), "{format}: {log}");
            assert!(
                log.contains("I'll read the figures first.\n"),
                "{format}: {log}"
            );
        }
    }
}

/// The issue's case, whatever produced it: text, a call (shown or not)
/// and its result, more text. Each format keeps the two apart; deltas of
/// one answer still join.
#[test]
fn text_on_either_side_of_tool_calls_is_two_paragraphs() {
    let stream = r#"{"type":"message","role":"assistant","content":"Let me look up ","delta":true}
{"type":"message","role":"assistant","content":"the figures first.","delta":true}
{"type":"tool_use","tool_name":"google_web_search","tool_id":"s1","parameters":{"query":"bmw 0-60"}}
{"type":"tool_result","tool_id":"s1","status":"success","output":"M5 CS 2.9 s"}
{"type":"message","role":"assistant","content":"Here are the ","delta":true}
{"type":"message","role":"assistant","content":"quickest three:","delta":true}
"#;
    let two = "Let me look up the figures first.\n\nHere are the quickest three:\n";
    assert_eq!(quiet("viz-render", &["--format", "markdown"], stream), two);
    assert_eq!(quiet("viz-render", &[], stream), two);
    assert_eq!(quiet("viz-render", &["--markdown", "off"], stream), two);
    assert_eq!(quiet("viz-render", &["--format", "github"], stream), two);
    assert_eq!(quiet("viz-render", &["--format", "gitlab"], stream), two);
    assert_eq!(
        quiet("viz-render", &["--show-tools", "--ascii"], stream),
        "Let me look up the figures first.\n\
         -> google_web_search {\"query\":\"bmw 0-60\"}\n\
         <- ok M5 CS 2.9 s\n\
         \n\
         Here are the quickest three:\n"
    );
}

#[test]
fn an_update_topic_without_a_title_restates_the_intent_only() {
    let stream = r#"{"type":"tool_use","tool_name":"update_topic","tool_id":"u1","parameters":{"title":"Ranking"}}
{"type":"tool_result","tool_id":"u1","status":"success","output":"Topic: Ranking"}
{"type":"tool_use","tool_name":"update_topic","tool_id":"u2","parameters":{"strategic_intent":"Check the last one."}}
{"type":"tool_result","tool_id":"u2","status":"success","output":"Strategic Intent: Check the last one."}
"#;
    let ev = events(&quiet("topic-tag", &[], stream));
    let shape: Vec<String> = ev
        .iter()
        .map(|e| format!("{} {}", e["type"], e["topic"]))
        .collect();
    assert_eq!(
        shape,
        [
            r#""topic" "Ranking""#,
            r#""tool_use" "Ranking""#,
            r#""tool_result" "Ranking""#
        ]
    );
    assert_eq!(ev[1]["tool_id"], "u2");
    let drawn = quiet(
        "viz-render",
        &["--chapters", "--ascii", "--width", "40"],
        stream,
    );
    assert_eq!(
        drawn,
        "-- 1 . Ranking -------------------------\n   2 events, 1 tool call, 0 errors\n"
    );
}

#[test]
fn result_stats_are_read_with_the_cached_share_and_each_model() {
    let (_, err) = run("viz-render", &["--verbose"], &testdata(STREAM));
    assert!(
        err.contains(
            "viz-render: stats: 26563 input tokens (16640 cached), 229 output tokens, \
             26792 total tokens, 3 tool calls, "
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "; by model: gemini-3.5-flash-lite 1240 in, 24 out; gemini-3.8-flash 25323 in (16640 cached), 205 out\n"
        ),
        "{err}"
    );
}

#[test]
fn snapshots_of_the_stream_drawn() {
    let input = testdata(STREAM);
    let tagged = tagged();
    for w in [20, 40, 80] {
        let width = w.to_string();
        for (mode, tag) in [("--unicode", "unicode"), ("--ascii", "ascii")] {
            let args = [mode, "--color", "never", "--width", &width];
            insta::assert_snapshot!(
                format!("gemini_cli_{tag}_{w}"),
                quiet("viz-render", &args, &input)
            );
        }
        let args = ["--chapters", "--color", "never", "--width", &width];
        insta::assert_snapshot!(
            format!("gemini_cli_chapters_{w}"),
            quiet("viz-render", &args, &tagged)
        );
    }
    insta::assert_snapshot!(
        "gemini_cli_markdown",
        quiet("viz-render", &["--format", "markdown"], &input)
    );
    insta::assert_snapshot!(
        "gemini_cli_github_60",
        quiet(
            "viz-render",
            &["--format", "github", "--color", "never", "--width", "60"],
            &input
        )
    );
}
