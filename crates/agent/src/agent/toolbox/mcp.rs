//! MCP servers through the official SDK (`rmcp`): each server is a
//! child process spoken to over stdio, or a server over HTTP ([`remote`]:
//! Streamable HTTP, falling back to HTTP+SSE, [`sse`]); its tools become [`Tool`]s named `SERVER__TOOL`
//! (made valid for Gemini) and declared with their JSON Schema as
//! `parametersJsonSchema`, within bounds ([`bounds`]: the tools the
//! config chooses, schemas normalised by [`schema`], long descriptions
//! cut).
//!
//! rmcp is async; gem-ask is not. The [`Hub`] owns a one-worker tokio
//! runtime that keeps the servers' connections alive between calls, and
//! each call blocks on it until the answer, an answer too large, or a
//! reason to stop (`call.rs`). Servers are spawned without the user's
//! secrets in their environment and, with `--sandbox-mcp`, in the
//! sandbox with its private `TMPDIR` ([`pipe`] spawns them).
//!
//! A server that fails to start is reported once (by whoever starts the
//! hub: an `error` event) and declares no tools. A server that dies
//! mid-session is reported once, when a call finds it gone; its tools then
//! answer the model that the server is not running.

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Map, Value};

pub mod answer;
pub mod bounds;
mod call;
mod fault;
pub mod pipe;
mod remote;
pub mod schema;
mod sse;

/// How to start a server (`[mcp.NAME]`, `--mcp`): part of the config
/// file's schema, so it lives with it (gemline-config).
pub use crate::config::mcp as spec;
pub use crate::config::mcp::{BadCommandLine, Reach, ServerSpec, shown_url};
pub use answer::{MAX_TEXT, from_result};

use super::process::PreExec;
use super::sandbox::{Prepared, Sandbox};
use super::{Failed, Level, Ran, Source, Tool};

type Client = RunningService<RoleClient, ()>;

enum State {
    Running(Client),
    /// Never started: why.
    Failed(String),
    /// Stopped mid-session: why, and whether that was reported yet.
    Dead {
        why: String,
        reported: bool,
    },
}

struct Server {
    name: String,
    state: State,
    /// Its messages too large to be read.
    watch: Option<Arc<pipe::Watch>>,
    /// Its `call_timeout`, if it has one.
    call_timeout: Option<Duration>,
}

struct Inner {
    rt: tokio::runtime::Runtime,
    servers: Mutex<Vec<Server>>,
}

/// The running MCP servers of a session.
#[derive(Clone, Default)]
pub struct Hub {
    inner: Option<Arc<Inner>>,
}

/// What starting the servers gave.
pub struct Started {
    pub hub: Hub,
    pub tools: Vec<Tool>,
    /// One message per server that failed, for an `error` event each.
    pub failures: Vec<String>,
    /// What was left out of or changed in their declarations.
    pub warnings: Vec<String>,
    /// Server name and its status line, for `--list-tools`.
    pub servers: Vec<(String, String)>,
}

