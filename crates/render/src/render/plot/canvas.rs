//! The one drawing surface of the charts: a grid of terminal cells
//! addressed in dots (braille: 2×4 per cell; ASCII: one per cell). Each
//! cell holds the last ink put there and the style it came with, so a
//! later mark draws over an earlier one; dots of lines merge within a cell.

use super::super::text::{Line, Style};

/// What a cell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ink {
    Empty,
    /// Braille dots of lines (ASCII mode keeps the marker instead).
    Dots(u8),
    /// Dots of a filled area or bar: whole blocks where they form one
    /// (`█`, `▄`), braille where not. `dotted` keeps braille throughout,
    /// telling a second fill apart without colour.
    Fill {
        bits: u8,
        dotted: bool,
    },
    /// One character: a marker, a rule, a band's shade, a label.
    Glyph(char),
}

#[derive(Debug, Clone, Copy)]
struct Cell {
    ink: Ink,
    style: Style,
}

pub struct Canvas {
    cols: usize,
    rows: usize,
    unicode: bool,
    cells: Vec<Cell>,
}

impl Canvas {
    pub fn new(cols: usize, rows: usize, unicode: bool) -> Canvas {
        let empty = Cell {
            ink: Ink::Empty,
            style: Style::Plain,
        };
        Canvas {
            cols,
            rows,
            unicode,
            cells: vec![empty; cols * rows],
        }
    }

    /// Dots per cell across and down.
    pub fn dots_per_cell(unicode: bool) -> (usize, usize) {
        if unicode { (2, 4) } else { (1, 1) }
    }

