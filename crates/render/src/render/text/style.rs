//! ANSI styles and styled lines: [`paint`] wraps clean text in a style
//! when colour is on, [`Line`] builds a line of styled pieces and keeps the
//! display width of its text alone.

use super::width::width;

/// ANSI styles we use. Nothing here is written when colour is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    Bold,
    Dim,
    Red,
    Yellow,
    BoldRed,
    BoldYellow,
    /// Reverse video: gem-ask's consent prompt marks what it escaped.
    Reverse,
    Fg(u8),
}

impl Style {
    fn sgr(self) -> Option<String> {
        match self {
            Style::Plain => None,
            Style::Bold => Some("1".into()),
            Style::Dim => Some("2".into()),
            Style::Red => Some("31".into()),
            Style::Yellow => Some("33".into()),
            Style::BoldRed => Some("1;31".into()),
            Style::BoldYellow => Some("1;33".into()),
            Style::Reverse => Some("7".into()),
            Style::Fg(n) => Some(n.to_string()),
        }
    }
}

/// Series colours: cyan, magenta, yellow, green, blue, red.
pub const PALETTE: [u8; 6] = [36, 35, 33, 32, 34, 31];

/// Wraps clean text in a style when colour is on.
pub fn paint(s: &str, style: Style, color: bool) -> String {
    match style.sgr() {
        Some(code) if color && !s.trim().is_empty() => format!("\x1b[{code}m{s}\x1b[0m"),
        _ => s.to_string(),
    }
}

/// A line under construction: styled pieces of clean text, with the
/// display width of the text alone.
#[derive(Debug, Default, Clone)]
pub struct Line {
    pub text: String,
    pub width: usize,
}

impl Line {
    pub fn new() -> Line {
        Line::default()
    }

    pub fn push(&mut self, s: &str, style: Style, color: bool) -> &mut Line {
        self.width += width(s);
        self.text.push_str(&paint(s, style, color));
        self
    }

    pub fn plain(&mut self, s: &str) -> &mut Line {
        self.push(s, Style::Plain, false)
    }

    pub fn finish(self) -> String {
        self.text.trim_end_matches(' ').to_string()
    }
}