impl Hub {
    /// Starts every server, each within `timeout`; `show_stderr` lets
    /// their diagnostics through (`--debug`), else they are discarded.
    /// With `sandbox`, each server is started in it (`--sandbox-mcp`).
    pub fn start(
        specs: &[ServerSpec],
        timeout: Duration,
        show_stderr: bool,
        sandbox: Option<&Sandbox>,
    ) -> Started {
        let mut started = Started {
            hub: Hub::default(),
            tools: Vec::new(),
            failures: Vec::new(),
            warnings: Vec::new(),
            servers: Vec::new(),
        };
        if specs.is_empty() {
            return started;
        }
        let rt = match tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => {
                started
                    .failures
                    .push(format!("cannot start the MCP runtime: {e}"));
                return started;
            }
        };
        let inner = Arc::new(Inner {
            rt,
            servers: Mutex::new(Vec::new()),
        });
        for spec in specs {
            let server = start_one(&inner, spec, timeout, show_stderr, sandbox, &mut started);
            inner.servers.lock().expect("not poisoned").push(server);
        }
        started.hub = Hub { inner: Some(inner) };
        started
    }

    fn with_server<T>(&self, name: &str, f: impl FnOnce(&mut Server) -> T) -> Option<T> {
        let inner = self.inner.as_ref()?;
        let mut servers = inner.servers.lock().ok()?;
        servers.iter_mut().find(|s| s.name == name).map(f)
    }

    /// Why `server`'s tools cannot run, if they cannot.
    pub fn unavailable(&self, server: &str) -> Option<String> {
        self.with_server(server, |s| match &s.state {
            State::Running(_) => None,
            State::Failed(why) | State::Dead { why, .. } => Some(why.clone()),
        })
        .flatten()
    }

    /// The message saying `server` died, the first time it is asked.
    pub fn take_death_report(&self, server: &str) -> Option<String> {
        self.with_server(server, |s| match &mut s.state {
            State::Dead { why, reported } if !*reported => {
                *reported = true;
                Some(why.clone())
            }
            _ => None,
        })
        .flatten()
    }
}

/// Starts one server (a program in the sandbox when there is one, or a
/// connection to a server over HTTP) as the next of `inner`'s servers:
/// its tools, its status line, its failure or the warnings about its
/// declarations go into `started`.
fn start_one(
    inner: &Arc<Inner>,
    spec: &ServerSpec,
    timeout: Duration,
    show_stderr: bool,
    sandbox: Option<&Sandbox>,
    started: &mut Started,
) -> Server {
    let idx = inner.servers.lock().expect("not poisoned").len();
    let jail = match sandbox
        .filter(|_| spec.reach() == Reach::Stdio)
        .map(Sandbox::prepare)
        .transpose()
    {
        Ok(j) => j,
        Err(f) => {
            let msg = format!(
                "MCP server {} ({}) was not started: {}",
                spec.name,
                spec.shown(),
                f.message
            );
            return failed(spec, msg, &f.message, started);
        }
    };
    if let Some(n) = jail.as_ref().and_then(|j| j.notice.as_ref()) {
        crate::term::diag(format!("gem-ask: warning: {n}"));
    }
    let connected = match spec.reach() {
        Reach::Stdio => inner
            .rt
            .block_on(connect(spec, timeout, show_stderr, jail.as_ref())),
        Reach::Http { url, fallback } => inner.rt.block_on(remote::connect(
            spec,
            url,
            fallback,
            spec.connect_within(timeout),
        )),
    };
    match connected {
        Ok(c) => {
            let offered = c.tools.len();
            let (chosen, warnings) = bounds::choose(spec, c.tools);
            let status = match chosen.len() {
                n if n == offered => format!("running{}, {n} tools", c.how),
                n => format!("running{}, {n} of its {offered} tools", c.how),
            };
            started.servers.push((spec.name.clone(), status));
            started.warnings.extend(warnings);
            for t in chosen {
                started.tools.push(mcp_tool(inner, idx, spec, t));
            }
            Server {
                name: spec.name.clone(),
                state: State::Running(c.client),
                watch: Some(c.watch),
                call_timeout: spec.call_timeout.map(Duration::from_secs_f64),
            }
        }
        Err(why) => {
            let msg = format!(
                "MCP server {} ({}) failed to start: {why}; its tools are not available",
                spec.name,
                spec.shown()
            );
            failed(spec, msg, &why.to_string(), started)
        }
    }
}

/// A server that did not start (`msg`, for its error event; `why`, for
/// its status line).
fn failed(spec: &ServerSpec, msg: String, why: &str, started: &mut Started) -> Server {
    started
        .servers
        .push((spec.name.clone(), format!("failed: {why}")));
    started.failures.push(msg.clone());
    Server {
        name: spec.name.clone(),
        state: State::Failed(msg),
        watch: None,
        call_timeout: None,
    }
}

