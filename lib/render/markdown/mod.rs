//! Markdown answers drawn as they stream. [`Markdown`] owns the layout of
//! assistant message text when `--markdown on`: headings, emphasis, code,
//! links, quotes, lists, rules, fenced code with syntax highlighting and
//! GFM tables, fitted to the width.
//!
//! Streaming: text is taken delta by delta and drawn line by line. A line
//! is drawn as soon as its newline arrives (a paragraph or list item is
//! never held past its line end), a table once its last row is known, and
//! nothing is drawn twice or moved afterwards, so the output works in a
//! pipe and a CI log and does not depend on how the answer was cut into
//! deltas. The price: an emphasis that spans a line break is drawn as its
//! literal markers, since each line is parsed when it ends.
//!
//! Parsing is pulldown-cmark's: each completed line (with the indentation
//! of the lists it sits in taken off) is parsed as a document and its
//! block and inline events are drawn; a table's lines are parsed together.
//! Only what needs the lines around it is tracked here: open fences, open
//! list items (their content columns) and table candidates.

mod code;
mod inline;
mod lines;
mod table;

use pulldown_cmark::{Event as Md, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::RenderOptions;
use super::text::{Style, paint, width};
use inline::{Inline, Look, Marks, wrap_spans};
use lines::{closes, indent_of, is_delimiter_row, is_table_row, list_marker, opens, strip_cols};

/// An open list item: where its content starts in the source, and on
/// screen.
#[derive(Debug, Clone, Copy)]
struct Item {
    src: usize,
    screen: usize,
}

struct Fence {
    ch: char,
    len: usize,
    code: code::Code,
}

/// Streaming Markdown renderer; see the module documentation.
pub struct Markdown {
    opts: RenderOptions,
    partial: String,
    fence: Option<Fence>,
    table: Vec<String>,
    items: Vec<Item>,
    /// The last line drawn was prose (so a less indented line may be a
    /// lazy continuation of it).
    in_paragraph: bool,
    blank_pending: bool,
    wrote: bool,
    /// Rows of the open line already drawn (see [`Markdown::stream_open_line`]).
    early: usize,
    /// The open line's length at which to look for settled rows again: a
    /// row settles only after about a row of new text, so laying out the
    /// line at every delta would cost its length squared. Looking later
    /// only draws a row later, never differently.
    probe_at: usize,
    /// Bytes of code that may still be highlighted in this answer.
    highlight_budget: usize,
}

/// Whether more text could still change what kind of block an open line
/// is: `--` may become a rule (`---`, `- - -`), `12` a list item (`12. `).
fn block_kind_settled(partial: &str) -> bool {
    let t = partial.trim_start();
    if t.chars()
        .all(|c| matches!(c, '-' | '=' | '*' | '_' | '+' | ' ' | '\t'))
    {
        return false;
    }
    let first_word_done = t.contains([' ', '\t']);
    first_word_done || !t.starts_with(|c: char| c.is_ascii_digit())
}

impl Markdown {
    pub fn new(opts: RenderOptions) -> Markdown {
        Markdown {
            opts,
            partial: String::new(),
            fence: None,
            table: Vec::new(),
            items: Vec::new(),
            in_paragraph: false,
            blank_pending: false,
            wrote: false,
            early: 0,
            probe_at: 0,
            highlight_budget: code::HIGHLIGHT_BUDGET,
        }
    }

    /// Takes text as the model sent it and appends every line it completes
    /// to `out`. Control characters are made visible line by line, so a
    /// CR LF cut between two deltas still reads as a line end.
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
        self.stream_open_line(out);
    }

    /// Draws the rows of the open line that can no longer change: every
    /// wrapped row but the last, while the line so far holds no character
    /// that later text could turn into markup (an emphasis, code or link
    /// delimiter, a table pipe, an escape). Later text cannot restyle plain
    /// words, and greedy wrapping never moves a word back, so these rows
    /// are exactly the first rows of the finished line: the output still
    /// does not depend on where the deltas were cut.
    fn stream_open_line(&mut self, out: &mut String) {
        if self.partial.len() < self.probe_at || self.fence.is_some() || !self.table.is_empty() {
            return;
        }
        let (mut markup, mut printable) = (false, true);
        for &b in self.partial.as_bytes() {
            markup |= is_markup_byte(b);
            printable &= (0x20..0x7f).contains(&b);
        }
        // Printable ASCII is drawn no wider than its list indent, its text
        // and a code block's indent: until then no row can settle, and
        // laying the line out at every delta would cost most of the time.
        let at = self.items.last().map_or(0, |i| i.screen);
        if markup
            || (printable && at + self.partial.len() + code::INDENT < self.opts.width)
            || self.partial.trim().is_empty()
            // A heading's underline follows its last row.
            || self.partial.trim_start().starts_with('#')
            // The first half of a CR LF cut between deltas, not a `^M`.
            || self.partial.ends_with('\r')
            || !block_kind_settled(&self.partial)
        {
            return;
        }
        self.probe_at = self.partial.len() + (self.opts.width / 2).max(8);
        let mut probe = Markdown::new(self.opts.clone());
        probe.items = self.items.clone();
        probe.in_paragraph = self.in_paragraph;
        let mut drawn = String::new();
        let partial = super::text::clean_text_cow(&self.partial, !self.opts.unicode);
        probe.block_line(&partial, &mut drawn);
        if probe.fence.is_some() || !probe.table.is_empty() {
            return;
        }
        let rows: Vec<&str> = drawn.split_inclusive('\n').collect();
        if rows.len() > self.early + 1 {
            if self.blank_pending && self.wrote {
                out.push('\n');
            }
            self.blank_pending = false;
            for r in &rows[self.early..rows.len() - 1] {
                out.push_str(r);
            }
            self.wrote = true;
            self.early = rows.len() - 1;
        }
    }

    /// The text ended: draws the open line and any open table, and closes
    /// every block.
    pub fn finish(&mut self, out: &mut String) {
        if !self.partial.is_empty() {
            let l = std::mem::take(&mut self.partial);
            self.line(&l, out);
        }
        self.flush_table(out);
        let opts = self.opts.clone();
        *self = Markdown::new(opts);
    }

    fn look(&self) -> Look {
        Look {
            color: self.opts.color,
            unicode: self.opts.unicode,
            hyperlinks: self.opts.hyperlinks,
        }
    }

    fn emit(&mut self, lines: Vec<String>, out: &mut String) {
        // Rows streamed before the line ended are not drawn again.
        let early = std::mem::take(&mut self.early);
        if self.blank_pending && self.wrote && early == 0 {
            out.push('\n');
        }
        self.blank_pending = false;
        for l in lines.into_iter().skip(early) {
            // The last guard of the width promise (indents of deep lists
            // and quotes at a tiny width): the line loses its styling.
            // (Never wider than its bytes: most lines are settled here.)
            let w = self.opts.width.max(1);
            if l.len() > w && super::text::visible_width(&l) > w {
                let plain = super::text::strip_ansi(&l);
                out.push_str(&super::wrap::truncate(
                    &plain,
                    self.opts.width.max(1),
                    !self.opts.unicode,
                ));
            } else {
                out.push_str(&l);
            }
            out.push('\n');
        }
        self.wrote = true;
    }

    fn line(&mut self, raw: &str, out: &mut String) {
        self.probe_at = 0;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let cleaned = super::text::clean_text_cow(raw, !self.opts.unicode);
        let line = &*cleaned;
        if let Some(f) = &mut self.fence {
            if closes(line, f.ch, f.len) {
                self.fence = None;
                return;
            }
            let indent = self.items.last().map_or(0, |i| i.screen) + code::INDENT;
            let src = strip_cols(line, self.items.last().map_or(0, |i| i.src));
            let lines = f.code.line(
                &src,
                &" ".repeat(indent),
                indent,
                self.opts.width,
                &mut self.highlight_budget,
            );
            return self.emit(lines, out);
        }
        if !self.table.is_empty() {
            if is_table_row(line) && (self.table.len() > 1 || is_delimiter_row(line)) {
                self.table.push(line.trim().to_string());
                return;
            }
            self.flush_table(out);
        }
        if line.trim().is_empty() {
            self.blank_pending = true;
            self.in_paragraph = false;
            return;
        }
        self.block_line(line, out);
    }

    fn block_line(&mut self, line: &str, out: &mut String) {
        let indent = indent_of(line);
        let marker = list_marker(line.trim_start());
        // Items this line is no longer inside; a plain line right after
        // prose is a lazy continuation and stays in its item.
        let lazy = self.in_paragraph && marker.is_none();
        while let Some(top) = self.items.last() {
            if indent >= top.src || lazy {
                break;
            }
            self.items.pop();
        }
        let (src_col, screen_col) = self.items.last().map_or((0, 0), |i| (i.src, i.screen));
        let rest = strip_cols(line, src_col);
        let inner = indent.saturating_sub(src_col);
        if inner < 4
            && rest.trim_start().starts_with(['`', '~'])
            && let Some((ch, len, info)) = opens(rest.trim_start())
        {
            self.fence = Some(Fence {
                ch,
                len,
                // Past the highlighting budget a block is drawn plain, so
                // it needs no highlighter (making one is not free).
                code: code::Code::new(&info, self.opts.color && self.highlight_budget > 0),
            });
            self.in_paragraph = false;
            return;
        }
        if inner < 4 && is_table_row(&rest) {
            self.table.push(rest.trim().to_string());
            self.in_paragraph = false;
            return;
        }
        if let Some(m) = marker
            && (inner < 4 || !self.items.is_empty())
        {
            let src = src_col + inner + m;
            let lines = self.draw_block(rest.trim_start(), screen_col, Some(src));
            return self.emit(lines, out);
        }
        let lines = self.draw_block(&rest, screen_col, None);
        self.emit(lines, out);
    }

    /// Parses one line's text and draws it at screen column `at`. For a
    /// list item, `item_src` is where its content starts in the source;
    /// the item is opened.
    fn draw_block(&mut self, text: &str, at: usize, item_src: Option<usize>) -> Vec<String> {
        self.draw_block_as(text, at, item_src, plain_block(text))
    }

    /// [`Markdown::draw_block`] of a line known to be a plain paragraph or
    /// list item (`plain`, see [`plain_block`]), or to be parsed (`None`).
    fn draw_block_as(
        &mut self,
        text: &str,
        at: usize,
        item_src: Option<usize>,
        plain: Option<(Option<&str>, &str)>,
    ) -> Vec<String> {
        let block = self.parse_block(text, plain);
        self.in_paragraph = block.heading.is_none() && !block.rule && !block.code_block;
        let margin = Margin::new(at, block.quote, &self.opts);
        if block.rule {
            return vec![margin.rule(self.opts.width.max(1))];
        }
        if block.code_block {
            return margin.code(&block.inline.spans, self.opts.width.max(1));
        }
        self.draw_prose(block, &margin, item_src)
    }

    /// What one line holds: its kind and its inline spans, from the plain
    /// shortcut or from pulldown-cmark's events.
    fn parse_block(&self, text: &str, plain: Option<(Option<&str>, &str)>) -> Block {
        let ascii = !self.opts.unicode;
        let mut b = Block {
            inline: Inline::new(self.look(), Marks::default()),
            quote: 0,
            heading: None,
            bullet: None,
            code_block: false,
            rule: false,
        };
        let mut depth = self.items.len();
        let events = match plain {
            // What pulldown-cmark makes of a plain paragraph or list item,
            // without its set-up, which costs more than drawing the line.
            Some((marker, body)) => {
                if let Some(m) = marker {
                    b.bullet = Some(match m.parse::<u64>() {
                        Ok(n) => format!("{n}."),
                        Err(_) => bullet_glyph(depth, ascii).to_string(),
                    });
                }
                b.inline.spans.push(inline::Span {
                    text: body.to_string(),
                    marks: Marks::default(),
                    url: None,
                });
                None
            }
            None => Some(Parser::new_ext(
                text,
                Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS,
            )),
        };
        for ev in events.into_iter().flatten() {
            match &ev {
                Md::Start(Tag::BlockQuote(_)) => b.quote += 1,
                Md::Start(Tag::Heading { level, .. }) => {
                    b.heading = Some(*level);
                    b.inline = Inline::new(
                        self.look(),
                        Marks {
                            bold: true,
                            ..Marks::default()
                        },
                    );
                }
                Md::Start(Tag::List(start)) => {
                    if b.bullet.is_none() {
                        b.bullet = Some(match start {
                            Some(n) => format!("{n}."),
                            None => bullet_glyph(depth, ascii).to_string(),
                        });
                    }
                }
                Md::Start(Tag::Item) => depth += 1,
                Md::Start(Tag::CodeBlock(_)) => b.code_block = true,
                Md::Rule => b.rule = true,
                Md::Text(t) if b.code_block => b.inline.spans.push(inline::Span {
                    text: t.trim_end_matches('\n').to_string(),
                    marks: Marks::default(),
                    url: None,
                }),
                Md::End(TagEnd::Heading(_)) => {}
                _ => {
                    b.inline.event(&ev);
                }
            }
        }
        b
    }

    /// A paragraph, list item or heading: its lead (an item's bullet or
    /// number, opening the item), its words wrapped under a hanging
    /// indent, a heading's underline.
    fn draw_prose(
        &mut self,
        block: Block,
        margin: &Margin,
        item_src: Option<usize>,
    ) -> Vec<String> {
        let w = self.opts.width.max(1);
        let at = margin.at;
        let (lead, lead_w) = match &block.bullet {
            Some(b) => {
                let bw = width(b) + 1;
                if let Some(src) = item_src {
                    self.items.push(Item {
                        src,
                        screen: at + bw,
                    });
                }
                (format!("{b} "), bw)
            }
            None => (String::new(), 0),
        };
        let first = margin.prefix(&lead);
        let first_w = at + margin.qw + lead_w;
        let mut lines = wrap_spans(
            &block.inline.spans,
            &first,
            first_w,
            first_w,
            w,
            self.opts.color,
        );
        if margin.qw > 0 {
            let cont = margin.prefix(&" ".repeat(lead_w));
            for l in lines.iter_mut().skip(1) {
                *l = format!("{cont}{}", l.trim_start_matches(' '));
            }
        }
        if let Some(level) = block.heading
            && let Some(u) = margin.underline(level, &lines)
        {
            lines.push(u);
        }
        lines
    }

    fn flush_table(&mut self, out: &mut String) {
        if self.table.is_empty() {
            return;
        }
        let rows = std::mem::take(&mut self.table);
        let at = self.items.last().map_or(0, |i| i.screen);
        let room = self.opts.width.saturating_sub(at).max(1);
        match table::parse(&rows) {
            Some(grid) => {
                let pad = " ".repeat(at);
                let mut lines: Vec<String> =
                    table::draw(&grid, room, self.opts.unicode, self.opts.color)
                        .into_iter()
                        .map(|l| format!("{pad}{l}"))
                        .collect();
                if self.opts.chart_tables {
                    lines.extend(self.table_chart(&rows));
                }
                self.emit(lines, out);
            }
            None => {
                for r in rows {
                    self.block_line(&r, out);
                }
            }
        }
        self.in_paragraph = false;
    }

    /// `--chart-tables`: a table whose other columns hold numbers, also as
    /// a bar chart, read by viz-parse's own Markdown table reader.
    fn table_chart(&self, rows: &[String]) -> Vec<String> {
        let popts = crate::parse::ParseOptions {
            format: Some(crate::parse::Format::Markdown),
            chart: Some(crate::spec::ChartType::Bar),
            ..Default::default()
        };
        match crate::parse::parse_text(&rows.join("\n"), &popts) {
            Ok(n) if n.chart.series.iter().any(|s| !s.points.is_empty()) => {
                let mut lines = vec![String::new()];
                lines.extend(super::render_chart(&n.chart, &self.opts));
                lines
            }
            _ => Vec::new(),
        }
    }
}

