//! Task mode, `gem-ask -t TASK`: the model works towards the task on its
//! own, in rounds (iterations) of plan, tool calls and observation, each
//! one user turn on the shared turn loop. An iteration is one turn: the
//! model's plan, at most `--max-tool-rounds` rounds of tool calls, and
//! what it makes of them; a turn that reaches `--max-tool-rounds` ends the
//! iteration there (the calls past it are answered as not run), it does
//! not fail the task. A turn that ends without a `task_complete` signal is
//! followed by a "Continue." turn that restates the task. The task stops
//! on `task_complete` (exit 0), at `--max-iterations` iterations (exit 6),
//! at `--task-timeout` (exit 7, also in the middle of a turn), or, with no
//! one to ask, when the model asks for input or `--auto-continue off`
//! stops it after a turn (exit 8). So a model that never stops calling
//! tools ends with exit 6 after at most `--max-iterations` x
//! (`--max-tool-rounds` + 1) requests.
//!
//! [`Task`] is the part the REPL shares for `-i -t`: the prompts (a plan
//! first, then work, with the user's guidance between rounds), the limits,
//! and what comes after each turn ([`Next`]). There: set
//! `agent.opts.system_extra` to [`Task::system_rules`], run the plan with
//! `task.round(agent, client, &[&task.opening(true)])`, then each later
//! round with [`Task::continuation`] (the user's line as guidance, or
//! `None` when continuing on its own); [`Task::stop`] says which [`Next`]
//! ends the task, and `NeedInput` or `Continue` with auto-continue off
//! waits for the user.

use std::time::{Duration, Instant};

use super::oneshot::{Prepared, error_drawn};
use super::outcome::{self, Closing, Failure};
use super::setup::{self, SessionChoice};
use super::toolbox::{NEED_INPUT, TASK_COMPLETE};
use super::turn::{Agent, TurnReport, stamp};
use super::{Options, signals};
use crate::events::Event;
use crate::provider::request;
use crate::provider::{Client, GenError};

/// When a task stops on its own.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Most turns (`--max-iterations`).
    pub max_iterations: u32,
    /// Most rounds of tool calls in one of them (`--max-tool-rounds`).
    pub max_tool_rounds: u32,
    /// Total wall time (`--task-timeout`).
    pub timeout: Option<Duration>,
    /// `--auto-continue`: whether a turn that did not finish the task is
    /// followed by another without asking anyone.
    pub auto_continue: bool,
}

impl Limits {
    pub fn from_args(args: &Options) -> Limits {
        Limits {
            max_iterations: args.max_iterations.max(1),
            max_tool_rounds: args.tools.max_rounds,
            timeout: args.task_timeout.map(Duration::from_secs_f64),
            auto_continue: args.auto_continue,
        }
    }
}

/// What comes after a turn of the task.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// The model signalled `task_complete`.
    Complete,
    /// The model asked the user (`need_input`), with its message.
    NeedInput(Option<String>),
    /// Not done: another round (after the user's word, in `-i`).
    Continue,
    /// `--max-iterations` turns were taken without completing.
    IterationLimit,
    /// `--task-timeout` passed.
    TimeLimit,
}

/// One task: its text, limits, and the rounds taken so far.
#[derive(Debug, Clone)]
pub struct Task {
    pub text: String,
    pub limits: Limits,
    pub started: Instant,
    /// Turns taken so far.
    pub iterations: u32,
}

impl Task {
    pub fn new(text: &str, limits: Limits, started: Instant) -> Task {
        Task {
            text: text.trim().to_string(),
            limits,
            started,
            iterations: 0,
        }
    }

    /// When the task's time is up, if it has a limit.
    pub fn deadline(&self) -> Option<Instant> {
        self.limits.timeout.map(|t| self.started + t)
    }

    fn past_deadline(&self) -> bool {
        self.deadline().is_some_and(|d| Instant::now() >= d)
    }

    /// The task rules, added to the system prompt.
    pub fn system_rules(&self) -> String {
        let time = match self.limits.timeout {
            Some(t) => format!(" and {} seconds", t.as_secs()),
            None => String::new(),
        };
        format!(
            "\nYou are working on a task on your own, in rounds. In each round, say in one or two lines \
             what you will do next, do it with the tools, and look at the results. A round that ends \
             without the task done is followed by a message telling you to continue. When the task is \
             done, call signal with kind {TASK_COMPLETE} and a one-line message, then give a short summary \
             of what was done. If you cannot go on without the user, ask in your text and call signal with \
             kind {NEED_INPUT}. You have at most {} rounds{time}, each with at most {} steps of tool \
             calls.\n",
            self.limits.max_iterations, self.limits.max_tool_rounds
        )
    }

