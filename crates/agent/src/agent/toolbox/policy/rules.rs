//! Policy rules matched against a call (the rules as read:
//! `config::policy`). The highest priority among the rules that match
//! wins, deny before ask before allow on a tie. A shell command is judged
//! a simple command at a time ([`super::shell`]): it is allowed only when
//! every command in it is allowed, denied when any is denied, and asked
//! about when any is asked about, is matched by no rule, or cannot be
//! judged that way. Every ruling names the rules that made it.

use std::path::Path;

use regex::Regex;
use serde_json::Value;

pub use crate::config::policy::{RuleSpec, Verdict};

use super::shell;

/// The shell tool, whose `command` is judged a simple command at a time.
pub const SHELL: &str = "run_shell_command";

/// A rule ready to match.
#[derive(Debug, Clone)]
struct Rule {
    spec: RuleSpec,
    tools: Vec<Regex>,
    args: Option<Regex>,
    command: Option<Regex>,
    /// `host` and `pathGlob` ([`place`]).
    hosts: Vec<Regex>,
    paths: Vec<Regex>,
}

/// The rules of a run.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    rules: Vec<Rule>,
    /// `--yes`: rules with `modes = ["yolo"]` apply.
    yolo: bool,
}

/// What the rules decided about one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruling {
    pub verdict: Verdict,
    /// The deciding rules' `FILE:LINE`, or why no rule could decide.
    pub rule: String,
    /// Why, in words for the question and the model.
    pub why: String,
}

/// `*` as any run of characters, the rest literal.
fn glob(pattern: &str) -> Regex {
    let parts: Vec<String> = pattern.split('*').map(regex::escape).collect();
    Regex::new(&format!("^{}$", parts.join(".*"))).expect("an escaped glob compiles")
}

