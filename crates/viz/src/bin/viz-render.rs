//! `viz-render`: draws a JSON-lines event stream in the terminal. All the
//! work is in `gemline_render`; this only parses flags and maps errors.

use std::process::ExitCode;

use gemline_viz::app::{self, viz_render};

fn main() -> ExitCode {
    match app::parse_args::<viz_render::Args>() {
        Ok(args) => app::main_with("viz-render", || viz_render::run(args)),
        Err(code) => code,
    }
}