    /// The first user message: the task, with a plan to start with.
    /// `plan_only` (`-i -t`): the plan alone, for the user to review
    /// before any work.
    pub fn opening(&self, plan_only: bool) -> String {
        if plan_only {
            format!(
                "Task: {}\n\nFirst outline a short numbered plan and stop there: do not call any tool yet. \
                 I will review the plan before you start.",
                self.text
            )
        } else {
            format!(
                "Task: {}\n\nStart with a short numbered plan, then carry it out.",
                self.text
            )
        }
    }

    /// The message of every later round: "Continue." with the task
    /// restated, and what the user said, if anything.
    pub fn continuation(&self, guidance: Option<&str>) -> String {
        let mut s = format!(
            "Continue. The task: {}\nIf it is done, call signal with kind {TASK_COMPLETE}.",
            self.text
        );
        if let Some(g) = guidance.map(str::trim).filter(|g| !g.is_empty()) {
            s.push_str("\n\nThe user says: ");
            s.push_str(g);
        }
        s
    }

    /// Counts a turn and says what comes next.
    pub fn after(&mut self, report: &TurnReport) -> Next {
        self.iterations += 1;
        if report.signalled(TASK_COMPLETE) {
            return Next::Complete;
        }
        if let Some(s) = report.signals.iter().rev().find(|s| s.kind == NEED_INPUT) {
            return Next::NeedInput(s.message.clone());
        }
        if self.iterations >= self.limits.max_iterations {
            return Next::IterationLimit;
        }
        if self.past_deadline() {
            return Next::TimeLimit;
        }
        Next::Continue
    }

    /// Runs one round: the user message (shown as a `message` event),
    /// the turn, and what comes next. The deadline bounds the turn; a
    /// turn cut by it is [`Failure::TimeLimit`], and so is a round that
    /// would start after it.
    pub fn round(
        &mut self,
        agent: &mut Agent,
        client: &Client,
        texts: &[&str],
    ) -> Result<(TurnReport, Next), Failure> {
        let limit = || Failure::TimeLimit(self.limits.timeout.unwrap_or_default());
        if self.past_deadline() {
            return Err(limit());
        }
        if let Some(last) = texts.last() {
            agent.emit(stamp(Event::message("user", last, false)))?;
        }
        agent.deadline = self.deadline();
        agent.rounds_end_turn = true;
        let turn = agent.turn(client, request::user_text(texts));
        agent.deadline = None;
        agent.rounds_end_turn = false;
        match turn {
            Ok(report) => {
                let next = self.after(&report);
                Ok((report, next))
            }
            Err(Failure::Gen(GenError::Interrupted))
                if signals::received().is_none() && self.past_deadline() =>
            {
                Err(limit())
            }
            Err(f) => Err(f),
        }
    }

    /// The failure a [`Next`] ends a task run with when nobody is there
    /// to answer; `None` for [`Next::Complete`] and [`Next::Continue`].
    pub fn stop(&self, next: &Next) -> Option<Failure> {
        match next {
            Next::Complete | Next::Continue => None,
            Next::IterationLimit => Some(Failure::Iterations(self.limits.max_iterations)),
            Next::TimeLimit => Some(Failure::TimeLimit(self.limits.timeout.unwrap_or_default())),
            Next::NeedInput(m) => Some(Failure::NeedsUser(match m {
                Some(q) => format!(
                    "the model needs input: {q} (answer with gem-ask --continue -t TASK or -i)"
                ),
                None => {
                    "the model needs input (answer with gem-ask --continue -t TASK or -i)".into()
                }
            })),
        }
    }
}

