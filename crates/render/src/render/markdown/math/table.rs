//! The environments of math laid out: a matrix's cells centred in their
//! columns between brackets grown to its height, `cases` to the left
//! behind a brace, `aligned` rows meeting at their `&` (the column before
//! it to the right, the one after to the left). On one row (inline
//! math) a matrix is `(a b; c d)` and a case `{a, x > 0; b, otherwise`.

use super::block::{Block, Style, fenced};
use super::parse::Node;
use super::symbols::Class;

/// How an environment is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Matrix,
    Cases,
    Aligned,
}

fn kind_of(env: &str) -> (Kind, &'static str, &'static str) {
    match env {
        "pmatrix" => (Kind::Matrix, "(", ")"),
        "bmatrix" => (Kind::Matrix, "[", "]"),
        "Bmatrix" => (Kind::Matrix, "{", "}"),
        "vmatrix" => (Kind::Matrix, "|", "|"),
        "Vmatrix" => (Kind::Matrix, "‖", "‖"),
        "matrix" | "smallmatrix" | "array" => (Kind::Matrix, "", ""),
        "cases" | "dcases" => (Kind::Cases, "{", ""),
        _ => (Kind::Aligned, "", ""),
    }
}

/// A cell: in an aligned row, a cell after a `&` that starts with a
/// relation has a blank before it.
fn cell(nodes: &[Node], col: usize, kind: Kind, st: Style, list: Layout) -> Block {
    let b = list(nodes, st);
    let rel = matches!(
        nodes.first(),
        Some(Node::Atom {
            class: Class::Rel | Class::Bin,
            ..
        })
    );
    if kind == Kind::Aligned && col % 2 == 1 && rel {
        let rows = b.rows.iter().map(|r| format!(" {r}")).collect();
        return Block { rows, base: b.base };
    }
    b
}

/// How a list of nodes is laid out (`draw::list`, handed in: the cells
/// hold any math, and `draw` calls this module for environments).
pub type Layout = fn(&[Node], Style) -> Block;

pub fn draw(env: &str, rows: &[Vec<Vec<Node>>], st: Style, list: Layout) -> Block {
    let (kind, open, close) = kind_of(env);
    let cells: Vec<Vec<Block>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .map(|(j, c)| cell(c, j, kind, st, list))
                .collect()
        })
        .collect();
    if !st.display {
        return Block::text(one_row(&cells, kind, open, close));
    }
    let cols = cells.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|j| {
            let w = cells.iter().filter_map(|r| r.get(j)).map(Block::width);
            w.max().unwrap_or(0)
        })
        .collect();
    let mut lines: Vec<Block> = Vec::new();
    for r in &cells {
        let mut parts = Vec::new();
        for (j, w) in widths.iter().enumerate() {
            let c = r.get(j).cloned().unwrap_or_else(|| Block::text(""));
            let gap = match kind {
                Kind::Aligned => j > 0 && j % 2 == 0,
                _ => j > 0,
            };
            if gap {
                parts.push(Block::text("  "));
            }
            let room = w - c.width();
            let left = match kind {
                Kind::Matrix => room / 2,
                Kind::Cases => 0,
                Kind::Aligned if j % 2 == 0 => room,
                Kind::Aligned => 0,
            };
            parts.push(padded(c, left, room - left));
        }
        lines.push(Block::hcat(&parts));
    }
    let mut rows_out = Vec::new();
    for l in lines {
        rows_out.extend(l.rows);
    }
    let h = rows_out.len().max(1);
    if rows_out.is_empty() {
        rows_out.push(String::new());
    }
    let body = Block {
        rows: rows_out,
        base: (h - 1) / 2,
    };
    fenced(open, close, body, st.unicode)
}

fn padded(b: Block, left: usize, right: usize) -> Block {
    let rows = b
        .rows
        .iter()
        .map(|r| format!("{}{r}{}", " ".repeat(left), " ".repeat(right)))
        .collect();
    Block { rows, base: b.base }
}

/// A table on one row.
fn one_row(cells: &[Vec<Block>], kind: Kind, open: &str, close: &str) -> String {
    let rows: Vec<String> = cells
        .iter()
        .map(|r| {
            let texts = r.iter().map(Block::line);
            match kind {
                Kind::Matrix => texts.collect::<Vec<_>>().join(" "),
                Kind::Cases => texts.collect::<Vec<_>>().join(", "),
                Kind::Aligned => texts.collect::<String>(),
            }
        })
        .collect();
    let (open, close) = match (kind, open, close) {
        (Kind::Matrix, "", "") => ("[", "]"),
        _ => (open, close),
    };
    format!("{open}{}{close}", rows.join("; "))
}
