//! Everything a run builds from its [`Options`] before the first request: the
//! event sink for stdout, the transport (HTTP, `--record`, `--replay`) and
//! client, the API key, the stdin context, and the session it belongs to.
//! Every mode sets up through here, so they agree on flags and defaults.

use std::io::{self, BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use super::attach;
use super::keys::api_key;
use super::options::{Connection, Conversation, Output};
use super::outcome::Failure;
use super::sink::{CommandSink, EventSink, JsonlSink, RenderSink};
use super::{Options, OutputMode, exit, signals};
use crate::provider::transport::{
    BaseUrl, Http, Recording, Replay, Timeouts, Transport, display_url,
};
use crate::provider::{Client, ProviderKind, RetryPolicy};
use crate::session;
use crate::term::{self, Chunk, coded};

/// The output mode `auto` resolves to for this run (`-c` is
/// `command_help`, an answer as data `records`).
pub fn output_mode(o: &Output, command_help: bool, records: bool) -> OutputMode {
    match o.mode {
        // -c exists to print a command alone, for a person or for
        // `$(gem-ask -c ...)`; the events only when asked for.
        OutputMode::Auto if command_help => OutputMode::Text,
        OutputMode::Auto if io::stdout().is_terminal() => OutputMode::Text,
        // An answer as data is the data alone: `| jq`, `| viz-parse`.
        OutputMode::Auto if records => OutputMode::Records,
        OutputMode::Auto => OutputMode::Jsonl,
        m => m,
    }
}

/// The sink for stdout in `mode` (see [`output_mode`]); `graphics` is
/// `--graphics`.
pub fn make_sink(
    args: &Output,
    graphics: crate::render::graphics::Graphics,
    command_help: bool,
    mode: OutputMode,
) -> Box<dyn EventSink> {
    let out = BufWriter::new(io::stdout().lock());
    match mode {
        OutputMode::Text if command_help => Box::new(CommandSink::new(out)),
        OutputMode::Text => {
            let env = &super::environ::get().term;
            let mut opts = crate::render::RenderOptions::resolve(
                env,
                args.width.map(usize::from),
                args.ascii,
                args.unicode,
                args.color,
            );
            opts.show_tools = args.show_tools;
            opts.show_thoughts = args.thoughts;
            opts.graphics = graphics.resolve(
                env.stdout_is_tty,
                |k| super::environ::get().var(k),
                crate::render::graphics::cell_size(libc::STDOUT_FILENO),
            );
            args.text.apply(&mut opts);
            Box::new(RenderSink::new(out, opts))
        }
        OutputMode::Records => Box::new(super::schema::RecordSink::new(out)),
        _ => Box::new(JsonlSink::new(out)),
    }
}

/// A malformed --base-url is a usage error, said before any stream starts
/// like the others; a replayed run never uses it.
pub fn check_base_url(c: &Connection) -> anyhow::Result<String> {
    let base = base_url(c);
    if c.replay.is_none() {
        BaseUrl::parse(&base).map_err(|e| coded(exit::USAGE, e.to_string()))?;
    }
    Ok(base)
}

/// The client for this run, or why there is none.
pub fn make_client(kind: ProviderKind, model: &str, c: &Connection) -> Result<Client, Failure> {
    let transport = make_transport(kind, c)?;
    Ok(Client::with_provider(
        kind.provider(),
        transport,
        model,
        retry_policy(c),
    ))
}

/// The most stdin gem-ask sends as context (documented in `--help`).
pub const MAX_CONTEXT: u64 = 8 << 20;

/// Stdin as context, or `None` when SIGINT/SIGTERM arrived first. More
/// than [`MAX_CONTEXT`] is an error (exit 65), not a silent cut. The read
/// runs on a thread so a signal ends the wait even while the writer keeps
/// the pipe open (`tail -f log | gem-ask ...`): the handlers restart reads.
///
/// Binary data (its first bytes sniffed as no text), or any stdin with
/// `-a -`, is no context: it is copied to a file as it is read (never
/// held in memory) and handed back in `binary`, to be attached.
pub fn read_context(
    args: &Options,
    binary: &mut Option<attach::Attachment>,
) -> anyhow::Result<Option<String>> {
    let forced = args.media.attach.iter().any(|a| a == "-");
    if args.no_stdin || (io::stdin().is_terminal() && !forced) {
        return Ok(Some(String::new()));
    }
    let stdin = term::open_input(Path::new("-"))?;
    let (chunks, _recycle) = term::spawn_reader(vec![stdin]);
    let mut bytes = Vec::new();
    let next = || loop {
        match chunks.recv_timeout(Duration::from_millis(50)) {
            Ok(Chunk::Start(_)) => {}
            Ok(Chunk::Data(b)) => return Ok(Some(b)),
            Ok(Chunk::Failed(_, e)) => return Err(e),
            Err(RecvTimeoutError::Timeout) => {
                if signals::received().is_some() {
                    return Err(io::Error::from(io::ErrorKind::Interrupted));
                }
            }
            // The reader is done: the whole of stdin is here.
            Err(RecvTimeoutError::Disconnected) => return Ok(None),
        }
    };
    loop {
        let piece = match next() {
            Ok(p) => p,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(None),
            Err(e) => anyhow::bail!("cannot read stdin: {e}"),
        };
        let decided = piece.is_none() || bytes.len() >= attach::sniff::SNIFF_LEN;
        if let Some(b) = &piece {
            bytes.extend_from_slice(b);
        }
        if bytes.len() >= attach::sniff::SNIFF_LEN || decided {
            let head = &bytes[..bytes.len().min(attach::sniff::SNIFF_LEN)];
            if forced || (!head.is_empty() && attach::sniff::sniff(head) != "text/plain") {
                let mut rest = std::iter::from_fn(|| next().transpose());
                let rest: &mut dyn Iterator<Item = io::Result<Vec<u8>>> = if piece.is_none() {
                    &mut std::iter::empty()
                } else {
                    &mut rest
                };
                return Ok(spool_stdin(args, &bytes, rest)?.map(|a| {
                    *binary = Some(a);
                    String::new()
                }));
            }
        }
        if bytes.len() as u64 > MAX_CONTEXT {
            return Err(coded(
                exit::DATA,
                format!(
                    "stdin is larger than {} MiB, the most gem-ask sends as context; trim it first (e.g. tail -c 8M)",
                    MAX_CONTEXT >> 20
                ),
            ));
        }
        if piece.is_none() {
            let text = String::from_utf8_lossy(&bytes).into_owned();
            crate::agent::toolbox::policy::note_piped(&text);
            return Ok(Some(text));
        }
    }
}

/// Binary stdin (its first `bytes` read, the `rest` to come) spooled to a
/// file and attached; `None` when a signal stopped the reading.
fn spool_stdin(
    args: &Options,
    bytes: &[u8],
    rest: &mut dyn Iterator<Item = io::Result<Vec<u8>>>,
) -> anyhow::Result<Option<attach::Attachment>> {
    let store = stdin_store(&args.conversation);
    match attach::store::spool(store.as_deref(), bytes, rest, attach::MAX_UPLOAD) {
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(None),
        Err(e) => Err(anyhow::anyhow!("cannot keep stdin: {e}")),
        Ok(None) => Err(coded(
            exit::DATA,
            format!(
                "cannot attach stdin: it is more than the {} the Files API takes",
                attach::human(attach::MAX_UPLOAD)
            ),
        )),
        Ok(Some((tmp, _, _))) => {
            let tmp = Arc::new(tmp);
            attach::open_file(
                "stdin",
                tmp.path(),
                attach::Origin::Temp(tmp.clone()),
                args.ask.provider,
            )
            .map(Some)
            .map_err(|e| coded(e.exit_code(), e.to_string()))
        }
    }
}

/// Where spooled stdin goes: the attachment store when the session is
/// kept (it is renamed to its hash there when sent), else a temporary
/// file of the system's.
fn stdin_store(c: &Conversation) -> Option<PathBuf> {
    if c.no_history {
        return None;
    }
    let dir = crate::agent::environ::get().sessions_dir.clone().ok()?;
    Some(dir.parent()?.join("attachments"))
}

/// The attachments of the command line (and spooled stdin), checked
/// before anything is sent: exit 66 or 65 naming the file and the limit.
pub fn open_attachments(
    args: &Options,
    stdin: Option<attach::Attachment>,
) -> anyhow::Result<Vec<attach::Attachment>> {
    let opened = attach::send::open(&args.media.attach, args.ask.provider, stdin)
        .map_err(|e| coded(e.exit_code(), e.to_string()))?;
    crate::agent::toolbox::policy::note_attached(&opened);
    Ok(opened)
}

/// The run's attachment state: its store unless `--no-history`.
pub fn attachments(kind: ProviderKind, c: &Conversation) -> attach::Attachments {
    let store = if c.no_history {
        None
    } else {
        crate::agent::environ::get()
            .sessions_dir
            .clone()
            .ok()
            .map(|d| attach::store::Store::open(&d))
    };
    attach::Attachments::new(kind, store)
}

/// The session this run belongs to.
pub struct SessionChoice {
    pub id: String,
    pub history: session::History,
    /// Where to append the turn; `None` with `--no-history`.
    pub write_to: Option<PathBuf>,
    /// The history could not be read: the run ends, inside its stream,
    /// before any request (answering without it would fork the session).
    pub load_error: Option<String>,
}

impl SessionChoice {
    /// Appends a completed turn's records (nothing with `--no-history`).
    pub fn save<R: session::Record>(&self, model: &str, records: &[R]) -> Result<(), Failure> {
        let Some(path) = &self.write_to else {
            return Ok(());
        };
        session::append(path, model, records)
            .map_err(|e| Failure::Session(format!("cannot write session {}: {e}", path.display())))
    }
}

impl SessionChoice {
    /// Leaves a stopped run's end in the session (a `stop` record:
    /// `session`'s header), so the audit log finds it by its status: a
    /// failed turn's content is not kept, but that the run stopped, why,
    /// and its prompt are. Nothing for a run that ended well, for our own
    /// stdout closing, or for a session that could not be read or written.
    pub fn save_stop(&self, model: &str, outcome: &Result<(), Failure>, prompt: &str) {
        let Err(f) = outcome else { return };
        let Some(record) = stop_record(f, prompt) else {
            return;
        };
        if let Err(e) = self.save(model, &[record]) {
            term::diag(format!("gem-ask: the run's stop was not kept: {e:?}"));
        }
    }
}

/// The `stop` record of a run (or a REPL turn) that `f` stopped; `None`
/// for our own stdout closing or a session that could not be read or
/// written, where nothing more can be kept.
pub fn stop_record(f: &Failure, prompt: &str) -> Option<serde_json::Value> {
    let (status, kind, message) = match f {
        Failure::Gen(crate::provider::GenError::Output(_)) | Failure::Session(_) => return None,
        Failure::Budget(kind, why) => ("budget", *kind, why.clone()),
        Failure::Gen(crate::provider::GenError::Interrupted) => {
            let sig = signals::received().map_or("a signal", signals::name);
            (
                "interrupted",
                "interrupted",
                format!("interrupted by {sig}"),
            )
        }
        Failure::Gen(e) => ("error", e.kind(), e.to_string()),
        other => ("error", "stopped", format!("{other:?}")),
    };
    Some(serde_json::json!({
        "record": "stop", "status": status,
        "error": {"type": kind, "message": super::keys::redact_key(&message)},
        "prompt": prompt, "timestamp": crate::events::now_rfc3339(),
    }))
}

/// The session named by --session, GEMINI_SESSION_ID or --continue, or a
/// new one; its history is loaded, its unreadable lines reported.
pub fn resolve_session(args: &Conversation) -> anyhow::Result<SessionChoice> {
    let env_id = args.session_from_env.clone();
    // Flags beat the environment: --new-chat and --continue ignore
    // GEMINI_SESSION_ID.
    let named = if args.new_chat || args.continue_last {
        None
    } else {
        args.session.clone().or(env_id)
    };
    let needs_dir = named.is_some() || args.continue_last || !args.no_history;
    let dir = if needs_dir {
        Some(crate::agent::environ::get().sessions_dir.clone()?)
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
                crate::term::diag(
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
                report_load(&id, &h);
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

/// Warns on stderr about the lines of a session that could not be used.
fn report_load(id: &str, h: &session::History) {
    for (line, why) in &h.skipped {
        crate::term::diag(format!(
            "gem-ask: warning: session {id}, line {line}: {why} (line skipped)"
        ));
    }
    for note in &h.notes {
        crate::term::diag(format!("gem-ask: warning: session {id}, {note}"));
    }
    if !h.skipped.is_empty() {
        crate::term::diag(format!(
            "gem-ask: warning: session {id}: continuing with the {} readable content record(s)",
            h.contents.len()
        ));
    }
}

/// The run's memory when it is on: the store (opened on first use) and
/// the embedding model, its requests made with the run's timeouts and
/// fewer retries than a chat request (a turn waits for them).
pub fn make_memory(
    memory: Option<&crate::memory::MemoryOptions>,
    args: &Connection,
) -> Option<Arc<crate::memory::Handle>> {
    let opts = memory?.clone();
    let embedder = opts.embedding.as_ref().map(|e| {
        let auth = api_key(e.provider).map(|k| e.provider.provider().auth_header(&k));
        let http = Http::with_auth(
            &e.base_url,
            auth,
            Timeouts {
                connect: Duration::from_secs(args.connect_timeout),
                read: Duration::from_secs(args.read_timeout),
            },
        )
        .accepting("application/json");
        let retry = RetryPolicy {
            retries: args.retries.min(2),
            max_wait: Duration::from_secs(args.max_wait.min(10)),
            ..retry_policy(args)
        };
        crate::provider::embed::Embedder::new(e.provider, &e.model, Arc::new(http), retry)
    });
    // No secret the run knows is kept: a memory goes into later prompts.
    let guard: crate::memory::handle::Guard =
        Box::new(|text: &str| crate::agent::toolbox::secrets::redact_known(text));
    Some(Arc::new(
        crate::memory::Handle::new(opts, embedder).with_guard(guard),
    ))
}

/// The server's base URL: the front's (`--base-url`, the provider's
/// variables, the config), else Gemini's.
pub fn base_url(c: &Connection) -> String {
    c.base_url
        .clone()
        .unwrap_or_else(|| crate::provider::DEFAULT_BASE_URL.to_string())
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

fn retry_policy(args: &Connection) -> RetryPolicy {
    RetryPolicy {
        retries: args.retries,
        base: args.retry_base,
        max_wait: Duration::from_secs(args.max_wait),
        ..RetryPolicy::default()
    }
}

fn make_transport(kind: ProviderKind, args: &Connection) -> Result<Arc<dyn Transport>, Failure> {
    let setup = |e: anyhow::Error| Failure::Setup(exit::NO_INPUT, e.to_string());
    if let Some(path) = &args.replay {
        return Ok(Arc::new(Replay::open(path).map_err(setup)?));
    }
    let key = api_key(kind);
    if key.is_none() && kind.wiring().key_required {
        return Err(Failure::NoKey);
    }
    let base = base_url(args);
    if key.is_some() && plain_http_to_another_host(&base) {
        crate::term::diag(format!(
            "gem-ask: warning: {} is plain http to another host: the API key travels unencrypted",
            display_url(&base)
        ));
    }
    let auth = key.map(|k| kind.provider().auth_header(&k));
    let http = Http::with_auth(
        &base,
        auth,
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
