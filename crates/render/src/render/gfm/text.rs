//! Escaping data for GitHub-flavoured Markdown: text from events (titles,
//! labels, cells, error messages) shows as written, never as Markdown,
//! HTML, math or a mention; and for the quoted strings of a mermaid block.

use super::super::text::clean_line;

/// One line of data as inline Markdown: control characters visible, line
/// breaks as spaces, and every character GitHub or GitLab would read as
/// markup backslash-escaped (emphasis, code, links, HTML, tables, math,
/// strikethrough, mentions, headings). Emoji shortcodes stay: they are
/// only pictures.
pub fn inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in clean_line(s, false).chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' | '$' | '@'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text inside HTML (a `<summary>`): `&`, `<`, `>` and quotes as entities.
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in clean_line(s, false).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// A quoted mermaid string: mermaid's strings cannot hold `"`, `%%` starts
/// a comment (or a directive) wherever it is, and an empty string is a
/// parse error; so quotes become `'`, `%%` is split, blank is one space.
pub fn mermaid_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in clean_line(s, false).chars() {
        match c {
            '"' => out.push('\''),
            '%' if out.ends_with('%') => out.push_str(" %"),
            c => out.push(c),
        }
    }
    if out.trim() == "\"" {
        out.push(' ');
    }
    out.push('"');
    out
}

/// A number as mermaid reads it: plain decimals (Rust never writes an
/// exponent for `f64`, and mermaid reads none).
pub fn mermaid_number(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    format!("{v}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_markup_is_escaped() {
        assert_eq!(inline("a*b* `c` | <i>"), r"a\*b\* \`c\` \| \<i\>");
        assert_eq!(inline("@octocat $x$ [l](u)"), r"\@octocat \$x\$ \[l\](u)");
        assert_eq!(inline("two\nlines\x1b"), r"two lines^\[");
    }

    #[test]
    fn mermaid_strings_never_close_early_or_comment() {
        assert_eq!(mermaid_string(r#"a "b" 50%%"#), r#""a 'b' 50% %""#);
        assert_eq!(mermaid_string("%%%"), "\"% % %\"");
        assert_eq!(mermaid_string(""), "\" \"");
        assert_eq!(mermaid_number(1e21), "1000000000000000000000");
        assert_eq!(mermaid_number(-0.0), "0");
        assert_eq!(mermaid_number(1.5e-7), "0.00000015");
    }
}
