//! viz-render end to end, the event stream: messages streamed word by word
//! as their deltas arrive, Markdown in messages, thoughts and prompts,
//! chapters and topics, tool calls and results, and lines that are not
//! good events (warned with their number while the stream goes on).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;

use super::viz_render::{bar, ok, render, testdata};

#[test]
fn messages_stream_joined_and_lines_are_closed_before_other_output() {
    let stream = [
        r#"{"type":"message","role":"assistant","content":"Hel","delta":true}"#,
        r#"{"type":"message","role":"assistant","content":"lo, ","delta":true}"#,
        r#"{"type":"message","role":"assistant","content":"world.","delta":true}"#,
        r#"{"type":"error","severity":"error","message":"boom"}"#,
        r#"{"type":"message","role":"assistant","content":"More\ttext\nend","delta":true}"#,
    ]
    .join("\n");
    assert_eq!(
        ok(&["--markdown", "off"], &stream),
        "Hello, world.\nerror: boom\nMore\ttext\nend\n"
    );
}

/// viz-render on a pipe whose writing end stays open: what it has drawn
/// so far can be read while the input goes on.
struct Live {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    rx: mpsc::Receiver<Vec<u8>>,
}

impl Live {
    fn start(args: &[&str]) -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_viz-render"))
            .env_clear()
            .env("LANG", "C.UTF-8")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 64];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Live { child, stdin, rx }
    }

    /// Sends one event and returns exactly `expected` bytes of output,
    /// read while the input is still open. The timeout only keeps a
    /// broken build from hanging the suite.
    fn send(&mut self, event: &str, expected: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{event}").unwrap();
        stdin.flush().unwrap();
        let mut got = Vec::new();
        while got.len() < expected.len() {
            got.extend(
                self.rx
                    .recv_timeout(Duration::from_secs(60))
                    .unwrap_or_else(|_| {
                        panic!(
                            "not flushed: {:?}, only {:?}",
                            expected,
                            String::from_utf8_lossy(&got)
                        )
                    }),
            );
        }
        assert_eq!(String::from_utf8(got).unwrap(), expected, "after {event}");
    }

    /// Ends the input; returns the rest of the output.
    fn close(mut self) -> String {
        drop(self.stdin.take());
        assert!(self.child.wait().unwrap().success());
        String::from_utf8(self.rx.iter().flatten().collect()).unwrap()
    }
}

fn delta(text: &str) -> String {
    serde_json::json!({"type": "message", "role": "assistant", "content": text, "delta": true})
        .to_string()
}

#[test]
fn output_streams_event_by_event() {
    let mut live = Live::start(&["--markdown", "off"]);
    // The input is still open: the text must arrive before it ends.
    live.send(&delta("first piece "), "first piece");
    assert_eq!(live.close(), "\n");
}

