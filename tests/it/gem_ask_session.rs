//! Sessions across runs: GEMINI_SESSION_ID, --new-chat, and a session file
//! that cannot be read.

use crate::support::ask::*;
use crate::support::{FakeGemini, Reply, Succeeds, fixture, kinds, temp_dir};
use serde_json::Value;

#[test]
fn session_from_the_environment_and_new_chat() {
    let sse = fixture("02-text-stream-gemini-2.5-flash-single-chunk.response.sse");
    let server = FakeGemini::start(
        "session-env",
        vec![Reply::sse(&sse), Reply::sse(&sse), Reply::sse(&sse)],
    );
    let home = temp_dir("session-env");
    let out = gem_ask(&server, &home)
        .env("GEMINI_SESSION_ID", "work-chat")
        .env_remove("GEMINI_BASE_URL")
        .env("GOOGLE_GEMINI_BASE_URL", &server.url)
        .arg("first")
        .succeeds();
    assert_eq!(session_id(&out.stdout), "work-chat");
    gem_ask(&server, &home)
        .env("GEMINI_SESSION_ID", "work-chat")
        .arg("second")
        .assert()
        .success();
    let out = gem_ask(&server, &home)
        .env("GEMINI_SESSION_ID", "work-chat")
        .args(["--new-chat", "third"])
        .succeeds();
    assert_ne!(session_id(&out.stdout), "work-chat");
    let b = server.bodies();
    let texts = |v: &Value| -> Vec<String> {
        v["contents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["parts"][0]["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(texts(&b[0]), ["first"]);
    assert_eq!(texts(&b[1]), ["first", "Paris", "second"]);
    assert_eq!(texts(&b[2]), ["third"]);
}

#[test]
fn an_unreadable_session_ends_inside_the_stream() {
    let server = FakeGemini::start("bad-session", vec![]);
    let home = temp_dir("bad-session");
    // A directory where the session file should be: it cannot be read.
    std::fs::create_dir_all(home.join("gemline/sessions/stuck.jsonl")).unwrap();
    let out = gem_ask(&server, &home)
        .args(["--session", "stuck", "hi"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(ev[2]["error"]["type"], "session_error");
    assert!(
        ev[2]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("cannot read session "),
        "{:?}",
        ev[2]
    );
    assert!(server.requests().is_empty());
}
