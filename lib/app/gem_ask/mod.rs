//! gem-ask's front: its flags ([`args`]), their merge with the environment
//! and the config file ([`settings`]), and `run`, which hands the resolved
//! options to the agent engine.

pub mod args;
pub mod settings;

pub use args::Args;
pub use settings::{Given, Settings, Source};

/// Runs gem-ask; the value is the exit code.
pub fn run(args: Args) -> anyhow::Result<u8> {
    crate::agent::run(args)
}
