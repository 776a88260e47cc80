//! `remember(key?, content, tags?, confidence?)`: saves a fact to the
//! user's long-term memory, or updates the memory of that key. Consent
//! `standard`, as for the other writing tools: the question shows exactly
//! what would be kept, and each write is a `memory` event in the stream.

use serde_json::{Value, json};

use super::memory::{self, REMEMBER};
use crate::agent::toolbox::{Ctx, Failed, Level, Ran, Source, Tool};
use crate::memory::NewMemory;
use crate::memory::event::{By, written};

pub fn tool() -> Tool {
    Tool::new(declaration(), Source::Builtin, Level::Standard, run)
        .with_guidance(super::place::MEMORY, |_| memory::guidance())
        .with_check(|args, _| memory::no_secret(REMEMBER, args))
        .with_preview(|args, _| preview(args))
}

fn declaration() -> Value {
    json!({
        "name": REMEMBER,
        "description": "Saves a fact to the user's long-term memory, kept across sessions, or replaces the \
            memory with the same key. The user is asked first and sees what is saved.",
        "parameters": {"type": "OBJECT", "properties": {
            "key": {"type": "STRING", "description": "A short unique name, e.g. deploy-host (made from the content when left out)."},
            "content": {"type": "STRING", "description": "The fact, in one or a few sentences that stand on their own."},
            "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "description": "A few words to file it under, e.g. [\"infra\"]."},
            "confidence": {"type": "NUMBER", "minimum": 0, "maximum": 1, "description": "How sure the fact is, 0 to 1 (default 1)."}
        }, "required": ["content"]}
    })
}

/// What the consent question says: the key, tags and the whole content.
fn preview(args: &Value) -> String {
    let key = memory::text(args, "key").unwrap_or("(a key made from the content)");
    let tags = memory::tags(REMEMBER, args).unwrap_or_default().join(", ");
    let content = memory::text(args, "content").unwrap_or("");
    if tags.is_empty() {
        format!("remember {key}: {content}")
    } else {
        format!("remember {key} [{tags}]: {content}")
    }
}

fn new_memory(args: &Value) -> Result<NewMemory, Failed> {
    let confidence = match args.get("confidence") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_f64().ok_or_else(|| {
            Failed::new(
                "invalid_arguments",
                "remember: confidence is a number from 0 to 1",
            )
        })?),
    };
    Ok(NewMemory {
        key: memory::text(args, "key").map(str::to_string),
        content: memory::required(REMEMBER, args, "content")?.to_string(),
        tags: memory::tags(REMEMBER, args)?,
        confidence,
        ..NewMemory::default()
    })
}

fn run(args: &Value, ctx: &Ctx<'_>) -> Ran {
    let done = (|| {
        let store = memory::memory(ctx, REMEMBER)?;
        let new = new_memory(args)?;
        store.remember(new).map_err(|e| memory::failed(REMEMBER, e))
    })();
    match done {
        Ok(r) => {
            let verb = if r.created { "Remembered" } else { "Updated" };
            let mut out = format!("{verb} {:?}.", r.memory.key);
            for n in &r.notes {
                out.push(' ');
                out.push_str(n);
            }
            memory::wrote(written(&r.memory, r.created, By::Model), &r.notes, out)
        }
        Err(f) => Ran::failed(f),
    }
}
