//! Word wrapping of styled spans with a hanging indent (Markdown
//! paragraphs, list items, quotes): generic over the span type, so the
//! caller keeps its styles and this module only measures and places.

use crate::render::text::{char_width, width};

/// One piece of a line being filled: text without blanks, its width,
/// the span it came from.
struct Piece<'a, S> {
    text: &'a str,
    width: usize,
    span: &'a S,
}

/// Word-wraps spans of styled text into lines of at most `total`
/// columns: `text_of` gives a span's clean text, `write` writes a piece of it
/// with the span's style. The first line starts with `first` (already
/// styled, and its width), the others with `rest` blanks (none when that
/// would take more than half the width). Words are runs of non-blank
/// text, possibly across spans (`**bo**ld`); blanks at line ends are
/// dropped; a word longer than the room is cut, going on under the
/// hanging indent.
pub fn words<S>(
    spans: &[S],
    text_of: impl Fn(&S) -> &str,
    write: impl Fn(&str, &S, &mut String),
    (first, first_w): (&str, usize),
    rest: usize,
    total: usize,
) -> Vec<String> {
    let (pieces, words) = split_words(spans, text_of);
    let total = total.max(1);
    // A line's bytes: its columns, and room for styles (sized once, not
    // grown a word at a time).
    let mut line = String::with_capacity(first.len() + 2 * total);
    line.push_str(first);
    let mut fill = Fill {
        lines: Vec::new(),
        line,
        col: first_w,
        start: first_w,
        rest: if rest * 2 > total { 0 } else { rest },
        total,
    };
    for (k, &from) in words.iter().enumerate() {
        let word = &pieces[from..words.get(k + 1).copied().unwrap_or(pieces.len())];
        // Every word but the first had a blank before it.
        fill.word(word, k > 0, &write);
    }
    fill.lines.push(fill.line);
    fill.lines
}

/// Words: runs of non-blank pieces, possibly across spans (`**bo**ld`),
/// kept flat (a word is where it starts in the pieces) to spare an
/// allocation a word.
fn split_words<'a, S>(
    spans: &'a [S],
    text_of: impl Fn(&S) -> &str,
) -> (Vec<Piece<'a, S>>, Vec<usize>) {
    let bytes: usize = spans.iter().map(|s| text_of(s).len()).sum();
    let mut pieces: Vec<Piece<'_, S>> = Vec::with_capacity(bytes / 5 + 1);
    let mut words: Vec<usize> = Vec::with_capacity(bytes / 5 + 1);
    let mut in_word = false;
    for s in spans {
        let mut rest_text = text_of(s);
        while !rest_text.is_empty() {
            let b = rest_text.as_bytes();
            let is_blank = matches!(b[0], b' ' | b'\t');
            let len = b
                .iter()
                .position(|&c| matches!(c, b' ' | b'\t') != is_blank)
                .unwrap_or(b.len());
            if is_blank {
                in_word = false;
            } else {
                if !in_word {
                    words.push(pieces.len());
                    in_word = true;
                }
                let text = &rest_text[..len];
                pieces.push(Piece {
                    text,
                    width: width(text),
                    span: s,
                });
            }
            rest_text = &rest_text[len..];
        }
    }
    (pieces, words)
}

/// The lines being filled: those done, the open one, its column, where
/// its text starts (after the first line's lead or the hanging indent
/// `rest`), and the width.
struct Fill {
    lines: Vec<String>,
    line: String,
    col: usize,
    start: usize,
    rest: usize,
    total: usize,
}

impl Fill {
    /// Ends the open line; the next starts under the hanging indent.
    fn break_line(&mut self) {
        let mut next = String::with_capacity(2 * self.total);
        next.extend(std::iter::repeat_n(' ', self.rest));
        self.lines.push(std::mem::replace(&mut self.line, next));
        self.col = self.rest;
        self.start = self.rest;
    }

    /// Places a word (after a blank unless it is the first): on this line
    /// when it fits, else on the next; cut when it is longer than a line.
    fn word<S>(
        &mut self,
        word: &[Piece<'_, S>],
        after_blank: bool,
        write: &impl Fn(&str, &S, &mut String),
    ) {
        let w: usize = word.iter().map(|p| p.width).sum();
        let gap = usize::from(after_blank);
        if after_blank && self.col + gap + w > self.total {
            self.break_line();
        } else if gap == 1 {
            self.line.push(' ');
            self.col += 1;
        }
        for p in word {
            if self.col + p.width <= self.total {
                write(p.text, p.span, &mut self.line);
                self.col += p.width;
                continue;
            }
            self.cut(p, write);
        }
    }

    /// A piece too long for the room: as much as fits, then on under the
    /// hanging indent.
    fn cut<S>(&mut self, p: &Piece<'_, S>, write: &impl Fn(&str, &S, &mut String)) {
        let mut chunk = String::new();
        for c in p.text.chars() {
            let cw = char_width(c);
            if self.col + cw > self.total && (self.col > self.start || !chunk.is_empty()) {
                write(&chunk, p.span, &mut self.line);
                chunk.clear();
                self.break_line();
            }
            chunk.push(c);
            self.col += cw;
        }
        write(&chunk, p.span, &mut self.line);
    }
}
