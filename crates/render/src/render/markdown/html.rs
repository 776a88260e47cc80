//! The HTML models write inside Markdown, read for what it means: `<br>`
//! a line break, `<b>`/`<strong>`, `<i>`/`<em>`, `<code>`, `<s>`/`<del>`,
//! `<u>`, `<kbd>` a style, `<sub>`/`<sup>` sub- and superscript,
//! `<details>` and its `<summary>` a disclosure line. Any other tag (and
//! a comment) is not interpreted: it is shown as the text it is, and the
//! text of an HTML block is never read as Markdown.

/// A tag this renderer draws, opening or closing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    Break,
    Bold,
    Italic,
    Code,
    Strike,
    Underline,
    Kbd,
    Sub,
    Sup,
    Details,
    Summary,
}

/// A known tag: which, and whether it closes (`</b>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tag {
    pub known: Known,
    pub closing: bool,
}

/// `html` (one tag, `<b>`, `</B >`, `<br/>`, `<kbd class="k">`) as a known
/// tag; `None` for any other tag, a comment or text.
pub fn tag(html: &str) -> Option<Tag> {
    let inner = html.trim().strip_prefix('<')?.strip_suffix('>')?;
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let name_len = inner.bytes().take_while(u8::is_ascii_alphanumeric).count();
    let (name, rest) = inner.split_at(name_len);
    // After the name: nothing, attributes after a blank, or a `/`.
    let rest_ok = rest.is_empty()
        || rest.starts_with([' ', '\t', '\n', '/'])
            && !rest.contains(['<', '>'])
            && (!closing || rest.trim().is_empty());
    if name.is_empty() || !rest_ok {
        return None;
    }
    let known = match name.to_ascii_lowercase().as_str() {
        "br" => Known::Break,
        "b" | "strong" => Known::Bold,
        "i" | "em" => Known::Italic,
        "code" | "tt" => Known::Code,
        "s" | "del" | "strike" => Known::Strike,
        "u" | "ins" => Known::Underline,
        "kbd" => Known::Kbd,
        "sub" => Known::Sub,
        "sup" => Known::Sup,
        "details" => Known::Details,
        "summary" => Known::Summary,
        _ => return None,
    };
    Some(Tag { known, closing })
}

/// A piece of an HTML block's line: text shown as written, or a known
/// tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    Tag(Tag),
}

/// An HTML block's line cut into text and known tags; an unknown tag
/// stays in the text.
pub fn pieces(line: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut text_from = 0;
    let mut at = 0;
    while let Some(lt) = line[at..].find('<') {
        let lt = at + lt;
        let Some(gt) = line[lt..].find('>') else {
            break;
        };
        let gt = lt + gt + 1;
        match tag(&line[lt..gt]) {
            Some(t) => {
                if lt > text_from {
                    out.push(Piece::Text(&line[text_from..lt]));
                }
                out.push(Piece::Tag(t));
                text_from = gt;
                at = gt;
            }
            None => at = lt + 1,
        }
    }
    if text_from < line.len() {
        out.push(Piece::Text(&line[text_from..]));
    }
    out
}

/// Superscript forms (Unicode) of the characters that have one.
fn sup_char(c: char) -> Option<char> {
    Some(match c {
        '0' => '⁰',
        '1' => '¹',
        '2' => '²',
        '3' => '³',
        '4' => '⁴',
        '5' => '⁵',
        '6' => '⁶',
        '7' => '⁷',
        '8' => '⁸',
        '9' => '⁹',
        '+' => '⁺',
        '-' | '−' => '⁻',
        '=' => '⁼',
        '(' => '⁽',
        ')' => '⁾',
        'n' => 'ⁿ',
        'i' => 'ⁱ',
        _ => return None,
    })
}

/// Subscript forms (Unicode) of the characters that have one.
fn sub_char(c: char) -> Option<char> {
    Some(match c {
        '0' => '₀',
        '1' => '₁',
        '2' => '₂',
        '3' => '₃',
        '4' => '₄',
        '5' => '₅',
        '6' => '₆',
        '7' => '₇',
        '8' => '₈',
        '9' => '₉',
        '+' => '₊',
        '-' | '−' => '₋',
        '=' => '₌',
        '(' => '₍',
        ')' => '₎',
        _ => return None,
    })
}

/// Text inside `<sup>` (`sup`) or `<sub>`: in Unicode, its superscript or
/// subscript characters when it has them all (`x²`, `H₂O`); otherwise
/// the text after `^` or `_`, in parentheses when it holds a blank
/// (`^note`, `_(i, j)`).
pub fn script(text: &str, sup: bool, unicode: bool) -> String {
    let map = if sup { sup_char } else { sub_char };
    if unicode && let Some(s) = text.chars().map(map).collect::<Option<String>>() {
        return s;
    }
    let mark = if sup { '^' } else { '_' };
    if text.contains(char::is_whitespace) {
        format!("{mark}({text})")
    } else {
        format!("{mark}{text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_tags_in_their_written_forms() {
        let k = |s| tag(s).map(|t| (t.known, t.closing));
        assert_eq!(k("<br>"), Some((Known::Break, false)));
        assert_eq!(k("<BR/>"), Some((Known::Break, false)));
        assert_eq!(k("<br />"), Some((Known::Break, false)));
        assert_eq!(k("</b>"), Some((Known::Bold, true)));
        assert_eq!(k("<kbd class=\"key\">"), Some((Known::Kbd, false)));
        assert_eq!(k("<strong >"), Some((Known::Bold, false)));
        for other in [
            "<div>",
            "<span>",
            "<!-- b -->",
            "<a href=\"x\">",
            "<bb>",
            "</b x>",
            "<>",
        ] {
            assert_eq!(k(other), None, "{other}");
        }
    }

    #[test]
    fn a_line_keeps_unknown_tags_as_text() {
        assert_eq!(
            pieces("<summary>Click <span>*me*</span></summary>"),
            [
                Piece::Tag(Tag {
                    known: Known::Summary,
                    closing: false
                }),
                Piece::Text("Click <span>*me*</span>"),
                Piece::Tag(Tag {
                    known: Known::Summary,
                    closing: true
                }),
            ]
        );
    }

    #[test]
    fn scripts_use_unicode_forms_when_they_exist() {
        assert_eq!(script("2", true, true), "²");
        assert_eq!(script("2", false, true), "₂");
        assert_eq!(script("2", true, false), "^2");
        assert_eq!(script("note", true, true), "^note");
        assert_eq!(script("i, j", false, true), "_(i, j)");
    }
}