    /// The size in dots.
    pub fn dots(&self) -> (usize, usize) {
        let (dx, dy) = Canvas::dots_per_cell(self.unicode);
        (self.cols * dx, self.rows * dy)
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    fn cell(&mut self, x: usize, y: usize) -> Option<(&mut Cell, u8)> {
        let (dx, dy) = Canvas::dots_per_cell(self.unicode);
        let (col, row) = (x / dx, y / dy);
        if col >= self.cols || row >= self.rows {
            return None;
        }
        let bit = if self.unicode {
            braille_bit(x % 2, y % 4)
        } else {
            0xFF
        };
        Some((&mut self.cells[row * self.cols + col], bit))
    }

    /// One dot of a line; in ASCII the cell shows `marker`.
    pub fn dot(&mut self, x: usize, y: usize, style: Style, marker: char) {
        let unicode = self.unicode;
        if let Some((c, bit)) = self.cell(x, y) {
            c.ink = match c.ink {
                _ if !unicode => Ink::Glyph(marker),
                Ink::Dots(b) => Ink::Dots(b | bit),
                _ => Ink::Dots(bit),
            };
            c.style = style;
        }
    }

    /// A straight line of dots between two dots, both ends included.
    pub fn line(&mut self, a: (usize, usize), b: (usize, usize), style: Style, marker: char) {
        segment(a, b, &mut |x, y| self.dot(x, y, style, marker));
    }

    /// Fills dot column `x` from `y0` to `y1` (either order, inclusive);
    /// in ASCII the cells show `fill`.
    pub fn fill(&mut self, x: usize, y0: usize, y1: usize, style: Style, dotted: bool, fill: char) {
        let unicode = self.unicode;
        for y in y0.min(y1)..=y0.max(y1) {
            if let Some((c, bit)) = self.cell(x, y) {
                c.ink = match c.ink {
                    _ if !unicode => Ink::Glyph(fill),
                    Ink::Fill { bits, dotted: d } if d == dotted => Ink::Fill {
                        bits: bits | bit,
                        dotted,
                    },
                    _ => Ink::Fill { bits: bit, dotted },
                };
                c.style = style;
            }
        }
    }

    /// One character in a cell (not a dot position).
    pub fn glyph(&mut self, col: usize, row: usize, ch: char, style: Style) {
        if col < self.cols && row < self.rows {
            self.cells[row * self.cols + col] = Cell {
                ink: Ink::Glyph(ch),
                style,
            };
        }
    }

    /// Text from a cell rightwards, cut at the edge; one cell per char
    /// (callers pass clean single-width text).
    pub fn text(&mut self, col: usize, row: usize, s: &str, style: Style) {
        for (i, ch) in s.chars().enumerate() {
            self.glyph(col + i, row, ch, style);
        }
    }

    /// Whether a cell is still blank (labels avoid covering data).
    pub fn is_empty(&self, col: usize, row: usize) -> bool {
        col < self.cols && row < self.rows && self.cells[row * self.cols + col].ink == Ink::Empty
    }

    /// One row as styled text; runs of one style share an escape sequence.
    pub fn row(&self, r: usize, line: &mut Line, color: bool) {
        let mut run = String::new();
        let mut run_style = Style::Plain;
        for c in &self.cells[r * self.cols..(r + 1) * self.cols] {
            let ch = match c.ink {
                Ink::Empty => ' ',
                Ink::Dots(b) => braille(b),
                Ink::Fill { bits, dotted } => block(bits, dotted),
                Ink::Glyph(g) => g,
            };
            let style = if ch == ' ' { Style::Plain } else { c.style };
            if style != run_style && !run.is_empty() {
                line.push(&run, run_style, color);
                run.clear();
            }
            run_style = style;
            run.push(ch);
        }
        line.push(&run, run_style, color);
    }
}

fn braille(bits: u8) -> char {
    char::from_u32(0x2800 + u32::from(bits)).unwrap_or(' ')
}

/// A filled cell: a block element where the dots form one, else braille.
fn block(bits: u8, dotted: bool) -> char {
    if dotted {
        return braille(bits);
    }
    match bits {
        0xFF => '█',
        0xF6 => '▆',
        0xE4 => '▄',
        0xC0 => '▂',
        0x1B => '▀',
        0x3F => '▀',
        _ => braille(bits),
    }
}

/// The braille bit of dot (column 0-1, row 0-3) within a cell.
fn braille_bit(x: usize, y: usize) -> u8 {
    match (x, y) {
        (0, 0) => 0x01,
        (0, 1) => 0x02,
        (0, 2) => 0x04,
        (0, 3) => 0x40,
        (1, 0) => 0x08,
        (1, 1) => 0x10,
        (1, 2) => 0x20,
        _ => 0x80,
    }
}

/// Bresenham between two grid points, both ends included.
fn segment(a: (usize, usize), b: (usize, usize), plot: &mut impl FnMut(usize, usize)) {
    let (mut x0, mut y0) = (a.0 as i64, a.1 as i64);
    let (x1, y1) = (b.0 as i64, b.1 as i64);
    let dx = (x1 - x0).abs();
    let dy = -(y1 - y0).abs();
    let sx = if x0 < x1 { 1 } else { -1 };
    let sy = if y0 < y1 { 1 } else { -1 };
    let mut err = dx + dy;
    loop {
        plot(x0 as usize, y0 as usize);
        if x0 == x1 && y0 == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x0 += sx;
        }
        if e2 <= dx {
            err += dx;
            y0 += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_become_blocks_and_lines_merge() {
        let mut c = Canvas::new(2, 1, true);
        c.fill(0, 0, 3, Style::Plain, false, '#');
        c.fill(1, 2, 3, Style::Plain, false, '#');
        c.fill(2, 2, 3, Style::Plain, false, '#');
        c.fill(3, 2, 3, Style::Plain, false, '#');
        let mut l = Line::new();
        c.row(0, &mut l, false);
        assert_eq!(l.text, "⣧▄");
        let mut c = Canvas::new(1, 1, true);
        c.dot(0, 0, Style::Plain, '*');
        c.dot(1, 3, Style::Plain, '*');
        let mut l = Line::new();
        c.row(0, &mut l, false);
        assert_eq!(l.text, "⢁");
    }
}
