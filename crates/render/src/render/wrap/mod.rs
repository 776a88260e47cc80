//! Fitting text to a width, the one place that cuts and wraps: every cut
//! and wrap measures display width (CJK and emoji two columns) and ends
//! in the ellipsis of the glyph set (`…`, or `...` in ASCII). [`truncate`]
//! cuts a line, [`pad_left`] and [`pad_right`] fit it to a column,
//! [`wrap`] word-wraps one line of clean text and [`capped_wrap`] caps the
//! lines; [`stream`] wraps prose as it streams, delta by delta, and
//! [`words`] wraps styled pieces with a hanging indent (Markdown).

pub mod stream;
mod words;

pub use stream::Wrapper;
pub use words::words;

use super::text::{char_width, width};

/// The ellipsis for cut text.
pub fn ellipsis(ascii: bool) -> &'static str {
    if ascii { "..." } else { "…" }
}

/// Cuts clean text to at most `max` columns, ending in the ellipsis when
/// anything was cut. Never returns wider than `max`, even for `max` below
/// the ellipsis' own width.
pub fn truncate(s: &str, max: usize, ascii: bool) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    let ell = ellipsis(ascii);
    let ell_w = width(ell);
    if max < ell_w {
        return ".".repeat(max);
    }
    let budget = max - ell_w;
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = char_width(c);
        if used + w > budget {
            break;
        }
        out.push(c);
        used += w;
    }
    // The string measure can exceed the char sum (rare sequences); shave.
    while width(&out) > budget {
        out.pop();
    }
    out.push_str(ell);
    out
}

/// Pads (or cuts) to exactly `w` columns, text on the left.
pub fn pad_right(s: &str, w: usize, ascii: bool) -> String {
    let t = truncate(s, w, ascii);
    let n = w.saturating_sub(width(&t));
    format!("{t}{}", " ".repeat(n))
}

/// Pads (or cuts) to exactly `w` columns, text on the right.
pub fn pad_left(s: &str, w: usize, ascii: bool) -> String {
    let t = truncate(s, w, ascii);
    let n = w.saturating_sub(width(&t));
    format!("{}{t}", " ".repeat(n))
}

/// Greedy word wrap of clean one-line text; words longer than the width
/// are cut hard.
pub fn wrap(s: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut lines = Vec::new();
    let mut cur = String::new();
    let mut cur_w = 0;
    for word in s.split(' ') {
        let ww = width(word);
        if cur_w > 0 && cur_w + 1 + ww <= max {
            cur.push(' ');
            cur.push_str(word);
            cur_w += 1 + ww;
            continue;
        }
        if cur_w > 0 || !cur.is_empty() {
            lines.push(std::mem::take(&mut cur));
            cur_w = 0;
        }
        if ww <= max {
            cur.push_str(word);
            cur_w = ww;
        } else {
            for c in word.chars() {
                let w = char_width(c);
                if cur_w + w > max && cur_w > 0 {
                    lines.push(std::mem::take(&mut cur));
                    cur_w = 0;
                }
                if w > max {
                    // Too wide even alone (a wide character at width 1):
                    // a one-column mark stands in, as in the text wrapper.
                    cur.push('…');
                    cur_w += 1;
                } else {
                    cur.push(c);
                    cur_w += w;
                }
            }
        }
    }
    if !cur.is_empty() || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

/// Word-wraps to at most `max_lines`, the last one cut with an ellipsis.
pub fn capped_wrap(s: &str, w: usize, max_lines: usize, ascii: bool) -> Vec<String> {
    let mut l = wrap(s, w);
    if l.len() > max_lines {
        let rest = l[max_lines - 1..].join(" ");
        l.truncate(max_lines - 1);
        let mut cut = truncate(&rest, w.saturating_sub(1), ascii);
        if !cut.ends_with(ellipsis(ascii)) {
            cut = truncate(&format!("{rest}{}", "#".repeat(w)), w, ascii);
        }
        l.push(cut);
    }
    l
}

/// A dim footer note, wrapped at the width.
pub(in crate::render) fn note(msg: &str, opts: &super::RenderOptions, lines: &mut Vec<String>) {
    let msg = super::text::clean_line(msg, opts.ascii());
    for l in wrap(&msg, opts.width.max(1)) {
        lines.push(super::text::paint(&l, super::text::Style::Dim, opts.color));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::text::nice_step;

    #[test]
    fn truncation_respects_display_width() {
        assert_eq!(truncate("日本語テキスト", 7, false), "日本語…");
        assert_eq!(truncate("abcdef", 5, true), "ab...");
        assert_eq!(truncate("abcdef", 2, true), "..");
        assert_eq!(truncate("abc", 3, false), "abc");
        assert_eq!(nice_step(0.37), 0.5);
        assert_eq!(nice_step(140.0), 200.0);
    }

    #[test]
    fn wrap_keeps_within_width() {
        assert_eq!(wrap("aaa bbb ccc", 7), vec!["aaa bbb", "ccc"]);
        assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
    }
}
