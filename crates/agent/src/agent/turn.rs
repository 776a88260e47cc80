//! The turn loop every mode shares: one user turn on a conversation. The
//! [`Agent`] builds each request from the history, streams the answer into
//! its [`EventSink`], runs the tools the model calls through the toolbox,
//! sends their results back, and repeats until the model answers without
//! calling a tool (or `--max-tool-rounds`). [`Agent::turn`] returns what
//! happened ([`TurnReport`]); the history grows only by completed turns.

use std::io;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::history::Ledger;
use super::keys::redact_key;
use super::outcome::{Failure, Stats};
use super::signals;
use super::sink::EventSink;
use super::toolbox::{self, CREATE_NEW_TOPIC, Signal, SignalHook};
use crate::events::{Event, now_rfc3339};
use crate::provider::request::{self, RequestSpec};
use crate::provider::transport::display_url;
use crate::provider::{Client, Delta, GenError, Observer, Usage};
use crate::session;

const BASE_PROMPT: &str = "You are gem-ask, an assistant answering in a command-line terminal. \
Be concise and exact; use plain text or light Markdown.\n";

/// The first line of the text part that carries a turn's context
/// ([`Agent::turn_context`]): readers of a session skip such a part as
/// not the user's words.
pub const TURN_CONTEXT: &str = "[Context for this turn from gem-ask, not written by the user]\n";

const COMMAND_PROMPT: &str = "You turn requests into shell commands. Reply with exactly one command \
line for a POSIX shell on Linux and nothing else: no explanation, no Markdown fences.";

/// How requests are made, fixed for a run.
#[derive(Debug, Clone)]
pub struct TurnOptions {
    /// Ask for and show thought summaries.
    pub thoughts: bool,
    /// `--thinking`: put into each request for the client's model
    /// (`provider::thinking`).
    pub thinking: Option<crate::provider::Thinking>,
    /// Describe each request on stderr.
    pub debug: bool,
    /// `--verbose`: each turn's share of cached input said on stderr.
    pub verbose: bool,
    /// `-c`: the command prompt, no tool guidance.
    pub command_help: bool,
    pub max_rounds: u32,
    /// For `--debug` lines; its userinfo and query are never shown.
    pub base_url: String,
    /// What a mode adds to the system prompt (task mode: the task rules).
    pub system_extra: String,
    /// Summarize the oldest turns past this many history tokens (0: never).
    pub max_history_tokens: u64,
    /// No turn follows this one (one-shot mode): its final answer goes to
    /// the session but not into [`Agent::history`], where a long answer
    /// would be held whole in memory for nothing.
    pub one_turn: bool,
    /// `generationConfig` members of `--modalities` and `--voice`; an
    /// image or speech answer is asked for without tools (and speech
    /// without the system prompt, which a TTS model would read out).
    pub generation: Option<Value>,
    /// The user's own system prompt (`--system`, a role's, the context
    /// files), after gem-ask's guidance, which it adds to.
    pub system_user: String,
    pub temperature: Option<f64>,
    /// `--schema`: the answer is data; its text is not shown but kept in
    /// [`TurnReport::answer`] to be checked.
    pub schema: Option<std::sync::Arc<super::schema::Schema>>,
    /// The schema's one retry: no tools, the schema as a constraint.
    pub schema_retry: bool,
    /// `--max-requests`, `--max-tokens`.
    pub budget: super::budget::Budget,
}

/// What one completed user turn did.
#[derive(Default)]
pub struct TurnReport {
    /// The signals the model sent, in order.
    pub signals: Vec<Signal>,
    /// Tokens of this turn's requests.
    pub usage: Usage,
    /// What this turn's requests cost, when the model's price is known.
    pub cost_usd: Option<f64>,
    pub requests: u64,
    pub tool_calls: u64,
    /// The history's tokens after the turn: the last request's prompt
    /// plus its answer (`usageMetadata`).
    pub context_tokens: u64,
    /// Session records of the turn (contents and topics), to append once
    /// the turn is kept. The model's answers are written from their
    /// spools, never built as one string.
    pub records: Vec<Box<dyn session::Record>>,
    /// The turn ended at `--max-tool-rounds` with calls not run
    /// ([`Agent::rounds_end_turn`]).
    pub round_limit: bool,
    /// The final answer's text, kept only with `--schema`.
    pub answer: Option<String>,
}

