//! GFM tables in answers: the cells pulldown-cmark read (see
//! [`super::layout`]), drawn once the table is complete by the one table
//! drawer
//! ([`crate::render::table`]) in the same borders as viz-render's chart
//! tables. Columns share the width (narrow
//! ones keep theirs) and long cells wrap inside their column, so a table
//! wider than the terminal still fits; columns that cannot get three
//! characters are left out and counted in a note.

use comfy_table::CellAlignment;
use pulldown_cmark::Alignment;

use crate::render::table::{self, Layout, overhead, share};
use crate::render::text::{Style, paint, width};
use crate::render::wrap::truncate;
use crate::render::{RenderOptions, TableChart};

/// A table read: alignments, header cells, body rows (plain text).
pub struct Grid {
    pub align: Vec<Alignment>,
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
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

/// `--chart-tables`: a table whose other columns hold numbers, also as
/// a bar chart (a blank row, then the chart), read by `read` (viz-parse's
/// own Markdown table reader); nothing when it holds no numbers.
pub fn chart(grid: &Grid, read: TableChart, opts: &RenderOptions) -> Vec<String> {
    let row = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        format!("| {} |", cells.join(" | "))
    };
    let mut text = row(&grid.head);
    text.push('\n');
    text.push_str(&row(&vec!["---".to_string(); grid.head.len()]));
    for r in &grid.rows {
        text.push('\n');
        text.push_str(&row(r));
    }
    match read(&text) {
        Some(chart) => {
            let mut lines = vec![String::new()];
            lines.extend(crate::render::render_chart(&chart, opts));
            lines
        }
        None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(align: Vec<Alignment>, head: &[&str], rows: &[&[&str]]) -> Grid {
        let v = |r: &[&str]| r.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        Grid {
            align,
            head: v(head),
            rows: rows.iter().map(|r| v(r)).collect(),
        }
    }

    #[test]
    fn a_wide_table_fits_by_wrapping_cells() {
        let g = grid(
            vec![Alignment::None, Alignment::Right],
            &["Model", "Notes"],
            &[&["M5 CS", "the fastest sedan BMW ever built, with 627 hp"]],
        );
        let out = draw(&g, 30, true, false);
        assert!(out.iter().all(|l| width(l) <= 30), "{out:#?}");
        let joined = out.join(" ");
        for word in ["fastest", "627", "hp"] {
            assert!(joined.contains(word), "{out:#?}");
        }
    }

    #[test]
    fn answer_tables_fit_unwrapped_are_drawn_whole() {
        let g = grid(
            vec![Alignment::None, Alignment::Right, Alignment::Center],
            &["Model", "0-60", "Mid"],
            &[&["M5 CS", "2.9", "x"], &["M8 Competition", "3.0", "yy"]],
        );
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
