//! GFM tables in answers: the table's lines are parsed by pulldown-cmark
//! once the table is complete, then drawn with comfy-table in the same
//! borders as viz-render's chart tables. Columns share the width (narrow
//! ones keep theirs) and long cells wrap inside their column, so a table
//! wider than the terminal still fits; columns that cannot get three
//! characters are left out and counted in a note.

use comfy_table::{
    Attribute, Cell, CellAlignment, ColumnConstraint, ContentArrangement, Table, Width,
};
use pulldown_cmark::{Alignment, Event as Md, Options, Parser, Tag, TagEnd};

use crate::render::table::{ASCII_STYLE, UNICODE_STYLE, overhead, share};
use crate::render::text::{Style, paint, strip_ansi, truncate, visible_width, width};

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
    let layout = Layout {
        cells: &cells,
        align: &align,
        widths: &widths,
        w,
        unicode,
        color,
    };
    let mut lines = draw_fitting(&layout).unwrap_or_else(|| draw_comfy(&layout));
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

/// A table ready to draw: `cells` (the header row first) in columns at
/// most `widths` wide, in `w` columns in all.
#[derive(Clone, Copy)]
struct Layout<'a> {
    cells: &'a [Vec<String>],
    align: &'a [CellAlignment],
    widths: &'a [usize],
    w: usize,
    unicode: bool,
    color: bool,
}

/// comfy-table's drawing of `cells` (the header row first), each column
/// at most `widths[c]` wide, long cells wrapped; lines cut to `w`.
fn draw_comfy(t: &Layout) -> Vec<String> {
    let Layout {
        cells,
        align,
        widths,
        w,
        unicode,
        color,
    } = *t;
    let ascii = !unicode;
    let mut table = Table::new();
    table
        .load_style(if ascii { ASCII_STYLE } else { UNICODE_STYLE })
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(w.min(u16::MAX as usize) as u16)
        .force_no_tty();
    if color {
        table.enforce_styling();
    }
    let row = |r: &[String]| {
        r.iter()
            .zip(align)
            .map(|(t, &a)| Cell::new(t).set_alignment(a))
            .collect::<Vec<_>>()
    };
    let (head, body) = cells.split_first().expect("a grid has a header row");
    table.set_header(
        row(head)
            .into_iter()
            .map(|c| c.add_attribute(Attribute::Bold)),
    );
    for r in body {
        table.add_row(row(r));
    }
    table.set_constraints(widths.iter().map(|&cw| {
        ColumnConstraint::UpperBoundary(Width::Fixed((cw + 2).min(u16::MAX as usize) as u16))
    }));
    table
        .lines()
        .map(|l| {
            let l = l.trim_end().to_string();
            // The width promise wins over comfy-table's layout.
            if l.len() > w && visible_width(&l) > w {
                truncate(&strip_ansi(&l), w, ascii)
            } else {
                l
            }
        })
        .collect()
}