/// Bytes that may start or end inline markup (or an entity, an escape,
/// a table cell) somewhere in a line.
fn is_markup_byte(b: u8) -> bool {
    matches!(
        b,
        b'*' | b'_' | b'~' | b'`' | b'[' | b']' | b'<' | b'>' | b'\\' | b'!' | b'&' | b'|' | b'$'
    )
}

/// A line pulldown-cmark reads as one paragraph of one plain text: it
/// starts with a letter (no block marker, under four blanks of indent) and
/// holds no control character and no markup byte. Blanks around it do not
/// matter: wrapping drops them as the parser does.
fn is_plain_paragraph(text: &str) -> bool {
    let t = text.trim_start_matches(' ');
    text.len() - t.len() < 4
        && t.starts_with(|c: char| c.is_ascii_alphabetic() || !c.is_ascii())
        && t.bytes()
            .all(|b| b >= 0x20 && b != 0x7f && !is_markup_byte(b))
}

/// A plain paragraph, or a list item holding one: the item's marker
/// (`-`, `*`, `+`, or its number) and the paragraph.
fn plain_block(text: &str) -> Option<(Option<&str>, &str)> {
    if is_plain_paragraph(text) {
        return Some((None, text));
    }
    let m = list_marker(text)?;
    let body = text.get(m..)?;
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let marker = if digits > 0 {
        &text[..digits]
    } else {
        &text[..1]
    };
    is_plain_paragraph(body).then_some((Some(marker), body))
}