impl TurnReport {
    /// Whether the model sent a signal of this kind.
    pub fn signalled(&self, kind: &str) -> bool {
        self.signals.iter().any(|s| s.kind == kind)
    }
}

/// A conversation with its tools and where its events go, across turns.
pub struct Agent {
    pub sink: Box<dyn EventSink>,
    pub toolbox: toolbox::Toolbox,
    /// Counts over every turn so far, for the `result` event.
    pub stats: Stats,
    /// The active chapter.
    pub topic: Option<String>,
    /// The contents sent before the next user turn. Replace it with
    /// [`Agent::set_history`], which keeps [`Agent::ledger`] in step.
    pub history: Vec<Value>,
    /// The history's token accounts (`--max-history-tokens`).
    pub ledger: Ledger,
    /// Session records made before a turn (a summary), stored with the
    /// next completed turn.
    pub(crate) pending: Vec<Value>,
    pub opts: TurnOptions,
    /// Called with each signal as it arrives, during the turn (the
    /// progress line on the terminal).
    pub on_signal: Option<SignalHook>,
    /// A turn still running at this instant stops as interrupted
    /// (`--task-timeout`); see [`Agent::past_deadline`].
    pub deadline: Option<Instant>,
    /// A turn that reaches `--max-tool-rounds` ends there (the calls it
    /// did not run answered as such) instead of failing: in task mode the
    /// iteration ends and the task goes on.
    pub rounds_end_turn: bool,
    /// Files for the next user turn, and the bytes of attachments sent.
    pub attach: super::attach::Attachments,
    /// Where the model's and tools' images and audio are written.
    pub media_dir: std::path::PathBuf,
    /// `--memory`: the store and what the current turn carries of it.
    pub memory: Option<TurnMemory>,
    /// The model whose `--thinking` note was said: once a model.
    pub(crate) thinking_noted: Option<String>,
}

/// What a run's turns know of its memory (`--memory`; found by
/// `super::recall`).
pub struct TurnMemory {
    pub handle: std::sync::Arc<crate::memory::Handle>,
    /// The current turn's block of the system prompt.
    pub block: Option<String>,
    /// The keys the current turn's prompt carries.
    pub used: Vec<String>,
    /// The next turn keeps these memories (a turn the model takes on its own).
    pub keep_next: bool,
    /// `--verbose`: each turn's memories said on stderr.
    pub verbose: bool,
}

impl TurnMemory {
    pub fn new(handle: std::sync::Arc<crate::memory::Handle>, verbose: bool) -> TurnMemory {
        TurnMemory {
            handle,
            block: None,
            used: Vec::new(),
            keep_next: false,
            verbose,
        }
    }
}

/// Whether a request asking for `generation` declares tools and sends
/// the system prompt: not for images or speech (image and TTS models
/// take no tools; a TTS model would read the prompt out).
fn media_limits(generation: Option<&Value>) -> (bool, bool) {
    let asks = |m: &str| {
        generation
            .and_then(|g| g.get("responseModalities"))
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|x| x == m))
    };
    let (image, audio) = (asks("IMAGE"), asks("AUDIO"));
    (!image && !audio, !audio)
}

/// Adds the time to an event that is not a streamed piece.
pub fn stamp(mut e: Event) -> Event {
    if !e.0.contains_key("timestamp") {
        e.set("timestamp", now_rfc3339());
    }
    e
}

pub(super) struct Obs<'a> {
    pub(super) sink: &'a mut dyn EventSink,
    pub(super) thoughts: bool,
    pub(super) deadline: Option<Instant>,
    /// Whether text is shown: not for the summary request.
    pub(super) show_text: bool,
}

