//! Issue 35's rest: `gem-ask map` under `--max-requests`, `--max-tokens`
//! and `--max-cost` (records not sent are written as not done, and a rerun
//! with `--output` sends them); a map run listed, searched and filtered by
//! `gem-ask log`; a one-shot run stopped by a cap found by
//! `log list --status budget`. The fake server reports each request's usage.

use serde_json::Value;

use crate::support::ask::{ask_in as ask, run, text_reply};
use crate::support::tools::{Scene, call, calls_reply};
use crate::support::{FakeGemini, events};

/// Five records, one a request.
const INPUT: &str = "{\"x\": 1}\n{\"x\": 2}\n{\"x\": 3}\n{\"x\": 4}\n{\"x\": 5}\n";

/// Enough answers for five records: 10 prompt and 2 answer tokens each.
fn answers(name: &str) -> FakeGemini {
    FakeGemini::start(
        name,
        (0..5)
            .map(|i| text_reply(&format!("a{i}"), 10, 2))
            .collect(),
    )
}

fn out_lines(scene: &Scene) -> Vec<Value> {
    std::fs::read_to_string(scene.work.join("out.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `gem-ask log show ID`'s closing `result`.
fn shown_result(scene: &Scene, server: &FakeGemini, id: &str) -> Value {
    let (code, out, err) = run(&mut ask(scene, server, &["log", "show", id]));
    assert_eq!(code, 0, "{err}");
    let ev = events(&out);
    ev.into_iter().find(|e| e["type"] == "result").unwrap()
}

/// `gem-ask log ARGS`' records.
fn log(scene: &Scene, server: &FakeGemini, args: &[&str]) -> Vec<Value> {
    let (code, out, err) = run(&mut ask(scene, server, &[&["log"], args].concat()));
    assert_eq!(code, 0, "{args:?}: {err}");
    events(&out)
        .into_iter()
        .map(|l| l["record"].clone())
        .collect()
}

/// `gem-ask --model m-test FLAGS map -j 1 MAP_ARGS in.jsonl`: one request
/// at a time, so the fake's answers go in order.
fn map(
    scene: &Scene,
    server: &FakeGemini,
    flags: &[&str],
    map_args: &[&str],
) -> (i32, String, String) {
    let args = [
        &["--model", "m-test"],
        flags,
        &["map", "-j", "1"],
        map_args,
        &["in.jsonl"],
    ]
    .concat();
    run(&mut ask(scene, server, &args))
}

const PRICES: &str = "[prices.\"m-test\"]\ninput = 1.0\ncached_input = 0.5\noutput = 2.0\n";

#[test]
fn a_map_run_stops_at_each_cap_and_a_rerun_sends_what_was_not_sent() {
    // 12 tokens a request: the third would pass 30 (24 + at least 10);
    // $0.000014 a request: the third would pass $0.00003.
    for (flags, kind) in [
        (["--max-requests", "2"], "max_requests"),
        (["--max-tokens", "30"], "max_tokens"),
        (["--max-cost", "0.00003"], "max_cost"),
    ] {
        let scene = Scene::new(&format!("map-{kind}"));
        scene.config(PRICES);
        std::fs::write(scene.work.join("in.jsonl"), INPUT).unwrap();
        let server = answers(kind);
        let (code, out, err) = map(&scene, &server, &flags, &["-o", "out.jsonl", "say {x}"]);
        assert_eq!(code, 11, "{kind}: {err}");
        assert_eq!(server.bodies().len(), 2, "{kind}");
        crate::gem_ask_budget::assert_capped(&out, kind, flags[0]);
        let lines = out_lines(&scene);
        assert_eq!(lines.len(), 5, "{lines:?}");
        let not_sent: Vec<&Value> = lines.iter().filter(|l| l.get("answer").is_none()).collect();
        assert_eq!(not_sent.len(), 3, "{lines:?}");
        for l in &not_sent {
            assert_eq!(l["error"]["type"], kind, "{l}");
            assert!(l["_failed_key"].is_string(), "{l}");
        }
        // Without the cap, the rerun sends the three, and only them.
        let server = answers(&format!("{kind}-rerun"));
        let (code, _, err) = map(&scene, &server, &[], &["-o", "out.jsonl", "say {x}"]);
        assert_eq!(code, 0, "{kind}: {err}");
        assert_eq!(server.bodies().len(), 3, "{kind}");
    }
}

#[test]
fn map_runs_are_listed_searched_and_filtered_by_the_log() {
    let scene = Scene::new("map-log");
    scene.config(PRICES);
    std::fs::write(scene.work.join("in.jsonl"), INPUT).unwrap();
    let server = answers("map-log-capped");
    let (code, _, err) = map(
        &scene,
        &server,
        &["--max-requests", "1"],
        &["classify {x} gravel"],
    );
    assert_eq!(code, 11, "{err}");
    let server = answers("map-log-done");
    let (code, _, err) = map(&scene, &server, &[], &["summarize {x} pebble"]);
    assert_eq!(code, 0, "{err}");

    let all = log(&scene, &server, &["list"]);
    assert_eq!(all.len(), 2, "{all:?}");
    for r in &all {
        assert!(r["session"].as_str().unwrap().starts_with("map-"), "{r}");
        assert_eq!(r["model"], "m-test", "{r}");
    }
    let capped = log(&scene, &server, &["list", "--status", "budget"]);
    assert_eq!(capped.len(), 1, "{capped:?}");
    assert_eq!(capped[0]["prompt"], "classify {x} gravel");
    assert!(
        capped[0]["topic"]
            .as_str()
            .unwrap()
            .contains("5 records, 1 answered, 4 failed"),
        "{}",
        capped[0]
    );
    let id = capped[0]["session"].as_str().unwrap();
    let shown = shown_result(&scene, &server, id);
    assert_eq!(shown["error"]["type"], "max_requests", "{shown}");
    let done = log(&scene, &server, &["list", "--status", "success"]);
    assert_eq!(done.len(), 1, "{done:?}");
    assert_eq!(done[0]["tokens"], 60, "{}", done[0]);
    assert!((done[0]["cost_usd"].as_f64().unwrap() - 5.0 * 14e-6).abs() < 1e-9);
    // The template and the inputs' names are searched.
    let found = log(&scene, &server, &["search", "pebble"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["session"], done[0]["session"]);
    let found = log(&scene, &server, &["search", "in.jsonl"]);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found.iter().all(|f| f["kind"] == "map_input"), "{found:?}");

    // --no-history: no run file.
    let server = answers("map-log-none");
    let (code, _, err) = map(&scene, &server, &["--no-history"], &["x {x}"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(log(&scene, &server, &["list"]).len(), 2);
}

#[test]
fn a_run_stopped_by_a_cap_leaves_its_status_in_the_session() {
    let scene = Scene::new("stopped-status");
    let progress = || {
        calls_reply(&[call(
            "signal",
            serde_json::json!({"kind": "progress", "message": "working"}),
        )])
    };
    let server = FakeGemini::start(
        "stopped-status",
        vec![progress(), progress(), text_reply("Done.", 10, 2)],
    );
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &["--max-requests", "1", "tell me about basalt"],
    ));
    assert_eq!(code, 11, "{err}");
    let server = FakeGemini::start("stopped-status-ok", vec![text_reply("Done.", 10, 2)]);
    let (code, _, err) = run(&mut ask(&scene, &server, &["tell me about granite"]));
    assert_eq!(code, 0, "{err}");

    let stopped = log(&scene, &server, &["list", "--status", "budget"]);
    assert_eq!(stopped.len(), 1, "{stopped:?}");
    assert_eq!(stopped[0]["prompt"], "tell me about basalt");
    let id = stopped[0]["session"].as_str().unwrap();
    let shown = shown_result(&scene, &server, id);
    assert_eq!(shown["error"]["type"], "max_requests", "{shown}");
    let found = log(&scene, &server, &["search", "max-requests"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["kind"], "stop");
    assert_eq!(
        log(&scene, &server, &["list", "--status", "success"]).len(),
        1
    );

    // An error the API answered: status error, with its prompt.
    let bad = r#"{"error":{"code":400,"message":"bad request","status":"INVALID_ARGUMENT"}}"#;
    let server = FakeGemini::start(
        "stopped-status-error",
        vec![crate::support::Reply::json(400, bad)],
    );
    let (code, _, err) = run(&mut ask(&scene, &server, &["tell me about pumice"]));
    assert_ne!(code, 0, "{err}");
    let failed = log(&scene, &server, &["list", "--status", "error"]);
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["prompt"], "tell me about pumice");

    // The same session continued to a completed turn is no longer stopped.
    let id = stopped[0]["session"].as_str().unwrap();
    let server = FakeGemini::start("stopped-status-again", vec![text_reply("Done.", 10, 2)]);
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &["--session", id, "and basalt again"],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(log(&scene, &server, &["list", "--status", "budget"]).is_empty());
}

/// A session's content records and its last `stop` record's status: a
/// stopped turn keeps no content, only that it stopped.
pub(crate) fn kept(home: &std::path::Path, id: &str) -> (usize, Option<String>) {
    let path = home.join(format!("gemline/sessions/{id}.jsonl"));
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let contents = lines.iter().filter(|l| l["record"] == "content").count();
    let stop = lines
        .iter()
        .rfind(|l| l["record"] == "stop")
        .map(|l| l["status"].as_str().unwrap().to_string());
    (contents, stop)
}
