//! `gem-ask --print-config` ([`Settings::render`]): the merged settings
//! as TOML, each with the source it came from as a comment, the tools',
//! sandbox's, MCP servers' and memory's tables after them, keys and other
//! secrets redacted.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::super::args::Args;
use super::{Settings, Source};
use crate::agent::toolbox::config::ToolsConfig;
use crate::agent::toolbox::mcp::{Reach, shown_url};
use crate::agent::toolbox::sandbox::SandboxMode;
use crate::agent::toolbox::secrets;
use crate::config::Config;
use crate::provider::transport::display_url;
use crate::term::ColorChoice;

/// One line of the listing: a key, its value as TOML, its source; a line
/// without a key is a table header.
#[derive(Debug, Clone)]
pub(super) struct Line {
    key: String,
    value: String,
    source: String,
}

fn line(key: &str, value: impl Into<toml::Value>, source: impl ToString) -> Line {
    Line {
        key: key.to_string(),
        value: value.into().to_string(),
        source: source.to_string(),
    }
}

fn header(table: &str, source: &str) -> Line {
    Line {
        key: String::new(),
        value: format!("[{table}]"),
        source: source.to_string(),
    }
}

/// Of a list made of the config's entries and a flag's: the source of each.
fn joined(cfg: &[String], flag: &[String], name: &str) -> String {
    match (cfg.is_empty(), flag.is_empty()) {
        (false, false) => format!("config, {name}"),
        (false, true) => "config".into(),
        (true, false) => name.into(),
        (true, true) => "default".into(),
    }
}

/// `[tools]`, `[tools.levels]` and `[mcp.NAME]` as this run merges them
/// with `--tools`, `--allow-tool`, `--mcp` and the rest.
pub(super) fn tool_lines(args: &Args, cfg: &Config) -> Vec<Line> {
    let mut out = vec![header("tools", "")];
    choice_lines(args, &cfg.tools, &mut out);
    out.push(timeout_line(args, &cfg.tools));
    reach_lines(args, &cfg.tools, &mut out);
    sandbox_lines(args, &cfg.tools, &mut out);
    level_lines(&cfg.tools, &mut out);
    mcp_tables(cfg, &mut out);
    memory_lines(args, cfg, &mut out);
    out
}

/// `[memory]`: on or off, the budget, the embedding model.
fn memory_lines(args: &Args, cfg: &Config, out: &mut Vec<Line>) {
    let m = &cfg.memory;
    out.push(header("memory", ""));
    let (on, source) = if args.mem.memory {
        (true, "--memory")
    } else if args.mem.no_memory {
        (false, "--no-memory")
    } else if m.enabled {
        (true, "config")
    } else {
        (false, "default")
    };
    out.push(line("enabled", on, source));
    let (budget, source) = match (args.mem.memory_budget, m.budget) {
        (Some(b), _) => (b, "--memory-budget"),
        (None, Some(b)) => (b, "config"),
        (None, None) => (crate::memory::context::DEFAULT_BUDGET, "default"),
    };
    out.push(line("budget", budget as i64, source));
    match &m.embedding_model {
        Some(model) => out.push(line("embedding_model", model.as_str(), "config")),
        None => out.push(Line {
            key: "# embedding_model".into(),
            value: "not set".into(),
            source: "keywords only".into(),
        }),
    }
    if let Some(p) = m.embedding_provider {
        out.push(line("embedding_provider", p.name(), "config"));
    }
    if let Some(u) = &m.embedding_base_url {
        out.push(line("embedding_base_url", display_url(u), "config"));
    }
}

/// A list of strings as a TOML array.
fn strings(v: &[String]) -> toml::Value {
    toml::Value::Array(v.iter().map(|s| s.as_str().into()).collect())
}

/// Paths as they are shown.
fn paths(v: &[PathBuf]) -> Vec<String> {
    v.iter().map(|p| p.display().to_string()).collect()
}

