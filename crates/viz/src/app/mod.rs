//! The programs wing: each program's front (its flags, the merge of flags,
//! environment and config into resolved options, `run`, and the mapping of
//! errors to exit codes) lives here, one folder per program; the engines
//! below take plain option structs and never see clap or the config file.
//! [`generate`] is `--generate` (man pages and completions). gem-ask's
//! front is in gemline-ask, whose `app` is this one with `gem_ask` added.

pub mod generate;
pub mod topic_tag;
pub mod viz_parse;
pub mod viz_render;

use std::io;
use std::process::ExitCode;

use crate::term::{Coded, diag, exit, is_broken_pipe};

/// The body of every `main`: runs the program, prints `prog: error: ...`
/// once, and maps the error to its exit code. A closed pipe downstream
/// (`| head`) is a quiet success, as for any Unix filter.
pub fn main_with(prog: &str, run: impl FnOnce() -> anyhow::Result<u8>) -> ExitCode {
    match run() {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let code = e
                .chain()
                .find_map(|c| c.downcast_ref::<Coded>().map(|c| c.code))
                .unwrap_or(exit::FAILURE);
            let mut msg = format!("{e}");
            for cause in e.chain().skip(1) {
                msg.push_str(&format!(": {cause}"));
            }
            diag(format!("{prog}: error: {msg}"));
            ExitCode::from(code)
        }
    }
}

/// Parses flags; help, version and `--generate` print and exit 0, usage
/// errors exit 2.
pub fn parse_args<T: clap::Parser>() -> Result<T, ExitCode> {
    parse_matches::<T>().map(|(args, _)| args)
}

/// [`parse_args`], with clap's matches too: for flags whose meaning
/// depends on where they stand (viz-parse's `-y COLUMN --mark MARK`).
pub fn parse_matches<T: clap::Parser>() -> Result<(T, clap::ArgMatches), ExitCode> {
    let report = |e: clap::Error| {
        let _ = e.print();
        ExitCode::from(if e.use_stderr() {
            exit::USAGE
        } else {
            exit::OK
        })
    };
    // `-h` one line a flag; the man page and completions keep each flag's
    // whole text.
    let mut cmd = generate::short::short_help(generate::command::<T>());
    let matches = cmd
        .try_get_matches_from_mut(std::env::args_os())
        .map_err(report)?;
    if let Some(req) = generate::request(&matches, &mut cmd).map_err(report)? {
        return Err(print_generated(req, generate::command::<T>()));
    }
    let args = T::from_arg_matches(&matches).map_err(|e| report(e.format(&mut cmd)))?;
    Ok((args, matches))
}

/// `--generate`: the page or script on stdout, exit 0; a closed pipe is
/// quiet like any other output.
fn print_generated(req: generate::Request, cmd: clap::Command) -> ExitCode {
    use std::io::Write;
    let name = cmd.get_name().to_string();
    let mut out = io::BufWriter::new(io::stdout().lock());
    match generate::write(req, cmd, &mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            diag(format!("{name}: error: cannot write: {e}"));
            ExitCode::from(exit::FAILURE)
        }
    }
}
