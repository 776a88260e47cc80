//! `$XDG_CONFIG_HOME/gemline/config.toml` (through etcetera): gem-ask's
//! defaults. The provider with its model and base URL, the colours and
//! width of drawn output, the tools and their consent levels
//! (`[tools]`, [`tools`]) and MCP servers (`[mcp.NAME]`).
//! This module owns the file: where it is, reading it, and saying exactly
//! what is wrong with it. A file that does not parse, or holds a key gem-ask
//! does not know, is an error naming the file, the line and the key; a
//! typo in a permission or a provider must not be silently ignored.
//! Flags and the environment win over it ([`settings`]).
//!
//! ```toml
//! provider = "openai"           # or "gemini", the default
//! color = "auto"                # as --color: auto, always, never
//! width = 100                   # as --width
//! thinking = "low"              # as --thinking: off, minimal, low, medium, high
//!
//! [gemini]
//! model = "gemini-3.5-flash"
//!
//! [openai]                      # any OpenAI-compatible server
//! base_url = "http://localhost:11434/v1"
//! model = "qwen2.5-coder:7b"
//!
//! [tools]
//! enable = ["read_file", "list_directory", "search_files"]
//! allow = ["write_file"]
//! timeout = 60
//! include_dirs = ["/srv/data"]
//! pass_env = ["GITHUB_TOKEN"]   # kept for tools though it looks secret
//!
//! [tools.levels]
//! run_shell_command = "strict"
//!
//! [mcp.time]
//! command = "mcp-server-time"
//! args = ["--local-timezone", "UTC"]
//! env = { TZ = "UTC" }
//! trust = true
//! exclude_tools = ["convert_time"]  # or include_tools = [...]
//!
//! [mcp.docs]                    # over HTTP (`agent::toolbox::mcp::spec`)
//! url = "https://mcp.example.com/mcp"
//! headers = { Authorization = "Bearer $DOCS_TOKEN" }
//! connect_timeout = 10
//! call_timeout = 60
//!
//! [roles.sql]                   # gem-ask --role sql (roles.rs)
//! system = "Answer with one SQL query for $dialect."
//! defaults = { dialect = "PostgreSQL" }
//!
//! [memory]                      # see `memory::MemoryConfig`
//! enabled = true
//! embedding_model = "gemini-embedding-001"
//! ```

pub mod mcp;
pub mod memory;
pub mod policy;
pub mod prices;
pub mod roles;
pub mod secrets;
pub mod tools;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::provider::ProviderKind;
use crate::term::ColorChoice;
use mcp::ServerSpec;
use tools::{ToolsConfig, ToolsFile};

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// As `--provider`.
    pub provider: Option<ProviderKind>,
    /// As `--color`.
    #[serde(default, deserialize_with = "color")]
    pub color: Option<ColorChoice>,
    /// As `--width`.
    pub width: Option<u16>,
    /// As `--thinking`.
    pub thinking: Option<crate::provider::Thinking>,
    /// `[gemini]`: its model and base URL.
    #[serde(default)]
    pub gemini: ProviderConfig,
    /// `[openai]`: an OpenAI-compatible server's model and base URL.
    #[serde(default)]
    pub openai: ProviderConfig,
    #[serde(default)]
    pub tools: ToolsConfig,
    /// `[mcp.NAME]`, in name order.
    #[serde(default)]
    pub mcp: BTreeMap<String, ServerSpec>,
    /// `[roles.NAME]`, in name order.
    #[serde(default)]
    pub roles: BTreeMap<String, roles::RoleConfig>,
    /// `[memory]`.
    #[serde(default)]
    pub memory: memory::MemoryConfig,
    /// `[prices.MODEL]`: a model's prices, over the agent's table.
    #[serde(default)]
    pub prices: BTreeMap<String, prices::Rates>,
    /// `[budget]`: the caps of every run.
    #[serde(default)]
    pub budget: prices::Budget,
    /// `[policy]`: policy rules in the policy files' form
    /// (`[[policy.rule]]`), read with their lines by
    /// [`policy::parse_config`] from the file's text.
    #[serde(default)]
    pub policy: Option<toml::Table>,
}

/// One provider's table. Keys (the API key) are never read from the file:
/// it is often shared or committed, so they come from the environment.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig {
    pub model: Option<String>,
    pub base_url: Option<String>,
}

impl Config {
    /// Its `[tools]` and `[mcp.*]` tables, as the agent takes them.
    pub fn tools_file(&self) -> ToolsFile {
        ToolsFile {
            tools: self.tools.clone(),
            mcp: self.mcp.values().cloned().collect(),
        }
    }

