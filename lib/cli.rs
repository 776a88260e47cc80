//! What every program shares at its edges: exit codes, the one place errors
//! are printed, broken-pipe handling, input opening, and the terminal
//! choices (`--color`, `--width`, Unicode or ASCII) resolved from flags and
//! the environment in the documented order.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit codes, documented in each man page.
pub mod exit {
    pub const OK: u8 = 0;
    pub const FAILURE: u8 = 1;
    pub const USAGE: u8 = 2;
    /// Input data could not be read as what it should be (sysexits EX_DATAERR).
    pub const DATA: u8 = 65;
    /// An input file could not be opened (sysexits EX_NOINPUT).
    pub const NO_INPUT: u8 = 66;
}

/// An error that knows its exit code. Anything else exits 1.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Coded {
    pub code: u8,
    pub message: String,
}

pub fn coded(code: u8, message: impl Into<String>) -> anyhow::Error {
    Coded {
        code,
        message: message.into(),
    }
    .into()
}

/// Bad input data: exit 65.
pub fn data_error(message: impl Into<String>) -> anyhow::Error {
    coded(exit::DATA, message)
}

/// True when the error is (or wraps) a write to a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

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
    let mut cmd = crate::generate::command::<T>();
    let matches = cmd
        .try_get_matches_from_mut(std::env::args_os())
        .map_err(report)?;
    if let Some(req) = crate::generate::request(&matches, &mut cmd).map_err(report)? {
        return Err(print_generated(req, cmd));
    }
    let args = T::from_arg_matches(&matches).map_err(|e| report(e.format(&mut cmd)))?;
    Ok((args, matches))
}

/// `--generate`: the page or script on stdout, exit 0; a closed pipe is
/// quiet like any other output.
fn print_generated(req: crate::generate::Request, cmd: clap::Command) -> ExitCode {
    use std::io::Write;
    let name = cmd.get_name().to_string();
    let mut out = io::BufWriter::new(io::stdout().lock());
    match crate::generate::write(req, cmd, &mut out).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            diag(format!("{name}: error: cannot write: {e}"));
            ExitCode::from(exit::FAILURE)
        }
    }
}

/// Writes one diagnostic to stderr, control characters shown harmlessly.
/// A closed or broken stderr is ignored: a diagnostic must never be what
/// kills a filter (`eprintln!` panics there). Every program's warnings and
/// errors go through here.
pub fn diag(text: impl AsRef<str>) {
    use std::io::Write;
    let _ = writeln!(io::stderr().lock(), "{}", sanitize_line(text.as_ref()));
}

/// Control characters in a diagnostic, shown in caret form (`^[`), C1
/// controls as `<U+009B>`; newlines and tabs kept.
pub fn sanitize_line(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\n' | '\t' => c.to_string(),
            c if (c as u32) < 0x20 => {
                format!("^{}", char::from_u32(c as u32 + 0x40).unwrap_or('?'))
            }
            '\u{7f}' => "^?".to_string(),
            // C1 controls, and the bidi overrides that can make a line read
            // differently from what it holds (Trojan Source).
            c if ('\u{80}'..='\u{9f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2066}'..='\u{2069}').contains(&c) =>
            {
                format!("<U+{:04X}>", c as u32)
            }
            c => c.to_string(),
        })
        .collect()
}

/// One named input: a file, or stdin for `-`.
pub struct Input {
    pub name: String,
    pub reader: Box<dyn BufRead + Send>,
    /// The file `reader` reads, when it is a regular file (a handle on the
    /// same open file): viz-parse maps large ones rather than copy them.
    pub file: Option<File>,
}

/// Opens the inputs named on the command line; none means stdin. A file
/// that cannot be opened is exit 66 with its name.
pub fn open_inputs(paths: &[PathBuf]) -> anyhow::Result<Vec<Input>> {
    if paths.is_empty() {
        return Ok(vec![stdin_input()]);
    }
    paths.iter().map(|p| open_input(p)).collect()
}

pub fn open_input(path: &Path) -> anyhow::Result<Input> {
    if path.as_os_str() == "-" {
        return Ok(stdin_input());
    }
    let cannot = |why: String| {
        coded(
            exit::NO_INPUT,
            format!("cannot open {}: {why}", path.display()),
        )
    };
    let f = File::open(path).map_err(|e| cannot(e.to_string()))?;
    // Opening a directory succeeds; only the first read would fail, as a
    // generic error (exit 1) after output may have begun.
    let meta = f.metadata().ok();
    if meta.as_ref().is_some_and(|m| m.is_dir()) {
        return Err(cannot("is a directory".into()));
    }
    let file = meta
        .is_some_and(|m| m.is_file())
        .then(|| f.try_clone().ok())
        .flatten();
    Ok(Input {
        name: path.display().to_string(),
        reader: Box::new(BufReader::with_capacity(256 * 1024, f)),
        file,
    })
}

