//! `create_new_topic`: the model opens a chapter of the work. The call
//! sets the active topic (kept in the session and repeated at the foot of
//! the system prompt), emits a `topic` event the viewers draw as a header,
//! and answers with a one-line confirmation.

use serde_json::{Value, json};

use crate::agent::toolbox::{Done, Failed, Level, Ran, Source, Tool};
use crate::events::Event;
pub use crate::topic::CREATE_NEW_TOPIC;

/// The system prompt's paragraph.
const GUIDANCE: &str = "Use create_new_topic to organize your work into logical chapters: call it when moving between \
             major steps (e.g. Research -> Strategy -> Implementation). It is a forward-only marker.\n";

/// The tool (`auto`, declared by default).
pub fn tool() -> Tool {
    Tool::new(declaration(), Source::Builtin, Level::Auto, |args, _| {
        run(args)
    })
    .with_guidance(super::place::TOPIC, |_| GUIDANCE.to_string())
}

/// The `FunctionDeclaration` (OpenAPI subset).
fn declaration() -> Value {
    json!({
        "name": CREATE_NEW_TOPIC,
        "description": "Starts a new chapter of the work, shown to the user as a header. Call it when moving \
                        between major phases (for example Research -> Strategy -> Implementation), before \
                        that phase's other calls. Forward-only: do not reopen an earlier topic.",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "title": {"type": "STRING", "description": "Short title of the new phase, e.g. Researching BMW data."}
            },
            "required": ["title"]
        }
    })
}

fn run(args: &Value) -> Ran {
    let title = args
        .get("title")
        .and_then(Value::as_str)
        .map(crate::topic::normalize_title)
        .unwrap_or_default();
    if title.is_empty() {
        return Ran::failed(Failed::new(
            "invalid_arguments",
            "create_new_topic: title is required, e.g. {\"title\":\"Researching BMW data\"}",
        ));
    }
    Ran {
        events: vec![Event::topic(&title, None)],
        result: Ok(Done::text(crate::topic::topic_changed_output(&title))),
        new_topic: Some(title),
    }
}