    /// Where the file holds secrets (`mcp.gh env GITHUB_TOKEN`, `mcp.db
    /// args`): an MCP server's secret-named or secret-looking `env` entries
    /// and arguments that would be redacted.
    pub fn secrets_held(&self) -> Vec<String> {
        use crate::config::secrets;
        let mut held = Vec::new();
        for (name, spec) in &self.mcp {
            for (k, v) in &spec.env {
                if secrets::is_secret_name(k) || secrets::looks_secret(v) {
                    held.push(format!("mcp.{name} env {k}"));
                }
            }
            if secrets::redact_args(&spec.args) != spec.args {
                held.push(format!("mcp.{name} args"));
            }
            for (k, v) in &spec.headers {
                // A value that names its secret (`Bearer $TOKEN`) holds none.
                if !v.contains('$')
                    && (secrets::is_secret_name(k)
                        || secrets::looks_secret(v)
                        || header_holds_secret(k))
                {
                    held.push(format!("mcp.{name} headers {k}"));
                }
            }
            let url = spec.url.as_deref().or(spec.http_url.as_deref());
            let credentials = |u: url::Url| {
                !u.username().is_empty() || u.password().is_some() || u.query().is_some()
            };
            if url
                .and_then(|u| url::Url::parse(u).ok())
                .is_some_and(credentials)
            {
                held.push(format!("mcp.{name} url"));
            }
        }
        held
    }

    pub fn provider(&self, kind: ProviderKind) -> &ProviderConfig {
        match kind {
            ProviderKind::Gemini => &self.gemini,
            ProviderKind::Openai => &self.openai,
        }
    }
}

/// Headers that carry credentials whatever their value looks like.
fn header_holds_secret(name: &str) -> bool {
    ["authorization", "proxy-authorization", "cookie"]
        .iter()
        .any(|h| name.eq_ignore_ascii_case(h))
}

fn color<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<ColorChoice>, D::Error> {
    let s = String::deserialize(d)?;
    <ColorChoice as clap::ValueEnum>::from_str(&s, false)
        .map(Some)
        .map_err(|_| {
            serde::de::Error::custom(format!(
                "unknown value `{s}`, expected `auto`, `always` or `never`"
            ))
        })
}

/// Where the config lives.
pub fn path() -> Option<PathBuf> {
    use etcetera::BaseStrategy;
    let base = etcetera::choose_base_strategy().ok()?;
    Some(base.config_dir().join("gemline").join("config.toml"))
}

/// Why the config file cannot be used: the file named, then the line and
/// key where the fault is known.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file is there but cannot be read.
    #[error("{}: {error}", path.display())]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    /// What is wrong in the file.
    #[error("{}{problem}", path.display())]
    Invalid { path: PathBuf, problem: Problem },
}

/// What is wrong in a config's text ([`parse`]); it reads `:LINE: key KEY:
/// ...` (or `: [TABLE]: key KEY: ...`), for the file's path to precede.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// TOML the schema refuses, where toml says (a line, and the key of
    /// that line or the table it opens).
    #[error("{}: {message}", At(.line, .key))]
    Schema {
        line: Option<usize>,
        key: Option<String>,
        message: String,
    },
    /// A key of a table whose value the schema takes but gem-ask cannot use.
    #[error(": [{table}]: key {key}: {why}")]
    InTable {
        table: String,
        key: &'static str,
        why: String,
    },
    /// A top-level key gem-ask cannot use.
    #[error(": key {key}: {why}")]
    Key {
        key: &'static str,
        why: &'static str,
    },
}

/// Where a [`Problem::Schema`] is: `:LINE: key KEY`, `:LINE` or nothing.
struct At<'a>(&'a Option<usize>, &'a Option<String>);

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At(Some(line), Some(key)) => write!(f, ":{line}: key {key}"),
            At(Some(line), None) => write!(f, ":{line}"),
            At(None, _) => Ok(()),
        }
    }
}

/// A warning when a config holding secrets can be read (or changed) by
/// users other than its owner (`mode & 0o077`), naming what it holds and
/// the fix; `None` otherwise.
pub fn exposure_warning(path: &Path, cfg: &Config) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let held = cfg.secrets_held();
    let mode = std::fs::metadata(path).ok()?.permissions().mode() & 0o777;
    if held.is_empty() || mode & 0o077 == 0 {
        return None;
    }
    Some(format!(
        "{} holds secrets ({}) and other users can read it (mode {mode:o}): chmod 600 {}",
        path.display(),
        held.join(", "),
        path.display()
    ))
}

/// The config; a missing file is the empty config.
pub fn load() -> Result<Config, ConfigError> {
    match path() {
        Some(p) => load_from(&p),
        None => Ok(Config::default()),
    }
}

pub fn load_from(path: &Path) -> Result<Config, ConfigError> {
    // A FIFO or a device named config.toml is refused, not waited on.
    let read = |p: &Path| -> std::io::Result<String> {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut crate::term::regular::open_regular(p)?, &mut text)?;
        Ok(text)
    };
    let text = match read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
        Err(error) => {
            return Err(ConfigError::Read {
                path: path.to_path_buf(),
                error,
            });
        }
    };
    parse(&text).map_err(|problem| ConfigError::Invalid {
        path: path.to_path_buf(),
        problem,
    })
}

