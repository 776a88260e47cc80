//! `viz-render`: draws a JSON-lines event stream in the terminal. All the
//! work is in `gemline::render`; this only parses flags and maps errors.

use std::process::ExitCode;

use gemline::cli;
use gemline::render::{self, VizRenderArgs};

fn main() -> ExitCode {
    match cli::parse_args::<VizRenderArgs>() {
        Ok(args) => cli::main_with("viz-render", || render::run(args)),
        Err(code) => code,
    }
}