impl Observer for Obs<'_> {
    fn delta(&mut self, d: &Delta) -> io::Result<()> {
        match d {
            Delta::Text(_) if !self.show_text => Ok(()),
            Delta::Text(t) => self.sink.emit(&Event::message("assistant", t, true)),
            Delta::Thought(t) if self.thoughts => self.sink.emit(&Event::thought(t, true)),
            Delta::Thought(_) => Ok(()),
        }
    }

    fn retry(&mut self, attempt: u32, delay: Duration, reason: &str) -> io::Result<()> {
        self.sink.emit(&stamp(Event::retry(
            attempt,
            delay.as_millis() as u64,
            &redact_key(reason),
        )))
    }

    fn interrupted(&self) -> bool {
        signals::received().is_some() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn warning(&mut self, text: &str) -> io::Result<()> {
        self.sink
            .emit(&stamp(Event::error("warning", &redact_key(text))))
    }
}

impl Agent {
    pub fn emit(&mut self, e: Event) -> io::Result<()> {
        self.sink.emit(&e)
    }

    fn system_prompt(&self) -> String {
        if self.opts.command_help {
            return format!("{COMMAND_PROMPT}{}", self.opts.system_user);
        }
        let mut s = BASE_PROMPT.to_string();
        s.push_str(&self.toolbox.guidance());
        s.push_str(&self.opts.system_extra);
        if let Some(schema) = &self.opts.schema
            && !self.opts.schema_retry
            && !self.toolbox.declared().is_empty()
        {
            s.push_str(&schema.instruction());
        }
        s.push_str(&self.opts.system_user);
        s
    }

    /// What this turn tells the model besides the user's words: the
    /// memories recalled for it (once: a turn the model takes on its own
    /// has them in the turn before) and the active chapter. It opens the
    /// user's turn, after the history, so that the system instruction,
    /// the tools and every earlier turn (the request's prefix, which the
    /// API caches) stay byte for byte the same all session.
    fn turn_context(&mut self) -> Option<String> {
        let mut s = String::new();
        if let Some(block) = self.memory.as_mut().and_then(|m| m.block.take()) {
            s.push_str(&block);
        }
        if self.toolbox.declared().contains(&CREATE_NEW_TOPIC)
            && let Some(t) = &self.topic
        {
            if !s.is_empty() {
                s.push('\n');
            }
            s.push_str(&crate::topic::active_topic_footer(t));
        }
        (!s.is_empty()).then(|| format!("{TURN_CONTEXT}{s}"))
    }

    /// The user's turn as sent: its [`Agent::turn_context`] first.
    pub(super) fn with_turn_context(&mut self, mut user: Value) -> Value {
        if let Some(text) = self.turn_context()
            && let Some(parts) = user.get_mut("parts").and_then(Value::as_array_mut)
        {
            parts.insert(0, json!({ "text": text }));
        }
        user
    }

    /// Replaces the history with a session's (`/load`, `/new`), its token
    /// accounts with it.
    pub fn set_history(&mut self, h: &session::History) {
        self.history = h.contents.clone();
        self.ledger = Ledger::from_history(h);
        self.pending.clear();
    }

    /// Whether the [`Agent::deadline`] has passed: a turn that ended as
    /// interrupted without a signal ran out of time.
    pub fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Stops before a request or a tool call: a signal arrived or the
    /// deadline passed.
    pub(super) fn check_stop(&self) -> Result<(), Failure> {
        if signals::received().is_some() || self.past_deadline() {
            return Err(Failure::Gen(GenError::Interrupted));
        }
        Ok(())
    }

