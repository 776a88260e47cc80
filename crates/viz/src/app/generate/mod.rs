//! Shell integration shared by the four programs: the `--generate` flag
//! (`completions bash|zsh|fish|powershell`, `man`), the pages and
//! completion scripts it prints, and the list of every generated file the
//! repository carries (`man/`, `completions/`), which
//! `tests/it/docs_current.rs` keeps current. The flag is added to each
//! program's clap command here rather than in each argument struct, so the
//! programs, their man pages and their completions all see one definition.

pub mod roff;
pub mod short;

use std::io::{self, Write};

use clap::{Arg, ArgMatches, Command, CommandFactory};
use clap_complete::Shell;

/// The argument id of `--generate`.
pub const ID: &str = "generate";

const SHELLS: [&str; 4] = ["bash", "zsh", "fish", "powershell"];

/// What `--generate` asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    Completions(Shell),
    Man,
}

/// The `--generate WHAT [SHELL]` argument. Exclusive: it prints and exits,
/// so no other flag means anything next to it.
pub fn arg() -> Arg {
    let mut values = vec!["completions", "man"];
    values.extend(SHELLS);
    Arg::new(ID)
        .long(ID)
        .num_args(1..=2)
        .value_names(["WHAT", "SHELL"])
        .value_parser(clap::builder::PossibleValuesParser::new(values))
        .hide_possible_values(true)
        .exclusive(true)
        .help_heading("Print, then exit")
        .help(
            "Print this program's completions for a shell (completions bash|zsh|fish|powershell) \
             or its man page (man), then exit",
        )
}

/// A program's full command: its own flags plus `--generate`. Parsing, the
/// man page and the completions all start from this.
pub fn command<T: CommandFactory>() -> Command {
    T::command().arg(arg())
}

/// The request in parsed matches, if any; a wrong combination is a usage
/// error in clap's own format (exit 2).
pub fn request(matches: &ArgMatches, cmd: &mut Command) -> Result<Option<Request>, clap::Error> {
    let Some(values) = matches.get_many::<String>(ID) else {
        return Ok(None);
    };
    let values: Vec<&str> = values.map(String::as_str).collect();
    match values.as_slice() {
        ["man"] => Ok(Some(Request::Man)),
        ["completions", shell] => match shell.parse::<Shell>() {
            Ok(s) if SHELLS.contains(shell) => Ok(Some(Request::Completions(s))),
            _ => Err(usage(cmd, &values)),
        },
        _ => Err(usage(cmd, &values)),
    }
}

fn usage(cmd: &mut Command, values: &[&str]) -> clap::Error {
    cmd.error(
        clap::error::ErrorKind::InvalidValue,
        format!(
            "--generate {}: expected `completions {}` or `man`",
            values.join(" "),
            SHELLS.join("|")
        ),
    )
}

/// Writes what was asked for to `out`.
pub fn write(req: Request, mut cmd: Command, out: &mut dyn Write) -> io::Result<()> {
    match req {
        Request::Man => clap_mangen::Man::new(cmd).render(out),
        Request::Completions(shell) => {
            let name = cmd.get_name().to_string();
            clap_complete::generate(shell, &mut cmd, name, out);
            Ok(())
        }
    }
}

/// The event stream's page, from docs/events.md.
pub fn events_page(markdown: &str) -> String {
    roff::page(
        &roff::Title {
            name: "gemline-events",
            section: "5",
            source: concat!("gemline ", env!("CARGO_PKG_VERSION")),
            manual: "File Formats",
            summary: "the JSON-lines event stream of gem-ask, viz-parse, viz-render and topic-tag",
        },
        markdown,
        &[
            "gem-ask(1)",
            "viz-parse(1)",
            "viz-render(1)",
            "topic-tag(1)",
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Option<Request>, clap::Error> {
        let mut cmd = command::<crate::app::topic_tag::Args>();
        let m = cmd.clone().try_get_matches_from(args)?;
        request(&m, &mut cmd)
    }

    #[test]
    fn requests_parse_and_bad_ones_are_usage_errors() {
        assert_eq!(
            parse(&["t", "--generate", "man"]).unwrap(),
            Some(Request::Man)
        );
        assert_eq!(
            parse(&["t", "--generate", "completions", "fish"]).unwrap(),
            Some(Request::Completions(Shell::Fish))
        );
        assert_eq!(parse(&["t"]).unwrap(), None);
        for bad in [
            &["t", "--generate", "completions"][..],
            &["t", "--generate", "man", "bash"],
            &["t", "--generate", "bash"],
            &["t", "--generate", "completions", "man"],
            &["t", "--generate", "completions", "tcsh"],
            &["t", "--generate", "man", "--strict"],
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.use_stderr(), "{bad:?}");
        }
    }
}
