//! The open block of a Markdown answer redrawn in place (issue 23), read
//! back through a small terminal: whatever the answer and however it was
//! cut, the screen ends as the pipe's output, and no redraw climbs above
//! the screen's top row (where a row would be left behind).

use gemline::render::{RenderOptions, text::strip_ansi};
use proptest::prelude::*;

use crate::support::answer::{cut_at, draw_answer, markdown_text};

/// A terminal as far as the redraw uses it: rows of text, the cursor's
/// row and column; `\r`, `\n` (to the next row's start, as a tty's
/// `onlcr` makes it), cursor up (`ESC [ A`), erase the row (`ESC [ 2 K`);
/// SGR, OSC and mode changes draw nothing. `height` rows are on screen:
/// the last ones the cursor reached.
struct Term {
    rows: Vec<Vec<char>>,
    row: usize,
    col: usize,
    height: usize,
    width: usize,
}

impl Term {
    fn new(width: usize, height: usize) -> Term {
        Term {
            rows: vec![Vec::new()],
            row: 0,
            col: 0,
            height,
            width,
        }
    }

    /// The screen's top row.
    fn top(&self) -> usize {
        (self.rows.len()).saturating_sub(self.height)
    }

    fn feed(&mut self, s: &str) -> Result<(), String> {
        let mut chars = s.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\r' => self.col = 0,
                '\n' => {
                    self.row += 1;
                    self.col = 0;
                    if self.row == self.rows.len() {
                        self.rows.push(Vec::new());
                    }
                }
                '\x1b' => match chars.next() {
                    Some('[') => {
                        let mut params = String::new();
                        let fin = loop {
                            match chars.next() {
                                Some(d) if d.is_ascii_alphabetic() => break d,
                                Some(d) => params.push(d),
                                None => return Err("a cut escape".into()),
                            }
                        };
                        match (fin, params.as_str()) {
                            ('A', "") => {
                                if self.row <= self.top() {
                                    return Err(format!(
                                        "cursor up from the top row {} of the screen",
                                        self.row
                                    ));
                                }
                                self.row -= 1;
                            }
                            ('K', "2") => self.rows[self.row].clear(),
                            ('m', _) | ('h', "?2026") | ('l', "?2026") => {}
                            other => return Err(format!("unexpected sequence {other:?}")),
                        }
                    }
                    Some(']') => {
                        // OSC 8: up to ESC \.
                        while let Some(d) = chars.next() {
                            if d == '\x1b' {
                                chars.next();
                                break;
                            }
                        }
                    }
                    other => return Err(format!("unexpected escape {other:?}")),
                },
                c => self.put(c)?,
            }
        }
        Ok(())
    }

    /// A printable character at the cursor.
    fn put(&mut self, c: char) -> Result<(), String> {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        let line = &mut self.rows[self.row];
        if w == 0 {
            // A combining mark joins the cell before.
            line.push(c);
            return Ok(());
        }
        // A wide character takes two cells: a blank follows it.
        while line.len() < self.col {
            line.push(' ');
        }
        let cells = line
            .iter()
            .filter(|&&c| unicode_width::UnicodeWidthChar::width(c) != Some(0) || c == '\u{0}')
            .count();
        if cells > self.col {
            return Err("a row written over in its middle".into());
        }
        line.push(c);
        self.col += w;
        if w == 2 {
            line.push('\u{0}');
        }
        if self.col > self.width {
            return Err(format!("a row wider than {}", self.width));
        }
        Ok(())
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for r in &self.rows[..self.row] {
            let line: String = r.iter().filter(|&&c| c != '\u{0}').collect();
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_screen_ends_as_the_pipe_draws_it(
        text in markdown_text(),
        width in 1usize..=100,
        height in 2usize..=30,
        unicode in any::<bool>(),
        color in any::<bool>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..40),
    ) {
        let opts = RenderOptions { width, unicode, color, markdown: true, ..RenderOptions::default() };
        let deltas = cut_at(&text, &cuts);
        let piped = strip_ansi(&draw_answer(&deltas, &opts, None));
        let in_place = RenderOptions { in_place: true, ..opts.clone() };
        let drawn = draw_answer(&deltas, &in_place, Some((width, height)));
        let mut term = Term::new(width, height);
        if let Err(e) = term.feed(&drawn) {
            prop_assert!(false, "{e}: {drawn:?}");
        }
        let plain: String = piped.lines().map(|l| format!("{}\n", l.trim_end())).collect();
        prop_assert_eq!(term.text(), plain);
    }
}

/// A reference before its definition (issue 37): on a terminal its block
/// is drawn at once, as written, and redrawn in place, resolved, when the
/// definition comes; the screen ends as the pipe draws it.
#[test]
fn a_reference_is_drawn_at_once_and_redrawn_when_its_definition_comes() {
    use gemline::events::Event;
    use gemline::render::Renderer;
    let opts = RenderOptions {
        width: 60,
        unicode: true,
        color: false,
        markdown: true,
        in_place: true,
        ..RenderOptions::default()
    };
    let mut r = Renderer::new(opts.clone());
    r.fix_screen_size(60, 20);
    let mut term = Term::new(60, 20);
    let feed = |r: &mut Renderer, d: &str, term: &mut Term| {
        let mut out = Vec::new();
        r.event(&Event::message("assistant", d, true), &mut out)
            .unwrap();
        term.feed(&String::from_utf8(out).unwrap()).unwrap();
    };
    feed(&mut r, "See [docs] now.\n\nMore text.\n\n", &mut term);
    let screen: String = term
        .rows
        .iter()
        .map(|l| l.iter().collect::<String>() + "\n")
        .collect();
    assert!(screen.contains("See [docs] now."), "{screen}");
    feed(&mut r, "[docs]: https://d.example\n", &mut term);
    let mut out = Vec::new();
    r.finish(&mut out).unwrap();
    term.feed(&String::from_utf8(out).unwrap()).unwrap();
    assert_eq!(
        term.text(),
        "See docs (https://d.example) now.\n\nMore text.\n"
    );
}

/// A row whose look is two lines (money beside a comma, at 5 columns) on a
/// 4-row screen: the region counts the lines it drew, so its redraw erases
/// them all and the screen ends as the pipe draws it, however the answer
/// is cut (found by the property above).
#[test]
fn a_row_drawn_as_two_lines_is_erased_whole() {
    let text = "$5 and $10\n,$5 and $10";
    for unicode in [false, true] {
        for color in [false, true] {
            for cut in 0..text.len() {
                let opts = RenderOptions {
                    width: 5,
                    unicode,
                    color,
                    markdown: true,
                    ..RenderOptions::default()
                };
                let deltas = if cut == 0 {
                    vec![text.to_string()]
                } else {
                    vec![text[..cut].to_string(), text[cut..].to_string()]
                };
                let piped = strip_ansi(&draw_answer(&deltas, &opts, None));
                let in_place = RenderOptions {
                    in_place: true,
                    ..opts.clone()
                };
                let drawn = draw_answer(&deltas, &in_place, Some((5, 4)));
                let mut term = Term::new(5, 4);
                term.feed(&drawn).unwrap();
                let plain: String = piped
                    .lines()
                    .map(|l| format!("{}\n", l.trim_end()))
                    .collect();
                assert_eq!(
                    term.text(),
                    plain,
                    "unicode {unicode}, colour {color}, cut at {cut}"
                );
            }
        }
    }
}