/// One line's block, parsed: how deep in quotes, its kind, and its
/// inline spans.
struct Block {
    inline: Inline,
    quote: usize,
    heading: Option<HeadingLevel>,
    /// A list item's bullet or number (`1.`).
    bullet: Option<String>,
    code_block: bool,
    rule: bool,
}

/// What starts each drawn row of a block: `at` blanks, then a bar per
/// quote level (`qw` columns).
struct Margin {
    at: usize,
    pad: String,
    quote_prefix: String,
    qw: usize,
    ascii: bool,
    color: bool,
}

impl Margin {
    fn new(at: usize, quote: usize, opts: &RenderOptions) -> Margin {
        let ascii = !opts.unicode;
        let quote_prefix = if ascii { "| " } else { "│ " }.repeat(quote);
        Margin {
            at,
            pad: " ".repeat(at),
            qw: width(&quote_prefix),
            quote_prefix,
            ascii,
            color: opts.color,
        }
    }

    /// `s` after the margin.
    fn prefix(&self, s: &str) -> String {
        format!(
            "{}{}",
            self.pad,
            paint(&self.quote_prefix, Style::Dim, self.color)
        ) + s
    }

    /// A thematic break across the room left at width `w`.
    fn rule(&self, w: usize) -> String {
        let n = w.saturating_sub(self.at + self.qw).max(1);
        let r = if self.ascii { "-" } else { "─" }.repeat(n);
        self.prefix(&paint(&r, Style::Dim, self.color))
    }

