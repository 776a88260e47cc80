//! gem-ask: one user turn against Gemini with its rounds of tool calls.
//!
//! The agent builds each request from the session history, streams the
//! answer into an [`EventSink`], runs the tools the model calls, sends their
//! results back, and repeats until the model answers in text (or
//! `--max-tool-rounds`). The stream always opens with `init` and closes
//! with exactly one `result`, on success, on any failure, and on
//! SIGINT/SIGTERM; the exit code tells the failures apart ([`exit`]).

pub mod args;
pub mod plot;
pub mod repl;
pub mod signals;
pub mod sink;
mod tool_stats;
pub mod toolbox;
pub mod tools;

use std::io::{self, BufWriter, IsTerminal, Read};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

pub use args::{Args, OutputMode};
pub use sink::{CommandSink, EventSink, JsonlSink, RenderSink};

use crate::cli::coded;
use crate::events::{Event, now_rfc3339};
use crate::gemini::request::{self, RequestSpec};
use crate::gemini::transport::{
    BaseUrl, Http, Recording, Replay, Timeouts, Transport, display_url, scrub_url,
};
use crate::gemini::{Client, Delta, GenError, Observer, RetryPolicy, Usage};
use crate::session;

/// gem-ask's exit codes (also in the man page, [`args::HELP_TAIL`]).
pub mod exit {
    pub use crate::cli::exit::{DATA, FAILURE, NO_INPUT, OK, USAGE};
    pub const NO_API_KEY: u8 = 3;
    pub const API: u8 = 4;
    pub const BLOCKED: u8 = 5;
    pub const INTERRUPTED: u8 = 130;
    pub const TERMINATED: u8 = 143;
}

const BASE_PROMPT: &str = "You are gem-ask, an assistant answering in a command-line terminal. \
Be concise and exact; use plain text or light Markdown.\n";

const COMMAND_PROMPT: &str = "You turn requests into shell commands. Reply with exactly one command \
line for a POSIX shell on Linux and nothing else: no explanation, no Markdown fences.";

/// Runs gem-ask; the value is the exit code. Errors returned carry their
/// code (`cli::Coded`) and are printed once by `cli::main_with`.
pub fn run(mut args: Args) -> anyhow::Result<u8> {
    signals::install();
    // GEMINI_MODEL="" is "not set", not a model called "".
    if args.model.trim().is_empty() {
        args.model = crate::gemini::DEFAULT_MODEL.to_string();
    }
    let started = Instant::now();
    if args.list_tools {
        return list_tools(&args);
    }
    let (toolbox, tool_failures) = toolbox::ToolSetup::from_args(&args)
        .build()
        .map_err(|e| coded(exit::USAGE, e))?;
    // A malformed --base-url is a usage error, said before any stream
    // starts like the others; a replayed run never uses it.
    let base = base_url(&args);
    if args.replay.is_none() {
        BaseUrl::parse(&base).map_err(|e| coded(exit::USAGE, e))?;
    }
    // None: a signal arrived while stdin was still open; the run ends as
    // interrupted, with its init and result, and sends nothing.
    let context = read_context(&args)?;
    let interrupted_early = context.is_none();
    let context = context.unwrap_or_default();
    let mut prompt = args.prompt.join(" ");
    if !interrupted_early && prompt.trim().is_empty() && context.trim().is_empty() {
        return Err(coded(
            exit::USAGE,
            "no prompt: give it as arguments or pipe text on stdin (see --help)",
        ));
    }
    if args.command_help {
        prompt = format!("Provide the Linux command for: {prompt}");
    }
    let session = resolve_session(&args)?;

    let mode = match args.output {
        // -c exists to print a command alone, for a person or for
        // `$(gem-ask -c ...)`; the events only when asked for.
        OutputMode::Auto if args.command_help => OutputMode::Text,
        OutputMode::Auto if io::stdout().is_terminal() => OutputMode::Text,
        OutputMode::Auto => OutputMode::Jsonl,
        m => m,
    };
    let out = BufWriter::new(io::stdout().lock());
    let sink: Box<dyn EventSink> = match mode {
        OutputMode::Text if args.command_help => Box::new(CommandSink::new(out)),
        OutputMode::Text => {
            let env = crate::cli::TermEnv::from_process();
            let mut opts = crate::render::RenderOptions::resolve(
                &env,
                args.width.map(usize::from),
                args.ascii,
                args.unicode,
                args.color,
            );
            opts.show_tools = args.show_tools;
            opts.show_thoughts = args.thoughts;
            args.text.apply(&mut opts);
            Box::new(RenderSink::new(out, opts))
        }
        _ => Box::new(JsonlSink::new(out)),
    };
    let mut run = Run {
        sink,
        stats: Stats::default(),
        topic: session.history.topic.clone(),
        toolbox,
        thoughts: args.thoughts,
        debug: args.debug,
        command_help: args.command_help,
        // The renderer draws a failed result as an error line; saying it
        // again on stderr would show it twice on the terminal.
        error_drawn: mode == OutputMode::Text && !args.command_help,
        max_rounds: args.max_tool_rounds,
        records: Vec::new(),
        base_url: base.clone(),
    };
    run.emit(stamp(Event::init(&session.id, &args.model, &now_rfc3339())))?;
    for f in tool_failures {
        run.emit(stamp(Event::error("error", &f)))?;
    }
    if !prompt.trim().is_empty() {
        run.emit(stamp(Event::message("user", &prompt, false)))?;
    }

    let transport = if interrupted_early {
        Err(Failure::Gen(GenError::Interrupted))
    } else if let Some(m) = &session.load_error {
        Err(Failure::Session(m.clone()))
    } else {
        make_transport(&args)
    };
    let outcome = match transport {
        Ok(transport) => {
            let client = Client::new(transport, &args.model, retry_policy(&args));
            let mut texts: Vec<&str> = Vec::new();
            if !context.trim().is_empty() {
                texts.push(&context);
            }
            if !prompt.trim().is_empty() {
                texts.push(&prompt);
            }
            let user = request::user_text(&texts);
            run.converse(&client, &session.history.contents, user, &base)
                .and_then(|()| run.save(&session, &args.model))
        }
        Err(f) => Err(f),
    };
    run.finish(outcome, started.elapsed())
}

