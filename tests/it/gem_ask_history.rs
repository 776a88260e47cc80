//! History past `--max-history-tokens` against the fake Gemini server:
//! each turn's tokens are stored in the session; a run that finds the
//! history over the limit first asks the model for a summary of the oldest
//! turns (one extra request, no tools), sends the summary in their place,
//! and stores it with the turns it covers left in the file; later runs
//! build their requests from the summary.

use crate::support;

use std::path::Path;

use crate::support::ask::{gem_ask, session_id, stable_events, text_reply};
use crate::support::{FakeGemini, Succeeds, temp_dir};
use serde_json::{Value, json};

fn user(t: &str) -> Value {
    json!({"role": "user", "parts": [{"text": t}]})
}

fn model(t: &str) -> Value {
    json!({"role": "model", "parts": [{"text": t}]})
}

fn session_lines(home: &Path, id: &str) -> Vec<Value> {
    std::fs::read_to_string(home.join(format!("gemline/sessions/{id}.jsonl")))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `record` of each line, or the role of a content record.
fn shape(lines: &[Value]) -> Vec<String> {
    lines
        .iter()
        .map(|l| match l["record"].as_str().unwrap() {
            "content" => l["content"]["role"].as_str().unwrap().to_string(),
            other => other.to_string(),
        })
        .collect()
}

#[test]
fn the_oldest_turns_are_summarized_past_the_limit() {
    let server = FakeGemini::start(
        "history",
        vec![
            text_reply("A1", 300, 50),
            text_reply("A2", 700, 50),
            // Run 3: the summary, then the answer.
            text_reply("The user asked Q1; the answer was A1.", 120, 30),
            text_reply("A3", 200, 20),
            text_reply("A4", 260, 20),
        ],
    );
    let home = temp_dir("history");
    let first = gem_ask(&server, &home).arg("Q1").succeeds();
    let id = session_id(&first.stdout);
    gem_ask(&server, &home)
        .args(["--session", &id, "Q2"])
        .succeeds();
    let lines = session_lines(&home, &id);
    assert_eq!(
        shape(&lines),
        ["meta", "user", "model", "turn", "user", "model", "turn"]
    );
    assert_eq!(
        (
            lines[3]["tokens"].as_u64(),
            lines[3]["context_tokens"].as_u64()
        ),
        (Some(350), Some(350))
    );
    assert_eq!(
        (
            lines[6]["tokens"].as_u64(),
            lines[6]["context_tokens"].as_u64()
        ),
        (Some(400), Some(750))
    );

    // 750 tokens > 600: the first turn is summarized before Q3 is sent.
    let third = gem_ask(&server, &home)
        .args(["--session", &id, "--max-history-tokens", "600", "Q3"])
        .succeeds();
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 4);
    let ask = &bodies[2];
    assert!(ask.get("tools").is_none(), "{ask}");
    let asked = ask["contents"][0]["parts"][0]["text"].as_str().unwrap();
    assert_eq!(ask["contents"].as_array().unwrap().len(), 1);
    assert!(asked.contains("User: Q1\nAssistant: A1\n"), "{asked}");
    assert!(!asked.contains("Q2"), "{asked}");
    let system = ask["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(system.starts_with("You condense conversations"), "{system}");
    let sent = bodies[3]["contents"].as_array().unwrap();
    assert_eq!(sent.len(), 5);
    assert!(
        sent[0]["parts"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with("\n\nThe user asked Q1; the answer was A1.")
    );
    assert_eq!(sent[1]["role"], "model");
    assert_eq!(&sent[2..], [user("Q2"), model("A2"), user("Q3")]);
    // The summary is no answer: it is not in the stream, but it is counted.
    let ev = stable_events(&third.stdout);
    assert!(!String::from_utf8_lossy(&third.stdout).contains("the answer was A1"));
    let result = ev.last().unwrap();
    assert_eq!(result["stats"]["requests"], 2);
    assert_eq!(result["stats"]["input_tokens"], 320);

    // The file keeps every turn; the summary says which it covers.
    let lines = session_lines(&home, &id);
    assert_eq!(
        shape(&lines),
        [
            "meta", "user", "model", "turn", "user", "model", "turn", "summary", "user", "model",
            "turn"
        ]
    );
    let summary = &lines[7];
    assert_eq!(summary["covers"], 2);
    assert_eq!(summary["tokens"], 30);
    assert_eq!(summary["contents"].as_array().unwrap()[..], sent[..2]);
    assert_eq!(lines[1]["content"], user("Q1"));

    // The next run builds its request from the summary, not Q1.
    gem_ask(&server, &home)
        .args(["--session", &id, "Q4"])
        .succeeds();
    let sent = server.bodies()[4]["contents"].as_array().unwrap().clone();
    assert_eq!(sent.len(), 7);
    assert_eq!(sent[..2], lines[7]["contents"].as_array().unwrap()[..]);
    assert_eq!(
        &sent[2..],
        [user("Q2"), model("A2"), user("Q3"), model("A3"), user("Q4")]
    );
}

#[test]
fn a_failed_summary_is_a_warning_and_the_history_goes_whole() {
    let server = FakeGemini::start(
        "history-fail",
        vec![
            text_reply("A1", 300, 50),
            text_reply("A2", 700, 50),
            support::Reply::json(
                400,
                r#"{"error":{"code":400,"message":"no","status":"INVALID_ARGUMENT"}}"#,
            ),
            text_reply("A3", 800, 20),
        ],
    );
    let home = temp_dir("history-fail");
    let first = gem_ask(&server, &home).arg("Q1").succeeds();
    let id = session_id(&first.stdout);
    gem_ask(&server, &home)
        .args(["--session", &id, "Q2"])
        .succeeds();
    let out = gem_ask(&server, &home)
        .args(["--session", &id, "--max-history-tokens", "600", "Q3"])
        .succeeds();
    let ev = stable_events(&out.stdout);
    let warning = ev.iter().find(|e| e["type"] == "error").unwrap();
    assert_eq!(warning["severity"], "warning");
    assert!(
        warning["message"]
            .as_str()
            .unwrap()
            .starts_with("could not summarize the history past --max-history-tokens")
    );
    assert_eq!(server.bodies()[3]["contents"].as_array().unwrap().len(), 5);
    assert!(!shape(&session_lines(&home, &id)).contains(&"summary".to_string()));
}
