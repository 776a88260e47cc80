//! Word wrapping of streamed prose (assistant messages, thoughts) at the
//! render width, one delta at a time. [`Wrapper`] owns the column of the
//! open line and the little it must hold back: the unfinished last word of
//! a delta while it still fits the line, the blanks before it, and the
//! first characters of a line until it is known whether they open a code
//! fence. Everything else is written as soon as it arrives, so text still
//! streams; and the result does not depend on where the deltas were cut.
//!
//! Layout rules: a word that would pass the width goes to the next line
//! (the blanks before it are dropped); a word longer than the width is cut
//! hard; explicit newlines are kept, blanks at their end dropped; tabs
//! count to the next multiple of 8 columns and are written as tabs.
//! Markdown-ish text keeps its shape: leading indentation is kept and a
//! wrapped line continues under the start of its text (under the text of a
//! list item, after its `-`, `*`, `+`, `•` or `1.`); lines indented by 4
//! columns or more, and lines inside ``` or ~~~ fences, are code and pass
//! as they are, neither wrapped nor cut (the terminal wraps them).

use crate::render::text::char_width;

/// Tab stops, as terminals set them.
const TAB: usize = 8;
/// Indentation from which a line is code (Markdown's indented code block).
const CODE_INDENT: usize = 4;

/// The column after `c` written at `col`.
fn advance(col: usize, c: char) -> usize {
    match c {
        '\t' => (col / TAB + 1) * TAB,
        c => col + char_width(c),
    }
}

fn advance_all(col: usize, s: &str) -> usize {
    s.chars().fold(col, advance)
}

/// `-`, `*`, `+`, `•`, `1.`, `12)`: a word that opens a list item.
fn is_list_marker(w: &str) -> bool {
    if matches!(w, "-" | "*" | "+" | "•") {
        return true;
    }
    let digits = w.trim_end_matches(['.', ')']);
    w.len() == digits.len() + 1
        && (1..=9).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    /// Nothing but blanks seen on this line yet: held in `lead`, with the
    /// first non-blank characters in `probe` until the kind is known.
    Start,
    /// Prose: wrapped.
    Prose,
    /// Code: passed as is up to the newline.
    Verbatim,
}

/// Streaming word wrapper; see the module documentation.
#[derive(Debug)]
pub struct Wrapper {
    width: usize,
    col: usize,
    kind: LineKind,
    lead: String,
    probe: String,
    in_fence: bool,
    /// Where wrapped lines of this line start.
    hang: usize,
    /// Some text of this line is written (beyond its indentation).
    line_has_text: bool,
    /// Words completed on this line (only 0, 1 and more matter).
    words: usize,
    /// The start of the line's first word, to tell a list marker.
    first: String,
    /// Blanks after the last word, not written until a word follows.
    space: String,
    /// The unfinished word, not written yet.
    word: String,
    word_w: usize,
    /// The current word is already being written: its next characters
    /// follow it directly (cut hard at the width).
    open: bool,
}

impl Wrapper {
    pub fn new(width: usize) -> Wrapper {
        Wrapper {
            width: width.max(1),
            col: 0,
            kind: LineKind::Start,
            lead: String::new(),
            probe: String::new(),
            in_fence: false,
            hang: 0,
            line_has_text: false,
            words: 0,
            first: String::new(),
            space: String::new(),
            word: String::new(),
            word_w: 0,
            open: false,
        }
    }

    /// Lays out `text` (clean: no control characters but `\n` and `\t`),
    /// appending what can be written now to `out`.
    pub fn push(&mut self, text: &str, out: &mut String) {
        for c in text.chars() {
            self.char(c, out);
        }
    }

    /// Writes what is held back (the stream moved on: the text must show),
    /// the blanks after it aside. A word that goes on in a later delta
    /// continues right after it.
    pub fn flush(&mut self, out: &mut String) {
        if self.kind == LineKind::Start && !self.probe.is_empty() {
            self.classify(out);
        }
        if !self.word.is_empty() && !self.open {
            self.open_word(out);
        }
    }