/// Parses the text; the error reads `:LINE: key KEY: ` and on, for the
/// path to precede.
pub fn parse(text: &str) -> Result<Config, Problem> {
    let mut c: Config = toml::from_str(text).map_err(|e| describe(text, &e))?;
    for (name, spec) in &mut c.mcp {
        spec.name = name.clone();
        spec.check().map_err(|(key, why)| Problem::InTable {
            table: format!("mcp.{name}"),
            key,
            why,
        })?;
    }
    for (table, p) in [("gemini", &c.gemini), ("openai", &c.openai)] {
        let in_table = |key, why| Problem::InTable {
            table: table.into(),
            key,
            why,
        };
        if p.model.as_deref().is_some_and(|m| m.trim().is_empty()) {
            return Err(in_table("model", "must not be empty".into()));
        }
        if let Some(url) = &p.base_url {
            crate::provider::transport::BaseUrl::parse(url)
                .map_err(|e| in_table("base_url", e.to_string()))?;
        }
    }
    for (name, role) in &c.roles {
        role.check().map_err(|(key, why)| Problem::InTable {
            table: format!("roles.{name}"),
            key,
            why,
        })?;
    }
    if let Some((key, why)) = c.memory.problem() {
        return Err(Problem::InTable {
            table: "memory".into(),
            key,
            why,
        });
    }
    if c.width == Some(0) {
        return Err(Problem::Key {
            key: "width",
            why: "must be at least 1",
        });
    }
    Ok(c)
}

