//! Markdown answers drawn as they stream. [`Markdown`] owns the layout of
//! assistant message text when `--markdown on`: headings, emphasis, code,
//! links, quotes, lists, rules, fenced code with syntax highlighting, GFM
//! tables, and the inline HTML models write, fitted to the width.
//!
//! Blocks, not lines: the text is parsed by pulldown-cmark a block at a
//! time, each block whole once its extent is known, as a whole-document
//! renderer parses it ([`blocks`] finds the extents and [`layout`] draws
//! the events). What is committed (written for good) is each block once,
//! when it is complete, so the output in a pipe or a file does not depend
//! on how the answer was cut into deltas. The one exception streams: a
//! fenced code block at the top level is drawn a line at a time, since a
//! code line cannot change once its line has ended.
//!
//! On a terminal the block still open is also drawn, provisionally
//! ([`Markdown::preview`]): the caller redraws it in place as it grows
//! (`render::screen`), so the first words appear at once and the last
//! picture is the committed one. A block taller than the screen shows its
//! last rows while it grows; it is written whole once complete.
//!
//! When to parse: only the line just completed is looked at ([`lines`]),
//! to know whether a parse could tell anything new. A line of words or a
//! row of pipes goes on the paragraph or table open, a quoted line on the
//! quote, a line inside the last item or a next item of its kind on the
//! list, and a blank line cannot end a list; the others parse the open
//! text again. Parsing later only commits a block later: where blocks
//! end, and so the output, is the parse's alone.

mod blocks;
mod code;
mod delims;
mod html;
mod inline;
mod layout;
mod math;
pub use layout::alert_word;
mod lines;
mod notes;
mod table;

use super::RenderOptions;
use blocks::{Doc, Last, Mode};
use lines::{closes, indent_of, only_text, opens, starts_with, strip_cols};

/// A fenced code block at the top level, drawn line by line.
struct Fence {
    ch: char,
    len: usize,
    /// Columns of indent its opening fence had: taken off its lines.
    indent: usize,
    code: code::Code,
}

/// Streaming Markdown renderer; see the module documentation.
pub struct Markdown {
    opts: RenderOptions,
    /// Complete lines (clean of control characters) not committed yet:
    /// the block still open, whole.
    open: String,
    /// The line being written.
    partial: String,
    /// What kind of block the last parse left open.
    last: Last,
    fence: Option<Fence>,
    doc: Doc,
    /// Marks written out as text (colour off, not painted as a whole).
    marks: bool,
    /// The top-level list left open: its kind of item and where its last
    /// item's content starts.
    list: Option<lines::Item>,
    /// The open text starts with a block that waits for a definition.
    waiting: bool,
    /// The preview of the open text held for a definition, but its last
    /// block (see [`Markdown::preview_held`]).
    held: Option<Held>,
}

/// Rows of a preview kept: of the open text before `from`, and whether a
/// blank line comes before the block at `from`.
struct Held {
    from: usize,
    rows: Vec<String>,
    blank: bool,
}

/// How much open text held for a definition grows between two drawings
/// of it whole in a preview.
const HELD_STEP: usize = 512;

impl Markdown {
    pub fn new(opts: RenderOptions) -> Markdown {
        if opts.color {
            // Code may come: its grammars load while the text before it
            // is drawn.
            code::warm();
        }
        Markdown {
            marks: !opts.color,
            list: None,
            waiting: false,
            held: None,
            opts,
            open: String::new(),
            partial: String::new(),
            last: Last::Nothing,
            fence: None,
            doc: Doc::new(),
        }
    }

    /// Drawn without styles of its own, to be painted as a whole (a
    /// thought, dim): no colour, and no marks written for it either when
    /// the whole has colour (`color`).
    pub fn plain(mut opts: RenderOptions) -> Markdown {
        let marks = !opts.color;
        opts.color = false;
        Markdown {
            marks,
            ..Markdown::new(opts)
        }
    }

    /// Takes text as the model sent it and appends the rows of every
    /// block it completes to `out`. Control characters are made visible
    /// line by line, so a CR LF cut between two deltas still reads as a
    /// line end.
    pub fn push(&mut self, text: &str, out: &mut String) {
        let mut rest = text;
        while let Some(i) = rest.find('\n') {
            if self.partial.is_empty() {
                self.line(&rest[..i], out);
            } else {
                self.partial.push_str(&rest[..i]);
                let l = std::mem::take(&mut self.partial);
                self.line(&l, out);
            }
            rest = &rest[i + 1..];
        }
        self.partial.push_str(rest);
    }

    /// The text ended: draws what is open, and starts afresh.
    pub fn finish(&mut self, out: &mut String) {
        if !self.partial.is_empty() {
            let l = std::mem::take(&mut self.partial);
            self.line(&l, out);
        }
        self.fence = None;
        if !self.open.is_empty() {
            self.parse(Mode::Finish, out);
        }
        self.draw_notes(out);
        let (opts, marks) = (self.opts.clone(), self.marks);
        *self = Markdown {
            marks,
            ..Markdown::new(opts)
        };
    }

