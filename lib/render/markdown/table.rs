//! GFM tables in answers: the table's lines are parsed by pulldown-cmark
//! once the table is complete, then drawn by the one table drawer
//! ([`crate::render::table`]) in the same borders as viz-render's chart
//! tables. Columns share the width (narrow
//! ones keep theirs) and long cells wrap inside their column, so a table
//! wider than the terminal still fits; columns that cannot get three
//! characters are left out and counted in a note.

use comfy_table::CellAlignment;
use pulldown_cmark::{Alignment, Event as Md, Options, Parser, Tag, TagEnd};

use crate::render::table::{self, Layout, overhead, share};
use crate::render::text::{Style, paint, width};
use crate::render::wrap::truncate;

/// A parsed table: alignments, header cells, body rows (plain text).
pub struct Grid {
    pub align: Vec<Alignment>,
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Parses the lines of a table; `None` when pulldown-cmark does not read
/// them as one (no delimiter row, say).
pub fn parse(lines: &[String]) -> Option<Grid> {
    let text = lines.join("\n");
    let mut grid = Grid {
        align: Vec::new(),
        head: Vec::new(),
        rows: Vec::new(),
    };
    let (mut in_head, mut seen) = (false, false);
    let mut cell: Option<String> = None;
    for ev in Parser::new_ext(
        &text,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH,
    ) {
        match ev {
            Md::Start(Tag::Table(a)) => {
                if seen {
                    break;
                }
                seen = true;
                grid.align = a;
            }
            Md::End(TagEnd::Table) => break,
            Md::Start(Tag::TableHead) => in_head = true,
            Md::End(TagEnd::TableHead) => in_head = false,
            Md::Start(Tag::TableRow) => grid.rows.push(Vec::new()),
            Md::Start(Tag::TableCell) => cell = Some(String::new()),
            Md::End(TagEnd::TableCell) => {
                let c = cell.take().unwrap_or_default().trim().to_string();
                if in_head {
                    grid.head.push(c);
                } else if let Some(r) = grid.rows.last_mut() {
                    r.push(c);
                }
            }
            Md::Text(t) | Md::Html(t) | Md::InlineHtml(t) => {
                if let Some(c) = &mut cell {
                    c.push_str(&t);
                }
            }
            Md::Code(t) => {
                if let Some(c) = &mut cell {
                    c.push_str(&t);
                }
            }
            Md::SoftBreak | Md::HardBreak => {
                if let Some(c) = &mut cell {
                    c.push(' ');
                }
            }
            _ => {}
        }
    }
    (seen && !grid.head.is_empty()).then_some(grid)
}

/// Draws a grid at most `w` columns wide.
pub fn draw(grid: &Grid, w: usize, unicode: bool, color: bool) -> Vec<String> {
    let ascii = !unicode;
    let n_all = grid.head.len();
    let mut n = n_all;
    while n > 1 && overhead(n) + 3 * n > w {
        n -= 1;
    }
    let cells: Vec<Vec<String>> = std::iter::once(&grid.head)
        .chain(&grid.rows)
        .map(|r| {
            (0..n)
                .map(|c| r.get(c).map_or(String::new(), |s| s.replace('\t', " ")))
                .collect()
        })
        .collect();
    let natural: Vec<usize> = (0..n)
        .map(|c| cells.iter().map(|r| width(&r[c])).max().unwrap_or(1).max(1))
        .collect();
    let widths = share(&natural, w.saturating_sub(overhead(n)).max(n));
    let align: Vec<CellAlignment> = (0..n)
        .map(|c| match grid.align.get(c) {
            Some(Alignment::Right) => CellAlignment::Right,
            Some(Alignment::Center) => CellAlignment::Center,
            _ => CellAlignment::Left,
        })
        .collect();
    let mut lines = table::draw(&Layout {
        cells: &cells,
        align: &align,
        widths: Some(&widths),
        w,
        unicode,
        color,
    });
    if n < n_all {
        let hidden = n_all - n;
        let note = format!(
            "({hidden} more column{} not shown at this width)",
            if hidden == 1 { "" } else { "s" }
        );
        lines.push(paint(&truncate(&note, w, ascii), Style::Dim, color));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(String::from).collect()
    }

    #[test]
    fn a_wide_table_fits_by_wrapping_cells() {
        let g = parse(&lines(
            "| Model | Notes |\n|---|--:|\n| M5 CS | the fastest sedan BMW ever built, with 627 hp |",
        ))
        .unwrap();
        assert_eq!(g.head, ["Model", "Notes"]);
        assert_eq!(g.align[1], Alignment::Right);
        let out = draw(&g, 30, true, false);
        assert!(out.iter().all(|l| width(l) <= 30), "{out:#?}");
        let joined = out.join(" ");
        for word in ["fastest", "627", "hp"] {
            assert!(joined.contains(word), "{out:#?}");
        }
    }

    #[test]
    fn not_a_table_without_a_delimiter_row() {
        assert!(parse(&lines("| a | b |\n| c | d |")).is_none());
    }

    #[test]
    fn answer_tables_fit_unwrapped_are_drawn_whole() {
        let g = parse(&lines(
            "| Model | 0-60 | Mid |\n|---|--:|:-:|\n| M5 CS | 2.9 | x |\n| M8 Competition | 3.0 | yy |",
        ))
        .unwrap();
        assert_eq!(
            draw(&g, 80, true, false),
            [
                "╭────────────────┬──────┬─────╮",
                "│ Model          │ 0-60 │ Mid │",
                "├────────────────┼──────┼─────┤",
                "│ M5 CS          │  2.9 │  x  │",
                "│ M8 Competition │  3.0 │  yy │",
                "╰────────────────┴──────┴─────╯",
            ]
        );
    }
}
