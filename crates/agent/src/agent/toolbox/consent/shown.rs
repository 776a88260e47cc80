//! What the consent prompt shows of a call: the whole request, faithfully
//! and compactly. Every character is shown as itself except these
//! escapes, each a *mark* between `⟨` and `⟩` (`{{` and `}}` on an ASCII
//! terminal), drawn in reverse video when there is colour:
//!
//! - `⟨CR⟩`, `⟨TAB⟩`, `⟨ESC⟩`, `⟨NUL⟩`, `⟨DEL⟩`: those control characters;
//!   `⟨U+XXXX⟩`: any other control character, and every character that
//!   shows as nothing or as a plain space: zero-width and joiner
//!   characters, bidi controls, no-break and other odd spaces, variation
//!   selectors, tags, byte order marks (on an ASCII terminal, every
//!   non-ASCII character). A literal `⟨` is `⟨U+27E8⟩` (on ASCII, a `{`
//!   that a `{` or a mark follows is `{{U+007B}}`), so a mark is never
//!   ambiguous.
//! - `⟨N spaces⟩`: a run of more than 8 spaces.
//! - `⟨N blank lines⟩`, a line of its own: 2 or more empty lines in a row.
//! - A request taller than the rows given is cut; the prompt then says how
//!   many lines and bytes are not shown ([`Cut`]) and offers `v` to see all
//!   of it ([`full`]: every character escaped as above, nothing collapsed).
//!
//! [`restore`] reads shown text back into what it shows and [`check`]
//! asserts the property the fuzz target and the property tests hold it to:
//! restored, the shown text is the request itself, or for a cut request
//! exactly its first bytes, the cut counting the rest.

use std::fmt::Write as _;

use crate::render::text::{char_width, fixed, width};

/// The brackets of a mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    open: &'static str,
    close: &'static str,
    /// Only ASCII reaches the terminal.
    ascii: bool,
}

/// `⟨` `⟩`, for a terminal that shows Unicode.
pub const UNICODE: Marks = Marks {
    open: "\u{27e8}",
    close: "\u{27e9}",
    ascii: false,
};

/// `{{` `}}`, for an ASCII terminal.
pub const ASCII: Marks = Marks {
    open: "{{",
    close: "}}",
    ascii: true,
};

impl Marks {
    pub fn for_terminal(unicode: bool) -> Marks {
        if unicode { UNICODE } else { ASCII }
    }

    pub fn open(&self) -> &'static str {
        self.open
    }

    pub fn close(&self) -> &'static str {
        self.close
    }
}

/// Runs of spaces longer than this are counted.
pub const SPACE_RUN: usize = 8;

/// How much of the screen the request may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Room {
    /// The terminal's width.
    pub cols: usize,
    /// Screen rows (wrapped lines counted as the rows they take).
    pub rows: usize,
}

/// What a cut request leaves out: the line breaks in it (the lines that
/// start after the cut) and its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    pub lines: usize,
    pub bytes: usize,
}

/// The compact form of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Lines separated by `\n`; marks as described above.
    pub text: String,
    pub cut: Option<Cut>,
}

/// One piece of a rendered line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Char(char),
    Mark(String),
}

/// The mark of a character that must not be shown as itself.
fn escaped(c: char, marks: Marks) -> Option<String> {
    let name = match c {
        '\r' => "CR",
        '\t' => "TAB",
        '\x1b' => "ESC",
        '\0' => "NUL",
        '\x7f' => "DEL",
        c if hidden(c) || (marks.ascii && !c.is_ascii()) || c.to_string() == marks.open => {
            return Some(format!("U+{:04X}", c as u32));
        }
        _ => return None,
    };
    Some(name.to_string())
}

/// Characters that show as nothing, as a plain space, or move the text
/// around: controls, format characters, odd spaces, selectors, tags.
pub fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(c,
            '\u{00A0}' | '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}'
            | '\u{1680}' | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
            | '\u{2000}'..='\u{200F}' | '\u{2028}'..='\u{202F}' | '\u{205F}'..='\u{206F}'
            | '\u{2800}' | '\u{3000}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
            | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}')
        || (c as u32 & 0xFFFE) == 0xFFFE
        || ('\u{FDD0}'..='\u{FDEF}').contains(&c)
        || ('\u{E000}'..='\u{F8FF}').contains(&c)
        || ('\u{F0000}'..).contains(&c)
}

