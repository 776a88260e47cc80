//! Markdown tables (GFM rules), streamed a line at a time: the header, the
//! alignment row, then the body rows, cells unescaped and unstyled.

use std::io::BufRead;

use super::super::ParseError;
use super::super::rows::{Cells, Loc, Names, OwnedRow, Rows, Warner};

/// A GFM table row split into cells: outer pipes dropped, `\|` kept as a
/// pipe, inline code and emphasis markers removed.
pub(crate) fn split_markdown_row(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = if t.ends_with('|') && !t.ends_with("\\|") {
        &t[..t.len() - 1]
    } else {
        t
    };
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '|' => cells.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    cells.push(cur);
    cells.into_iter().map(|c| clean_markdown_cell(&c)).collect()
}

fn clean_markdown_cell(c: &str) -> String {
    let mut t = c.trim();
    loop {
        let before = t;
        for m in ["**", "__", "`", "*", "_", "~~"] {
            if t.len() >= 2 * m.len()
                && let Some(inner) = t.strip_prefix(m).and_then(|r| r.strip_suffix(m))
            {
                t = inner.trim();
            }
        }
        if t == before {
            break;
        }
    }
    t.replace('`', "")
}

/// `|---|:---:|` and friends.
pub(crate) fn is_alignment_row(line: &str) -> bool {
    let t = line.trim();
    if !t.contains('-') || !(t.contains('|') || t.starts_with(':') || t.starts_with('-')) {
        return false;
    }
    let cells = split_markdown_row(t);
    !cells.is_empty()
        && cells.iter().all(|c| {
            let c = c.trim();
            let c = c.strip_prefix(':').unwrap_or(c);
            let c = c.strip_suffix(':').unwrap_or(c);
            !c.is_empty() && c.bytes().all(|b| b == b'-')
        })
}

/// Markdown: text before the first table is skipped; the table ends at the
/// first line that is not a row.
pub(crate) struct MarkdownRows<R: BufRead> {
    input: R,
    line: u64,
    header: Option<Vec<String>>,
    row: OwnedRow,
    done: bool,
    buf: Vec<u8>,
}

impl<R: BufRead> MarkdownRows<R> {
    pub(crate) fn new(input: R) -> Result<Self, ParseError> {
        let mut m = MarkdownRows {
            input,
            line: 0,
            header: None,
            row: Vec::new(),
            done: false,
            buf: Vec::new(),
        };
        let mut prev: Option<String> = None;
        while let Some(l) = m.read_line()? {
            if let Some(p) = &prev
                && p.contains('|')
                && is_alignment_row(&l)
            {
                m.header = Some(split_markdown_row(p));
                break;
            }
            prev = Some(l);
        }
        if m.header.is_none() {
            return Err(super::super::examples_error(
                "text with pipes but no Markdown table (a header row followed by |---|---|)".into(),
            ));
        }
        Ok(m)
    }

    fn read_line(&mut self) -> Result<Option<String>, ParseError> {
        self.buf.clear();
        if self.input.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(None);
        }
        self.line += 1;
        Ok(Some(String::from_utf8_lossy(&self.buf).trim().to_string()))
    }
}

impl<R: BufRead> Rows for MarkdownRows<R> {
    fn next_row(&mut self, _warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        if self.done {
            return Ok(None);
        }
        match self.read_line()? {
            Some(l) if l.contains('|') && !l.is_empty() => {
                self.row.clear();
                self.row
                    .extend(split_markdown_row(&l).into_iter().map(Some));
                Ok(Some(Loc::Line(self.line)))
            }
            _ => {
                self.done = true;
                Ok(None)
            }
        }
    }
    fn current(&self) -> &dyn Cells {
        &self.row
    }
    fn names(&self) -> Option<Names> {
        self.header.clone().map(|list| Names {
            list: list
                .into_iter()
                .enumerate()
                .map(|(i, n)| {
                    if n.is_empty() {
                        format!("column {}", i + 1)
                    } else {
                        n
                    }
                })
                .collect(),
            real: true,
        })
    }
    fn what(&self) -> String {
        "a Markdown table".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cells() {
        assert_eq!(
            split_markdown_row("| `a\\|b` | **2.9 s** |"),
            vec!["a|b".to_string(), "2.9 s".to_string()]
        );
        assert!(is_alignment_row("|:---|---:|"));
        assert!(is_alignment_row("--- | :-:"));
        assert!(!is_alignment_row("| a | b |"));
        assert!(!is_alignment_row("-3"));
    }
}
