//! Properties of reading other agents' streams over arbitrary JSON lines in
//! their shapes (Codex's and Claude Code's types, items and content blocks
//! with fields of any JSON type, or missing): the translator, the event
//! reader and topic-tag's stream machine never panic, every event read is
//! an object with a string `type`, and topic-tag writes one JSON object a
//! line.

use std::collections::VecDeque;

use gemline::events::EventReader;
use gemline::events::foreign::{Translated, Translator};
use gemline::topic::{Options, Tagger};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::support::proptest_cases;

/// Any JSON value, a few levels deep.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-1e6f64..1e6).prop_map(|f| json!(f)),
        ".{0,8}".prop_map(Value::String),
        prop_oneof![
            Just("in_progress"),
            Just("completed"),
            Just("failed"),
            Just("success"),
            Just("1"),
        ]
        .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((field(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// The field names the formats use, and one no one does.
fn field() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("type"),
        Just("id"),
        Just("text"),
        Just("items"),
        Just("completed"),
        Just("command"),
        Just("aggregated_output"),
        Just("exit_code"),
        Just("status"),
        Just("changes"),
        Just("server"),
        Just("tool"),
        Just("arguments"),
        Just("result"),
        Just("error"),
        Just("message"),
        Just("content"),
        Just("name"),
        Just("input"),
        Just("todos"),
        Just("tool_use_id"),
        Just("is_error"),
        Just("subtype"),
        Just("usage"),
        Just("event"),
        Just("delta"),
        Just("thinking"),
        Just("taskId"),
        Just("subject"),
        Just("tool_use_result"),
        Just("task"),
        Just("questions"),
        Just("thread_id"),
        Just("session_id"),
        Just("other"),
    ]
    .prop_map(str::to_string)
}

/// A type of either format (or ours, or none).
fn kind() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just("thread.started"),
        Just("turn.started"),
        Just("turn.completed"),
        Just("turn.failed"),
        Just("item.started"),
        Just("item.updated"),
        Just("item.completed"),
        Just("item.plan.delta"),
        Just("request_user_input"),
        Just("error"),
        Just("system"),
        Just("assistant"),
        Just("user"),
        Just("stream_event"),
        Just("result"),
        Just("message"),
        Just("weird"),
    ]
}

/// An item or content block of a kind the formats have.
fn item() -> impl Strategy<Value = Value> {
    let item_kind = prop_oneof![
        Just("agent_message"),
        Just("reasoning"),
        Just("plan"),
        Just("command_execution"),
        Just("file_change"),
        Just("mcp_tool_call"),
        Just("collab_tool_call"),
        Just("web_search"),
        Just("todo_list"),
        Just("error"),
        Just("text"),
        Just("thinking"),
        Just("tool_use"),
        Just("tool_result"),
        Just("server_tool_use"),
        Just("message_start"),
        Just("content_block_delta"),
        Just("text_delta"),
    ];
    // The fields items and blocks have, each present or not, of any JSON
    // type; then a few more of any name.
    const KEYS: &[&str] = &[
        "id",
        "text",
        "items",
        "status",
        "content",
        "name",
        "input",
        "tool_use_id",
        "changes",
        "result",
        "error",
        "command",
        "exit_code",
        "delta",
        "message",
    ];
    let present = proptest::collection::vec(proptest::option::weighted(0.5, value()), KEYS.len());
    let more = proptest::collection::vec((field(), value()), 0..3);
    (item_kind, present, more).prop_map(|(k, present, more)| {
        let mut m: Map<String, Value> = more.into_iter().collect();
        for (key, v) in KEYS.iter().zip(present) {
            if let Some(v) = v {
                m.insert(key.to_string(), v);
            }
        }
        m.insert("type".into(), json!(k));
        Value::Object(m)
    })
}

/// One line in a format's shape: a type, then fields that are items,
/// lists of blocks, messages, or anything.
fn line() -> impl Strategy<Value = String> {
    let part = prop_oneof![
        item(),
        proptest::collection::vec(item(), 0..3).prop_map(Value::Array),
        proptest::collection::vec(item(), 0..3).prop_map(|b| json!({"id": "m1", "content": b})),
        value(),
    ];
    let event =
        (kind(), proptest::collection::vec((field(), part), 0..4)).prop_map(|(k, fields)| {
            let mut m: Map<String, Value> = fields.into_iter().collect();
            m.insert("type".into(), json!(k));
            Value::Object(m).to_string()
        });
    // The formats' own nesting: an item, a message of content blocks, a
    // streamed event.
    let nested = (
        kind(),
        item(),
        proptest::collection::vec(item(), 0..4),
        value(),
    )
        .prop_map(|(k, item, blocks, extra)| {
            json!({"type": k, "item": item, "event": blocks.first().cloned().unwrap_or(Value::Null),
                   "message": {"id": "m1", "content": blocks}, "tool_use_result": extra})
            .to_string()
        });
    prop_oneof![
        4 => event,
        4 => nested,
        1 => ".{0,30}",
        1 => Just("{\"type\":\"item.completed\",\"item\":{\"id\":\"x\",\"type\":\"todo_list\",\"items\":[{\"text\":\"a\"}]}}".to_string()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(proptest_cases(256)))]

    #[test]
    fn arbitrary_lines_in_the_formats_shapes_never_panic(lines in proptest::collection::vec(line(), 1..24)) {
        let mut t = Translator::new();
        let mut read = VecDeque::new();
        for (i, l) in lines.iter().enumerate() {
            t.read_line(l, i + 1, &mut read);
        }
        for item in read.into_iter().flatten() {
            prop_assert!(item.get("type").is_some_and(Value::is_string), "{:?}", item);
        }
        // The reader viz-render uses, over the same text.
        let text = lines.join("\n");
        let mut r = EventReader::new(text.as_bytes());
        while let Some(item) = r.next_event().unwrap() {
            if let Ok(e) = item {
                prop_assert!(e.get("type").is_some_and(Value::is_string));
                // Translated once: what the reader gives is not translated again.
                let again = Translator::new().translate(&e);
                prop_assert!(
                    !matches!(again, Translated::Events(..)) || !e.kind().contains('.'),
                    "{:?}", e
                );
            }
        }
        // topic-tag's stream machine writes one JSON object a line.
        let mut tagger = Tagger::new(Vec::new(), Options::default())
            .with_diagnostics(Box::new(std::io::sink()));
        tagger.feed(text.as_bytes()).unwrap();
        let (out, _) = tagger.finish().unwrap();
        for l in String::from_utf8(out).unwrap().lines() {
            prop_assert!(serde_json::from_str::<Map<String, Value>>(l).is_ok(), "{}", l);
        }
    }
}