    /// Ends the text: flushes, and forgets the line (blanks at its end are
    /// dropped). The caller ends the line.
    pub fn finish(&mut self, out: &mut String) {
        self.flush(out);
        *self = Wrapper::new(self.width);
    }

    fn char(&mut self, c: char, out: &mut String) {
        match self.kind {
            LineKind::Start => self.start_char(c, out),
            LineKind::Verbatim => {
                out.push(c);
                if c == '\n' {
                    self.new_line();
                } else {
                    self.col = advance(self.col, c);
                }
            }
            LineKind::Prose => self.prose_char(c, out),
        }
    }

    fn new_line(&mut self) {
        let (width, in_fence) = (self.width, self.in_fence);
        *self = Wrapper::new(width);
        self.in_fence = in_fence;
    }

    fn start_char(&mut self, c: char, out: &mut String) {
        match c {
            '\n' => {
                if !self.probe.is_empty() {
                    self.classify(out);
                    return self.char(c, out);
                }
                // A blank line: its blanks are dropped.
                out.push('\n');
                self.new_line();
            }
            ' ' | '\t' if self.probe.is_empty() => {
                self.lead.push(c);
                // Code already, whatever follows: no need to hold it.
                if advance_all(0, &self.lead) >= CODE_INDENT {
                    self.classify(out);
                }
            }
            c => {
                self.probe.push(c);
                let fence = ["```", "~~~"];
                let n = self.probe.chars().count();
                if n >= 3 || !fence.iter().any(|f| f.starts_with(&self.probe)) {
                    self.classify(out);
                }
            }
        }
    }

    /// The first characters of the line are known (or the stream moved
    /// on): code, a fence or prose.
    fn classify(&mut self, out: &mut String) {
        let lead_w = advance_all(0, &self.lead);
        let probe = std::mem::take(&mut self.probe);
        let fence = lead_w < CODE_INDENT && (probe == "```" || probe == "~~~");
        if fence {
            self.in_fence = !self.in_fence;
        }
        if fence || self.in_fence || lead_w >= CODE_INDENT {
            self.kind = LineKind::Verbatim;
            out.push_str(&std::mem::take(&mut self.lead));
            out.push_str(&probe);
            self.col = advance_all(lead_w, &probe);
            return;
        }
        self.kind = LineKind::Prose;
        // Indentation is kept, unless it alone would fill the line.
        if lead_w * 2 <= self.width {
            out.push_str(&self.lead);
            self.col = lead_w;
            self.hang = lead_w;
        }
        self.lead.clear();
        for c in probe.chars() {
            self.prose_char(c, out);
        }
    }

    fn prose_char(&mut self, c: char, out: &mut String) {
        match c {
            '\n' => {
                self.end_word(out);
                out.push('\n');
                self.new_line();
            }
            ' ' | '\t' => {
                let marker = self.words == 0
                    && (self.open || !self.word.is_empty())
                    && is_list_marker(&self.first);
                self.end_word(out);
                if marker {
                    let hang = advance(self.col, c);
                    if hang * 2 <= self.width {
                        self.hang = hang;
                    }
                }
                // Blanks past the width only mean a break: not kept, so
                // memory stays bounded.
                if advance_all(self.col, &self.space) <= self.width {
                    self.space.push(c);
                }
            }
            c => {
                if self.words == 0 && self.first.len() < 16 {
                    self.first.push(c);
                }
                self.word.push(c);
                self.word_w += char_width(c);
                if self.open {
                    let s = std::mem::take(&mut self.word);
                    self.word_w = 0;
                    self.write_glued(&s, out);
                } else if !self.line_has_text
                    || advance_all(self.col, &self.space) + self.word_w > self.width
                {
                    // Nothing could go before it on this line, or it
                    // cannot fit any more: its place is known.
                    self.open_word(out);
                }
            }
        }
    }

