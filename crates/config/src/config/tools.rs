//! The `[tools]` table of the config file (`super` reads the
//! file): tool levels, tools allowed without asking, tools declared by
//! default, the workspace's extra directories, the sandbox of the shell
//! tool's commands, the secret-looking variables the tools' processes may
//! keep (`pass_env`). `[mcp.NAME]` tables are
//! `ServerSpec`s (`super::mcp`). Flags win over both.
//! (The whole file, with an example: `crate::config`.)

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::Deserialize;

use super::mcp::ServerSpec;

/// What the config file says of tools: its `[tools]` table and its
/// `[mcp.NAME]` servers, in name order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolsFile {
    pub tools: ToolsConfig,
    pub mcp: Vec<ServerSpec>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolsConfig {
    /// Declared in every run, like the chart tools.
    #[serde(default)]
    pub enable: Vec<String>,
    /// Run without asking, as with `--allow-tool`.
    #[serde(default)]
    pub allow: Vec<String>,
    /// Levels by tool name.
    #[serde(default)]
    pub levels: BTreeMap<String, Level>,
    /// Seconds, as `--tool-timeout`.
    pub timeout: Option<u64>,
    /// As `--include-dir`.
    #[serde(default)]
    pub include_dirs: Vec<PathBuf>,
    /// As `--sandbox`.
    pub sandbox: Option<SandboxMode>,
    /// As `--allow-network`.
    pub allow_network: Option<bool>,
    /// As `--sandbox-mcp`.
    pub sandbox_mcp: Option<bool>,
    /// Variables the tools' processes keep although their names look
    /// secret (`GITHUB_TOKEN`, `AWS_*`); see `secrets`.
    #[serde(default)]
    pub pass_env: Vec<String>,
}

/// How much the user is asked before a tool runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Runs without asking (charts, chapters, read-only file tools).
    Auto,
    /// y / n / a (always, for this conversation).
    Standard,
    /// y / n, every time.
    Strict,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Auto => "auto",
            Level::Standard => "standard",
            Level::Strict => "strict",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `--sandbox`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum SandboxMode {
    /// No sandbox.
    Off,
    /// The sandbox where the kernel supports it; said once otherwise.
    #[default]
    Auto,
    /// Refuse to run a command the sandbox cannot hold.
    Strict,
}

impl SandboxMode {
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxMode::Off => "off",
            SandboxMode::Auto => "auto",
            SandboxMode::Strict => "strict",
        }
    }
}
