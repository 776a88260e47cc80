//! Display width as the renderers lay text out: per character and per
//! string (CJK and emoji two columns, box drawing one), of drawn text with
//! its escape sequences aside, and text made additive so a layout engine
//! that measures whole strings agrees with us.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Display width as this module lays text out: the larger of the per-char
/// sum and the string measure, so a terminal that draws either way never
/// gets a line wider than we planned.
pub fn width(s: &str) -> usize {
    // Printable ASCII (nearly every line) is one column a byte.
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return s.len();
    }
    // Box drawing and geometric shapes (table borders, bullets) take part
    // in no sequence the string measure treats specially, so with printable
    // ASCII beside them the per-char sum is the whole answer; the string
    // measure walks the text again and costs as much as the rest of a line.
    let mut sum = 0;
    let mut plain = true;
    for c in s.chars() {
        if (' '..='~').contains(&c) || ('\u{2500}'..='\u{257F}').contains(&c) {
            // Box drawing is one column (East Asian Ambiguous, drawn
            // narrow), as `char_width` says; the lookup costs a table walk.
            sum += 1;
        } else {
            plain &= ('\u{2500}'..='\u{25FF}').contains(&c);
            sum += char_width(c);
        }
    }
    if plain {
        sum
    } else {
        sum.max(UnicodeWidthStr::width(s))
    }
}

pub fn char_width(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(0)
}

/// Text whose string width is the sum of its characters' widths, which is
/// what a layout engine that measures whole strings (comfy-table) needs to
/// agree with us: a character that would combine with what precedes it
/// into a narrower cluster is shown as `?`.
pub fn additive(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut tail: Vec<char> = Vec::new();
    for c in s.chars() {
        let before: String = tail.iter().collect();
        let mut after = before.clone();
        after.push(c);
        let ok = UnicodeWidthStr::width(after.as_str())
            == UnicodeWidthStr::width(before.as_str()) + char_width(c);
        let c = if ok { c } else { '?' };
        out.push(c);
        tail.push(c);
        if tail.len() > 8 {
            tail.remove(0);
        }
    }
    out
}

/// The display width of drawn text, its SGR and OSC 8 sequences aside.
pub fn visible_width(s: &str) -> usize {
    if s.contains('\x1b') {
        width(&strip_ansi(s))
    } else {
        width(s)
    }
}

/// Removes SGR escape sequences and OSC strings (OSC 8 hyperlinks).
pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            match chars.next() {
                Some('[') => {
                    for d in chars.by_ref() {
                        if d.is_ascii_alphabetic() {
                            break;
                        }
                    }
                }
                // OSC (an OSC 8 hyperlink): up to BEL or ESC \.
                Some(']') => {
                    while let Some(d) = chars.next() {
                        if d == '\x07' {
                            break;
                        }
                        if d == '\x1b' {
                            chars.next();
                            break;
                        }
                    }
                }
                _ => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::text::clean_text;

    /// Box drawing and shapes beside ASCII: the per-char sum, which the
    /// shortcut in `width` returns, is never less than the string measure.
    #[test]
    fn box_drawing_width_is_the_char_sum() {
        for c in '\u{2500}'..='\u{257F}' {
            assert_eq!(char_width(c), 1, "{c:?}");
        }
        let shapes = ('\u{2500}'..='\u{25FF}').chain(['a', ' ', '~']);
        for a in shapes.clone() {
            for b in shapes.clone() {
                let s: String = [a, b, 'x'].iter().collect();
                let sum: usize = s.chars().map(char_width).sum();
                assert_eq!(
                    width(&s),
                    sum.max(UnicodeWidthStr::width(s.as_str())),
                    "{s:?}"
                );
            }
        }
    }

    #[test]
    fn escapes_take_no_columns() {
        let link = "\x1b]8;;https://example.com/a\x1b\\\x1b[4mdocs\x1b[0m\x1b]8;;\x1b\\ here";
        assert_eq!(strip_ansi(link), "docs here");
        assert_eq!(visible_width(link), 9);
        assert_eq!(visible_width("\x1b]8;;u\x07x\x1b]8;;\x07"), 1);
        assert_eq!(width("plain ascii"), 11);
        assert_eq!(width("日本"), 4);
        assert_eq!(clean_text("a\tb\n", true), "a\tb\n");
        assert_eq!(clean_text("a\x1bb", false), "a^[b");
    }
}
