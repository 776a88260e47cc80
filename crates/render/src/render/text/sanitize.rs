//! Making model and data text harmless for the terminal: control
//! characters, escapes and bidi overrides shown in a visible form,
//! variation selectors and emoji joiners dropped, and in ASCII mode
//! non-ASCII text folded (`é` → `e`, `—` → `--`) or `?`.

use std::borrow::Cow;

use super::width::char_width;

/// Characters that reorder or hide text (Trojan Source) or break lines
/// behind the terminal's back; shown as `<U+XXXX>`.
fn is_hazard(c: char) -> bool {
    matches!(c,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}'
        | '\u{FFF9}'..='\u{FFFB}' | '\u{061C}')
}

/// Variation selectors change a character's width on some terminals and
/// not on others; dropping them makes every terminal agree with us.
fn is_dropped(c: char) -> bool {
    matches!(c, '\u{FE0E}' | '\u{FE0F}')
}

/// In labels, emoji joiners and skin-tone modifiers go too: terminals
/// draw a joined sequence as one glyph or several, so columns after it
/// would not line up. `👨‍👩‍👧` becomes `👨👩👧`, the same on every terminal.
fn is_dropped_in_line(c: char) -> bool {
    matches!(c, '\u{200D}' | '\u{1F3FB}'..='\u{1F3FF}')
}

/// The common non-ASCII punctuation and Latin-1 letters have a readable
/// ASCII form; everything else becomes `?`.
pub fn ascii_fold(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c);
        return;
    }
    let s = match c {
        '\u{2014}' | '\u{2015}' => "--",
        '\u{2010}'..='\u{2013}' | '\u{2212}' => "-",
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{2032}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{2033}' | '\u{00AB}' | '\u{00BB}' => "\"",
        '\u{2026}' => "...",
        '\u{2022}' | '\u{00B7}' | '\u{2027}' => "*",
        '\u{2192}' => "->",
        '\u{2190}' => "<-",
        '\u{00D7}' => "x",
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{3000}' => " ",
        '\u{00B0}' => "deg",
        '\u{00B5}' | '\u{03BC}' => "u",
        '\u{00A9}' => "(c)",
        '\u{20AC}' => "EUR",
        '\u{00A3}' => "GBP",
        '\u{00A5}' => "JPY",
        '\u{2264}' => "<=",
        '\u{2265}' => ">=",
        '\u{00C0}'..='\u{00C5}' => "A",
        '\u{00C7}' => "C",
        '\u{00C8}'..='\u{00CB}' => "E",
        '\u{00CC}'..='\u{00CF}' => "I",
        '\u{00D1}' => "N",
        '\u{00D2}'..='\u{00D6}' | '\u{00D8}' => "O",
        '\u{00D9}'..='\u{00DC}' => "U",
        '\u{00DD}' => "Y",
        '\u{00DF}' => "ss",
        '\u{00E0}'..='\u{00E5}' => "a",
        '\u{00E7}' => "c",
        '\u{00E8}'..='\u{00EB}' => "e",
        '\u{00EC}'..='\u{00EF}' => "i",
        '\u{00F1}' => "n",
        '\u{00F2}'..='\u{00F6}' | '\u{00F8}' => "o",
        '\u{00F9}'..='\u{00FC}' => "u",
        '\u{00FD}' | '\u{00FF}' => "y",
        c if char_width(c) == 0 => "",
        _ => "?",
    };
    out.push_str(s);
}

fn push_visible(c: char, ascii: bool, out: &mut String) {
    if is_dropped(c) {
        return;
    }
    if is_hazard(c) || ('\u{80}'..='\u{9f}').contains(&c) {
        out.push_str(&format!("<U+{:04X}>", c as u32));
    } else if (c as u32) < 0x20 {
        out.push('^');
        out.push(char::from_u32(c as u32 + 0x40).unwrap_or('?'));
    } else if c == '\u{7f}' {
        out.push_str("^?");
    } else if ascii {
        ascii_fold(c, out);
    } else {
        out.push(c);
    }
}

/// One line of data text (a label, a title): tabs and line breaks become
/// spaces, other control characters their caret form (`ESC` is `^[`), C1
/// controls and bidi overrides `<U+009B>`; in ASCII mode every non-ASCII
/// character is folded (`é` is `e`, `—` is `--`) or becomes `?`.
pub fn clean_line(s: &str, ascii: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\t' | '\n' | '\r' => out.push(' '),
            c if is_dropped_in_line(c) => {}
            c => push_visible(c, ascii, &mut out),
        }
    }
    out
}

/// A title or unit as drawn: [`clean_line`] of its trimmed text, or
/// nothing when there is none or it is blank.
pub fn clean_title(s: Option<&str>, ascii: bool) -> Option<String> {
    s.map(|t| clean_line(t.trim(), ascii))
        .filter(|t| !t.is_empty())
}

/// Prose (message text): kept as written, `\n` and `\t` included, but no
/// control character reaches the terminal raw. `\r\n` is a line break; a
/// lone `\r` (which would overwrite the line) shows as `^M`.
pub fn clean_text(s: &str, ascii: bool) -> String {
    clean_text_cow(s, ascii).into_owned()
}

/// [`clean_text`], borrowing text that is clean already (nearly all of it).
pub fn clean_text_cow(s: &str, ascii: bool) -> Cow<'_, str> {
    if s.bytes()
        .all(|b| (0x20..0x7f).contains(&b) || b == b'\n' || b == b'\t')
    {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' | '\t' => out.push(c),
            '\r' if chars.peek() == Some(&'\n') => {}
            c => push_visible(c, ascii, &mut out),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_made_visible() {
        assert_eq!(
            clean_line("a\x1b[31mb\u{9b}c\td", false),
            "a^[[31mb<U+009B>c d"
        );
        assert_eq!(clean_text("x\r\ny\rz\n", false), "x\ny^Mz\n");
        assert_eq!(clean_line("é—日", true), "e--?");
        assert_eq!(clean_line("\u{202E}abc", false), "<U+202E>abc");
    }
}
