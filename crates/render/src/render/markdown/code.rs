//! Code blocks: syntax highlighting by syntect (the grammars and themes
//! bat draws with, loaded once and only when a fenced block names a
//! language and colour is on), tabs expanded, and lines longer than the
//! room cut onto continuation lines so the width promise holds. A code
//! block keeps its lines: nothing is joined or reflowed.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Once, OnceLock};

use syntect::highlighting::{Highlighter, Style, Theme, ThemeSet};
use syntect::parsing::{BasicScopeStackOp, ParseState, Scope, ScopeStack, ScopeStackOp, SyntaxSet};

use crate::render::text::{char_width, width};

/// A syntect foreground colour, written as a 24-bit SGR.
type Rgb = (u8, u8, u8);

/// Columns a tab takes in code.
const TAB: usize = 4;
/// Code sits this far in from its container.
pub const INDENT: usize = 2;
/// Bytes of code highlighted in one answer. Highlighting costs some
/// hundred times what drawing the code plain does (about 1.4 ms a KiB);
/// past this, code is drawn in the plain code style, as editors stop
/// highlighting huge files, so an answer of mostly code still draws at
/// once. 16 KiB is some 400 lines: more than an answer usually holds.
pub const HIGHLIGHT_BUDGET: usize = 16 << 10;

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

/// The theme's selectors, read once (making them for each block cost as
/// much as highlighting a short one).
fn highlighter() -> &'static Highlighter<'static> {
    static HL: OnceLock<Highlighter<'static>> = OnceLock::new();
    HL.get_or_init(|| Highlighter::new(theme()))
}

/// Starts loading the grammars and the theme on a thread of their own,
/// once per process, so that the load (some tens of milliseconds) overlaps
/// reading and drawing the answer's text before its first code block. A
/// block that comes sooner waits for the load to end, as it would have
/// loaded them itself.
pub fn warm() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        // Started before the live loop's signal watcher may be: the
        // watcher's signals (a resize) are not this thread's to take.
        let spawned = crate::live::signals::spawn_kept_out("syntect-load", || {
            let _ = syntaxes();
            let _ = highlighter();
        });
        // No thread to be had: the first block loads them, as before.
        drop(spawned);
    });
}

/// The foreground the theme gives a scope path, by path: the theme's
/// selectors are matched once per path and thread (matching them at every
/// push was most of the highlighter's time), with what syntect's
/// `HighlightState` computes for it ([`Highlighter::style_for_stack`]).
/// The paths a grammar makes are few; the map is emptied if it ever grows
/// past [`PATHS`].
fn path_color(path: &[Scope]) -> Rgb {
    thread_local! {
        static COLORS: RefCell<HashMap<Vec<Scope>, Rgb>> = RefCell::new(HashMap::new());
    }
    COLORS.with(|c| {
        let mut map = c.borrow_mut();
        if let Some(rgb) = map.get(path) {
            return *rgb;
        }
        if map.len() >= PATHS {
            map.clear();
        }
        let rgb = rgb_of(highlighter().style_for_stack(path));
        map.insert(path.to_vec(), rgb);
        rgb
    })
}

/// Scope paths kept by [`path_color`].
const PATHS: usize = 1 << 14;

fn rgb_of(style: Style) -> Rgb {
    let c = style.foreground;
    (c.r, c.g, c.b)
}

/// The highlighter's state from line to line: the scope path and the
/// colour of each of its prefixes, as syntect's `HighlightState` keeps
/// them (the first, the theme's default).
struct Paint {
    path: ScopeStack,
    colors: Vec<Rgb>,
}

impl Paint {
    fn new() -> Paint {
        Paint {
            path: ScopeStack::new(),
            colors: vec![rgb_of(highlighter().get_default())],
        }
    }