#[test]
fn wrapped_text_streams_holding_back_only_an_unfinished_word() {
    let mut live = Live::start(&["--width", "20", "--markdown", "off"]);
    live.send(&delta("The quick brown fox "), "The quick brown fox");
    // "jumps" cannot fit after "fox": the line breaks at once; "la" may
    // still fit, so it waits for the rest of its word.
    live.send(&delta("jumps over a la"), "\njumps over a");
    live.send(&delta("zy dog.\nNew para"), " lazy\ndog.\nNew");
    // Any other event shows what was held back; the word may go on.
    live.send(r#"{"type":"x-unknown"}"#, " para");
    live.send(&delta("graph is on"), "graph is");
    assert_eq!(live.close(), " on\n");
}

#[test]
fn message_text_is_word_wrapped_at_the_width_whatever_the_deltas() {
    // Cut mid-word, as models stream: the words still break whole.
    let pieces = [
        "The three quickest are all ar",
        "e twin-turbo; the M3 Competition xD",
        "rive is",
        " the cheapest.\tDone.",
    ];
    let stream: Vec<String> = pieces.iter().map(|p| delta(p)).collect();
    let expected = "The three quickest are all\n\
                    are twin-turbo; the M3\n\
                    Competition xDrive is the\n\
                    cheapest.\tDone.\n";
    assert_eq!(
        ok(&["--width", "26", "--markdown", "off"], &stream.join("\n")),
        expected
    );
    // One whole message lays out the same.
    let whole =
        serde_json::json!({"type": "message", "role": "assistant", "content": pieces.concat()});
    assert_eq!(
        ok(&["--width", "26", "--markdown", "off"], &whole.to_string()),
        expected
    );
    // A word longer than the width is cut hard; no line starts with the
    // blank it was broken at.
    assert_eq!(
        ok(
            &["--width", "10", "--markdown", "off"],
            &delta("see https://example.com/a/b ok")
        ),
        "see\nhttps://ex\nample.com/\na/b ok\n"
    );
}

#[test]
fn markdown_in_messages_keeps_its_shape_and_code_is_not_wrapped() {
    let text = "Steps:\n\
                - install the toolchain and the tools\n\
                \x20 1. run the demo pipeline now\n\
                \n\
                ```sh\n\
                viz-parse testdata/bmw.csv | viz-render --width 60\n\
                ```\n\
                \x20   cargo test --test viz_render -- --nocapture\n\
                Done, all green.";
    assert_eq!(
        ok(&["--width", "24", "--markdown", "off"], &delta(text)),
        "Steps:\n\
         - install the toolchain\n\
         \x20 and the tools\n\
         \x20 1. run the demo\n\
         \x20    pipeline now\n\
         \n\
         ```sh\n\
         viz-parse testdata/bmw.csv | viz-render --width 60\n\
         ```\n\
         \x20   cargo test --test viz_render -- --nocapture\n\
         Done, all green.\n"
    );
}

#[test]
fn gemini_cli_stream_json_renders() {
    let out = ok(&["--width", "60"], &testdata("gemini-stream.jsonl"));
    assert_eq!(
        out,
        "> Which are the three fastest BMW models from 0 to 60 mph? …\n\
         I'll look up current 0-60 times for BMW's fastest models.\n\
         \n\
         The three quickest are:\n\
         \n\
         1. *M5 CS*: 2.9 s\n\
         2. *M8 Competition*: 3.0 s\n\
         3. *M3 Competition xDrive*: 3.4 s\n\
         warning: read_file failed: File not found:\n\
         /home/user/notes/bmw.md\n\
         \n\
         All three use twin-turbo V8 engines with all-wheel drive.\n"
    );
    let tools = ok(
        &["--width", "60", "--show-tools"],
        &testdata("gemini-stream.jsonl"),
    );
    assert!(
        tools.contains("\n→ google_web_search {\"query\":\"fastest BMW 0-60 mph times 20…\n"),
        "{tools}"
    );
    assert!(tools.contains("\n← ok Search results for"), "{tools}");
    assert!(
        tools.contains("\n← error: File not found: /home/user/notes/bmw.md\n"),
        "{tools}"
    );
    let o = render(&["-v"], &[], &testdata("gemini-stream.jsonl"));
    assert!(
        o.stderr
            .contains("session 8f14e45f-ceea-4e7a-9c1d-3b2a5e6f7d90 model gemini-2.5-pro"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains("3650 input tokens, 477 output tokens"),
        "{}",
        o.stderr
    );
}

#[test]
fn a_failed_result_prints_its_error() {
    let stream = r#"{"type":"message","role":"assistant","content":"Working","delta":true}
{"type":"result","status":"error","error":{"type":"FatalTurnLimitedError","message":"Reached max session turns"},"stats":{"total_tokens":10}}"#;
    let o = render(&[], &[], stream);
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout, "Working\nerror: Reached max session turns\n");
    let ok_result = r#"{"type":"result","status":"success","stats":{"total_tokens":10}}"#;
    assert_eq!(ok(&[], ok_result), "");
}

#[test]
fn errors_and_warnings_are_marked_and_coloured_when_asked() {
    let stream = r#"{"type":"error","severity":"warning","message":"slow down"}
{"type":"error","severity":"error","message":"it broke"}"#;
    assert_eq!(ok(&[], stream), "warning: slow down\nerror: it broke\n");
    let c = ok(&["--color", "always"], stream);
    assert_eq!(
        c,
        "\x1b[1;33mwarning:\x1b[0m slow down\n\x1b[1;31merror:\x1b[0m it broke\n"
    );
}

#[test]
fn topics_draw_numbered_chapter_rules() {
    let stream = r#"{"type":"topic","title":"Research"}
{"type":"message","role":"assistant","content":"x","delta":true}
{"type":"topic","title":"Charting"}"#;
    assert_eq!(
        ok(&["--width", "30"], stream),
        "── 1 · Research ──────────────\n\nx\n\n── 2 · Charting ──────────────\n"
    );
    assert_eq!(
        ok(&["--width", "30", "--ascii"], stream),
        "-- 1 . Research --------------\n\nx\n\n-- 2 . Charting --------------\n"
    );
}

#[test]
fn chapters_mode_prints_headers_with_counts_only() {
    let out = ok(
        &["--width", "50", "--chapters"],
        &testdata("chapters.jsonl"),
    );
    assert_eq!(
        out,
        "── 1 · Researching BMW data ──────────────────────\n   \
         Find 0-60 times for current models\n   \
         5 events · 2 tool calls · 1 error\n\
         ── 2 · Charting ──────────────────────────────────\n   \
         4 events · 0 tool calls · 0 errors\n"
    );
}

#[test]
fn chapters_mode_does_not_count_a_topic_summary() {
    // topic-tag --summary ends the stream with one `topic_summary`: it is
    // about the chapters, not an event of the last one.
    let mut stream = testdata("chapters.jsonl");
    stream.push_str(
        r#"{"type":"topic_summary","chapters":[{"title":"Researching BMW data","events":5,"tool_calls":2,"errors":1},{"title":"Charting","events":4,"tool_calls":0,"errors":0}],"total":{"events":9,"tool_calls":2,"errors":1}}"#,
    );
    assert_eq!(
        ok(&["--width", "50", "--chapters"], &stream),
        "── 1 · Researching BMW data ──────────────────────\n   \
         Find 0-60 times for current models\n   \
         5 events · 2 tool calls · 1 error\n\
         ── 2 · Charting ──────────────────────────────────\n   \
         4 events · 0 tool calls · 0 errors\n"
    );
}

/// gem-ask's own stream, no topic-tag in between: each `create_new_topic`
/// call comes as `tool_use`, then the `topic` it opens, then its result.
const RAW_GEM_ASK_CHAPTERS: &str = r#"{"type":"init","session_id":"s","model":"m"}
{"type":"tool_use","tool_name":"create_new_topic","tool_id":"c1","parameters":{"title":"Research"}}
{"type":"topic","title":"Research","summary":null}
{"type":"tool_result","tool_id":"c1","status":"success","output":"Topic changed to: \"Research\""}
{"type":"tool_use","tool_name":"google_web_search","tool_id":"c2","parameters":{"query":"q"}}
{"type":"tool_result","tool_id":"c2","status":"success","output":"found"}
{"type":"tool_use","tool_name":"create_new_topic","tool_id":"c3","parameters":{"title":"  Charting "}}
{"type":"topic","title":"Charting","summary":null}
{"type":"tool_result","tool_id":"c3","status":"success","output":"Topic changed to: \"Charting\""}
{"type":"message","role":"assistant","content":"Done."}
{"type":"result","status":"success"}"#;

#[test]
fn chapters_mode_does_not_count_create_new_topic_calls_of_a_raw_gem_ask_stream() {
    assert_eq!(
        ok(
            &["--width", "40", "--ascii", "--chapters"],
            RAW_GEM_ASK_CHAPTERS
        ),
        "-- 1 . Research ------------------------\n   \
         2 events, 1 tool call, 0 errors\n\
         -- 2 . Charting ------------------------\n   \
         2 events, 0 tool calls, 0 errors\n"
    );
    // A call without a title opens nothing: it and its failed result are
    // a tool call and an error of the chapter, as topic-tag counts them.
    let failed = r#"{"type":"topic","title":"Research"}
{"type":"tool_use","tool_name":"create_new_topic","tool_id":"c9","parameters":{"title":" "}}
{"type":"tool_result","tool_id":"c9","status":"error","error":{"type":"invalid_arguments","message":"create_new_topic: title is required"}}"#;
    assert_eq!(
        ok(&["--width", "40", "--ascii", "--chapters"], failed),
        "-- 1 . Research ------------------------\n   \
         2 events, 1 tool call, 1 error\n"
    );
}

#[test]
fn show_tools_hides_create_new_topic_calls_the_chapter_header_says_it() {
    assert_eq!(
        ok(
            &["--width", "40", "--ascii", "--show-tools"],
            RAW_GEM_ASK_CHAPTERS
        ),
        "-- 1 . Research ------------------------\n\
         \n\
         -> google_web_search {\"query\":\"q\"}\n\
         <- ok found\n\
         \n\
         -- 2 . Charting ------------------------\n\
         \n\
         Done.\n"
    );
}

#[test]
fn a_topic_repeating_the_current_chapter_is_skipped() {
    // Chapters are forward-only markers; topic-tag drops such a repeat too
    // (titles compared with whitespace runs made one space).
    let stream = r#"{"type":"topic","title":"A"}
{"type":"message","role":"assistant","content":"x"}
{"type":"topic","title":"  A ","summary":"again"}
{"type":"message","role":"assistant","content":"y"}
{"type":"topic","title":"B"}
{"type":"topic","title":"A"}"#;
    assert_eq!(
        ok(&["--width", "20", "--ascii"], stream),
        "-- 1 . A -----------\n\nx\ny\n\n-- 2 . B -----------\n\n-- 3 . A -----------\n"
    );
    assert_eq!(
        ok(&["--width", "40", "--ascii", "--chapters"], stream),
        "-- 1 . A -------------------------------\n   2 events, 0 tool calls, 0 errors\n\
         -- 2 . B -------------------------------\n   0 events, 0 tool calls, 0 errors\n\
         -- 3 . A -------------------------------\n   0 events, 0 tool calls, 0 errors\n"
    );
}

#[test]
fn ui_events_show_their_fallback_text() {
    let e = r#"{"type":"ui","id":"r","kind":"chart","version":1,"title":"Run","spec":{},"fallbackText":"Pace by distance"}
{"type":"ui","id":"r","kind":"mystery","version":9,"title":"Only a title"}"#;
    assert_eq!(ok(&[], e), "Pace by distance\nOnly a title\n");
}

#[test]
fn unknown_types_are_ignored_and_noted_with_verbose() {
    let e = r#"{"type":"telemetry","x":1}
{"type":"message","role":"assistant","content":"hi"}"#;
    let o = render(&[], &[], e);
    assert_eq!(o.stdout, "hi\n");
    assert_eq!(o.stderr, "");
    let o = render(&["--verbose"], &[], e);
    assert!(
        o.stderr.contains("ignoring events of type \"telemetry\""),
        "{}",
        o.stderr
    );
}

#[test]
fn bad_lines_warn_with_their_number_and_the_stream_goes_on() {
    let e = "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"a\"}\nnot json\n[1]\n{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"b\"}\n";
    let o = render(&[], &[], e);
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout, "a\nb\n");
    assert!(
        o.stderr.contains("<stdin>: line 2: not JSON"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains("line 3: expected a JSON object"),
        "{}",
        o.stderr
    );
    let o = render(&["--strict"], &[], e);
    assert_eq!(o.code, 65);
    assert_eq!(o.stdout, "a\n");
    assert!(
        o.stderr.contains("viz-render: error: <stdin>: line 2"),
        "{}",
        o.stderr
    );
}

#[test]
fn an_invalid_chart_is_an_error_line_and_the_stream_goes_on() {
    let two = r#"{"type":"visualization","chartType":"table","series":[{"name":"a","points":[{"label":"x","value":1}]},{"name":"b","points":[{"label":"x","value":2}]}],"meta":{"truncated":false,"originalPointCount":2}}"#;
    let e = format!(
        "{two}\n{{\"type\":\"visualization\",\"chartType\":\"pie\"}}\n{}",
        bar(&[("ok", 1.0)])
    );
    let o = render(&["--width", "80"], &[], &e);
    assert_eq!(o.code, 0);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(
        lines[0].starts_with("error: visualization: a table chart takes one series, got 2"),
        "{}",
        o.stdout
    );
    assert!(
        lines[1].starts_with("line or bar for several series"),
        "{}",
        o.stdout
    );
    assert!(
        lines[2].starts_with("error: visualization: not a chart"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("ok █"), "{}", o.stdout);
    let o = render(&["--strict"], &[], &e);
    assert_eq!(o.code, 65);
}

#[test]
fn a_bare_spec_is_normalized_and_drawn() {
    let spec = r#"{"chartType":"bar","title":"Sorted","sort":"desc","maxPoints":2,"series":[{"name":"n","points":[{"label":"a","value":1},{"label":"b","value":3},{"label":"c","value":2}]}]}"#;
    let out = ok(&["--width", "60"], spec);
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(rows[0], "Sorted");
    assert!(rows[1].starts_with("b "), "{out}");
    assert!(rows[2].starts_with("c "), "{out}");
    assert_eq!(rows[3], "showing 2 of 3 points, top by value");
    let needs_parse = r#"{"chartType":"bar","inputText":"a,1\nb,2"}"#;
    assert!(
        ok(&[], needs_parse)
            .replace('\n', " ")
            .contains("pipe it through viz-parse")
    );
}

#[test]
fn json_mode_records_the_fallback_mode_and_passes_the_rest() {
    let msg =
        r#"{"type":"message","role":"assistant","content":"hi","delta":true,"extra":{"z":1}}"#;
    let input = format!("{msg}\n{}\n", testdata("bmw.jsonl").trim());
    let out = ok(&["--json", "--ascii"], &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], msg);
    let v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(v["meta"]["fallbackMode"], "ascii");
    assert_eq!(v["title"], "0-60 mph");
    let out = ok(&["--json"], &testdata("bmw.jsonl"));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["meta"]["fallbackMode"], "unicode");
    // The locale and TERM decide it as they decide the drawing.
    for env in [[("LANG", "C")], [("TERM", "dumb")]] {
        let o = render(&["--json"], &env, &testdata("bmw.jsonl"));
        let v: serde_json::Value = serde_json::from_str(&o.stdout).unwrap();
        assert_eq!(v["meta"]["fallbackMode"], "ascii", "{env:?}");
    }
    let bare = r#"{"chartType":"line","series":[{"name":"a","points":[{"label":"1","value":1}]}]}"#;
    let v: serde_json::Value = serde_json::from_str(&ok(&["--json"], bare)).unwrap();
    assert_eq!(v["type"], "visualization");
    assert_eq!(v["meta"]["fallbackMode"], "unicode");
    assert_eq!(v["meta"]["originalPointCount"], 1);
}

