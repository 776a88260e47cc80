//! A line's own text, apart from the tagger's state: DEL and C1 controls
//! escaped in a JSON line before it reaches a terminal, the chapter title
//! a `--split` match gives, and what a JSON text that is not an object is.

use regex::Regex;

use crate::events::topic::normalize_title;

/// Rewrites DEL and the C1 controls (U+0080..U+009F) of a JSON line as
/// `\u00XX`. Outside strings they cannot occur in valid JSON, and inside
/// one the escape is the same value, so the event is unchanged; only a
/// terminal is spared an 8-bit CSI.
pub fn escape_terminal_controls(line: &mut Vec<u8>) {
    let needs = line
        .windows(2)
        .any(|w| w[0] == 0x7f || (w[0] == 0xc2 && (0x80..=0x9f).contains(&w[1])));
    if !needs {
        return;
    }
    let mut out = Vec::with_capacity(line.len() + 16);
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if b == 0x7f {
            out.extend_from_slice(b"\\u007f");
            i += 1;
        } else if b == 0xc2 && line.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)) {
            out.extend_from_slice(format!("\\u{:04x}", line[i + 1]).as_bytes());
            i += 2;
        } else {
            out.push(b);
            i += 1;
        }
    }
    *line = out;
}

/// What a valid JSON text that is not an object is, for the warning.
pub(super) fn json_kind(text: &str) -> &'static str {
    match text.as_bytes().first() {
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// The chapter title a `--split` match gives: the first capture group when
/// the regex has one, else the line without the matched text; whitespace
/// runs made one space ([`normalize_title`], as every title). A match that
/// leaves nothing titles the chapter with the whole line (`^Step \d+$`),
/// unless the line has no letter or digit (a bare `==> ` marker, which
/// would make a chapter titled "==>"): that, and an empty line, open no
/// chapter.
pub fn split_title(re: &Regex, line: &str) -> Option<String> {
    split_title_raw(re, line)
        .map(|t| normalize_title(&t))
        .filter(|t| !t.is_empty())
}

fn split_title_raw(re: &Regex, line: &str) -> Option<String> {
    let title = if re.captures_len() > 1 {
        let caps = re.captures(line)?;
        match caps.get(1) {
            Some(g) => g.as_str().trim().to_string(),
            None => {
                let m = caps.get(0)?;
                format!("{}{}", &line[..m.start()], &line[m.end()..])
                    .trim()
                    .to_string()
            }
        }
    } else {
        let m = re.find(line)?;
        format!("{}{}", &line[..m.start()], &line[m.end()..])
            .trim()
            .to_string()
    };
    if !title.is_empty() {
        return Some(title);
    }
    let whole = line.trim();
    whole
        .chars()
        .any(char::is_alphanumeric)
        .then(|| whole.to_string())
}
