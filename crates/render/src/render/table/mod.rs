//! The one table drawer: every boxed table the programs print (chart
//! tables, GFM tables in answers) is drawn by [`draw`], in comfy-table's
//! bytes. The common table, where every cell fits its column unwrapped,
//! is drawn directly (comfy-table's general layout cost as much as the
//! rest of drawing an answer; the tests compare the two on generated
//! tables); the rest goes through comfy-table, which wraps long cells
//! inside their columns. [`columns`] is the borderless option of the
//! same drawer, for plain lists (`gem-ask --list-tools`). `chart.rs`
//! lays out a chart's data as a table.

mod chart;

pub use chart::render;

use comfy_table::{
    Attribute, Cell, CellAlignment, ColumnConstraint, ContentArrangement, ContentLineStyle,
    LineStyle, Table, TableStyle, Width,
};
use unicode_width::UnicodeWidthStr;

use super::text::{strip_ansi, visible_width};
use super::wrap::truncate;

const UNICODE_STYLE: TableStyle = TableStyle::new()
    .top_border(LineStyle::new('╭', '─', '┬', '╮'))
    .header_lines(ContentLineStyle::new('│', '│', '│'))
    .header_separator(LineStyle::new('├', '─', '┼', '┤'))
    .content_lines(ContentLineStyle::new('│', '│', '│'))
    .bottom_border(LineStyle::new('╰', '─', '┴', '╯'));

const ASCII_STYLE: TableStyle = TableStyle::new()
    .top_border(LineStyle::new('+', '-', '+', '+'))
    .header_lines(ContentLineStyle::new('|', '|', '|'))
    .header_separator(LineStyle::new('+', '-', '+', '+'))
    .content_lines(ContentLineStyle::new('|', '|', '|'))
    .bottom_border(LineStyle::new('+', '-', '+', '+'));

/// Border and padding columns of a table with `n` columns: `│ a │ b │`.
pub fn overhead(n: usize) -> usize {
    3 * n + 1
}

/// Fits natural column widths into `budget`: narrow columns keep their
/// width, the rest share what is left equally (water filling), at least 1.
pub fn share(natural: &[usize], budget: usize) -> Vec<usize> {
    let total: usize = natural.iter().sum();
    if total <= budget {
        return natural.to_vec();
    }
    let n = natural.len();
    let mut out = vec![0; n];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| natural[i]);
    let mut left = budget;
    for (k, &i) in order.iter().enumerate() {
        let fair = left / (n - k);
        let give = natural[i].min(fair).max(1);
        out[i] = give;
        left = left.saturating_sub(give);
    }
    // Whatever rounding left over goes to the label column.
    let used: usize = out.iter().sum();
    if used < budget && natural[0] > out[0] {
        out[0] += (budget - used).min(natural[0] - out[0]);
    }
    out
}

/// A table ready to draw: `cells` (the header row first, bold with
/// colour on), aligned per column, in `w` columns in all.
#[derive(Clone, Copy)]
pub struct Layout<'a> {
    pub cells: &'a [Vec<String>],
    pub align: &'a [CellAlignment],
    /// Each column's widest, longer cells wrapped inside it; `None`: the
    /// cells are already cut to fit.
    pub widths: Option<&'a [usize]>,
    pub w: usize,
    pub unicode: bool,
    pub color: bool,
}

/// Draws a table as lines of at most `w` columns, in comfy-table's bytes.
pub fn draw(t: &Layout) -> Vec<String> {
    draw_fitting(t).unwrap_or_else(|| draw_comfy(t))
}

