//! gem-ask's front: its flags ([`args`]), their merge with the environment
//! and the config file ([`settings`]), `--print-config`, and `run`, which
//! hands the resolved [`crate::agent::Options`] to the agent engine.

pub mod args;
pub mod media;
pub mod settings;

use std::io::{self, Write};

pub use args::{Args, Given};
pub use settings::{Settings, Source};

use crate::agent::{exit, signals};
use crate::term::coded;

/// Runs gem-ask; the value is the exit code.
pub fn run(mut args: Args) -> anyhow::Result<u8> {
    signals::install();
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
    let mut options = args.into_options(config.tools_file());
    options.config_dir = settings
        .config_path
        .as_ref()
        .and_then(|p| Some(p.parent()?.to_path_buf()));
    crate::agent::run(options)
}
