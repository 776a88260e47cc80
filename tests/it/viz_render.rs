//! viz-render end to end: the real binary, real pipes, a clean environment.
//!
//! Past 700 lines: one program's end-to-end cases, independent tests
//! sharing this file's runners; to be split by flag family (a module each
//! under tests/it/) when next touched.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;

use crate::support::temp_dir;

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn render(args: &[&str], env: &[(&str, &str)], stdin: &str) -> Out {
    let mut cmd = cargo_bin_cmd!("viz-render");
    cmd.env_clear().env("LANG", "C.UTF-8");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .unwrap();
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn ok(args: &[&str], stdin: &str) -> String {
    let o = render(args, &[], stdin);
    assert_eq!(o.code, 0, "stderr: {}", o.stderr);
    o.stdout
}

fn testdata(name: &str) -> String {
    std::fs::read_to_string(format!("testdata/render/{name}")).unwrap()
}

fn bar(points: &[(&str, f64)]) -> String {
    let pts: Vec<_> = points
        .iter()
        .map(|(l, v)| serde_json::json!({"label": l, "value": v}))
        .collect();
    serde_json::json!({"type": "visualization", "chartType": "bar",
        "series": [{"name": "s", "points": pts}],
        "meta": {"truncated": false, "originalPointCount": points.len()}})
    .to_string()
}

#[test]
fn bmw_bar_chart_has_labels_bars_and_values_with_unit() {
    let out = ok(&["--width", "40"], &testdata("bmw.jsonl"));
    assert_eq!(
        out,
        "0-60 mph\n\
         fastest three\n\
         Model                               Time\n\
         M5 CS         █████████████████    2.9 s\n\
         M8 Competiti… █████████████████▋   3.0 s\n\
         M3 Competiti… ████████████████████ 3.4 s\n"
    );
}

#[test]
fn ascii_bars_use_hashes_and_dots() {
    let out = ok(&["--width", "40", "--ascii"], &testdata("bmw.jsonl"));
    assert!(out.contains("M8 Competi... "), "{out}");
    assert!(out.contains("#################### 3.4 s"), "{out}");
    assert!(out.is_ascii());
}

#[test]
fn negative_values_diverge_from_a_zero_axis() {
    let out = ok(&["--width", "40"], &testdata("negative.jsonl"));
    let rows: Vec<&str> = out.lines().skip(1).collect();
    let col = |r: &str| r.chars().position(|c| c == '│');
    let axis = col(rows[0]).unwrap();
    for r in &rows {
        assert_eq!(col(r), Some(axis), "axis moves: {out}");
    }
    // The negative bar ends at the axis, the positive one starts there.
    assert!(rows[2].contains("████│"), "{out}");
    assert!(rows[0].contains("│████"), "{out}");
    assert!(rows[2].ends_with("-15.00%"));
}

#[test]
fn eighth_blocks_give_sub_cell_resolution() {
    let out = ok(&["--width", "30"], &bar(&[("a", 8.0), ("b", 1.0)]));
    // 8 to 1 over a bar area: b is a fraction of a's length, in eighths.
    let b = out.lines().nth(1).unwrap();
    assert!(
        b.chars().any(|c| "▏▎▍▌▋▊▉".contains(c) || c == '█'),
        "{out}"
    );
}

#[test]
fn line_chart_uses_braille_nice_ticks_and_end_labels() {
    let out = ok(&["--width", "60"], &testdata("yearly.jsonl"));
    assert!(out.contains("20 ┤"), "{out}");
    assert!(out.contains("12 ┤"), "{out}");
    assert!(out.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)));
    let labels = out.lines().find(|l| l.contains("2020")).unwrap();
    assert!(labels.trim_end().ends_with("2024"), "{out}");
    assert!(labels.contains("2022"), "{out}");
}

