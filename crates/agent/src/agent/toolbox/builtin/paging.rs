//! `read_file`'s pages: lines `offset` to `offset + limit - 1` of a file
//! of any size, counted over the whole file, the answer bounded in bytes.
//! The file is read once, in chunks: the lines of the page are kept (up to
//! the byte cap; a line longer than the cap is cut), the rest only
//! counted, so the note can say how many lines there are and where the
//! next page starts.

use std::io::{self, Read};

use crate::agent::toolbox::secrets;

/// What one page holds and where it stands in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The lines of the page, without their line ends.
    pub text: String,
    /// The first line asked for (from 1).
    pub first: u64,
    /// The last line shown, 0 when none was.
    pub last: u64,
    /// Lines in the file; `None` when the count was stopped (the tool's
    /// time ran out after the page was read).
    pub total: Option<u64>,
    /// The last line shown was cut at the byte cap.
    pub cut_line: bool,
    /// The page ended at the byte cap before `limit` lines.
    pub cut_at_cap: bool,
    /// A NUL byte in the file's first 8 KiB or in the page.
    pub binary: bool,
    /// The byte cap, for the note.
    pub cap: usize,
}

impl Page {
    /// The page as the model reads it: the lines, then a note whenever
    /// they are not the whole file.
    pub fn shown(&self) -> String {
        let whole = self.last > 0
            && self.first == 1
            && self.total.is_some_and(|t| t == self.last)
            && !self.cut_line
            && !self.cut_at_cap;
        if whole {
            return self.text.clone();
        }
        if self.last == 0 {
            return match self.total {
                Some(0) => "[read_file: the file is empty]".into(),
                Some(t) => format!(
                    "[read_file: the file has {t} lines; offset {} is past its end]",
                    self.first
                ),
                None => format!("[read_file: no line at offset {}]", self.first),
            };
        }
        let mut note = format!("[read_file: lines {}-{}", self.first, self.last);
        if let Some(t) = self.total {
            note.push_str(&format!(" of {t}"));
        }
        if self.cut_line {
            note.push_str(&format!(
                "; line {} was cut at {} KiB",
                self.last,
                self.cap / 1024
            ));
        } else if self.cut_at_cap {
            note.push_str(&format!(
                " (a call returns at most {} KiB)",
                self.cap / 1024
            ));
        }
        if self.total.is_none_or(|t| self.last < t) {
            note.push_str(&format!(
                "; the next page starts at offset {}",
                self.last + 1
            ));
        }
        note.push(']');
        if self.text.is_empty() {
            note
        } else {
            format!("{}\n{note}", self.text)
        }
    }
}

/// How many lines were read, and the page being gathered.
struct Pager {
    first: u64,
    /// One past the last line wanted.
    end: Option<u64>,
    cap: usize,
    /// The line the next byte belongs to.
    line: u64,
    out: Vec<u8>,
    /// The current line so far (at most one byte past the room left).
    pending: Vec<u8>,
    gathering: bool,
    last: u64,
    cut_line: bool,
    cut_at_cap: bool,
    last_byte: Option<u8>,
}

impl Pager {
    /// One piece of a line; `ends` when it ends with its `\n`. A line
    /// joins the page whole, or, when it alone is past the cap, cut.
    fn piece(&mut self, bytes: &[u8], ends: bool) {
        if self.gathering && self.line >= self.first {
            if self.end.is_some_and(|e| self.line >= e) {
                self.gathering = false;
            } else {
                let room = self.cap - self.out.len();
                let take = bytes.len().min(room + 1 - self.pending.len());
                self.pending.extend_from_slice(&bytes[..take]);
                if self.pending.len() > room {
                    if self.out.is_empty() {
                        self.out.extend_from_slice(&self.pending[..room]);
                        self.last = self.line;
                        self.cut_line = true;
                    } else {
                        self.cut_at_cap = true;
                    }
                    self.pending.clear();
                    self.gathering = false;
                } else if ends {
                    self.out.append(&mut self.pending);
                    self.last = self.line;
                }
            }
        }
        if ends {
            self.line += 1;
        }
    }

    /// The end of the file: a last line without its `\n` joins too.
    fn finish(&mut self) {
        if self.gathering && !self.pending.is_empty() {
            self.out.append(&mut self.pending);
            self.last = self.line;
        }
    }
}

