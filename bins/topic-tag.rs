//! `topic-tag`: the thin binary over `gemline::topic`.

use std::process::ExitCode;

use gemline::{cli, topic};

fn main() -> ExitCode {
    let args = match cli::parse_args::<topic::Args>() {
        Ok(a) => a,
        Err(code) => return code,
    };
    cli::main_with("topic-tag", || topic::run(args))
}