fn stdin_input() -> Input {
    Input {
        name: "<stdin>".into(),
        reader: Box::new(BufReader::with_capacity(256 * 1024, io::stdin())),
        file: None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// The environment a terminal decision reads, captured once so the rules
/// are testable without touching the process environment.
#[derive(Debug, Clone, Default)]
pub struct TermEnv {
    pub no_color: bool,
    pub term: Option<String>,
    pub columns: Option<String>,
    pub lc_all: Option<String>,
    pub lc_ctype: Option<String>,
    pub lang: Option<String>,
    pub stdout_is_tty: bool,
    pub terminal_width: Option<usize>,
}

impl TermEnv {
    pub fn from_process() -> TermEnv {
        let var = |k: &str| std::env::var(k).ok();
        TermEnv {
            // NO_COLOR: any non-empty value disables colour (no-color.org).
            no_color: var("NO_COLOR").is_some_and(|v| !v.is_empty()),
            term: var("TERM"),
            columns: var("COLUMNS"),
            lc_all: var("LC_ALL"),
            lc_ctype: var("LC_CTYPE"),
            lang: var("LANG"),
            stdout_is_tty: io::stdout().is_terminal(),
            terminal_width: terminal_size::terminal_size().map(|(w, _)| w.0 as usize),
        }
    }

    fn term_is_dumb(&self) -> bool {
        self.term.as_deref() == Some("dumb")
    }

    /// `--color`: always and never are final; auto needs a terminal that
    /// is not dumb and no NO_COLOR.
    pub fn color(&self, choice: ColorChoice) -> bool {
        match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => self.stdout_is_tty && !self.no_color && !self.term_is_dumb(),
        }
    }

    /// `--width`, then `COLUMNS`, then the terminal, then 80.
    pub fn width(&self, flag: Option<usize>) -> usize {
        flag.or_else(|| {
            self.columns
                .as_deref()
                .and_then(|c| c.trim().parse().ok())
                .filter(|&w| w > 0)
        })
        .or(self.terminal_width.filter(|&w| w > 0))
        .unwrap_or(80)
    }

    /// The locale is UTF-8 when the first set of LC_ALL, LC_CTYPE, LANG
    /// names it (POSIX precedence); unset everywhere counts as UTF-8, as
    /// every current terminal is.
    pub fn locale_is_utf8(&self) -> bool {
        let first = [&self.lc_all, &self.lc_ctype, &self.lang]
            .into_iter()
            .flatten()
            .find(|v| !v.is_empty());
        match first {
            None => true,
            Some(v) => {
                let v = v.to_ascii_lowercase();
                v.contains("utf-8") || v.contains("utf8")
            }
        }
    }

    /// Unicode unless ASCII is asked for, the locale is not UTF-8, or the
    /// terminal is dumb; `--unicode` overrides the environment.
    pub fn unicode(&self, ascii_flag: bool, unicode_flag: bool) -> bool {
        if ascii_flag {
            return false;
        }
        if unicode_flag {
            return true;
        }
        self.locale_is_utf8() && !self.term_is_dumb()
    }
}

/// Whether the terminal is one known to draw OSC 8 hyperlinks (others
/// may show the escape's text, so the default asks for a known one).
pub fn hyperlinks_known(var: impl Fn(&str) -> Option<String>) -> bool {
    let program = var("TERM_PROGRAM").unwrap_or_default();
    let term = var("TERM").unwrap_or_default();
    matches!(
        program.as_str(),
        "iTerm.app" | "WezTerm" | "vscode" | "ghostty" | "Hyper" | "Tabby"
    ) || var("VTE_VERSION")
        .and_then(|v| v.parse::<u32>().ok())
        .is_some_and(|v| v >= 5000)
        || var("WT_SESSION").is_some()
        || var("KITTY_WINDOW_ID").is_some()
        || term.contains("kitty")
        || term.starts_with("foot")
        || term.contains("wezterm")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_precedence() {
        let mut env = TermEnv {
            columns: Some("100".into()),
            terminal_width: Some(120),
            ..Default::default()
        };
        assert_eq!(env.width(Some(40)), 40);
        assert_eq!(env.width(None), 100);
        env.columns = Some("junk".into());
        assert_eq!(env.width(None), 120);
        env.terminal_width = None;
        assert_eq!(env.width(None), 80);
    }

    #[test]
    fn color_rules() {
        let tty = TermEnv {
            stdout_is_tty: true,
            ..Default::default()
        };
        assert!(tty.color(ColorChoice::Auto));
        assert!(
            !TermEnv {
                no_color: true,
                ..tty.clone()
            }
            .color(ColorChoice::Auto)
        );
        assert!(
            !TermEnv {
                term: Some("dumb".into()),
                ..tty.clone()
            }
            .color(ColorChoice::Auto)
        );
        assert!(!TermEnv::default().color(ColorChoice::Auto));
        assert!(TermEnv::default().color(ColorChoice::Always));
        assert!(!tty.color(ColorChoice::Never));
    }

    #[test]
    fn locale_rules() {
        let c = |all: Option<&str>, lang: Option<&str>| TermEnv {
            lc_all: all.map(Into::into),
            lang: lang.map(Into::into),
            ..Default::default()
        };
        assert!(c(None, None).unicode(false, false));
        assert!(c(None, Some("en_US.UTF-8")).unicode(false, false));
        assert!(!c(Some("C"), Some("en_US.UTF-8")).unicode(false, false));
        assert!(c(Some("C"), None).unicode(false, true));
        assert!(!c(None, None).unicode(true, true));
        assert!(
            !TermEnv {
                term: Some("dumb".into()),
                ..Default::default()
            }
            .unicode(false, false)
        );
    }

    #[test]
    fn diagnostics_never_carry_raw_escapes() {
        assert_eq!(sanitize_line("a\x1b[31mb"), "a^[[31mb");
        assert_eq!(sanitize_line("x\u{202e}y\u{9b}"), "x<U+202E>y<U+009B>");
    }
}
