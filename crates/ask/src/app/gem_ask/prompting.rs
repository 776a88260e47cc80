//! What the user adds to the prompts, resolved once before the run: the
//! role (`--role NAME`, the config's `[roles.NAME]`), the templates and
//! their `$variables` (`-p KEY=VALUE`), `--system` and `--system-file`, the
//! `GEMLINE.md` context files, and the `--schema` the answer must match.
//!
//! The system prompt the user gives adds to gem-ask's own (its chart and
//! chapter guidance is always kept): the role's system prompt, then
//! `--system`, then `--system-file`, then the context files, each in a
//! paragraph of its own. Context files are read as gemini-cli reads
//! `GEMINI.md`: the config directory's `GEMLINE.md` first (the user's own),
//! then each `GEMLINE.md` from the outermost directory down to the working
//! directory, going up no further than a directory with `.git` (the
//! repository root) or the home directory; the nearest one comes last.
//!
//! Templates: `$name` or `${name}` takes the value of `-p name=...`, else of
//! the role's `defaults`; `$$` is one `$`. A role's `system` and `prompt` are
//! always templates (the prompt's `$input` is what was typed; a role prompt
//! without it gets what was typed after a blank line); `--system`,
//! `--system-file` and the typed prompt are templates once `-p` is given,
//! so a prompt that mentions `$HOME` is left alone. A variable without a
//! value is a usage error naming it and where it is used.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::args::{Args, is_variable_name};
use crate::agent::schema::{Schema, SchemaError};
use crate::config::Config;
use crate::config::roles::RoleConfig;

/// The file name of a context file.
pub const CONTEXT_FILE: &str = "GEMLINE.md";

/// The most of one context file that is sent.
pub const MAX_CONTEXT_FILE: usize = 64 << 10;

/// Why the prompts cannot be made (exit 2, or 66 for a file that cannot
/// be read).
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    #[error("unknown role {name:?}: {known}")]
    UnknownRole { name: String, known: String },
    #[error(
        "template variable ${name} has no value (in {place}): give -p {name}=VALUE{default_hint}"
    )]
    MissingVariable {
        name: String,
        place: String,
        default_hint: String,
    },
    #[error("{place}: {why}")]
    BadTemplate { place: String, why: String },
    #[error("--system-file {}: {error}", path.display())]
    SystemFile {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(transparent)]
    Schema(#[from] SchemaError),
}

impl PromptError {
    /// The exit code: 66 for a file that cannot be read, else 2.
    pub fn code(&self) -> u8 {
        match self {
            PromptError::SystemFile { .. } => crate::term::exit::NO_INPUT,
            PromptError::Schema(e) if e.unreadable => crate::term::exit::NO_INPUT,
            _ => crate::term::exit::USAGE,
        }
    }
}

/// Template variables and where each value came from.
struct Vars<'a> {
    given: &'a [(String, String)],
    defaults: Option<&'a BTreeMap<String, String>>,
    used: BTreeSet<String>,
}

impl Vars<'_> {
    fn get(&mut self, name: &str) -> Option<String> {
        let v = self
            .given
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .or_else(|| self.defaults.and_then(|d| d.get(name).cloned()))?;
        self.used.insert(name.to_string());
        Some(v)
    }
}

/// `template` with its variables filled; `input` stands for `$input`.
fn fill(
    template: &str,
    vars: &mut Vars<'_>,
    input: Option<&str>,
    place: &str,
) -> Result<String, PromptError> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(r) = after.strip_prefix('$') {
            out.push('$');
            rest = r;
            continue;
        }
        let (name, r) = if let Some(braced) = after.strip_prefix('{') {
            match braced.find('}') {
                Some(end) if is_variable_name(&braced[..end]) => {
                    (&braced[..end], &braced[end + 1..])
                }
                _ => {
                    return Err(PromptError::BadTemplate {
                        place: place.to_string(),
                        why: "${ must be followed by a variable name and }".into(),
                    });
                }
            }
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        if !is_variable_name(name) {
            // A lone `$` (a price, `$1`): kept as written.
            out.push('$');
            rest = after;
            continue;
        }
        let value = match (name, input) {
            ("input", Some(i)) => i.to_string(),
            _ => vars.get(name).ok_or_else(|| PromptError::MissingVariable {
                name: name.to_string(),
                place: place.to_string(),
                default_hint: String::new(),
            })?,
        };
        out.push_str(&value);
        rest = r;
    }
    out.push_str(rest);
    Ok(out)
}

