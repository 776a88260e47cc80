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
