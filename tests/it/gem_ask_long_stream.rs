//! A long answer: many small chunks, several spool pieces of text. Every
//! chunk comes out as its own event in order, the session stores the whole
//! answer byte-compatibly (the next run reads it back and resends it), and
//! nothing is lost at the spool's boundaries. Memory is measured by
//! benches/long_streams.sh, not here.

use crate::support::ask::*;
use crate::support::{Body, FakeGemini, Reply, Succeeds, temp_dir};
use serde_json::{Value, json};
use std::time::Duration;

/// Chunk `i`'s text: quotes, backslashes, newlines, control and
/// multi-byte characters, so escaping and UTF-8 boundaries are exercised.
fn piece(i: usize) -> String {
    format!("{i:05} \"q\" \\ é 漢 🎉\t\u{1}\n")
}

fn long_reply(chunks: usize) -> Reply {
    // Events built one by one: Reply::sse's splitting is quadratic.
    let mut events = Vec::with_capacity(chunks);
    for i in 0..chunks {
        let mut c = json!({"candidates":[{"content":{"role":"model","parts":[{"text": piece(i)}]},"index":0}]});
        if i + 1 == chunks {
            c["candidates"][0]["finishReason"] = "STOP".into();
            c["usageMetadata"] = json!({"promptTokenCount":5,"candidatesTokenCount":chunks,"totalTokenCount":chunks + 5});
        }
        events.push((Duration::ZERO, format!("data: {c}\r\n\r\n").into_bytes()));
    }
    let mut reply = Reply::sse("");
    reply.body = Body::Sse { events, cut: None };
    reply
}

#[test]
fn every_chunk_in_order_and_the_whole_answer_in_the_session() {
    let chunks = 30_000;
    let whole: String = (0..chunks).map(piece).collect();
    assert!(whole.len() > 2 * gemline::provider::spool::SPILL_AT);
    let server = FakeGemini::start(
        "long-stream",
        vec![long_reply(chunks), text_reply("short", 10, 1)],
    );
    let home = temp_dir("long-stream");
    let out = gem_ask(&server, &home)
        .args(["--session", "long", "go"])
        .succeeds();
    let ev = stable_events(&out.stdout);
    let texts: Vec<&str> = ev
        .iter()
        .filter(|e| e["type"] == "message" && e["role"] == "assistant")
        .map(|e| e["content"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), chunks);
    for (i, t) in texts.iter().enumerate() {
        assert_eq!(*t, piece(i), "chunk {i}");
    }
    assert_eq!(ev.last().unwrap()["status"], "success");

    // The session file: the answer as one content record, whole.
    let file = home.join("gemline/sessions/long.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| r["record"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["meta", "content", "content", "turn"]);
    assert_eq!(
        records[2]["content"],
        json!({"role": "model", "parts": [{"text": whole}]})
    );
    // Byte-compatible with what a value would have written.
    let line = text.lines().nth(2).unwrap();
    assert_eq!(line, records[2].to_string());

    // The next run reads it back and sends it as history.
    gem_ask(&server, &home)
        .args(["--session", "long", "more"])
        .succeeds();
    let second = &server.bodies()[1];
    assert_eq!(second["contents"][1]["parts"][0]["text"], whole.as_str());
    assert_eq!(second["contents"][2]["parts"][0]["text"], "more");
}
