//! Inline Markdown (emphasis, strong, strikethrough, code, links, the
//! inline HTML of [`super::html`]) as styled spans, and the word wrapping
//! of those spans at the width (by [`wrap::words`]). Widths are measured
//! on the text alone, before any escape sequence is added, so the width
//! promise holds with colour on. With colour off the marks are written
//! out as plain-text renderers do: `*strong*`, `_emphasis_`, `` `code` ``,
//! `~~struck~~`, `[key]`.

use pulldown_cmark::{Event as Md, LinkType, Tag, TagEnd};

use super::html::{self, Known};
use super::math;
use crate::render::text::ascii_fold;
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
    /// A key (`<kbd>`): reverse video.
    pub kbd: bool,
}

impl Marks {
    fn or(self, o: Marks) -> Marks {
        Marks {
            bold: self.bold || o.bold,
            italic: self.italic || o.italic,
            strike: self.strike || o.strike,
            code: self.code || o.code,
            link: self.link || o.link,
            dim: self.dim || o.dim,
            underline: self.underline || o.underline,
            kbd: self.kbd || o.kbd,
        }
    }
}

/// The span that stands for a line break inside a paragraph (a line end,
/// a hard break, `<br>`).
pub const BREAK: &str = "\n";

/// A run of text with one look; `url` is set on link text when the link
/// is written as an OSC 8 hyperlink.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub marks: Marks,
    pub url: Option<String>,
    /// Display math: its TeX, drawn on rows of its own where it fits
    /// (`text` is its one-row form, drawn where it does not).
    pub math: Option<String>,
}

impl Span {
    pub fn plain(text: String) -> Span {
        Span {
            text,
            marks: Marks::default(),
            url: None,
            math: None,
        }
    }
}

/// What the inline renderer may use.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    pub color: bool,
    /// Marks are written out as text (`*strong*`): colour is off, and the
    /// text is not painted as a whole (a thought is dim).
    pub marks: bool,
    pub unicode: bool,
    pub hyperlinks: bool,
}

/// Where an open mark came from: a Markdown tag (closed by its end
/// event, innermost first) or a known HTML tag (closed by its closing
/// tag, which may come in any order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Markdown,
    Html(Known),
}

/// An open link: its address, the first span of its text, whether the
/// address is shown after it.
struct OpenLink {
    url: String,
    first: usize,
    show_url: bool,
    image: bool,
}

/// Collects inline events into spans. Text outside any mark keeps `base`.
pub struct Inline {
    look: Look,
    base: Marks,
    open: Vec<(Origin, Marks)>,
    links: Vec<OpenLink>,
    /// `<sup>` and `<sub>` open.
    sup: usize,
    sub: usize,
    pub spans: Vec<Span>,
}

impl Inline {
    pub fn new(look: Look, base: Marks) -> Inline {
        Inline {
            look,
            base,
            open: Vec::new(),
            links: Vec::new(),
            sup: 0,
            sub: 0,
            spans: Vec::new(),
        }
    }

    fn marks(&self) -> Marks {
        self.open.iter().fold(self.base, |m, (_, o)| m.or(*o))
    }

    /// Adds text (clean of control characters) in the marks open now.
    pub fn text(&mut self, text: &str) {
        let m = self.marks();
        self.push_text(text, m);
    }

    fn push_text(&mut self, text: &str, marks: Marks) {
        if text.is_empty() {
            return;
        }
        let url = if marks.link && self.look.hyperlinks && self.look.color {
            self.links.last().map(|l| l.url.clone())
        } else {
            None
        };
        let scripted;
        let text = if self.sup + self.sub > 0 && text != BREAK {
            scripted = html::script(text, self.sup > 0, self.look.unicode);
            &scripted
        } else {
            text
        };
        let text = if self.look.unicode || text.is_ascii() {
            text.to_string()
        } else {
            let mut folded = String::with_capacity(text.len());
            for c in text.chars() {
                ascii_fold(c, &mut folded);
            }
            folded
        };
        self.spans.push(Span {
            text,
            marks,
            url,
            math: None,
        });
    }

    /// Display math: on rows of its own.
    fn display_math(&mut self, tex: &str) {
        if self.spans.last().is_some_and(|s| s.text != BREAK) {
            self.line_break();
        }
        let text = math::inline(tex, self.look.unicode);
        let marks = self.marks();
        self.push_text(&text, marks);
        if let Some(s) = self.spans.last_mut() {
            s.math = Some(tex.to_string());
        }
        self.line_break();
    }

    /// A line break inside the paragraph.
    pub fn line_break(&mut self) {
        self.spans.push(Span::plain(BREAK.to_string()));
    }

    /// A mark written out with colour off (`*`, `_`, `~~`), in the marks
    /// around it.
    fn marker(&mut self, s: &str) {
        if self.look.marks {
            let m = self.marks();
            self.push_text(s, m);
        }
    }

