//! gem-ask's policy files, read before any request: `--policy FILE`
//! (repeatable), the config directory's `policies/*.toml` and the config
//! file's `[policy]` table, in gemini-cli's TOML form (`config::policy`). A file that cannot be used is exit 2
//! naming the file, the line and the key; a rule naming a tool gem-ask does
//! not have is a warning (it can never match).

use std::path::{Path, PathBuf};

use crate::agent::exit;
use crate::config::policy::{self, RuleSpec};
use crate::term::coded;

/// The rules of the config file's `[policy]`, of `config_dir/policies/*.toml`
/// and of `files`.
pub fn load(files: &[PathBuf], config_dir: Option<&Path>) -> anyhow::Result<Vec<RuleSpec>> {
    let mut all: Vec<PathBuf> = config_dir
        .map(|d| policy::files_in(&d.join("policies")))
        .unwrap_or_default();
    all.extend(files.iter().cloned());
    let mut rules = match config_dir.map(|d| d.join("config.toml")) {
        // The config was read already (a file that cannot be is an error
        // before this); its text again, for the rules' lines.
        Some(cfg) if cfg.is_file() => {
            let text = std::fs::read_to_string(&cfg).unwrap_or_default();
            policy::parse_config(&cfg, &text)
                .map_err(|e| coded(exit::USAGE, format!("policy: {e}")))?
        }
        _ => Vec::new(),
    };
    for f in &all {
        rules.extend(policy::read(f).map_err(|e| coded(exit::USAGE, format!("policy: {e}")))?);
    }
    warn_unknown(&rules);
    Ok(rules)
}

/// Warns of each tool name no built-in tool matches (MCP tools, named
/// `server__tool` or with `mcpName`, are not known before their servers
/// start, and are not warned of).
fn warn_unknown(rules: &[RuleSpec]) {
    let registry = crate::agent::toolbox::Registry::builtin(true);
    let known: Vec<&str> = registry.iter().map(|t| t.name.as_str()).collect();
    let set = crate::agent::toolbox::policy::Rules::new(rules.to_vec(), false);
    for (name, origin) in set.unknown_tools(&known) {
        if !name.contains("__") {
            crate::term::diag(format!(
                "gem-ask: warning: policy {origin}: toolName {name:?} names no tool gem-ask has; \
                 the rule never matches"
            ));
        }
    }
}

/// `gem-ask policy ...`.
#[derive(Debug, Clone, clap::Args)]
#[command(args_conflicts_with_subcommands = true, disable_help_subcommand = true)]
pub struct PolicyArgs {
    #[command(subcommand)]
    pub action: Option<Action>,
    /// Words of a prompt that starts with "policy" (no policy command): asked as a prompt.
    #[arg(hide = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub words: Vec<String>,
}

#[derive(Debug, Clone, clap::Subcommand)]
pub enum Action {
    /// Explain what the rules decide about one call, without running anything: a JSON line with the
    /// verdict, the deciding rule (FILE:LINE), why, and a shell command's simple commands.
    Check {
        /// More policy rules besides the config dir's policies/*.toml (repeatable).
        #[arg(long, value_name = "FILE")]
        policy: Vec<PathBuf>,
        /// Judge as on a terminal (rules with interactive = true); headless by default.
        #[arg(long)]
        interactive: bool,
        /// The tool's name, e.g. run_shell_command, web_fetch, server__tool.
        tool: String,
        /// The arguments: a JSON object, or for run_shell_command the command's words.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
        args: Vec<String>,
    },
}

/// `gem-ask policy check`: the ruling as a JSON line on stdout.
pub fn run(action: Action) -> anyhow::Result<u8> {
    let Action::Check {
        policy,
        interactive,
        tool,
        args,
    } = action;
    let config_dir = crate::config::path().and_then(|p| Some(p.parent()?.to_path_buf()));
    let rules = load(&policy, config_dir.as_deref())?;
    let joined = args.join(" ");
    let call_args: serde_json::Value = match serde_json::from_str(&joined) {
        Ok(v @ serde_json::Value::Object(_)) => v,
        _ if tool == crate::agent::toolbox::policy::rules::SHELL => {
            serde_json::json!({ "command": joined })
        }
        _ => {
            return Err(coded(
                exit::USAGE,
                format!(
                    "policy check: the arguments of {tool} must be a JSON object, e.g. '{{\"path\":\"src/main.rs\"}}'"
                ),
            ));
        }
    };
    let cwd = std::env::current_dir()?;
    let (server, name) = match tool.split_once("__") {
        Some((s, _)) => (Some(s), tool.as_str()),
        None => (None, tool.as_str()),
    };
    let set = crate::agent::toolbox::policy::Rules::new(rules, false);
    let ruling = set.judge(name, server, &call_args, interactive, &cwd);
    let mut line = serde_json::json!({"tool": tool, "args": call_args});
    match ruling {
        Some(r) => {
            line["decision"] = r.verdict.as_str().into();
            line["rule"] = r.rule.into();
            line["why"] = r.why.into();
        }
        None => {
            line["decision"] = "consent".into();
            line["why"] = "no rule is about this call: the tool's consent level decides".into();
        }
    }
    if let Some(c) = call_args.get("command").and_then(serde_json::Value::as_str) {
        line["commands"] = match crate::agent::toolbox::policy::shell::split(c, &cwd) {
            Ok(parts) => parts
                .iter()
                .map(|p| p.words.clone())
                .collect::<Vec<_>>()
                .into(),
            Err(p) => serde_json::json!({ "unjudgeable": p.0 }),
        };
    }
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()?;
    Ok(exit::OK)
}