#[test]
fn user_prompts_are_one_dim_line() {
    let e = r#"{"type":"message","role":"user","content":"first line\nsecond line"}"#;
    assert_eq!(ok(&[], e), "> first line second line\n");
    assert_eq!(
        ok(&["--color", "always"], e),
        "\x1b[2m> first line second line\x1b[0m\n"
    );
}

#[test]
fn thoughts_show_dim_only_when_asked() {
    let e = r#"{"type":"thought","content":"Let me think","delta":true}
{"type":"thought","content":" more.","delta":true}
{"type":"message","role":"assistant","content":"Answer.","delta":true}"#;
    assert_eq!(ok(&[], e), "Answer.\n");
    let raw = ["--show-thoughts", "--markdown", "off"];
    assert_eq!(ok(&raw, e), "Let me think more.\nAnswer.\n");
    assert_eq!(
        ok(&[&raw[..], &["--color", "always"]].concat(), e),
        // Each piece painted as it is written: the last word of a delta is
        // held back until the next one shows where it ends.
        "\x1b[2mLet me\x1b[0m\x1b[2m think\x1b[0m\x1b[2m more.\x1b[0m\nAnswer.\n"
    );
    // As Markdown (the default), a thought is a block: set off from the
    // answer, each line dim as a whole once it is settled.
    assert_eq!(
        ok(&["--show-thoughts"], e),
        "Let me think more.\n\nAnswer.\n"
    );
    assert_eq!(
        ok(&["--show-thoughts", "--color", "always"], e),
        "\x1b[2mLet me think more.\x1b[0m\n\nAnswer.\n"
    );
}

