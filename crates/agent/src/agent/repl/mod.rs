//! `gem-ask -i`: the interactive session. A prompt with line editing and
//! input history ([`editor`]) reads questions and slash commands
//! ([`commands`]); each question is one user turn on the shared turn loop,
//! so the conversation carries across turns and answers, charts and
//! chapters are drawn inline by the same renderer as the one-shot mode.
//! After an answer the model may go on by itself ([`autocontinue`]); a
//! status line says who has the turn ([`status`]). Everything meant for
//! the user alone (prompt, status, command output) goes to the terminal
//! ([`term`]), so with stdout in a pipe the pipe gets only the event
//! stream, each turn closed by its `result`.
//!
//! Ctrl-C during an answer stops that answer (the turn ends as
//! interrupted and is not stored); at the prompt it drops the line.
//! Ctrl-D or `/quit` leaves with 0; SIGTERM ends the session with 143.

pub mod autocontinue;
pub mod commands;
pub mod editor;
mod memory;
pub mod sessions;
pub mod status;
mod tasking;
pub mod term;

use std::time::Instant;

use autocontinue::{After, AutoContinue, CONTINUE};
use commands::Line;
use editor::{Editor, Input};
use status::{Mode, State, Status};
use term::Term;

use super::keys::redact_key;
use super::oneshot::Prepared;
use super::outcome::{self, Failure};
use super::setup;
use super::task::{Limits, Next, Task};
use super::turn::{Agent, TurnReport, stamp};
use super::{Options, OutputMode, exit, signals};
use crate::events::{Event, now_rfc3339};
use crate::provider::Client;
use crate::provider::request;
use crate::provider::transport::scrub_url;
use crate::term::coded;

/// Runs the interactive session; the value is the exit code.
pub fn run(args: &Options, started: Instant) -> anyhow::Result<u8> {
    if args.task.as_deref().is_some_and(|t| t.trim().is_empty()) {
        return Err(coded(
            exit::USAGE,
            "-t needs a task: gem-ask -i -t \"what to do\"",
        ));
    }
    let prepared = Prepared::new(args)?;
    let term = Term::open(
        args.output.color,
        args.output.width.map(usize::from),
        args.output.ascii,
        args.output.unicode,
    );
    // With a terminal to type on, piped stdin is context for the first
    // question; without one, stdin is where the questions come from.
    let mut binary = None;
    let context = if term.is_terminal() {
        match setup::read_context(args, &mut binary)? {
            Some(c) => c,
            None => return Ok(exit::INTERRUPTED),
        }
    } else {
        String::new()
    };
    let attachments = setup::open_attachments(args, binary)?;
    let mut choice = setup::resolve_session(&args.conversation)?;
    if let Some(m) = &choice.load_error {
        return Err(coded(exit::FAILURE, m.clone()));
    }
    let text_mode = prepared.mode == OutputMode::Text;
    let base_url = prepared.base_url.clone();
    let mut agent = prepared.start(args, &mut choice)?;
    agent.attach.add(attachments);
    let task = args
        .task
        .as_deref()
        .map(|t| Task::new(t, Limits::from_args(args), started));
    agent.opts.system_extra = tasking::system_rules(task.as_ref());
    if task.is_some() {
        agent.stats.iterations = Some(0);
    }
    let history = match args.conversation.no_history {
        true => None,
        false => editor::history_path().ok(),
    };
    let mut repl = Repl {
        current: sessions::Current::from_choice(&choice, args.conversation.no_history),
        args: args.clone(),
        agent,
        client: None,
        term,
        editor: Editor::open(history)?,
        auto: AutoContinue::new(args.auto_continue, args.max_consecutive_turns),
        task,
        text_mode,
        started,
        base_url,
        context: Some(context).filter(|c| !c.trim().is_empty()),
        result_due: true,
    };
    repl.main(args.prompt.join(" "))
}

fn terminated() -> bool {
    signals::received() == Some(libc::SIGTERM)
}

/// What the loop does next.
enum Flow {
    Go,
    Exit(u8),
}

/// How a turn ended.
enum Turn {
    /// Complete; in a task, with what the task does next.
    Done(TurnReport, Option<Next>),
    /// Failed or interrupted; the result event said so.
    Failed,
    /// SIGTERM: the session ends.
    Terminated,
}

/// What a turn sends.
enum Message {
    /// A question typed by the user, or "Continue." (`on_its_own`).
    Chat { text: String, on_its_own: bool },
    /// A round of the task (`-i -t`): its plan, the user's guidance, or
    /// going on by itself.
    Task(String),
}

