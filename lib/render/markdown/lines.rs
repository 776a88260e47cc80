//! What a Markdown line is, read from its text alone: its indentation in
//! columns (tabs to the next multiple of 4) and the line with some taken
//! off, a list marker, a fence that opens or closes, a table row or a
//! table's delimiter row. The streaming layout (`super`) keeps the state
//! these answers feed.

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

/// A list marker at the start of `s` (`-`, `*`, `+`, `1.`, `2)`) and the
/// columns up to its content.
pub(super) fn list_marker(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let m = match b.first()? {
        b'-' | b'*' | b'+' => 1,
        b'0'..=b'9' => {
            let d = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if d > 9 || !matches!(b.get(d), Some(b'.') | Some(b')')) {
                return None;
            }
            d + 1
        }
        _ => return None,
    };
    let spaces = b[m..].iter().take_while(|&&c| c == b' ').count();
    if spaces == 0 && m < b.len() {
        return None;
    }
    // Thematic breaks (`- - -`, `***`) are not items.
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if t.len() >= 3 && t.chars().all(|c| c == '-' || c == '*') {
        return None;
    }
    Some(m + if (1..=4).contains(&spaces) { spaces } else { 1 })
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

pub(super) fn is_table_row(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('|') && t.len() > 1
}

pub(super) fn is_delimiter_row(line: &str) -> bool {
    let t = line.trim().trim_matches('|');
    !t.is_empty()
        && t.split('|').all(|c| {
            let c = c.trim();
            let core = c.trim_start_matches(':').trim_end_matches(':');
            !core.is_empty() && core.chars().all(|x| x == '-')
        })
}
