//! Memories in each turn's prompt (`--memory`). Before a user turn's first
//! request, the memories that best match the message are found (keywords
//! and meaning fused, [`crate::memory::search`]); those that fit in
//! `--memory-budget` open the user's turn as they are (after the history:
//! the system prompt stays the same, see `Agent::turn_context`), and when they
//! do not all fit the model first condenses them (one extra request,
//! counted in the stats). The stream says which were used (a `memory`
//! event, action `recalled`), `--verbose` says it on stderr, and the
//! REPL's status line shows them.
//!
//! No secret gem-ask knows reaches the model this way: the block (and
//! the condensing request) has each replaced by `[REDACTED]`, whatever
//! the store holds (memories are also guarded when they are saved).
//!
//! A store that cannot be used (damaged, locked past a short wait) or an
//! embedding that fails is a warning: the turn goes on, without memory or
//! by keywords only. A turn the model takes on its own ("Continue.")
//! keeps the memories of the turn before.

use std::time::Instant;

use serde_json::Value;

use super::outcome::Failure;
use super::toolbox::secrets::redact_known;
use super::turn::{Agent, TurnReport, stamp};
use crate::events::Event;
use crate::memory::{Filter, Memory, context, event, handle, tokens};
use crate::provider::Client;

/// The text parts of a user Content, joined.
fn user_text(user: &Value) -> String {
    user.get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Agent {
    /// Finds the memories for this turn's message and sets the system
    /// prompt's block (see the module's doc).
    pub(super) fn recall(
        &mut self,
        client: &Client,
        user: &Value,
        report: &mut TurnReport,
    ) -> Result<(), Failure> {
        let Some(mem) = self.memory.as_mut() else {
            return Ok(());
        };
        if std::mem::take(&mut mem.keep_next) {
            return Ok(());
        }
        mem.block = None;
        mem.used.clear();
        let handle = mem.handle.clone();
        let text = user_text(user);
        let started = Instant::now();
        let found = match handle.search(
            &text,
            &Filter::default(),
            context::PER_TURN,
            handle::READ_WAIT,
        ) {
            Ok(f) => f,
            Err(e) => {
                let m = format!("memory is off for this turn: {e}");
                return Ok(self.emit(stamp(Event::error("warning", &m)))?);
            }
        };
        for n in &found.notes {
            self.emit(stamp(Event::error("warning", n)))?;
        }
        let memories: Vec<&Memory> = found.hits.iter().map(|h| &h.memory).collect();
        if memories.is_empty() {
            return Ok(());
        }
        let budget = handle.opts.budget;
        let fit = context::fit(&memories, budget);
        let prepared = started.elapsed().saturating_sub(found.embedding);
        let (block, used, summarized) = if fit == memories.len() {
            (context::block(&memories), memories.len(), false)
        } else {
            self.condense(client, &text, &memories, fit, report)?
        };
        // A memory kept before its secret was known (or imported without
        // the guard) still carries none into the prompt.
        let block = redact_known(&block).unwrap_or(block);
        let keys: Vec<String> = memories[..used]
            .iter()
            .map(|m| redact_known(&m.key).unwrap_or_else(|| m.key.clone()))
            .collect();
        let n = tokens(&block);
        self.emit(stamp(event::recalled(&keys, n, summarized)))?;
        if self.opts.debug {
            crate::term::diag(format!(
                "gem-ask: debug: memory: {} memories in the prompt ({n} tokens) in {:.1} ms, the query's embedding {:.1} ms",
                keys.len(),
                prepared.as_secs_f64() * 1e3,
                found.embedding.as_secs_f64() * 1e3
            ));
        }
        let mem = self.memory.as_mut().expect("checked above");
        if mem.verbose {
            crate::term::diag(format!(
                "gem-ask: memory: {} ({n} tokens{})",
                keys.join(", "),
                if summarized { ", condensed" } else { "" }
            ));
        }
        mem.block = Some(block);
        mem.used = keys;
        Ok(())
    }

    /// The block for memories that do not all fit in the budget: the
    /// model's summary of them all, or (when that fails) the `fit` first,
    /// with a warning. Gives the block, how many memories it stands for,
    /// and whether it is a summary.
    fn condense(
        &mut self,
        client: &Client,
        text: &str,
        memories: &[&Memory],
        fit: usize,
        report: &mut TurnReport,
    ) -> Result<(String, usize, bool), Failure> {
        let budget = self.memory.as_ref().map_or(0, |m| m.handle.opts.budget);
        let ask = context::summary_request(text, memories, budget);
        let ask = redact_known(&ask).unwrap_or(ask);
        match self.quiet_request(client, context::SUMMARY_SYSTEM, &ask, report)? {
            Ok((summary, _)) if !summary.trim().is_empty() => {
                Ok((context::summary_block(&summary), memories.len(), true))
            }
            failed => {
                let why = failed.err().unwrap_or_else(|| "an empty summary".into());
                self.emit(stamp(Event::error(
                    "warning",
                    &format!(
                        "could not condense the memories to fit --memory-budget ({why}); sending the {fit} that fit"
                    ),
                )))?;
                Ok((context::block(&memories[..fit]), fit, false))
            }
        }
    }
}
