//! topic-tag's front: its flags ([`args`]), the regexes they name compiled
//! (a bad one is a usage error), and `run`, which hands the resolved
//! options to the topic engine.

pub mod args;

use std::time::Duration;

use regex::Regex;

pub use args::Args;

use crate::term::{coded, exit};
use crate::topic::{self, StreamOptions};

/// Runs topic-tag; the value is the exit code.
pub fn run(args: Args) -> anyhow::Result<u8> {
    if args.current {
        let dir = gemline_core::session::sessions_dir();
        return topic::print_current(args.session.as_deref(), dir);
    }
    if !args.title.is_empty() {
        return topic::print_title(&args.title.join(" "));
    }
    topic::run_stream(StreamOptions {
        inputs: args.input,
        wrap: args.wrap,
        split: regex("--split", args.split.as_deref())?,
        error: regex("--error", args.error.as_deref())?,
        strict: args.strict,
        summary: args.summary,
        hold: Duration::from_millis(args.hold_ms),
    })
}

/// A regex flag, compiled; a bad one is exit 2 naming the flag.
fn regex(flag: &str, re: Option<&str>) -> anyhow::Result<Option<Regex>> {
    re.map(|re| {
        Regex::new(re).map_err(|e| coded(exit::USAGE, format!("bad {flag} regex {re:?}: {e}")))
    })
    .transpose()
}
