//! gem-ask's front: its flags ([`args`]), their merge with the environment
//! and the config file ([`settings`]), `--print-config`, and `run`, which
//! hands the resolved [`crate::agent::Options`] to the agent engine.

pub mod args;
pub mod memory;
pub mod settings;

use std::io::{self, Write};

pub use args::{Args, Given};
pub use settings::{Settings, Source};

use crate::agent::{exit, signals};
use crate::term::coded;

/// Runs gem-ask; the value is the exit code.
pub fn run(mut args: Args) -> anyhow::Result<u8> {
    signals::install();
    match args.command.take() {
        Some(memory::Sub::Memory(m)) => match m.action {
            Some(action) => return run_memory(&args, action),
            None if m.words.is_empty() => {
                return Err(coded(
                    exit::USAGE,
                    "gem-ask memory needs a command: add, search, list, show, forget, relate, unrelate, \
                     graph, path, export, import or reindex (gem-ask memory --help)",
                ));
            }
            // `gem-ask memory leaks in rust`: a prompt after all.
            None => {
                args.prompt = std::iter::once("memory".to_string())
                    .chain(m.words)
                    .chain(std::mem::take(&mut args.prompt))
                    .collect();
            }
        },
        None => {}
    }
    let (settings, config) =
        settings::resolve(&mut args).map_err(|e| coded(exit::USAGE, e.to_string()))?;
    if args.print_config {
        let mut out = io::stdout().lock();
        out.write_all(settings.render().as_bytes())?;
        out.flush()?;
        return Ok(exit::OK);
    }
    // GEMINI_MODEL="" is "not set", not a model called "".
    if args.model.trim().is_empty() {
        args.model = crate::provider::DEFAULT_MODEL.to_string();
    }
    let memory = memory::options(&args, &config, false);
    let mut options = args.into_options(config.tools_file());
    options.memory = memory;
    crate::agent::run(options)
}

/// `gem-ask memory ...`: the config read for the embedding model, the
/// store used whatever `--memory` says.
fn run_memory(args: &Args, action: memory::Action) -> anyhow::Result<u8> {
    let cfg = crate::config::load().map_err(|e| coded(exit::USAGE, e.to_string()))?;
    let opts = memory::options(args, &cfg, true).expect("always on");
    let mut options = args.clone().into_options(cfg.tools_file());
    options.memory = Some(opts);
    let handle = crate::agent::setup::make_memory(&options).expect("memory is on");
    memory::run(action, &handle)
}