/// Why a turn did not complete.
#[derive(Debug)]
enum Failure {
    Gen(GenError),
    NoKey,
    MaxRounds(u32),
    Session(String),
    /// A `--record`/`--replay` file that cannot be opened.
    Setup(u8, String),
}

impl From<GenError> for Failure {
    fn from(e: GenError) -> Self {
        Failure::Gen(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Gen(GenError::Output(e))
    }
}

#[derive(Debug, Default)]
struct Stats {
    usage: Usage,
    requests: u64,
    tool_calls: u64,
    tools: tool_stats::ToolStats,
}

struct Run {
    sink: Box<dyn EventSink>,
    stats: Stats,
    topic: Option<String>,
    toolbox: toolbox::Toolbox,
    thoughts: bool,
    debug: bool,
    command_help: bool,
    error_drawn: bool,
    max_rounds: u32,
    /// Session records of this turn, written once it completes.
    records: Vec<Value>,
    /// Its userinfo and query never reach a message.
    base_url: String,
}

/// Adds the time to an event that is not a streamed piece.
fn stamp(mut e: Event) -> Event {
    if !e.0.contains_key("timestamp") {
        e.set("timestamp", now_rfc3339());
    }
    e
}

struct Obs<'a> {
    sink: &'a mut dyn EventSink,
    thoughts: bool,
}

impl Observer for Obs<'_> {
    fn delta(&mut self, d: &Delta) -> io::Result<()> {
        match d {
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
        signals::received().is_some()
    }

    fn warning(&mut self, text: &str) -> io::Result<()> {
        self.sink
            .emit(&stamp(Event::error("warning", &redact_key(text))))
    }
}

impl Run {
    fn emit(&mut self, e: Event) -> io::Result<()> {
        self.sink.emit(&e)
    }

    fn system_prompt(&self) -> String {
        if self.command_help {
            return COMMAND_PROMPT.to_string();
        }
        let mut s = BASE_PROMPT.to_string();
        s.push_str(&self.toolbox.guidance());
        if self.toolbox.declared().contains(&tools::CREATE_NEW_TOPIC)
            && let Some(t) = &self.topic
        {
            s.push('\n');
            s.push_str(&crate::topic::active_topic_footer(t));
        }
        s
    }

