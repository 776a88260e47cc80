//! Footnotes (`[^1]`): a reference is drawn as a superscript number
//! (`¹`, `[1]` in ASCII), numbered in the order the answer first refers
//! to each note; a definition is not drawn where it stands but kept, and
//! the notes are drawn after the answer, in their numbers' order, each
//! led by its number, under a rule (their text is Markdown, drawn as the
//! rest). A definition inside a quote or a list is drawn where it
//! stands, led by its number.
//!
//! pulldown-cmark makes `[^1]` a reference only when the definition is in
//! the text it parses; a definition drawn (kept) in an earlier parse is
//! not, so such a reference comes as the text `[`, `^1`, `]`, which
//! [`Brackets`] finds again.

use std::collections::HashMap;
use std::ops::Range;

use pulldown_cmark::{CowStr, Event as Md};

/// The notes of an answer so far.
#[derive(Default, Clone)]
pub struct Notes {
    /// A number per label referred to, from 1.
    pub numbers: HashMap<String, usize>,
    /// Definitions kept: label (normalized) and Markdown text, in the
    /// order they came.
    pub defs: Vec<(String, String)>,
}

impl Notes {
    pub fn defined(&self, key: &str) -> bool {
        self.defs.iter().any(|(k, _)| k == key)
    }

    /// The notes to draw after the answer, in their numbers' order, each
    /// as Markdown (`3. text`); a note never referred to takes the next
    /// number, which references inside the notes then use.
    pub fn numbered(&mut self) -> Vec<String> {
        let mut order: Vec<(usize, String)> = Vec::new();
        for (key, text) in &self.defs {
            let next = self.numbers.len() + 1;
            let n = *self.numbers.entry(key.clone()).or_insert(next);
            order.push((n, format!("{n}. {text}\n")));
        }
        order.sort_by_key(|(n, _)| *n);
        order.into_iter().map(|(_, md)| md).collect()
    }
}

/// The text of a footnote definition (`[^label]: text` and its indented
/// lines) without its label, continuation lines indented to go on a list
/// item.
pub fn note_text(def: &str) -> String {
    let body = def.find("]:").map_or(def, |i| &def[i + 2..]);
    let mut out = String::new();
    for (i, line) in body.trim_start().trim_end().lines().enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.trim().is_empty() {
                out.push_str("    ");
                out.push_str(line.trim_start());
            }
        } else {
            out.push_str(line);
        }
    }
    out
}

/// A footnote's mark in the text: its number in superscript, or in
/// brackets in ASCII.
pub fn mark(n: usize, unicode: bool) -> String {
    if unicode {
        super::math::superscript(&n.to_string()).unwrap_or_else(|| format!("[{n}]"))
    } else {
        format!("[{n}]")
    }
}

/// Finds `[`, `^label`, `]` among the text events of a block: a
/// footnote reference pulldown-cmark did not see as one.
#[derive(Default)]
pub struct Brackets<'s> {
    held: Vec<(Md<'s>, Range<usize>)>,
}

/// What the events held turned out to be.
pub enum Found<'s> {
    /// Events to draw as they are.
    Events(Vec<(Md<'s>, Range<usize>)>),
    /// `[^label]`: its normalized label and where it stands.
    Reference(String, Range<usize>),
    /// Held: more events are needed to tell.
    Held,
}

impl<'s> Brackets<'s> {
    pub fn take(&mut self, ev: Md<'s>, range: Range<usize>) -> Found<'s> {
        let is_text = |e: &Md<'_>, f: &dyn Fn(&str) -> bool| matches!(e, Md::Text(t) if f(t));
        let label_like =
            |t: &str| t.len() > 1 && t.starts_with('^') && !t.contains(char::is_whitespace);
        match self.held.len() {
            0 if is_text(&ev, &|t| t == "[") => {
                self.held.push((ev, range));
                Found::Held
            }
            1 if is_text(&ev, &label_like) => {
                self.held.push((ev, range));
                Found::Held
            }
            2 if is_text(&ev, &|t| t == "]") => {
                let start = self.held[0].1.start;
                let label = match &self.held[1].0 {
                    Md::Text(t) => normalize(&t[1..]),
                    _ => String::new(),
                };
                self.held.clear();
                Found::Reference(label, start..range.end)
            }
            0 => Found::Events(vec![(ev, range)]),
            _ => {
                let mut out = std::mem::take(&mut self.held);
                // The event may start a reference of its own.
                match self.take(ev, range) {
                    Found::Events(more) => out.extend(more),
                    Found::Held => {}
                    Found::Reference(..) => unreachable!("one event cannot close a reference"),
                }
                Found::Events(out)
            }
        }
    }

    /// The events held, given back (a block ended).
    pub fn flush(&mut self) -> Vec<(Md<'s>, Range<usize>)> {
        std::mem::take(&mut self.held)
    }
}

/// The text `[^label]` as the events it was (a note that is not
/// defined: drawn as written).
pub fn as_text<'s>(src: &'s str, range: Range<usize>) -> (Md<'s>, Range<usize>) {
    (Md::Text(CowStr::Borrowed(&src[range.clone()])), range)
}

/// A reference label as CommonMark matches it: case folded, inner blanks
/// one space.
pub fn normalize(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}
