//! Blocks drawn from pulldown-cmark's events, as a whole-document
//! renderer draws them: containers (quotes, lists, items) give each row
//! its margin (a bar per quote, an item's bullet or number on its first
//! row and blanks under it after), leaves (paragraphs, headings, code,
//! HTML, tables, rules) give the rows. A blank row stands wherever the
//! answer has a blank line between two blocks. The driver
//! ([`super::blocks`]) feeds the events with their place in the text.
//! Here: the containers, the margins and the events; the leaves are
//! drawn by [`leaves`].

mod alert;
mod leaves;

use alert::alert_name;
pub use alert::alert_word;

pub use leaves::fold_ascii;
use leaves::table_text;

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event as Md, HeadingLevel, Tag, TagEnd};

use super::inline::{Inline, Look, Marks, link_target, styled};
use super::table::Grid;
use crate::render::RenderOptions;
use crate::render::text::{Style, paint, width};

/// A container open around the rows being drawn.
enum Frame {
    Quote,
    /// A list: the next item's number (ordered lists), its nesting.
    List {
        next: Option<u64>,
        depth: usize,
    },
    /// An item: its lead (`•`, `3.`) and width with the blank after it,
    /// and whether a row has shown the lead yet.
    Item {
        lead: String,
        lead_w: usize,
        used: bool,
    },
}

/// The leaf block being collected.
enum Leaf {
    /// A paragraph, a heading, or the text of a tight list item.
    Text {
        inline: Inline,
        heading: Option<HeadingLevel>,
        /// Where its text ends so far (a tight item's text has no end
        /// event of its own).
        end: usize,
    },
    Code {
        lang: Option<String>,
        text: String,
    },
    Html {
        text: String,
    },
    Table {
        grid: Grid,
        cell: Option<String>,
        in_head: bool,
        /// Links open in the cell: the address to show after the text,
        /// and where the text starts.
        links: Vec<(String, usize)>,
    },
}

/// What a layout may spend and how it starts.
pub struct Setup<'a> {
    pub opts: &'a RenderOptions,
    /// A blank line came after the rows drawn before this text.
    pub blank_before: bool,
    /// Rows were drawn before this text.
    pub wrote: bool,
    /// Code may be highlighted (a preview is drawn plain).
    pub highlight: bool,
    /// Bytes of code that may still be highlighted in this answer.
    pub budget: usize,
    /// Marks written out as text (see [`Look::marks`]).
    pub marks: bool,
}

/// Rows drawn from the events of one parse.
pub struct Layout<'a> {
    opts: &'a RenderOptions,
    look: Look,
    src: &'a str,
    pub rows: Vec<String>,
    frames: Vec<Frame>,
    leaf: Option<Leaf>,
    /// The end of the last line of the last block drawn (`None` right
    /// after a block started).
    pub last_end: Option<usize>,
    blank_before: bool,
    /// The blank row before the next row drawn (its margin).
    blank: Option<String>,
    wrote: bool,
    highlight: bool,
    /// Bytes of code that may still be highlighted.
    pub budget: usize,
    /// The `[!WORD]` line of an alert of a kind pulldown-cmark does not
    /// know is still to be dropped from the quote's first paragraph.
    skip_marker: bool,
}

