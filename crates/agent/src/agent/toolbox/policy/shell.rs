//! A shell command cut into the simple commands it would run, with a real
//! shell grammar (brush-parser, bash as the brush shell reads it), so that
//! a rule about `cargo test` is asked about each command of `cargo test;
//! curl ...` and not about the line's first words.
//!
//! Each simple command comes back as its words, quotes removed. What
//! cannot be judged a simple command at a time is a [`Problem`], and a
//! rule can then only ask (or deny): anything the parser cannot read,
//! compound commands (subshells, `{ }`, `if`, loops, functions, `[[ ]]`),
//! expansions whose value is not written in the command (`$VAR`, `$(...)`,
//! backticks, `$((...))`, `<(...)`, `~`, ANSI-C quoting), variables set for
//! a command (`X=1 cargo test`), commands that run other commands
//! (`eval`, `bash -c`, `env`, `sudo`, `xargs`, ...), and a redirection to a
//! file outside the workspace.

use std::path::{Component, Path};

use brush_parser::ast::{
    self, AndOr, Command, CommandPrefixOrSuffixItem, IoFileRedirectTarget, IoRedirect,
};
use brush_parser::word::{self, WordPiece};
use brush_parser::{Parser, ParserOptions};

/// Commands that run another command given in their arguments (or read
/// commands from their input); never judged by their first words.
pub const WRAPPERS: &[&str] = &[
    "env", "sudo", "doas", "su", "xargs", "eval", "exec", "command", "builtin", "nohup", "nice",
    "ionice", "timeout", "time", "stdbuf", "setsid", "chroot", "unshare", "nsenter", "watch",
    "parallel", "flock", "script", "strace", "ltrace", "busybox", "sh", "bash", "dash", "zsh",
    "ksh", "mksh", "fish", "csh", "tcsh", "rbash", "source", ".", "trap", "alias", "function",
    "coproc", "python", "python3", "perl", "ruby", "node",
];

/// One simple command: its words, quotes removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simple {
    pub words: Vec<String>,
    /// It redirects to or from a file (inside the workspace).
    pub redirects: bool,
}

impl Simple {
    /// The words joined by single spaces, as rules match them.
    pub fn line(&self) -> String {
        self.words.join(" ")
    }
}

/// Why a command cannot be judged a simple command at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem(pub String);

/// The simple commands `command` would run, in order, or the first reason
/// it cannot be judged that way. `workspace` is where redirections may
/// write.
pub fn split(command: &str, workspace: &Path) -> Result<Vec<Simple>, Problem> {
    let options = ParserOptions::default();
    let mut parser = Parser::new(std::io::Cursor::new(command.as_bytes()), &options);
    let program = parser
        .parse_program()
        .map_err(|e| Problem(format!("the shell grammar cannot read it ({e})")))?;
    let mut out = Vec::new();
    let mut cut = Cut {
        options: &options,
        workspace,
        out: &mut out,
    };
    for complete in &program.complete_commands {
        cut.list(complete)?;
    }
    if out.is_empty() {
        return Err(Problem("it runs no command".into()));
    }
    Ok(out)
}

struct Cut<'a> {
    options: &'a ParserOptions,
    workspace: &'a Path,
    out: &'a mut Vec<Simple>,
}

