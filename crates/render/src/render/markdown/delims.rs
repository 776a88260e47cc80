//! Math written between `\(…\)` (inline) and `\[…\]` (display), as models
//! often write it, turned into pulldown-cmark's own math events. CommonMark
//! reads `\(` as an escaped `(`, so the delimiters are looked for in the
//! source of each run of plain text (text and soft breaks, outside code
//! blocks): `\\(` is an escaped backslash and a `(`, no delimiter; code
//! spans are no text and keep their `\(`. Math that crosses other markup
//! (emphasis, a link) is left as it was read. The result depends only on
//! the block's text, so how an answer was cut does not change it.

use std::collections::VecDeque;
use std::ops::Range;

use pulldown_cmark::{CowStr, Event as Md, Tag, TagEnd};

/// The parser's events with `\(…\)` and `\[…\]` as math.
pub struct MathDelims<'s, I> {
    src: &'s str,
    inner: I,
    /// Code blocks open around the next event.
    in_code: usize,
    run: Vec<(Md<'s>, Range<usize>)>,
    ready: VecDeque<(Md<'s>, Range<usize>)>,
}

impl<'s, I: Iterator<Item = (Md<'s>, Range<usize>)>> MathDelims<'s, I> {
    pub fn new(src: &'s str, inner: I) -> Self {
        MathDelims {
            src,
            inner,
            in_code: 0,
            run: Vec::new(),
            ready: VecDeque::new(),
        }
    }

    /// Whether an event may be part of a run of plain text: a soft break,
    /// or text read as written (an entity's text is not its source).
    fn plain(&self, ev: &Md<'s>, r: &Range<usize>) -> bool {
        match ev {
            Md::SoftBreak => true,
            Md::Text(t) => self.in_code == 0 && self.src.get(r.clone()) == Some(&**t),
            _ => false,
        }
    }

    /// The run gathered so far, with its math, to the events ready.
    fn flush(&mut self) {
        let run = std::mem::take(&mut self.run);
        if run.len() == 1 || !run.iter().any(|(_, r)| self.escaped(r)) {
            self.ready.extend(run);
            return;
        }
        convert(self.src, run, &mut self.ready);
    }

    /// Whether a text starts after a backslash (an escape).
    fn escaped(&self, r: &Range<usize>) -> bool {
        r.start > 0 && self.src.as_bytes()[r.start - 1] == b'\\'
    }
}

impl<'s, I: Iterator<Item = (Md<'s>, Range<usize>)>> Iterator for MathDelims<'s, I> {
    type Item = (Md<'s>, Range<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(e) = self.ready.pop_front() {
                return Some(e);
            }
            let Some((ev, r)) = self.inner.next() else {
                if self.run.is_empty() {
                    return None;
                }
                self.flush();
                continue;
            };
            if self.plain(&ev, &r) {
                self.run.push((ev, r));
                continue;
            }
            match ev {
                Md::Start(Tag::CodeBlock(_)) => self.in_code += 1,
                Md::End(TagEnd::CodeBlock) => self.in_code = self.in_code.saturating_sub(1),
                _ => {}
            }
            self.flush();
            self.ready.push_back((ev, r));
        }
    }
}

/// One event of a run and where its source starts in the run's source.
struct Piece<'s> {
    ev: Md<'s>,
    range: Range<usize>,
    /// 1 when the text follows an escaping backslash (part of its source).
    lead: usize,
    at: usize,
}

/// A math span in the run's source: its delimiters' bounds and its TeX.
struct Span {
    from: usize,
    to: usize,
    display: bool,
    tex: String,
}

