//! `relate(from, to, relation?)`: links two memories with a typed
//! relation, seen from both (e.g. `api depends_on db`). Consent
//! `standard`, as for every write to the memory.

use serde_json::{Value, json};

use super::memory::{self, RELATE};
use crate::agent::toolbox::{Ctx, Level, Ran, Source, Tool};
use crate::memory::event::{By, related};

pub fn tool() -> Tool {
    Tool::new(declaration(), Source::Builtin, Level::Standard, run)
        .with_guidance(super::place::MEMORY, |_| memory::guidance())
        .with_check(|args, _| memory::no_secret(RELATE, args))
        .with_preview(|args, _| {
            format!(
                "relate {} -{}-> {}",
                memory::text(args, "from").unwrap_or("?"),
                memory::text(args, "relation").unwrap_or(crate::memory::store::RELATED_TO),
                memory::text(args, "to").unwrap_or("?")
            )
        })
}

fn declaration() -> Value {
    json!({
        "name": RELATE,
        "description": "Links two memories with a typed relation (one word, e.g. depends_on, part_of, \
            contradicts, supersedes; default related_to), seen from both. The user is asked first.",
        "parameters": {"type": "OBJECT", "properties": {
            "from": {"type": "STRING", "description": "The key of the memory the relation starts at."},
            "to": {"type": "STRING", "description": "The key of the memory it points to."},
            "relation": {"type": "STRING", "description": "The kind of relation, e.g. depends_on."}
        }, "required": ["from", "to"]}
    })
}

fn run(args: &Value, ctx: &Ctx<'_>) -> Ran {
    let done = (|| {
        let store = memory::memory(ctx, RELATE)?;
        let from = memory::required(RELATE, args, "from")?;
        let to = memory::required(RELATE, args, "to")?;
        let kind = memory::text(args, "relation").unwrap_or("");
        store
            .relate(from, to, kind)
            .map_err(|e| memory::failed(RELATE, e))
    })();
    match done {
        Ok(e) => {
            let out = format!("Related {:?} -{}-> {:?}.", e.from, e.kind, e.to);
            memory::wrote(related(&e, By::Model), &[], out)
        }
        Err(f) => Ran::failed(f),
    }
}