    /// Runs one user turn (`user` is a Gemini Content) to its end. On
    /// success the turn joins [`Agent::history`]; a failed or interrupted
    /// turn leaves the history as it was (its cost stays in the stats).
    ///
    /// A history past `--max-history-tokens` is summarized first; the
    /// report's records then start with the summary.
    pub fn turn(&mut self, client: &Client, user: Value) -> Result<TurnReport, Failure> {
        let mut report = TurnReport::default();
        self.toolbox.begin_turn(client);
        self.compact(client, &mut report)?;
        self.recall(client, &user, &mut report)?;
        let user = self.attach.take_into(user, client)?;
        let user = self.with_turn_context(user);
        // Moved out, not copied (a long answer in it would be copied
        // whole); cut back to `kept` if the turn fails.
        let kept = self.history.len();
        let mut contents = std::mem::take(&mut self.history);
        contents.push(user.clone());
        report
            .records
            .push(Box::new(session::content_record(&user)));
        let done = self.rounds(client, &mut contents, &mut report);
        if done.is_err() {
            contents.truncate(kept);
        }
        self.history = contents;
        done?;
        let tokens = self
            .ledger
            .turn_done(self.history.len(), report.context_tokens);
        let mut records: Vec<Box<dyn session::Record>> = std::mem::take(&mut self.pending)
            .into_iter()
            .map(|r| Box::new(r) as Box<dyn session::Record>)
            .collect();
        records.append(&mut report.records);
        // What the audit log (`gem-ask log`) reads of the turn besides
        // its tokens: its usage, its cost when the price is known.
        let mut closing = session::turn_record(tokens, report.context_tokens);
        let u = report.usage;
        closing["usage"] = json!({"input": u.prompt, "cached_input": u.cached,
                                  "output": u.candidates, "thinking": u.thoughts});
        if let Some(c) = report.cost_usd {
            closing["cost_usd"] = json!(c);
        }
        if let Some(v) = &self.stats.model_version {
            closing["model_version"] = json!(v);
        }
        records.push(Box::new(closing));
        report.records = records;
        if self.opts.verbose {
            let u = report.usage;
            crate::term::diag(format!(
                "gem-ask: input {} tokens, {} of them cached ({}%)",
                u.prompt,
                u.cached,
                u.cached_percent().unwrap_or(0)
            ));
            crate::term::diag(match self.stats.cost_usd {
                Some(c) => format!("gem-ask: cost so far ${c:.6}"),
                None => "gem-ask: cost unknown (no price for this model)".to_string(),
            });
        }
        Ok(report)
    }

    /// Requests and tool rounds until the model answers without a call.
    fn rounds(
        &mut self,
        client: &Client,
        contents: &mut Vec<Value>,
        report: &mut TurnReport,
    ) -> Result<(), Failure> {
        let mut rounds = 0u32;
        loop {
            let Some(calls) = self.request(client, contents, report)? else {
                return Ok(());
            };
            rounds += 1;
            if rounds > self.opts.max_rounds {
                if !self.rounds_end_turn {
                    return Err(Failure::MaxRounds(self.opts.max_rounds));
                }
                let content = self.not_run(&calls)?;
                report
                    .records
                    .push(Box::new(session::content_record(&content)));
                contents.push(content);
                report.round_limit = true;
                return Ok(());
            }
            let content = self.run_calls(&calls, rounds, report)?;
            report
                .records
                .push(Box::new(session::content_record(&content)));
            contents.push(content);
        }
    }

    /// The request for `contents` as this run sends it: the system prompt,
    /// the declared tools, the schema and temperature (`--count-tokens`
    /// counts this very body).
    /// Its attachment parts are still `{"attachment": ...}`: the request
    /// resolves them with [`super::attach::Attachments::wire`].
    pub fn request_body(&self, contents: &[Value]) -> Value {
        // Image and speech answers take no tools (and speech no system
        // prompt, which a TTS model would read out).
        let (tools, system) = media_limits(self.opts.generation.as_ref());
        let decls: Vec<Value> = if tools && !self.opts.schema_retry {
            self.toolbox.declarations()
        } else {
            Vec::new()
        };
        let system = system.then(|| self.system_prompt());
        // Gemini 2.5 refuses JSON mode beside function declarations: with
        // tools the schema is in the system prompt, and the answer checked.
        let schema = self.opts.schema.as_ref().filter(|_| decls.is_empty());
        let mut body = request::build(&RequestSpec {
            contents,
            system: system.as_deref(),
            functions: &decls,
            thoughts: self.opts.thoughts,
            json_schema: schema.map(|s| &s.sent),
            temperature: self.opts.temperature,
            builtin_tools: &[],
        });
        if let Some(g) = &self.opts.generation {
            request::merge_generation(&mut body, g);
        }
        body
    }