/// `[tools]`: which tools, and which run without asking.
fn choice_lines(args: &Args, t: &ToolsConfig, out: &mut Vec<Line>) {
    if args.no_tools || args.command_help {
        let flag = if args.no_tools {
            "--no-tools"
        } else {
            "--command-help"
        };
        out.push(line("none", true, flag));
    }
    out.push(line(
        "enable",
        strings(&t.enable),
        joined(&t.enable, &[], ""),
    ));
    if !args.tools.is_empty() {
        out.push(line("only", strings(&args.tools), "--tools"));
    }
    if !args.exclude_tools.is_empty() {
        out.push(line(
            "exclude",
            strings(&args.exclude_tools),
            "--exclude-tools",
        ));
    }
    let allow: Vec<String> = t.allow.iter().chain(&args.allow_tool).cloned().collect();
    out.push(line(
        "allow",
        strings(&allow),
        joined(&t.allow, &args.allow_tool, "--allow-tool"),
    ));
    if args.yes {
        out.push(line("yes", true, "--yes"));
    }
}

/// `[tools]`'s `timeout`: the flag's, the config's or the default.
fn timeout_line(args: &Args, t: &ToolsConfig) -> Line {
    let (timeout, source) = match (args.tool_timeout, t.timeout) {
        (Some(s), _) => (s, "--tool-timeout"),
        (None, Some(s)) => (s as f64, "config"),
        (None, None) => (
            crate::agent::toolbox::setup::DEFAULT_TIMEOUT.as_secs_f64(),
            "default",
        ),
    };
    // Whole seconds as an integer, as the config writes them.
    let timeout = if timeout.fract() == 0.0 && timeout < i64::MAX as f64 {
        toml::Value::Integer(timeout as i64)
    } else {
        toml::Value::Float(timeout)
    };
    line("timeout", timeout, source)
}

/// `[tools]`: the folders the tools may reach, and `--mcp` servers.
fn reach_lines(args: &Args, t: &ToolsConfig, out: &mut Vec<Line>) {
    let include: Vec<String> = paths(&t.include_dirs)
        .into_iter()
        .chain(paths(&args.include_dir))
        .collect();
    out.push(line(
        "include_dirs",
        strings(&include),
        joined(
            &paths(&t.include_dirs),
            &paths(&args.include_dir),
            "--include-dir",
        ),
    ));
    if !args.mcp.is_empty() {
        let lines: Vec<String> = args.mcp.iter().map(|c| shown_mcp_line(c)).collect();
        out.push(line("mcp", strings(&lines), "--mcp"));
    }
}

/// `[tools]`: the sandbox of the shell tool's commands.
fn sandbox_lines(args: &Args, t: &ToolsConfig, out: &mut Vec<Line>) {
    let (mode, source) = match (args.sandbox, t.sandbox) {
        (Some(m), _) => (m, "--sandbox"),
        (None, Some(m)) => (m, "config"),
        (None, None) => (SandboxMode::default(), "default"),
    };
    out.push(line("sandbox", mode.as_str(), source));
    for (key, flag, from_flag, from_config) in [
        (
            "allow_network",
            "--allow-network",
            args.allow_network,
            t.allow_network,
        ),
        (
            "sandbox_mcp",
            "--sandbox-mcp",
            args.sandbox_mcp,
            t.sandbox_mcp,
        ),
    ] {
        let (value, source) = match (from_flag, from_config) {
            (true, _) => (true, flag),
            (false, Some(v)) => (v, "config"),
            (false, None) => (false, "default"),
        };
        out.push(line(key, value, source));
    }
}

/// `[tools.levels]`, when the config has one.
fn level_lines(t: &ToolsConfig, out: &mut Vec<Line>) {
    if !t.levels.is_empty() {
        out.push(header("tools.levels", "config"));
        for (name, level) in &t.levels {
            out.push(line(&toml_key(name), level.to_string(), "config"));
        }
    }
}