/// A server that answered: its client, its tools, the watch of its
/// messages too large, and how it is reached (" over Streamable HTTP"; ""
/// for stdio) for its status line.
struct Connected {
    client: Client,
    tools: Vec<rmcp::model::Tool>,
    watch: Arc<pipe::Watch>,
    how: &'static str,
}

impl Drop for Inner {
    fn drop(&mut self) {
        // Closing stdin lets each server exit; rmcp signals and then kills
        // one that lingers. Bounded, so a stuck server cannot hold gem-ask.
        let servers = std::mem::take(self.servers.get_mut().expect("not poisoned"));
        for s in servers {
            if let State::Running(mut c) = s.state {
                let _ = self
                    .rt
                    .block_on(c.close_with_timeout(Duration::from_secs(2)));
            }
        }
    }
}

/// Why an MCP server did not start; said in the run's error event.
#[derive(Debug, thiserror::Error)]
enum StartError {
    #[error("cannot run {command}: {source}")]
    Spawn {
        command: String,
        source: std::io::Error,
    },
    #[error("no MCP handshake: {0}")]
    Handshake(String),
    #[error("cannot list its tools: {0}")]
    ListTools(String),
    #[error("no answer within {} s", .0.as_secs_f64())]
    Timeout(Duration),
    /// A server over HTTP: what went wrong, said for people ([`remote`]).
    #[error("{0}")]
    Remote(String),
}

async fn connect(
    spec: &ServerSpec,
    timeout: Duration,
    show_stderr: bool,
    jail: Option<&Prepared>,
) -> Result<Connected, StartError> {
    let mut cmd = tokio::process::Command::new(&spec.command);
    // No key of the user's reaches a server unless its config gives it.
    super::secrets::scrub_tokio(&mut cmd);
    // A group of its own: Ctrl-C in `gem-ask -i` stops an answer, and must
    // not reach the servers through the terminal's foreground group.
    cmd.args(&spec.args).envs(&spec.env).process_group(0);
    if let Some(j) = jail {
        // `--sandbox-mcp`: its private TMPDIR and the sandbox's ruleset.
        if let Some(t) = &j.tmpdir {
            cmd.env("TMPDIR", t);
        }
        let pre = PreExec {
            landlock: j.ruleset_fd(),
            ..PreExec::default()
        };
        // SAFETY: see PreExec::install: only async-signal-safe calls on
        // plain integers (the ruleset stays open until the spawn returns).
        unsafe {
            cmd.pre_exec(move || pre.in_child());
        }
    }
    let stderr = if show_stderr {
        Stdio::inherit()
    } else {
        Stdio::null()
    };
    let (transport, watch) = pipe::spawn(cmd, stderr).map_err(|source| StartError::Spawn {
        command: spec.command.clone(),
        source,
    })?;
    let work = async {
        let client = ().serve(transport).await.map_err(|e| StartError::Handshake(e.to_string()))?;
        let tools = client
            .list_all_tools()
            .await
            .map_err(|e| StartError::ListTools(e.to_string()))?;
        Ok(Connected {
            client,
            tools,
            watch,
            how: "",
        })
    };
    tokio::time::timeout(timeout, work)
        .await
        .map_err(|_| StartError::Timeout(timeout))?
}

/// A Gemini function name from `SERVER__TOOL`: letters, digits, `_`, `.`,
/// `-`; starting with a letter or `_`; at most 64 bytes.
pub fn function_name(server: &str, tool: &str) -> String {
    let mut n: String = format!("{server}__{tool}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        n.insert(0, '_');
    }
    n.truncate(64);
    n
}

