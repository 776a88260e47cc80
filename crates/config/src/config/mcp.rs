//! How to start one MCP server: a `[mcp.NAME]` table of the config file
//! or a `--mcp 'CMD ARGS'` line (`agent::toolbox::mcp` starts it).

use std::collections::BTreeMap;

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
    /// Declare only these of its tools (the server's names).
    #[serde(default)]
    pub include_tools: Option<Vec<String>>,
    /// Never declare these of its tools.
    #[serde(default)]
    pub exclude_tools: Vec<String>,
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
            include_tools: None,
            exclude_tools: Vec::new(),
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
