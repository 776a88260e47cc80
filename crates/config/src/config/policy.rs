//! Policy files: rules on what a tool call may do, in gemini-cli's TOML
//! form, so a user's existing `~/.gemini/policies/*.toml` works as it is:
//! `[[rule]]` tables with `toolName` (a name or a list, `*` a wildcard),
//! `mcpName`, `argsPattern` (a regex over the arguments as compact JSON),
//! `commandPrefix` (a string or a list) or `commandRegex` for
//! `run_shell_command`, `decision` (`allow`, `deny`, `ask_user`),
//! `priority` (0 to 999), `denyMessage`, `modes`, `interactive` (true: only
//! on a terminal; false: only headless), `allowRedirection`, `name` (said
//! with the rule's origin). gemline goes beyond gemini-cli's form with two
//! keys of its own (gemini-cli would refuse them as unknown): `host` (a
//! glob or a list: `*.github.com`, `docs.rs`) matches a call whose every
//! URL's host, as a URL parser reads it (userinfo left out, Unicode as
//! its IDNA ASCII form, lowercase), is one of them; `pathGlob` (a glob
//! or a list beneath the workspace: `*` within a name, `**` across
//! directories, `src/**/*.rs`) matches a file tool's `path` once symlinks
//! are resolved, never a path with `..` or one that leaves the workspace.
//! gemini-cli's `subagent` and `toolAnnotations`
//! are read and left, and so are its `[[safety_checker]]`, `[commands]`
//! and `[modes.*]` tables; a rule with a `safety_checker` (a check gemline does not run)
//! never allows on its own: its `allow` is asked. Reading checks
//! everything before any request: an unknown key, a bad value, a regex
//! that does not compile is a [`PolicyError`] naming the file, the line
//! and the key. The config file's `[policy]` table holds rules in the
//! same form (`[[policy.rule]]`, [`parse_config`]), named by the config
//! file and their line in it. Matching is the agent's
//! (`agent::toolbox::policy`).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

/// What a rule decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    Allow,
    AskUser,
    Deny,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::AskUser => "ask_user",
            Verdict::Deny => "deny",
        }
    }
}

/// One rule as read, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSpec {
    /// `FILE:LINE`, how the rule is named in every decision it makes.
    pub origin: String,
    /// Tool names or patterns (`*` any run of characters); empty: any tool
    /// (a rule with `commandPrefix` or `commandRegex` and no `toolName` is
    /// about `run_shell_command`).
    pub tools: Vec<String>,
    pub mcp_name: Option<String>,
    pub args_pattern: Option<String>,
    pub command_prefix: Vec<String>,
    pub command_regex: Option<String>,
    pub decision: Verdict,
    pub priority: u32,
    pub deny_message: Option<String>,
    pub modes: Vec<String>,
    pub interactive: Option<bool>,
    pub allow_redirection: bool,
    /// `host`: the URLs' hosts (globs, lowercase ASCII); empty: any.
    pub hosts: Vec<String>,
    /// `pathGlob`: the path beneath the workspace (globs); empty: any.
    pub path_globs: Vec<String>,
}