impl Cut<'_> {
    fn list(&mut self, list: &ast::CompoundList) -> Result<(), Problem> {
        for item in &list.0 {
            self.pipeline(&item.0.first)?;
            for next in &item.0.additional {
                match next {
                    AndOr::And(p) | AndOr::Or(p) => self.pipeline(p)?,
                }
            }
        }
        Ok(())
    }

    fn pipeline(&mut self, p: &ast::Pipeline) -> Result<(), Problem> {
        for c in &p.seq {
            match c {
                Command::Simple(s) => self.simple(s)?,
                Command::Compound(..) => {
                    return Err(Problem(
                        "it holds a compound command (a subshell, { }, if, a loop)".into(),
                    ));
                }
                Command::Function(_) => return Err(Problem("it defines a function".into())),
                Command::ExtendedTest(..) => return Err(Problem("it holds a [[ ]] test".into())),
            }
        }
        Ok(())
    }

    fn simple(&mut self, s: &ast::SimpleCommand) -> Result<(), Problem> {
        let mut words = Vec::new();
        let mut redirects = false;
        let prefix = s.prefix.iter().flat_map(|p| p.0.iter());
        let suffix = s.suffix.iter().flat_map(|p| p.0.iter());
        let mut items: Vec<&CommandPrefixOrSuffixItem> = prefix.collect();
        let name = s.word_or_name.as_ref();
        if let Some(n) = name {
            words.push(self.literal(&n.value)?);
        }
        items.extend(suffix);
        for item in items {
            match item {
                CommandPrefixOrSuffixItem::Word(w) => words.push(self.literal(&w.value)?),
                CommandPrefixOrSuffixItem::AssignmentWord(..) => {
                    return Err(Problem("it sets variables for a command".into()));
                }
                CommandPrefixOrSuffixItem::ProcessSubstitution(..) => {
                    return Err(Problem("it holds a process substitution".into()));
                }
                CommandPrefixOrSuffixItem::IoRedirect(r) => redirects |= self.redirect(r)?,
            }
        }
        if let Some(first) = words.first() {
            let program = first.rsplit('/').next().unwrap_or(first);
            if WRAPPERS.contains(&program) {
                return Err(Problem(format!("{program} runs other commands")));
            }
        } else if redirects {
            return Err(Problem("it redirects with no command".into()));
        } else {
            return Ok(());
        }
        self.out.push(Simple { words, redirects });
        Ok(())
    }

    /// Whether it reads or writes a file (a duplicated descriptor does
    /// not); a file outside the workspace is a problem.
    fn redirect(&self, r: &IoRedirect) -> Result<bool, Problem> {
        match r {
            IoRedirect::File(_, _, IoFileRedirectTarget::Fd(_)) => Ok(false),
            IoRedirect::File(_, _, IoFileRedirectTarget::Duplicate(w)) => {
                let t = self.literal(&w.value)?;
                if t == "-" || t.chars().all(|c| c.is_ascii_digit()) {
                    Ok(false)
                } else {
                    self.inside(&t)
                }
            }
            IoRedirect::File(_, _, IoFileRedirectTarget::Filename(w))
            | IoRedirect::OutputAndError(w, _) => {
                let t = self.literal(&w.value)?;
                self.inside(&t)
            }
            IoRedirect::File(_, _, IoFileRedirectTarget::ProcessSubstitution(..)) => {
                Err(Problem("it holds a process substitution".into()))
            }
            IoRedirect::HereString(_, w) => {
                self.literal(&w.value)?;
                Ok(true)
            }
            IoRedirect::HereDocument(_, doc) => {
                if doc.requires_expansion
                    && (doc.doc.value.contains('$') || doc.doc.value.contains('`'))
                {
                    return Err(Problem("its here-document expands text".into()));
                }
                Ok(true)
            }
        }
    }

    /// A redirection's file must be beneath the workspace.
    fn inside(&self, target: &str) -> Result<bool, Problem> {
        let p = Path::new(target);
        let escapes = p.components().any(|c| matches!(c, Component::ParentDir));
        let beneath = if p.is_absolute() {
            p.starts_with(self.workspace)
        } else {
            true
        };
        if escapes || !beneath || target == "/dev/tcp" || target.starts_with("/dev/") {
            if target == "/dev/null" {
                return Ok(false);
            }
            return Err(Problem(format!(
                "it redirects to {target}, outside the workspace"
            )));
        }
        Ok(true)
    }

    /// A word's value with its quotes removed, when nothing in it expands.
    fn literal(&self, w: &str) -> Result<String, Problem> {
        let pieces = word::parse(w, self.options)
            .map_err(|e| Problem(format!("a word cannot be read ({e})")))?;
        let mut s = String::new();
        for p in pieces {
            plain(&p.piece, &mut s)?;
        }
        Ok(s)
    }
}

fn plain(piece: &WordPiece, s: &mut String) -> Result<(), Problem> {
    match piece {
        WordPiece::Text(t) | WordPiece::SingleQuotedText(t) => s.push_str(t),
        WordPiece::EscapeSequence(e) => s.push_str(e.strip_prefix('\\').unwrap_or(e)),
        WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
            for p in inner {
                plain(&p.piece, s)?;
            }
        }
        WordPiece::CommandSubstitution(_) | WordPiece::BackquotedCommandSubstitution(_) => {
            return Err(Problem("it holds a command substitution".into()));
        }
        WordPiece::ParameterExpansion(_) => {
            return Err(Problem("it expands a variable".into()));
        }
        WordPiece::ArithmeticExpression(_) => {
            return Err(Problem("it holds an arithmetic expansion".into()));
        }
        WordPiece::TildeExpansion(_) => return Err(Problem("it expands ~".into())),
        WordPiece::AnsiCQuotedText(_) => return Err(Problem("it holds $'...' quoting".into())),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(c: &str) -> Result<Vec<String>, Problem> {
        split(c, Path::new("/w")).map(|v| v.iter().map(Simple::line).collect())
    }

    #[test]
    fn lists_and_pipes_are_cut_into_their_commands() {
        assert_eq!(lines("cargo test").unwrap(), ["cargo test"]);
        assert_eq!(
            lines("cargo test; curl x && rm -rf y | wc -l\ngit diff").unwrap(),
            ["cargo test", "curl x", "rm -rf y", "wc -l", "git diff"]
        );
        assert_eq!(lines("cargo 'te'\"st\" a\\ b").unwrap(), ["cargo test a b"]);
        assert_eq!(lines("cargo test 2>&1 >/dev/null").unwrap(), ["cargo test"]);
        assert!(split("cargo test > out.txt", Path::new("/w")).unwrap()[0].redirects);
    }

    #[test]
    fn what_cannot_be_judged_a_command_at_a_time_is_a_problem() {
        for c in [
            "cargo test $(touch x)",
            "cargo test `touch x`",
            "cargo test $HOME",
            "(cargo test)",
            "{ cargo test; }",
            "X=1 cargo test",
            "env X=1 cargo test",
            "bash -c 'cargo test'",
            "/usr/bin/sudo cargo test",
            "eval cargo test",
            "cargo test > /etc/passwd",
            "cargo test > ../x",
            "cargo test <(ls)",
            "cargo test ~/x",
            "cargo test $'\\x41'",
            "if true; then cargo test; fi",
            "cargo test 'unclosed",
        ] {
            assert!(lines(c).is_err(), "{c}: {:?}", lines(c));
        }
    }
}
