//! Task mode (`-t TASK`) against the fake Gemini server replaying recorded
//! Gemini 3.1 answers with scripted calls: it completes on `task_complete`,
//! continues a turn that did not with a message restating the task, and
//! stops at the iteration limit, the time limit, a request for input and
//! `--auto-continue off`, each with its exit code and `result` error.

use std::process::Output;
use std::time::Duration;

use crate::support::tools::{Scene, answer_reply, call, calls_reply, declared, finish, responses};
use crate::support::{FakeGemini, events, of_type};
use serde_json::{Value, json};

const TASK: &str = "write notes.txt with a summary";

fn signal(args: Value) -> Value {
    call("signal", args)
}

/// gem-ask -t TASK ARGS without a terminal; its output.
fn task(scene: &Scene, server: &FakeGemini, args: &[&str]) -> Output {
    let mut all = vec!["-t", TASK];
    all.extend_from_slice(args);
    finish(scene.spawn(server, None, &all))
}

/// The text of the last user content of a request body.
fn last_user_text(body: &Value) -> String {
    body["contents"].as_array().unwrap().last().unwrap()["parts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["text"].as_str())
        .collect()
}

fn result(ev: &[Value]) -> &Value {
    let r = ev.last().unwrap();
    assert_eq!(r["type"], "result");
    r
}

fn session_lines(scene: &Scene, ev: &[Value]) -> Vec<Value> {
    let id = ev[0]["session_id"].as_str().unwrap();
    std::fs::read_to_string(scene.home.join(format!("gemline/sessions/{id}.jsonl")))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_task_completes_on_task_complete() {
    let scene = Scene::new("task-complete");
    let server = FakeGemini::start(
        "task-complete",
        vec![
            // Round 1: a progress signal, then text, no completion.
            calls_reply(&[signal(
                json!({"kind": "progress", "progress": 50, "message": "half"}),
            )]),
            answer_reply(),
            // Round 2: done.
            calls_reply(&[signal(
                json!({"kind": "task_complete", "message": "notes written"}),
            )]),
            answer_reply(),
        ],
    );
    let out = task(&scene, &server, &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ev = events(&out.stdout);
    let signals: Vec<(&str, Option<u64>)> = of_type(&ev, "signal")
        .iter()
        .map(|s| (s["signal"].as_str().unwrap(), s["progress"].as_u64()))
        .collect();
    assert_eq!(signals, [("progress", Some(50)), ("task_complete", None)]);
    let r = result(&ev);
    assert_eq!(r["status"], "success");
    assert_eq!(r["stats"]["iterations"], 2);
    assert_eq!(r["stats"]["requests"], 4);
    // Each round's user message is in the stream.
    let users: Vec<&str> = ev
        .iter()
        .filter(|e| e["type"] == "message" && e["role"] == "user")
        .map(|e| e["content"].as_str().unwrap())
        .collect();
    assert_eq!(users.len(), 2);
    assert!(users[0].starts_with(&format!("Task: {TASK}")));
    assert!(users[1].starts_with(&format!("Continue. The task: {TASK}")));

    let bodies = server.bodies();
    assert_eq!(bodies.len(), 4);
    assert_eq!(last_user_text(&bodies[0]), users[0]);
    assert_eq!(last_user_text(&bodies[2]), users[1]);
    // Round 2 is sent with round 1's whole conversation before it.
    let c = bodies[2]["contents"].as_array().unwrap();
    assert_eq!(c.len(), 5);
    assert_eq!(c[2]["parts"][0]["functionResponse"]["name"], "signal");
    assert_eq!(
        responses(&bodies[3])[0]["response"]["output"],
        "Noted: the task is marked complete. Give a short final summary and call no more tools."
    );
    let system = bodies[0]["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(system.contains("You have at most 10 rounds"), "{system}");
    // The agent tools are declared in task mode, signal among them.
    let names = declared(&bodies[0]);
    for t in ["read_file", "write_file", "run_shell_command", "signal"] {
        assert!(names.iter().any(|n| n == t), "{t}: {names:?}");
    }
    // Both rounds are stored: meta, then user/model/user/model and the
    // turn's tokens per round.
    let lines = session_lines(&scene, &ev);
    let records: Vec<&str> = lines[1..]
        .iter()
        .map(|l| match l["record"].as_str().unwrap() {
            "content" => l["content"]["role"].as_str().unwrap(),
            other => other,
        })
        .collect();
    assert_eq!(
        records,
        [
            "user", "model", "user", "model", "turn", "user", "model", "user", "model", "turn"
        ]
    );
}

#[test]
fn tools_named_with_tools_keep_signal_in_task_mode() {
    let scene = Scene::new("task-tools");
    let server = FakeGemini::start(
        "task-tools",
        vec![
            calls_reply(&[signal(json!({"kind": "task_complete"}))]),
            answer_reply(),
        ],
    );
    let out = task(&scene, &server, &["--tools", "read_file"]);
    assert!(out.status.success());
    assert_eq!(declared(&server.bodies()[0]), ["read_file", "signal"]);
}

#[test]
fn the_iteration_limit_stops_the_task_with_exit_6() {
    let scene = Scene::new("task-iterations");
    let server = FakeGemini::start(
        "task-iterations",
        vec![answer_reply(), answer_reply(), answer_reply()],
    );
    let out = task(&scene, &server, &["--max-iterations", "2"]);
    assert_eq!(out.status.code(), Some(6));
    let ev = events(&out.stdout);
    let r = result(&ev);
    assert_eq!(r["error"]["type"], "max_iterations");
    assert_eq!(
        r["error"]["message"],
        "the task was not complete after 2 iterations (--max-iterations)"
    );
    assert_eq!(r["stats"]["iterations"], 2);
    assert_eq!(server.bodies().len(), 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("gem-ask: error: the task was not complete")
    );
    // Both rounds are kept for a --continue, and then why the run stopped.
    let lines = session_lines(&scene, &ev);
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[7]["record"], "stop", "{}", lines[7]);
}

#[test]
fn the_time_limit_cuts_a_turn_with_exit_7() {
    let scene = Scene::new("task-timeout");
    // The model says nothing for 60 s; the task has 1.
    let server = FakeGemini::start(
        "task-timeout",
        vec![answer_reply().delay_each(Duration::from_secs(60))],
    );
    let out = task(&scene, &server, &["--task-timeout", "1"]);
    assert_eq!(out.status.code(), Some(7));
    let ev = events(&out.stdout);
    let r = result(&ev);
    assert_eq!(r["error"]["type"], "task_timeout");
    assert_eq!(
        r["error"]["message"],
        "the task was not complete after 1 s (--task-timeout)"
    );
    assert_eq!(r["stats"]["iterations"], 0);
}

#[test]
fn a_request_for_input_stops_an_unattended_task_with_exit_8() {
    let scene = Scene::new("task-input");
    let server = FakeGemini::start(
        "task-input",
        vec![
            calls_reply(&[signal(
                json!({"kind": "need_input", "message": "CSV or JSON?"}),
            )]),
            answer_reply(),
        ],
    );
    let out = task(&scene, &server, &[]);
    assert_eq!(out.status.code(), Some(8));
    let ev = events(&out.stdout);
    let r = result(&ev);
    assert_eq!(r["error"]["type"], "needs_input");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("the model needs input: CSV or JSON?")
    );
    assert_eq!(server.bodies().len(), 2);
}

#[test]
fn auto_continue_off_stops_after_one_turn() {
    let scene = Scene::new("task-no-auto");
    let server = FakeGemini::start("task-no-auto", vec![answer_reply(), answer_reply()]);
    let out = task(&scene, &server, &["--auto-continue", "off"]);
    assert_eq!(out.status.code(), Some(8));
    let ev = events(&out.stdout);
    assert!(
        result(&ev)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--auto-continue off")
    );
    assert_eq!(server.bodies().len(), 1);
}

#[test]
fn task_flags_are_checked() {
    let scene = Scene::new("task-usage");
    let server = FakeGemini::start("task-usage", vec![]);
    for args in [
        vec!["-t", " "],
        vec!["-t", TASK, "also a prompt"],
        vec!["-t", TASK, "--max-iterations", "0"],
        vec!["-t", TASK, "--task-timeout", "-1"],
    ] {
        let out = finish(scene.spawn(&server, None, &args));
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(server.requests().is_empty());
}

#[test]
fn a_model_that_never_stops_calling_tools_ends_at_the_iteration_limit_with_exit_6() {
    let scene = Scene::new("task-tool-rounds");
    let progress = || calls_reply(&[signal(json!({"kind": "progress", "message": "more"}))]);
    // Two iterations of two rounds each, the third call of each not run.
    let server = FakeGemini::start("task-tool-rounds", (0..6).map(|_| progress()).collect());
    let out = task(
        &scene,
        &server,
        &["--max-tool-rounds", "2", "--max-iterations", "2"],
    );
    assert_eq!(
        out.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ev = events(&out.stdout);
    let r = result(&ev);
    assert_eq!(r["error"]["type"], "max_iterations");
    assert_eq!(r["stats"]["iterations"], 2);
    assert_eq!(r["stats"]["requests"], 6);
    assert_eq!(r["stats"]["tool_calls"], 4, "two rounds run per iteration");
    let warnings: Vec<&str> = of_type(&ev, "error")
        .iter()
        .filter(|e| e["severity"] == "warning")
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warnings[0].starts_with("this iteration reached --max-tool-rounds (2)"));
    // The calls not run are answered so, and the next iteration follows.
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 6);
    let c = bodies[3]["contents"].as_array().unwrap();
    let unrun = &c[c.len() - 2]["parts"][0]["functionResponse"]["response"]["error"];
    assert!(
        unrun
            .as_str()
            .unwrap()
            .starts_with("not run: this iteration"),
        "{unrun}"
    );
    assert!(last_user_text(&bodies[3]).starts_with("Continue. The task:"));
    let system = bodies[0]["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        system.contains("at most 2 rounds, each with at most 2 steps"),
        "{system}"
    );
}