/// The context files of a run, in the order they are sent.
pub fn context_files(cwd: &Path, config_dir: Option<&Path>, home: Option<&Path>) -> Vec<PathBuf> {
    let mut found = Vec::new();
    if let Some(d) = config_dir {
        let f = d.join(CONTEXT_FILE);
        if f.is_file() {
            found.push(f);
        }
    }
    let mut chain = Vec::new();
    for dir in cwd.ancestors() {
        chain.push(dir.to_path_buf());
        if dir.join(".git").exists() || Some(dir) == home {
            break;
        }
    }
    for dir in chain.iter().rev() {
        let f = dir.join(CONTEXT_FILE);
        if f.is_file() && !found.contains(&f) {
            found.push(f);
        }
    }
    found
}

/// What was resolved, for the run and for `--print-config`.
#[derive(Debug, Default)]
pub struct Prompting {
    pub role: Option<String>,
    /// The user's system prompt, as it is added to gem-ask's.
    pub system: String,
    /// Its part from the role and the flags (the context files aside).
    pub own_system: String,
    /// Where its parts came from, in order.
    pub system_sources: Vec<String>,
    /// Context files sent, with the bytes sent of each.
    pub context: Vec<(PathBuf, usize)>,
    /// Each variable used, its value and where it came from.
    pub vars: Vec<(String, String, &'static str)>,
    /// The role's model and temperature, when they were used.
    pub model_from_role: bool,
    pub temperature_from_role: bool,
    pub thinking_from_role: bool,
    /// `--print-config`'s thinking row: the level and where it came from.
    pub thinking_row: Option<(&'static str, &'static str)>,
    pub tools_from_role: bool,
    pub schema: Option<Schema>,
    /// Every role the config has.
    pub roles: Vec<String>,
}

/// Where the context files are looked for.
pub struct Places {
    pub cwd: Option<PathBuf>,
    pub config_dir: Option<PathBuf>,
    pub home: Option<PathBuf>,
}

impl Places {
    pub fn of_process() -> Places {
        Places {
            cwd: std::env::current_dir().ok(),
            config_dir: crate::config::path().and_then(|p| p.parent().map(Path::to_path_buf)),
            home: etcetera::home_dir().ok(),
        }
    }
}

/// Applies the role and templates to `args` (model, temperature, tools,
/// the prompt) and gathers the system prompt and schema. Flags win over
/// the role: `given` says which were typed.
pub fn resolve(args: &mut Args, cfg: &Config, places: &Places) -> Result<Prompting, PromptError> {
    let mut p = Prompting {
        roles: cfg.roles.keys().cloned().collect(),
        role: args.role.clone(),
        ..Prompting::default()
    };
    let role = find_role(args.role.as_deref(), cfg, &p.roles)?;
    let params = args.params.clone();
    let mut vars = Vars {
        given: &params,
        defaults: role.map(|r| &r.defaults),
        used: BTreeSet::new(),
    };
    let with_params = !params.is_empty();
    let mut parts: Vec<String> = Vec::new();
    if let (Some(r), Some(name)) = (role, args.role.clone()) {
        apply_role(args, r, &name, &mut vars, &mut parts, &mut p)?;
    }
    user_system(args, with_params, &mut vars, &mut parts, &mut p)?;
    p.own_system = parts.join("\n");
    if with_params && role.is_none_or(|r| r.prompt.is_none()) {
        let typed = args.prompt.join(" ");
        args.prompt = vec![fill(&typed, &mut vars, None, "the prompt")?];
    }
    if !args.no_context_files
        && let Some(cwd) = &places.cwd
    {
        read_context_files(cwd, places, &mut parts, &mut p);
    }
    p.vars = variables(&params, role, &vars);
    p.system = parts
        .into_iter()
        .filter(|s| !s.trim().is_empty())
        .map(|s| format!("\n{}\n", s.trim_end()))
        .collect();
    p.schema = match (&args.schema, &args.schema_multi) {
        (Some(s), _) => Some(Schema::parse(s, false)?),
        (None, Some(s)) => Some(Schema::parse(s, true)?),
        (None, None) => None,
    };
    Ok(p)
}

/// The role `--role` names, or an error listing the config's roles.
fn find_role<'c>(
    name: Option<&str>,
    cfg: &'c Config,
    roles: &[String],
) -> Result<Option<&'c RoleConfig>, PromptError> {
    let Some(name) = name else {
        return Ok(None);
    };
    cfg.roles
        .get(name)
        .map(Some)
        .ok_or_else(|| PromptError::UnknownRole {
            name: name.to_string(),
            known: if roles.is_empty() {
                "the config has no [roles.NAME] table (see --help)".into()
            } else {
                format!("the config's roles are {}", roles.join(", "))
            },
        })
}

