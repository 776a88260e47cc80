//! `web_search(query)`: the model searches the web. The query goes to
//! Gemini in a request of its own with the `googleSearch` tool only
//! (grounding cannot always be combined with function calling in one
//! request); the grounded answer comes back to the model with its numbered
//! sources, and each source is a `source` event the viewers draw under the
//! answer. Gemini only (`--provider openai` does not declare it). Consent
//! `standard`: the query goes to a search engine, so it is shown and asked
//! about as what leaves ([`crate::agent::toolbox::policy`]); the answer
//! goes to the model marked as untrusted content.

use serde_json::{Value, json};

use crate::agent::toolbox::model::{grounded, no_secret, web_request};
use crate::agent::toolbox::policy::untrusted;
use crate::agent::toolbox::{Failed, Level, Ran, Source, Tool};

pub const WEB_SEARCH: &str = "web_search";

const SYSTEM: &str = "Answer the query from Google Search results: the facts, figures, names and \
dates found, concisely, saying where the results disagree or are missing. No preamble.";

/// The system prompt's paragraph, shared with web_fetch.
pub const GUIDANCE: &str = "Use web_search for facts that may have changed or that you are not sure \
of, and web_fetch to read pages the user names or a search found; cite what you use from them as [N], \
the numbers their sources carry.\n";

pub fn tool() -> Tool {
    Tool::new(
        declaration(),
        Source::Builtin,
        Level::Standard,
        |args, ctx| match query(args) {
            Ok(q) => untrusted(
                grounded(
                    WEB_SEARCH,
                    web_request(SYSTEM, &q, json!({"googleSearch": {}})),
                    ctx,
                    &|_| (Vec::new(), Vec::new()),
                ),
                WEB_SEARCH,
            ),
            Err(f) => Ran::failed(f),
        },
    )
    .with_check(|args, _| no_secret(WEB_SEARCH, args))
    .with_guidance(super::place::WEB, |_| GUIDANCE.to_string())
}

fn declaration() -> Value {
    json!({
        "name": WEB_SEARCH,
        "description": "Searches the web with Google Search and answers the query from the results, with \
                        numbered sources (title and URL). Use it for current or checkable facts: figures, \
                        specifications, prices, dates, news.",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "query": {"type": "STRING", "description": "What to find, as a search query or a question, e.g. BMW M5 CS 0-60 mph time."}
            },
            "required": ["query"]
        }
    })
}

fn query(args: &Value) -> Result<String, Failed> {
    match args.get("query").and_then(Value::as_str).map(str::trim) {
        Some(q) if !q.is_empty() => Ok(q.to_string()),
        _ => Err(Failed::new(
            "invalid_arguments",
            "web_search: query is required, e.g. {\"query\":\"BMW M5 CS 0-60 mph\"}",
        )),
    }
}