/// `gem-ask -t TASK`; the value is the exit code.
pub fn run(args: &Options, started: Instant) -> anyhow::Result<u8> {
    let text = args.task.as_deref().unwrap_or_default();
    if text.trim().is_empty() {
        return Err(crate::term::coded(
            super::exit::USAGE,
            "-t needs a task: gem-ask -t \"what to do\"",
        ));
    }
    let prepared = Prepared::new(args)?;
    // None: a signal arrived while stdin was still open.
    let mut binary = None;
    let context = setup::read_context(args, &mut binary)?;
    let interrupted_early = context.is_none();
    let context = context.unwrap_or_default();
    let attachments = setup::open_attachments(args, binary)?;
    let mut session = setup::resolve_session(&args.conversation)?;
    let drawn = error_drawn(args, prepared.mode);
    let base_url = prepared.base_url.clone();
    let mut task = Task::new(text, Limits::from_args(args), started);
    let mut agent = prepared.start(args, &mut session)?;
    agent.attach.add(attachments);
    agent.opts.system_extra = task.system_rules();
    agent.stats.iterations = Some(0);
    let client = if interrupted_early {
        Err(Failure::Gen(GenError::Interrupted))
    } else if let Some(m) = &session.load_error {
        Err(Failure::Session(m.clone()))
    } else {
        setup::make_client(args.ask.provider, &args.ask.model, &args.connection)
    };
    let outcome =
        client.and_then(|client| work(&mut task, &mut agent, &client, &session, args, &context));
    session.save_stop(&args.ask.model, &outcome, &task.text);
    outcome::finish(
        Closing {
            sink: agent.sink.as_mut(),
            stats: &agent.stats,
            elapsed: started.elapsed(),
            base_url: &base_url,
            error_drawn: drawn,
        },
        outcome,
    )
}

/// The rounds of a task with no one to ask, each stored once complete.
fn work(
    task: &mut Task,
    agent: &mut Agent,
    client: &Client,
    session: &SessionChoice,
    args: &Options,
    context: &str,
) -> Result<(), Failure> {
    let mut message = task.opening(false);
    let mut first = true;
    loop {
        let texts: Vec<&str> = if first && !context.trim().is_empty() {
            vec![context, &message]
        } else {
            vec![&message]
        };
        first = false;
        let round = task.round(agent, client, &texts);
        agent.stats.iterations = Some(task.iterations.into());
        let (report, next) = round?;
        session.save(&args.ask.model, &report.records)?;
        if let Some(f) = task.stop(&next) {
            return Err(f);
        }
        if next == Next::Complete {
            return Ok(());
        }
        if !task.limits.auto_continue {
            return Err(Failure::NeedsUser(
                "the task stopped after a turn without task_complete (--auto-continue off); \
                 go on with gem-ask --continue -t TASK"
                    .into(),
            ));
        }
        message = task.continuation(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Signal;

    fn limits(n: u32) -> Limits {
        Limits {
            max_iterations: n,
            max_tool_rounds: 10,
            timeout: None,
            auto_continue: true,
        }
    }

    fn report(kinds: &[&str]) -> TurnReport {
        TurnReport {
            signals: kinds
                .iter()
                .map(|k| Signal {
                    kind: k.to_string(),
                    progress: None,
                    message: Some(format!("{k} message")),
                })
                .collect(),
            ..TurnReport::default()
        }
    }

    #[test]
    fn complete_beats_need_input_and_limits_count_turns() {
        let mut t = Task::new(" write the report ", limits(2), Instant::now());
        assert_eq!(t.after(&report(&["progress"])), Next::Continue);
        assert_eq!(
            t.after(&report(&["need_input", "task_complete"])),
            Next::Complete
        );
        let mut t = Task::new("x", limits(2), Instant::now());
        assert_eq!(
            t.after(&report(&["need_input"])),
            Next::NeedInput(Some("need_input message".into()))
        );
        assert_eq!(t.after(&report(&[])), Next::IterationLimit);
        assert!(matches!(
            t.stop(&Next::IterationLimit),
            Some(Failure::Iterations(2))
        ));
    }

    #[test]
    fn a_past_deadline_stops_the_next_round() {
        let lim = Limits {
            timeout: Some(Duration::from_secs(1)),
            ..limits(10)
        };
        let mut t = Task::new("x", lim, Instant::now() - Duration::from_secs(2));
        assert_eq!(t.after(&report(&[])), Next::TimeLimit);
    }

    #[test]
    fn continuation_restates_the_task_and_carries_guidance() {
        let t = Task::new(" write the report ", limits(3), Instant::now());
        assert_eq!(
            t.continuation(None),
            "Continue. The task: write the report\nIf it is done, call signal with kind task_complete."
        );
        assert!(
            t.continuation(Some(" use CSV "))
                .ends_with("\n\nThe user says: use CSV")
        );
        assert!(t.opening(true).contains("do not call any tool yet"));
        assert!(t.system_rules().contains("at most 3 rounds"));
    }
}