/// Role `name`: its system prompt first in `parts`; its model,
/// temperature and tools where no flag gave them; its prompt template
/// around what was typed.
fn apply_role(
    args: &mut Args,
    r: &RoleConfig,
    name: &str,
    vars: &mut Vars<'_>,
    parts: &mut Vec<String>,
    p: &mut Prompting,
) -> Result<(), PromptError> {
    if let Some(s) = &r.system {
        let place = format!("role {name}'s system");
        parts.push(fill(s, vars, None, &place).map_err(|e| hint(e, r))?);
        p.system_sources.push(format!("role {name}"));
    }
    if let Some(m) = r.model.as_ref().filter(|_| !args.given.has("model")) {
        args.model = m.clone();
        p.model_from_role = true;
    }
    if let Some(t) = r.thinking.filter(|_| args.thinking.is_none()) {
        args.thinking = Some(t);
        p.thinking_from_role = true;
    }
    if let Some(t) = r.temperature.filter(|_| args.temperature.is_none()) {
        args.temperature = Some(t);
        p.temperature_from_role = true;
    }
    if let Some(tools) = r
        .tools
        .as_ref()
        .filter(|_| args.tools.is_empty() && !args.no_tools)
    {
        if tools.is_empty() {
            args.no_tools = true;
        } else {
            args.tools = tools.clone();
        }
        p.tools_from_role = true;
    }
    let typed = args.prompt.join(" ");
    if let Some(t) = &r.prompt {
        let place = format!("role {name}'s prompt");
        let mut prompt = fill(t, vars, Some(&typed), &place).map_err(|e| hint(e, r))?;
        if !t.contains("$input") && !t.contains("${input}") && !typed.trim().is_empty() {
            prompt = format!("{prompt}\n\n{typed}");
        }
        args.prompt = vec![prompt];
    }
    Ok(())
}

/// `--system` and `--system-file` into `parts` (templates only with `-p`).
fn user_system(
    args: &Args,
    with_params: bool,
    vars: &mut Vars<'_>,
    parts: &mut Vec<String>,
    p: &mut Prompting,
) -> Result<(), PromptError> {
    if let Some(s) = &args.system {
        parts.push(if with_params {
            fill(s, vars, None, "--system")?
        } else {
            s.clone()
        });
        p.system_sources.push("--system".into());
    }
    if let Some(path) = &args.system_file {
        let text = std::fs::read_to_string(path).map_err(|error| PromptError::SystemFile {
            path: path.clone(),
            error,
        })?;
        parts.push(if with_params {
            fill(&text, vars, None, "--system-file")?
        } else {
            text
        });
        p.system_sources
            .push(format!("--system-file {}", path.display()));
    }
    Ok(())
}

/// The GEMLINE.md files seen from `cwd` into `parts`, in order; one that
/// cannot be read is a warning.
fn read_context_files(cwd: &Path, places: &Places, parts: &mut Vec<String>, p: &mut Prompting) {
    for f in context_files(cwd, places.config_dir.as_deref(), places.home.as_deref()) {
        match std::fs::read(&f) {
            Ok(bytes) => {
                let text = context_text(&f, &bytes);
                p.context.push((f.clone(), text.len()));
                parts.push(format!("Context from {}:\n{text}", f.display()));
            }
            Err(e) => crate::term::diag(format!(
                "gem-ask: warning: context file {} not read: {e}",
                f.display()
            )),
        }
    }
}

/// Each variable the templates used, its value and where it came from;
/// a `-p` no template used is a warning.
fn variables(
    params: &[(String, String)],
    role: Option<&RoleConfig>,
    vars: &Vars<'_>,
) -> Vec<(String, String, &'static str)> {
    for (k, _) in params {
        if !vars.used.contains(k) {
            crate::term::diag(format!(
                "gem-ask: warning: -p {k} is not used: no template here has ${k}"
            ));
        }
    }
    vars.used
        .iter()
        .map(|name| match params.iter().rev().find(|(k, _)| k == name) {
            Some((_, v)) => (name.clone(), v.clone(), "-p"),
            None => (
                name.clone(),
                role.and_then(|r| r.defaults.get(name))
                    .cloned()
                    .unwrap_or_default(),
                "role defaults",
            ),
        })
        .collect()
}