    /// One request and its streamed answer, added to `contents`; the
    /// function calls it asked for, `None` when it asked for none.
    fn request(
        &mut self,
        client: &Client,
        contents: &mut Vec<Value>,
        report: &mut TurnReport,
    ) -> Result<Option<Vec<crate::provider::FunctionCall>>, Failure> {
        // No request after a signal: it would only cost tokens.
        self.check_stop()?;
        self.opts.budget.check(&self.stats)?;
        let mut body = self.request_body(contents);
        self.think(&mut body, client);
        let schema = self.opts.schema.clone();
        let wired = self.attach.wire(&mut body, client)?;
        for w in &wired.warnings {
            self.emit(stamp(Event::error("warning", w)))?;
        }
        if self.opts.debug {
            crate::term::diag(format!(
                "gem-ask: debug: POST {}{} {}: [REDACTED] ({} contents, {} bytes)",
                display_url(self.opts.base_url.trim()).trim_end_matches('/'),
                client.path(),
                client.provider().auth_header("").0,
                contents.len(),
                body.to_string().len()
            ));
        }
        let mut obs = Obs {
            sink: self.sink.as_mut(),
            thoughts: self.opts.thoughts,
            deadline: self.deadline,
            // Data is shown as records, once checked.
            show_text: schema.is_none(),
        };
        let mut turn = client.generate_with(body, &wired.blobs, &mut obs)?;
        drop(wired);
        self.model_media(&mut turn)?;
        self.stats.requests = self.stats.requests.saturating_add(1);
        report.requests += 1;
        self.stats.usage.add(turn.usage);
        if let Some(v) = &turn.model_version {
            self.stats.model_version = Some(v.clone());
        }
        report.usage.add(turn.usage);
        self.stats.last_prompt = turn.usage.prompt;
        if let Some(price) = self.opts.budget.price_for(turn.model_version.as_deref()) {
            let c = self.stats.cost_usd.get_or_insert(0.0);
            *c += price.cost(&turn.usage);
            *report.cost_usd.get_or_insert(0.0) += price.cost(&turn.usage);
        }
        report.context_tokens = turn.usage.prompt.saturating_add(turn.usage.candidates);
        match turn.finish_reason.as_deref() {
            Some("MAX_TOKENS") => self.emit(stamp(Event::error(
                "warning",
                "the answer was cut at the model's output token limit (finishReason MAX_TOKENS)",
            )))?,
            Some(r @ ("MALFORMED_FUNCTION_CALL" | "UNEXPECTED_TOOL_CALL")) => {
                self.emit(stamp(Event::error(
                    "warning",
                    &format!("the model produced an unusable tool call (finishReason {r})"),
                )))?
            }
            _ => {}
        }
        self.grounded_answer(&turn)?;
        let calls = std::mem::take(&mut turn.calls);
        if schema.is_some() && calls.is_empty() {
            report.answer = Some(turn.text().map_err(GenError::Output)?);
        }
        if !turn.parts.is_empty() {
            // The next request resends the answer whole, so only then is
            // it built in memory; the session gets it from the spool.
            if !calls.is_empty() || !self.opts.one_turn {
                contents.push(turn.content().map_err(GenError::Output)?);
            }
            report
                .records
                .push(Box::new(session::ContentRecord::new(turn)));
        }
        Ok((!calls.is_empty()).then_some(calls))
    }

    /// Puts `--thinking` into a request for the client's model; what the
    /// model cannot take is said on stderr, once a model.
    fn think(&mut self, body: &mut Value, client: &Client) {
        let Some(t) = self.opts.thinking else {
            return;
        };
        let model = client.model();
        let kind = client.provider().kind();
        let note = crate::provider::thinking::apply(body, t, model, kind);
        if let Some(n) = note
            && self.thinking_noted.as_deref() != Some(model)
        {
            crate::term::diag(format!("gem-ask: {n}"));
            self.thinking_noted = Some(model.to_string());
        }
    }

