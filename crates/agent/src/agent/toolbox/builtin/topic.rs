//! `create_new_topic`: the model opens a chapter of the work. The call
//! sets the active topic (kept in the session and repeated at the foot of
//! the system prompt), emits a `topic` event the viewers draw as a header
//! (with the call's optional `summary` and `strategic_intent`, the
//! arguments of gemini-cli's `update_topic`, under it), and answers with a
//! one-line confirmation.

use serde_json::{Value, json};

use crate::agent::toolbox::{Done, Failed, Level, Ran, Source, Tool};
use crate::events::topic::TopicArgs;
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
                "title": {"type": "STRING", "description": "Short title of the new phase, e.g. Researching BMW data."},
                "summary": {"type": "STRING", "description": "Optional: a few sentences on what the previous phase did and what this one will do."},
                "strategic_intent": {"type": "STRING", "description": "Optional: one sentence on what you will do next."}
            },
            "required": ["title"]
        }
    })
}

fn run(args: &Value) -> Ran {
    let Some(topic) = TopicArgs::of_call(CREATE_NEW_TOPIC, Some(args)) else {
        return Ran::failed(Failed::new(
            "invalid_arguments",
            "create_new_topic: title is required, e.g. {\"title\":\"Researching BMW data\"}",
        ));
    };
    Ran {
        events: vec![topic.to_event()],
        result: Ok(Done::text(crate::topic::topic_changed_output(&topic.title))),
        new_topic: Some(topic.title),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_topic_event_carries_the_optional_summary_and_intent() {
        let ran = run(
            &json!({"title": " Charting\n data", "summary": "Two charts. ", "strategic_intent": ""}),
        );
        assert_eq!(ran.new_topic.as_deref(), Some("Charting data"));
        assert_eq!(
            ran.events[0].to_line(),
            r#"{"type":"topic","title":"Charting data","summary":"Two charts."}"#
        );
        let bare = run(&json!({"title": "Charting"}));
        assert_eq!(
            bare.events[0].to_line(),
            r#"{"type":"topic","title":"Charting"}"#
        );
        assert!(run(&json!({"summary": "no title"})).result.is_err());
    }
}
