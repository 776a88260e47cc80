//! gem-ask: ask Gemini from the shell (see `gem-ask --help`).

use std::process::ExitCode;

use gemline_ask::app::{self, gem_ask};

fn main() -> ExitCode {
    match app::parse_matches::<gem_ask::Args>() {
        Ok((mut args, matches)) => {
            // The config fills only what was not typed.
            args.given = gem_ask::Given::from_matches(&matches);
            app::main_with("gem-ask", || gem_ask::run(args))
        }
        Err(code) => code,
    }
}
