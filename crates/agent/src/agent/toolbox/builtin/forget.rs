//! `forget(key)`: deletes a memory with its relations. Consent
//! `standard`: the question names the memory and what it says.

use serde_json::{Value, json};

use super::memory::{self, FORGET};
use crate::agent::toolbox::{Ctx, Level, Ran, Source, Tool};
use crate::memory::event::{By, forgot};

pub fn tool() -> Tool {
    Tool::new(declaration(), Source::Builtin, Level::Standard, run)
        .with_guidance(super::place::MEMORY, |_| memory::guidance())
        .with_preview(|args, ctx| {
            let key = memory::text(args, "key").unwrap_or("?");
            match ctx.memory.and_then(|m| m.get(key).ok()) {
                Some((m, _)) => format!("forget {}: {}", m.key, m.content),
                None => format!("forget {key}"),
            }
        })
}

fn declaration() -> Value {
    json!({
        "name": FORGET,
        "description": "Deletes a memory (and its relations) from the user's long-term memory. The user is asked first.",
        "parameters": {"type": "OBJECT", "properties": {
            "key": {"type": "STRING", "description": "The memory's key."}
        }, "required": ["key"]}
    })
}

fn run(args: &Value, ctx: &Ctx<'_>) -> Ran {
    let done = (|| {
        let store = memory::memory(ctx, FORGET)?;
        let key = memory::required(FORGET, args, "key")?;
        store.forget(key).map_err(|e| memory::failed(FORGET, e))
    })();
    match done {
        Ok(m) => {
            let out = format!("Forgot {:?}.", m.key);
            memory::wrote(forgot(&m, By::Model), &[], out)
        }
        Err(f) => Ran::failed(f),
    }
}
