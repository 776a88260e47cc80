//! Requests whose answer is not shown: [`Agent::compact`] summarizes the
//! oldest turns when the history is past `--max-history-tokens`, and
//! [`Agent::quiet_request`] is the one request it (and the memories'
//! condensing, `super::recall`) makes: one user text under a system
//! prompt, no tools, counted in the stats.

use super::history::{self, Ledger};
use super::keys::redact_key;
use super::outcome::Failure;
use super::turn::{Agent, Obs, TurnReport, stamp};
use crate::events::Event;
use crate::provider::request::{self, RequestSpec};
use crate::provider::{Client, GenError, Usage};
use crate::session;

impl Agent {
    /// Summarizes the oldest turns when the history is past
    /// `--max-history-tokens`: one request with those turns as a
    /// transcript, its answer becoming the summary turn. A summary that
    /// fails is a warning and the history goes whole; an interruption
    /// stops the turn.
    pub(super) fn compact(
        &mut self,
        client: &Client,
        report: &mut TurnReport,
    ) -> Result<(), Failure> {
        if self.ledger.len != self.history.len() {
            // Replaced behind the ledger's back: estimate from scratch.
            self.ledger = Ledger {
                len: self.history.len(),
                ..Ledger::default()
            };
        }
        let Some(cut) =
            history::cut_point(&self.history, &self.ledger, self.opts.max_history_tokens)
        else {
            return Ok(());
        };
        self.check_stop()?;
        let ask = history::summary_request(&history::transcript(&self.history[..cut]));
        let (summary, usage) = match self.quiet_request(
            client,
            history::SUMMARY_SYSTEM,
            &ask,
            report,
        )? {
            Ok(answer) => answer,
            Err(e) => {
                self.emit(stamp(Event::error(
                    "warning",
                    &format!(
                        "could not summarize the history past --max-history-tokens ({e}); sending it whole"
                    ),
                )))?;
                return Ok(());
            }
        };
        if summary.trim().is_empty() {
            self.emit(stamp(Event::error(
                "warning",
                "the model's summary of the history was empty; sending it whole",
            )))?;
            return Ok(());
        }
        let turn = history::summary_turn(&summary);
        let tokens = usage.candidates;
        let covers = self.ledger.summarized(&self.history, cut, tokens);
        self.history = turn
            .iter()
            .cloned()
            .chain(self.history.drain(cut..))
            .collect();
        self.pending
            .push(session::summary_record(&turn, covers, tokens));
        if self.opts.debug {
            crate::term::diag(format!(
                "gem-ask: debug: history summarized: {cut} contents became 2 ({covers} session records covered)"
            ));
        }
        Ok(())
    }

    /// A request whose answer is not shown (a summary): one user text
    /// under `system`, no tools, counted in the stats. Its text and usage,
    /// or why it failed (`Err` inside: the turn goes on without it); an
    /// interruption stops the turn.
    pub(super) fn quiet_request(
        &mut self,
        client: &Client,
        system: &str,
        text: &str,
        report: &mut TurnReport,
    ) -> Result<Result<(String, Usage), String>, Failure> {
        // The inner String error is kept: it is a message already redacted
        // of the key (`redact_key`), only shown, never matched on.
        let contents = [request::user_text(&[text])];
        let body = request::build(&RequestSpec {
            contents: &contents,
            system: Some(system),
            ..Default::default()
        });
        let mut obs = Obs {
            sink: self.sink.as_mut(),
            thoughts: false,
            deadline: self.deadline,
            show_text: false,
        };
        let answer = match client.generate(body, &mut obs) {
            Ok(t) => t,
            Err(e @ (GenError::Interrupted | GenError::Output(_))) => return Err(e.into()),
            Err(e) => return Ok(Err(redact_key(&e.to_string()))),
        };
        self.stats.requests = self.stats.requests.saturating_add(1);
        self.stats.usage.add(answer.usage);
        report.requests += 1;
        report.usage.add(answer.usage);
        let text = answer.text().map_err(GenError::Output)?;
        Ok(Ok((text, answer.usage)))
    }
}