/// A policy file that cannot be used; the message names the file, the
/// line and the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct PolicyError {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    rule: Vec<Spanned<Raw>>,
    /// gemini-cli's sandbox policy files name their rules `[[rules]]`:
    /// read as rules too (a deny there still denies).
    #[serde(default)]
    rules: Vec<Spanned<Raw>>,
    /// gemini-cli's checkers and its sandbox's command table: gemline runs
    /// neither; read and left.
    #[serde(default)]
    #[allow(dead_code)]
    safety_checker: Vec<toml::Table>,
    #[serde(default)]
    #[allow(dead_code)]
    commands: Option<toml::Table>,
    /// The sandbox's settings per approval mode, in gemini-cli's sandbox
    /// policy file.
    #[serde(default)]
    #[allow(dead_code)]
    modes: Option<toml::Table>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn into_vec(self) -> Vec<String> {
        match self {
            OneOrMany::One(s) => vec![s],
            OneOrMany::Many(v) => v,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Raw {
    tool_name: Option<OneOrMany>,
    mcp_name: Option<String>,
    args_pattern: Option<Spanned<String>>,
    command_prefix: Option<OneOrMany>,
    command_regex: Option<Spanned<String>>,
    decision: Spanned<String>,
    #[serde(default)]
    priority: Option<Spanned<i64>>,
    deny_message: Option<String>,
    #[serde(default)]
    modes: Vec<String>,
    interactive: Option<bool>,
    #[serde(default)]
    allow_redirection: bool,
    /// gemline's own: the URLs' hosts a rule is about.
    host: Option<Spanned<OneOrMany>>,
    /// gemline's own: the paths beneath the workspace a rule is about.
    path_glob: Option<Spanned<OneOrMany>>,
    /// gemini-cli's label of a rule; said with its origin.
    name: Option<String>,
    /// A gemini-cli checker that decides with the rule; gemline runs none,
    /// so such a rule never allows on its own (its `allow` is asked).
    #[serde(rename = "safety_checker")]
    safety_checker: Option<toml::Table>,
    #[allow(dead_code)]
    subagent: Option<String>,
    #[allow(dead_code)]
    tool_annotations: Option<toml::Table>,
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Reads the rules of one policy file's text.
pub fn parse(file: &Path, text: &str) -> Result<Vec<RuleSpec>, PolicyError> {
    let parsed: File = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
    rules_of(file, text, parsed)
}

/// The config file's `[policy]` table: the same rules as a policy file's,
/// written `[[policy.rule]]` (or `[[policy.rules]]`); the other tables of
/// the config are the config's.
#[derive(Deserialize)]
struct InConfig {
    #[serde(default)]
    policy: Option<File>,
}

/// Reads the rules of the config file's `[policy]` (none without one);
/// errors and origins name the config file and the line in it.
pub fn parse_config(file: &Path, text: &str) -> Result<Vec<RuleSpec>, PolicyError> {
    let parsed: InConfig = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
    match parsed.policy {
        Some(p) => rules_of(file, text, p),
        None => Ok(Vec::new()),
    }
}

fn toml_error(file: &Path, text: &str, e: &toml::de::Error) -> PolicyError {
    PolicyError {
        file: file.to_path_buf(),
        line: line_of(text, e.span().map_or(0, |s| s.start)),
        message: e.message().trim().to_string(),
    }
}

/// The rules of a parsed file, checked; `text` is the file's, for lines.
fn rules_of(file: &Path, text: &str, parsed: File) -> Result<Vec<RuleSpec>, PolicyError> {
    let err = |offset: usize, message: String| PolicyError {
        file: file.to_path_buf(),
        line: line_of(text, offset),
        message,
    };
    let mut out = Vec::new();
    for spanned in parsed.rule.into_iter().chain(parsed.rules) {
        let at = spanned.span().start;
        let r = spanned.into_inner();
        let decision = match r.decision.get_ref().as_str() {
            "allow" if r.safety_checker.is_some() => Verdict::AskUser,
            "allow" => Verdict::Allow,
            "deny" => Verdict::Deny,
            "ask_user" => Verdict::AskUser,
            other => {
                return Err(err(
                    r.decision.span().start,
                    format!("decision: {other:?} is not one of allow, deny, ask_user"),
                ));
            }
        };
        let priority = match &r.priority {
            None => 0,
            Some(p) if (0..=999).contains(p.get_ref()) => *p.get_ref() as u32,
            Some(p) => {
                return Err(err(
                    p.span().start,
                    format!("priority: {} is not in 0 to 999", p.get_ref()),
                ));
            }
        };
        for (key, pattern) in [
            ("argsPattern", &r.args_pattern),
            ("commandRegex", &r.command_regex),
        ] {
            if let Some(p) = pattern
                && let Err(e) = regex::Regex::new(p.get_ref())
            {
                let first = e.to_string().lines().last().unwrap_or_default().to_string();
                return Err(err(p.span().start, format!("{key}: not a regex ({first})")));
            }
        }
        if r.command_prefix.is_some() && r.command_regex.is_some() {
            return Err(err(
                at,
                "commandPrefix and commandRegex cannot be in the same rule".into(),
            ));
        }
        let hosts =
            checked(r.host, host_pattern).map_err(|(at, m)| err(at, format!("host: {m}")))?;
        let path_globs = checked(r.path_glob, path_pattern)
            .map_err(|(at, m)| err(at, format!("pathGlob: {m}")))?;
        let shell = r.command_prefix.is_some() || r.command_regex.is_some();
        let mut tools = r.tool_name.map(OneOrMany::into_vec).unwrap_or_default();
        if tools.is_empty() && shell {
            tools.push("run_shell_command".into());
        }
        out.push(RuleSpec {
            origin: match &r.name {
                Some(n) => format!("{}:{} ({n})", file.display(), line_of(text, at)),
                None => format!("{}:{}", file.display(), line_of(text, at)),
            },
            tools,
            mcp_name: r.mcp_name,
            args_pattern: r.args_pattern.map(Spanned::into_inner),
            command_prefix: r
                .command_prefix
                .map(OneOrMany::into_vec)
                .unwrap_or_default(),
            command_regex: r.command_regex.map(Spanned::into_inner),
            decision,
            priority,
            deny_message: r.deny_message,
            modes: r.modes,
            interactive: r.interactive,
            allow_redirection: r.allow_redirection,
            hosts,
            path_globs,
        });
    }
    Ok(out)
}

/// A key's patterns, each checked by `check` (which may rewrite it);
/// the first bad one's offset and why.
fn checked(
    key: Option<Spanned<OneOrMany>>,
    check: fn(&str) -> Result<String, String>,
) -> Result<Vec<String>, (usize, String)> {
    let Some(k) = key else { return Ok(Vec::new()) };
    let at = k.span().start;
    let list = k.into_inner().into_vec();
    if list.is_empty() {
        return Err((
            at,
            "an empty list matches nothing; leave the key out".into(),
        ));
    }
    list.iter().map(|p| check(p).map_err(|m| (at, m))).collect()
}

/// A host glob: letters, digits, `-`, `.`, `*` (and `:`, `[`, `]` of an
/// IP address), lowercased.
fn host_pattern(p: &str) -> Result<String, String> {
    let ok = !p.is_empty()
        && p.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '*' | ':' | '[' | ']'));
    if ok {
        Ok(p.to_ascii_lowercase())
    } else {
        Err(format!(
            "{p:?} is not a host pattern (ASCII letters, digits, '-', '.', '*'; write a Unicode name in its xn-- form)"
        ))
    }
}

/// A path glob beneath the workspace: relative, without `..`.
fn path_pattern(p: &str) -> Result<String, String> {
    let p = p.strip_prefix("./").unwrap_or(p);
    if p.is_empty() || p.starts_with('/') || p.split('/').any(|s| s == "..") {
        return Err(format!(
            "{p:?} is not a path beneath the workspace (relative, without '..')"
        ));
    }
    Ok(p.to_string())
}

/// Reads a policy file.
pub fn read(file: &Path) -> Result<Vec<RuleSpec>, PolicyError> {
    let text = std::fs::read_to_string(file).map_err(|e| PolicyError {
        file: file.to_path_buf(),
        line: 0,
        message: format!("cannot read it: {e}"),
    })?;
    parse(file, &text)
}

/// The `*.toml` files of a `policies` directory, by name (none when it
/// does not exist).
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .collect();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Vec<RuleSpec>, PolicyError> {
        parse(Path::new("p.toml"), text)
    }

    #[test]
    fn gemini_cli_rules_are_read_as_they_are() {
        let rules = p(r#"
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git status", "cargo test"]
decision = "allow"
priority = 100

[[rule]]
commandRegex = "rm -rf"
decision = "deny"
denyMessage = "no"
interactive = false
"#)
        .unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].origin, "p.toml:2");
        assert_eq!(rules[0].command_prefix, ["git status", "cargo test"]);
        assert_eq!(rules[1].tools, ["run_shell_command"]);
        assert_eq!(rules[1].decision, Verdict::Deny);
        assert_eq!(rules[1].interactive, Some(false));
    }

    #[test]
    fn gemini_clis_other_keys_are_left_and_a_checked_allow_is_asked() {
        let rules = p(r#"
[modes.default]
network = false
[commands]
[[safety_checker]]
toolName = "*"
[[rule]]
name = "Allow edits"
toolName = "write_file"
decision = "allow"
[rule.safety_checker]
type = "in-process"
[[rules]]
toolName = "*"
decision = "deny"
"#)
        .unwrap();
        assert_eq!(rules[0].origin, "p.toml:7 (Allow edits)");
        assert_eq!(rules[0].decision, Verdict::AskUser);
        assert_eq!(rules[1].decision, Verdict::Deny);
    }

    #[test]
    fn the_configs_policy_table_holds_the_same_rules() {
        let cfg = "width = 80\n\n[policy]\n[[policy.rule]]\ntoolName = \"read_file\"\n\
                   decision = \"allow\"\n\n[memory]\nenabled = false\n";
        let rules = parse_config(Path::new("config.toml"), cfg).unwrap();
        assert_eq!(rules.len(), 1);
        assert_eq!(rules[0].origin, "config.toml:4");
        assert_eq!(rules[0].decision, Verdict::Allow);
        assert!(
            parse_config(Path::new("c"), "width = 80\n")
                .unwrap()
                .is_empty()
        );
        let e = parse_config(
            Path::new("config.toml"),
            "width = 80\n[[policy.rule]]\ntoolName = \"x\"\ndecison = \"allow\"\n",
        )
        .unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(e.to_string().starts_with("config.toml:4: "), "{e}");
        assert!(e.message.contains("decison"), "{e}");
        let e = parse_config(Path::new("c"), "[policy]\nrulez = []\n").unwrap_err();
        assert_eq!((e.line, e.message.contains("rulez")), (2, true), "{e}");
    }

    #[test]
    fn errors_name_the_line_and_the_key() {
        let e = p("[[rule]]\ntoolName = \"x\"\ndecison = \"allow\"\n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("decison"), "{e}");
        let e = p("[[rule]]\ntoolName = \"x\"\ndecision = \"maybe\"\n").unwrap_err();
        assert_eq!((e.line, e.message.contains("decision")), (3, true), "{e}");
        let e = p("[[rule]]\ndecision = \"allow\"\npriority = 1000\n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = p("[[rule]]\ndecision = \"allow\"\ncommandRegex = \"(\"\n").unwrap_err();
        assert!(e.to_string().starts_with("p.toml:3: commandRegex"), "{e}");
        let e = p("[[rule]\n").unwrap_err();
        assert_eq!(e.line, 1, "{e}");
    }
}
