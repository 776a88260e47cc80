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
pub mod sessions;
pub mod status;
pub mod term;

use std::time::Instant;

use autocontinue::{After, AutoContinue, CONTINUE};
use commands::Line;
use editor::{Editor, Input};
use status::{Mode, State, Status};
use term::Term;

use super::oneshot::Prepared;
use super::outcome;
use super::setup::{self, redact_key};
use super::turn::{Agent, TurnReport, stamp};
use super::{Args, OutputMode, exit, signals};
use crate::cli::coded;
use crate::events::{Event, now_rfc3339};
use crate::gemini::Client;
use crate::gemini::request;
use crate::gemini::transport::scrub_url;

/// Runs the interactive session; the value is the exit code.
pub fn run(args: &Args, started: Instant) -> anyhow::Result<u8> {
    let prepared = Prepared::new(args)?;
    let term = Term::open(
        args.color,
        args.width.map(usize::from),
        args.ascii,
        args.unicode,
    );
    // With a terminal to type on, piped stdin is context for the first
    // question; without one, stdin is where the questions come from.
    let context = if term.is_terminal() {
        match setup::read_context(args)? {
            Some(c) => c,
            None => return Ok(exit::INTERRUPTED),
        }
    } else {
        String::new()
    };
    let choice = setup::resolve_session(args)?;
    if let Some(m) = &choice.load_error {
        return Err(coded(exit::FAILURE, m.clone()));
    }
    let text_mode = prepared.mode == OutputMode::Text;
    let base_url = prepared.base_url.clone();
    let agent = prepared.start(args, &choice)?;
    let history = match args.no_history {
        true => None,
        false => editor::history_path().ok(),
    };
    let mut repl = Repl {
        current: sessions::Current::from_choice(&choice, args.no_history),
        args: args.clone(),
        agent,
        client: None,
        term,
        editor: Editor::open(history)?,
        auto: AutoContinue::new(args.auto_continue, args.max_consecutive_turns),
        mode: Mode::Chat,
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
    Done(TurnReport),
    /// Failed or interrupted; the result event said so.
    Failed,
    /// SIGTERM: the session ends.
    Terminated,
}

struct Repl {
    args: Args,
    agent: Agent,
    /// Made at the first question (and again after `/model`), so a missing
    /// key is said in the stream of that turn, not before the prompt.
    client: Option<Client>,
    current: sessions::Current,
    term: Term,
    editor: Editor,
    auto: AutoContinue,
    mode: Mode,
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
        if !first.trim().is_empty()
            && let Flow::Exit(code) = self.converse(&first)?
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
                    Line::Prompt(p) => self.converse(&p)?,
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

    fn show(&mut self, state: State) {
        let s = Status {
            mode: self.mode,
            model: self.args.model.clone(),
            chapter: self.agent.topic.clone(),
            state,
        };
        self.term.status(&s);
    }

    /// A question and the turns the model then takes on its own.
    fn converse(&mut self, prompt: &str) -> anyhow::Result<Flow> {
        let mut turn = self.ask(prompt, false)?;
        let mut streak = 0;
        loop {
            let report = match turn {
                Turn::Done(r) => r,
                Turn::Failed => return Ok(Flow::Go),
                Turn::Terminated => return Ok(Flow::Exit(exit::TERMINATED)),
            };
            match self.auto.next(streak, &report) {
                After::Wait(note) => {
                    if let Some(n) = note {
                        self.term.note(&n);
                    }
                    return Ok(Flow::Go);
                }
                After::Continue(n) => {
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
                    turn = self.ask(CONTINUE, true)?;
                }
            }
        }
    }

    /// One user turn: sent, answered into the sink, stored when complete,
    /// closed by its `result` event.
    fn ask(&mut self, text: &str, on_its_own: bool) -> anyhow::Result<Turn> {
        // What the user typed is on the screen already; a turn the model
        // takes on its own is shown.
        if !self.text_mode || on_its_own {
            self.agent
                .emit(stamp(Event::message("user", text, false)))?;
        }
        self.result_due = true;
        let context = self.context.take();
        let texts: Vec<&str> = context
            .iter()
            .map(String::as_str)
            .chain([text])
            .filter(|t| !t.trim().is_empty())
            .collect();
        let user = request::user_text(&texts);
        let client = match self.client.take() {
            Some(c) => Ok(c),
            None => setup::make_client(&self.args),
        };
        let outcome = match client {
            Ok(c) => {
                let r = self.agent.turn(&c, user);
                self.client = Some(c);
                r
            }
            Err(f) => Err(f),
        };
        let (turn, error) = match outcome {
            Ok(report) => {
                let saved = self.current.save_turn(&self.args.model, &report.records);
                (
                    Turn::Done(report),
                    saved.err().map(|m| ("session_error", m)),
                )
            }
            Err(f) => {
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
                    Turn::Done(_) => Turn::Failed,
                    t => t,
                }
            }
            None => turn,
        })
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
        let e = Event::init(&self.current.id, &self.args.model, &now_rfc3339());
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
