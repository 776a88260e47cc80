//! viz-parse's front: its flags and `run`.

pub use crate::parse::VizParseArgs as Args;

/// Runs viz-parse; the value is the exit code. `matches` places each
/// `--mark` beside the `-y` it follows.
pub fn run(mut args: Args, matches: &clap::ArgMatches) -> anyhow::Result<u8> {
    args.pair_marks(matches)?;
    crate::parse::run(args)
}