    /// The footnotes after the answer: a rule, then each note led by its
    /// number.
    fn draw_notes(&mut self, out: &mut String) {
        let notes = self.doc.notes.numbered();
        if notes.is_empty() {
            return;
        }
        for (i, md) in std::iter::once("---\n".to_string())
            .chain(notes)
            .enumerate()
        {
            self.doc.blank_pending = i < 2;
            let look = blocks::Look {
                opts: &self.opts,
                marks: self.marks,
            };
            let drawn = blocks::draw(&md, &mut self.doc, look, Mode::Finish);
            self.emit(drawn.rows, out);
        }
    }

    /// The rows of the block still open, drawn as if the text ended now:
    /// its last `max_rows` when it has more (a terminal shows the rows
    /// being written; the whole block is committed once complete).
    pub fn preview(&mut self, max_rows: usize) -> Vec<String> {
        let mut rows: Vec<String> = match &self.fence {
            Some(f) => {
                if self.partial.is_empty() {
                    return Vec::new();
                }
                let line = self.clean(&self.partial.clone());
                let src = strip_cols(&line, f.indent);
                let rows: Vec<String> =
                    self.code_rows(&src, &mut code::Code::new("", false), &mut 0);
                rows.into_iter().map(|r| self.fit(r)).collect()
            }
            None => {
                if self.open.is_empty() && self.partial.trim().is_empty() {
                    return Vec::new();
                }
                let partial = self.clean(&self.partial);
                if self.waiting && self.open.len() > HELD_STEP {
                    self.preview_held(&partial, max_rows)
                } else {
                    let src = self.open.clone() + &partial;
                    let (blank, wrote) = (self.doc.blank_pending, self.doc.wrote);
                    let drawn = self.preview_draw(&src, blank, wrote);
                    drawn.rows.into_iter().map(|r| self.fit(r)).collect()
                }
            }
        };
        if rows.len() > max_rows {
            rows.drain(..rows.len() - max_rows);
        }
        rows
    }

    /// The open text drawn for a look (see [`Mode::Preview`]), after a
    /// blank line or not, after rows or not.
    fn preview_draw(&mut self, src: &str, blank: bool, wrote: bool) -> blocks::Drawn {
        let mut doc = Doc {
            defs: std::mem::take(&mut self.doc.defs),
            unresolved: std::mem::take(&mut self.doc.unresolved),
            notes: std::mem::take(&mut self.doc.notes),
            ..Doc::new()
        };
        doc.blank_pending = blank;
        doc.wrote = wrote;
        let drawn = blocks::draw(src, &mut doc, self.look(), Mode::Preview);
        self.doc.defs = doc.defs;
        self.doc.unresolved = doc.unresolved;
        self.doc.notes = doc.notes;
        drawn
    }

    /// The preview of open text held for a definition (it can grow to
    /// [`blocks::WAIT_LIMIT`]): the rows of its blocks but the last are
    /// kept, the text after them drawn again every [`HELD_STEP`] bytes to
    /// keep more, so a redraw parses little more than the last block (a
    /// top-level block is a clean restart).
    fn preview_held(&mut self, partial: &str, max_rows: usize) -> Vec<String> {
        let mut held = self.held.take().unwrap_or(Held {
            from: 0,
            rows: Vec::new(),
            blank: self.doc.blank_pending,
        });
        if self.open.len() - held.from > HELD_STEP {
            let src = self.open[held.from..].to_string();
            let wrote = self.doc.wrote || !held.rows.is_empty();
            let drawn = self.preview_draw(&src, held.blank, wrote);
            if let Some((at, n, blank)) = drawn.tail {
                let rows: Vec<String> = drawn.rows.into_iter().take(n).collect();
                held.rows.extend(rows.into_iter().map(|r| self.fit(r)));
                held.from += at;
                held.blank = blank;
            }
        }
        let src = self.open[held.from..].to_string() + partial;
        let wrote = self.doc.wrote || !held.rows.is_empty();
        let drawn = self.preview_draw(&src, held.blank, wrote);
        let keep = held.rows.len().saturating_sub(max_rows);
        let mut rows: Vec<String> = held.rows[keep..].to_vec();
        rows.extend(drawn.rows.into_iter().map(|r| self.fit(r)));
        self.held = Some(held);
        rows
    }

