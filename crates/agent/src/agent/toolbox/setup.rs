//! Building a session's [`Toolbox`] from a [`ToolSetup`] (what the run's
//! options ask of the tools, made by `agent::Options::tool_setup`, so the
//! toolbox never sees the options) and the config file's tables:
//! which tools exist (built-in, then each MCP server's), which are declared
//! to the model, their levels and standing permissions, the workspace and
//! the timeout. Flags win over the config.
//!
//! Declared by default: the chart and chapter tools (as before: a one-shot
//! `gem-ask "..." | viz-render` gains no power over files), every tool of a
//! configured MCP server (configuring it is the opt-in), and in the agent
//! modes (`-i`, `-t`) also the file and command tools; the memory tools
//! when memory is on, and never when it is off. `--tools` and the
//! config's `tools.enable` declare any others. At most
//! [`bounds::MAX_TOOLS`] are declared (and [`bounds::MAX_TOTAL`] bytes of
//! MCP declarations), the rest named in a warning.

use std::path::PathBuf;
use std::time::Duration;

use super::builtin::GEMINI_ONLY;
use super::config::ToolsFile;
use super::consent::Look;
use super::mcp::{BadCommandLine, Hub, ServerSpec, bounds};
use super::sandbox::{SandboxMode, SandboxSetup};
use super::{Consent, MEMORY_TOOLS, Registry, SIGNAL, Toolbox, Workspace};

/// What the user asked of the tools, from the flags.
#[derive(Debug, Clone, Default)]
pub struct ToolSetup {
    /// `--no-tools` (and `-c`): declare none and start no MCP server.
    pub no_tools: bool,
    /// `--tools`: declare only these.
    pub only: Vec<String>,
    /// `--exclude-tools`.
    pub exclude: Vec<String>,
    /// `--allow-tool`: run these without asking.
    pub allow: Vec<String>,
    /// `--yes`: run every tool without asking.
    pub yes: bool,
    /// The policy rules read (`--policy`, the config dir's `policies/`).
    pub policy: Vec<crate::config::policy::RuleSpec>,
    /// `--tool-timeout`; else the config's, else 30 s.
    pub timeout: Option<Duration>,
    /// `--include-dir`.
    pub include_dirs: Vec<PathBuf>,
    /// `--mcp`: command lines of more servers.
    pub mcp: Vec<String>,
    /// Declare the file and command tools too (the agent modes).
    pub agent: bool,
    /// Task mode: `signal` is declared whatever `--tools` says, since it
    /// is how the model says the task is done.
    pub task: bool,
    /// `--progress-reporting off`: `signal` without its `progress` kind.
    pub no_progress: bool,
    /// Let the MCP servers' stderr through.
    pub debug: bool,
    /// Where the file and command tools work; the process's working
    /// directory when `None`.
    pub workdir: Option<PathBuf>,
    /// `--sandbox`; else the config's, else auto.
    pub sandbox: Option<SandboxMode>,
    /// `--allow-network` (or the config's).
    pub allow_network: bool,
    /// `--sandbox-mcp` (or the config's).
    pub sandbox_mcp: bool,
    /// Places no sandboxed command reads besides the home directory's
    /// secret ones: gem-ask's config and data directories.
    pub private: Vec<PathBuf>,
    /// The config file's `[tools]` and `[mcp.*]`; flags win over it.
    pub file: ToolsFile,
    /// How the consent question is drawn (`--color`, `--ascii`/`--unicode`).
    pub look: Look,
    /// The provider is not Gemini: the tools that use Gemini's own tools
    /// (web search and fetch) cannot be declared; the string says why.
    pub no_gemini_tools: Option<String>,
    /// The run's memory (`--memory`): its tools are declared with it.
    pub memory: Option<std::sync::Arc<crate::memory::Handle>>,
}

/// The default `--tool-timeout`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a toolbox could not be built: a usage error.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("no working directory: {0}")]
    NoWorkdir(std::io::Error),
    /// An `--include-dir` or `tools.include_dirs` entry that cannot be used.
    #[error("{0}")]
    Workspace(std::io::Error),
    #[error(transparent)]
    McpCommand(#[from] BadCommandLine),
    /// `--tools`, `--exclude-tools` or `--allow-tool` named no tool.
    #[error("unknown tool {name:?}; the tools are: {all}")]
    UnknownTool { name: String, all: String },
    /// `--tools` named a web tool and the provider cannot run it.
    #[error("{name} cannot be declared: {why}")]
    GeminiOnly { name: String, why: String },
}

impl ToolSetup {
    /// The toolbox, with one message per MCP server that failed to start
    /// (the caller reports each as an `error` event). `Err` is a usage
    /// error: a malformed config, an unknown tool name, a bad directory.
    pub fn build(&self) -> Result<(Toolbox, Vec<String>), SetupError> {
        self.build_with(&self.file)
    }

