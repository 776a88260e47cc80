//! The parser's vocabulary, a leaf every reader shares: the input formats
//! ([`Format`]), why an input gave no chart ([`ParseError`], with its exit
//! code), and the examples of accepted input its errors show. The entrance
//! (`parse/mod.rs`) re-exports them, so their paths stay `parse::Format`,
//! `parse::ParseError`, ...; the options, which gather the sub-modules'
//! own (`GrammarOptions`, `FollowOptions`, ...), stay at the entrance.

use std::io;

use crate::term;

/// An input format, for `--format` and [`ParseOptions::format`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Comma-separated (or `;`/`|`, sniffed; see --delimiter).
    Csv,
    /// Tab-separated.
    Tsv,
    /// One JSON document: object map, array of records or pairs.
    Json,
    /// JSON lines: one record per line.
    Jsonl,
    /// A GFM Markdown table.
    Markdown,
    /// The render_visualization argument object.
    Args,
    /// A stream of events (JSON lines, each with a `type`).
    Events,
}

/// Why an input gave no chart.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The input is not data we can chart (exit 65).
    #[error("{0}")]
    Data(String),
    /// The options do not fit the input, e.g. no such column (exit 2).
    #[error("{0}")]
    Usage(String),
    /// Reading the input failed (exit 1).
    #[error("{0}")]
    Io(#[from] io::Error),
    /// Writing the output failed; a closed pipe ends the program quietly.
    #[error("{0}")]
    Write(io::Error),
}

impl ParseError {
    pub fn exit_code(&self) -> u8 {
        match self {
            ParseError::Data(_) => term::exit::DATA,
            ParseError::Usage(_) => term::exit::USAGE,
            ParseError::Io(_) | ParseError::Write(_) => term::exit::FAILURE,
        }
    }
}

/// One short example of each accepted input, shown whenever input is refused.
pub const INPUT_EXAMPLES: &str = r#"Accepted input, for example:
  CSV or TSV       model,secs          (delimiter , ; tab or |; header optional)
                   M5 CS,2.9
  JSON object      {"M5 CS": 2.9, "M8 Competition": 3.0}
  JSON records     [{"model": "M5 CS", "secs": 2.9}]   (or one object per line)
  JSON pairs       [["M5 CS", 2.9], ["M8 Competition", 3.0]]
  Markdown table   | model | secs |
                   |-------|------|
                   | M5 CS | 2.9  |
  label: value     M5 CS: 2.9s
  tool arguments   {"chartType": "bar", "series": [{"name": "0-60", "points": [{"label": "M5 CS", "value": 2.9}]}]}"#;

/// The input only the `viz-parse` program takes (an `inputText` cannot be
/// a stream): appended to [`INPUT_EXAMPLES`] in the program's errors.
pub(crate) const STREAM_EXAMPLE: &str = r#"  event stream     {"type": "message", "role": "assistant", "content": "Hi"}   (JSON lines:
                   passed through; render_visualization tool_use events become charts)"#;

pub(crate) fn examples_error(seen: String) -> ParseError {
    ParseError::Data(format!(
        "cannot read this as chart data: saw {seen}.\n\n{INPUT_EXAMPLES}"
    ))
}
