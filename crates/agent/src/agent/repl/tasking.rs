//! `gem-ask -i -t TASK`: the task mode's rounds with the user in the
//! loop. The model first outlines a plan and waits; each line the user
//! types then is guidance for the next round, and between them the model
//! goes on by itself (auto-continue) until it completes the task, asks
//! for input, or reaches `--max-iterations` or `--task-timeout`. Then the
//! task is over and the session goes on as a chat. The rounds themselves
//! are task mode's ([`crate::agent::task::Task`]), so both modes say and
//! count the same.

use super::{After, Repl};
use crate::agent::outcome::Failure;
use crate::agent::task::{Next, Task};
use crate::agent::turn::TurnReport;
use crate::provider::Client;

/// What the system prompt adds in `-i`: how to hand the turn back, and
/// the task's rules when there is one.
pub(super) fn system_rules(task: Option<&Task>) -> String {
    let mut s = String::from(
        "\nThis is an interactive session in a terminal. When your answer is complete and it is the \
         user's turn (you answered, or you asked something), call signal with kind need_input; \
         without it, the session gives you another turn on your own.\n",
    );
    if let Some(t) = task {
        s.push_str(&t.system_rules());
    }
    s
}

impl Repl {
    /// Runs one round of the task.
    pub(super) fn task_round(
        &mut self,
        client: &Client,
        texts: &[&str],
    ) -> Result<(TurnReport, Option<Next>), Failure> {
        let Some(mut task) = self.task.take() else {
            // The task ended (/new, /load) since the message was made.
            let report = self
                .agent
                .turn(client, crate::provider::request::user_text(texts))?;
            return Ok((report, None));
        };
        let round = task.round(&mut self.agent, client, texts);
        self.agent.stats.iterations = Some(task.iterations.into());
        self.task = Some(task);
        round.map(|(report, next)| (report, Some(next)))
    }

    /// Where the task stands after a round: `Some` to wait for the user
    /// (the task may be over), `None` when the auto-continue rule decides.
    pub(super) fn task_after(&mut self, next: Next) -> Option<After> {
        let (max, timeout) = match &self.task {
            Some(t) => (t.limits.max_iterations, t.limits.timeout),
            None => return None,
        };
        let end = |repl: &mut Repl, why: String| {
            repl.task = None;
            Some(After::Wait(Some(why)))
        };
        match next {
            Next::Continue => None,
            Next::NeedInput(_) => Some(After::Wait(None)),
            Next::Complete => end(self, "task complete; the session goes on as a chat".into()),
            Next::IterationLimit => end(
                self,
                format!(
                    "task stopped unfinished after {max} rounds (--max-iterations); the session goes on as a chat"
                ),
            ),
            Next::TimeLimit => end(
                self,
                format!(
                    "task stopped unfinished: its {} s (--task-timeout) are up; the session goes on as a chat",
                    timeout.unwrap_or_default().as_secs_f64()
                ),
            ),
        }
    }

    /// A round cut by the time limit ends the task.
    pub(super) fn task_failed(&mut self, f: &Failure) {
        if self.task.is_some() && matches!(f, Failure::TimeLimit(_)) {
            self.task = None;
            self.term.note(
                "task stopped unfinished: --task-timeout is up; the session goes on as a chat",
            );
        }
    }
}
