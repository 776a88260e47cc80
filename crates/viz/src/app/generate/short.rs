//! `-h` one line a flag, for the command a program parses with (the man
//! page and the completions are made from the command as written): each
//! argument's help (and each subcommand's about) as written is its long help
//! (`--help`, the man page), and its first clause its short help (`-h`).
//! Clap takes a doc comment of one paragraph as both; an argument whose
//! doc comment has a first paragraph of its own (or an explicit
//! `long_help`) keeps what it says. The default and the possible values
//! go into the long help's text, so that `-h` is not wrapped by them.

use clap::{Arg, Command};

/// Most characters of a short help: past this the clause is cut again at
/// a colon, a parenthesis or a comma.
const MAX: usize = 64;

/// Fewer characters than this before a colon are a label, not a clause.
const LABEL: usize = 24;

/// `cmd` and its subcommands with each argument's short help cut from its
/// long help.
pub fn short_help(cmd: Command) -> Command {
    let cmd = match cmd.get_about().map(ToString::to_string) {
        Some(about) if cmd.get_long_about().is_none() && first_clause(&about) != about => {
            let short = first_clause(&about).to_string();
            cmd.long_about(about).about(short)
        }
        _ => cmd,
    };
    cmd.mut_args(cut_arg).mut_subcommands(short_help)
}

fn cut_arg(arg: Arg) -> Arg {
    let Some(help) = arg.get_help().map(ToString::to_string) else {
        return arg;
    };
    let (short, long) = match arg.get_long_help() {
        Some(long) => (help, long.to_string()),
        None => (first_clause(&help).to_string(), help),
    };
    let (arg, values) = values_in_text(arg);
    if short == long && values.is_empty() {
        return arg;
    }
    arg.long_help(format!("{long}{values}")).help(short)
}

/// The default and the possible values clap would add after the help, as
/// text for the long help and hidden from the short one, so that `-h`
/// stays one line a flag. Values that have help of their own stay clap's
/// listed one a line under `--help`, as clap lists them.
fn values_in_text(arg: Arg) -> (Arg, String) {
    if !arg.get_action().takes_values() {
        return (arg, String::new());
    }
    let mut specs = Vec::new();
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if !arg.is_hide_default_value_set() && !defaults.is_empty() {
        specs.push(format!("[default: {}]", defaults.join(", ")));
    }
    let values: Vec<_> = arg
        .get_possible_values()
        .into_iter()
        .filter(|v| !v.is_hide_set())
        .collect();
    if !values.is_empty() && !arg.is_hide_possible_values_set() {
        let names: Vec<&str> = values.iter().map(|v| v.get_name()).collect();
        if values.iter().any(|v| v.get_help().is_some()) {
            let wide = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) + 1;
            let mut block = String::from("Possible values:");
            for v in &values {
                match v.get_help() {
                    Some(help) => {
                        let name = format!("{}:", v.get_name());
                        block.push_str(&format!("\n- {name:wide$} {help}"));
                    }
                    None => block.push_str(&format!("\n- {}", v.get_name())),
                }
            }
            let gap = if specs.is_empty() { "" } else { "\n" };
            specs.push(format!("{gap}{block}"));
        } else {
            specs.push(format!("[possible values: {}]", names.join(", ")));
        }
    }
    if specs.is_empty() {
        return (arg, String::new());
    }
    let text = format!("\n\n{}", specs.join("\n"));
    (
        arg.hide_default_value(true).hide_possible_values(true),
        text,
    )
}

/// The first sentence of `text` (up to `. ` before a word that does not
/// start in lower case, `; `, or a hand-written ` [default: ...]`); while
/// that is longer than [`MAX`], cut again at `: `, then ` (`, then `, `
/// where what comes before says something of its own (not a label such as
/// `Task mode:`); never inside parentheses, brackets or backquotes.
pub fn first_clause(text: &str) -> &str {
    let mut short = cut_at(text, |rest| {
        rest.starts_with("; ")
            || rest.starts_with(" [default")
            || (rest.starts_with(". ") && !rest[2..].starts_with(|c: char| c.is_lowercase()))
    });
    for mark in [": ", " (", ", "] {
        if short.chars().count() <= MAX {
            break;
        }
        let clause = cut_at(short, |rest| rest.starts_with(mark));
        if clause.chars().count() >= LABEL {
            short = clause;
        }
    }
    short
}

/// `text` up to the first place outside parentheses, brackets and
/// backquotes where `ends` holds, without a closing period.
fn cut_at(text: &str, ends: impl Fn(&str) -> bool) -> &str {
    let mut depth = 0usize;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '`' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => depth += 1,
            ')' | ']' | '}' if !quoted => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && !quoted && i > 0 && ends(&text[i..]) {
            return &text[..i];
        }
    }
    text.strip_suffix('.').unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::first_clause;

    #[test]
    fn first_clause_cuts_at_the_first_sentence_outside_brackets() {
        assert_eq!(first_clause("Model name [default: X]. More."), "Model name");
        assert_eq!(
            first_clause("Declare these (see --list-tools; more). Rest"),
            "Declare these (see --list-tools; more)"
        );
        assert_eq!(first_clause("Plain help"), "Plain help");
        assert_eq!(
            first_clause("Cut here. e.g. not here"),
            "Cut here. e.g. not here"
        );
        assert_eq!(first_clause("Cut here. Not here"), "Cut here");
        assert_eq!(
            first_clause(
                "Task mode: most seconds the whole task may take, requests and tools included"
            ),
            "Task mode: most seconds the whole task may take"
        );
        assert_eq!(
            first_clause(
                "Run shell commands in a sandbox (Landlock, Linux): writes only in the working \
                 directory and a private TMPDIR"
            ),
            "Run shell commands in a sandbox (Landlock, Linux)"
        );
    }
}