/// A missing variable that a role could default, said so.
fn hint(e: PromptError, _role: &RoleConfig) -> PromptError {
    match e {
        PromptError::MissingVariable { name, place, .. } => PromptError::MissingVariable {
            default_hint: format!(" (or set it in the role's defaults = {{ {name} = \"...\" }})"),
            name,
            place,
        },
        other => other,
    }
}

/// A context file's text, cut at [`MAX_CONTEXT_FILE`] with a warning.
fn context_text(path: &Path, bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= MAX_CONTEXT_FILE {
        return text.into_owned();
    }
    let end = text.floor_char_boundary(MAX_CONTEXT_FILE);
    crate::term::diag(format!(
        "gem-ask: warning: context file {} is {} KiB; only its first {} KiB are sent",
        path.display(),
        text.len() >> 10,
        MAX_CONTEXT_FILE >> 10
    ));
    text[..end].to_string()
}

impl Prompting {
    /// The `[prompt]` table of `--print-config`: each value with its
    /// source, as the rest of the listing.
    pub fn render(&self, temperature: Option<f64>) -> String {
        let rows = self.rows(temperature);
        let width = rows
            .iter()
            .map(|(k, v, _)| k.len() + 3 + v.chars().count())
            .max()
            .unwrap_or(0);
        let mut out = String::from("\n[prompt]\n");
        for (k, v, src) in rows {
            let text = format!("{k} = {v}");
            if src.is_empty() {
                let _ = writeln!(out, "{text}");
            } else {
                let _ = writeln!(out, "{text:<width$}  # {src}");
            }
        }
        if !self.own_system.trim().is_empty() {
            let s = toml::Value::String(self.own_system.trim().to_string());
            let _ = writeln!(out, "system = {s}");
        }
        out
    }

    /// The table's rows: key, value (TOML), source.
    fn rows(&self, temperature: Option<f64>) -> Vec<(String, String, String)> {
        let mut rows: Vec<(String, String, String)> = Vec::new();
        let s = |v: &str| toml::Value::String(v.to_string()).to_string();
        if let Some(r) = &self.role {
            rows.push(("role".into(), s(r), "--role".into()));
        }
        if let Some(t) = temperature {
            let src = if self.temperature_from_role {
                "role"
            } else {
                "--temperature"
            };
            rows.push((
                "temperature".into(),
                toml::Value::Float(t).to_string(),
                src.into(),
            ));
        }
        if let Some((level, src)) = self.thinking_row {
            rows.push(("thinking".into(), s(level), src.into()));
        }
        if !self.system_sources.is_empty() {
            rows.push((
                "system_from".into(),
                strings(&self.system_sources),
                String::new(),
            ));
        }
        let files: Vec<String> = self
            .context
            .iter()
            .map(|(f, _)| f.display().to_string())
            .collect();
        let sizes: Vec<String> = self.context.iter().map(|(_, n)| format!("{n} B")).collect();
        rows.push((
            "context_files".into(),
            strings(&files),
            if files.is_empty() {
                "none found (or --no-context-files)".into()
            } else {
                format!("in this order: {}", sizes.join(", "))
            },
        ));
        if !self.vars.is_empty() {
            let inner: Vec<String> = self
                .vars
                .iter()
                .map(|(k, v, _)| format!("{k} = {}", s(v)))
                .collect();
            let src: BTreeSet<&str> = self.vars.iter().map(|(_, _, s)| *s).collect();
            rows.push((
                "variables".into(),
                format!("{{ {} }}", inner.join(", ")),
                src.into_iter().collect::<Vec<_>>().join(", "),
            ));
        }
        if let Some(schema) = &self.schema {
            let key = if schema.multi {
                "schema_multi"
            } else {
                "schema"
            };
            rows.push((
                key.into(),
                s(&schema.record.to_string()),
                format!("--{}", key.replace('_', "-")),
            ));
        }
        rows.push(("roles".into(), strings(&self.roles), "config".into()));
        rows
    }
}

fn strings(v: &[String]) -> String {
    toml::Value::Array(v.iter().map(|s| s.as_str().into()).collect()).to_string()
}

#[cfg(test)]
mod tests;