    pub fn build_with(&self, cfg: &ToolsFile) -> Result<(Toolbox, Vec<String>), SetupError> {
        let timeout = self
            .timeout
            .or(cfg.tools.timeout.map(Duration::from_secs))
            .unwrap_or(DEFAULT_TIMEOUT);
        let workspace = self.workspace(cfg)?.with_sandbox(self.sandbox_setup(cfg));
        super::secrets::pass_env(cfg.tools.pass_env.iter().cloned());
        super::secrets::also_known(cfg.mcp.iter().flat_map(|s| {
            s.env
                .iter()
                .filter(|(k, _)| super::secrets::is_secret_name(k))
                .map(|(_, v)| v.clone())
        }));
        let mut registry = Registry::builtin(!self.no_progress);
        let mcp_sandbox = workspace.sandbox().setup().mcp.then(|| workspace.sandbox());
        let started = Hub::start(&self.server_specs(cfg)?, timeout, self.debug, mcp_sandbox);
        for t in started.tools {
            registry.add(t);
        }
        // A name of a server's tool is not known when a server failed.
        let some_failed = !started.failures.is_empty();
        let unknown =
            |name: &str| registry.get(name).is_none() && !(some_failed && name.contains("__"));
        if let Some(why) = &self.no_gemini_tools
            && let Some(name) = self.only.iter().find(|n| GEMINI_ONLY.contains(&n.as_str()))
        {
            return Err(SetupError::GeminiOnly {
                name: name.clone(),
                why: why.clone(),
            });
        }
        let named = self.only.iter().chain(&self.exclude).chain(&self.allow);
        if let Some(name) = named.into_iter().find(|n| unknown(n)) {
            let all: Vec<&str> = registry.iter().map(|t| t.name.as_str()).collect();
            return Err(SetupError::UnknownTool {
                name: name.clone(),
                all: all.join(", "),
            });
        }
        warn_unknown_config_names(cfg, &unknown);
        let (declared, withheld) = self.declared_here(cfg, &registry, &started.warnings);
        let consent = Consent::new(self.yes, cfg.tools.allow.iter().chain(&self.allow).cloned())
            .with_levels(cfg.tools.levels.clone())
            .with_look(self.look);
        Ok((
            Toolbox {
                registry,
                declared,
                consent,
                workspace,
                timeout,
                mcp: started.hub,
                servers: started.servers,
                task_deadline: None,
                withheld,
                model: None,
                memory: self.memory.clone(),
                rules: super::policy::Rules::new(self.policy.clone(), self.yes),
            },
            started.failures,
        ))
    }

    /// The names declared, after the tools this provider cannot run
    /// (withheld, with why) and the caps on MCP declarations (each left
    /// out a warning, as the servers' own warnings).
    fn declared_here(
        &self,
        cfg: &ToolsFile,
        registry: &Registry,
        warnings: &[String],
    ) -> (Vec<String>, Vec<(String, String)>) {
        let mut declared = self.declared(cfg, registry);
        let mut withheld = Vec::new();
        if let Some(why) = &self.no_gemini_tools {
            declared.retain(|d| !GEMINI_ONLY.contains(&d.as_str()));
            withheld = GEMINI_ONLY
                .iter()
                .map(|n| (n.to_string(), why.clone()))
                .collect();
        }
        let (declared, left_out) = bounds::cap(declared, |name| {
            let t = registry.get(name)?;
            matches!(t.source, super::Source::Mcp { .. }).then(|| t.declaration.to_string().len())
        });
        for w in warnings.iter().chain(&left_out) {
            crate::term::diag(format!("gem-ask: warning: {w}"));
        }
        (declared, withheld)
    }

    /// The sandbox asked for: flags over the config.
    pub fn sandbox_setup(&self, cfg: &ToolsFile) -> SandboxSetup {
        let t = &cfg.tools;
        SandboxSetup {
            mode: self.sandbox.or(t.sandbox).unwrap_or_default(),
            allow_network: self.allow_network || t.allow_network == Some(true),
            mcp: self.sandbox_mcp || t.sandbox_mcp == Some(true),
            private: self.private.clone(),
        }
    }

    /// The working directory with the included ones (config first).
    fn workspace(&self, cfg: &ToolsFile) -> Result<Workspace, SetupError> {
        let cwd = match &self.workdir {
            Some(d) => d.clone(),
            None => std::env::current_dir().map_err(SetupError::NoWorkdir)?,
        };
        let include: Vec<PathBuf> = cfg
            .tools
            .include_dirs
            .iter()
            .chain(&self.include_dirs)
            .cloned()
            .collect();
        Workspace::new(&cwd, &include).map_err(SetupError::Workspace)
    }

