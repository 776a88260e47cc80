//! gem-ask's front: its flags ([`args`]; the attachment and media flags in
//! [`media`]), their merge with the environment and the config file
//! ([`settings`]), the role, templates, system prompt, context files and
//! schema ([`prompting`]), `--print-config`, and `run`,
//! which hands the resolved [`crate::agent::Options`] to the agent engine.

pub mod args;
pub mod media;
pub mod prompting;
pub mod settings;

use std::io::{self, Write};

pub use args::{Args, Given};
pub use settings::{Settings, Source};

use crate::agent::{exit, signals};
use crate::term::coded;

/// Runs gem-ask; the value is the exit code.
pub fn run(mut args: Args) -> anyhow::Result<u8> {
    signals::install();
    let (mut settings, config) =
        settings::resolve(&mut args).map_err(|e| coded(exit::USAGE, e.to_string()))?;
    let prompting = prompting::resolve(&mut args, &config, &prompting::Places::of_process())
        .map_err(|e| coded(e.code(), e.to_string()))?;
    if prompting.model_from_role {
        settings.model = settings::Setting {
            value: args.model.clone(),
            source: Source::Flag("--role"),
        };
    }
    if args.print_config {
        let mut out = io::stdout().lock();
        out.write_all(settings.render().as_bytes())?;
        out.write_all(prompting.render(args.temperature).as_bytes())?;
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
    options.system = prompting.system;
    options.schema = prompting.schema.map(std::sync::Arc::new);
    crate::agent::run(options)
}