#[test]
fn thought_subjects_are_drawn_as_text_not_markdown_source() {
    // Gemini opens each thought summary with a bold subject line.
    let e = r#"{"type":"thought","content":"**Summing Primes**\n\nI add them","delta":true}
{"type":"thought","content":" in tens.\n\n","delta":true}
{"type":"message","role":"assistant","content":"It is **5117**.","delta":true}"#;
    assert_eq!(
        ok(&["--show-thoughts", "--width", "40"], e),
        // With colour off, bold is marked as plain text marks it (issue 23).
        "*Summing Primes*\n\nI add them in tens.\n\nIt is *5117*.\n"
    );
    let styled = ok(
        &["--show-thoughts", "--width", "40", "--color", "always"],
        e,
    );
    assert!(
        styled.starts_with("\x1b[2mSumming Primes\x1b[0m\n\n\x1b[2mI add them in tens.\x1b[0m\n"),
        "{styled:?}"
    );
    assert!(!styled.contains("**"), "{styled:?}");
}

#[test]
fn styled_text_ending_a_line_adds_no_blank_line() {
    let e = r#"{"type":"thought","content":"Thinking.\n","delta":true}
{"type":"message","role":"assistant","content":"Answer.","delta":true}"#;
    assert_eq!(
        ok(
            &["--show-thoughts", "--markdown", "off", "--color", "always"],
            e
        ),
        "\x1b[2mThinking.\n\x1b[0mAnswer.\n"
    );
}

