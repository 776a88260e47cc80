//! The one-shot mode: `gem-ask PROMPT` (with stdin as context) is one user
//! turn, one stream from `init` to `result`, and the turn appended to the
//! session once it completed.

use std::time::Instant;

use super::history::Ledger;
use super::outcome::{self, Closing, Failure, Stats};
use super::setup::{self, SessionChoice};
use super::toolbox::builtin::signal;
use super::turn::{Agent, TurnOptions, stamp};
use super::{Options, OutputMode, exit, toolbox};
use crate::events::{Event, now_rfc3339};
use crate::provider::GenError;
use crate::provider::request;
use crate::term::coded;

/// A run's setup common to the modes: the toolbox (with the MCP servers
/// that failed to start), the checked base URL, the resolved output mode.
pub struct Prepared {
    pub toolbox: toolbox::Toolbox,
    pub tool_failures: Vec<String>,
    pub base_url: String,
    pub mode: OutputMode,
    /// `--memory`: the run's memory, shared by its tools and its turns.
    pub memory: Option<std::sync::Arc<crate::memory::Handle>>,
}

impl Prepared {
    pub fn new(args: &Options) -> anyhow::Result<Prepared> {
        let memory = setup::make_memory(args.memory.as_ref(), &args.connection);
        let mut tools = args.tool_setup();
        tools.memory = memory.clone();
        let (toolbox, tool_failures) = tools
            .build()
            .map_err(|e| coded(exit::USAGE, e.to_string()))?;
        let base_url = setup::check_base_url(&args.connection)?;
        Ok(Prepared {
            toolbox,
            tool_failures,
            base_url,
            mode: setup::output_mode(&args.output, args.command_help, args.schema.is_some()),
            memory,
        })
    }

    /// The agent for `session`, its `init` event and the failed MCP
    /// servers' `error` events already written. The session's contents
    /// move into the agent (a long answer in them is not copied).
    pub fn start(self, args: &Options, session: &mut SessionChoice) -> anyhow::Result<Agent> {
        let failures = self.tool_failures.clone();
        let mut agent = self.agent(args, session);
        agent.emit(stamp(Event::init(
            &session.id,
            &args.ask.model,
            &now_rfc3339(),
        )))?;
        for f in failures {
            agent.emit(stamp(Event::error("error", &f)))?;
        }
        Ok(agent)
    }

    /// The agent for `session`, nothing written yet.
    pub fn agent(self, args: &Options, session: &mut SessionChoice) -> Agent {
        let ledger = Ledger::from_history(&session.history);
        Agent {
            sink: setup::make_sink(
                &args.output,
                args.media.graphics,
                args.command_help,
                self.mode,
            ),
            toolbox: self.toolbox,
            stats: Stats::default(),
            topic: session.history.topic.clone(),
            history: std::mem::take(&mut session.history.contents),
            opts: TurnOptions {
                thoughts: args.output.thoughts,
                thinking: args.ask.thinking,
                debug: args.debug,
                verbose: args.verbose,
                command_help: args.command_help,
                max_rounds: args.tools.max_rounds,
                base_url: self.base_url,
                system_extra: String::new(),
                max_history_tokens: args.max_history_tokens,
                one_turn: false,
                generation: args.media.generation(),
                system_user: args.ask.system.clone(),
                temperature: args.ask.temperature,
                schema: args.schema.clone(),
                schema_retry: false,
                budget: args.budget.clone(),
            },
            ledger,
            pending: Vec::new(),
            on_signal: signal::terminal_progress(),
            deadline: None,
            rounds_end_turn: false,
            attach: setup::attachments(args.ask.provider, &args.conversation),
            media_dir: args.media.dir().to_path_buf(),
            memory: self.memory.map(|h| {
                h.set_session(&session.id);
                super::turn::TurnMemory::new(h, args.verbose)
            }),
            thinking_noted: None,
        }
    }
}

/// Whether the renderer draws a failed result itself (then it is not
/// repeated on stderr).
pub fn error_drawn(args: &Options, mode: OutputMode) -> bool {
    mode == OutputMode::Text && !args.command_help
}

/// The user turn of a one-shot run: stdin's context, then the prompt
/// (`--count-tokens` counts the same content).
pub fn user_content(context: &str, prompt: &str) -> serde_json::Value {
    let texts: Vec<&str> = [context, prompt]
        .into_iter()
        .filter(|t| !t.trim().is_empty())
        .collect();
    request::user_text(&texts)
}

/// Runs one prompt; the value is the exit code.
pub fn run(args: &Options, started: Instant) -> anyhow::Result<u8> {
    let prepared = Prepared::new(args)?;
    // None: a signal arrived while stdin was still open; the run ends as
    // interrupted, with its init and result, and sends nothing.
    let mut binary = None;
    let context = setup::read_context(args, &mut binary)?;
    let interrupted_early = context.is_none();
    let context = context.unwrap_or_default();
    let attachments = setup::open_attachments(args, binary)?;
    let mut prompt = args.prompt.join(" ");
    if !interrupted_early
        && prompt.trim().is_empty()
        && context.trim().is_empty()
        && attachments.is_empty()
    {
        return Err(coded(
            exit::USAGE,
            "no prompt: give it as arguments or pipe text on stdin (see --help)",
        ));
    }
    if args.command_help {
        prompt = format!("Provide the Linux command for: {prompt}");
    }
    let mut session = setup::resolve_session(&args.conversation)?;
    let error_drawn = error_drawn(args, prepared.mode);
    let base_url = prepared.base_url.clone();
    let mut agent = prepared.start(args, &mut session)?;
    // A schema's retry shows the model its first answer.
    agent.opts.one_turn = args.schema.is_none();
    agent.attach.add(attachments);
    if !prompt.trim().is_empty() {
        agent.emit(stamp(Event::message("user", &prompt, false)))?;
    }

    let client = if interrupted_early {
        Err(Failure::Gen(GenError::Interrupted))
    } else if let Some(m) = &session.load_error {
        Err(Failure::Session(m.clone()))
    } else {
        setup::make_client(args.ask.provider, &args.ask.model, &args.connection)
    };
    let outcome = client.and_then(|client| {
        let user = user_content(&context, &prompt);
        let report = match &args.schema {
            Some(schema) => super::schema_turn::turn(&mut agent, &client, user, schema)?,
            None => agent.turn(&client, user)?,
        };
        session.save(&args.ask.model, &report.records)
    });
    session.save_stop(&args.ask.model, &outcome, &prompt);
    outcome::finish(
        Closing {
            sink: agent.sink.as_mut(),
            stats: &agent.stats,
            elapsed: started.elapsed(),
            base_url: &base_url,
            error_drawn,
        },
        outcome,
    )
}
