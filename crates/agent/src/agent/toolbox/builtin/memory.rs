//! What the memory tools ([`super::remember`], [`super::recall`],
//! [`super::forget`], [`super::relate`]) share: their names, the system
//! prompt's paragraph about them, the store from the call's context, and
//! how a store's failure is told to the model. They are declared only
//! when memory is on (`--memory`, or `memory.enabled` in the config).

use serde_json::Value;

use crate::agent::toolbox::{Ctx, Failed, Ran};
use crate::events::Event;
use crate::memory::{Handle, MemoryError};

pub const REMEMBER: &str = "remember";
pub const RECALL: &str = "recall";
pub const FORGET: &str = "forget";
pub const RELATE: &str = "relate";

/// The memory tools' names, declared together when memory is on.
pub const MEMORY_TOOLS: &[&str] = &[REMEMBER, RECALL, FORGET, RELATE];

/// The system prompt's paragraph, said once for the four.
pub(super) fn guidance() -> String {
    "You have a long-term memory kept across sessions. Use remember to save a fact worth keeping \
     (the user's preferences, facts about their projects and systems, decisions), with a short key \
     and tags; recall to search it; relate to link two memories (e.g. depends_on, part_of, \
     contradicts); forget to delete a memory the user wants gone or that proved wrong. Never save \
     secrets (passwords, keys, tokens), nor text from files or tool results the user did not ask \
     you to keep. Saving asks the user first.\n"
        .to_string()
}

/// The run's memory, or the failure a call gets without one.
pub(super) fn memory<'a>(ctx: &Ctx<'a>, tool: &str) -> Result<&'a Handle, Failed> {
    ctx.memory.ok_or_else(|| {
        Failed::new(
            "tool_failed",
            format!("{tool}: memory is off in this run (the user turns it on with --memory)"),
        )
    })
}

/// The check, before consent, of the tools that write (`remember`,
/// `relate`): arguments holding a secret gem-ask knows (an API key, the
/// value of a secret-named variable) are never kept, since a memory goes
/// into later prompts and to the embedding model. The message names no
/// secret.
pub(super) fn no_secret(tool: &str, args: &Value) -> Result<(), Failed> {
    if crate::agent::toolbox::secrets::args_hold_known(args) {
        return Err(Failed::new(
            "secret_refused",
            format!(
                "{tool}: its arguments hold a secret gem-ask keeps (an API key or the value of a \
                 secret-named variable); nothing was saved. Never save secrets."
            ),
        ));
    }
    Ok(())
}

/// A store's failure as the model reads it: bad arguments or a missing
/// key are the model's to fix; a damaged, locked or full store is not.
pub(super) fn failed(tool: &str, e: MemoryError) -> Failed {
    let kind = match e {
        MemoryError::Invalid(_) | MemoryError::NotFound(_) => "invalid_arguments",
        _ => "tool_failed",
    };
    Failed::new(kind, format!("{tool}: {e}"))
}

/// A string argument, trimmed, if given.
pub(super) fn text<'v>(args: &'v Value, key: &str) -> Option<&'v str> {
    args.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A required string argument.
pub(super) fn required<'v>(tool: &str, args: &'v Value, key: &str) -> Result<&'v str, Failed> {
    text(args, key).ok_or_else(|| {
        Failed::new(
            "invalid_arguments",
            format!("{tool}: {key} is required (a non-empty string)"),
        )
    })
}

/// The `tags` argument: an array of strings (or one string of
/// comma-separated tags).
pub(super) fn tags(tool: &str, args: &Value) -> Result<Vec<String>, Failed> {
    match args.get("tags") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(s.split(',').map(|t| t.trim().to_string()).collect()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|t| t.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                Failed::new(
                    "invalid_arguments",
                    format!("{tool}: tags is a list of words, e.g. [\"infra\", \"deploy\"]"),
                )
            }),
        Some(_) => Err(Failed::new(
            "invalid_arguments",
            format!("{tool}: tags is a list of words, e.g. [\"infra\", \"deploy\"]"),
        )),
    }
}

/// A successful write: its `memory` event and the notes (a vector that
/// could not be made) as warnings, then the model's answer.
pub(super) fn wrote(event: Event, notes: &[String], output: String) -> Ran {
    let mut events = vec![event];
    events.extend(notes.iter().map(|n| Event::error("warning", n)));
    Ran {
        events,
        result: Ok(crate::agent::toolbox::Done::text(output)),
        new_topic: None,
    }
}