/// A raw gemini-cli stream: its render_visualization call is data for
/// viz-parse, so viz-render says (once, at the end) why no chart showed;
/// through viz-parse the chart is drawn and there is nothing to say.
#[test]
fn a_raw_gemini_stream_gets_a_note_about_undrawn_chart_calls() {
    let o = render(&["testdata/gemini_stream.jsonl"], &[], "");
    assert_eq!(o.code, 0);
    assert_eq!(
        o.stderr,
        "viz-render: note: 1 render_visualization call was not drawn; \
         pipe the stream through viz-parse to turn them into charts\n"
    );
    let parsed = cargo_bin_cmd!("viz-parse")
        .arg("testdata/gemini_stream.jsonl")
        .output()
        .unwrap();
    let o = render(&[], &[], &String::from_utf8(parsed.stdout).unwrap());
    assert_eq!(o.code, 0);
    assert_eq!(o.stderr, "");
    assert!(o.stdout.contains("M5 CS"), "{}", o.stdout);
    // A gem-ask stream carries the call and its chart: no note.
    let call =
        r#"{"type":"tool_use","tool_name":"render_visualization","tool_id":"r1","parameters":{}}"#;
    let both = format!("{call}\n{call}\n{}\n", bar(&[("a", 1.0)]));
    assert_eq!(render(&[], &[], &both).stderr, "");
    let two = render(&[], &[], &format!("{call}\n{call}\n")).stderr;
    assert!(two.starts_with("viz-render: note: 2 render_visualization calls were not drawn;"));
}

