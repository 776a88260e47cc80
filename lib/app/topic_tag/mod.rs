//! topic-tag's front: its flags ([`args`]) and `run`.

pub mod args;

pub use args::{Args, SummaryMode};

/// Runs topic-tag; the value is the exit code.
pub fn run(args: Args) -> anyhow::Result<u8> {
    crate::topic::run(args)
}
