//! The `[tools]` table of the config file (`crate::config` reads the
//! file): tool levels, tools allowed without asking, tools declared by
//! default, the workspace's extra directories, the sandbox of the shell
//! tool's commands, the secret-looking variables the tools' processes may
//! keep (`pass_env`). `[mcp.NAME]` tables are
//! `mcp::ServerSpec`s. Flags win over both.
//! (The whole file, with an example: `crate::config`.)

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use super::Level;
use super::mcp::ServerSpec;
use super::sandbox::SandboxMode;

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

#[cfg(test)]
mod tests {
    use crate::config::parse;

    #[test]
    fn the_help_example_parses() {
        let c = parse(&crate::config::help_example("The config, e.g.:")).unwrap();
        assert_eq!(c.tools.enable, ["read_file", "search_files"]);
        assert!(c.mcp["time"].trust);
    }
}