/// The common table, drawn directly: when every cell fits its column
/// unwrapped, comfy-table's layout is each column at its widest cell,
/// and these are its bytes (the tests compare the two on generated
/// tables). It is most of what answers hold, and comfy-table's general
/// layout cost as much as the rest of drawing an answer. `None`: some
/// cell needs wrapping or is unusual (a control character, an empty
/// column), for [`draw_comfy`].
fn draw_fitting(t: &Layout) -> Option<Vec<String>> {
    let Layout {
        cells,
        align,
        widths,
        w,
        unicode,
        color,
    } = *t;
    use unicode_width::UnicodeWidthStr;
    if cells
        .iter()
        .flatten()
        .any(|t| t.chars().any(char::is_control))
    {
        return None;
    }
    // comfy-table measures with unicode-width; so must its stand-in.
    let content: Vec<usize> = (0..widths.len())
        .map(|c| cells.iter().map(|r| r[c].width()).max().unwrap_or(0))
        .collect();
    if content
        .iter()
        .zip(widths)
        .any(|(&cw, &room)| cw == 0 || cw > room)
        || content.iter().sum::<usize>() + overhead(content.len()) > w
    {
        return None;
    }
    let [top, head_sep, bottom, bar] = if unicode {
        [['╭', '┬', '╮'], ['├', '┼', '┤'], ['╰', '┴', '╯'], ['│'; 3]]
    } else {
        [['+'; 3], ['+'; 3], ['+'; 3], ['|'; 3]]
    };
    let fill = if unicode { '─' } else { '-' };
    let rule = |[left, junction, right]: [char; 3]| {
        let mut l = String::new();
        l.push(left);
        for (c, &cw) in content.iter().enumerate() {
            if c > 0 {
                l.push(junction);
            }
            l.extend(std::iter::repeat_n(fill, cw + 2));
        }
        l.push(right);
        l
    };
    let row = |r: &[String], bold: bool| {
        let mut l = String::new();
        l.push(bar[0]);
        for (c, t) in r.iter().enumerate() {
            let room = content[c] - t.width();
            let (left, right) = match align[c] {
                CellAlignment::Left => (0, room),
                CellAlignment::Right => (room, 0),
                CellAlignment::Center => (room.div_ceil(2), room / 2),
            };
            if bold {
                l.push_str("\x1b[1m");
            }
            l.extend(std::iter::repeat_n(' ', left + 1));
            l.push_str(t);
            l.extend(std::iter::repeat_n(' ', right + 1));
            if bold {
                l.push_str("\x1b[0m");
            }
            l.push(bar[1]);
        }
        l.truncate(l.trim_end().len());
        l
    };
    let mut lines = Vec::with_capacity(cells.len() + 3);
    lines.push(rule(top));
    lines.push(row(&cells[0], color));
    lines.push(rule(head_sep));
    lines.extend(cells[1..].iter().map(|r| row(r, false)));
    lines.push(rule(bottom));
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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

    fn cell() -> impl Strategy<Value = String> {
        // Plain words, spaces, wide and combining characters, emoji with
        // a variation selector.
        proptest::collection::vec(
            prop_oneof![
                8 => proptest::char::range('a', 'z').prop_map(String::from),
                2 => Just(" ".to_string()),
                1 => Just("漢".to_string()),
                1 => Just("e\u{301}".to_string()),
                1 => Just("❤\u{fe0f}".to_string()),
                1 => Just("-".to_string()),
            ],
            0..14,
        )
        .prop_map(|v| v.concat())
    }

    fn grid() -> impl Strategy<Value = (Vec<Vec<String>>, Vec<CellAlignment>)> {
        (1usize..6, 1usize..6).prop_flat_map(|(cols, rows)| {
            (
                proptest::collection::vec(proptest::collection::vec(cell(), cols), rows + 1),
                proptest::collection::vec(
                    prop_oneof![
                        Just(CellAlignment::Left),
                        Just(CellAlignment::Right),
                        Just(CellAlignment::Center)
                    ],
                    cols,
                ),
            )
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Wherever the direct drawing takes a table, it draws comfy-table's
        /// bytes, in both glyph sets, with and without colour.
        #[test]
        fn fitting_tables_are_drawn_as_comfy_table_draws_them(
            (cells, align) in grid(),
            w in 1usize..150,
            unicode: bool,
            color: bool,
        ) {
            let natural: Vec<usize> = (0..align.len())
                .map(|c| cells.iter().map(|r| width(&r[c])).max().unwrap_or(1).max(1))
                .collect();
            let widths = share(&natural, w.saturating_sub(overhead(align.len())).max(align.len()));
            let t = Layout { cells: &cells, align: &align, widths: &widths, w, unicode, color };
            if let Some(fast) = draw_fitting(&t) {
                prop_assert_eq!(fast, draw_comfy(&t));
            }
        }
    }

    #[test]
    fn most_answer_tables_take_the_direct_drawing() {
        let g = parse(&lines(
            "| Model | 0-60 | Mid |\n|---|--:|:-:|\n| M5 CS | 2.9 | x |\n| M8 Competition | 3.0 | yy |",
        ))
        .unwrap();
        let cells: Vec<Vec<String>> = std::iter::once(&g.head).chain(&g.rows).cloned().collect();
        let align = [
            CellAlignment::Left,
            CellAlignment::Right,
            CellAlignment::Center,
        ];
        let t = |cells, widths, w| Layout {
            cells,
            align: &align,
            widths,
            w,
            unicode: true,
            color: true,
        };
        let fast = draw_fitting(&t(&cells, &[14, 4, 3], 80)).unwrap();
        assert_eq!(fast, draw_comfy(&t(&cells, &[14, 4, 3], 80)));
        assert_eq!(fast, draw(&g, 80, true, true));
        // Too narrow to fit unwrapped, or a control character (comfy-table
        // measures it its own way): comfy-table lays it out.
        assert!(draw_fitting(&t(&cells, &[8, 4, 3], 24)).is_none());
        let mut odd = cells.clone();
        odd[1][0].push('\u{1b}');
        assert!(draw_fitting(&t(&odd, &[14, 4, 3], 80)).is_none());
    }
}
