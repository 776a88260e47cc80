//! Chapters across the programs (issue 4), with the real binaries: gem-ask
//! against the fake Gemini server opening a chapter, its stream through
//! topic-tag and viz-render, the session file gem-ask writes read back by
//! `topic-tag --current`, the shell recipe of the issue
//! (`{ topic-tag Build; ... | topic-tag --wrap; } | viz-render`), the
//! chapter counts of `topic-tag --summary` and `viz-render --chapters`
//! agreeing, and the live-API eval script replayed offline.
//!
//! gem-ask's own request/response details (call order sent back, the
//! confirmation text) are pinned in tests/it/gem_ask_rounds.rs; these tests are
//! about what the programs see of each other.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;

use crate::support::{FakeGemini, KEY, Reply, events, temp_dir};
use assert_cmd::cargo::{cargo_bin, cargo_bin_cmd};
use serde_json::{Value, json};

fn gem_ask(server: &FakeGemini, data_home: &Path) -> assert_cmd::Command {
    let mut cmd = support::gem_ask_cmd(server, data_home);
    cmd.args(["--output", "jsonl", "--no-stdin"]);
    cmd
}

fn run(cmd: &mut assert_cmd::Command, stdin: &[u8]) -> String {
    // viz-render draws for a CI log when it runs inside one.
    let out = cmd
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITLAB_CI")
        .write_stdin(stdin.to_vec())
        .assert()
        .success()
        .get_output()
        .clone();
    String::from_utf8(out.stdout).unwrap()
}

/// `type[:tool_name|title] [@topic]`, the shape of a stream at a glance.
fn brief(e: &Value) -> String {
    let mut s = e["type"].as_str().unwrap().to_string();
    if let Some(n) = e["tool_name"].as_str() {
        s = format!("{s}:{n}");
    }
    if e["type"] == "topic" {
        s = format!("{s}:{}", e["title"].as_str().unwrap());
    }
    if let Some(t) = e["topic"].as_str() {
        s = format!("{s} @{t}");
    }
    s
}

fn system_text(body: &Value) -> String {
    body["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap()
        .to_string()
}

/// One SSE event of a model turn holding these parts.
fn sse_turn(parts: Value, rid: &str) -> String {
    format!(
        "data: {}\r\n\r\n",
        json!({"candidates":[{"content":{"parts":parts,"role":"model"},"finishReason":"STOP","index":0}],
               "usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":30,"totalTokenCount":150},
               "modelVersion":gemline::provider::DEFAULT_MODEL,"responseId":rid})
    )
}

fn call(name: &str, args: Value) -> Value {
    json!({"functionCall":{"name":name,"args":args}})
}

fn bmw_bar() -> Value {
    json!({"chartType":"bar","title":"BMW 0-60 mph","unit":"s","sort":"asc",
           "series":[{"name":"0-60 mph","points":[{"label":"M5 CS","value":2.9},
           {"label":"M8 Competition","value":3.0},{"label":"M3 Competition xDrive","value":3.4}]}]})
}

fn session_id(stdout: &str) -> String {
    let first: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["type"], "init");
    first["session_id"].as_str().unwrap().to_string()
}

const FOOTER_TAIL: &str = "If the current active topic no longer describes your current phase of work, \
                           use create_new_topic to start a new chapter.";