    fn converse(
        &mut self,
        client: &Client,
        history: &[Value],
        user: Value,
        base_url: &str,
    ) -> Result<(), Failure> {
        let decls: Vec<Value> = self.toolbox.declarations();
        let mut contents = history.to_vec();
        contents.push(user.clone());
        self.records.push(session::content_record(&user));
        let mut rounds = 0u32;
        loop {
            // No request after a signal: it would only cost tokens.
            if signals::received().is_some() {
                return Err(Failure::Gen(GenError::Interrupted));
            }
            let system = self.system_prompt();
            let body = request::build(&RequestSpec {
                contents: &contents,
                system: Some(&system),
                functions: &decls,
                thoughts: self.thoughts,
            });
            if self.debug {
                crate::cli::diag(format!(
                    "gem-ask: debug: POST {}{} x-goog-api-key: [REDACTED] ({} contents, {} bytes)",
                    display_url(base_url.trim()).trim_end_matches('/'),
                    client.path(),
                    contents.len(),
                    body.to_string().len()
                ));
            }
            let mut obs = Obs {
                sink: self.sink.as_mut(),
                thoughts: self.thoughts,
            };
            let turn = client.generate(&body, &mut obs)?;
            self.stats.requests = self.stats.requests.saturating_add(1);
            // The counts come from the server: a broken one must not
            // overflow the sums.
            let (u, sum) = (turn.usage, &mut self.stats.usage);
            sum.prompt = sum.prompt.saturating_add(u.prompt);
            sum.candidates = sum.candidates.saturating_add(u.candidates);
            sum.thoughts = sum.thoughts.saturating_add(u.thoughts);
            sum.total = sum.total.saturating_add(u.total);
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
            if !turn.parts.is_empty() {
                let content = turn.content();
                self.records.push(session::content_record(&content));
                contents.push(content);
            }
            if turn.calls.is_empty() {
                return Ok(());
            }
            rounds += 1;
            if rounds > self.max_rounds {
                return Err(Failure::MaxRounds(self.max_rounds));
            }
            // A chapter header comes before the actions of its turn,
            // whatever order the model wrote the calls in.
            let mut order: Vec<usize> = (0..turn.calls.len()).collect();
            crate::topic::order_calls_topic_first(&mut order, |&i| {
                turn.calls[i].name == tools::CREATE_NEW_TOPIC
            });
            let mut responses: Vec<Option<Value>> = vec![None; turn.calls.len()];
            for i in order {
                if signals::received().is_some() {
                    return Err(Failure::Gen(GenError::Interrupted));
                }
                let call = &turn.calls[i];
                let tool_id = call
                    .id
                    .clone()
                    .unwrap_or_else(|| format!("{}-{}-{}", call.name, rounds, i + 1));
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
                if let Some(t) = done.new_topic {
                    self.records.push(session::topic_record(&t));
                    self.topic = Some(t);
                }
                responses[i] = Some(done.part);
            }
            let parts: Vec<Value> = responses.into_iter().flatten().collect();
            let content = json!({"role": "user", "parts": parts});
            self.records.push(session::content_record(&content));
            contents.push(content);
        }
    }

    fn save(&mut self, s: &SessionChoice, model: &str) -> Result<(), Failure> {
        let Some(path) = &s.write_to else {
            return Ok(());
        };
        session::append(path, model, &self.records)
            .map_err(|e| Failure::Session(format!("cannot write session {}: {e}", path.display())))
    }

    /// Writes the `result` event and turns the outcome into the exit code.
    fn finish(mut self, outcome: Result<(), Failure>, elapsed: Duration) -> anyhow::Result<u8> {
        // A signal that arrived after the last check still ends as interrupted.
        let outcome = match (outcome, signals::received()) {
            (Ok(()), Some(_)) => Err(Failure::Gen(GenError::Interrupted)),
            (o, _) => o,
        };
        let (code, error) = match &outcome {
            Ok(()) => (exit::OK, None),
            Err(Failure::Gen(GenError::Output(e))) => {
                // Our own stdout failed (a closed pipe): nothing more can be said there.
                return Err(io::Error::new(e.kind(), e.to_string()).into());
            }
            Err(Failure::Gen(GenError::Interrupted)) => {
                let sig = signals::received().unwrap_or(libc::SIGINT);
                let code = if sig == libc::SIGTERM {
                    exit::TERMINATED
                } else {
                    exit::INTERRUPTED
                };
                (
                    code,
                    Some((
                        "interrupted",
                        format!("interrupted by {}", signals::name(sig)),
                    )),
                )
            }
            Err(Failure::Gen(e)) => {
                let code = match e {
                    GenError::Blocked(_) => exit::BLOCKED,
                    _ => exit::API,
                };
                (code, Some((e.kind(), e.to_string())))
            }
            Err(Failure::NoKey) => (
                exit::NO_API_KEY,
                Some((
                    "missing_api_key",
                    "no API key: set GEMINI_API_KEY or GOOGLE_API_KEY".to_string(),
                )),
            ),
            Err(Failure::MaxRounds(n)) => (
                exit::FAILURE,
                Some((
                    "max_tool_rounds",
                    format!(
                        "the model was still calling tools after {n} rounds (--max-tool-rounds)"
                    ),
                )),
            ),
            Err(Failure::Session(m)) => (exit::FAILURE, Some(("session_error", m.clone()))),
            Err(Failure::Setup(code, m)) => (*code, Some(("setup_error", m.clone()))),
        };
        // A proxy or gateway may echo the key back in an error message, and
        // the HTTP library quotes the URL with its credentials and query.
        let error =
            error.map(|(kind, message)| (kind, redact_key(&scrub_url(&message, &self.base_url))));
        let u = self.stats.usage;
        let mut map = Map::new();
        map.insert("type".into(), "result".into());
        map.insert(
            "status".into(),
            if error.is_some() { "error" } else { "success" }.into(),
        );
        if let Some((kind, message)) = &error {
            map.insert("error".into(), json!({"type": kind, "message": message}));
        }
        map.insert(
            "stats".into(),
            json!({
                "input_tokens": u.prompt,
                "output_tokens": u.candidates,
                "thought_tokens": u.thoughts,
                "total_tokens": u.total,
                "duration_ms": elapsed.as_millis() as u64,
                "tool_calls": self.stats.tool_calls,
                "requests": self.stats.requests,
                "tools": self.stats.tools.to_json(),
            }),
        );
        map.insert("timestamp".into(), now_rfc3339().into());
        self.sink.emit(&Event(map))?;
        self.sink.finish()?;
        match error {
            None => Ok(code),
            Some(_) if self.error_drawn => Ok(code),
            Some((_, message)) => Err(coded(code, message)),
        }
    }
}

