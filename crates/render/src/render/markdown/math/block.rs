//! The block every piece of math is drawn into: rows of equal width and
//! the row the text around sits on, set side by side or one above the
//! other, and delimiters grown to a block's height. A leaf: `draw` lays
//! nodes out in blocks, `table` the environments.

use crate::render::text::width;

/// How math is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    pub unicode: bool,
    /// On several rows (display math), else on one.
    pub display: bool,
    /// Inside a script: no blanks between atoms.
    pub script: bool,
}

/// Rows of equal width and the row the text around sits on.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub rows: Vec<String>,
    pub base: usize,
}

impl Block {
    pub fn text(s: impl Into<String>) -> Block {
        Block {
            rows: vec![s.into()],
            base: 0,
        }
    }

    pub fn width(&self) -> usize {
        self.rows.iter().map(|r| width(r)).max().unwrap_or(0)
    }

    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// The one row of a flat block (the rows joined otherwise).
    pub fn line(&self) -> String {
        self.rows.join(" ")
    }

    /// Blocks side by side, their baselines on one row.
    pub fn hcat(parts: &[Block]) -> Block {
        let above = parts.iter().map(|b| b.base).max().unwrap_or(0);
        let below = parts
            .iter()
            .map(|b| b.height() - b.base - 1)
            .max()
            .unwrap_or(0);
        let mut rows = vec![String::new(); above + below + 1];
        for b in parts {
            let w = b.width();
            let top = above - b.base;
            for (i, r) in rows.iter_mut().enumerate() {
                let row = i.checked_sub(top).and_then(|j| b.rows.get(j));
                pad_to(r, row.map_or("", String::as_str), w);
            }
        }
        Block { rows, base: above }
    }

    /// Blocks one above the other, centred (`center`) or to the left; the
    /// baseline is that of block `base_of`.
    pub fn vstack(parts: &[Block], base_of: usize, center: bool) -> Block {
        let w = parts.iter().map(Block::width).max().unwrap_or(0);
        let mut rows = Vec::new();
        let mut base = 0;
        for (i, b) in parts.iter().enumerate() {
            if i == base_of {
                base = rows.len() + b.base;
            }
            let left = if center { (w - b.width()) / 2 } else { 0 };
            for r in &b.rows {
                let mut row = " ".repeat(left);
                pad_to(&mut row, r, w - left);
                rows.push(row);
            }
        }
        Block { rows, base }
    }
}

/// Appends `s` to `row`, padded with blanks to `w` columns.
fn pad_to(row: &mut String, s: &str, w: usize) {
    row.push_str(s);
    row.push_str(&" ".repeat(w.saturating_sub(width(s))));
}

/// A body between delimiters, grown to its height.
pub fn fenced(open: &str, close: &str, body: Block, unicode: bool) -> Block {
    let h = body.height();
    let base = body.base;
    let mut parts = Vec::new();
    if !open.is_empty() {
        parts.push(tall(open, h, base, unicode));
    }
    parts.push(body);
    if !close.is_empty() {
        parts.push(tall(close, h, base, unicode));
    }
    Block::hcat(&parts)
}

/// A delimiter `h` rows tall, its middle on `base`.
fn tall(d: &str, h: usize, base: usize, unicode: bool) -> Block {
    let one = if unicode {
        d.to_string()
    } else {
        d.replace('‖', "||").replace('⟨', "<").replace('⟩', ">")
    };
    if h == 1 {
        return Block::text(one);
    }
    // Top, side, bottom and the middle of a brace.
    let pieces: [&str; 4] = match (d, unicode) {
        ("(", true) => ["⎛", "⎜", "⎝", "⎜"],
        (")", true) => ["⎞", "⎟", "⎠", "⎟"],
        ("[", true) => ["⎡", "⎢", "⎣", "⎢"],
        ("]", true) => ["⎤", "⎥", "⎦", "⎥"],
        ("{", true) => ["⎧", "⎪", "⎩", "⎨"],
        ("}", true) => ["⎫", "⎪", "⎭", "⎬"],
        ("|", true) => ["│", "│", "│", "│"],
        ("(", false) => ["/", "|", "\\", "|"],
        (")", false) => ["\\", "|", "/", "|"],
        ("{", false) => ["/", "|", "\\", "{"],
        ("}", false) => ["\\", "|", "/", "}"],
        _ => [one.as_str(); 4],
    };
    let mid = (h - 1) / 2;
    let rows = (0..h)
        .map(|i| match i {
            0 => pieces[0],
            i if i == h - 1 => pieces[2],
            i if i == mid => pieces[3],
            _ => pieces[1],
        })
        .map(String::from)
        .collect();
    Block { rows, base }
}
