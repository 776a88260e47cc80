//! A Markdown document as a man(7) page, for pages whose source is prose
//! rather than a clap command (`gemline-events(5)` from docs/events.md).
//! Headings become sections, paragraphs filled text, code blocks unfilled
//! text, lists indented paragraphs and tables tbl(1) tables (the page asks
//! for the tbl preprocessor on its first line, as man(1) expects).
//!
//! Every piece of text is escaped for roff: backslashes, hyphens (`\-`, so
//! a flag copied from the page is a real hyphen-minus) and a `.` or `'`
//! that would start a line and be read as a request.

use pulldown_cmark::{Alignment, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// The page's `.TH` line and NAME section.
pub struct Title<'a> {
    pub name: &'a str,
    pub section: &'a str,
    pub source: &'a str,
    pub manual: &'a str,
    pub summary: &'a str,
}

/// The whole page: title, NAME, the document (its first top-level heading
/// becomes DESCRIPTION), and SEE ALSO.
pub fn page(title: &Title<'_>, markdown: &str, see_also: &[&str]) -> String {
    let mut w = Writer::default();
    w.out.push_str("'\\\" t\n");
    w.request(&format!(
        ".TH {} {} \"\" \"{}\" \"{}\"",
        escape(&title.name.to_uppercase()),
        title.section,
        escape(title.source),
        escape(title.manual)
    ));
    w.request(".SH NAME");
    w.text(&format!(
        "{} \\- {}",
        escape(title.name),
        escape(title.summary)
    ));
    w.render(markdown);
    if !see_also.is_empty() {
        w.request(".SH \"SEE ALSO\"");
        let refs: Vec<String> = see_also
            .iter()
            .map(|r| match r.split_once('(') {
                Some((n, s)) => format!("\\fB{}\\fR({s}", escape(n)),
                None => escape(r),
            })
            .collect();
        w.text(&refs.join(", "));
    }
    w.out
}

/// Text escaped for roff, with no line-start handling (see [`Writer::text`]).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            // Typographic quotes and dashes have roff names that render on
            // any output device, ASCII terminals included.
            '\u{2014}' => out.push_str("\\(em"),
            '\u{2013}' => out.push_str("\\(en"),
            '\u{2018}' | '\u{2019}' => out.push('\''),
            '\u{201c}' | '\u{201d}' => out.push('"'),
            c => out.push(c),
        }
    }
    out
}

#[derive(Default)]
struct Writer {
    out: String,
    /// Font escapes open for emphasis, strong, code (innermost last).
    fonts: Vec<&'static str>,
    /// Nested list depth, and the number of the next item in each.
    lists: Vec<Option<u64>>,
    /// A table being collected: rows of cells, and the column alignments.
    table: Option<Table>,
    in_code: bool,
    /// A link target to show after its text, when it differs from it.
    link: Vec<(String, usize)>,
    first_h1_seen: bool,
    /// Text is inside a list item, so a paragraph must not reset the indent.
    item_open: bool,
}

#[derive(Default)]
struct Table {
    align: Vec<Alignment>,
    rows: Vec<Vec<String>>,
    cell: String,
}

