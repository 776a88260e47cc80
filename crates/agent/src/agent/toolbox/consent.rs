//! Whether a call may run: the tool's level, the user's standing
//! permissions (`--allow-tool`, `--yes`, the config's `tools.allow`, an MCP
//! server's `trust = true`) and, when none settles it, a question on the
//! terminal.
//!
//! The question is asked on /dev/tty (or `GEMLINE_TTY`, for tests), never
//! on stdin or stdout: a pipeline's input is context and its output is the
//! event stream. With no terminal to ask, the call is denied and the model
//! is told why. Each outcome is a [`Decision`], shown on the `tool_result`.
//! How the question is asked ([`ask`]: typed-ahead input discarded, `v`
//! to page) and how the request is shown ([`shown`]: whole, with hidden
//! characters made visible, padding counted, long requests cut) are this
//! module's children. An `a` (always) answer lasts for the conversation:
//! [`Consent::forget_always`] when a new one starts.

mod ask;
mod pager;
pub mod shown;

use std::collections::BTreeSet;
use std::path::PathBuf;

pub use ask::Look;

use super::{Failed, Level, Source, Tool};

/// How a call was allowed or refused (`tool_result.consent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The tool's level is `auto`: nothing asked.
    Auto,
    /// Its MCP server is configured with `trust = true`.
    Trusted,
    /// `--allow-tool`, `--yes` or the config's `tools.allow`.
    Allowed,
    /// The user answered y.
    Yes,
    /// The user answered a now or earlier in this conversation.
    Always,
    /// The user answered n (or closed the terminal).
    No,
    /// Consent was needed and there is no terminal to ask.
    NoTerminal,
    /// What the call would send out carries text this run read (piped
    /// input, attached files, tool results) and there is no terminal to
    /// show it on (`super::policy`).
    Carries,
    /// A policy rule allows it (`tool_result.policy` names the rule).
    RuleAllowed,
    /// A policy rule denies it.
    RuleDenied,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Auto => "auto",
            Decision::Trusted => "trusted",
            Decision::Allowed => "allowed",
            Decision::Yes => "yes",
            Decision::Always => "always",
            Decision::No => "denied",
            Decision::NoTerminal => "no_terminal",
            Decision::Carries => "carries_input",
            Decision::RuleAllowed => "policy_allowed",
            Decision::RuleDenied => "policy_denied",
        }
    }

    pub fn granted(self) -> bool {
        !matches!(
            self,
            Decision::No | Decision::NoTerminal | Decision::Carries
        )
    }

    /// The error result of a refused call, worded for the model.
    pub fn refusal(self, tool: &str) -> Failed {
        let message = match self {
            Decision::NoTerminal => format!(
                "{tool} needs the user's consent and there is no terminal to ask; it was not run \
                 (the user can allow it with --allow-tool {tool} or --yes)"
            ),
            Decision::Carries => format!(
                "{tool} was not run: what it would send out carries text this run read (the piped \
                 input, an attached file or a tool's result), and there is no terminal to show it \
                 to the user. Do not send data from the user's input or files to the web."
            ),
            Decision::RuleDenied => format!("a policy rule denies {tool}; it was not run"),
            _ => format!("the user declined to run {tool}; it was not run"),
        };
        Failed::new("consent_denied", message)
    }
}

pub use crate::agent::environ::TTY_ENV;

/// The session's consent state.
#[derive(Debug, Clone, Default)]
pub struct Consent {
    /// `--yes`: every call is allowed.
    yes: bool,
    /// Tools allowed without asking.
    allow: BTreeSet<String>,
    /// Levels set by the config, by tool name.
    levels: Vec<(String, Level)>,
    /// Tools answered `a` in this conversation.
    always: BTreeSet<String>,
    /// Where to ask; `None`: nowhere.
    tty: Option<PathBuf>,
    look: Look,
}

impl Consent {
    /// Asks on `GEMLINE_TTY`, else /dev/tty.
    pub fn new(yes: bool, allow: impl IntoIterator<Item = String>) -> Consent {
        let tty = crate::agent::environ::get()
            .tty
            .clone()
            .unwrap_or_else(|| PathBuf::from("/dev/tty"));
        Consent {
            yes,
            allow: allow.into_iter().collect(),
            tty: Some(tty),
            ..Consent::default()
        }
    }

    /// Never asks: whatever needs consent is denied.
    pub fn no_terminal() -> Consent {
        Consent::default()
    }

    /// How the question is drawn (colour, Unicode).
    pub fn with_look(mut self, look: Look) -> Consent {
        self.look = look;
        self
    }

    /// A new conversation (`/new`, `/load`): every `a` answer given so far
    /// is forgotten, and the next call of such a tool is asked again.
    pub fn forget_always(&mut self) {
        self.always.clear();
    }

    /// Levels from the config (`[tools.levels]`), by tool name.
    pub fn with_levels(mut self, levels: impl IntoIterator<Item = (String, Level)>) -> Consent {
        self.levels.extend(levels);
        self
    }

    /// The level a tool runs at: the config's, else its own. An MCP tool is
    /// never `auto` on its own say-so (its annotations are only hints).
    pub fn level(&self, tool: &Tool) -> Level {
        let own = match tool.source {
            Source::Mcp { .. } => tool.level.max(Level::Standard),
            Source::Builtin => tool.level,
        };
        self.levels
            .iter()
            .rev()
            .find(|(n, _)| *n == tool.name)
            .map_or(own, |(_, l)| *l)
    }