#[test]
fn gem_ask_chapter_through_topic_tag_viz_render_and_the_session() {
    // Turn 1: the model writes render_visualization BEFORE create_new_topic
    // in one turn; then answers. Turn 2 (a second gem-ask run of the same
    // session): it opens a second chapter and answers.
    let server = FakeGemini::start(
        "e2e-topic",
        vec![
            Reply::sse(&sse_turn(
                json!([
                    call("render_visualization", bmw_bar()),
                    call("create_new_topic", json!({"title":"Charting BMW data"})),
                ]),
                "r1",
            )),
            Reply::sse(&sse_turn(
                json!([{"text":"The M5 CS is the quickest."}]),
                "r2",
            )),
            Reply::sse(&sse_turn(
                json!([call("create_new_topic", json!({"title":"Summarizing"}))]),
                "r3",
            )),
            Reply::sse(&sse_turn(json!([{"text":"Done."}]), "r4")),
        ],
    );
    let home = temp_dir("e2e-topic");
    let first = run(gem_ask(&server, &home).arg("chart BMW 0-60"), b"");
    let id = session_id(&first);

    // gem-ask alone: the chapter comes before the turn's chart.
    let kinds: Vec<String> = events(&first).iter().map(brief).collect();
    assert_eq!(
        kinds,
        [
            "init",
            "message",
            "tool_use:create_new_topic",
            "topic:Charting BMW data",
            "tool_result",
            "tool_use:render_visualization",
            "visualization",
            "tool_result",
            "message",
            "result",
        ],
        "{first}"
    );
    // The system instruction stays the same through the turn (the cached
    // prefix): the new chapter is in the call's answer, not in it.
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    assert!(!system_text(&bodies[0]).contains("[Active Topic:"));
    assert_eq!(system_text(&bodies[1]), system_text(&bodies[0]));

    // topic-tag: the call becomes the chapter, gem-ask's own topic event
    // and the call's result go (one header, not two), the rest is stamped.
    let tagged = run(&mut cargo_bin_cmd!("topic-tag"), first.as_bytes());
    let kinds: Vec<String> = events(&tagged).iter().map(brief).collect();
    assert_eq!(
        kinds,
        [
            "init",
            "message",
            "topic:Charting BMW data @Charting BMW data",
            "tool_use:render_visualization @Charting BMW data",
            "visualization @Charting BMW data",
            "tool_result @Charting BMW data",
            "message @Charting BMW data",
            "result @Charting BMW data",
        ],
        "{tagged}"
    );

    // viz-render draws one numbered header, above the chart.
    let drawn = run(
        cargo_bin_cmd!("viz-render").args(["--width", "50", "--unicode", "--color", "never"]),
        tagged.as_bytes(),
    );
    let header = "── 1 · Charting BMW data ─────────────────────────";
    assert_eq!(drawn.matches("Charting BMW data").count(), 1, "{drawn}");
    let at = drawn.find(header).unwrap_or_else(|| panic!("{drawn}"));
    let chart = drawn.find("BMW 0-60 mph").unwrap();
    assert!(at < chart, "{drawn}");
    assert!(drawn.contains("The M5 CS is the quickest."));

    // topic-tag --current reads the session gem-ask wrote.
    let current = || {
        let mut cmd = cargo_bin_cmd!("topic-tag");
        cmd.env("XDG_DATA_HOME", &home)
            .env_remove("GEMINI_SESSION_ID")
            .args(["--current", "--session", &id]);
        run(&mut cmd, b"")
    };
    assert_eq!(current(), "[Active Topic: Charting BMW data]\n");

    // The next run of the session opens its user turn with the topic's
    // footer, and its new chapter is what --current then reports.
    let second = run(
        gem_ask(&server, &home).args(["--session", &id, "sum it up"]),
        b"",
    );
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 4);
    let context = crate::support::ask::turn_context(&bodies[2]);
    assert!(
        context.ends_with(&format!("[Active Topic: Charting BMW data]\n{FOOTER_TAIL}")),
        "{context}"
    );
    // Within the run, the prefix stays: the same system instruction, and
    // the request after the new chapter extends the one before.
    assert_eq!(system_text(&bodies[3]), system_text(&bodies[0]));
    let before = bodies[2]["contents"].as_array().unwrap();
    assert_eq!(
        bodies[3]["contents"].as_array().unwrap()[..before.len()],
        before[..]
    );
    assert_eq!(current(), "[Active Topic: Summarizing]\n");
    // The same id through GEMINI_SESSION_ID, as a shell would pass it on.
    cargo_bin_cmd!("topic-tag")
        .env("XDG_DATA_HOME", &home)
        .env("GEMINI_SESSION_ID", &id)
        .arg("--current")
        .assert()
        .success()
        .stdout("[Active Topic: Summarizing]\n");

    // Both runs as one stream: two numbered chapters.
    let both = format!("{first}{second}");
    let tagged = run(&mut cargo_bin_cmd!("topic-tag"), both.as_bytes());
    let drawn = run(
        cargo_bin_cmd!("viz-render").args(["--width", "30", "--ascii", "--color", "never"]),
        tagged.as_bytes(),
    );
    let headers: Vec<&str> = drawn.lines().filter(|l| l.starts_with("-- ")).collect();
    assert_eq!(
        headers,
        [
            "-- 1 . Charting BMW data -----",
            "-- 2 . Summarizing -----------"
        ],
        "{drawn}"
    );
    std::fs::remove_dir_all(&home).ok();
}

