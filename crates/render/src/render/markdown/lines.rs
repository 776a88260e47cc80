//! What a Markdown line is, read from its text alone: its indentation in
//! columns (tabs to the next multiple of 4) and the line with some taken
//! off, a fence that opens or closes, a line that can only go on a
//! paragraph. The streaming front (`super`) uses these between parses.

/// Columns of leading blanks (a tab to the next multiple of 4, as
/// CommonMark counts).
pub(super) fn indent_of(line: &str) -> usize {
    let mut col = 0;
    for c in line.chars() {
        match c {
            ' ' => col += 1,
            '\t' => col = (col / 4 + 1) * 4,
            _ => break,
        }
    }
    col
}

/// The line with up to `cols` columns of leading blanks taken off.
pub(super) fn strip_cols(line: &str, cols: usize) -> String {
    let mut col = 0;
    for (i, c) in line.char_indices() {
        if col >= cols {
            return line[i..].to_string();
        }
        match c {
            ' ' => col += 1,
            '\t' => {
                let next = (col / 4 + 1) * 4;
                if next > cols {
                    return " ".repeat(next - cols) + &line[i + 1..];
                }
                col = next;
            }
            _ => return line[i..].to_string(),
        }
    }
    String::new()
}

/// A fence opening at the start of `s`: its character, length and info.
pub(super) fn opens(s: &str) -> Option<(char, usize, String)> {
    let ch = s.chars().next()?;
    let len = s.chars().take_while(|&c| c == ch).count();
    if len < 3 {
        return None;
    }
    let info = s[len..].trim().to_string();
    if ch == '`' && info.contains('`') {
        return None;
    }
    Some((ch, len, info))
}

pub(super) fn closes(line: &str, ch: char, len: usize) -> bool {
    let t = line.trim_start();
    if indent_of(line) >= 4 {
        return false;
    }
    let n = t.chars().take_while(|&c| c == ch).count();
    n >= len && t[n..].trim().is_empty()
}

/// Whether a line can only be text: it goes on an open paragraph (or a
/// table's rows), and with nothing open it starts a paragraph. Its first
/// character is a letter, under 4 columns of indent, or it is indented 4
/// or more (`indented` allows that: code cannot interrupt a paragraph).
pub(super) fn only_text(line: &str, indented: bool) -> bool {
    let col = indent_of(line);
    if col >= 4 {
        return indented;
    }
    line.trim_start()
        .chars()
        .next()
        .is_some_and(char::is_alphabetic)
}

/// Whether a line's first character, under 4 columns of indent, is `c`.
pub(super) fn starts_with(line: &str, c: char) -> bool {
    indent_of(line) < 4 && line.trim_start().starts_with(c)
}

/// A list item's start, read from its line: its kind (the bullet, or the
/// delimiter after a number) and the column its content starts at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Item {
    pub kind: u8,
    pub content: usize,
}

/// The item a line starts (under 4 columns of indent; a thematic break
/// such as `- - -` is none).
pub(super) fn item_marker(line: &str) -> Option<Item> {
    let indent = indent_of(line);
    if indent >= 4 || line.contains('\t') {
        return None;
    }
    let t = line.trim_start_matches(' ');
    let b = t.as_bytes();
    let (kind, width) = match b.first()? {
        c @ (b'-' | b'*' | b'+') => (*c, 1),
        b'0'..=b'9' => {
            let d = b.iter().take_while(|c| c.is_ascii_digit()).count();
            match b.get(d) {
                Some(c @ (b'.' | b')')) if d <= 9 => (*c, d + 1),
                _ => return None,
            }
        }
        _ => return None,
    };
    let rest = &t[width..];
    let spaces = rest.bytes().take_while(|&c| c == b' ').count();
    if spaces == 0 && !rest.is_empty() {
        return None;
    }
    // A thematic break (`- - -`, `***`) is no item.
    let marks = t.bytes().filter(|&c| c == kind).count();
    if marks >= 3 && t.bytes().all(|c| c == kind || c == b' ' || c == b'\t') {
        return None;
    }
    let gap = if rest.trim().is_empty() || spaces > 4 {
        1
    } else {
        spaces
    };
    Some(Item {
        kind,
        content: indent + width + gap,
    })
}

/// The shape of the top-level list `text` starts with: the kind of its
/// items and the content column of its last one.
pub(super) fn list_shape(text: &str) -> Option<Item> {
    let mut lines = text.lines();
    let mut shape = item_marker(lines.next()?)?;
    for l in lines {
        if let Some(item) = item_marker(l).filter(|i| i.kind == shape.kind)
            && indent_of(l) < shape.content
        {
            shape = item;
        }
    }
    Some(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_and_the_shape_of_a_list() {
        let item = |l| item_marker(l).map(|i| (i.kind, i.content));
        assert_eq!(item("- a"), Some((b'-', 2)));
        assert_eq!(item("  *    b"), Some((b'*', 7)));
        assert_eq!(item("10) x"), Some((b')', 4)));
        assert_eq!(item("-"), Some((b'-', 2)));
        for none in ["- - -", "***", "    - code", "-x", "1234567890. x", "a. b"] {
            assert_eq!(item(none), None, "{none:?}");
        }
        let shape = list_shape("1. a\n   - nested\n2. b\n   text\n").unwrap();
        assert_eq!((shape.kind, shape.content), (b'.', 3));
        assert_eq!(list_shape("para\n- a\n"), None);
    }
}
