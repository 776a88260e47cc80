//! Code blocks: syntax highlighting by syntect (the grammars and themes
//! bat draws with, loaded once and only when a fenced block names a
//! language and colour is on), tabs expanded, and lines longer than the
//! room cut onto continuation lines so the width promise holds. A code
//! block keeps its lines: nothing is joined or reflowed.

use std::sync::OnceLock;

use syntect::easy::HighlightLines;
use syntect::highlighting::{Theme, ThemeSet};
use syntect::parsing::SyntaxSet;

use crate::render::text::{char_width, width};

/// A syntect foreground colour, written as a 24-bit SGR.
type Rgb = (u8, u8, u8);

/// Columns a tab takes in code.
const TAB: usize = 4;
/// Code sits this far in from its container.
pub const INDENT: usize = 2;

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn theme() -> &'static Theme {
    static THEME: OnceLock<Theme> = OnceLock::new();
    THEME.get_or_init(|| {
        let mut set = ThemeSet::load_defaults();
        set.themes.remove("base16-ocean.dark").unwrap_or_default()
    })
}

/// An open code block: its highlighter state runs from line to line.
pub struct Code {
    hl: Option<HighlightLines<'static>>,
}

impl Code {
    /// `lang`: the fence's info string (its first word is the language).
    pub fn new(lang: &str, color: bool) -> Code {
        let token = lang.split_whitespace().next().unwrap_or("");
        let hl = if color && !token.is_empty() {
            let ss = syntaxes();
            ss.find_syntax_by_token(token)
                .map(|s| HighlightLines::new(s, theme()))
        } else {
            None
        };
        Code { hl }
    }

    /// Draws one line of code (clean text, no newline) as one or more
    /// terminal lines of at most `total` columns, each starting with
    /// `prefix` (`prefix_w` columns wide).
    pub fn line(&mut self, src: &str, prefix: &str, prefix_w: usize, total: usize) -> Vec<String> {
        let expanded = expand_tabs(src);
        if self.hl.is_none() && prefix_w + width(&expanded) <= total {
            // Nothing to colour or cut: what the loop below would draw.
            let mut line = String::with_capacity(prefix.len() + expanded.len());
            line.push_str(prefix);
            line.push_str(&expanded);
            line.truncate(line.trim_end_matches(' ').len());
            return vec![line];
        }
        let pieces: Vec<(Option<Rgb>, String)> = match &mut self.hl {
            Some(h) => {
                let with_nl = format!("{expanded}\n");
                match h.highlight_line(&with_nl, syntaxes()) {
                    Ok(ranges) => ranges
                        .into_iter()
                        .map(|(st, t)| {
                            let c = st.foreground;
                            (Some((c.r, c.g, c.b)), t.trim_end_matches('\n').to_string())
                        })
                        .collect(),
                    Err(_) => vec![(None, expanded.clone())],
                }
            }
            None => vec![(None, expanded)],
        };
        let room = total.saturating_sub(prefix_w).max(1);
        let mut lines = Vec::new();
        let mut line = prefix.to_string();
        let mut col = 0;
        for (rgb, text) in pieces {
            let mut chunk = String::new();
            for c in text.chars() {
                let w = char_width(c);
                if col + w > room && col > 0 {
                    paint_rgb(&chunk, rgb, &mut line);
                    chunk.clear();
                    lines.push(std::mem::take(&mut line));
                    line = prefix.to_string();
                    col = 0;
                }
                chunk.push(c);
                col += w;
            }
            paint_rgb(&chunk, rgb, &mut line);
        }
        lines.push(line.trim_end_matches(' ').to_string());
        lines
    }
}

fn paint_rgb(s: &str, rgb: Option<Rgb>, out: &mut String) {
    match rgb {
        Some((r, g, b)) if !s.trim().is_empty() => {
            out.push_str(&format!("\x1b[38;2;{r};{g};{b}m{s}\x1b[0m"));
        }
        _ => out.push_str(s),
    }
}

fn expand_tabs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut col = 0;
    for c in s.chars() {
        if c == '\t' {
            let n = TAB - col % TAB;
            out.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            out.push(c);
            col += char_width(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_continue_under_the_prefix() {
        let mut c = Code::new("", false);
        let l = c.line("abcdefghij", "  ", 2, 6);
        assert_eq!(l, ["  abcd", "  efgh", "  ij"]);
    }

    #[test]
    fn known_languages_are_coloured() {
        let mut c = Code::new("rust", true);
        let l = c.line("fn main() {}", "", 0, 80);
        assert!(l[0].contains("\x1b[38;2;"), "{l:?}");
        assert_eq!(crate::render::text::strip_ansi(&l[0]), "fn main() {}");
    }
}
