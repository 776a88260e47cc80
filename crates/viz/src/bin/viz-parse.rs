//! viz-parse: data in, `visualization` events out. All logic lives in
//! `gemline_parse`; see `viz-parse --help` or `man viz-parse`.

use std::process::ExitCode;

use gemline_viz::app::{self, viz_parse};

fn main() -> ExitCode {
    match app::parse_matches::<viz_parse::Args>() {
        Ok((args, matches)) => app::main_with("viz-parse", || viz_parse::run(args, &matches)),
        Err(code) => code,
    }
}
