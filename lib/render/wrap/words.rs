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
    // Words: runs of non-blank pieces, possibly across spans (`**bo**ld`),
    // kept flat (a word is where it starts in `pieces`) to spare an
    // allocation a word.
    let mut pieces: Vec<Piece<'_, S>> = Vec::new();
    let mut words: Vec<usize> = Vec::new();
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

    let total = total.max(1);
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut col = first_w;
    let mut start = first_w;
    let indent = |n: usize| " ".repeat(n);
    let rest = if rest * 2 > total { 0 } else { rest };
    for (k, &from) in words.iter().enumerate() {
        let word = &pieces[from..words.get(k + 1).copied().unwrap_or(pieces.len())];
        let w: usize = word.iter().map(|p| p.width).sum();
        // Every word but the first had a blank before it.
        let gap = usize::from(k > 0);
        if k > 0 && col + gap + w > total {
            lines.push(std::mem::take(&mut line));
            line = indent(rest);
            col = rest;
            start = rest;
        } else if gap == 1 {
            line.push(' ');
            col += 1;
        }
        for p in word {
            if col + p.width <= total {
                write(p.text, p.span, &mut line);
                col += p.width;
                continue;
            }
            // Cut: as much as fits, then on under the hanging indent.
            let mut chunk = String::new();
            for c in p.text.chars() {
                let cw = char_width(c);
                if col + cw > total && (col > start || !chunk.is_empty()) {
                    write(&chunk, p.span, &mut line);
                    chunk.clear();
                    lines.push(std::mem::take(&mut line));
                    line = indent(rest);
                    col = rest;
                    start = rest;
                }
                chunk.push(c);
                col += cw;
            }
            write(&chunk, p.span, &mut line);
        }
    }
    lines.push(line);
    lines
}