    fn look(&self) -> blocks::Look<'_> {
        blocks::Look {
            opts: &self.opts,
            marks: self.marks,
        }
    }

    /// A line: control characters made visible (a CR before the line end
    /// dropped), nothing folded yet (ASCII mode folds what is drawn, so
    /// `·` does not become a `*` the parser would read).
    fn clean(&self, raw: &str) -> String {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        super::text::clean_text_cow(raw, false).into_owned()
    }

    fn line(&mut self, raw: &str, out: &mut String) {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let line = super::text::clean_text_cow(raw, false);
        if self.fence.is_some() {
            return self.fence_line(&line, out);
        }
        let blank = line.trim().is_empty();
        // A row of pipes goes on a paragraph or a table: it can make the
        // paragraph a table, which the parse at its end sees.
        let text = only_text(&line, !self.open.is_empty()) || starts_with(&line, '|');
        if self.open.is_empty() {
            if blank {
                self.doc.blank_pending = true;
                return;
            }
            if text {
                self.open.push_str(&line);
                self.open.push('\n');
                self.last = Last::Paragraph;
                return;
            }
        }
        self.open.push_str(&line);
        self.open.push('\n');
        if self.waiting {
            // Nothing can be committed until a definition comes (a line
            // with `]:`) or the wait is over.
            if line.contains("]:") || self.open.len() > blocks::WAIT_LIMIT {
                self.parse(Mode::Commit, out);
            }
            return;
        }
        let parse = match self.last {
            // A blank line ends these blocks.
            Last::Paragraph | Last::Table | Last::Quote | Last::Html(true) if blank => true,
            // And cannot end these.
            Last::List | Last::IndentedCode | Last::Html(false) if blank => false,
            // A line of words goes on a paragraph or a table.
            Last::Paragraph | Last::Table => !text,
            // A quoted line goes on a quote.
            Last::Quote => !starts_with(&line, '>'),
            // A line inside the last item, or a next item, goes on a list.
            Last::List => !self.goes_on_list(&line),
            _ => true,
        };
        if parse {
            self.parse(Mode::Commit, out);
        }
    }

    /// Parses the open text: commits the blocks it completes.
    fn parse(&mut self, mode: Mode, out: &mut String) {
        let look = blocks::Look {
            opts: &self.opts,
            marks: self.marks,
        };
        let drawn = blocks::draw(&self.open, &mut self.doc, look, mode);
        self.emit(drawn.rows, out);
        self.open.drain(..drawn.consumed);
        self.held = None;
        self.last = drawn.last;
        self.waiting = drawn.waiting;
        self.list = (self.last == Last::List)
            .then(|| lines::list_shape(&self.open))
            .flatten();
        if self.last == Last::Fence && mode == Mode::Commit {
            self.start_fence(out);
        }
    }

    /// Whether a line can only go on the top-level list left open: it is
    /// indented to the last item's content, or starts an item of the same
    /// kind (which then is the last).
    fn goes_on_list(&mut self, line: &str) -> bool {
        let Some(shape) = &mut self.list else {
            return false;
        };
        if indent_of(line) >= shape.content {
            return true;
        }
        match lines::item_marker(line) {
            Some(item) if item.kind == shape.kind => {
                *shape = item;
                true
            }
            _ => false,
        }
    }

    /// The open text starts with a fenced code block: from here it is
    /// drawn a line at a time.
    fn start_fence(&mut self, out: &mut String) {
        let text = std::mem::take(&mut self.open);
        let mut lines = text.lines();
        let Some(first) = lines.next() else {
            return;
        };
        let Some((ch, len, info)) = opens(first.trim_start()) else {
            return;
        };
        if self.doc.blank_pending && self.doc.wrote {
            out.push('\n');
        }
        self.doc.blank_pending = false;
        self.fence = Some(Fence {
            ch,
            len,
            indent: indent_of(first),
            // Past the highlighting budget a block is drawn plain, so it
            // needs no highlighter (making one is not free).
            code: code::Code::new(&info, self.opts.color && self.doc.budget > 0),
        });
        self.last = Last::Nothing;
        for l in lines {
            self.fence_line(l, out);
        }
    }

    fn fence_line(&mut self, line: &str, out: &mut String) {
        let Some(mut f) = self.fence.take() else {
            return;
        };
        if closes(line, f.ch, f.len) {
            return;
        }
        let src = strip_cols(line, f.indent);
        let mut budget = self.doc.budget;
        let rows = self.code_rows(&src, &mut f.code, &mut budget);
        self.doc.budget = budget;
        self.fence = Some(f);
        self.emit(rows, out);
    }

    /// One line of code at the top level.
    fn code_rows(&self, src: &str, c: &mut code::Code, budget: &mut usize) -> Vec<String> {
        let folded = layout::fold_ascii(src, self.opts.unicode);
        let pad = " ".repeat(code::INDENT);
        c.line(&folded, &pad, code::INDENT, self.opts.width.max(1), budget)
    }

    /// The last guard of the width promise (margins of deep lists and
    /// quotes at a tiny width): a row too wide loses its styling and is
    /// cut.
    fn fit(&self, row: String) -> String {
        let w = self.opts.width.max(1);
        if row.len() > w && super::text::visible_width(&row) > w {
            let plain = super::text::strip_ansi(&row);
            super::wrap::truncate(&plain, w, !self.opts.unicode)
        } else {
            row
        }
    }

    /// Commits rows.
    fn emit(&mut self, rows: Vec<String>, out: &mut String) {
        for r in rows {
            let r = self.fit(r);
            out.push_str(&r);
            out.push('\n');
            self.doc.wrote = true;
        }
    }
}

#[cfg(test)]
mod tests;