#[test]
fn an_oddly_spaced_title_is_one_chapter_through_topic_tag() {
    // gem-ask tidies the title of the chapter it opens; topic-tag, making
    // the chapter from the call's raw arguments, must land on the same
    // title, or gem-ask's own topic event would open a second chapter.
    let server = FakeGemini::start(
        "e2e-spacing",
        vec![
            Reply::sse(&sse_turn(
                json!([call(
                    "create_new_topic",
                    json!({"title":"  Charting\n BMW  data "})
                )]),
                "s1",
            )),
            Reply::sse(&sse_turn(json!([{"text":"ok"}]), "s2")),
        ],
    );
    let home = temp_dir("e2e-spacing");
    let out = run(gem_ask(&server, &home).args(["--no-history", "go"]), b"");
    let tagged = run(&mut cargo_bin_cmd!("topic-tag"), out.as_bytes());
    let kinds: Vec<String> = events(&tagged).iter().map(brief).collect();
    assert_eq!(
        kinds,
        [
            "init",
            "message",
            "topic:Charting BMW data @Charting BMW data",
            "message @Charting BMW data",
            "result @Charting BMW data",
        ],
        "{tagged}"
    );
    std::fs::remove_dir_all(&home).ok();
}

#[test]
fn gem_asks_chapter_takes_a_summary_and_intent_as_gemini_cli_does() {
    // The model's text, then its call of create_new_topic with gemini-cli's
    // update_topic arguments; after the call, its answer.
    let args = json!({"title":"Charting BMW data","summary":"The figures are in. Now one bar chart of them.",
                      "strategic_intent":"Draw the chart."});
    let server = FakeGemini::start(
        "e2e-topic-summary",
        vec![
            Reply::sse(&sse_turn(
                json!([{"text":"I have the figures."}, call("create_new_topic", args)]),
                "t1",
            )),
            Reply::sse(&sse_turn(
                json!([{"text":"The M5 CS is the quickest."}]),
                "t2",
            )),
        ],
    );
    let home = temp_dir("e2e-topic-summary");
    let out = run(gem_ask(&server, &home).args(["--no-history", "go"]), b"");
    let mut topic = events(&out)
        .into_iter()
        .find(|e| e["type"] == "topic")
        .unwrap();
    topic.as_object_mut().unwrap().remove("timestamp");
    assert_eq!(
        topic,
        json!({"type":"topic","title":"Charting BMW data","summary":"The figures are in. Now one bar chart of them.",
               "strategic_intent":"Draw the chart."})
    );
    // The same chapter, once, from gem-ask's stream as it is or tagged;
    // the answer after the call is a paragraph of its own.
    let want = "I have the figures.\n\n## 1. Charting BMW data\n\n\
                _The figures are in. Now one bar chart of them._\n\n\
                **Intent:** Draw the chart.\n\n\
                The M5 CS is the quickest.\n";
    let tagged = run(&mut cargo_bin_cmd!("topic-tag"), out.as_bytes());
    for stream in [&out, &tagged] {
        let md = run(
            cargo_bin_cmd!("viz-render").args(["--format", "markdown"]),
            stream.as_bytes(),
        );
        assert!(md.ends_with(want), "{md}");
    }
    std::fs::remove_dir_all(&home).ok();
}