/// Reads `r` to its end (or until `stop` says so) and returns lines
/// `first ..` (at most `limit` of them, at most `cap` bytes).
pub fn page(
    mut r: impl Read,
    first: u64,
    limit: Option<u64>,
    cap: usize,
    stop: &dyn Fn() -> bool,
) -> io::Result<Option<Page>> {
    let mut p = Pager {
        first,
        end: limit.map(|n| first.saturating_add(n)),
        cap,
        line: 1,
        out: Vec::new(),
        pending: Vec::new(),
        gathering: true,
        last: 0,
        cut_line: false,
        cut_at_cap: false,
        last_byte: None,
    };
    let mut buf = vec![0u8; 64 * 1024];
    let mut read = 0usize;
    let mut binary = false;
    let mut counted = true;
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let chunk = &buf[..n];
        if read < 8192 && chunk[..n.min(8192 - read)].contains(&0) {
            binary = true;
        }
        read += n;
        let mut at = 0;
        for nl in memchr::memchr_iter(b'\n', chunk) {
            p.piece(&chunk[at..=nl], true);
            at = nl + 1;
        }
        if at < n {
            p.piece(&chunk[at..], false);
        }
        p.last_byte = chunk.last().copied();
        if stop() {
            if p.gathering && p.end.is_none_or(|e| p.line < e) {
                // The page itself is not whole: no answer.
                return Ok(None);
            }
            counted = false;
            break;
        }
    }
    if counted {
        p.finish();
    }
    // A last line without its `\n` is a line too.
    let total = match p.last_byte {
        Some(b'\n') | None => p.line - 1,
        Some(_) => p.line,
    };
    binary |= p.out.contains(&0);
    let text = String::from_utf8_lossy(&p.out);
    let mut text = text.lines().collect::<Vec<_>>().join("\n");
    if p.cut_line {
        secrets::cut_tail(&mut text);
    }
    Ok(Some(Page {
        text,
        first,
        last: p.last,
        total: counted.then_some(total),
        cut_line: p.cut_line,
        cut_at_cap: p.cut_at_cap,
        binary,
        cap,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: u64) -> String {
        (1..=n).map(|i| format!("line {i:05}\n")).collect()
    }

    fn get(text: &str, first: u64, limit: Option<u64>, cap: usize) -> Page {
        page(text.as_bytes(), first, limit, cap, &|| false)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn pages_count_lines_over_the_whole_file() {
        let text = lines(25_000);
        let p = get(&text, 20_000, Some(3), 1024);
        assert_eq!(p.text, "line 20000\nline 20001\nline 20002");
        assert_eq!(
            p.shown(),
            "line 20000\nline 20001\nline 20002\n\
             [read_file: lines 20000-20002 of 25000; the next page starts at offset 20003]"
        );
        let whole = get("a\nb", 1, None, 1024);
        assert_eq!(whole.shown(), "a\nb");
        assert_eq!(get("a\nb\n", 1, None, 1024).total, Some(2));
    }

    #[test]
    fn the_byte_cap_ends_a_page_on_a_line_and_cuts_a_giant_line() {
        let text = lines(100);
        // 11 bytes a line: 10 lines fit in 110.
        let p = get(&text, 1, None, 115);
        assert_eq!((p.last, p.cut_at_cap, p.cut_line), (10, true, false));
        assert!(
            p.shown().ends_with(
                "[read_file: lines 1-10 of 100 (a call returns at most 0 KiB); \
                 the next page starts at offset 11]"
            ),
            "{}",
            p.shown()
        );
        // Lines that cross the 64 KiB chunks join whole or not at all.
        let long: String = (1..=25_000)
            .map(|i| format!("line {i:05} of the long file\n"))
            .collect();
        let p = get(&long, 1, None, 256 * 1024);
        assert_eq!((p.last, p.cut_at_cap, p.cut_line), (9362, true, false));
        assert!(p.text.ends_with("line 09362 of the long file"));
        let giant = format!("{}\nnext\n", "x".repeat(5000));
        let p = get(&giant, 1, None, 1024);
        assert_eq!((p.last, p.cut_line, p.text.len()), (1, true, 1024));
        assert!(p.shown().contains("line 1 was cut at 1 KiB"));
        assert!(p.shown().contains("next page starts at offset 2"));
    }

    #[test]
    fn past_the_end_empty_and_binary() {
        assert_eq!(
            get("a\nb\n", 5, None, 64).shown(),
            "[read_file: the file has 2 lines; offset 5 is past its end]"
        );
        assert_eq!(
            get("", 1, None, 64).shown(),
            "[read_file: the file is empty]"
        );
        assert!(get("a\0b", 1, None, 64).binary);
        let late_nul = format!("{}\0", lines(2000));
        assert!(!get(&late_nul, 1, Some(1), 64).binary);
    }

    #[test]
    fn a_stop_before_the_page_is_whole_gives_nothing() {
        let text = lines(30_000);
        assert!(
            page(text.as_bytes(), 29_000, None, 1024, &|| true)
                .unwrap()
                .is_none()
        );
        let early = page(text.as_bytes(), 1, Some(2), 1024, &|| true)
            .unwrap()
            .unwrap();
        assert_eq!(early.total, None);
        assert!(early.shown().ends_with("the next page starts at offset 3]"));
    }
}