/// `--list-tools`: starts the configured MCP servers, prints every tool
/// and each server's status on stdout, exits 0.
fn list_tools(args: &Args) -> anyhow::Result<u8> {
    use std::io::Write;
    let (toolbox, _) = toolbox::ToolSetup::from_args(args)
        .build()
        .map_err(|e| coded(exit::USAGE, e))?;
    let text = toolbox::format_tool_list(&toolbox.list());
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(exit::OK)
}

/// The most stdin gem-ask sends as context (documented in `--help`).
pub const MAX_CONTEXT: u64 = 8 << 20;

/// Stdin as context, or `None` when SIGINT/SIGTERM arrived first. More
/// than [`MAX_CONTEXT`] is an error (exit 65), not a silent cut. The read
/// runs on a thread so a signal ends the wait even while the writer keeps
/// the pipe open (`tail -f log | gem-ask ...`): the handlers restart reads.
fn read_context(args: &Args) -> anyhow::Result<Option<String>> {
    if args.no_stdin || io::stdin().is_terminal() {
        return Ok(Some(String::new()));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let r = io::stdin()
            .lock()
            .take(MAX_CONTEXT + 1)
            .read_to_end(&mut bytes)
            .map(|_| bytes);
        let _ = tx.send(r);
    });
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(bytes)) if bytes.len() as u64 > MAX_CONTEXT => {
                return Err(coded(
                    exit::DATA,
                    format!(
                        "stdin is larger than {} MiB, the most gem-ask sends as context; trim it first (e.g. tail -c 8M)",
                        MAX_CONTEXT >> 20
                    ),
                ));
            }
            Ok(Ok(bytes)) => return Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
            Ok(Err(e)) => anyhow::bail!("cannot read stdin: {e}"),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if signals::received().is_some() {
                    return Ok(None);
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                anyhow::bail!("cannot read stdin: the reader stopped")
            }
        }
    }
}

/// The session this run belongs to.
struct SessionChoice {
    id: String,
    history: session::History,
    /// Where to append the turn; `None` with `--no-history`.
    write_to: Option<PathBuf>,
    /// The history could not be read: the run ends, inside its stream,
    /// before any request (answering without it would fork the session).
    load_error: Option<String>,
}