    /// Writes the held word where it goes: after its blanks when it fits,
    /// else at the start of the next line.
    fn open_word(&mut self, out: &mut String) {
        let word = std::mem::take(&mut self.word);
        self.word_w = 0;
        if self.line_has_text {
            let after = advance_all(self.col, &self.space);
            let w: usize = word.chars().map(char_width).sum();
            if after + w <= self.width {
                out.push_str(&self.space);
                self.col = after;
            } else {
                self.break_line(out);
            }
        }
        self.space.clear();
        self.open = true;
        self.write_glued(&word, out);
    }

    /// Characters of a word already started: cut hard at the width.
    fn write_glued(&mut self, s: &str, out: &mut String) {
        for c in s.chars() {
            let w = char_width(c);
            if self.line_has_text && self.col + w > self.width {
                self.break_line(out);
            }
            if self.col + w > self.width {
                // A wide character on a line too narrow even for it alone
                // (width 1): a mark of one column stands in for it.
                out.push('…');
                self.col += 1;
            } else {
                out.push(c);
                self.col += w;
            }
            self.line_has_text = true;
        }
    }

    fn break_line(&mut self, out: &mut String) {
        out.push('\n');
        out.push_str(&" ".repeat(self.hang));
        self.col = self.hang;
        self.line_has_text = false;
        self.space.clear();
    }

    /// A blank or a newline ends the word.
    fn end_word(&mut self, out: &mut String) {
        if !self.word.is_empty() {
            self.open_word(out);
        }
        if self.open {
            self.open = false;
            self.words += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrap_all(text: &str, width: usize) -> String {
        let mut w = Wrapper::new(width);
        let mut out = String::new();
        w.push(text, &mut out);
        w.finish(&mut out);
        out
    }

    #[test]
    fn words_go_to_the_next_line_whole() {
        assert_eq!(
            wrap_all("all are here and xDrive too", 10),
            "all are\nhere and\nxDrive too"
        );
        assert_eq!(wrap_all("abcdefghij klm", 4), "abcd\nefgh\nij\nklm");
        assert_eq!(wrap_all("a\tb c", 10), "a\tb\nc");
        assert_eq!(wrap_all("a  b \t c  \n", 20), "a  b \t c\n");
        assert_eq!(wrap_all("日本語の文章", 5), "日本\n語の\n文章");
    }

    #[test]
    fn held_back_is_only_the_unfinished_word_that_still_fits() {
        let mut w = Wrapper::new(12);
        let mut out = String::new();
        w.push("one two th", &mut out);
        assert_eq!(out, "one two");
        w.push("ree four", &mut out);
        assert_eq!(out, "one two\nthree");
        w.flush(&mut out);
        assert_eq!(out, "one two\nthree four");
        w.push("th", &mut out);
        assert_eq!(out, "one two\nthree fourth");
    }

    #[test]
    fn blanks_are_not_hoarded() {
        let mut w = Wrapper::new(20);
        let mut out = String::new();
        for _ in 0..10_000 {
            w.push(" ", &mut out);
        }
        assert!(w.lead.is_empty() && out.len() == 10_000);
        w.push("x\nword", &mut out);
        for _ in 0..10_000 {
            w.push(" ", &mut out);
        }
        assert!(w.space.len() <= 21);
        w.push("next", &mut out);
        w.finish(&mut out);
        assert!(
            out.ends_with("x\nword\nnext"),
            "{:?}",
            &out[out.len() - 30..]
        );
    }

    #[test]
    fn markdown_keeps_its_shape() {
        assert_eq!(
            wrap_all("- one two three\n  1. four five six", 11),
            "- one two\n  three\n  1. four\n     five\n     six"
        );
        let code = "```\nlet x = a_very_long_name;\n```\n    indented code stays long\nend";
        assert_eq!(wrap_all(code, 10), code);
    }
}
