//! What the web tools (`builtin::web_search`, `builtin::web_fetch`) need of
//! the run: the model's client, for a request of their own with one of
//! Gemini's built-in tools (grounding cannot always share a request with
//! function declarations), and the numbers given to sources so far, so
//! every source of a turn has its own `[N]`. The turn loop hands it to the
//! toolbox at the start of each turn ([`super::Toolbox::begin_turn`]).
//!
//! [`grounded`] is their common part: the request, its sources as `source`
//! events, the answer and the numbered sources for the model, and a failure
//! (quota, a block, a timeout) as a tool error the model reads and a
//! warning the user sees. [`no_secret`] is their check before consent: what
//! they send leaves this machine (a query to Google Search, a URL fetched
//! by Google's servers from its host), so arguments holding a secret
//! gem-ask knows are never sent. What comes back passes the toolbox's one
//! redaction, as every tool's output.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use super::{Ctx, Done, Failed, Ran, Toolbox};
use crate::events::Event;
use crate::provider::grounding::{self, Source};
use crate::provider::request::{self, RequestSpec};
use crate::provider::{Client, Delta, GenError, Observer, Turn};

/// The model, for the tools that ask it themselves.
pub struct ModelAccess {
    client: Client,
    next_source: AtomicU64,
}

impl ModelAccess {
    pub fn new(client: &Client) -> ModelAccess {
        ModelAccess {
            client: client.clone(),
            next_source: AtomicU64::new(1),
        }
    }

    /// Numbers for `n` sources; the first of them.
    pub fn number_sources(&self, n: usize) -> u64 {
        self.next_source.fetch_add(n as u64, Ordering::Relaxed)
    }

    /// One request, its answer whole; stopped as any running tool is
    /// ([`Ctx::stopped`]: a signal, `--tool-timeout`, `--task-timeout`).
    fn ask(&self, body: Value, ctx: &Ctx<'_>) -> Result<Turn, GenError> {
        self.client.generate(
            body,
            &mut Quiet {
                deadline: ctx.deadline,
                task_deadline: ctx.task_deadline,
            },
        )
    }
}

impl Toolbox {
    /// A turn starts: the web tools ask this client, and its sources are
    /// numbered from 1 again.
    pub fn begin_turn(&mut self, client: &Client) {
        self.model = Some(std::sync::Arc::new(ModelAccess::new(client)));
    }

    /// The number of the next of `n` sources of this turn (a grounded
    /// answer's own sources follow the tools').
    pub fn number_sources(&self, n: usize) -> u64 {
        self.model.as_ref().map_or(1, |m| m.number_sources(n))
    }
}

/// Sees nothing of the answer as it comes; stops where [`Ctx::stopped`]
/// would (the client asks this, not the tool).
struct Quiet {
    deadline: Instant,
    task_deadline: Option<Instant>,
}

impl Observer for Quiet {
    fn delta(&mut self, _: &Delta) -> std::io::Result<()> {
        Ok(())
    }
    fn retry(&mut self, _: u32, _: Duration, _: &str) -> std::io::Result<()> {
        Ok(())
    }
    fn interrupted(&self) -> bool {
        let now = Instant::now();
        crate::agent::signals::received().is_some()
            || now >= self.deadline
            || self.task_deadline.is_some_and(|d| now >= d)
    }
}

/// Refuses a web tool's call whose arguments hold a secret gem-ask knows
/// (the API keys, the values of the variables hidden from children): a
/// query or a URL would carry it to Google and to the page's host. The
/// message names no secret; the model is told to ask without it.
pub fn no_secret(name: &str, args: &Value) -> Result<(), Failed> {
    if super::secrets::args_hold_known(args) {
        return Err(Failed::new(
            "secret_refused",
            format!(
                "{name}: its arguments hold a secret gem-ask keeps (an API key or the value of a \
                 secret-named variable); nothing was sent. Ask again without it."
            ),
        ));
    }
    Ok(())
}

/// The `source` event of a numbered source (docs/events.md).
pub fn source_event(index: u64, s: &Source) -> Event {
    let mut m = Map::new();
    m.insert("type".into(), "source".into());
    m.insert("index".into(), index.into());
    m.insert("title".into(), s.title.clone().into());
    m.insert("url".into(), s.url.clone().into());
    if let Some(t) = s.text() {
        m.insert("text".into(), t.into());
    }
    Event(m)
}

/// A request for the web tools: the prompt alone, a system line, one of
/// Gemini's tools (`{"googleSearch": {}}`, `{"urlContext": {}}`).
pub fn web_request(system: &str, prompt: &str, tool: Value) -> Value {
    let contents = [request::user_text(&[prompt])];
    request::build(&RequestSpec {
        contents: &contents,
        system: Some(system),
        builtin_tools: &[tool],
        ..Default::default()
    })
}

/// A look at a grounded answer before its sources are taken: warnings for
/// the user, notes for the model.
pub type Check = dyn Fn(&Turn) -> (Vec<String>, Vec<String>);

/// Runs a grounded request for tool `name`: the answer and its sources.
/// `check` looks at the answer first (web_fetch: the pages not read) and
/// gives warnings for the user and notes for the model.
pub fn grounded(name: &str, body: Value, ctx: &Ctx<'_>, check: &Check) -> Ran {
    let fail = |message: String| {
        let warning = Event::error("warning", &format!("{name}: {message}"));
        Ran {
            events: vec![warning],
            result: Err(Failed::new(
                "tool_failed",
                format!("{name} failed: {message}"),
            )),
            new_topic: None,
        }
    };
    let Some(model) = ctx.model else {
        return fail("no model to ask in this run".into());
    };
    let turn = match model.ask(body, ctx) {
        Ok(t) => t,
        Err(e) => {
            // Stopped: `timeout`, or `interrupted` (the turn then ends).
            if let Some(why) = ctx.stopped() {
                return Ran::failed(ctx.stop_failure(name, why));
            }
            return fail(crate::agent::keys::redact_key(&e.to_string()));
        }
    };
    let answer = match turn.text() {
        Ok(t) => t,
        Err(e) => return fail(e.to_string()),
    };
    let (warnings, notes) = check(&turn);
    let sources = turn
        .grounding
        .as_ref()
        .map(grounding::sources)
        .unwrap_or_default();
    let first = model.number_sources(sources.len());
    let mut events: Vec<Event> = warnings
        .iter()
        .map(|w| Event::error("warning", &format!("{name}: {w}")))
        .collect();
    let mut listed = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        let index = first + i as u64;
        events.push(source_event(index, s));
        listed.push(json!({"index": index, "title": s.title, "url": s.url}));
    }
    if answer.trim().is_empty() && sources.is_empty() {
        let mut why = "the answer was empty".to_string();
        if !warnings.is_empty() {
            why = format!("{why} ({})", warnings.join("; "));
        }
        return Ran {
            events,
            ..fail(why)
        };
    }
    let output = format!(
        "{} source{}{}",
        sources.len(),
        if sources.len() == 1 { "" } else { "s" },
        answer
            .lines()
            .find(|l| !l.trim().is_empty())
            .map(|l| format!(": {}", l.trim()))
            .unwrap_or_default()
    );
    let mut response = json!({
        "answer": answer,
        "sources": listed,
        "cite": "Cite these sources in your answer as [index].",
    });
    if !notes.is_empty() {
        response["notes"] = notes.into();
    }
    Ran {
        events,
        result: Ok(Done { output, response }),
        new_topic: None,
    }
}