/// A shell with the freshly built programs first on PATH.
fn sh(script: &str) -> String {
    let dir = cargo_bin!("topic-tag").parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = StdCommand::new("sh")
        .args(["-c", &format!("set -e; {script}")])
        .env("PATH", path)
        .env("COLUMNS", "40")
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_shell_recipe_of_the_issue_numbers_the_chapters() {
    let drawn = sh(
        "{ topic-tag Build; printf 'compiling gemline\\n==> Tests\\n12 passed\\n' \
         | topic-tag --wrap --split '^==> '; } | viz-render --unicode --color never",
    );
    assert_eq!(
        drawn,
        "── 1 · Build ───────────────────────────\n\
         \n\
         compiling gemline\n\
         \n\
         ── 2 · Tests ───────────────────────────\n\
         \n\
         12 passed\n"
    );
    // The same through topic-tag --summary and viz-render --chapters.
    let chapters = sh(
        "{ topic-tag Build; printf 'compiling gemline\\n==> Tests\\n12 passed\\n' \
         | topic-tag --wrap --split '^==> '; } | viz-render --chapters --ascii --color never",
    );
    assert_eq!(
        chapters,
        "-- 1 . Build ---------------------------\n   \
         1 event, 0 tool calls, 0 errors\n\
         -- 2 . Tests ---------------------------\n   \
         1 event, 0 tool calls, 0 errors\n"
    );
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/topic")
        .join(name)
}

/// `(title, events, tool_calls, errors)` of a `topic_summary` event.
fn summary_counts(summary: &Value) -> Vec<(String, u64, u64, u64)> {
    summary["chapters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["title"].as_str().unwrap_or("-").to_string(),
                c["events"].as_u64().unwrap(),
                c["tool_calls"].as_u64().unwrap(),
                c["errors"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// `(title, events, tool_calls, errors)` from `viz-render --chapters --ascii`:
/// each chapter's rule, its summary's line when it has one, its counts.
fn chapters_counts(drawn: &str) -> Vec<(String, u64, u64, u64)> {
    let mut chapters: Vec<Vec<&str>> = Vec::new();
    for line in drawn.lines() {
        match chapters.last_mut() {
            Some(c) if !line.starts_with("-- ") => c.push(line),
            _ => chapters.push(vec![line]),
        }
    }
    chapters
        .iter()
        .map(|lines| {
            let head = lines[0].trim_start_matches("-- ");
            let title = match head.split_once(" . ") {
                Some((_, rest)) => rest.trim_end_matches('-').trim_end().to_string(),
                None => "-".to_string(),
            };
            let n: Vec<u64> = lines[lines.len() - 1]
                .split(',')
                .map(|p| p.split_whitespace().next().unwrap().parse().unwrap())
                .collect();
            (title, n[0], n[1], n[2])
        })
        .collect()
}

#[test]
fn summary_of_a_build_log_and_viz_render_chapters_agree() {
    let log = data("build.log");
    let tagged = run(
        cargo_bin_cmd!("topic-tag").args([
            "--wrap",
            "--split",
            "^==> ",
            "--summary",
            "-i",
            log.to_str().unwrap(),
        ]),
        b"",
    );
    let summary: Value = serde_json::from_str(tagged.lines().last().unwrap()).unwrap();
    let expected = vec![
        (
            "Configuring gemline v0.1.0 (/home/ci/gemline)".to_string(),
            2,
            0,
            0,
        ),
        ("Build".to_string(), 11, 0, 0),
        ("Tests".to_string(), 7, 0, 0),
        ("Package".to_string(), 1, 0, 0),
    ];
    assert_eq!(summary_counts(&summary), expected, "{summary}");
    assert_eq!(
        summary["total"],
        json!({"events":21,"tool_calls":0,"errors":0})
    );
    // The whole stream, summary included: `topic_summary` is not an event
    // of any chapter, and viz-render does not count it.
    let drawn = run(
        cargo_bin_cmd!("viz-render").args(["--chapters", "--ascii", "--width", "120"]),
        tagged.as_bytes(),
    );
    assert_eq!(chapters_counts(&drawn), expected, "{drawn}");
}

#[test]
fn summary_and_chapters_agree_on_agent_streams() {
    for name in ["gemini-cli-stream.jsonl", "gem-ask-stream.jsonl"] {
        let path = data(name);
        let with_summary = run(
            cargo_bin_cmd!("topic-tag").args(["--summary", "-i", path.to_str().unwrap()]),
            b"",
        );
        let summary: Value = serde_json::from_str(with_summary.lines().last().unwrap()).unwrap();
        let tagged = run(
            cargo_bin_cmd!("topic-tag").args(["-i", path.to_str().unwrap()]),
            b"",
        );
        let drawn = run(
            cargo_bin_cmd!("viz-render").args(["--chapters", "--ascii", "--width", "120"]),
            tagged.as_bytes(),
        );
        assert_eq!(
            chapters_counts(&drawn),
            summary_counts(&summary),
            "{name}: {drawn}\n{summary}"
        );
    }
}

fn evals_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("evals")
}

/// The model's answers for evals/testdata/smoke-prompts.jsonl, in order:
/// a multi-step chart prompt done right (two chapters, the chart's calls
/// written in the wrong order), a one-line answer, and a multi-step prompt
/// answered without chapters.
fn eval_server(name: &str) -> FakeGemini {
    FakeGemini::start(
        name,
        vec![
            Reply::sse(&sse_turn(
                json!([{"text":"Looking up the figures."},
                       call("create_new_topic", json!({"title":"Researching BMW 0-60 times"}))]),
                "e1",
            )),
            Reply::sse(&sse_turn(
                json!([
                    call("render_visualization", bmw_bar()),
                    call("create_new_topic", json!({"title":"Charting"}))
                ]),
                "e2",
            )),
            Reply::sse(&sse_turn(
                json!([{"text":"The M5 CS is the quickest."}]),
                "e3",
            )),
            Reply::sse(&sse_turn(
                json!([{"text":"To draw fine-grained plots with 2x4 dots per cell."}]),
                "e4",
            )),
            Reply::sse(&sse_turn(
                json!([{"text":"1. Look for shared state. 2. Re-run it in a loop."}]),
                "e5",
            )),
        ],
    )
}

/// Runs evals/run.py; the key and base URL come from `env`.
fn eval_py(args: &[&str], env: &[(&str, &str)], home: &Path) -> std::process::Output {
    let mut cmd = StdCommand::new("python3");
    cmd.arg(evals_dir().join("run.py"))
        .arg("--gem-ask")
        .arg(cargo_bin!("gem-ask"))
        .arg("--prompts")
        .arg(evals_dir().join("testdata/smoke-prompts.jsonl"))
        .args(args)
        .env("XDG_DATA_HOME", home)
        .env("GEMLINE_RETRY_BASE_MS", "1");
    for k in support::GEMINI_ENV {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("python3 runs evals/run.py")
}

/// The eval's lines without what varies from run to run.
fn eval_lines(out: &std::process::Output) -> Vec<Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            v.as_object_mut().unwrap().remove("duration_ms");
            v
        })
        .collect()
}

fn expected_eval() -> Vec<Value> {
    vec![
        json!({"type":"eval_case","id":"chart-in-chapters","exit":0,"status":"success",
               "topics":["Researching BMW 0-60 times","Charting"],
               "tool_calls":["create_new_topic","create_new_topic","render_visualization"],
               "charts":1,"reopened_topics":0,"chart_in_chapter":true,
               "chapters_ok":true,"chart_ok":true,"stderr":""}),
        json!({"type":"eval_case","id":"no-chart","exit":0,"status":"success",
               "topics":[],"tool_calls":[],"charts":0,"reopened_topics":0,"chart_in_chapter":null,
               "chapters_ok":null,"chart_ok":true,"stderr":""}),
        json!({"type":"eval_case","id":"plan-without-chapters","exit":0,"status":"success",
               "topics":[],"tool_calls":[],"charts":0,"reopened_topics":0,"chart_in_chapter":null,
               "chapters_ok":false,"chart_ok":true,"stderr":""}),
        json!({"type":"eval_summary","cases":3,"errors":0,"chapter_rate":0.5,
               "chart_when_asked_rate":1.0,"no_chart_when_not_asked_rate":1.0,
               "mean_topics_multi_step":1.0}),
    ]
}

#[test]
fn eval_replays_offline_and_records_what_it_replays() {
    let home = temp_dir("e2e-eval");
    // The committed recording, with no key and no network.
    let replay = evals_dir().join("testdata/smoke.replay");
    let out = eval_py(
        &["--replay", replay.to_str().unwrap()],
        &[("GEMINI_BASE_URL", "http://127.0.0.1:9")],
        &home,
    );
    assert_eq!(eval_lines(&out), expected_eval());

    // --record against the (fake) live API scores the same and writes a
    // file that replays to the same scores.
    let server = eval_server("e2e-eval");
    let file = home.join("fresh.replay");
    let out = eval_py(
        &["--record", file.to_str().unwrap()],
        &[("GEMINI_API_KEY", KEY), ("GEMINI_BASE_URL", &server.url)],
        &home,
    );
    assert_eq!(eval_lines(&out), expected_eval());
    assert_eq!(server.requests().len(), 5);
    let recorded = std::fs::read_to_string(&file).unwrap();
    assert_eq!(recorded.lines().count(), 5);
    assert!(!recorded.contains(KEY));
    let out = eval_py(&["--replay", file.to_str().unwrap()], &[], &home);
    assert_eq!(eval_lines(&out), expected_eval());

    // No key and no replay: skipped, exit 0, one line.
    let out = eval_py(&[], &[], &home);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"type\": \"eval_summary\", \"skipped\": \"GEMINI_API_KEY is not set\"}\n"
    );
    std::fs::remove_dir_all(&home).ok();
}

