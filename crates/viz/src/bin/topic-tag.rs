//! `topic-tag`: the thin binary over `gemline_viz::app::topic_tag`.

use std::process::ExitCode;

use gemline_viz::app::{self, topic_tag};

fn main() -> ExitCode {
    match app::parse_args::<topic_tag::Args>() {
        Ok(args) => app::main_with("topic-tag", || topic_tag::run(args)),
        Err(code) => code,
    }
}