impl Rules {
    /// The rules read (their regexes were checked when read).
    pub fn new(specs: Vec<RuleSpec>, yolo: bool) -> Rules {
        let rules = specs
            .into_iter()
            .map(|spec| Rule {
                tools: spec.tools.iter().map(|t| glob(t)).collect(),
                args: spec
                    .args_pattern
                    .as_deref()
                    .and_then(|p| Regex::new(p).ok()),
                command: spec
                    .command_regex
                    .as_deref()
                    .and_then(|p| Regex::new(p).ok()),
                hosts: spec.hosts.iter().map(|h| glob(h)).collect(),
                paths: spec
                    .path_globs
                    .iter()
                    .map(|p| place::path_glob(p))
                    .collect(),
                spec,
            })
            .collect();
        Rules { rules, yolo }
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The tool names the rules name that are not among `known` (each a
    /// rule that can never match), with the rule's origin.
    pub fn unknown_tools(&self, known: &[&str]) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for r in &self.rules {
            for (name, re) in r.spec.tools.iter().zip(&r.tools) {
                if r.spec.mcp_name.is_none() && !known.iter().any(|k| re.is_match(k)) {
                    out.push((name.clone(), r.spec.origin.clone()));
                }
            }
        }
        out
    }

    /// The rules' ruling on a call of `tool` (of MCP server `server`),
    /// or `None` when no rule is about it.
    pub fn judge(
        &self,
        tool: &str,
        server: Option<&str>,
        args: &Value,
        interactive: bool,
        workspace: &Path,
    ) -> Option<Ruling> {
        let about: Vec<&Rule> = self
            .rules
            .iter()
            .filter(|r| self.applies(r, tool, server, interactive))
            .collect();
        if about.is_empty() {
            return None;
        }
        if tool == SHELL
            && let Some(command) = args.get("command").and_then(Value::as_str)
        {
            return Some(judge_command(&about, args, command, workspace));
        }
        let json = args.to_string();
        let hosts = place::hosts(args);
        let path = place::beneath(args, workspace);
        let matching = about
            .iter()
            .filter(|r| r.command.is_none() && r.spec.command_prefix.is_empty())
            .filter(|r| r.args.as_ref().is_none_or(|re| re.is_match(&json)))
            .filter(|r| r.hosts.is_empty() || every_host(&r.hosts, hosts.as_deref()))
            .filter(|r| {
                r.paths.is_empty()
                    || path
                        .as_ref()
                        .is_some_and(|p| r.paths.iter().any(|g| g.is_match(p)))
            });
        best(matching).map(|r| ruling(r, format!("{tool} matches it")))
    }

    /// Whether a rule is about this tool in this mode.
    fn applies(&self, r: &Rule, tool: &str, server: Option<&str>, interactive: bool) -> bool {
        let named = match (&r.spec.mcp_name, server) {
            (Some(m), Some(s)) if m == s => {
                r.tools.is_empty()
                    || r.spec.tools.iter().any(|t| {
                        let short = tool.strip_prefix(&format!("{s}__")).unwrap_or(tool);
                        glob(t).is_match(short)
                    })
            }
            (Some(_), _) => false,
            (None, _) => r.tools.is_empty() || r.tools.iter().any(|re| re.is_match(tool)),
        };
        let mode = r.spec.modes.is_empty()
            || r.spec
                .modes
                .iter()
                .any(|m| m == "default" || (self.yolo && m == "yolo"));
        named && mode && r.spec.interactive.is_none_or(|i| i == interactive)
    }
}

/// Whether there are hosts and each is one of `globs`.
fn every_host(globs: &[Regex], hosts: Option<&[String]>) -> bool {
    hosts.is_some_and(|hs| hs.iter().all(|h| globs.iter().any(|g| g.is_match(h))))
}

/// The rule that wins among those matching: highest priority, then deny,
/// ask, allow.
fn best<'a>(rules: impl Iterator<Item = &'a &'a Rule>) -> Option<&'a Rule> {
    rules
        .max_by_key(|r| (r.spec.priority, r.spec.decision))
        .copied()
}

fn ruling(r: &Rule, why: String) -> Ruling {
    let why = match (&r.spec.deny_message, r.spec.decision) {
        (Some(m), Verdict::Deny) => format!("{why}: {m}"),
        _ => why,
    };
    Ruling {
        verdict: r.spec.decision,
        rule: r.spec.origin.clone(),
        why,
    }
}

/// Whether a rule's command condition matches one simple command: a
/// prefix by whole words (`cargo\ test` is one word, not `cargo test`),
/// a regex over the arguments' JSON with this command alone.
fn matches_command(r: &Rule, args: &Value, part: &shell::Simple) -> bool {
    // A host or a path is not what a shell command is judged by.
    if !r.hosts.is_empty() || !r.paths.is_empty() {
        return false;
    }
    let line = part.line();
    let mut one = args.clone();
    one["command"] = line.as_str().into();
    let json = one.to_string();
    if let Some(a) = &r.args
        && !a.is_match(&json)
    {
        return false;
    }
    if let Some(c) = &r.command {
        return c.is_match(&json);
    }
    r.spec.command_prefix.is_empty()
        || r.spec.command_prefix.iter().any(|p| {
            let p: Vec<&str> = p.split_whitespace().collect();
            !p.is_empty()
                && part.words.len() >= p.len()
                && part.words.iter().zip(&p).all(|(w, p)| w == p)
        })
}

fn judge_command(about: &[&Rule], args: &Value, command: &str, workspace: &Path) -> Ruling {
    let parts = match shell::split(command, workspace) {
        Ok(p) => p,
        Err(problem) => {
            // Only a rule about every command of the tool can still
            // decide: a deny; else it is asked.
            let whole = about.iter().filter(|r| {
                r.spec.command_prefix.is_empty() && r.command.is_none() && r.args.is_none()
            });
            if let Some(r) = best(whole).filter(|r| r.spec.decision == Verdict::Deny) {
                return ruling(r, "the shell tool is denied".into());
            }
            return Ruling {
                verdict: Verdict::AskUser,
                rule: "shell grammar".into(),
                why: format!(
                    "the command cannot be judged a command at a time: {}",
                    problem.0
                ),
            };
        }
    };
    let mut worst: Option<Ruling> = None;
    let mut allowed_by: Vec<String> = Vec::new();
    for part in &parts {
        let line = part.line();
        let winner = best(about.iter().filter(|r| matches_command(r, args, part)));
        let r = match winner {
            None => Ruling {
                verdict: Verdict::AskUser,
                rule: "no rule".into(),
                why: format!("no rule allows {:?}", clip(&line)),
            },
            Some(r)
                if r.spec.decision == Verdict::Allow
                    && part.redirects
                    && !r.spec.allow_redirection =>
            {
                Ruling {
                    verdict: Verdict::AskUser,
                    rule: r.spec.origin.clone(),
                    why: format!(
                        "{:?} redirects to a file and the rule does not allow redirection",
                        clip(&line)
                    ),
                }
            }
            Some(r) => ruling(r, format!("{:?}", clip(&line))),
        };
        if r.verdict == Verdict::Allow {
            if !allowed_by.contains(&r.rule) {
                allowed_by.push(r.rule.clone());
            }
        } else if worst.as_ref().is_none_or(|w| r.verdict > w.verdict) {
            worst = Some(r);
        }
    }
    worst.unwrap_or_else(|| Ruling {
        verdict: Verdict::Allow,
        rule: allowed_by.join(", "),
        why: format!("every command in it is allowed ({} of them)", parts.len()),
    })
}

/// A command cut for a message.
fn clip(line: &str) -> String {
    match line.char_indices().nth(80) {
        Some((i, _)) => format!("{}...", &line[..i]),
        None => line.to_string(),
    }
}

mod place;

#[cfg(test)]
mod tests;