struct Repl {
    args: Options,
    agent: Agent,
    /// Made at the first question (and again after `/model`), so a missing
    /// key is said in the stream of that turn, not before the prompt.
    client: Option<Client>,
    current: sessions::Current,
    term: Term,
    editor: Editor,
    auto: AutoContinue,
    /// `-i -t`: the task while it runs.
    task: Option<Task>,
    /// stdout is drawn for a person (the prompt shares its terminal).
    text_mode: bool,
    started: Instant,
    base_url: String,
    /// Piped stdin, sent with the first question.
    context: Option<String>,
    /// Events were written since the last `result`: one is owed at the end.
    result_due: bool,
}

impl Repl {
    fn main(&mut self, first: String) -> anyhow::Result<u8> {
        if let Some(c) = &self.context {
            self.term.note(&format!(
                "stdin ({} bytes) goes with your first question",
                c.len()
            ));
        }
        let opening = match &self.task {
            Some(t) => Some(Message::Task(t.opening(true))),
            None if !first.trim().is_empty() => Some(Message::Chat {
                text: first,
                on_its_own: false,
            }),
            None => None,
        };
        let plan_first = self.task.is_some();
        if let Some(m) = opening
            && let Flow::Exit(code) = self.drive(m, !plan_first)?
        {
            return self.close(code);
        }
        loop {
            self.show(State::Waiting);
            let mode = self.term.mode();
            let prompt = self.prompt();
            let input = self.editor.read(prompt, terminated)?;
            let flow = match input {
                Input::Stopped => {
                    self.term.restore(mode);
                    Flow::Exit(exit::TERMINATED)
                }
                _ if terminated() => Flow::Exit(exit::TERMINATED),
                Input::End => Flow::Exit(exit::OK),
                Input::Cancelled => {
                    self.term.note("(Ctrl-D or /quit leaves)");
                    Flow::Go
                }
                Input::Line(l) => match commands::parse(&l) {
                    Line::Empty => Flow::Go,
                    Line::Invalid(m) => {
                        self.term.warn(&m);
                        Flow::Go
                    }
                    Line::Command(c) => self.command(c)?,
                    Line::Prompt(p) => {
                        let m = match &self.task {
                            Some(t) => Message::Task(t.continuation(Some(&p))),
                            None => Message::Chat {
                                text: p,
                                on_its_own: false,
                            },
                        };
                        self.drive(m, true)?
                    }
                },
            };
            if let Flow::Exit(code) = flow {
                return self.close(code);
            }
        }
    }

