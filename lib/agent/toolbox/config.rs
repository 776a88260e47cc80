//! `$XDG_CONFIG_HOME/gemline/config.toml`: tool levels, tools allowed
//! without asking, tools declared by default, and MCP servers. Flags win
//! over it. A file that does not parse, or holds a key gem-ask does not
//! know, is an error naming the file, the line and the key: a typo in a
//! permission must not be silently ignored.
//!
//! ```toml
//! [tools]
//! enable = ["read_file", "list_directory", "search_files"]
//! allow = ["write_file"]
//! timeout = 60
//! include_dirs = ["/srv/data"]
//!
//! [tools.levels]
//! run_shell_command = "strict"
//!
//! [mcp.time]
//! command = "mcp-server-time"
//! args = ["--local-timezone", "UTC"]
//! env = { TZ = "UTC" }
//! trust = true
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::Level;
use super::mcp::ServerSpec;

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub tools: ToolsConfig,
    /// `[mcp.NAME]`, in name order.
    #[serde(default)]
    pub mcp: BTreeMap<String, ServerSpec>,
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
}

/// Where the config lives.
pub fn path() -> Option<PathBuf> {
    use etcetera::BaseStrategy;
    let base = etcetera::choose_base_strategy().ok()?;
    Some(base.config_dir().join("gemline").join("config.toml"))
}

/// The config; a missing file is the empty config.
pub fn load() -> Result<Config, String> {
    match path() {
        Some(p) => load_from(&p),
        None => Ok(Config::default()),
    }
}

pub fn load_from(path: &Path) -> Result<Config, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    parse(&text).map_err(|e| format!("{}{e}", path.display()))
}

/// Parses the text; the error starts with `:LINE: key KEY: ` for the path
/// to precede.
pub fn parse(text: &str) -> Result<Config, String> {
    let mut c: Config = toml::from_str(text).map_err(|e| describe(text, &e))?;
    for (name, spec) in &mut c.mcp {
        spec.name = name.clone();
        if spec.command.trim().is_empty() {
            return Err(format!(
                ": [mcp.{name}]: key command: must name the server's program"
            ));
        }
    }
    Ok(c)
}

fn describe(text: &str, e: &toml::de::Error) -> String {
    let msg = e.message().trim();
    let Some(span) = e.span() else {
        return format!(": {msg}");
    };
    let line_no = text[..span.start.min(text.len())].matches('\n').count() + 1;
    let line = text.lines().nth(line_no - 1).unwrap_or_default();
    // The key of that line (`key = value`), else the word the error names.
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_string())
        .filter(|k| !k.is_empty() && !k.starts_with('['))
        .or_else(|| {
            let t = line.trim();
            t.starts_with('[')
                .then(|| t.trim_matches(['[', ']']).to_string())
        });
    match key {
        Some(k) => format!(":{line_no}: key {k}: {msg}"),
        None => format!(":{line_no}: {msg}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_parses() {
        let doc = include_str!("config.rs");
        let example: String = doc
            .lines()
            .skip_while(|l| !l.contains("```toml"))
            .skip(1)
            .take_while(|l| !l.contains("```"))
            .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
            .collect();
        let c = parse(&example).unwrap();
        assert_eq!(c.tools.levels["run_shell_command"], Level::Strict);
        let time = &c.mcp["time"];
        assert_eq!((time.name.as_str(), time.trust), ("time", true));
        assert_eq!(time.env["TZ"], "UTC");
    }

    #[test]
    fn the_help_example_parses() {
        let help = crate::agent::args::HELP_TAIL;
        let example: String = help
            .lines()
            .skip_while(|l| !l.ends_with("The config, e.g.:"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .map(|l| format!("{l}\n"))
            .collect();
        let c = parse(&example).unwrap();
        assert_eq!(c.tools.enable, ["read_file", "search_files"]);
        assert!(c.mcp["time"].trust);
    }

    #[test]
    fn the_readme_example_parses() {
        let readme = include_str!("../../../README.md");
        let example = readme
            .split("```toml\n")
            .nth(1)
            .and_then(|r| r.split("```").next())
            .unwrap();
        let c = parse(example).unwrap();
        assert_eq!(c.tools.allow, ["write_file"]);
        assert_eq!(c.mcp["time"].args, ["--local-timezone", "UTC"]);
    }

    #[test]
    fn errors_name_line_and_key() {
        let e = parse("[tools]\nallow = [\"x\"]\nlevles = {}\n").unwrap_err();
        assert!(
            e.starts_with(":3: key levles: unknown field `levles`"),
            "{e}"
        );
        let e = parse("[mcp.time]\ncommand = \"t\"\ntrust = \"yes\"\n").unwrap_err();
        assert!(e.starts_with(":3: key trust: invalid type"), "{e}");
        let e = parse("[tools.levels]\nread_file = \"sometimes\"\n").unwrap_err();
        assert!(
            e.starts_with(":2: key read_file: unknown variant `sometimes`"),
            "{e}"
        );
        let e = parse("[mcp.x]\nargs = []\n").unwrap_err();
        assert!(e.contains("command"), "{e}");
        assert!(parse("tools = [").is_err());
    }
}