/// Rewrites evals/testdata/smoke.replay from the scripted answers:
/// `cargo test --test it -- --ignored topics_e2e::regenerate_eval_replay`.
#[test]
#[ignore]
fn regenerate_eval_replay() {
    let home = temp_dir("e2e-eval-regen");
    let server = eval_server("e2e-eval-regen");
    let file = evals_dir().join("testdata/smoke.replay");
    let out = eval_py(
        &["--record", file.to_str().unwrap()],
        &[("GEMINI_API_KEY", KEY), ("GEMINI_BASE_URL", &server.url)],
        &home,
    );
    assert_eq!(eval_lines(&out), expected_eval());
    std::fs::remove_dir_all(&home).ok();
}

/// The README's CI-log recipe, run as written (with `make` replaced by a
/// failing build's output): --error makes the summary count the errors.
#[test]
fn the_readme_ci_recipe_counts_a_failed_builds_errors() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let recipe = readme
        .lines()
        .find(|l| l.starts_with("make 2>&1 | topic-tag --wrap"))
        .expect("the CI-log recipe");
    assert!(recipe.contains("--error "), "{recipe}");
    let bin_dir = cargo_bin("topic-tag").parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script = recipe.replacen(
        "make 2>&1",
        "printf '==> Build\\ncompiling\\nerror: mismatched types\\nbuild failed\\n'",
        1,
    );
    let out = StdCommand::new("sh")
        .args(["-c", &script])
        .env("PATH", path)
        .env("COLUMNS", "60")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("| 1 | Build   | 3      | 0          | 2      |"),
        "{stderr}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("error: mismatched types"), "{stdout}");
}

/// What the README claims: the demo replay is scripted (not a recording
/// of the live API), gemini-cli streams go through viz-parse, and the
/// benchmark scripts it lists exist.
#[test]
fn the_readme_says_what_is_true() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(!readme.contains("recorded Gemini session"));
    assert!(readme.contains("scripted Gemini session in the recorded wire format"));
    for l in readme.lines().filter(|l| l.contains("stream-json |")) {
        assert!(l.contains("stream-json | viz-parse |"), "{l}");
    }
    for script in [
        "benches/viz.sh",
        "benches/gem_ask.sh",
        "benches/topic_tag.sh",
    ] {
        assert!(readme.contains(&format!("`{script}`")), "{script}");
        assert!(root.join(script).exists(), "{script}");
    }
}