#[test]
fn line_chart_height_is_capped() {
    let out = ok(
        &["--width", "100", "--height", "6"],
        &testdata("yearly.jsonl"),
    );
    let axis_rows = out
        .lines()
        .filter(|l| l.contains('┤') || l.contains('│'))
        .count();
    assert_eq!(axis_rows, 6, "{out}");
    let out = ok(&["--width", "100"], &testdata("yearly.jsonl"));
    let axis_rows = out
        .lines()
        .filter(|l| l.contains('┤') || l.contains('│'))
        .count();
    assert_eq!(axis_rows, 15, "{out}");
}

#[test]
fn several_series_share_an_x_axis_in_first_seen_order_with_a_legend() {
    let out = ok(&["--width", "80"], &testdata("multi.jsonl"));
    let labels = out.lines().find(|l| l.contains("Jan")).unwrap();
    let order: Vec<usize> = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul"]
        .iter()
        .map(|m| {
            labels
                .find(m)
                .unwrap_or_else(|| panic!("{m} missing: {out}"))
        })
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{labels}");
    assert!(out.contains("● AAPL  ◆ MSFT  ▲ GOOG"), "{out}");
    let ascii = ok(&["--width", "80", "--ascii"], &testdata("multi.jsonl"));
    assert!(ascii.contains("* AAPL  + MSFT  o GOOG"), "{ascii}");
    for m in ['*', '+', 'o', '|', '-'] {
        assert!(ascii.contains(m), "{m} missing: {ascii}");
    }
}

#[test]
fn table_has_borders_right_aligned_numbers_and_unit_in_header() {
    let spec = r#"{"type":"visualization","chartType":"table","yLabel":"Time","unit":"s","series":[{"name":"t","points":[{"label":"M5 CS","value":2.9},{"label":"M8","value":12.25}]}],"meta":{"truncated":false,"originalPointCount":2}}"#;
    let out = ok(&["--width", "40"], spec);
    assert_eq!(
        out,
        "╭───────┬──────────╮\n\
         │ Label │ Time (s) │\n\
         ├───────┼──────────┤\n\
         │ M5 CS │     2.90 │\n\
         │ M8    │    12.25 │\n\
         ╰───────┴──────────╯\n"
    );
    let ascii = ok(&["--width", "40", "--ascii"], spec);
    assert!(
        ascii.starts_with("+-------+----------+\n| Label | Time (s) |\n"),
        "{ascii}"
    );
}

#[test]
fn footer_says_when_points_were_dropped() {
    let out = ok(&["--width", "80"], &testdata("table.jsonl"));
    assert!(
        out.ends_with("showing 5 of 1,204 points, top by value\n"),
        "{out}"
    );
    let line = r#"{"type":"visualization","chartType":"line","series":[{"name":"a","points":[{"label":"1","value":1},{"label":"2","value":3}]}],"meta":{"truncated":true,"originalPointCount":1000,"reduction":"even"}}"#;
    assert!(ok(&[], line).contains("showing 2 of 1,000 points, evenly sampled"));
    assert!(!ok(&[], &testdata("bmw.jsonl")).contains("showing"));
}

#[test]
fn the_footer_names_how_points_were_dropped() {
    for (method, words) in [
        ("top", "top by value"),
        ("first", "the first in input order"),
        ("last", "the last in input order"),
        ("even", "evenly sampled"),
        ("minmax", "min/max per bucket"),
        ("lttb", "largest-triangle sampled"),
    ] {
        let spec = format!(
            r#"{{"type":"visualization","chartType":"line","series":[{{"name":"a","points":[{{"label":"1","value":1}},{{"label":"2","value":3}}]}}],"meta":{{"truncated":true,"originalPointCount":1204,"reduction":"{method}"}}}}"#
        );
        let out = ok(&["--width", "80"], &spec);
        assert!(
            out.ends_with(&format!("\nshowing 2 of 1,204 points, {words}\n")),
            "{method}: {out}"
        );
    }
}

