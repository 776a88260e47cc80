//! Alerts in answers passed through to the report: GitHub draws the five
//! kinds it knows (`> [!NOTE]`), and shows any other marker
//! (`> [!STRATEGY]`) as raw text in a quote. A line that may be such a
//! marker is held until it is whole; an unknown kind becomes its word in
//! bold (`> **Strategy**`), so the quote reads as the terminal draws it.

use crate::render::markdown::alert_word;

/// The kinds GitHub draws as alerts.
const KNOWN: [&str; 5] = ["NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION"];

/// A marker line being held, and whether a quote may start here.
#[derive(Debug, Default)]
pub struct Markers {
    held: String,
    /// The line before was not a quote line (a marker must open a quote).
    outside: bool,
    started: bool,
}

impl Markers {
    /// Lays out `piece` (part of one line; `line_start` when it starts
    /// one) into `out`, holding what may still become a marker line.
    /// `code` is set inside a fenced code block, where nothing changes.
    pub fn feed(&mut self, piece: &str, line_start: bool, code: bool, out: &mut String) {
        if !self.started {
            self.started = true;
            self.outside = true;
        }
        if line_start && !code && self.held.is_empty() || !self.held.is_empty() {
            self.held.push_str(piece);
            let line = self.held.trim_end_matches('\n');
            if !(self.outside && may_be_marker(line)) {
                out.push_str(&std::mem::take(&mut self.held));
            } else if piece.ends_with('\n') {
                let held = std::mem::take(&mut self.held);
                out.push_str(&rewrite(&held).unwrap_or(held));
            }
        } else {
            out.push_str(piece);
        }
        if piece.ends_with('\n') && self.held.is_empty() {
            let l = out.rsplit_terminator('\n').next().unwrap_or("");
            self.outside = !l.trim_start().starts_with('>');
        }
    }

    /// What is still held, written out as it is (the answer ended).
    pub fn flush(&mut self, out: &mut String) {
        let held = std::mem::take(&mut self.held);
        out.push_str(&rewrite(&held).unwrap_or(held));
    }
}

/// Whether `line` (without its newline) is the start of `> [!WORD]`.
fn may_be_marker(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('>') else {
        return line.trim().is_empty() && line.len() < 4;
    };
    let rest = rest.trim_start();
    let ok = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    if rest.len() <= 2 {
        return "[!".starts_with(rest);
    }
    let Some(word) = rest.strip_prefix("[!") else {
        return false;
    };
    let word = word.trim_end();
    match word.strip_suffix(']') {
        Some(w) => w.chars().all(ok),
        None => word.chars().all(ok),
    }
}

/// The marker line of an unknown kind as its word in bold.
fn rewrite(line: &str) -> Option<String> {
    let word = alert_word(line)?;
    if KNOWN.iter().any(|k| k.eq_ignore_ascii_case(&word)) {
        return None;
    }
    let indent = &line[..line.len() - line.trim_start().len()];
    let nl = if line.ends_with('\n') { "\n" } else { "" };
    Some(format!("{indent}> **{word}**{nl}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lay(pieces: &[&str]) -> String {
        let mut m = Markers::default();
        let mut out = String::new();
        let mut start = true;
        for p in pieces {
            m.feed(p, start, false, &mut out);
            start = p.ends_with('\n');
        }
        m.flush(&mut out);
        out
    }

    #[test]
    fn unknown_kinds_become_bold_words_and_known_ones_stay() {
        let text = "Plan:\n\n> [!STRATEGY]\n> Go wide.\n\n> [!NOTE]\n> n\n\n> [!x] y\n";
        let want = "Plan:\n\n> **Strategy**\n> Go wide.\n\n> [!NOTE]\n> n\n\n> [!x] y\n";
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        assert_eq!(lay(&lines), want);
        // However it is cut (at line ends, as the report feeds it).
        for cut in 1..text.len() {
            let (a, b) = text.split_at(cut);
            let mut pieces: Vec<&str> = Vec::new();
            for part in [a, b] {
                pieces.extend(part.split_inclusive('\n'));
            }
            assert_eq!(lay(&pieces), want, "cut at {cut}");
        }
    }
}
