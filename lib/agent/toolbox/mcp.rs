//! MCP servers over stdio, through the official SDK (`rmcp`): each server
//! is a child process; its tools become [`Tool`]s named `SERVER__TOOL`
//! (made valid for Gemini) and declared with their JSON Schema as
//! `parametersJsonSchema`.
//!
//! rmcp is async; gem-ask is not. The [`Hub`] owns a one-worker tokio
//! runtime that keeps the servers' connections alive between calls, and
//! each call blocks on it until the answer or the deadline.
//!
//! A server that fails to start is reported once (by whoever starts the
//! hub: an `error` event) and declares no tools. A server that dies
//! mid-session is reported once, when a call finds it gone; its tools then
//! answer the model that the server is not running.

use std::collections::BTreeMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use serde_json::{Map, Value, json};

use super::{Ctx, Done, Failed, Level, Ran, Source, Tool, ToolResult};

/// How to start one server (`[mcp.NAME]` or `--mcp`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSpec {
    #[serde(skip)]
    pub name: String,
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Its tools run without consent.
    #[serde(default)]
    pub trust: bool,
}

impl ServerSpec {
    /// `--mcp 'CMD ARGS'` (shell quoting), optionally `NAME=CMD ARGS`;
    /// without a name, the server is named after its program: the
    /// command's file name, or for a launcher (`npx`, `uvx`, `node`, ...)
    /// the package or script it starts.
    pub fn from_command_line(line: &str) -> Result<ServerSpec, BadCommandLine> {
        let (name, rest) = match line.split_once('=') {
            Some((n, r))
                if !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c)) =>
            {
                (Some(n.to_string()), r)
            }
            _ => (None, line),
        };
        let words = shlex::split(rest)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| BadCommandLine {
                line: line.to_string(),
            })?;
        let command = words[0].clone();
        let name = name.unwrap_or_else(|| default_name(&words));
        Ok(ServerSpec {
            name,
            command,
            args: words[1..].to_vec(),
            env: BTreeMap::new(),
            trust: false,
        })
    }
}

/// An `--mcp` line that is no command (empty, or its quoting unclosed).
#[derive(Debug, thiserror::Error)]
#[error("--mcp {line:?}: give a command and its arguments, e.g. --mcp 'mcp-server-time'")]
pub struct BadCommandLine {
    pub line: String,
}

/// What a server started by `words` is called when no name is given.
fn default_name(words: &[String]) -> String {
    const LAUNCHERS: &[&str] = &[
        "npx", "uvx", "pipx", "bunx", "node", "python", "python3", "deno", "bun", "uv",
    ];
    let file = |w: &str| {
        std::path::Path::new(w)
            .file_name()
            .map_or_else(|| w.to_string(), |f| f.to_string_lossy().into_owned())
    };
    let program = file(&words[0]);
    if !LAUNCHERS.contains(&program.as_str()) {
        return program;
    }
    // The first argument that is not an option (nor uv's `run`): a
    // package (`@scope/name@1.2` -> `name`) or a script (`dist/x.js` -> `x`).
    let target = words[1..]
        .iter()
        .find(|w| !w.starts_with('-') && *w != "run")
        .map(|w| {
            let w = w.rsplit('/').next().unwrap_or(w);
            let w = w.split('@').find(|p| !p.is_empty()).unwrap_or(w);
            std::path::Path::new(w)
                .file_stem()
                .map_or_else(|| w.to_string(), |s| s.to_string_lossy().into_owned())
        });
    target.unwrap_or(program)
}

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
    /// Server name and its status line, for `--list-tools`.
    pub servers: Vec<(String, String)>,
}