impl Writer {
    fn request(&mut self, line: &str) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        self.out.push_str(line);
        self.out.push('\n');
    }

    /// Escaped text appended to the current line; a `.` or `'` at the
    /// start of an output line gets the zero-width `\&` so it is text.
    fn text(&mut self, escaped: &str) {
        if let Some(t) = &mut self.table {
            t.cell.push_str(escaped);
            return;
        }
        for (i, line) in escaped.split('\n').enumerate() {
            if i > 0 {
                self.out.push('\n');
            }
            if (self.out.is_empty() || self.out.ends_with('\n'))
                && (line.starts_with('.') || line.starts_with('\''))
            {
                self.out.push_str("\\&");
            }
            self.out.push_str(line);
        }
    }

    fn render(&mut self, markdown: &str) {
        let parser = Parser::new_ext(markdown, Options::ENABLE_TABLES);
        for event in parser {
            self.event(event);
        }
        if !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) if self.in_code => {
                for line in t.lines() {
                    let line = escape(line);
                    self.text(&line);
                    self.out.push('\n');
                }
            }
            Event::Text(t) => self.text(&escape(&t)),
            Event::Code(c) => self.text(&format!("\\fB{}{}", escape(&c), self.font())),
            Event::SoftBreak => self.text("\n"),
            Event::HardBreak => self.request(".br"),
            Event::Rule => self.request(".PP"),
            Event::Html(h) | Event::InlineHtml(h) => self.text(&escape(&h)),
            _ => {}
        }
    }

    /// The font escape that returns to the enclosing style.
    fn font(&self) -> &'static str {
        self.fonts.last().copied().unwrap_or("\\fR")
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Heading { level, .. } => match level {
                HeadingLevel::H1 if !self.first_h1_seen => {
                    self.first_h1_seen = true;
                    self.request(".SH DESCRIPTION");
                    // The document's title is the first line of its
                    // description, in bold.
                    self.request(".PP");
                    self.text("\\fB");
                    self.fonts.push("\\fB");
                }
                HeadingLevel::H1 | HeadingLevel::H2 => {
                    self.out.push_str(".SH \"");
                    self.fonts.push("\\fR");
                }
                _ => {
                    self.out.push_str(".SS \"");
                    self.fonts.push("\\fR");
                }
            },
            Tag::Paragraph if self.item_open => {}
            Tag::Paragraph if !self.lists.is_empty() => self.request(".IP \"\" 2"),
            Tag::Paragraph => self.request(".PP"),
            Tag::CodeBlock(_) => {
                self.request(".PP");
                self.request(".RS 2");
                self.request(".nf");
                self.in_code = true;
            }
            Tag::List(start) => {
                if !self.lists.is_empty() {
                    self.request(".RS 2");
                }
                self.lists.push(start);
            }
            Tag::Item => {
                let bullet = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{}.", *n - 1)
                    }
                    _ => "\\(bu".to_string(),
                };
                self.request(&format!(".IP {bullet} 2"));
                self.item_open = true;
            }
            Tag::BlockQuote(_) => self.request(".RS 4"),
            Tag::Emphasis => {
                self.text("\\fI");
                self.fonts.push("\\fI");
            }
            Tag::Strong => {
                self.text("\\fB");
                self.fonts.push("\\fB");
            }
            Tag::Link { dest_url, .. } => {
                let at = self.out.len();
                self.link.push((dest_url.to_string(), at));
            }
            Tag::Table(align) => {
                self.table = Some(Table {
                    align,
                    ..Table::default()
                });
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(t) = &mut self.table {
                    t.rows.push(Vec::new());
                }
            }
            Tag::TableCell => {}
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Heading(HeadingLevel::H1) if self.fonts.last() == Some(&"\\fB") => {
                self.fonts.pop();
                self.text("\\fR");
                self.out.push('\n');
            }
            TagEnd::Heading(_) => {
                self.fonts.pop();
                self.out.push_str("\"\n");
            }
            TagEnd::Paragraph => {
                self.item_open = false;
                self.out.push('\n');
            }
            TagEnd::CodeBlock => {
                self.in_code = false;
                self.request(".fi");
                self.request(".RE");
            }
            TagEnd::List(_) => {
                self.lists.pop();
                self.item_open = false;
                if self.lists.is_empty() {
                    self.request(".PP");
                } else {
                    self.request(".RE");
                }
            }
            TagEnd::Item => {
                self.item_open = false;
                if !self.out.ends_with('\n') {
                    self.out.push('\n');
                }
            }
            TagEnd::BlockQuote(_) => self.request(".RE"),
            TagEnd::Emphasis | TagEnd::Strong => {
                self.fonts.pop();
                let back = self.font();
                self.text(back);
            }
            TagEnd::Link => {
                if let Some((url, at)) = self.link.pop() {
                    let shown = self.out.get(at..).unwrap_or_default().to_string();
                    if !url.starts_with('#') && !shown.contains(&escape(&url)) {
                        self.text(&format!(" <{}>", escape(&url)));
                    }
                }
            }
            TagEnd::TableCell => {
                if let Some(t) = &mut self.table {
                    let cell = std::mem::take(&mut t.cell);
                    if let Some(row) = t.rows.last_mut() {
                        row.push(cell);
                    }
                }
            }
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    self.write_table(&t);
                }
            }
            _ => {}
        }
    }

    /// A tbl table: a bold header row; the first column as wide as its
    /// longest cell (names, in every table of ours), the others sharing
    /// the rest of the width, each of their cells a text block (`T{ T}`)
    /// that wraps.
    fn write_table(&mut self, t: &Table) {
        let columns = t.rows.iter().map(Vec::len).max().unwrap_or(0);
        if columns == 0 {
            return;
        }
        let spec = |bold: bool| {
            (0..columns)
                .map(|i| {
                    let a = match t.align.get(i) {
                        Some(Alignment::Center) => "c",
                        Some(Alignment::Right) => "r",
                        _ => "l",
                    };
                    let m = if bold {
                        "b"
                    } else if i > 0 || columns == 1 {
                        "x"
                    } else {
                        ""
                    };
                    format!("{a}{m}")
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        self.request(".PP");
        self.request(".TS");
        self.request("allbox;");
        self.request(&spec(true));
        self.request(&format!("{}.", spec(false)));
        for row in &t.rows {
            let cells: Vec<String> = (0..columns)
                .map(|i| {
                    // A tab would split the cell; a leading `.` or `'`
                    // would be read as a request inside a text block.
                    let body = row.get(i).map(String::as_str).unwrap_or("");
                    let body = body.replace(['\n', '\t'], " ");
                    let body = if body.starts_with('.') || body.starts_with('\'') {
                        format!("\\&{body}")
                    } else {
                        body
                    };
                    if i == 0 && columns > 1 {
                        body
                    } else {
                        format!("T{{\n{body}\nT}}")
                    }
                })
                .collect();
            self.request(&cells.join("\t"));
        }
        self.request(".TE");
        // The box's last rule takes the space a paragraph would leave.
        self.request(".sp");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(md: &str) -> String {
        page(
            &Title {
                name: "x",
                section: "5",
                source: "s",
                manual: "m",
                summary: "a thing",
            },
            md,
            &[],
        )
    }

    #[test]
    fn escapes_what_roff_would_read_as_requests() {
        let p = doc("# T\n\nA line\n.starts with a dot, has a \\ and --flag\n");
        assert!(
            p.contains("\n\\&.starts with a dot, has a \\e and \\-\\-flag"),
            "{p}"
        );
        let p = doc("```\n.TH injected\n'also\n```\n");
        assert!(p.contains("\\&.TH injected\n\\&'also\n"), "{p}");
    }

    #[test]
    fn headings_lists_code_and_tables_have_their_macros() {
        let p = doc(
            "# Title\n\nIntro `code`.\n\n## Part two\n\n- one\n- two\n\n### Sub\n\n| a | b |\n| --- | --- |\n| `x` | y z |\n",
        );
        assert!(p.starts_with("'\\\" t\n.TH X 5 "), "{p}");
        for needle in [
            ".SH DESCRIPTION\n.PP\n\\fBTitle\\fR\n",
            "Intro \\fBcode\\fR.",
            ".SH \"Part two\"\n",
            ".IP \\(bu 2\none\n",
            ".SS \"Sub\"\n",
            ".TS\nallbox;\nlb lb\nl lx.\na\tT{\nb\nT}\n\\fBx\\fR\tT{\ny z\nT}\n.TE\n",
        ] {
            assert!(p.contains(needle), "missing {needle:?} in\n{p}");
        }
    }
}
