//! gem-ask's policy files, read before any request: `--policy FILE`
//! (repeatable) and the config directory's `policies/*.toml`, in gemini-cli's
//! TOML form (`config::policy`). A file that cannot be used is exit 2
//! naming the file, the line and the key; a rule naming a tool gem-ask does
//! not have is a warning (it can never match).

use std::path::{Path, PathBuf};

use crate::agent::exit;
use crate::config::policy::{self, RuleSpec};
use crate::term::coded;

/// The rules of `files` and of `config_dir/policies/*.toml`.
pub fn load(files: &[PathBuf], config_dir: Option<&Path>) -> anyhow::Result<Vec<RuleSpec>> {
    let mut all: Vec<PathBuf> = config_dir
        .map(|d| policy::files_in(&d.join("policies")))
        .unwrap_or_default();
    all.extend(files.iter().cloned());
    let mut rules = Vec::new();
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