/// A chart call the tool refused: shown as a warning with the reason,
/// wrapped not cut, with or without --show-tools (which keeps its dim
/// lines); the examples after the first line are for the model. A refused
/// call is not "undrawn": no viz-parse note.
#[test]
fn a_failed_tool_call_is_always_a_warning_with_its_reason() {
    let stream = r#"{"type":"message","role":"assistant","content":"Let me chart it.","delta":true}
{"type":"tool_use","tool_name":"render_visualization","tool_id":"r1","parameters":{"chartType":"pie"}}
{"type":"tool_result","tool_id":"r1","status":"error","error":{"type":"invalid_arguments","message":"render_visualization: field `chartType`: expected one of bar, line, table, found \"pie\"\nExamples:\n{\"chartType\":\"bar\"}"}}
{"type":"tool_result","tool_id":"zz","status":"error","error":{"type":"x","message":"boom"}}
{"type":"message","role":"assistant","content":"Sorry."}"#;
    let warning = "warning: render_visualization failed:\n\
                   field `chartType`: expected one of bar,\n\
                   line, table, found \"pie\"\n\
                   warning: a tool call failed: boom\n";
    let o = render(&["--width", "40", "--ascii"], &[], stream);
    // The text after the calls is a paragraph of its own.
    assert_eq!(o.stdout, format!("Let me chart it.\n{warning}\nSorry.\n"));
    assert_eq!(o.stderr, "");
    let o = render(&["--width", "40", "--ascii", "--show-tools"], &[], stream);
    assert_eq!(
        o.stdout,
        format!(
            "Let me chart it.\n\
             -> render_visualization {{\"chartType\":...\n\
             <- error: render_visualization: field...\n\
             {}\
             <- error: boom\n\
             {}\
             \n\
             Sorry.\n",
            warning.lines().take(3).collect::<Vec<_>>().join("\n") + "\n",
            warning.lines().nth(3).unwrap().to_string() + "\n"
        )
    );
}
