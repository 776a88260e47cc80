//! Inline Markdown (emphasis, strong, strikethrough, code, links) as
//! styled spans, and the word wrapping of those spans at the width with a
//! hanging indent (by [`wrap::words`]). Widths are measured on the text alone, before any
//! escape sequence is added, so the width promise holds with colour on.

use pulldown_cmark::{Event as Md, Tag, TagEnd};

use crate::render::wrap;

/// How a piece of text is drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marks {
    pub bold: bool,
    pub italic: bool,
    pub strike: bool,
    pub code: bool,
    pub link: bool,
    pub dim: bool,
    pub underline: bool,
}

/// A run of text with one look; `url` is set on link text when the link
/// is written as an OSC 8 hyperlink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub marks: Marks,
    pub url: Option<String>,
}

/// What the inline renderer may use.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    pub color: bool,
    pub unicode: bool,
    pub hyperlinks: bool,
}

/// Collects inline events into spans. Text outside any mark keeps `base`.
pub struct Inline {
    look: Look,
    base: Marks,
    stack: Vec<Marks>,
    links: Vec<(String, usize)>,
    pub spans: Vec<Span>,
}

impl Inline {
    pub fn new(look: Look, base: Marks) -> Inline {
        Inline {
            look,
            base,
            stack: Vec::new(),
            links: Vec::new(),
            spans: Vec::new(),
        }
    }

    fn marks(&self) -> Marks {
        self.stack.last().copied().unwrap_or(self.base)
    }

    fn push_text(&mut self, text: &str, marks: Marks) {
        let url = if marks.link && self.look.hyperlinks && self.look.color {
            self.links.last().map(|(u, _)| u.clone())
        } else {
            None
        };
        self.spans.push(Span {
            text: text.to_string(),
            marks,
            url,
        });
    }

    /// Takes one inline event; false when it is not an inline event.
    pub fn event(&mut self, ev: &Md<'_>) -> bool {
        let m = self.marks();
        match ev {
            Md::Text(t) => self.push_text(t, m),
            Md::Code(c) => {
                let marks = Marks { code: true, ..m };
                if self.look.color {
                    self.push_text(c, marks);
                } else {
                    // Without colour the backticks are what tells code apart.
                    self.push_text(&format!("`{c}`"), marks);
                }
            }
            Md::SoftBreak | Md::HardBreak => self.push_text(" ", m),
            Md::Html(h) | Md::InlineHtml(h) => self.push_text(h, m),
            Md::InlineMath(t) | Md::DisplayMath(t) => self.push_text(t, m),
            Md::FootnoteReference(r) => self.push_text(&format!("[^{r}]"), m),
            Md::TaskListMarker(done) => {
                let b = match (done, self.look.unicode) {
                    (true, true) => "☑ ",
                    (false, true) => "☐ ",
                    (true, false) => "[x] ",
                    (false, false) => "[ ] ",
                };
                self.push_text(b, m);
            }
            Md::Start(tag) => self.start(tag, m),
            Md::End(end) => self.end(*end),
            _ => return false,
        }
        true
    }

    fn start(&mut self, tag: &Tag<'_>, m: Marks) {
        let next = match tag {
            Tag::Emphasis => Marks { italic: true, ..m },
            Tag::Strong => Marks { bold: true, ..m },
            Tag::Strikethrough => {
                if !self.look.color {
                    self.push_text("~~", m);
                }
                Marks { strike: true, ..m }
            }
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                self.links.push((dest_url.to_string(), self.spans.len()));
                Marks {
                    link: true,
                    underline: true,
                    ..m
                }
            }
            _ => m,
        };
        self.stack.push(next);
    }

    fn end(&mut self, end: TagEnd) {
        let m = self.stack.pop().unwrap_or(self.base);
        match end {
            TagEnd::Strikethrough if !self.look.color => self.push_text("~~", self.marks()),
            TagEnd::Link | TagEnd::Image => {
                let Some((url, first)) = self.links.pop() else {
                    return;
                };
                let shown: String = self.spans[first..]
                    .iter()
                    .map(|s| s.text.as_str())
                    .collect();
                let osc8 = self.look.hyperlinks && self.look.color;
                if !osc8 && !url.is_empty() && shown.trim() != url.trim() {
                    let outer = self.marks();
                    self.push_text(" ", outer);
                    let dim = Marks {
                        dim: true,
                        link: false,
                        underline: false,
                        ..outer
                    };
                    self.push_text(&format!("({url})"), dim);
                }
                let _ = m;
            }
            _ => {}
        }
    }
}

/// SGR parameters of a look; empty when nothing is set.
fn sgr(m: Marks) -> String {
    let mut p: Vec<&str> = Vec::new();
    if m.bold {
        p.push("1");
    }
    if m.dim {
        p.push("2");
    }
    if m.italic {
        p.push("3");
    }
    if m.underline {
        p.push("4");
    }
    if m.strike {
        p.push("9");
    }
    if m.code {
        p.push("36");
    }
    if m.link {
        p.push("34");
    }
    p.join(";")
}

/// Writes a piece of clean text with its look.
pub fn styled(text: &str, m: Marks, url: Option<&str>, color: bool, out: &mut String) {
    if !color || text.is_empty() {
        out.push_str(text);
        return;
    }
    if let Some(u) = url {
        out.push_str("\x1b]8;;");
        out.push_str(u);
        out.push_str("\x1b\\");
    }
    let code = sgr(m);
    if code.is_empty() {
        out.push_str(text);
    } else {
        out.push_str("\x1b[");
        out.push_str(&code);
        out.push('m');
        out.push_str(text);
        out.push_str("\x1b[0m");
    }
    if url.is_some() {
        out.push_str("\x1b]8;;\x1b\\");
    }
}

/// Word-wraps spans into lines of at most `width` columns: the first line
/// starts with `first` (already styled, `first_w` columns), the others
/// with `rest` blanks. Blanks at line ends are dropped; a word longer than
/// the room is cut (see [`wrap::words`]).
pub fn wrap_spans(
    spans: &[Span],
    first: &str,
    first_w: usize,
    rest: usize,
    total: usize,
    color: bool,
) -> Vec<String> {
    wrap::words(
        spans,
        |s| s.text.as_str(),
        |text, s, out| styled(text, s.marks, s.url.as_deref(), color, out),
        (first, first_w),
        rest,
        total,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::text::width;

    fn plain(t: &str) -> Span {
        Span {
            text: t.into(),
            marks: Marks::default(),
            url: None,
        }
    }

    #[test]
    fn wraps_with_a_hanging_indent_and_cuts_long_words() {
        let spans = [plain("alpha beta gamma delta"), plain(" abcdefghijklmnop")];
        let l = wrap_spans(&spans, "- ", 2, 2, 12, false);
        assert_eq!(
            l,
            [
                "- alpha beta",
                "  gamma",
                "  delta",
                "  abcdefghij",
                "  klmnop"
            ]
        );
        for x in &l {
            assert!(width(x) <= 12);
        }
    }
}