    /// Takes one inline event; false when it is not an inline event.
    pub fn event(&mut self, ev: &Md<'_>) -> bool {
        match ev {
            Md::Text(t) => self.text(t),
            Md::Code(c) => {
                let marks = Marks {
                    code: true,
                    ..self.marks()
                };
                if !self.look.marks {
                    self.push_text(c, marks);
                } else {
                    // Without colour the backticks are what tells code apart.
                    self.push_text(&format!("`{c}`"), marks);
                }
            }
            // A line end inside a paragraph stays one, as chat windows and
            // GitHub comments draw it: models write `**Name:** x` lines
            // one under the other and mean them so.
            Md::SoftBreak | Md::HardBreak => self.line_break(),
            Md::Html(h) | Md::InlineHtml(h) => self.html(h),
            Md::InlineMath(t) if math::is_money(t) => self.text(&format!("${t}$")),
            Md::InlineMath(t) => self.text(&math::inline(t, self.look.unicode)),
            Md::DisplayMath(t) => self.display_math(t),
            Md::TaskListMarker(done) => {
                let b = match (done, self.look.unicode) {
                    (true, true) => "☑ ",
                    (false, true) => "☐ ",
                    (true, false) => "[x] ",
                    (false, false) => "[ ] ",
                };
                self.text(b);
            }
            Md::Start(tag) => self.start(tag),
            Md::End(end) => self.end(*end),
            _ => return false,
        }
        true
    }

    /// An inline HTML tag: a known one opens or closes its look, another
    /// is shown as written.
    pub fn html(&mut self, h: &str) {
        match html::tag(h) {
            Some(t) => self.known(t),
            None => self.text(h),
        }
    }

    /// A known HTML tag (see [`super::html`]).
    pub fn known(&mut self, t: html::Tag) {
        let flag = match t.known {
            Known::Break => return self.line_break(),
            Known::Bold | Known::Summary => Marks {
                bold: true,
                ..Marks::default()
            },
            Known::Italic => Marks {
                italic: true,
                ..Marks::default()
            },
            Known::Code => Marks {
                code: true,
                ..Marks::default()
            },
            Known::Strike => Marks {
                strike: true,
                ..Marks::default()
            },
            Known::Underline => Marks {
                underline: true,
                ..Marks::default()
            },
            Known::Kbd => Marks {
                kbd: true,
                ..Marks::default()
            },
            Known::Sub | Known::Sup | Known::Details => Marks::default(),
        };
        let origin = Origin::Html(t.known);
        if t.closing {
            let Some(at) = self.open.iter().rposition(|(o, _)| *o == origin) else {
                // A closing tag with nothing open means nothing.
                return;
            };
            self.open.remove(at);
            self.script_count(t.known, false);
            self.html_marker(t.known, true);
            return;
        }
        self.html_marker(t.known, false);
        self.open.push((origin, flag));
        self.script_count(t.known, true);
    }

    fn script_count(&mut self, k: Known, open: bool) {
        let n = match k {
            Known::Sup => &mut self.sup,
            Known::Sub => &mut self.sub,
            _ => return,
        };
        *n = if open { *n + 1 } else { n.saturating_sub(1) };
    }

    /// What a known tag writes itself: a summary's disclosure mark, and
    /// with colour off the marks of its look.
    fn html_marker(&mut self, k: Known, closing: bool) {
        match (k, closing) {
            (Known::Summary, false) => {
                let m = self.marks();
                let mark = if self.look.unicode { "▸ " } else { "> " };
                self.push_text(mark, m);
            }
            (Known::Bold, _) => self.marker("*"),
            (Known::Italic, _) => self.marker("_"),
            (Known::Code, _) => self.marker("`"),
            (Known::Strike, _) => self.marker("~~"),
            (Known::Underline, _) => self.marker("_"),
            (Known::Kbd, false) => self.marker("["),
            (Known::Kbd, true) => self.marker("]"),
            _ => {}
        }
    }

    fn start(&mut self, tag: &Tag<'_>) {
        let flag = match tag {
            Tag::Emphasis => {
                self.marker("_");
                Marks {
                    italic: true,
                    ..Marks::default()
                }
            }
            Tag::Strong => {
                self.marker("*");
                Marks {
                    bold: true,
                    ..Marks::default()
                }
            }
            Tag::Strikethrough => {
                self.marker("~~");
                Marks {
                    strike: true,
                    ..Marks::default()
                }
            }
            Tag::Link { .. } | Tag::Image { .. } => {
                let (url, shows_url) = link_target(tag).unwrap_or_default();
                // An image's text is plain: a link inside it shows no
                // address of its own.
                let in_image = self.links.iter().any(|l| l.image);
                self.links.push(OpenLink {
                    url,
                    first: self.spans.len(),
                    show_url: !in_image && shows_url,
                    image: matches!(tag, Tag::Image { .. }),
                });
                Marks {
                    link: true,
                    underline: true,
                    ..Marks::default()
                }
            }
            _ => Marks::default(),
        };
        self.open.push((Origin::Markdown, flag));
    }

    fn end(&mut self, end: TagEnd) {
        if let Some(at) = self.open.iter().rposition(|(o, _)| *o == Origin::Markdown) {
            self.open.remove(at);
        }
        match end {
            TagEnd::Emphasis => self.marker("_"),
            TagEnd::Strong => self.marker("*"),
            TagEnd::Strikethrough => self.marker("~~"),
            TagEnd::Link | TagEnd::Image => self.end_link(),
            _ => {}
        }
    }

