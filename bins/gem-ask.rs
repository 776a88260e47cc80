//! gem-ask: ask Gemini from the shell (see `gem-ask --help`).

use std::process::ExitCode;

use gemline::agent::{self, Args};
use gemline::cli;

fn main() -> ExitCode {
    let args = match cli::parse_matches::<Args>() {
        Ok((mut a, matches)) => {
            // The config fills only what was not typed.
            a.given = gemline::config::Given::from_matches(&matches);
            a
        }
        Err(code) => return code,
    };
    cli::main_with("gem-ask", || agent::run(args))
}