fn convert<'s>(
    src: &'s str,
    run: Vec<(Md<'s>, Range<usize>)>,
    out: &mut VecDeque<(Md<'s>, Range<usize>)>,
) {
    let mut raw = String::new();
    let mut pieces = Vec::with_capacity(run.len());
    let mut prev_end = 0;
    for (ev, range) in run {
        let lead = usize::from(
            matches!(ev, Md::Text(_))
                && range.start > prev_end
                && src.as_bytes()[range.start - 1] == b'\\',
        );
        let at = raw.len();
        match ev {
            Md::SoftBreak => raw.push('\n'),
            _ => raw.push_str(&src[range.start - lead..range.end]),
        }
        prev_end = range.end;
        pieces.push(Piece {
            ev,
            range,
            lead,
            at,
        });
    }
    let spans = find(&raw);
    if spans.is_empty() {
        out.extend(pieces.into_iter().map(|p| (p.ev, p.range)));
        return;
    }
    // Where a position in the run's source is in the answer's source.
    let to_src = |pos: usize, end: bool| -> usize {
        let i = pieces
            .iter()
            .rposition(|p| if end { p.at < pos } else { p.at <= pos })
            .unwrap_or(0);
        let p = &pieces[i];
        p.range.start - p.lead + (pos - p.at)
    };
    let mut next = spans.iter().peekable();
    for p in &pieces {
        let len = match p.ev {
            Md::SoftBreak => 1,
            _ => p.range.len() + p.lead,
        };
        let (start, end) = (p.at, p.at + len);
        let mut pos = start;
        while pos < end {
            match next.peek() {
                Some(s) if s.from <= pos => {
                    if s.from == pos {
                        let ev = if s.display {
                            Md::DisplayMath(CowStr::from(s.tex.clone()))
                        } else {
                            Md::InlineMath(CowStr::from(s.tex.clone()))
                        };
                        out.push_back((ev, to_src(s.from, false)..to_src(s.to, true)));
                    }
                    if s.to <= end {
                        pos = s.to;
                        next.next();
                    } else {
                        pos = end;
                    }
                }
                s => {
                    let stop = s.map_or(end, |s| s.from.min(end));
                    out.push_back(part(p, pos - start, stop - start));
                    pos = stop;
                }
            }
        }
    }
}

/// The part of a piece between two offsets in its source.
fn part<'s>(p: &Piece<'s>, a: usize, b: usize) -> (Md<'s>, Range<usize>) {
    let len = p.range.len() + p.lead;
    match &p.ev {
        Md::Text(t) if a > 0 || b < len => {
            // The escaping backslash is not in the text.
            let (ta, tb) = (a.saturating_sub(p.lead), b - p.lead);
            let s = p.range.start - p.lead;
            (
                Md::Text(CowStr::from(t[ta..tb].to_string())),
                s + a.max(p.lead)..s + b,
            )
        }
        ev => (ev.clone(), p.range.clone()),
    }
}

/// The math spans in a run's source, read a TeX token at a time: a
/// backslash and the character after it go together (`\\` is a row's end
/// in TeX and an escaped backslash in Markdown, never a delimiter).
fn find(raw: &str) -> Vec<Span> {
    let b = raw.as_bytes();
    let mut spans = Vec::new();
    let mut open: Option<(usize, bool)> = None;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            i += 1;
            continue;
        }
        match (open, b[i + 1]) {
            (None, b'(') => open = Some((i, false)),
            (None, b'[') => open = Some((i, true)),
            (Some((from, display)), c) if c == if display { b']' } else { b')' } => {
                let tex = raw[from + 2..i].trim();
                // Math has a letter or a digit; `\[\\\]` is three escaped
                // characters (CommonMark's example 12), not math.
                if !tex.chars().any(char::is_alphanumeric) {
                    open = None;
                } else {
                    spans.push(Span {
                        from,
                        to: i + 2,
                        display,
                        tex: tex.replace('\n', " "),
                    });
                    open = None;
                }
            }
            _ => {}
        }
        i += 2;
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;
    use pulldown_cmark::Parser;

    fn events(src: &str) -> Vec<String> {
        let p = Parser::new_ext(src, super::super::blocks::OPTIONS).into_offset_iter();
        MathDelims::new(src, p)
            .filter_map(|(e, r)| {
                let s = match e {
                    Md::Text(t) => format!("T{:?}", &*t),
                    Md::InlineMath(t) => format!("M{:?}", &*t),
                    Md::DisplayMath(t) => format!("D{:?}", &*t),
                    Md::Code(t) => format!("C{:?}", &*t),
                    Md::SoftBreak => "SB".to_string(),
                    _ => return None,
                };
                Some(format!("{s}@{r:?}"))
            })
            .collect()
    }

    #[test]
    fn delimiters_make_math() {
        assert_eq!(
            events("see \\(x^2\\) now"),
            [r#"T"see "@0..4"#, r#"M"x^2"@4..11"#, r#"T" now"@11..15"#]
        );
        assert_eq!(
            events("> \\[\n> a \\\\ b\n> \\]\n"),
            [r#"D"a \\\\ b"@2..18"#]
        );
    }

    #[test]
    fn escaped_backslashes_and_code_are_left_alone() {
        assert_eq!(
            events("a \\\\(y\\\\) b"),
            [r#"T"a "@0..2"#, r#"T"\\(y"@3..6"#, r#"T"\\) b"@7..11"#]
        );
        assert_eq!(events("`\\(x\\)`"), [r#"C"\\(x\\)"@0..7"#]);
        assert_eq!(events("```\n\\(x\\)\n```\n"), [r#"T"\\(x\\)\n"@4..10"#]);
    }

    #[test]
    fn escaped_punctuation_is_no_math() {
        let e = events("\\[\\\\\\] and \\(\\)");
        assert!(e.iter().all(|e| !e.contains("Math")), "{e:?}");
    }

    #[test]
    fn math_across_markup_stays_text() {
        let e = events("\\(a *b* c\\)");
        assert!(e.iter().all(|e| !e.contains("Math")), "{e:?}");
    }
}