/// comfy-table's drawing of the table; lines cut to `w`.
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
    let (head, body) = cells.split_first().expect("a table has a header row");
    table.set_header(
        row(head)
            .into_iter()
            .map(|c| c.add_attribute(Attribute::Bold)),
    );
    for r in body {
        table.add_row(row(r));
    }
    if let Some(widths) = widths {
        table.set_constraints(widths.iter().map(|&cw| {
            ColumnConstraint::UpperBoundary(Width::Fixed((cw + 2).min(u16::MAX as usize) as u16))
        }));
    }
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
/// and these are its bytes. `None`: some cell needs wrapping or is
/// unusual (a control character, an empty column), for [`draw_comfy`].
fn draw_fitting(t: &Layout) -> Option<Vec<String>> {
    let Layout {
        cells,
        align,
        widths,
        w,
        unicode,
        color,
    } = *t;
    if cells
        .iter()
        .flatten()
        .any(|t| t.chars().any(char::is_control))
    {
        return None;
    }
    // comfy-table measures with unicode-width; so must its stand-in.
    let content: Vec<usize> = (0..align.len())
        .map(|c| cells.iter().map(|r| r[c].width()).max().unwrap_or(0))
        .collect();
    let too_wide = |c: usize| widths.is_some_and(|ws| content[c] > ws[c]);
    if (0..content.len()).any(|c| content[c] == 0 || too_wide(c))
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

/// The borderless option: rows as columns two spaces apart, by display
/// width, each line's trailing blanks trimmed. Drawn here rather than by
/// comfy-table, which would split a cell at a newline where this keeps
/// the text as it is (the caller makes control characters visible).
pub fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..n)
        .map(|i| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, |c| c.width()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (cell, w) in r.iter().zip(&widths) {
            line.push_str(cell);
            line.push_str(&" ".repeat(w - cell.width() + 2));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::text::width;
    use proptest::prelude::*;

    #[test]
    fn share_keeps_narrow_columns_whole() {
        assert_eq!(share(&[30, 5], 20), vec![15, 5]);
        assert_eq!(share(&[3, 5], 20), vec![3, 5]);
        assert_eq!(share(&[30, 30], 20), vec![10, 10]);
    }

    #[test]
    fn columns_are_two_spaces_apart_by_display_width() {
        let rows = [
            vec!["A".to_string(), "B".into()],
            vec!["漢字".to_string(), "x".into()],
        ];
        assert_eq!(columns(&rows), "A     B\n漢字  x\n");
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
        /// bytes, in both glyph sets, with and without colour, with and
        /// without column caps.
        #[test]
        fn fitting_tables_are_drawn_as_comfy_table_draws_them(
            (cells, align) in grid(),
            w in 1usize..150,
            unicode: bool,
            color: bool,
            capped: bool,
        ) {
            let natural: Vec<usize> = (0..align.len())
                .map(|c| cells.iter().map(|r| width(&r[c])).max().unwrap_or(1).max(1))
                .collect();
            let widths = share(&natural, w.saturating_sub(overhead(align.len())).max(align.len()));
            let widths = capped.then_some(widths.as_slice());
            let t = Layout { cells: &cells, align: &align, widths, w, unicode, color };
            if let Some(fast) = draw_fitting(&t) {
                prop_assert_eq!(fast, draw_comfy(&t));
            }
        }
    }

    #[test]
    fn common_tables_take_the_direct_drawing() {
        let cells: Vec<Vec<String>> = [["Model", "0-60", "Mid"], ["M5 CS", "2.9", "x"]]
            .iter()
            .map(|r| r.iter().map(|s| s.to_string()).collect())
            .collect();
        let align = [
            CellAlignment::Left,
            CellAlignment::Right,
            CellAlignment::Center,
        ];
        let t = |cells, widths, w| Layout {
            cells,
            align: &align,
            widths: Some(widths),
            w,
            unicode: true,
            color: true,
        };
        let fast = draw_fitting(&t(&cells, &[5, 4, 3], 80)).unwrap();
        assert_eq!(fast, draw_comfy(&t(&cells, &[5, 4, 3], 80)));
        // Too narrow to fit unwrapped, or a control character (comfy-table
        // measures it its own way): comfy-table lays it out.
        assert!(draw_fitting(&t(&cells, &[3, 4, 3], 18)).is_none());
        let mut odd = cells.clone();
        odd[1][0].push('\u{1b}');
        assert!(draw_fitting(&t(&odd, &[5, 4, 3], 80)).is_none());
    }
}