impl<'a> Layout<'a> {
    pub fn new(src: &'a str, setup: Setup<'a>) -> Layout<'a> {
        Layout {
            opts: setup.opts,
            look: Look {
                color: setup.opts.color,
                marks: setup.marks,
                unicode: setup.opts.unicode,
                hyperlinks: setup.opts.hyperlinks,
            },
            src,
            rows: Vec::new(),
            frames: Vec::new(),
            leaf: None,
            last_end: Some(0),
            blank_before: setup.blank_before,
            blank: None,
            wrote: setup.wrote,
            highlight: setup.highlight,
            budget: setup.budget,
            skip_marker: false,
        }
    }

    fn width(&self) -> usize {
        self.opts.width.max(1)
    }

    /// The end of the line `at` falls in (or `at` itself at a line start).
    fn line_end(&self, at: usize) -> usize {
        let at = at.min(self.src.len());
        if at == 0 || self.src.as_bytes()[at - 1] == b'\n' {
            return at;
        }
        self.src[at..]
            .find('\n')
            .map_or(self.src.len(), |i| at + i + 1)
    }

    /// A block starts at `at`: a blank row first when a blank line lies
    /// between it and the block before, drawn with its first row (a block
    /// that draws nothing, as `</details>`, leaves it to the next).
    pub fn begin_block(&mut self, at: usize) {
        let gap = self
            .last_end
            .is_some_and(|end| blank_line_between(self.src, end, at));
        if (gap || std::mem::take(&mut self.blank_before)) && self.blank.is_none() {
            self.blank = Some(self.blank_prefix());
        }
        self.last_end = None;
    }

    /// A blank row waits for the next row drawn.
    pub fn blank_pending(&self) -> bool {
        self.blank.is_some()
    }

    /// Every row goes here: after the blank row waiting, if any (none
    /// before the first row of the answer).
    fn push_row(&mut self, row: String) {
        if let Some(b) = self.blank.take()
            && (self.wrote || !self.rows.is_empty())
        {
            self.rows.push(b);
        }
        self.rows.push(row);
    }

    fn end_block(&mut self, end: usize) {
        self.last_end = Some(self.line_end(end));
    }

    /// The margin of a row: a bar per quote, an item's lead on its first
    /// row (`first`), blanks after; blanks at its end dropped when the row
    /// is empty (`bare`). Returns the styled prefix and its width.
    fn prefix_of(&mut self, first: bool, bare: bool) -> (String, usize) {
        if self.frames.is_empty() {
            return (String::new(), 0);
        }
        let bar = if self.look.unicode { "│ " } else { "| " };
        let mut pieces: Vec<(String, bool)> = Vec::new();
        let mut w = 0;
        for f in &mut self.frames {
            match f {
                Frame::Quote => {
                    pieces.push((bar.to_string(), true));
                    w += 2;
                }
                Frame::List { .. } => {}
                Frame::Item { lead, lead_w, used } => {
                    if first && !*used {
                        pieces.push((format!("{lead} "), false));
                        *used = true;
                    } else {
                        pieces.push((" ".repeat(*lead_w), false));
                    }
                    w += *lead_w;
                }
            }
        }
        if bare {
            while let Some((p, _)) = pieces.last_mut() {
                let t = p.trim_end().len();
                p.truncate(t);
                if !p.is_empty() {
                    break;
                }
                pieces.pop();
            }
        }
        let mut s = String::new();
        for (p, dim) in pieces {
            if dim {
                s.push_str(&paint(&p, Style::Dim, self.look.color));
            } else {
                s.push_str(&p);
            }
        }
        (s, w)
    }

    fn prefix(&mut self, first: bool) -> (String, usize) {
        self.prefix_of(first, false)
    }

    /// The margin's width, nothing used.
    fn margin(&self) -> usize {
        self.frames
            .iter()
            .map(|f| match f {
                Frame::Quote => 2,
                Frame::List { .. } => 0,
                Frame::Item { lead_w, .. } => *lead_w,
            })
            .sum()
    }

    /// A blank row: the quote bars alone.
    fn blank_prefix(&mut self) -> String {
        self.prefix_of(false, true).0
    }

    /// Rows of a leaf (without margin), each given its margin: the first
    /// may show item leads.
    fn push_rows(&mut self, rows: Vec<String>) {
        for (i, r) in rows.into_iter().enumerate() {
            let (p, _) = self.prefix_of(i == 0, r.is_empty());
            self.push_row(if p.is_empty() { r } else { p + &r });
        }
    }

    /// Room for a leaf's text inside the margin.
    fn room(&self) -> usize {
        self.width().saturating_sub(self.margin()).max(1)
    }

    /// Takes one event at its place in the text.
    pub fn event(&mut self, ev: Md<'_>, range: Range<usize>) {
        match ev {
            Md::Start(tag) => self.start(tag, range),
            Md::End(end) => self.end(end, range),
            Md::Rule => {
                self.close_implicit();
                self.begin_block(range.start);
                let n = self.room();
                let r = if self.look.unicode { "─" } else { "-" }.repeat(n);
                self.push_rows(vec![paint(&r, Style::Dim, self.look.color)]);
                self.end_block(range.end);
            }
            other => self.inline(other, range),
        }
    }

    fn inline(&mut self, ev: Md<'_>, range: Range<usize>) {
        if self.skip_marker && matches!(self.leaf, Some(Leaf::Text { .. })) {
            self.skip_marker = !matches!(ev, Md::SoftBreak | Md::HardBreak);
            return;
        }
        match &mut self.leaf {
            Some(Leaf::Code { text, .. }) => {
                if let Md::Text(t) = &ev {
                    text.push_str(t);
                }
            }
            Some(Leaf::Html { text }) => {
                if let Md::Html(t) | Md::InlineHtml(t) | Md::Text(t) = &ev {
                    text.push_str(t);
                }
            }
            Some(Leaf::Table { cell, .. }) => {
                if let Some(c) = cell {
                    table_text(&ev, c, self.look.marks, self.look.unicode);
                }
            }
            Some(Leaf::Text { inline, end, .. }) => {
                inline.event(&ev);
                *end = (*end).max(range.end);
            }
            None => {
                self.open_implicit(range.start);
                self.inline(ev, range);
            }
        }
    }

    /// The text of a tight list item starts (it has no paragraph event).
    fn open_implicit(&mut self, at: usize) {
        self.begin_block(at);
        self.leaf = Some(Leaf::Text {
            inline: Inline::new(self.look, Marks::default()),
            heading: None,
            end: at,
        });
    }

    /// Ends a tight item's text before a block that follows it.
    fn close_implicit(&mut self) {
        if let Some(Leaf::Text {
            heading: None, end, ..
        }) = &self.leaf
        {
            let end = *end;
            self.flush_text(end);
        }
    }

    /// A tag starts: inline tags go to the open text, table parts to the
    /// open table, anything else starts a block.
    fn start(&mut self, tag: Tag<'_>, range: Range<usize>) {
        if is_inline(&tag) && self.leaf.is_none() {
            self.open_implicit(range.start);
        }
        if let Some(Leaf::Text { inline, end, .. }) = &mut self.leaf
            && is_inline(&tag)
        {
            inline.event(&Md::Start(tag));
            *end = (*end).max(range.end);
            return;
        }
        if let Some(Leaf::Table {
            grid,
            cell,
            in_head,
            links,
        }) = &mut self.leaf
        {
            match tag {
                Tag::TableHead => *in_head = true,
                Tag::TableRow => grid.rows.push(Vec::new()),
                Tag::TableCell => *cell = Some(String::new()),
                t @ (Tag::Link { .. } | Tag::Image { .. }) => {
                    // A cell is plain text (no hyperlink): its links show
                    // their address as a paragraph without colour does.
                    let url = match link_target(&t) {
                        Some((url, true)) => url,
                        _ => String::new(),
                    };
                    links.push((url, cell.as_ref().map_or(0, String::len)));
                }
                t => {
                    if let (Some(c), true) = (cell, self.look.marks) {
                        c.push_str(cell_mark(&t));
                    }
                }
            }
            return;
        }
        self.close_implicit();
        self.begin_block(range.start);
        self.start_block(tag, range);
    }

    /// A block starts: a container pushes its frame, a leaf opens.
    fn start_block(&mut self, tag: Tag<'_>, range: Range<usize>) {
        match tag {
            Tag::Paragraph => {
                let inline = Inline::new(self.look, Marks::default());
                self.leaf = Some(Leaf::Text {
                    inline,
                    heading: None,
                    end: range.end,
                });
            }
            Tag::Heading { level, .. } => {
                let base = Marks {
                    bold: true,
                    ..Marks::default()
                };
                self.leaf = Some(Leaf::Text {
                    inline: Inline::new(self.look, base),
                    heading: Some(level),
                    end: range.end,
                });
            }
            Tag::BlockQuote(kind) => {
                self.frames.push(Frame::Quote);
                if let Some(k) = kind {
                    self.alert(alert_name(k));
                } else if let Some(word) = alert_word(&self.src[range]) {
                    self.alert(&word);
                    self.skip_marker = true;
                }
            }
            Tag::List(start) => {
                let depth = self
                    .frames
                    .iter()
                    .filter(|f| matches!(f, Frame::List { .. }))
                    .count();
                self.frames.push(Frame::List { next: start, depth });
            }
            Tag::Item => {
                let lead = self.item_lead(range.start);
                let lead_w = width(&lead) + 1;
                self.frames.push(Frame::Item {
                    lead,
                    lead_w,
                    used: false,
                });
            }
            Tag::CodeBlock(kind) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => Some(info.to_string()),
                    CodeBlockKind::Indented => None,
                };
                self.leaf = Some(Leaf::Code {
                    lang,
                    text: String::new(),
                });
            }
            Tag::HtmlBlock => {
                self.leaf = Some(Leaf::Html {
                    text: String::new(),
                })
            }
            Tag::Table(align) => {
                self.leaf = Some(Leaf::Table {
                    grid: Grid {
                        align,
                        head: Vec::new(),
                        rows: Vec::new(),
                    },
                    cell: None,
                    in_head: false,
                    links: Vec::new(),
                })
            }
            _ => {}
        }
    }

    fn end(&mut self, end: TagEnd, range: Range<usize>) {
        match (&mut self.leaf, end) {
            (Some(Leaf::Text { inline, end: e, .. }), t) if is_inline_end(t) => {
                inline.event(&Md::End(t));
                *e = (*e).max(range.end);
                return;
            }
            (
                Some(Leaf::Table {
                    grid,
                    cell,
                    in_head,
                    links,
                }),
                t,
            ) => {
                match t {
                    TagEnd::TableHead => *in_head = false,
                    TagEnd::TableCell => {
                        let c = cell.take().unwrap_or_default().trim().to_string();
                        if *in_head {
                            grid.head.push(c);
                        } else if let Some(r) = grid.rows.last_mut() {
                            r.push(c);
                        }
                    }
                    TagEnd::Table => return self.flush_table(range.end),
                    TagEnd::Link | TagEnd::Image => {
                        if let (Some((url, at)), Some(c)) = (links.pop(), cell) {
                            cell_link_end(c, &url, at);
                        }
                    }
                    t => {
                        if let (Some(c), true) = (cell, self.look.marks) {
                            c.push_str(cell_mark_end(t));
                        }
                    }
                }
                return;
            }
            _ => {}
        }
        match end {
            TagEnd::Paragraph if std::mem::take(&mut self.skip_marker) => {
                // The marker alone: the paragraph draws nothing.
                self.leaf = None;
                self.end_block(range.end);
            }
            TagEnd::Paragraph | TagEnd::Heading(_) => self.flush_text(range.end),
            TagEnd::CodeBlock => self.flush_code(range.end),
            TagEnd::HtmlBlock => self.flush_html(range.end),
            TagEnd::BlockQuote(_) => {
                self.close_implicit();
                self.frames.pop();
                self.end_block(range.end);
            }
            TagEnd::List(_) => {
                self.close_implicit();
                self.frames.pop();
            }
            TagEnd::Item | TagEnd::FootnoteDefinition => {
                self.close_implicit();
                if let Some(Frame::Item { used: false, .. }) = self.frames.last() {
                    // An empty item: its lead alone.
                    self.push_rows(vec![String::new()]);
                }
                self.frames.pop();
                if self.last_end.is_none() {
                    self.end_block(range.end);
                }
            }
            _ => {}
        }
    }

    /// The lead of an item starting at `at`: its number (the list's next,
    /// with the delimiter written) or the bullet of its depth.
    fn item_lead(&mut self, at: usize) -> String {
        let Some(Frame::List { next, depth }) = self.frames.last_mut() else {
            return bullet(0, self.look.unicode).to_string();
        };
        match next {
            Some(n) => {
                let written = self.src[at..].trim_start();
                let digits = written.bytes().take_while(u8::is_ascii_digit).count();
                let delim = if written[digits..].starts_with(')') {
                    ')'
                } else {
                    '.'
                };
                let lead = format!("{n}{delim}");
                *n += 1;
                lead
            }
            None => bullet(*depth, self.look.unicode).to_string(),
        }
    }

    /// An alert (`> [!NOTE]`, `> [!STRATEGY]`): its kind as the quote's
    /// first row, every kind in the same style.
    fn alert(&mut self, name: &str) {
        let mut s = String::new();
        let m = Marks {
            bold: true,
            ..Marks::default()
        };
        styled(name, m, None, self.look.color, &mut s);
        self.push_rows(vec![s]);
        self.last_end = None;
    }

    /// A footnote's definition inside a container: drawn as an item led
    /// by its number (`lead`).
    pub fn note(&mut self, lead: String, at: usize) {
        self.close_implicit();
        self.begin_block(at);
        let lead_w = width(&lead) + 1;
        self.frames.push(Frame::Item {
            lead,
            lead_w,
            used: false,
        });
    }

    /// Whether glyphs beyond ASCII are drawn.
    pub fn unicode(&self) -> bool {
        self.look.unicode
    }

    /// Ends the layout: closes a leaf left open (a preview of text that
    /// is still coming).
    pub fn close(&mut self) {
        match &self.leaf {
            Some(Leaf::Text { end, .. }) => {
                let e = *end;
                self.flush_text(e);
            }
            Some(Leaf::Code { .. }) => self.flush_code(self.src.len()),
            Some(Leaf::Html { .. }) => self.flush_html(self.src.len()),
            Some(Leaf::Table { .. }) => self.flush_table(self.src.len()),
            None => {}
        }
    }
}