    fn prompt(&self) -> &'static str {
        if self.term.unicode() { "› " } else { "> " }
    }

    fn mode(&self) -> Mode {
        if self.task.is_some() {
            Mode::ChatTask
        } else {
            Mode::Chat
        }
    }

    fn show(&mut self, state: State) {
        let s = Status {
            mode: self.mode(),
            model: self.args.ask.model.clone(),
            chapter: self.agent.topic.clone(),
            memory: self
                .agent
                .memory
                .as_ref()
                .map(|m| m.used.clone())
                .unwrap_or_default(),
            cached: Some(self.agent.stats.usage)
                .filter(|u| u.cached > 0)
                .and_then(|u| u.cached_percent()),
            cost: status::cost_label(self.agent.stats.cost_usd),
            state,
        };
        self.term.status(&s);
    }

    /// A turn and those the model then takes on its own (none when
    /// `may_continue` is false: a task's plan waits for the user).
    fn drive(&mut self, first: Message, may_continue: bool) -> anyhow::Result<Flow> {
        let mut turn = self.ask(first)?;
        let mut streak = 0;
        loop {
            let after = match turn {
                Turn::Done(report, next) => self.after(&report, next, streak),
                Turn::Failed => return Ok(Flow::Go),
                Turn::Terminated => return Ok(Flow::Exit(exit::TERMINATED)),
            };
            match after {
                After::Continue(n) if may_continue => {
                    if self.term.typed_ahead() {
                        self.term
                            .note("auto-continue stopped: you typed a line; waiting for you");
                        return Ok(Flow::Go);
                    }
                    streak = n;
                    self.show(State::Continuing {
                        n,
                        max: self.auto.max,
                    });
                    let m = match &self.task {
                        Some(t) => Message::Task(t.continuation(None)),
                        None => Message::Chat {
                            text: CONTINUE.into(),
                            on_its_own: true,
                        },
                    };
                    turn = self.ask(m)?;
                }
                After::Continue(_) => {
                    self.term
                        .note("the plan is above: type go, or what to change, to start the work");
                    return Ok(Flow::Go);
                }
                After::Wait(note) => {
                    if let Some(n) = note {
                        self.term.note(&n);
                    }
                    return Ok(Flow::Go);
                }
            }
        }
    }

    /// What follows a complete turn: the task's verdict first, then the
    /// auto-continue rule.
    fn after(&mut self, report: &TurnReport, next: Option<Next>, streak: u32) -> After {
        match next.map(|n| self.task_after(n)) {
            Some(Some(wait)) => wait,
            _ => self.auto.next(streak, report),
        }
    }

    /// One user turn: sent, answered into the sink, stored when complete,
    /// closed by its `result` event.
    fn ask(&mut self, message: Message) -> anyhow::Result<Turn> {
        self.result_due = true;
        let context = self.context.take();
        let prompt = match &message {
            Message::Chat { text, .. } | Message::Task(text) => text.clone(),
        };
        let client = match self.client.take() {
            Some(c) => Ok(c),
            None => setup::make_client(
                self.args.ask.provider,
                &self.args.ask.model,
                &self.args.connection,
            ),
        };
        let outcome = match client {
            Ok(c) => {
                let r = self.send(&c, message, context.as_deref());
                self.client = Some(c);
                r
            }
            Err(f) => Err(f),
        };
        let (turn, error) = match outcome {
            Ok((report, next)) => {
                let saved = self
                    .current
                    .save_turn(&self.args.ask.model, &report.records);
                (
                    Turn::Done(report, next),
                    saved.err().map(|e| ("session_error", e.to_string())),
                )
            }
            Err(f) => {
                self.task_failed(&f);
                // Kept so the log finds the stopped turn; a failure to keep
                // it does not end the session.
                if let Some(r) = setup::stop_record(&f, &prompt) {
                    let _ = self.current.save_turn(&self.args.ask.model, &[r]);
                }
                let v = outcome::verdict(f)?;
                (Turn::Failed, v.error)
            }
        };
        self.close_turn(error)?;
        Ok(match signals::received() {
            Some(libc::SIGTERM) => Turn::Terminated,
            Some(_) => {
                // Ctrl-C stopped this answer, not the session.
                signals::rearm();
                self.term.note("interrupted; waiting for you");
                match turn {
                    // It arrived after the answer was complete: the turn
                    // is kept, but nothing more runs on its own.
                    Turn::Done(..) => Turn::Failed,
                    t => t,
                }
            }
            None => turn,
        })
    }

    /// Runs the turn of `message`, with piped stdin before it the first time.
    fn send(
        &mut self,
        client: &Client,
        message: Message,
        context: Option<&str>,
    ) -> Result<(TurnReport, Option<Next>), Failure> {
        let text = match &message {
            Message::Chat { text, .. } | Message::Task(text) => text.as_str(),
        };
        let texts: Vec<&str> = context
            .into_iter()
            .chain([text])
            .filter(|t| !t.trim().is_empty())
            .collect();
        match &message {
            Message::Chat { on_its_own, .. } => {
                if let Some(m) = self.agent.memory.as_mut() {
                    m.keep_next = *on_its_own;
                }
                // What the user typed is on the screen already; a turn the
                // model takes on its own is shown.
                if !self.text_mode || *on_its_own {
                    self.agent
                        .emit(stamp(Event::message("user", text, false)))?;
                }
                let report = self.agent.turn(client, request::user_text(&texts))?;
                Ok((report, None))
            }
            Message::Task(_) => self.task_round(client, &texts),
        }
    }

    /// Writes the turn's `result` (the session's totals so far).
    fn close_turn(&mut self, error: Option<(&str, String)>) -> anyhow::Result<()> {
        let error = error.map(|(kind, m)| (kind, redact_key(&scrub_url(&m, &self.base_url))));
        if let Some((_, m)) = &error
            && !self.text_mode
        {
            // The renderer draws it on a terminal; into a pipe, the user
            // would not see it.
            self.term.warn(m);
        }
        let e = outcome::result_event(&self.agent.stats, self.started.elapsed(), error.as_ref());
        self.agent.sink.emit(&e)?;
        self.agent.sink.finish()?;
        self.result_due = false;
        Ok(())
    }

    /// Writes `init` again: the session or the model changed.
    fn announce(&mut self) -> anyhow::Result<()> {
        let e = Event::init(&self.current.id, &self.args.ask.model, &now_rfc3339());
        self.agent.emit(stamp(e))?;
        self.result_due = true;
        Ok(())
    }

    /// Ends the stream with its `result` if one is owed.
    fn close(&mut self, code: u8) -> anyhow::Result<u8> {
        if self.result_due {
            let error = (code == exit::TERMINATED).then(|| {
                (
                    "interrupted",
                    format!("interrupted by {}", signals::name(libc::SIGTERM)),
                )
            });
            self.close_turn(error)?;
        }
        Ok(code)
    }
}
