//! The leaf blocks of [`super::Layout`] drawn into rows: paragraphs and
//! headings (word-wrapped, a heading underlined), code (highlighted,
//! long lines continued), HTML blocks (the known tags read, the rest as
//! written), tables, and the link definitions shown.

use std::ops::Range;

use pulldown_cmark::{Event as Md, HeadingLevel};

use super::{Layout, Leaf};
use crate::render::markdown::code::{self, Code};
use crate::render::markdown::html::{self, Piece};
use crate::render::markdown::inline::{self, Inline, Marks, Span, wrap_spans};
use crate::render::markdown::{math, table};
use crate::render::text::{Style, paint, strip_ansi, width};

impl Layout<'_> {
    pub(super) fn flush_text(&mut self, end: usize) {
        let Some(Leaf::Text {
            inline, heading, ..
        }) = self.leaf.take()
        else {
            return;
        };
        let room = self.room();
        let mut spans = inline.spans;
        while spans.last().is_some_and(|s| s.text == inline::BREAK) {
            spans.pop();
        }
        let mut rows = if spans.is_empty() && heading.is_none() {
            Vec::new()
        } else {
            wrap_spans(&spans, room, self.look)
        };
        if let Some(level) = heading
            && let Some(u) = self.underline(level, &rows, room)
        {
            rows.push(u);
        }
        self.push_rows(rows);
        self.end_block(end);
    }

    /// The rule under a heading, as wide as its text: levels 1 and 2
    /// always, the others when there is no colour to make them bold.
    pub(super) fn underline(
        &self,
        level: HeadingLevel,
        rows: &[String],
        room: usize,
    ) -> Option<String> {
        let text_w = rows
            .iter()
            .map(|l| width(&strip_ansi(l)))
            .max()
            .unwrap_or(0);
        let u = match (level, self.look.unicode) {
            (HeadingLevel::H1, true) => "━",
            (HeadingLevel::H2, true) => "─",
            (HeadingLevel::H1, false) => "=",
            (HeadingLevel::H2, false) => "-",
            _ if self.look.color => return None,
            (_, true) => "┄",
            (_, false) => "~",
        };
        let n = text_w.clamp(1, room);
        Some(paint(&u.repeat(n), Style::Dim, self.look.color))
    }

    pub(super) fn flush_code(&mut self, end: usize) {
        let Some(Leaf::Code { lang, text }) = self.leaf.take() else {
            return;
        };
        let lang = lang.unwrap_or_default();
        let mut budget = self.budget;
        let mut c = Code::new(&lang, self.highlight && budget > 0 && self.look.color);
        let (cont, w) = self.prefix(false);
        let pad = format!("{cont}{}", " ".repeat(code::INDENT));
        let total = self.width();
        let lines: Vec<&str> = text
            .strip_suffix('\n')
            .unwrap_or(&text)
            .split('\n')
            .collect();
        let code_lines = if text.is_empty() { &[][..] } else { &lines[..] };
        for (i, line) in code_lines.iter().enumerate() {
            let folded = fold_ascii(line, self.look.unicode);
            let mut rows = c.line(&folded, &pad, w + code::INDENT, total, &mut budget);
            if i == 0
                && let Some(r) = rows.first_mut()
            {
                // The first row shows the leads of the items it opens.
                let body = r[pad.len().min(r.len())..].to_string();
                let (first, _) = self.prefix_of(true, body.is_empty());
                *r = if body.is_empty() {
                    first
                } else {
                    format!("{first}{}{body}", " ".repeat(code::INDENT))
                };
            }
            for r in rows {
                self.push_row(r);
            }
        }
        self.budget = budget;
        self.end_block(end);
    }

    /// An HTML block: its lines as written, but the known tags (see
    /// [`super::html`]), whose looks carry from line to line; a line of
    /// tags that draw nothing (`<details>`) takes no row.
    pub(super) fn flush_html(&mut self, end: usize) {
        let Some(Leaf::Html { text }) = self.leaf.take() else {
            return;
        };
        let mut inline = Inline::new(self.look, Marks::default());
        let mut rows_started = false;
        for line in text.strip_suffix('\n').unwrap_or(&text).split('\n') {
            let pieces = html::pieces(line);
            let has_text = pieces.iter().any(|p| matches!(p, Piece::Text(_)));
            let before = inline.spans.len();
            if rows_started && (has_text || line.is_empty()) {
                inline.line_break();
            }
            let after_break = inline.spans.len();
            for p in &pieces {
                match p {
                    Piece::Text(t) => inline.text(t),
                    Piece::Tag(t) => inline.known(*t),
                }
            }
            let drew = inline.spans[after_break..]
                .iter()
                .any(|s| !s.text.trim().is_empty())
                || line.is_empty();
            if !has_text && !drew && inline.spans.len() == after_break {
                // Tags alone that draw nothing: no row of their own.
                inline.spans.truncate(before);
                continue;
            }
            rows_started = true;
        }
        if !inline.spans.is_empty() {
            let room = self.room();
            let rows = wrap_spans(&inline.spans, room, self.look);
            self.push_rows(rows);
        }
        self.end_block(end);
    }

    pub(super) fn flush_table(&mut self, end: usize) {
        let Some(Leaf::Table { mut grid, .. }) = self.leaf.take() else {
            return;
        };
        if !self.look.unicode {
            for c in grid.head.iter_mut().chain(grid.rows.iter_mut().flatten()) {
                *c = fold_ascii(c, false);
            }
        }
        let room = self.room();
        let mut rows = table::draw(&grid, room, self.look.unicode, self.look.color);
        if let Some(read) = self.opts.chart_tables {
            rows.extend(table::chart(&grid, read, self.opts));
        }
        for r in rows {
            let (p, _) = self.prefix_of(true, r.is_empty());
            self.push_row(p + &r);
        }
        self.end_block(end);
    }

    /// Draws a link definition whose reference was shown before it:
    /// `[label]: address "title"`.
    pub fn definition(&mut self, label: &str, dest: &str, title: &str, at: Range<usize>) {
        self.close_implicit();
        self.begin_block(at.start);
        let mut spans = vec![Span {
            text: format!("[{label}]:"),
            marks: Marks {
                dim: true,
                ..Marks::default()
            },
            url: None,
            math: None,
        }];
        spans.push(Span::plain(" ".into()));
        spans.push(Span {
            text: dest.to_string(),
            marks: Marks {
                link: true,
                underline: true,
                ..Marks::default()
            },
            url: (self.look.hyperlinks && self.look.color).then(|| dest.to_string()),
            math: None,
        });
        if !title.is_empty() {
            spans.push(Span::plain(format!(" \"{title}\"")));
        }
        for s in &mut spans {
            s.text = fold_ascii(&s.text, self.look.unicode);
        }
        let room = self.room();
        let rows = wrap_spans(&spans, room, self.look);
        self.push_rows(rows);
        self.end_block(at.end);
    }
}

/// A table cell's text: its words, code (in backticks when `marks` are
/// written) and HTML as written, a known tag's text kept and its tag
/// dropped, a `<br>` a blank.
pub(super) fn table_text(ev: &Md<'_>, cell: &mut String, marks: bool, unicode: bool) {
    match ev {
        Md::Text(t) => cell.push_str(t),
        Md::InlineMath(t) | Md::DisplayMath(t) => cell.push_str(&math::inline(t, unicode)),
        Md::Code(t) if marks => {
            cell.push('`');
            cell.push_str(t);
            cell.push('`');
        }
        Md::Code(t) => cell.push_str(t),
        Md::InlineHtml(h) | Md::Html(h) => match html::tag(h) {
            Some(t) if t.known == html::Known::Break => cell.push(' '),
            Some(_) => {}
            None => cell.push_str(h),
        },
        Md::SoftBreak | Md::HardBreak => cell.push(' '),
        _ => {}
    }
}

/// Text as drawn in ASCII mode: folded (`é` is `e`) or `?`.
pub fn fold_ascii(s: &str, unicode: bool) -> String {
    if unicode || s.is_ascii() {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        crate::render::text::ascii_fold(c, &mut out);
    }
    out
}