impl Hub {
    /// Starts every server, each within `timeout`; `show_stderr` lets
    /// their diagnostics through (`--debug`), else they are discarded.
    pub fn start(specs: &[ServerSpec], timeout: Duration, show_stderr: bool) -> Started {
        let mut started = Started {
            hub: Hub::default(),
            tools: Vec::new(),
            failures: Vec::new(),
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
            let idx = inner.servers.lock().expect("not poisoned").len();
            let state = match inner.rt.block_on(connect(spec, timeout, show_stderr)) {
                Ok((client, tools)) => {
                    started
                        .servers
                        .push((spec.name.clone(), format!("running, {} tools", tools.len())));
                    for t in tools {
                        started.tools.push(mcp_tool(&inner, idx, spec, t));
                    }
                    State::Running(client)
                }
                Err(why) => {
                    let msg = format!(
                        "MCP server {} ({}) failed to start: {why}; its tools are not available",
                        spec.name, spec.command
                    );
                    started
                        .servers
                        .push((spec.name.clone(), format!("failed: {why}")));
                    started.failures.push(msg.clone());
                    State::Failed(msg)
                }
            };
            inner.servers.lock().expect("not poisoned").push(Server {
                name: spec.name.clone(),
                state,
            });
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
}

async fn connect(
    spec: &ServerSpec,
    timeout: Duration,
    show_stderr: bool,
) -> Result<(Client, Vec<rmcp::model::Tool>), StartError> {
    let mut cmd = tokio::process::Command::new(&spec.command);
    // A group of its own: Ctrl-C in `gem-ask -i` stops an answer, and must
    // not reach the servers through the terminal's foreground group.
    cmd.args(&spec.args)
        .envs(&spec.env)
        .kill_on_drop(true)
        .process_group(0);
    let (transport, _) = TokioChildProcess::builder(cmd)
        .stderr(if show_stderr {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .spawn()
        .map_err(|source| StartError::Spawn {
            command: spec.command.clone(),
            source,
        })?;
    let work = async {
        let client = ().serve(transport).await.map_err(|e| StartError::Handshake(e.to_string()))?;
        let tools = client
            .list_all_tools()
            .await
            .map_err(|e| StartError::ListTools(e.to_string()))?;
        Ok((client, tools))
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

fn mcp_tool(inner: &Arc<Inner>, idx: usize, spec: &ServerSpec, t: rmcp::model::Tool) -> Tool {
    let mut schema = Value::Object((*t.input_schema).clone());
    if let Some(m) = schema.as_object_mut() {
        m.remove("$schema");
    }
    let mut decl = Map::new();
    decl.insert("name".into(), function_name(&spec.name, &t.name).into());
    if let Some(d) = t.description.as_deref().filter(|d| !d.trim().is_empty()) {
        decl.insert("description".into(), d.into());
    }
    decl.insert("parametersJsonSchema".into(), schema);
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
            Some(inner) => Ran::from(call(&inner, idx, &server, &remote, args, ctx)),
            None => Ran::failed(Failed::new(
                "server_unavailable",
                "the MCP servers were stopped",
            )),
        },
    )
    .with_preview({
        let (server, remote) = (spec.name.clone(), t.name.to_string());
        let claim = claimed(t.annotations.as_ref());
        move |args, _| format!("{remote} on MCP server {server} with {args}{claim}")
    })
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

fn call(
    inner: &Inner,
    idx: usize,
    server: &str,
    remote: &str,
    args: &Value,
    ctx: &Ctx<'_>,
) -> ToolResult {
    let peer = {
        let servers = inner.servers.lock().expect("not poisoned");
        match &servers[idx].state {
            State::Running(c) => c.peer().clone(),
            State::Failed(why) | State::Dead { why, .. } => {
                return Err(Failed::new("server_unavailable", why.clone()));
            }
        }
    };
    let mut params = CallToolRequestParams::new(remote.to_string());
    match args {
        Value::Object(m) => params = params.with_arguments(m.clone()),
        Value::Null => {}
        other => {
            return Err(Failed::new(
                "invalid_arguments",
                format!("{remote}: the arguments must be an object, not {other}"),
            ));
        }
    }
    let left = ctx.deadline.saturating_duration_since(Instant::now());
    let answer = inner
        .rt
        .block_on(async { tokio::time::timeout(left, peer.call_tool(params)).await });
    match answer {
        Err(_) => Err(Failed::timed_out(remote, ctx.timeout)),
        Ok(Ok(result)) => from_result(&serde_json::to_value(&result).unwrap_or_default()),
        Ok(Err(rmcp::ServiceError::McpError(e))) => Err(Failed::new(
            "tool_failed",
            format!("{remote} (MCP server {server}): {}", e.message),
        )),
        Ok(Err(e)) => {
            let why =
                format!("MCP server {server} stopped ({e}); its tools are no longer available");
            let mut servers = inner.servers.lock().expect("not poisoned");
            if matches!(servers[idx].state, State::Running(_)) {
                servers[idx].state = State::Dead {
                    why: why.clone(),
                    reported: false,
                };
            }
            Err(Failed::new("server_unavailable", why))
        }
    }
}

/// A `CallToolResult` (as JSON, so every content kind reads the same way)
/// as the model's answer: the text of its content, its structured content,
/// and `isError` as an error result.
pub fn from_result(r: &Value) -> ToolResult {
    let blocks = r["content"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let text: Vec<String> = blocks.iter().map(block_text).collect();
    let text = capped(text.join("\n"));
    if r["isError"].as_bool() == Some(true) {
        return Err(Failed::new(
            "tool_error",
            if text.is_empty() {
                "the tool reported an error".into()
            } else {
                text
            },
        ));
    }
    let mut response = Map::new();
    response.insert("output".into(), text.clone().into());
    if let Some(s) = r.get("structuredContent").filter(|s| !s.is_null()) {
        response.insert("structuredContent".into(), s.clone());
    }
    let media: Vec<Value> = blocks.iter().filter_map(media_of).collect();
    if !media.is_empty() {
        response.insert(super::MEDIA_KEY.into(), media.into());
    }
    let output = match (text.is_empty(), r.get("structuredContent")) {
        (true, Some(s)) if !s.is_null() => s.to_string(),
        _ => text,
    };
    Ok(Done {
        output,
        response: Value::Object(response),
    })
}

/// Most bytes of an MCP tool's text passed to the model.
pub const MAX_TEXT: usize = 256 * 1024;

/// `text` cut at [`MAX_TEXT`] (on a character boundary), saying so.
fn capped(mut text: String) -> String {
    if text.len() <= MAX_TEXT {
        return text;
    }
    let total = text.len();
    let cut = (0..=MAX_TEXT)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    text.truncate(cut);
    text.push_str(&format!(
        "\n[the tool's answer was {total} bytes; the first {} KiB are shown]",
        MAX_TEXT / 1024
    ));
    text
}

/// An image block, or an embedded resource that is an image or a PDF, as
/// inline data for the model (`{mimeType, data}`).
fn media_of(b: &Value) -> Option<Value> {
    let (mime, data) = match b["type"].as_str()? {
        "image" => (b["mimeType"].as_str()?, b["data"].as_str()?),
        "resource" => (
            b["resource"]["mimeType"].as_str()?,
            b["resource"]["blob"].as_str()?,
        ),
        _ => return None,
    };
    // What every provider's models read (a GIF is described instead).
    let shown = matches!(
        mime,
        "image/png" | "image/jpeg" | "image/webp" | "application/pdf"
    );
    shown.then(|| json!({"mimeType": mime, "data": data}))
}

/// One content block as text: text as is, anything else described.
fn block_text(b: &Value) -> String {
    let s = |k: &str| b[k].as_str().unwrap_or_default();
    match s("type") {
        "text" => s("text").to_string(),
        "image" | "audio" => format!(
            "[{} {}, {} bytes base64]",
            s("type"),
            s("mimeType"),
            s("data").len()
        ),
        "resource" => match b["resource"]["text"].as_str() {
            Some(t) => t.to_string(),
            None => format!(
                "[resource {}]",
                b["resource"]["uri"].as_str().unwrap_or("?")
            ),
        },
        "resource_link" => format!("[resource link {}]", s("uri")),
        other => json!({"type": other}).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn results_carry_text_structure_and_errors() {
        let ok = from_result(&json!({"content":[{"type":"text","text":"12:00"}],
            "structuredContent":{"time":"12:00"}}))
        .unwrap();
        assert_eq!(ok.output, "12:00");
        assert_eq!(ok.response["structuredContent"]["time"], "12:00");
        let err =
            from_result(&json!({"content":[{"type":"text","text":"bad zone"}],"isError":true}))
                .unwrap_err();
        assert_eq!((err.kind, err.message.as_str()), ("tool_error", "bad zone"));
        let img = from_result(
            &json!({"content":[{"type":"image","mimeType":"image/png","data":"AAAA"}]}),
        )
        .unwrap();
        assert_eq!(img.output, "[image image/png, 4 bytes base64]");
        let big = from_result(&json!({"content":[{"type":"text","text": "é".repeat(MAX_TEXT)}]}))
            .unwrap();
        assert!(big.output.len() < MAX_TEXT + 100);
        assert!(big.output.ends_with("the first 256 KiB are shown]"));
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
    fn command_lines_name_their_server() {
        let s =
            ServerSpec::from_command_line("time=mcp-server-time --local-timezone 'Europe/Paris'")
                .unwrap();
        assert_eq!(s.name, "time");
        assert_eq!(s.args, ["--local-timezone", "Europe/Paris"]);
        let named = |line: &str| ServerSpec::from_command_line(line).unwrap().name;
        assert_eq!(named("/opt/bin/mcp-server-time"), "mcp-server-time");
        assert_eq!(
            named("npx -y @modelcontextprotocol/server-everything@2026.8.31"),
            "server-everything"
        );
        assert_eq!(
            named("uvx mcp-server-time --local-timezone UTC"),
            "mcp-server-time"
        );
        assert_eq!(named("python3 -m mcp_server_time"), "mcp_server_time");
        assert_eq!(named("node build/weather.js"), "weather");
        assert_eq!(named("npx"), "npx");
        assert!(ServerSpec::from_command_line("  ").is_err());
        assert!(ServerSpec::from_command_line("'unclosed").is_err());
    }
}
