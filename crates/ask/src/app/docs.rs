//! The programs' generated files: the list of the four programs (their
//! clap commands with `--generate`), and every man page and completion
//! script the repository carries (`man/`, `completions/`), which
//! `tests/it/docs_current.rs` keeps current. It sits beside gem-ask's front
//! because it names all four programs; the mechanism (`--generate`, the
//! roff writer) is `generate`, in gemline-viz.

use std::path::PathBuf;

use clap::Command;
use clap_complete::Shell;

#[cfg(test)]
use super::generate::ID;
use super::generate::{Request, command, events_page, write};

/// The four programs' commands, as their binaries parse them.
pub fn programs() -> Vec<Command> {
    vec![
        command::<super::gem_ask::Args>(),
        command::<super::viz_parse::Args>(),
        command::<super::viz_render::Args>(),
        command::<super::topic_tag::Args>(),
    ]
}

/// A page for each subcommand of `cmd` (and theirs), named as git names
/// its own: `gem-ask-memory`, `gem-ask-memory-add`, ...
fn subcommand_pages(cmd: &Command, prefix: &str, files: &mut Vec<(PathBuf, Vec<u8>)>) {
    for sub in cmd.get_subcommands() {
        let name = format!("{prefix}-{}", sub.get_name());
        let mut page = Vec::new();
        // clap names are 'static; these few live as long as the program.
        let named: &'static str = Box::leak(name.clone().into_boxed_str());
        write(Request::Man, sub.clone().name(named), &mut page).expect("writing to memory");
        files.push((PathBuf::from(format!("man/{name}.1")), page));
        subcommand_pages(sub, &name, files);
    }
}

/// Every generated file of the repository, relative to its root, with its
/// contents: a man page per program (and per subcommand), the event
/// stream's page, and the completion scripts `make install` puts where
/// bash, zsh and fish look. `events_md` is docs/events.md.
pub fn files(events_md: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    for cmd in programs() {
        let name = cmd.get_name().to_string();
        let mut page = Vec::new();
        write(Request::Man, cmd.clone(), &mut page).expect("writing to memory");
        files.push((PathBuf::from(format!("man/{name}.1")), page));
        subcommand_pages(&cmd, &name, &mut files);
        for (shell, file) in [
            (Shell::Bash, format!("completions/{name}.bash")),
            (Shell::Zsh, format!("completions/_{name}")),
            (Shell::Fish, format!("completions/{name}.fish")),
        ] {
            let mut out = Vec::new();
            write(Request::Completions(shell), cmd.clone(), &mut out).expect("writing to memory");
            files.push((PathBuf::from(file), out));
        }
    }
    files.push((
        PathBuf::from("man/gemline-events.5"),
        events_page(events_md).into_bytes(),
    ));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    /// clap_complete writes a value's help inside a double-quoted fish
    /// string without escaping it: a `"` or `$` there breaks the script.
    #[test]
    fn no_value_help_breaks_the_fish_script() {
        for cmd in programs() {
            for arg in cmd.get_arguments() {
                for v in arg.get_possible_values() {
                    let help = v.get_help().map(|h| h.to_string()).unwrap_or_default();
                    assert!(
                        !help.contains(['"', '$']),
                        "{} --{}: {help}",
                        cmd.get_name(),
                        arg.get_id()
                    );
                }
            }
        }
    }

    #[test]
    fn every_program_has_the_flag_and_valid_commands() {
        for cmd in programs() {
            cmd.clone().debug_assert();
            assert!(cmd.get_arguments().any(|a| a.get_id() == ID));
        }
    }
}
