//! The live region of a terminal: rows kept at the bottom of the output
//! and redrawn in place. `viz-render --live` keeps the frames of its live
//! charts there ([`Screen::redraw`]): text and other events are written
//! above it; the unfinished last line of that text is drawn as the
//! region's first row (and written again, continued, with the next text),
//! so streamed text and the region never overlap. A Markdown answer keeps
//! its open block there ([`Screen::update`]), redrawn from the first row
//! that changed as the block grows, and committed rows go above it.
//!
//! A redraw is one write: synchronized-output mode on (terminals that know
//! it show the frame at once; others ignore it), the rows the region took
//! cleared one by one from the bottom up, the text, the region, each line
//! ended by a newline (the cursor then waits below the region, hidden),
//! synchronized output off. Not "clear to the end of the screen": from
//! the top-left corner that is a whole-screen clear, which tmux scrolls
//! into its history. A line is a row, unless it is wider than the
//! terminal now (a fixed `--width`, or a terminal that shrank and rewrapped
//! its lines, as tmux, VTE, kitty and iTerm2 do): the climb counts the rows
//! it takes.

use crate::render::text::{strip_ansi, width};

const SYNC_ON: &str = "\x1b[?2026h";
const SYNC_OFF: &str = "\x1b[?2026l";
pub const HIDE_CURSOR: &str = "\x1b[?25l";
pub const SHOW_CURSOR: &str = "\x1b[?25h";

/// What is on the screen below the committed text.
#[derive(Debug, Default)]
pub struct Screen {
    /// Display widths of the region's lines as drawn (tail line included).
    drawn: Vec<usize>,
    /// Text above that has no newline yet.
    tail: String,
    /// Anything was written above: the region is set off by a blank line.
    text_above: bool,
    /// The open line of text written before any region is on the
    /// cursor's row: a redraw starts by clearing that row.
    open_row: bool,
    /// The region's rows as drawn by [`Screen::update`].
    rows: Vec<String>,
}

impl Screen {
    pub fn new() -> Screen {
        Screen::default()
    }

    /// The region is on screen.
    pub fn shown(&self) -> bool {
        !self.drawn.is_empty()
    }

    /// Text written as it came, before there was a region: its open line
    /// becomes the region's first row when one comes.
    pub fn wrote(&mut self, text: &str) {
        self.text_above |= !text.is_empty();
        match text.rfind('\n') {
            Some(at) => self.tail = text[at + 1..].to_string(),
            None => self.tail.push_str(text),
        }
        self.open_row = !self.tail.is_empty();
    }

    /// One redraw: `text` is what the stream wrote since the last one,
    /// `region` the frames, `cols` the terminal's width now. Returns the
    /// bytes.
    pub fn redraw(&mut self, text: &str, region: &[String], cols: usize) -> String {
        let mut s = String::from(SYNC_ON);
        self.erase(&mut s, cols);
        let mut all = std::mem::take(&mut self.tail);
        all.push_str(text);
        let (done, tail) = match all.rfind('\n') {
            Some(at) => all.split_at(at + 1),
            None => ("", all.as_str()),
        };
        s.push_str(done);
        self.text_above |= !all.is_empty();
        let mut drawn = Vec::with_capacity(region.len() + 2);
        if !tail.is_empty() {
            // A style opened in the text ends before the region.
            s.push_str(tail);
            s.push_str("\x1b[0m\n");
            drawn.push(width(&strip_ansi(tail)));
        } else if self.text_above && !region.is_empty() {
            s.push('\n');
            drawn.push(0);
        }
        for l in region {
            s.push_str(l);
            s.push('\n');
            drawn.push(width(&strip_ansi(l)));
        }
        s.push_str(SYNC_OFF);
        self.tail = tail.to_string();
        self.open_row = false;
        self.drawn = drawn;
        s
    }

    /// One update of a region of rows under committed text: `text` (whole
    /// lines) is written for good above the region, `region` the rows drawn
    /// in place, `cols` the terminal's width now. Rows that did not change
    /// are not written again. Returns the bytes (none when nothing
    /// changed).
    pub fn update(&mut self, text: &str, region: &[String], cols: usize) -> String {
        let same = if text.is_empty() {
            self.rows
                .iter()
                .zip(region)
                .take_while(|(a, b)| a == b)
                .count()
        } else {
            0
        };
        if text.is_empty() && same == self.rows.len() && same == region.len() {
            return String::new();
        }
        let mut s = String::from(SYNC_ON);
        let climb: usize = self.drawn[same..]
            .iter()
            .map(|&w| w.div_ceil(cols.max(1)).max(1))
            .sum();
        s.push('\r');
        for _ in 0..climb {
            s.push_str("\x1b[A\x1b[2K");
        }
        s.push_str(text);
        self.drawn.truncate(same);
        self.rows.truncate(same);
        for l in &region[same..] {
            s.push_str(l);
            s.push('\n');
            self.drawn.push(width(&strip_ansi(l)));
            self.rows.push(l.clone());
        }
        s.push_str(SYNC_OFF);
        s
    }

