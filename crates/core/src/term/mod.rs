//! What every program shares at its edges, below every engine: exit codes
//! and errors that carry them, the one place diagnostics are printed
//! (control characters made harmless), input opening ([`input`]; a file that
//! must be a regular file, opened without blocking: [`regular`]), and the
//! terminal choices (`--color`, `--width`, Unicode or ASCII) resolved from
//! flags and the environment in the documented order ([`env`]).

mod env;
mod input;
mod reader;
pub mod regular;

pub use env::{ColorChoice, Said, TermEnv, Toggle, hyperlinks_known};
pub use input::{Input, open_input, open_inputs};
pub use reader::{CHUNK, Chunk, spawn_reader};

use std::io;

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

/// True when the error is (or wraps) a write to a closed pipe, also
/// through `serde_json::to_writer` (whose error hides the `io::Error`
/// from the chain: its source is the io error's own source).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        let kind = c
            .downcast_ref::<io::Error>()
            .map(io::Error::kind)
            .or_else(|| {
                c.downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind)
            });
        kind == Some(io::ErrorKind::BrokenPipe)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostics_never_carry_raw_escapes() {
        assert_eq!(sanitize_line("a\x1b[31mb"), "a^[[31mb");
        assert_eq!(sanitize_line("x\u{202e}y\u{9b}"), "x<U+202E>y<U+009B>");
    }
}