    fn end_link(&mut self) {
        let Some(link) = self.links.pop() else {
            return;
        };
        let shown: String = self.spans[link.first..]
            .iter()
            .map(|s| s.text.as_str())
            .collect();
        if shown.trim().is_empty() && link.show_url {
            // A link without text: its address is its text.
            let m = Marks {
                link: true,
                underline: true,
                ..self.marks()
            };
            self.links.push(link);
            let url = self.links.last().map(|l| l.url.clone()).unwrap_or_default();
            self.push_text(&url, m);
            self.links.pop();
            return;
        }
        let osc8 = self.look.hyperlinks && self.look.color;
        if link.show_url && !osc8 && !link.url.is_empty() && shown.trim() != link.url.trim() {
            let outer = self.marks();
            self.push_text(" ", outer);
            let dim = Marks { dim: true, ..outer };
            self.push_text(&format!("({})", link.url), dim);
        }
    }
}

/// A link's or image's address, and whether its address is shown beside
/// its text (an autolink's text is its address).
pub(super) fn link_target(tag: &Tag<'_>) -> Option<(String, bool)> {
    match tag {
        Tag::Link {
            dest_url,
            link_type,
            ..
        }
        | Tag::Image {
            dest_url,
            link_type,
            ..
        } => Some((
            dest_url.to_string(),
            !matches!(link_type, LinkType::Autolink | LinkType::Email),
        )),
        _ => None,
    }
}

/// Writes the SGR sequence of a look (nothing when nothing is set);
/// whether it wrote one. Written in place: this runs for every styled
/// piece of an answer.
fn push_sgr(m: Marks, out: &mut String) -> bool {
    let codes = [
        (m.bold, "1"),
        (m.dim, "2"),
        (m.italic, "3"),
        (m.underline, "4"),
        (m.kbd, "7"),
        (m.strike, "9"),
        (m.code, "36"),
        (m.link, "34"),
    ];
    let mut any = false;
    for (on, code) in codes {
        if on {
            out.push_str(if any { ";" } else { "\x1b[" });
            out.push_str(code);
            any = true;
        }
    }
    if any {
        out.push('m');
    }
    any
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
    if push_sgr(m, out) {
        out.push_str(text);
        out.push_str("\x1b[0m");
    } else {
        out.push_str(text);
    }
    if url.is_some() {
        out.push_str("\x1b]8;;\x1b\\");
    }
}

/// Columns display math is set in by.
const MATH_INDENT: usize = 2;

/// Word-wraps spans into rows of at most `room` columns, a row more at
/// each [`BREAK`] span. Blanks at row ends are dropped; a word longer
/// than the room is cut (see [`wrap::words`]).
pub fn wrap_spans(spans: &[Span], room: usize, look: Look) -> Vec<String> {
    let mut rows = Vec::new();
    let color = look.color;
    for part in spans.split(|s| s.text == BREAK) {
        if let [
            Span {
                math: Some(tex), ..
            },
        ] = part
            && let Some(drawn) = math::display(tex, look.unicode, room.saturating_sub(MATH_INDENT))
        {
            let pad = " ".repeat(MATH_INDENT);
            rows.extend(drawn.into_iter().map(|r| format!("{pad}{r}")));
            continue;
        }
        rows.extend(wrap::words(
            part,
            |s| s.text.as_str(),
            |text, s, out| styled(text, s.marks, s.url.as_deref(), color, out),
            ("", 0),
            0,
            room,
        ));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::text::width;

    const LOOK: Look = Look {
        color: false,
        marks: true,
        unicode: true,
        hyperlinks: false,
    };

    fn plain(t: &str) -> Span {
        Span::plain(t.into())
    }

    #[test]
    fn wraps_and_cuts_long_words() {
        let spans = [plain("alpha beta gamma delta"), plain(" abcdefghijklmnop")];
        let l = wrap_spans(&spans, 10, LOOK);
        assert_eq!(l, ["alpha beta", "gamma", "delta", "abcdefghij", "klmnop"]);
        for x in &l {
            assert!(width(x) <= 10);
        }
    }

    #[test]
    fn a_break_starts_a_row() {
        let spans = [plain("one two"), plain(BREAK), plain("three")];
        assert_eq!(wrap_spans(&spans, 40, LOOK), ["one two", "three"]);
    }

    #[test]
    fn html_closing_tags_close_their_own_look() {
        let look = Look {
            color: true,
            marks: false,
            unicode: true,
            hyperlinks: false,
        };
        let mut i = Inline::new(look, Marks::default());
        i.html("<b>");
        i.text("a");
        i.html("<i>");
        i.text("b");
        i.html("</b>");
        i.text("c");
        i.html("</i>");
        i.text("d");
        i.html("</kbd>");
        let looks: Vec<(bool, bool)> = i
            .spans
            .iter()
            .map(|s| (s.marks.bold, s.marks.italic))
            .collect();
        assert_eq!(
            looks,
            [(true, false), (true, true), (false, true), (false, false)]
        );
    }
}