/// A bullet for a list at nesting `depth`.
fn bullet(depth: usize, unicode: bool) -> &'static str {
    match (unicode, depth % 3) {
        (false, _) => "-",
        (true, 0) => "•",
        (true, 1) => "◦",
        (true, _) => "▪",
    }
}

/// Whether a line of the text between `from` (a line start) and `to` is
/// blank: nothing but blanks and quote markers.
pub fn blank_line_between(src: &str, from: usize, to: usize) -> bool {
    let to = to.min(src.len());
    if from >= to {
        return false;
    }
    let gap = &src[from..to];
    let mut lines = gap.split_inclusive('\n');
    lines.any(|l| {
        l.ends_with('\n')
            && l.bytes()
                .all(|b| matches!(b, b' ' | b'\t' | b'>' | b'\n' | b'\r'))
    })
}

/// The mark a table cell's text shows for an inline tag with colour off
/// (a cell is plain text: it has no colour of its own).
fn cell_mark(tag: &Tag<'_>) -> &'static str {
    match tag {
        Tag::Emphasis => "_",
        Tag::Strong => "*",
        Tag::Strikethrough => "~~",
        _ => "",
    }
}

fn cell_mark_end(end: TagEnd) -> &'static str {
    match end {
        TagEnd::Emphasis => "_",
        TagEnd::Strong => "*",
        TagEnd::Strikethrough => "~~",
        _ => "",
    }
}

/// A link in a cell ends: its address after its text, unless it has none
/// or its text is the address; a link without text shows its address.
fn cell_link_end(cell: &mut String, url: &str, at: usize) {
    let shown = cell.get(at..).unwrap_or_default().trim();
    if url.is_empty() || shown == url.trim() {
        return;
    }
    if shown.is_empty() {
        cell.push_str(url);
    } else {
        cell.push_str(" (");
        cell.push_str(url);
        cell.push(')');
    }
}

/// Tags that open inline markup inside a leaf.
fn is_inline(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Link { .. }
            | Tag::Image { .. }
            | Tag::Superscript
            | Tag::Subscript
    )
}

fn is_inline_end(t: TagEnd) -> bool {
    matches!(
        t,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Link
            | TagEnd::Image
            | TagEnd::Superscript
            | TagEnd::Subscript
    )
}