/// The tokens of one line, spaces counted when `collapse`, each with the
/// byte length of the text it stands for.
fn tokens(line: &str, marks: Marks, collapse: bool) -> Vec<(Token, usize)> {
    let mut out = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == ' ' && collapse {
            let run = line[i..].bytes().take_while(|&b| b == b' ').count();
            if run > SPACE_RUN {
                for _ in 1..run {
                    chars.next();
                }
                out.push((Token::Mark(format!("{run} spaces")), run));
                continue;
            }
        }
        match escaped(c, marks) {
            Some(m) => out.push((Token::Mark(m), c.len_utf8())),
            None => out.push((Token::Char(c), c.len_utf8())),
        }
    }
    // On ASCII, a `{` that a `{` or a mark follows would open a mark.
    if marks.ascii {
        for i in 0..out.len() {
            let next_opens = matches!(
                out.get(i + 1),
                Some((Token::Char('{'), _)) | Some((Token::Mark(_), _))
            );
            if out[i].0 == Token::Char('{') && next_opens {
                out[i].0 = Token::Mark("U+007B".into());
            }
        }
    }
    out
}

fn token_text(t: &Token, marks: Marks) -> String {
    match t {
        Token::Char(c) => c.to_string(),
        Token::Mark(m) => format!("{}{m}{}", marks.open, marks.close),
    }
}

fn token_width(t: &Token, marks: Marks) -> usize {
    match t {
        Token::Char(c) => char_width(*c),
        Token::Mark(m) => m.len() + if marks.ascii { 4 } else { 2 },
    }
}

/// Rows a line of this width takes.
fn rows_of(width: usize, cols: usize) -> usize {
    width.div_ceil(cols.max(1)).max(1)
}