fn mcp_tool(inner: &Arc<Inner>, idx: usize, spec: &ServerSpec, chosen: bounds::Chosen) -> Tool {
    let t = chosen.tool;
    let mut decl = Map::new();
    decl.insert("name".into(), function_name(&spec.name, &t.name).into());
    if let Some(d) = chosen.description {
        decl.insert("description".into(), d.into());
    }
    decl.insert("parametersJsonSchema".into(), chosen.schema);
    let remote = t.name.to_string();
    let server = spec.name.clone();
    let inner = Arc::downgrade(inner);
    Tool::new(
        Value::Object(decl),
        Source::Mcp {
            server: spec.name.clone(),
            trusted: spec.trust,
        },
        // Annotations (readOnlyHint, ...) are the server's claims; the
        // level does not follow them.
        Level::Standard,
        move |args, ctx| match inner.upgrade() {
            Some(inner) => Ran::from(call::run(&inner, idx, &server, &remote, args, ctx)),
            None => Ran::failed(Failed::new(
                "server_unavailable",
                "the MCP servers were stopped",
            )),
        },
    )
    .with_preview({
        let (server, remote) = (spec.name.clone(), t.name.to_string());
        let claim = claimed(t.annotations.as_ref());
        move |args, _| {
            format!(
                "{remote} on MCP server {server}{claim}\n{}",
                arguments(args)
            )
        }
    })
}

/// An MCP call's arguments for the consent prompt: one line per argument,
/// its value as JSON (a string's line breaks as `\n`), so no value can
/// pass for another; the prompt marks whatever else would hide.
fn arguments(args: &Value) -> String {
    match args {
        Value::Object(m) if !m.is_empty() => m
            .iter()
            .map(|(k, v)| format!("  {}: {v}", Value::from(k.as_str())))
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Object(_) | Value::Null => "  (no arguments)".into(),
        other => format!("  {other}"),
    }
}

/// What the server says of its tool, worded as its claim: the user
/// decides, gem-ask does not rely on it.
fn claimed(a: Option<&rmcp::model::ToolAnnotations>) -> String {
    let Some(a) = a else {
        return String::new();
    };
    let mut says = Vec::new();
    if a.read_only_hint == Some(true) {
        says.push("only reads");
    }
    if a.destructive_hint == Some(true) {
        says.push("may delete or overwrite");
    }
    if a.open_world_hint == Some(true) {
        says.push("reaches outside systems");
    }
    if says.is_empty() {
        return String::new();
    }
    format!(
        "\n(the server says the tool {}; unverified)",
        says.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn function_names_are_valid_for_gemini() {
        let re = regex::Regex::new(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$").unwrap();
        for (s, t) in [
            ("time", "get_current_time"),
            ("my server", "tool/with:odd chars"),
            ("9lives", "x"),
            ("everything", &"y".repeat(100)),
        ] {
            let n = function_name(s, t);
            assert!(re.is_match(&n), "{n}");
        }
        assert_eq!(
            function_name("time", "get_current_time"),
            "time__get_current_time"
        );
        assert_eq!(function_name("9lives", "x"), "_9lives__x");
    }

    #[test]
    fn annotations_are_shown_as_claims() {
        let a: rmcp::model::ToolAnnotations =
            serde_json::from_value(json!({"readOnlyHint": true, "openWorldHint": true})).unwrap();
        assert_eq!(
            claimed(Some(&a)),
            "\n(the server says the tool only reads, reaches outside systems; unverified)"
        );
        assert_eq!(claimed(None), "");
    }

    #[test]
    fn arguments_are_shown_one_a_line_as_json() {
        use crate::agent::toolbox::consent::shown::{Room, UNICODE, compact};
        let args = json!({"path": "notes.txt", "content": format!("a\n{}b\u{200B}", " ".repeat(50)), "n": 3});
        let shown = arguments(&args);
        assert_eq!(
            shown,
            format!(
                "  \"path\": \"notes.txt\"\n  \"content\": \"a\\n{}b\u{200B}\"\n  \"n\": 3",
                " ".repeat(50)
            )
        );
        let s = compact(&shown, UNICODE, Room { cols: 80, rows: 10 });
        assert!(
            s.text.contains("\"a\\n⟨50 spaces⟩b⟨U+200B⟩\""),
            "{}",
            s.text
        );
        assert_eq!(arguments(&json!({})), "  (no arguments)");
    }
}
