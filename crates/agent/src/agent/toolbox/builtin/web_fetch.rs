//! `web_fetch(urls, question)`: the model reads web pages. The URLs and
//! the question go to Gemini in a request of its own with the `urlContext`
//! tool only; Google's servers fetch the pages (nothing is fetched from
//! this machine, so no local address is reachable through it). The answer
//! comes back with its numbered sources as `source` events, as for
//! web_search; a page that could not be read (`urlContextMetadata`) is a
//! warning for the user and a note for the model; the answer goes to the
//! model marked as untrusted content. Gemini only. Consent `standard`, and
//! judged as what leaves: the whole URLs shown, the text they carry from
//! what this run read marked ([`crate::agent::toolbox::policy`]).

use serde_json::{Value, json};

use crate::agent::toolbox::model::{grounded, no_secret, web_request};
use crate::agent::toolbox::policy::untrusted;
use crate::agent::toolbox::{Failed, Level, Ran, Source, Tool};
use crate::provider::Turn;
use crate::provider::grounding::url_statuses;

pub const WEB_FETCH: &str = "web_fetch";

/// The most URLs of one call (urlContext's own limit).
const MAX_URLS: usize = 20;

const SYSTEM: &str = "Answer the question from the content of the pages given, concisely, with the \
figures and names as they stand there. Say so when a page does not answer it.";

pub fn tool() -> Tool {
    Tool::new(
        declaration(),
        Source::Builtin,
        Level::Standard,
        |args, ctx| match parse(args) {
            Ok((urls, question)) => {
                let prompt = format!("{question}\n\nPages:\n{}", urls.join("\n"));
                let ran = grounded(
                    WEB_FETCH,
                    web_request(SYSTEM, &prompt, json!({"urlContext": {}})),
                    ctx,
                    &unread,
                );
                untrusted(ran, WEB_FETCH)
            }
            Err(f) => Ran::failed(f),
        },
    )
    .with_check(|args, _| no_secret(WEB_FETCH, args))
    .with_guidance(super::place::WEB, |_| {
        super::web_search::GUIDANCE.to_string()
    })
}

fn declaration() -> Value {
    json!({
        "name": WEB_FETCH,
        "description": "Reads web pages (up to 20 http or https URLs) and answers a question from their \
                        content, with numbered sources. Use it for pages the user names or a search found.",
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "urls": {"type": "ARRAY", "items": {"type": "STRING"}, "minItems": 1, "maxItems": MAX_URLS,
                         "description": "The pages, e.g. [\"https://www.bmw.com/en/index.html\"]."},
                "question": {"type": "STRING", "description": "What to find in them."}
            },
            "required": ["urls", "question"]
        }
    })
}

/// Pages urlContext could not read: warnings, and the same for the model.
fn unread(turn: &Turn) -> (Vec<String>, Vec<String>) {
    let failed: Vec<String> = turn
        .url_context
        .as_ref()
        .map(url_statuses)
        .unwrap_or_default()
        .into_iter()
        .filter(|u| !u.ok())
        .map(|u| format!("{} was not read ({})", u.url, u.status))
        .collect();
    (failed.clone(), failed)
}

fn parse(args: &Value) -> Result<(Vec<String>, String), Failed> {
    let bad = |why: String| {
        Failed::new(
            "invalid_arguments",
            format!(
                "web_fetch: {why}; e.g. {{\"urls\":[\"https://example.com/page\"],\"question\":\"What does it say about X?\"}}"
            ),
        )
    };
    let question = args
        .get("question")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .ok_or_else(|| bad("question is required".into()))?;
    let urls: Vec<String> = match args.get("urls") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|u| u.as_str().map(str::trim).map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad("urls must be strings".into()))?,
        Some(Value::String(u)) => vec![u.trim().to_string()],
        _ => return Err(bad("urls is required".into())),
    };
    if urls.is_empty() || urls.len() > MAX_URLS {
        return Err(bad(format!(
            "give 1 to {MAX_URLS} URLs, not {}",
            urls.len()
        )));
    }
    if let Some(u) = urls.iter().find(|u| {
        !(u.starts_with("https://") || u.starts_with("http://")) || u.contains(char::is_whitespace)
    }) {
        return Err(bad(format!("{u:?} is not an http or https URL")));
    }
    Ok((urls, question.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_checked_before_anything_is_sent() {
        let ok = parse(&json!({"urls": ["https://a.example/x"], "question": "q"})).unwrap();
        assert_eq!(ok.0, ["https://a.example/x"]);
        for bad in [
            json!({"urls": [], "question": "q"}),
            json!({"urls": ["file:///etc/passwd"], "question": "q"}),
            json!({"urls": ["https://a"]}),
            json!({"urls": [1], "question": "q"}),
        ] {
            let e = parse(&bad).unwrap_err();
            assert_eq!(e.kind, "invalid_arguments", "{bad}");
            assert!(e.message.contains("e.g."), "{}", e.message);
        }
    }
}