fn resolve_session(args: &Args) -> anyhow::Result<SessionChoice> {
    let env_id = std::env::var("GEMINI_SESSION_ID")
        .ok()
        .filter(|s| !s.trim().is_empty());
    // Flags beat the environment: --new-chat and --continue ignore
    // GEMINI_SESSION_ID.
    let named = if args.new_chat || args.continue_last {
        None
    } else {
        args.session.clone().or(env_id)
    };
    let needs_dir = named.is_some() || args.continue_last || !args.no_history;
    let dir = if needs_dir {
        Some(session::sessions_dir()?)
    } else {
        None
    };
    let (id, existing) = match named {
        Some(id) => {
            if !session::valid_id(&id) {
                return Err(coded(
                    exit::USAGE,
                    format!(
                        "invalid session id {id:?}: use letters, digits, '.', '_' and '-' (at most 128, not starting with '.')"
                    ),
                ));
            }
            (id, true)
        }
        None if args.continue_last => match dir.as_deref().and_then(session::most_recent) {
            Some(id) => (id, true),
            None => {
                crate::cli::diag(
                    "gem-ask: note: no earlier session to continue; starting a new one",
                );
                (session::new_id(), false)
            }
        },
        None => (session::new_id(), false),
    };
    let path = dir.map(|d| d.join(format!("{id}.jsonl")));
    let mut load_error = None;
    let history = match (&path, existing) {
        (Some(p), true) => match session::load(p) {
            Ok(h) => {
                for (line, why) in &h.skipped {
                    crate::cli::diag(format!(
                        "gem-ask: warning: session {id}, line {line}: {why} (line skipped)"
                    ));
                }
                for note in &h.notes {
                    crate::cli::diag(format!("gem-ask: warning: session {id}, {note}"));
                }
                if !h.skipped.is_empty() {
                    crate::cli::diag(format!(
                        "gem-ask: warning: session {id}: continuing with the {} readable content record(s)",
                        h.contents.len()
                    ));
                }
                h
            }
            Err(e) => {
                load_error = Some(format!("cannot read session {}: {e}", p.display()));
                session::History::default()
            }
        },
        _ => session::History::default(),
    };
    Ok(SessionChoice {
        write_to: if args.no_history { None } else { path },
        id,
        history,
        load_error,
    })
}

fn base_url(args: &Args) -> String {
    let env = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty());
    args.base_url
        .clone()
        .or_else(|| env("GEMINI_BASE_URL"))
        .or_else(|| env("GOOGLE_GEMINI_BASE_URL"))
        .unwrap_or_else(|| crate::gemini::DEFAULT_BASE_URL.to_string())
}

fn api_key() -> Option<String> {
    ["GEMINI_API_KEY", "GOOGLE_API_KEY"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .map(|v| v.trim().to_string())
        .find(|v| !v.is_empty())
}

/// `text` with the API key, wherever it appears, replaced by `[REDACTED]`.
fn redact_key(text: &str) -> String {
    ["GEMINI_API_KEY", "GOOGLE_API_KEY"]
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .map(|v| v.trim().to_string())
        // A one-letter "key" would blank out half the message.
        .filter(|v| v.len() >= 8)
        .fold(text.to_string(), |t, key| t.replace(&key, "[REDACTED]"))
}

fn plain_http_to_another_host(base: &str) -> bool {
    let shown = display_url(base);
    let Some(rest) = shown.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    !matches!(host, "localhost" | "127.0.0.1" | "::1")
}

fn retry_policy(args: &Args) -> RetryPolicy {
    let base_ms = std::env::var("GEMLINE_RETRY_BASE_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(1000);
    RetryPolicy {
        retries: args.retries,
        base: Duration::from_millis(base_ms),
        max_wait: Duration::from_secs(args.max_wait),
        ..RetryPolicy::default()
    }
}

fn make_transport(args: &Args) -> Result<Arc<dyn Transport>, Failure> {
    let setup = |e: anyhow::Error| Failure::Setup(exit::NO_INPUT, e.to_string());
    if let Some(path) = &args.replay {
        return Ok(Arc::new(Replay::open(path).map_err(setup)?));
    }
    let key = api_key().ok_or(Failure::NoKey)?;
    let base = base_url(args);
    if plain_http_to_another_host(&base) {
        crate::cli::diag(format!(
            "gem-ask: warning: {} is plain http to another host: the API key travels unencrypted",
            display_url(&base)
        ));
    }
    let http = Http::new(
        &base,
        key,
        Timeouts {
            connect: Duration::from_secs(args.connect_timeout),
            read: Duration::from_secs(args.read_timeout),
        },
    );
    Ok(match &args.record {
        Some(path) => Arc::new(Recording::new(http, path).map_err(setup)?),
        None => Arc::new(http),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_http_warning_only_off_loopback() {
        assert!(!plain_http_to_another_host("http://127.0.0.1:8080"));
        assert!(!plain_http_to_another_host("http://localhost/x"));
        assert!(!plain_http_to_another_host("http://[::1]:9"));
        assert!(!plain_http_to_another_host("https://gateway.example"));
        assert!(plain_http_to_another_host("http://gateway.example:8080/v"));
        assert!(!plain_http_to_another_host(
            "http://u:p@127.0.0.1:8080/?k=v"
        ));
    }
}