/// A `[mcp.NAME]` table for each server of the config; their environments
/// by name only.
fn mcp_tables(cfg: &Config, out: &mut Vec<Line>) {
    for (name, spec) in &cfg.mcp {
        out.push(header(&format!("mcp.{}", toml_key(name)), "config"));
        match spec.reach() {
            Reach::Stdio => {
                let command = secrets::redact_args(std::slice::from_ref(&spec.command));
                out.push(line("command", command[0].as_str(), ""));
                out.push(line("args", strings(&secrets::redact_args(&spec.args)), ""));
            }
            // Its query and user may carry a key: shown as `?…`, left out.
            Reach::Http { url, fallback } => {
                let key = if fallback { "url" } else { "http_url" };
                out.push(line(key, shown_url(url), ""));
            }
        }
        // Server environments and headers carry tokens: names only.
        for (key, table) in [("env", &spec.env), ("headers", &spec.headers)] {
            if table.is_empty() {
                continue;
            }
            let names: Vec<String> = table
                .keys()
                .map(|k| format!("{} = \"{}\"", toml_key(k), secrets::REDACTED))
                .collect();
            out.push(Line {
                key: key.into(),
                value: format!("{{ {} }}", names.join(", ")),
                source: String::new(),
            });
        }
        for (key, t) in [
            ("connect_timeout", spec.connect_timeout),
            ("call_timeout", spec.call_timeout),
        ] {
            if let Some(t) = t {
                out.push(line(key, t, ""));
            }
        }
        out.push(line("trust", spec.trust, ""));
    }
}

/// An `--mcp` line as it may be shown: a URL without its query or user
/// (which may carry a key), a command line redacted.
fn shown_mcp_line(line: &str) -> String {
    match crate::agent::toolbox::mcp::ServerSpec::from_command_line(line) {
        Ok(spec) if spec.reach() != Reach::Stdio => format!("{}={}", spec.name, spec.shown()),
        _ => redact_words(line),
    }
}

/// A command line as it may be shown: its words with credentials
/// redacted (`--password=X`, `--token X`, `GITHUB_TOKEN=X`, token-looking
/// words), quoted as a shell would read them back.
fn redact_words(cmd: &str) -> String {
    let words =
        shlex::split(cmd).unwrap_or_else(|| cmd.split_whitespace().map(String::from).collect());
    let shown = secrets::redact_args(&words);
    shlex::try_join(shown.iter().map(String::as_str)).unwrap_or_else(|_| shown.join(" "))
}

/// A bare TOML key when it can be one, else quoted.
fn toml_key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        toml::Value::String(k.to_string()).to_string()
    }
}

impl Settings {
    /// `--print-config`: the merged settings as TOML, each value followed
    /// by its source in a comment. Keys are shown as `[REDACTED]`, URLs
    /// without credentials or query.
    pub fn render(&self) -> String {
        let mut lines = vec![
            line(
                "provider",
                self.provider.value.name(),
                &self.provider.source,
            ),
            line("model", self.model.value.as_str(), &self.model.source),
            line(
                "base_url",
                display_url(&self.base_url.value),
                &self.base_url.source,
            ),
        ];
        let key_vars = self.provider.value.wiring().key_vars;
        lines.push(match &self.api_key {
            Some(var) => line("api_key", "[REDACTED]", Source::Env(var.clone())),
            None => Line {
                key: "# api_key".into(),
                value: "not set".into(),
                source: key_vars.join(", "),
            },
        });
        let color = match self.color.value {
            ColorChoice::Auto => "auto",
            ColorChoice::Always => "always",
            ColorChoice::Never => "never",
        };
        lines.push(line("color", color, &self.color.source));
        lines.push(line("width", self.width.value as i64, &self.width.source));
        lines.extend(self.tools.iter().cloned());

        let mut out = String::from("# gem-ask settings: each value and where it came from\n");
        let _ = match (&self.config_path, self.config_found) {
            (Some(p), true) => writeln!(out, "# config file: {}", p.display()),
            (Some(p), false) => writeln!(out, "# config file: {} (not present)", p.display()),
            (None, _) => writeln!(out, "# config file: none (no home directory)"),
        };
        let width = lines
            .iter()
            .filter(|l| !l.key.is_empty())
            .map(|l| l.key.len() + 3 + l.value.chars().count())
            .max()
            .unwrap_or(0);
        for l in &lines {
            let text = if l.key.is_empty() {
                out.push('\n');
                l.value.clone()
            } else {
                format!("{} = {}", l.key, l.value)
            };
            if l.source.is_empty() {
                let _ = writeln!(out, "{text}");
            } else {
                let _ = writeln!(out, "{text:<width$}  # {}", l.source);
            }
        }
        out
    }
}