    /// The MCP servers to start: the config's, then `--mcp`'s.
    fn server_specs(&self, cfg: &ToolsFile) -> Result<Vec<ServerSpec>, SetupError> {
        if self.no_tools {
            return Ok(Vec::new());
        }
        let mut s: Vec<ServerSpec> = cfg.mcp.clone();
        for line in &self.mcp {
            let mut spec = ServerSpec::from_command_line(line)?;
            // Two servers of one name would share their tools' names.
            let base = spec.name.clone();
            for i in 2.. {
                if !s.iter().any(|o| o.name == spec.name) {
                    break;
                }
                spec.name = format!("{base}_{i}");
            }
            s.push(spec);
        }
        Ok(s)
    }

    /// The names declared to the model, in registry order (task mode's
    /// `signal` last if `--tools` left it out).
    fn declared(&self, cfg: &ToolsFile, registry: &Registry) -> Vec<String> {
        let mut declared: Vec<String> = if self.no_tools {
            Vec::new()
        } else {
            registry
                .iter()
                .filter(|t| {
                    if self.only.is_empty() {
                        t.by_default || self.agent || cfg.tools.enable.contains(&t.name)
                    } else {
                        self.only.contains(&t.name)
                    }
                })
                .filter(|t| !self.exclude.contains(&t.name))
                .filter(|t| self.memory.is_some() || !MEMORY_TOOLS.contains(&t.name.as_str()))
                .map(|t| t.name.clone())
                .collect()
        };
        if self.task && !declared.iter().any(|d| d == SIGNAL) {
            declared.push(SIGNAL.to_string());
        }
        declared
    }
}

/// A name in the config that matches no tool is a warning, not an error:
/// the MCP server that has it may be missing from this run.
fn warn_unknown_config_names(cfg: &ToolsFile, unknown: &dyn Fn(&str) -> bool) {
    let t = &cfg.tools;
    let named = t
        .enable
        .iter()
        .map(|n| ("tools.enable", n))
        .chain(t.allow.iter().map(|n| ("tools.allow", n)))
        .chain(t.levels.keys().map(|n| ("tools.levels", n)));
    for (key, name) in named {
        if unknown(name) {
            crate::term::diag(format!(
                "gem-ask: warning: config: {key} names {name:?}, which is not a tool of this run (see --list-tools)"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(s: &ToolSetup, cfg: &ToolsFile) -> Vec<String> {
        let (tb, failures) = s.build_with(cfg).unwrap();
        assert!(failures.is_empty());
        tb.declared().iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn one_shot_declares_only_charts_and_chapters() {
        let cfg = ToolsFile::default();
        assert_eq!(
            declared(&ToolSetup::default(), &cfg),
            [
                "render_visualization",
                "create_new_topic",
                "plot",
                "signal",
                "web_search",
                "web_fetch"
            ]
        );
        // Another provider has no googleSearch or urlContext.
        let openai = ToolSetup {
            no_gemini_tools: Some("gemini only".into()),
            ..ToolSetup::default()
        };
        assert_eq!(
            declared(&openai, &cfg),
            ["render_visualization", "create_new_topic", "plot", "signal"]
        );
        assert!(
            declared(
                &ToolSetup {
                    no_tools: true,
                    ..ToolSetup::default()
                },
                &cfg
            )
            .is_empty()
        );
        let agent = declared(
            &ToolSetup {
                agent: true,
                exclude: vec!["create_new_topic".into()],
                ..ToolSetup::default()
            },
            &cfg,
        );
        assert!(agent.contains(&"run_shell_command".to_string()));
        assert!(!agent.contains(&"create_new_topic".to_string()));
    }

    #[test]
    fn servers_of_one_name_are_told_apart() {
        let s = ToolSetup {
            mcp: vec!["false".into(), "false --x".into()],
            timeout: Some(Duration::from_secs(5)),
            ..ToolSetup::default()
        };
        let (tb, failures) = s.build_with(&ToolsFile::default()).unwrap();
        assert_eq!(failures.len(), 2);
        assert!(failures[0].starts_with("MCP server false (false) failed to start"));
        assert!(failures[1].starts_with("MCP server false_2 (false) failed to start"));
        let servers: Vec<String> = tb.list().servers.into_iter().map(|s| s.name).collect();
        assert_eq!(servers, ["false", "false_2"]);
    }

    #[test]
    fn flags_and_config_add_tools() {
        let mut cfg = ToolsFile::default();
        cfg.tools.enable = vec!["read_file".into()];
        assert_eq!(
            declared(&ToolSetup::default(), &cfg),
            [
                "render_visualization",
                "create_new_topic",
                "plot",
                "read_file",
                "signal",
                "web_search",
                "web_fetch"
            ]
        );
        let only = ToolSetup {
            only: vec!["search_files".into(), "render_visualization".into()],
            ..ToolSetup::default()
        };
        assert_eq!(
            declared(&only, &cfg),
            ["render_visualization", "search_files"]
        );
        let bad = ToolSetup {
            allow: vec!["rm_rf".into()],
            ..ToolSetup::default()
        };
        let e = bad.build_with(&cfg).err().unwrap().to_string();
        assert!(e.starts_with("unknown tool \"rm_rf\"; the tools are: render_visualization"));
    }
}
