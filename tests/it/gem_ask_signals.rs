//! The `signal` tool end to end: the model's call becomes a `signal` event
//! between its `tool_use` and `tool_result` and an acknowledgement in the
//! next request; a progress signal is a progress line on stderr when that
//! is a terminal (never on stdout); `--progress-reporting off` takes the
//! `progress` kind away.

use std::process::Stdio;

use crate::support::tools::{Pty, Scene, answer_reply, call, calls_reply, finish, responses};
use crate::support::{FakeGemini, of_type};
use serde_json::{Value, json};

fn signal(args: Value) -> Value {
    call("signal", args)
}

#[test]
fn a_signal_call_is_an_event_and_an_acknowledgement() {
    let scene = Scene::new("signal-event");
    let server = FakeGemini::start(
        "signal-event",
        vec![
            calls_reply(&[signal(
                json!({"kind": "progress", "progress": 40, "message": "tests written"}),
            )]),
            answer_reply(),
        ],
    );
    let ev = scene.run(&server, &["go"]);
    let kinds: Vec<&str> = ev.iter().map(|e| e["type"].as_str().unwrap()).collect();
    let at = kinds.iter().position(|k| *k == "signal").unwrap();
    assert_eq!(kinds[at - 1], "tool_use");
    assert_eq!(kinds[at + 1], "tool_result");
    let mut sig = ev[at].clone();
    sig.as_object_mut().unwrap().remove("timestamp");
    assert_eq!(
        sig,
        json!({"type": "signal", "signal": "progress", "progress": 40, "message": "tests written"})
    );
    assert_eq!(ev[at + 1]["status"], "success");
    // An auto tool: no consent field.
    assert!(ev[at + 1].get("consent").is_none());
    let bodies = server.bodies();
    let decl = bodies[0]["tools"][0]["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "signal")
        .unwrap()
        .clone();
    assert_eq!(
        decl["parameters"]["properties"]["kind"]["enum"],
        json!(["need_input", "task_complete", "progress"])
    );
    let system = bodies[0]["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(system.contains("Use signal to say where the work stands"));
    let r = responses(&bodies[1]);
    assert_eq!(r[0]["name"], "signal");
    assert_eq!(r[0]["id"], "call-1");
    assert_eq!(
        r[0]["response"]["output"],
        "Progress noted (40%). Go on with the work."
    );
}

#[test]
fn progress_reporting_off_takes_the_kind_away() {
    let scene = Scene::new("signal-off");
    let server = FakeGemini::start(
        "signal-off",
        vec![
            calls_reply(&[signal(json!({"kind": "progress", "progress": 10}))]),
            answer_reply(),
        ],
    );
    let ev = scene.run(&server, &["--progress-reporting", "off", "go"]);
    assert!(of_type(&ev, "signal").is_empty());
    let result = of_type(&ev, "tool_result")[0];
    assert_eq!(result["status"], "error");
    assert_eq!(result["error"]["type"], "invalid_arguments");
    let bodies = server.bodies();
    let decl = &bodies[0]["tools"][0]["functionDeclarations"];
    let kinds = decl
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "signal")
        .unwrap()["parameters"]["properties"]["kind"]["enum"]
        .clone();
    assert_eq!(kinds, json!(["need_input", "task_complete"]));
    let system = bodies[0]["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(!system.contains("kind progress"), "{system}");
    assert!(
        responses(&bodies[1])[0]["response"]["error"]
            .as_str()
            .unwrap()
            .contains("--progress-reporting off")
    );
}

#[test]
fn progress_shows_on_a_terminal_stderr_never_on_stdout() {
    let scene = Scene::new("signal-line");
    let server = FakeGemini::start(
        "signal-line",
        vec![
            calls_reply(&[signal(
                json!({"kind": "progress", "progress": 75, "message": "almost\x1b[2J there"}),
            )]),
            answer_reply(),
        ],
    );
    let pty = Pty::open();
    let stderr = std::fs::OpenOptions::new()
        .write(true)
        .open(&pty.path)
        .unwrap();
    let out = finish(
        scene
            .gem_ask(&server, None)
            .arg("go")
            .stderr(Stdio::from(stderr))
            .spawn()
            .unwrap(),
    );
    assert!(out.status.success());
    pty.wait_for("gem-ask: progress  75%: almost^[[2J there", 1);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!stdout.contains("gem-ask: progress"));
    // Into a pipe, stderr gets no progress line.
    let server = FakeGemini::start(
        "signal-line-pipe",
        vec![
            calls_reply(&[signal(json!({"kind": "progress", "progress": 75}))]),
            answer_reply(),
        ],
    );
    let out = finish(scene.spawn(&server, None, &["go"]));
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("progress"));
}