/// Every character of `what` as itself or its mark, nothing collapsed or
/// cut: what `v` shows.
pub fn full(what: &str, marks: Marks) -> String {
    what.split('\n')
        .map(|line| {
            tokens(line, marks, false)
                .iter()
                .map(|(t, _)| token_text(t, marks))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The compact form of `what` within `room`.
pub fn compact(what: &str, marks: Marks, room: Room) -> Shown {
    let rows = room.rows.max(1);
    let mut out: Vec<String> = Vec::new();
    let mut used = 0;
    // Byte offset in `what` of the next line's start.
    let mut at = 0;
    let lines: Vec<&str> = what.split('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        let blanks = lines[i..].iter().take_while(|l| l.is_empty()).count();
        let (text, width, consumed) = if blanks >= 2 {
            let m = token_text(&Token::Mark(format!("{blanks} blank lines")), marks);
            (m.clone(), width(&m), blanks)
        } else {
            let text: String = tokens(lines[i], marks, true)
                .iter()
                .map(|(t, _)| token_text(t, marks))
                .collect();
            (text.clone(), width(&text), 1)
        };
        let need = rows_of(width, room.cols);
        if used + need > rows {
            // What fits of this line, when any row is left for it.
            let left = rows - used;
            if left > 0 && blanks < 2 {
                let (part, bytes) = head_of(lines[i], marks, left * room.cols.max(1));
                out.push(part);
                at += bytes;
            } else if i > 0 {
                // The line break before the line left out is part of the rest.
                at -= 1;
            }
            let rest = &what[at..];
            return Shown {
                text: out.join("\n"),
                cut: Some(Cut {
                    lines: rest.matches('\n').count(),
                    bytes: rest.len(),
                }),
            };
        }
        used += need;
        out.push(text);
        for l in &lines[i..i + consumed] {
            at += l.len() + 1;
        }
        i += consumed;
    }
    Shown {
        text: out.join("\n"),
        cut: None,
    }
}

/// The first tokens of `line` within `width` columns, and the bytes of
/// `line` they stand for.
fn head_of(line: &str, marks: Marks, limit: usize) -> (String, usize) {
    let mut kept: Vec<(String, usize)> = Vec::new();
    let mut w = 0;
    for (t, len) in tokens(line, marks, true) {
        let tw = token_width(&t, marks);
        if w + tw > limit {
            break;
        }
        w += tw;
        kept.push((token_text(&t, marks), len));
    }
    // The per-character sum is what a terminal draws nearly always; where
    // the string measure says more (a joined sequence), drop to fit it.
    let mut text: String = kept.iter().map(|(t, _)| t.as_str()).collect();
    while width(&text) > limit {
        let Some((t, _)) = kept.pop() else { break };
        text.truncate(text.len() - t.len());
    }
    (text, kept.iter().map(|(_, len)| len).sum())
}

/// A mark [`restore`] cannot read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadMark {
    #[error("bad mark {0:?}")]
    Bad(String),
    #[error("unknown mark {0:?}")]
    Unknown(String),
    #[error("bad mark in {0:?}")]
    BadIn(String),
    #[error("unclosed mark in {0:?}")]
    Unclosed(String),
}

/// How [`check`]'s property failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Broken {
    #[error(transparent)]
    Mark(#[from] BadMark),
    #[error("{what:?} shown as {shown:?}")]
    Changed { what: String, shown: String },
    #[error("{shown:?} is no prefix of {what:?}")]
    NoPrefix { shown: String, what: String },
    #[error("cut {cut:?}, but {counted:?} were left out")]
    Miscounted { cut: Cut, counted: Cut },
    #[error("{c:?} shown raw in {shown:?}")]
    Raw { c: char, shown: String },
    #[error("{rows} rows for a room of {room}")]
    TooTall { rows: usize, room: usize },
    #[error("{what:?} in full is {full:?}")]
    Full { what: String, full: String },
}

/// What a mark stands for.
fn unmark(m: &str) -> Result<String, BadMark> {
    let named = match m {
        "CR" => Some('\r'),
        "TAB" => Some('\t'),
        "ESC" => Some('\x1b'),
        "NUL" => Some('\0'),
        "DEL" => Some('\x7f'),
        _ => None,
    };
    if let Some(c) = named {
        return Ok(c.to_string());
    }
    if let Some(hex) = m.strip_prefix("U+") {
        return u32::from_str_radix(hex, 16)
            .ok()
            .and_then(char::from_u32)
            .map(String::from)
            .ok_or_else(|| BadMark::Bad(m.to_string()));
    }
    if let Some(n) = m.strip_suffix(" spaces") {
        return n
            .parse::<usize>()
            .map(|n| " ".repeat(n))
            .map_err(|_| BadMark::Bad(m.to_string()));
    }
    Err(BadMark::Unknown(m.to_string()))
}

/// The text `shown` stands for: marks read back, a blank-lines line as
/// its empty lines. An error names a mark that is none of the documented
/// ones (or is where it cannot be).
pub fn restore(shown: &str, marks: Marks) -> Result<String, BadMark> {
    let mut lines = Vec::new();
    for line in shown.split('\n') {
        if let Some(n) = line
            .strip_prefix(marks.open)
            .and_then(|l| l.strip_suffix(marks.close))
            .and_then(|m| m.strip_suffix(" blank lines"))
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        {
            let n: usize = n.parse().map_err(|_| BadMark::BadIn(line.to_string()))?;
            lines.extend(std::iter::repeat_n(String::new(), n));
            continue;
        }
        let mut out = String::new();
        let mut rest = line;
        while let Some(i) = rest.find(marks.open) {
            out.push_str(&rest[..i]);
            let after = &rest[i + marks.open.len()..];
            let end = after
                .find(marks.close)
                .ok_or_else(|| BadMark::Unclosed(line.to_string()))?;
            out.push_str(&unmark(&after[..end])?);
            rest = &after[end + marks.close.len()..];
        }
        out.push_str(rest);
        lines.push(out);
    }
    Ok(lines.join("\n"))
}

/// The property: `what` shown in `room` restores to itself, or when cut,
/// to exactly its first bytes with the cut counting the rest; no
/// character the terminal would hide or act on is shown raw; and the
/// text takes no more rows than given (a cut note aside).
pub fn check(what: &str, marks: Marks, room: Room) -> Result<(), Broken> {
    let shown = compact(what, marks, room);
    let back = restore(&shown.text, marks)?;
    match shown.cut {
        None if back != what => {
            return Err(Broken::Changed {
                what: what.to_string(),
                shown: shown.text,
            });
        }
        None => {}
        Some(cut) => {
            let rest = what
                .strip_prefix(back.as_str())
                .ok_or_else(|| Broken::NoPrefix {
                    shown: shown.text.clone(),
                    what: what.to_string(),
                })?;
            let counted = Cut {
                lines: rest.matches('\n').count(),
                bytes: rest.len(),
            };
            if counted != cut {
                return Err(Broken::Miscounted { cut, counted });
            }
        }
    }
    if let Some(c) = shown
        .text
        .chars()
        .find(|&c| c != '\n' && (hidden(c) || (marks.ascii && !c.is_ascii())))
    {
        return Err(Broken::Raw {
            c,
            shown: shown.text.clone(),
        });
    }
    let rows: usize = shown
        .text
        .split('\n')
        .map(|l| rows_of(width(l), room.cols))
        .sum();
    if rows > room.rows.max(1) {
        return Err(Broken::TooTall {
            rows,
            room: room.rows,
        });
    }
    let full = full(what, marks);
    if restore(&full, marks)? != what {
        return Err(Broken::Full {
            what: what.to_string(),
            full,
        });
    }
    Ok(())
}

/// The cut's note: `N more lines, M more bytes not shown`.
pub fn cut_note(cut: Cut) -> String {
    let mut s = String::new();
    if cut.lines > 0 {
        let _ = write!(
            s,
            "{} more line{}, ",
            fixed(cut.lines as f64, 0),
            if cut.lines == 1 { "" } else { "s" }
        );
    }
    let _ = write!(
        s,
        "{} more byte{} not shown",
        fixed(cut.bytes as f64, 0),
        if cut.bytes == 1 { "" } else { "s" }
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ROOM: Room = Room { cols: 80, rows: 30 };

    #[test]
    fn hidden_characters_are_marked() {
        let s = compact("a\r\nb\u{200B}c\u{202E}d\te\x1b[2J\u{27e8}", UNICODE, ROOM);
        assert_eq!(s.text, "a⟨CR⟩\nb⟨U+200B⟩c⟨U+202E⟩d⟨TAB⟩e⟨ESC⟩[2J⟨U+27E8⟩");
        assert_eq!(s.cut, None);
        let a = compact("é {{x}} {\u{200B}", ASCII, ROOM);
        assert_eq!(a.text, "{{U+00E9}} {{U+007B}}{x}} {{U+007B}}{{U+200B}}");
        assert_eq!(restore(&a.text, ASCII).unwrap(), "é {{x}} {\u{200B}");
    }

    #[test]
    fn padding_is_counted_not_drawn() {
        let padded = format!("touch HIDDEN #{}ls -la", "\n".repeat(80));
        let s = compact(&padded, UNICODE, ROOM);
        assert_eq!(s.text, "touch HIDDEN #\n⟨79 blank lines⟩\nls -la");
        let spaced = format!("touch HIDDEN #{}ls -la", " ".repeat(6000));
        let s = compact(&spaced, UNICODE, ROOM);
        assert_eq!(s.text, "touch HIDDEN #⟨6000 spaces⟩ls -la");
        assert_eq!(compact("a        b", UNICODE, ROOM).text, "a        b");
    }

    #[test]
    fn a_long_request_is_cut_with_what_is_left() {
        let long: String = (1..=100).map(|i| format!("line {i}\n")).collect();
        let s = compact(&long, UNICODE, Room { cols: 80, rows: 5 });
        assert_eq!(s.text, "line 1\nline 2\nline 3\nline 4\nline 5");
        let cut = s.cut.unwrap();
        assert_eq!(cut.lines, 96);
        assert_eq!(
            cut.bytes,
            long.len() - "line 1\nline 2\nline 3\nline 4\nline 5".len()
        );
        assert_eq!(cut_note(cut), "96 more lines, 758 more bytes not shown");
        // One very long line: as much as the rows hold.
        let wide = "x".repeat(1000);
        let s = compact(&wide, UNICODE, Room { cols: 10, rows: 3 });
        assert_eq!(s.text, "x".repeat(30));
        assert_eq!(
            s.cut,
            Some(Cut {
                lines: 0,
                bytes: 970
            })
        );
        check(&wide, UNICODE, Room { cols: 10, rows: 3 }).unwrap();
    }

    #[test]
    fn the_full_view_escapes_but_keeps_everything() {
        let what = format!("a{}b\n\n\n\u{200D}", " ".repeat(20));
        let f = full(&what, UNICODE);
        assert_eq!(f, format!("a{}b\n\n\n⟨U+200D⟩", " ".repeat(20)));
        assert_eq!(restore(&f, UNICODE).unwrap(), what);
        assert!(restore("⟨bogus⟩", UNICODE).is_err());
        assert!(restore("⟨CR", UNICODE).is_err());
    }

    fn requests() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            "[a-z ]{0,12}",
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just(" ".repeat(9)),
            Just("{".to_string()),
            Just("\u{27e8}".to_string()),
            Just("\u{200B}".to_string()),
            Just("\u{202E}".to_string()),
            Just("\x1b[31m".to_string()),
            Just("é".to_string()),
            Just("漢".to_string()),
            any::<char>().prop_map(String::from),
        ];
        proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn shown_text_is_the_request_but_for_the_documented_escapes(
            what in requests(),
            cols in 1usize..120,
            rows in 1usize..40,
            ascii in any::<bool>(),
        ) {
            let marks = if ascii { ASCII } else { UNICODE };
            prop_assert_eq!(check(&what, marks, Room { cols, rows }), Ok(()));
        }
    }
}