    /// Each of the region's rows cleared, from the bottom up; the cursor
    /// ends on the first. A line wider than the terminal is now (drawn at
    /// a fixed `--width`, or rewrapped by a terminal that shrank) takes
    /// several rows.
    fn erase(&self, s: &mut String, cols: usize) {
        let rows: usize = self
            .drawn
            .iter()
            .map(|&w| w.div_ceil(cols.max(1)).max(1))
            .sum();
        s.push('\r');
        if self.open_row && self.drawn.is_empty() {
            s.push_str("\x1b[2K");
        }
        for _ in 0..rows {
            s.push_str("\x1b[A\x1b[2K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UP: &str = "\x1b[A\x1b[2K";

    fn region(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("row {i}")).collect()
    }

    #[test]
    fn redraws_climb_exactly_the_rows_drawn() {
        let mut s = Screen::new();
        let first = s.redraw("", &region(3), 80);
        assert_eq!(first, "\x1b[?2026h\rrow 0\nrow 1\nrow 2\n\x1b[?2026l");
        let second = s.redraw("", &region(2), 80);
        assert!(
            second.starts_with(&format!("\x1b[?2026h\r{}row 0", UP.repeat(3))),
            "{second:?}"
        );
        let third = s.redraw("", &region(2), 80);
        assert!(
            third.starts_with(&format!("\x1b[?2026h\r{}row 0", UP.repeat(2))),
            "{third:?}"
        );
    }

    #[test]
    fn text_goes_above_and_its_open_line_is_redrawn() {
        let mut s = Screen::new();
        s.redraw("", &region(2), 80);
        let out = s.redraw("hello\nwor", &region(2), 80);
        // hello is committed; "wor" is the region's first row, then a blank
        // row is not needed (the open line sets the region off).
        assert!(
            out.contains(&format!(
                "{}hello\nwor\x1b[0m\nrow 0\nrow 1\n",
                UP.repeat(2)
            )),
            "{out:?}"
        );
        let out = s.redraw("ld\n", &region(2), 80);
        // Climbs the open line too, writes it again, continued.
        assert!(
            out.contains(&format!("\r{}world\n\nrow 0", UP.repeat(3))),
            "{out:?}"
        );
    }

    #[test]
    fn a_narrower_terminal_climbs_the_rewrapped_rows() {
        let mut s = Screen::new();
        s.redraw("", &["x".repeat(100), "y".repeat(10)], 120);
        let out = s.redraw("", &region(1), 40);
        // 100 columns at 40 wide took 3 rows, the short line 1.
        assert!(
            out.starts_with(&format!("\x1b[?2026h\r{}row 0", UP.repeat(4))),
            "{out:?}"
        );
    }

    #[test]
    fn text_with_no_region_is_written() {
        // Found by tests/it/markdown_in_place.rs: committed rows with no
        // region shown before or after were dropped.
        let mut s = Screen::new();
        assert_eq!(s.update("a\n", &[], 80), "\x1b[?2026h\ra\n\x1b[?2026l");
    }

    #[test]
    fn an_update_rewrites_from_the_first_changed_row() {
        let mut s = Screen::new();
        let first = s.update("", &["one".into(), "tw".into()], 80);
        assert_eq!(first, "\x1b[?2026h\rone\ntw\n\x1b[?2026l");
        let grown = s.update("", &["one".into(), "two".into(), "three".into()], 80);
        assert_eq!(grown, format!("\x1b[?2026h\r{UP}two\nthree\n\x1b[?2026l"));
        assert_eq!(
            s.update("", &["one".into(), "two".into(), "three".into()], 80),
            ""
        );
        let done = s.update("one\ntwo\nthree!\n", &[], 80);
        assert_eq!(
            done,
            format!("\x1b[?2026h\r{}one\ntwo\nthree!\n\x1b[?2026l", UP.repeat(3))
        );
    }
}