#[test]
fn tables_show_exact_values_and_the_data_decimals() {
    let spec = |values: &[f64]| {
        let pts: Vec<_> = values
            .iter()
            .enumerate()
            .map(|(i, v)| serde_json::json!({"label": format!("p{i}"), "value": v}))
            .collect();
        serde_json::json!({"type": "visualization", "chartType": "table",
            "series": [{"name": "n", "points": pts}],
            "meta": {"truncated": false, "originalPointCount": values.len()}})
        .to_string()
    };
    let out = ok(&["--width", "40"], &spec(&[37_400_000.0, 131_136.0, 2.5e9]));
    assert_eq!(
        out,
        "╭───────┬───────────────╮\n\
         │ Label │             n │\n\
         ├───────┼───────────────┤\n\
         │ p0    │    37,400,000 │\n\
         │ p1    │       131,136 │\n\
         │ p2    │ 2,500,000,000 │\n\
         ╰───────┴───────────────╯\n"
    );
    let out = ok(&["--width", "40"], &spec(&[2.9, 3.0, 0.125]));
    assert!(
        out.contains("│ 2.900 │") && out.contains("│ 3.000 │"),
        "{out}"
    );
    assert!(out.contains("│ 0.125 │"), "{out}");
    // Where exact numbers cannot fit whole, the compact form is used
    // rather than a cut number.
    let out = ok(&["--width", "20"], &spec(&[37_400_000.0, 131_136.0, 2.5e9]));
    assert!(out.contains("37.4M") && out.contains("2.5B"), "{out}");
    assert!(!out.contains('…'), "{out}");
    // Bars keep the compact form.
    let bar = spec(&[37_400_000.0, 131_136.0]).replace("\"table\"", "\"bar\"");
    assert!(ok(&["--width", "60"], &bar).contains("37.4M"));
}

