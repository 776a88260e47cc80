//! `/memory ...` in the interactive session: the memory commands of
//! `gem-ask memory` (`memory::command`), typed at the prompt. What they
//! find is drawn on the terminal as viz-render draws it; a write is also
//! a `memory` event in the session's stream (drawn there in text mode).

use std::io;

use super::Repl;
use crate::agent::turn::stamp;
use crate::memory::command::{self, Out};

impl Repl {
    pub(super) fn memory_command(&mut self, words: Vec<String>) -> anyhow::Result<()> {
        let Some(handle) = self.agent.toolbox.memory().cloned() else {
            self.term.warn(
                "memory is off in this session: start it with gem-ask -i --memory (or memory.enabled = true in the config)",
            );
            return Ok(());
        };
        if words.first().is_none_or(|w| w == "help") {
            let w = command::USAGE
                .iter()
                .map(|(u, _)| u.len())
                .max()
                .unwrap_or(0);
            let text: String = command::USAGE
                .iter()
                .map(|(u, what)| format!("  /memory {u:<w$}  {what}\n"))
                .collect();
            self.term.say(&text);
            return Ok(());
        }
        let cmd = match command::parse(&words) {
            Ok(c) => c,
            Err(usage) => {
                self.term.warn(&usage.to_string());
                return Ok(());
            }
        };
        let mut outs = Vec::new();
        let done = command::run(&handle, &cmd, &mut io::sink(), &mut |o| outs.push(o));
        // The terminal's own `say` cleans what it writes: plain lines.
        let (cols, unicode) = (self.term.cols(), self.term.unicode());
        for o in outs {
            match o {
                Out::Note(n) => self.term.note(&n),
                Out::Mermaid(g) => self.term.say(&crate::render::memory::mermaid_block(&g)),
                Out::Event(e) => {
                    let lines = crate::render::memory::lines(&e, cols, unicode, false);
                    if e.kind() == "memory" {
                        self.agent.emit(stamp(e))?;
                        self.agent.sink.finish()?;
                        self.result_due = true;
                        if self.text_mode {
                            continue;
                        }
                    }
                    self.term.say(&lines.join("\n"));
                }
            }
        }
        if let Err(e) = done {
            self.term.warn(&e.to_string());
        }
        Ok(())
    }

    /// New memories are credited to the session now in use.
    pub(super) fn memory_session(&self) {
        if let Some(m) = &self.agent.memory {
            m.handle.set_session(&self.current.id);
        }
    }
}