    /// The calls of a round past `--max-tool-rounds` when the turn ends
    /// there: none is run, each is answered so, and a warning says which.
    fn not_run(&mut self, calls: &[crate::provider::FunctionCall]) -> Result<Value, Failure> {
        let max = self.opts.max_rounds;
        let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
        self.emit(stamp(Event::error(
            "warning",
            &format!(
                "this iteration reached --max-tool-rounds ({max}): the model's further calls ({}) \
                 were not run; the task goes on with the next iteration",
                names.join(", ")
            ),
        )))?;
        let why = format!(
            "not run: this iteration of the task reached its limit of {max} rounds of tool calls \
             (--max-tool-rounds); the next iteration follows"
        );
        let parts: Vec<Value> = calls
            .iter()
            .map(|c| {
                let mut fr = serde_json::Map::new();
                if let Some(id) = &c.id {
                    fr.insert("id".into(), id.clone().into());
                }
                fr.insert("name".into(), c.name.clone().into());
                fr.insert("response".into(), json!({ "error": why }));
                json!({ "functionResponse": fr })
            })
            .collect();
        Ok(json!({"role": "user", "parts": parts}))
    }

    /// The sources of an answer the model grounded on its own
    /// (`groundingMetadata`), numbered after the web tools' of the turn.
    fn grounded_answer(&mut self, turn: &crate::provider::Turn) -> Result<(), Failure> {
        let Some(g) = &turn.grounding else {
            return Ok(());
        };
        let sources = crate::provider::grounding::sources(g);
        let first = self.toolbox.number_sources(sources.len());
        for (i, s) in sources.iter().enumerate() {
            let e = toolbox::model::source_event(first + i as u64, s);
            self.emit(stamp(e))?;
        }
        Ok(())
    }

    /// Runs one round of calls through the toolbox; the user Content that
    /// carries their functionResponses, in the model's order.
    fn run_calls(
        &mut self,
        calls: &[crate::provider::FunctionCall],
        round: u32,
        report: &mut TurnReport,
    ) -> Result<Value, Failure> {
        // A chapter header comes before the actions of its turn,
        // whatever order the model wrote the calls in.
        let mut order: Vec<usize> = (0..calls.len()).collect();
        crate::topic::order_calls_topic_first(&mut order, |&i| calls[i].name == CREATE_NEW_TOPIC);
        let mut responses: Vec<Option<Value>> = vec![None; calls.len()];
        self.toolbox.set_task_deadline(self.deadline);
        for i in order {
            self.check_stop()?;
            let call = &calls[i];
            let tool_id = call
                .id
                .clone()
                .unwrap_or_else(|| format!("{}-{}-{}", call.name, round, i + 1));
            let sink = &mut self.sink;
            let mut emitted = Vec::new();
            let done = self.toolbox.dispatch(
                &toolbox::ToolCall {
                    name: &call.name,
                    id: call.id.as_deref(),
                    args: &call.args,
                    tool_id: &tool_id,
                },
                &mut |e| {
                    let e = stamp(e);
                    let r = sink.emit(&e);
                    emitted.push(e);
                    r
                },
            )?;
            self.stats.tools.record(&call.name, &call.args, &emitted);
            self.stats.tool_calls += 1;
            report.tool_calls += 1;
            for s in emitted.iter().filter_map(Signal::from_event) {
                if let Some(f) = self.on_signal.as_mut() {
                    f(&s);
                }
                report.signals.push(s);
            }
            if let Some(t) = done.new_topic {
                report.records.push(Box::new(session::topic_record(&t)));
                self.topic = Some(t);
            }
            let mut part = done.part;
            self.tool_media(&mut part, &call.name)?;
            responses[i] = Some(part);
        }
        let parts: Vec<Value> = responses.into_iter().flatten().collect();
        Ok(json!({"role": "user", "parts": parts}))
    }
}