#[test]
fn a_line_with_few_points_marks_every_point() {
    let line = |n: usize| {
        let pts: Vec<_> = (0..n)
            .map(|i| serde_json::json!({"label": (2000 + i).to_string(), "value": (i * i) as f64}))
            .collect();
        serde_json::json!({"type": "visualization", "chartType": "line",
            "series": [{"name": "n", "points": pts}],
            "meta": {"truncated": false, "originalPointCount": n}})
        .to_string()
    };
    let markers = |out: &str| out.chars().filter(|&c| c == '●').count();
    let out = ok(&["--width", "80"], &line(5));
    assert_eq!(markers(&out), 5, "{out}");
    let out = ok(&["--width", "20"], &line(5));
    assert_eq!(markers(&out), 5, "{out}");
    // Dense: the braille line alone.
    let out = ok(&["--width", "40"], &line(30));
    assert_eq!(markers(&out), 0, "{out}");
    // ASCII draws the line with the marker; nothing else is added.
    let out = ok(&["--width", "80", "--ascii"], &line(5));
    assert!(out.contains('*') && out.is_ascii(), "{out}");
}

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
         The three quickest are:\n\
         \n\
         1. *M5 CS*: 2.9 s\n\
         2. *M8 Competition*: 3.0 s\n\
         3. *M3 Competition xDrive*: 3.4 s\n\
         warning: read_file failed: File not found:\n\
         /home/user/notes/bmw.md\n\
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
    let two = r#"{"type":"visualization","chartType":"bar","series":[{"name":"a","points":[{"label":"x","value":1}]},{"name":"b","points":[{"label":"x","value":2}]}],"meta":{"truncated":false,"originalPointCount":2}}"#;
    let e = format!(
        "{two}\n{{\"type\":\"visualization\",\"chartType\":\"pie\"}}\n{}",
        bar(&[("ok", 1.0)])
    );
    let o = render(&["--width", "80"], &[], &e);
    assert_eq!(o.code, 0);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert!(
        lines[0].starts_with("error: visualization: a bar chart takes one series, got 2"),
        "{}",
        o.stdout
    );
    assert!(
        lines[1].starts_with("line for several series"),
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
fn width_comes_from_flag_then_columns_then_80() {
    let long = bar(&[("a", 1.0)]);
    let widest = |o: &str| o.lines().map(|l| l.chars().count()).max().unwrap();
    assert_eq!(widest(&render(&[], &[], &long).stdout), 80);
    assert_eq!(widest(&render(&[], &[("COLUMNS", "50")], &long).stdout), 50);
    assert_eq!(
        widest(&render(&["--width", "30"], &[("COLUMNS", "50")], &long).stdout),
        30
    );
    let o = render(&["--width", "0"], &[], &long);
    assert_eq!(o.code, 2);
}

#[test]
fn unicode_or_ascii_from_flags_locale_and_term() {
    let chart = testdata("bmw.jsonl");
    let is_unicode = |args: &[&str], env: &[(&str, &str)]| {
        let o = render(args, env, &chart);
        assert_eq!(o.code, 0);
        !o.stdout.is_ascii()
    };
    assert!(is_unicode(&[], &[]));
    assert!(!is_unicode(&["--ascii"], &[]));
    assert!(!is_unicode(&[], &[("LC_ALL", "C")]));
    assert!(!is_unicode(
        &[],
        &[("LC_CTYPE", "POSIX"), ("LANG", "en_US.UTF-8")]
    ));
    assert!(!is_unicode(&[], &[("TERM", "dumb")]));
    assert!(is_unicode(
        &["--unicode"],
        &[("LC_ALL", "C"), ("TERM", "dumb")]
    ));
    assert_eq!(render(&["--ascii", "--unicode"], &[], &chart).code, 2);
}

#[test]
fn colour_only_when_asked_and_allowed() {
    let chart = testdata("multi.jsonl");
    let escapes =
        |args: &[&str], env: &[(&str, &str)]| render(args, env, &chart).stdout.contains('\x1b');
    // Not a terminal: auto means no colour.
    assert!(!escapes(&[], &[]));
    assert!(!escapes(&["--color", "never"], &[]));
    assert!(escapes(&["--color", "always"], &[]));
    assert!(escapes(&["--color", "always"], &[("NO_COLOR", "1")]));
    assert!(!escapes(
        &["--color", "auto"],
        &[("NO_COLOR", "1"), ("TERM", "xterm")]
    ));
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let evil = serde_json::json!({"type":"visualization","chartType":"bar","title":"T\u{1b}]0;pwned\u{7}itle",
        "series":[{"name":"s","points":[{"label":"a\u{1b}[2Jb\u{9b}c\u{202e}d","value":1}]}],
        "meta":{"truncated":false,"originalPointCount":1}})
    .to_string();
    let msg = serde_json::json!({"type":"message","role":"assistant","content":"x\u{1b}[31my\r\nz\u{8}\tw\n"}).to_string();
    let out = ok(
        &["--width", "100", "--markdown", "off"],
        &format!("{evil}\n{msg}"),
    );
    assert!(!out.contains('\x1b') && !out.contains('\u{9b}') && !out.contains('\u{7}'));
    assert!(out.starts_with("T^[]0;pwned^Gitle\n"), "{out}");
    assert!(out.contains("a^[[2Jb<U+009B>c<U+202E>d"), "{out}");
    assert!(out.ends_with("x^[[31my\nz^H\tw\n"), "{out:?}");
}

#[test]
fn ascii_mode_writes_no_byte_above_127() {
    let mut all = String::new();
    for f in [
        "wide-labels.jsonl",
        "wide-line.jsonl",
        "wide-table.jsonl",
        "chapters.jsonl",
        "gemini-stream.jsonl",
    ] {
        all.push_str(&testdata(f));
    }
    all.push_str(r#"{"type":"message","role":"assistant","content":"Café — “quoted” 日本 🚀…"}"#);
    let out = ok(&["--ascii", "--show-tools", "--width", "40"], &all);
    assert!(out.bytes().all(|b| b < 0x80));
    assert!(out.contains("Cafe -- \"quoted\" ?? ?..."), "{out}");
}

#[test]
fn charts_fit_width_20() {
    for f in [
        "bmw.jsonl",
        "negative.jsonl",
        "multi.jsonl",
        "wide-labels.jsonl",
        "wide-table.jsonl",
    ] {
        let out = ok(&["--width", "20"], &testdata(f));
        for l in out.lines() {
            assert!(unicode_width::UnicodeWidthStr::width(l) <= 20, "{f}: {l:?}");
        }
    }
}

#[test]
fn a_closed_pipe_ends_quietly_with_success() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_viz-render"))
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chart = testdata("multi.jsonl");
        for _ in 0..2000 {
            if stdin.write_all(chart.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "Stock prices\n");
    // The reader is gone (dropped above), like `| head -1`.
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status:?} {err}");
    assert_eq!(err, "");
}

/// A reader gone before the first byte (`| head -c 10` on a big spec):
/// every output format ends quietly with 0. The Vega-Lite export said
/// "error: Broken pipe" and exited 1 (serde_json's error hid the
/// io::Error from the check).
#[test]
fn a_reader_gone_before_the_first_byte_is_quiet_in_every_format() {
    // A spec larger than any write buffer: written through to the pipe.
    let labels: Vec<String> = (0..2000).map(|i| format!("label number {i:04}")).collect();
    let points: Vec<(&str, f64)> = labels.iter().map(|l| (l.as_str(), 1.0)).collect();
    let chart = bar(&points) + "\n";
    for format in ["vega-lite", "svg", "markdown", "json", "terminal"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_viz-render"))
            .env_clear()
            .args(["--format", format])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().unwrap();
        let _ = stdin.write_all(chart.as_bytes());
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{format}: {:?} {err}", out.status);
        assert_eq!(err, "", "{format}");
    }
}

#[test]
fn a_missing_file_is_exit_66() {
    let o = render(&["testdata/render/no-such-file.jsonl"], &[], "");
    assert_eq!(o.code, 66);
    assert!(
        o.stderr
            .contains("viz-render: error: cannot open testdata/render/no-such-file.jsonl"),
        "{}",
        o.stderr
    );
}

#[test]
fn files_are_read_in_order() {
    let o = render(
        &[
            "testdata/render/bmw.jsonl",
            "-",
            "testdata/render/negative.jsonl",
        ],
        &[],
        r#"{"type":"message","role":"assistant","content":"between"}"#,
    );
    assert_eq!(o.code, 0);
    let a = o.stdout.find("0-60 mph").unwrap();
    let b = o.stdout.find("between").unwrap();
    let c = o.stdout.find("Quarterly").unwrap();
    assert!(a < b && b < c, "{}", o.stdout);
}

#[test]
fn usage_errors_are_exit_2_and_help_lists_exit_codes() {
    assert_eq!(render(&["--bogus"], &[], "").code, 2);
    let o = render(&["--help"], &[], "");
    assert_eq!(o.code, 0);
    for needle in ["65", "66", "Exit status", "--chapters", "fallbackMode"] {
        assert!(o.stdout.contains(needle), "{needle} missing from --help");
    }
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
fn a_partial_meta_is_accepted() {
    let e = r#"{"type":"visualization","chartType":"bar","series":[{"name":"s","points":[{"label":"a","value":1}]}],"meta":{"fallbackMode":"ascii"}}"#;
    assert_eq!(ok(&["--width", "20"], e), "a ████████████████ 1\n");
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

/// `viz-parse FILE | viz-render ...` as a shell runs it; the exit status of
/// every stage comes back on the last line.
fn shell_pipeline(pipeline: &str) -> (String, String) {
    let script = format!("{pipeline}; echo \"status ${{PIPESTATUS[*]}}\"");
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .env_clear()
        .env("LANG", "C.UTF-8")
        .env("PARSE", env!("CARGO_BIN_EXE_viz-parse"))
        .env("RENDER", env!("CARGO_BIN_EXE_viz-render"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn viz_parse_into_viz_render_through_a_real_pipe() {
    let (out, err) =
        shell_pipeline(r#""$PARSE" testdata/bmw.csv | "$RENDER" --width 60 --color never"#);
    assert_eq!(
        out,
        "model                                           0-60 mph (s)\n\
         M5 CS                 ███████████████████████▊         2.9 s\n\
         M8 Competition Coupe  ████████████████████████▋        3.0 s\n\
         M3 Competition xDrive ███████████████████████████▉     3.4 s\n\
         M4 CSL                █████████████████████████████▌   3.6 s\n\
         i4 M50                ██████████████████████████████▍  3.7 s\n\
         X5 M Competition      ██████████████████████████████▍  3.7 s\n\
         M2                    ████████████████████████████████ 3.9 s\n\
         status 0 0\n"
    );
    assert_eq!(err, "");
}

#[test]
fn head_1_ends_both_programs_quietly_with_success() {
    // Far more output than a pipe holds, so both writers meet the closed pipe.
    let dir = temp_dir("head");
    let events = dir.join("charts.jsonl");
    let chart = testdata("bmw.jsonl");
    std::fs::write(&events, chart.repeat(5000)).unwrap();
    let path = events.to_str().unwrap();
    let (out, err) = shell_pipeline(&format!(
        r#""$PARSE" '{path}' | "$RENDER" --width 60 | head -1"#
    ));
    assert_eq!(out, "0-60 mph\nstatus 0 0 0\n");
    assert_eq!(err, "");
    // viz-parse alone, its event stream cut short.
    let (out, err) = shell_pipeline(&format!(r#""$PARSE" '{path}' | head -1"#));
    assert_eq!(
        out,
        format!("{}\nstatus 0 0\n", chart.lines().next().unwrap())
    );
    assert_eq!(err, "");
    std::fs::remove_dir_all(&dir).ok();
}
#[test]
fn a_directory_as_input_is_exit_66() {
    let o = render(&["testdata"], &[], "");
    assert_eq!(o.code, 66, "{}", o.stderr);
    assert_eq!(
        o.stderr,
        "viz-render: error: cannot open testdata: is a directory\n"
    );
}

/// Runs viz-render with its stderr a pipe whose reader is already gone,
/// then feeds `stdin`: every diagnostic hits a closed stderr.
fn with_closed_stderr(args: &[&str], stdin: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_viz-render"))
        .args(args)
        .env_clear()
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn a_closed_stderr_does_not_kill_the_render() {
    let input = format!(
        "not json\n{{\"type\":\"init\",\"session_id\":\"s\",\"model\":\"m\"}}\n{{\"type\":\"odd\"}}\n{}\n{{\"type\":\"result\",\"status\":\"success\",\"stats\":{{\"total_tokens\":3}}}}\n",
        bar(&[("a", 1.0)])
    );
    let (code, stdout) = with_closed_stderr(&["--verbose", "--width", "40"], &input);
    assert_eq!(code, 0, "stdout: {stdout}");
    assert!(stdout.contains('a'), "{stdout}");
    // --json warns about a bad chart on stderr too.
    let (code, _) = with_closed_stderr(&["--json"], "{\"type\":\"visualization\"}\n");
    assert_eq!(code, 0);
}
/// viz-render must not link the session store (file locks, data dirs):
/// lib/render reaches chapters only through lib/events.
#[test]
fn the_renderer_does_not_depend_on_topic_or_session() {
    let mut dirs = vec![std::path::PathBuf::from("lib/render")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let src = std::fs::read_to_string(&path).unwrap();
            for bad in ["crate::topic", "crate::session", "crate::agent"] {
                assert!(!src.contains(bad), "{} uses {bad}", path.display());
            }
        }
    }
}
/// Missing cells of a wide table: each series skips a date, and the x
/// axis must still read in date order with every point at its date.
#[test]
fn series_with_gaps_share_an_x_axis_in_every_series_order() {
    let input = r#"{"type":"visualization","chartType":"line","xLabel":"date","series":[{"name":"a","points":[{"label":"2024-01-01","value":1.0},{"label":"2024-01-03","value":4.0}]},{"name":"b","points":[{"label":"2024-01-02","value":3.0},{"label":"2024-01-03","value":5.0}]}],"meta":{"truncated":false,"originalPointCount":4}}"#;
    let out = ok(&["--ascii", "--width", "40", "--height", "4"], input);
    let axis = out
        .lines()
        .find(|l| l.contains("2024-01-01"))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(axis.trim_end(), "   2024-01-01   2024-01-02    2024-01-03");
    // b's first point (3) sits in the middle column, not at the right.
    insta::assert_snapshot!(out);
}
/// Values near ±f64::MAX: every tick is a number, none a `?`.
#[test]
fn huge_values_get_proper_tick_labels() {
    let input = r#"{"type":"visualization","chartType":"line","series":[{"name":"s","points":[{"label":"a","value":1e308},{"label":"b","value":-1e308}]}]}"#;
    for w in ["40", "50", "80"] {
        let out = ok(&["--width", w], input);
        assert!(!out.contains('?'), "{out}");
        let first = out.lines().next().unwrap();
        assert!(first.trim_start().starts_with("1e308 ┤"), "{out}");
    }
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
    assert_eq!(o.stdout, format!("Let me chart it.\n{warning}Sorry.\n"));
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
             Sorry.\n",
            warning.lines().take(3).collect::<Vec<_>>().join("\n") + "\n",
            warning.lines().nth(3).unwrap().to_string() + "\n"
        )
    );
}

/// The shared config (`$XDG_CONFIG_HOME/gemline/config.toml`) gives
/// viz-render its colour and width, as it gives gem-ask's; flags and the
/// environment win; a malformed file names its line and key.
#[test]
fn colour_and_width_come_from_the_config_unless_flags_or_environment_say() {
    let home = temp_dir("viz-render-config");
    let dir = home.join("gemline");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "color = \"always\"\nwidth = 24\n").unwrap();
    let xdg = home.to_str().unwrap();
    let env = [("XDG_CONFIG_HOME", xdg), ("HOME", xdg)];
    let e = r#"{"type":"message","role":"assistant","content":"one two three four five six seven eight nine ten","delta":false}"#;
    let o = render(&["--markdown", "off"], &env, e);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let plain = gemline::render::text::strip_ansi(&o.stdout);
    assert!(
        plain.lines().all(|l| l.len() <= 24) && plain.lines().count() > 1,
        "{plain:?}"
    );
    let chart = r#"{"type":"visualization","chartType":"bar","series":[{"name":"s","points":[{"label":"a","value":1}]}]}"#;
    assert!(
        render(&[], &env, chart).stdout.contains('\x1b'),
        "config colour not used"
    );
    // Flags, then NO_COLOR and COLUMNS, win over the file.
    let o = render(
        &["--markdown", "off", "--width", "80", "--color", "never"],
        &env,
        e,
    );
    assert_eq!(o.stdout.lines().count(), 1, "{:?}", o.stdout);
    assert!(!o.stdout.contains('\x1b'));
    let o = render(
        &[],
        &[env[0], env[1], ("NO_COLOR", "1"), ("COLUMNS", "80")],
        chart,
    );
    assert!(!o.stdout.contains('\x1b'), "{:?}", o.stdout);
    std::fs::write(dir.join("config.toml"), "width = \"wide\"\n").unwrap();
    let o = render(&[], &env, chart);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains("config.toml") && o.stderr.contains("width"),
        "{}",
        o.stderr
    );
}