fn describe(text: &str, e: &toml::de::Error) -> Problem {
    let message = e.message().trim().to_string();
    let Some(span) = e.span() else {
        return Problem::Schema {
            line: None,
            key: None,
            message,
        };
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
    let message = hide_secret_value(&message, key.as_deref());
    Problem::Schema {
        line: Some(line_no),
        key,
        message,
    }
}

/// A message that quotes the value it refuses (`invalid type: string
/// "GITHUB_TOKEN=ghp_...", expected a map`) with that value blanked out
/// when it looks secret or belongs to a key that holds secrets (an MCP
/// server's `env` or `args`, any secret-named key): the error goes to a
/// terminal, a CI log, a bug report.
fn hide_secret_value(message: &str, key: Option<&str>) -> String {
    use crate::config::secrets;
    let (Some(a), Some(b)) = (message.find('"'), message.rfind('"')) else {
        return message.to_string();
    };
    if b <= a {
        return message.to_string();
    }
    let value = &message[a + 1..b];
    let secret_key = key.is_some_and(|k| matches!(k, "env" | "args") || secrets::is_secret_name(k));
    if secret_key || secrets::looks_secret(value) {
        format!(
            "{}\"{}\"{}",
            &message[..a],
            secrets::REDACTED,
            &message[b + 1..]
        )
    } else {
        message.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first ```toml block of a module's `//!` doc.
    fn toml_example(doc: &str) -> String {
        doc.lines()
            .skip_while(|l| !l.contains("```toml"))
            .skip(1)
            .take_while(|l| !l.contains("```"))
            .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
            .collect()
    }

    #[test]
    fn the_documented_example_parses() {
        let doc = include_str!("mod.rs");
        let example = toml_example(doc);
        let c = parse(&example).unwrap();
        assert_eq!(c.provider, Some(ProviderKind::Openai));
        assert_eq!(c.color, Some(ColorChoice::Auto));
        assert_eq!(c.width, Some(100));
        assert_eq!(c.openai.model.as_deref(), Some("qwen2.5-coder:7b"));
        assert_eq!(c.gemini.base_url, None);
        assert_eq!(c.mcp["time"].env["TZ"], "UTC");
        assert_eq!(c.tools.pass_env, ["GITHUB_TOKEN"]);
        assert_eq!(c.mcp["time"].exclude_tools, ["convert_time"]);
        assert_eq!(
            c.mcp["docs"].url.as_deref(),
            Some("https://mcp.example.com/mcp")
        );
        // A header written out is a secret the file holds; one naming a
        // variable is not.
        assert!(c.secrets_held().is_empty(), "{:?}", c.secrets_held());
        let held = parse("[mcp.d]\nurl = \"https://h/mcp?key=k\"\nheaders = { Authorization = \"Bearer abc\" }\n")
            .unwrap()
            .secrets_held();
        assert_eq!(held, ["mcp.d headers Authorization", "mcp.d url"]);
        assert_eq!(c.roles["sql"].defaults["dialect"], "PostgreSQL");
        assert!(c.memory.enabled);
        let e = parse("[memory]\nembedding_base_url = \"x\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(": [memory]: key embedding_base_url: invalid base URL"),
            "{e}"
        );
    }

    #[test]
    fn roles_parse_and_their_faults_name_table_and_key() {
        let doc = include_str!("roles.rs");
        let example = toml_example(doc);
        let c = parse(&example).unwrap();
        let r = &c.roles["translator"];
        assert_eq!(
            (r.temperature, r.tools.as_deref()),
            (Some(0.2), Some(&[][..]))
        );
        let e = parse("[roles.x]\ntemperature = 3.5\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            ": [roles.x]: key temperature: 3.5 is not between 0 and 2"
        );
        let e = parse("[roles.x]\nsytem = \"hi\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(":2: key sytem: unknown field `sytem`"), "{e}");
    }

    #[test]
    fn the_readme_examples_parse() {
        let readme = include_str!("../../../../README.md");
        let examples: Vec<Config> = readme
            .split("```toml\n")
            .skip(1)
            .filter_map(|r| r.split("```").next())
            // A policy file's rules, not the config (`config::policy`).
            .filter(|e| !e.contains("[[rule"))
            .map(|e| parse(e).unwrap_or_else(|err| panic!("{err}\n{e}")))
            .collect();
        assert_eq!(examples.len(), 4);
        assert_eq!(examples[0].tools.allow, ["write_file"]);
        assert_eq!(examples[0].mcp["time"].args, ["--local-timezone", "UTC"]);
        assert_eq!(examples[0].tools.pass_env, ["GITHUB_TOKEN", "AWS_*"]);
        assert_eq!(examples[0].mcp["time"].include_tools, None);
        let docs = &examples[0].mcp["docs"];
        assert_eq!(docs.headers["Authorization"], "Bearer $DOCS_TOKEN");
        assert_eq!(
            (docs.connect_timeout, docs.call_timeout),
            (Some(10.0), Some(60.0))
        );
        let reviewer = &examples[1].roles["reviewer"];
        assert_eq!(reviewer.defaults["lang"], "Python");
        assert_eq!(reviewer.prompt.as_deref(), Some("Review this:\n\n$input"));
        assert_eq!(examples[2].prices["gemini-3.5-flash"].thinking(), 3.0);
        assert_eq!(
            examples[3].openai.base_url.as_deref(),
            Some("http://localhost:11434/v1")
        );
    }

    #[test]
    fn errors_name_line_and_key() {
        let e = parse("[tools]\nallow = [\"x\"]\nlevles = {}\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(":3: key levles: unknown field `levles`"),
            "{e}"
        );
        let e = parse("[mcp.time]\ncommand = \"t\"\ntrust = \"yes\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(":3: key trust: invalid type"), "{e}");
        let e = parse("[tools.levels]\nread_file = \"sometimes\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(":2: key read_file: unknown variant `sometimes`"),
            "{e}"
        );
        let e = parse("[mcp.gh]\ncommand = \"gh\"\nenv = \"GITHUB_TOKEN=ghp_0123456789abcdef\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(":3: key env: invalid type"), "{e}");
        assert!(!e.contains("ghp_") && e.contains("[REDACTED]"), "{e}");
        let e = parse("[openai]\nmodel = 7\n").unwrap_err().to_string();
        assert!(e.contains("invalid type: integer `7`"), "{e}");
        let e = parse("[mcp.x]\nargs = []\n").unwrap_err().to_string();
        assert!(e.contains("command"), "{e}");
        let e = parse("[mcp.x]\nurl = \"file:///srv/mcp\"\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            ": [mcp.x]: key url: must be an http:// or https:// URL with a host"
        );
        assert!(parse("tools = [").is_err());
    }

    #[test]
    fn provider_colour_and_width_errors_name_line_and_key() {
        let e = parse("width = 80\nprovider = \"anthropic\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(":2: key provider: unknown variant `anthropic`"),
            "{e}"
        );
        let e = parse("color = \"sometimes\"\n").unwrap_err().to_string();
        assert!(
            e.starts_with(":1: key color: unknown value `sometimes`"),
            "{e}"
        );
        let e = parse("\nwidth = \"wide\"\n").unwrap_err().to_string();
        assert!(e.starts_with(":2: key width: invalid type"), "{e}");
        let e = parse("[openai]\nmodle = \"x\"\n").unwrap_err().to_string();
        assert!(e.starts_with(":2: key modle: unknown field `modle`"), "{e}");
        let e = parse("[openai]\napi_key = \"sk-1\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(":2: key api_key: unknown field"), "{e}");
        let e = parse("[openai]\nbase_url = \"localhost:11434\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(": [openai]: key base_url: invalid base URL"),
            "{e}"
        );
        assert!(
            parse("width = 0\n")
                .unwrap_err()
                .to_string()
                .contains("key width")
        );
    }
}
