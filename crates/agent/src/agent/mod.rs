//! gem-ask: Gemini from the shell, as an agent with tools.
//!
//! A run sets up from its [`Options`] ([`setup`]), opens its stream with
//! `init`, runs its mode ([`oneshot`], [`task`], the interactive [`repl`]) on the shared turn loop ([`turn`]),
//! and closes with exactly one `result` ([`outcome`]), on success, on any
//! failure, and on SIGINT/SIGTERM; the exit code tells the failures apart
//! ([`exit`]). Tools and their consent live in [`toolbox`]; files sent with
//! a prompt in [`attach`], images and speech the model answers with in
//! [`media`], answers given as data in [`schema`] (with their turn in
//! [`schema_turn`]), and the runs that ask the provider rather than the
//! model (`--list-models`, `--count-tokens`) in [`discover`]; the
//! memories a turn carries (`--memory`) are found in [`recall`].

pub mod attach;
pub mod budget;
mod compact;
pub mod discover;
pub mod environ;
pub mod history;
pub mod keys;
pub mod map;
pub mod media;
pub mod oneshot;
pub mod options;
pub mod outcome;
pub mod price;
pub mod recall;
pub mod repl;
pub mod schema;
pub mod schema_turn;
pub mod setup;
pub mod signals;
pub mod sink;
pub mod task;
mod tool_stats;
pub mod toolbox;
pub mod turn;

use std::io;
use std::time::Instant;

pub use options::{Options, OutputMode};
pub use setup::MAX_CONTEXT;
pub use sink::{CommandSink, EventSink, JsonlSink, RenderSink};
pub use toolbox::Signal;
pub use turn::{Agent, TurnOptions, TurnReport};

use crate::term::coded;

/// gem-ask's exit codes (also in the man page, `HELP_TAIL`).
pub mod exit {
    pub use crate::term::exit::{DATA, FAILURE, NO_INPUT, OK, USAGE};
    pub const NO_API_KEY: u8 = 3;
    pub const API: u8 = 4;
    pub const BLOCKED: u8 = 5;
    /// Task mode stopped at `--max-iterations`.
    pub const TASK_ITERATIONS: u8 = 6;
    /// Task mode stopped at `--task-timeout`.
    pub const TASK_TIMEOUT: u8 = 7;
    /// Task mode stopped for the user (need_input, `--auto-continue off`).
    pub const TASK_NEEDS_INPUT: u8 = 8;
    /// The server does not serve the model (retired, or a wrong name).
    pub const MODEL_GONE: u8 = 9;
    /// A cap of `--max-requests` / `--max-tokens` / `--max-cost` stopped the run (`budget`).
    pub const BUDGET: u8 = 11;
    pub const INTERRUPTED: u8 = 130;
    pub const TERMINATED: u8 = 143;
}

/// Runs gem-ask with its resolved options; the value is the exit code.
/// Errors returned carry their code (`term::Coded`) and are printed once
/// by `app::main_with`. The caller has installed the signal handlers
/// ([`signals::install`]).
pub fn run(args: Options) -> anyhow::Result<u8> {
    let started = Instant::now();
    if args.tools.list {
        return list_tools(&args);
    }
    if args.list_models {
        return discover::list_models(&args);
    }
    if args.count_tokens {
        return discover::count_tokens(&args);
    }
    if args.interactive {
        return repl::run(&args, started);
    }
    if args.task.is_some() {
        return task::run(&args, started);
    }
    oneshot::run(&args, started)
}

/// `--list-tools`: starts the configured MCP servers, prints every tool
/// and each server's status on stdout, exits 0.
fn list_tools(args: &Options) -> anyhow::Result<u8> {
    use std::io::Write;
    let mut setup = args.tool_setup();
    setup.memory = setup::make_memory(args.memory.as_ref(), &args.connection);
    let (toolbox, _) = setup
        .build()
        .map_err(|e| coded(exit::USAGE, e.to_string()))?;
    let text = toolbox::format_tool_list(&toolbox.list());
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(exit::OK)
}
