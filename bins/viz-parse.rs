//! viz-parse: data in, `visualization` events out. All logic lives in
//! `gemline::parse`; see `viz-parse --help` or `man viz-parse`.

use std::process::ExitCode;

use gemline::cli;
use gemline::parse::{self, VizParseArgs};

fn main() -> ExitCode {
    match cli::parse_matches::<VizParseArgs>() {
        Ok((mut args, matches)) => cli::main_with("viz-parse", || {
            args.pair_marks(&matches)?;
            parse::run(args)
        }),
        Err(code) => code,
    }
}