    /// An indented code line (the spans' text), never highlighted.
    fn code(&self, spans: &[inline::Span], w: usize) -> Vec<String> {
        let src = spans.iter().map(|s| s.text.as_str()).collect::<String>();
        let ind = self.at + self.qw + code::INDENT;
        let mut c = code::Code::new("", self.color);
        // Never highlighted (no language): no budget spent.
        c.line(
            &src,
            &self.prefix(&" ".repeat(code::INDENT)),
            ind,
            w,
            &mut 0,
        )
    }

    /// The underline of a level 1 or 2 heading drawn as `lines`, as wide
    /// as its text; none for the other levels.
    fn underline(&self, level: HeadingLevel, lines: &[String]) -> Option<String> {
        let text_w = lines
            .iter()
            .map(|l| width(&super::text::strip_ansi(l)))
            .max()
            .unwrap_or(0);
        let u = match (level, self.ascii) {
            (HeadingLevel::H1, false) => "━",
            (HeadingLevel::H2, false) => "─",
            (HeadingLevel::H1, true) => "=",
            (HeadingLevel::H2, true) => "-",
            _ => return None,
        };
        let n = text_w.saturating_sub(self.at + self.qw).max(1);
        Some(self.prefix(&paint(&u.repeat(n), Style::Dim, self.color)))
    }
}

fn bullet_glyph(depth: usize, ascii: bool) -> &'static str {
    match (ascii, depth % 3) {
        (true, _) => "-",
        (false, 0) => "•",
        (false, 1) => "◦",
        (false, _) => "▪",
    }
}

#[cfg(test)]
mod tests;