    /// A permission that spares the question for a tool that needs
    /// consent: its server's trust, `--yes`, `--allow-tool`, `tools.allow`.
    pub fn standing(&self, tool: &Tool) -> Option<Decision> {
        if self.level(tool) == Level::Auto {
            return None;
        }
        self.permit(tool)
    }

    /// The trust, `--yes` or `--allow-tool` that would allow `tool`.
    fn permit(&self, tool: &Tool) -> Option<Decision> {
        if let Source::Mcp { trusted: true, .. } = tool.source {
            return Some(Decision::Trusted);
        }
        (self.yes || self.allow.contains(&tool.name)).then_some(Decision::Allowed)
    }

    /// Decides on one call; `what` is what the prompt shows will happen.
    pub fn decide(&mut self, tool: &Tool, what: &str) -> Decision {
        let level = self.level(tool);
        if level == Level::Auto {
            return Decision::Auto;
        }
        self.settle(tool, what, level, false, false)
    }

    /// Decides on a call that sends `what` to a place the model names
    /// (`super::policy`): asked whatever the tool's level (a configured
    /// `auto` too); a standing permission or an earlier `a` spares the
    /// question only when it `carries` no text this run read, and such a
    /// call is never sent without a terminal to show it on.
    pub fn decide_outbound(&mut self, tool: &Tool, what: &str, carries: bool) -> Decision {
        let level = self.level(tool).max(Level::Standard);
        self.settle(tool, what, level, carries, carries)
    }

    /// Whether there is a terminal to ask on (policy rules' `interactive`).
    pub fn has_terminal(&self) -> bool {
        self.tty
            .as_ref()
            .is_some_and(|p| ask::Tty::open(p.clone(), self.look).is_some())
    }

    /// Asks, whatever the standing permissions (a policy rule said
    /// `ask_user`); with no terminal, refused.
    pub fn ask_anyway(&mut self, tool: &Tool, what: &str, carries: bool) -> Decision {
        self.settle(
            tool,
            what,
            self.level(tool).max(Level::Strict),
            true,
            carries,
        )
    }

    /// A call that needs consent at `level`: a standing permission, an
    /// earlier `a`, else the question (with no terminal, refused).
    fn settle(
        &mut self,
        tool: &Tool,
        what: &str,
        level: Level,
        force: bool,
        carries: bool,
    ) -> Decision {
        if !force {
            if let Some(d) = self.permit(tool) {
                return d;
            }
            if level == Level::Standard && self.always.contains(&tool.name) {
                return Decision::Always;
            }
        }
        let Some(tty) = self
            .tty
            .as_ref()
            .and_then(|p| ask::Tty::open(p.clone(), self.look))
        else {
            return if carries {
                Decision::Carries
            } else {
                Decision::NoTerminal
            };
        };
        let d = tty.ask(&tool.name, &tool.source, what, level);
        if d == Decision::Always && !carries {
            self.always.insert(tool.name.clone());
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::toolbox::{Done, Ran};
    use serde_json::json;

    fn tool(name: &str, source: Source, level: Level) -> Tool {
        Tool::new(json!({"name": name}), source, level, |_, _| {
            Ran::done(Done::text(""))
        })
    }

    #[test]
    fn standing_permissions_decide_without_a_terminal() {
        let shell = tool("run_shell_command", Source::Builtin, Level::Standard);
        let read = tool("read_file", Source::Builtin, Level::Auto);
        let mut c = Consent::no_terminal();
        assert_eq!(c.decide(&read, ""), Decision::Auto);
        assert_eq!(c.decide(&shell, ""), Decision::NoTerminal);
        let mut c = Consent::new(false, ["run_shell_command".to_string()]);
        assert_eq!(c.decide(&shell, ""), Decision::Allowed);
        let mut c = Consent {
            yes: true,
            ..Consent::default()
        };
        assert_eq!(c.decide(&shell, ""), Decision::Allowed);
    }

    #[test]
    fn what_leaves_carrying_read_text_is_never_allowed_without_a_terminal() {
        let fetch = tool("web_fetch", Source::Builtin, Level::Auto);
        let mut c = Consent {
            yes: true,
            ..Consent::default()
        }
        .with_levels([("web_fetch".to_string(), Level::Auto)]);
        assert_eq!(c.decide_outbound(&fetch, "", false), Decision::Allowed);
        assert_eq!(c.decide_outbound(&fetch, "", true), Decision::Carries);
        let mut c = Consent::no_terminal();
        assert_eq!(c.decide_outbound(&fetch, "", false), Decision::NoTerminal);
    }

    #[test]
    fn mcp_tools_need_consent_unless_trusted() {
        let hinted = tool(
            "time__now",
            Source::Mcp {
                server: "time".into(),
                trusted: false,
            },
            Level::Auto,
        );
        let mut c = Consent::no_terminal();
        assert_eq!(c.level(&hinted), Level::Standard);
        assert_eq!(c.decide(&hinted, ""), Decision::NoTerminal);
        let trusted = tool(
            "time__now",
            Source::Mcp {
                server: "time".into(),
                trusted: true,
            },
            Level::Standard,
        );
        assert_eq!(c.decide(&trusted, ""), Decision::Trusted);
    }

    #[test]
    fn config_levels_override_the_tools_own() {
        let read = tool("read_file", Source::Builtin, Level::Auto);
        let c = Consent::no_terminal().with_levels([("read_file".to_string(), Level::Strict)]);
        assert_eq!(c.level(&read), Level::Strict);
    }
}