    /// The pieces of a parsed line (with its newline) and their colours,
    /// as syntect's `RangedHighlightIterator` cuts them: a piece ends at
    /// each change of the scope path; an empty piece is none; a change
    /// that does not apply ends the line there.
    fn pieces<'t>(&mut self, ops: &[(usize, ScopeStackOp)], text: &'t str) -> Vec<(Rgb, &'t str)> {
        let mut pieces = Vec::with_capacity(ops.len() + 1);
        let mut pos = 0;
        for (end, op) in ops {
            let rgb = self.top();
            let piece = &text[pos..*end];
            let colors = &mut self.colors;
            let applied = self.path.apply_with_hook(op, |basic, path| match basic {
                BasicScopeStackOp::Push(_) => colors.push(path_color(path)),
                BasicScopeStackOp::Pop => {
                    colors.pop();
                }
            });
            if applied.is_err() {
                return pieces;
            }
            pos = *end;
            if !piece.is_empty() {
                pieces.push((rgb, piece));
            }
        }
        if pos < text.len() {
            pieces.push((self.top(), &text[pos..]));
        }
        pieces
    }

    /// The colour of the path as it stands (syntect's default style when
    /// more was popped than pushed).
    fn top(&self) -> Rgb {
        self.colors
            .last()
            .copied()
            .unwrap_or_else(|| rgb_of(Style::default()))
    }
}

/// An open code block: its parser's and highlighter's states run from
/// line to line.
pub struct Code {
    hl: Option<(ParseState, Paint)>,
}

impl Code {
    /// `lang`: the fence's info string (its first word is the language).
    pub fn new(lang: &str, color: bool) -> Code {
        let token = lang.split_whitespace().next().unwrap_or("");
        let hl = if color && !token.is_empty() {
            let ss = syntaxes();
            ss.find_syntax_by_token(token)
                .map(|s| (ParseState::new(s), Paint::new()))
        } else {
            None
        };
        Code { hl }
    }

    /// Draws one line of code (clean text, no newline) as one or more
    /// terminal lines of at most `total` columns, each starting with
    /// `prefix` (`prefix_w` columns wide). `budget`: bytes of code that may
    /// still be highlighted (see [`HIGHLIGHT_BUDGET`]); once a line does
    /// not fit in it, it is spent: this block and every later one go on
    /// plain.
    pub fn line(
        &mut self,
        src: &str,
        prefix: &str,
        prefix_w: usize,
        total: usize,
        budget: &mut usize,
    ) -> Vec<String> {
        if self.hl.is_some() {
            match budget.checked_sub(src.len()) {
                Some(left) => *budget = left,
                None => {
                    // Spent: the rest of the answer is plain, not just
                    // this block (a later short line would otherwise
                    // still fit in what is left).
                    *budget = 0;
                    self.hl = None;
                }
            }
        }
        let expanded = expand_tabs(src);
        if self.hl.is_none() && prefix_w + width(&expanded) <= total {
            // Nothing to colour or cut: what the loop below would draw.
            let mut line = String::with_capacity(prefix.len() + expanded.len());
            line.push_str(prefix);
            line.push_str(&expanded);
            line.truncate(line.trim_end_matches(' ').len());
            return vec![line];
        }
        let with_nl;
        let pieces: Vec<(Option<Rgb>, &str)> = match &mut self.hl {
            Some((parse, hl)) => {
                with_nl = format!("{expanded}\n");
                match parse.parse_line(&with_nl, syntaxes()) {
                    Ok(ops) => hl
                        .pieces(&ops, &with_nl)
                        .into_iter()
                        .map(|(rgb, t)| (Some(rgb), t.trim_end_matches('\n')))
                        .collect(),
                    Err(_) => vec![(None, expanded.as_str())],
                }
            }
            None => vec![(None, expanded.as_str())],
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
            let _ = write!(out, "\x1b[38;2;{r};{g};{b}m{s}\x1b[0m");
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
        let l = c.line("abcdefghij", "  ", 2, 6, &mut HIGHLIGHT_BUDGET.clone());
        assert_eq!(l, ["  abcd", "  efgh", "  ij"]);
    }

    #[test]
    fn known_languages_are_coloured() {
        let mut c = Code::new("rust", true);
        let l = c.line("fn main() {}", "", 0, 80, &mut HIGHLIGHT_BUDGET.clone());
        assert!(l[0].contains("\x1b[38;2;"), "{l:?}");
        assert_eq!(crate::render::text::strip_ansi(&l[0]), "fn main() {}");
    }

    #[test]
    fn code_past_the_budget_is_plain() {
        let mut c = Code::new("rust", true);
        let mut budget = 20;
        let first = c.line("fn main() {}", "", 0, 80, &mut budget);
        assert!(first[0].contains("\x1b[38;2;"), "{first:?}");
        assert_eq!(budget, 8);
        let second = c.line("fn main() {}", "", 0, 80, &mut budget);
        assert_eq!(second, ["fn main() {}"]);
        assert_eq!(budget, 0);
    }
}
