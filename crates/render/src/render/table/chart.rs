//! A chart's data as a table: box borders (ASCII borders in ASCII mode),
//! numbers right-aligned and exact ([`ExactFormat`]: `37,400,000`, not
//! `37.4M`), the unit in the header. Every cell is cut to its column here
//! first, so the table drawer never has to wrap and never exceeds the
//! width.

use comfy_table::CellAlignment;

use super::{Layout, draw, overhead, share};
use crate::render::RenderOptions;
use crate::render::text::{
    ExactFormat, NumFormat, Style, additive, are_years, clean_line, clean_title, paint, titled,
    width,
};
use crate::render::wrap::truncate;
use crate::spec::Chart;

/// The label column gives way down to this many columns before numbers do.
const LABEL_MIN: usize = 6;

/// Draws a chart's data as a table; `spark`, a column of sparklines (its
/// header, a line a row), goes beside the values when every value column
/// still fits whole beside it: it is the first thing a narrow width
/// leaves out.
pub fn render(
    chart: &Chart,
    spark: Option<(String, Vec<String>)>,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let rows = label_rows(chart, ascii);
    let mut spark_dropped = spark.is_some();
    let mut fitted = None;
    if let Some((head, sparks)) = &spark {
        let sw = sparks.iter().map(|s| width(s)).max().unwrap_or(1).max(5);
        let f = fit_columns(chart, &rows, w.saturating_sub(sw + 3), ascii);
        let whole_numbers = f.widths[1..]
            .iter()
            .zip(&f.numbers[1..])
            .all(|(a, b)| a >= b);
        if f.hidden == 0 && !f.compact && whole_numbers {
            let (mut heads, mut cells) = (f.heads, f.cells);
            heads.push(truncate(head, sw, ascii));
            for (r, sp) in cells.iter_mut().zip(sparks) {
                r.push(sp.clone());
            }
            fitted = Some((heads, cells, 0));
            spark_dropped = false;
        }
    }
    let (heads, cells, hidden) = fitted.unwrap_or_else(|| {
        let f = fit_columns(chart, &rows, w, ascii);
        (f.heads, f.cells, f.hidden)
    });
    let ncols = heads.len();
    let spark_at = spark
        .is_some()
        .then_some(ncols - 1)
        .filter(|_| !spark_dropped);
    let mut table = vec![heads];
    table.extend(cells);
    let align: Vec<CellAlignment> = (0..ncols)
        .map(|c| match c {
            0 => CellAlignment::Left,
            c if Some(c) == spark_at => CellAlignment::Left,
            _ => CellAlignment::Right,
        })
        .collect();
    lines.extend(draw(&Layout {
        cells: &table,
        align: &align,
        widths: None,
        w,
        unicode: opts.unicode,
        color: opts.color,
    }));
    if hidden > 0 {
        let note = format!(
            "({hidden} more column{} not shown at this width)",
            if hidden == 1 { "" } else { "s" }
        );
        lines.push(paint(&truncate(&note, w, ascii), Style::Dim, opts.color));
    }
    if spark_dropped {
        let note = "(sparklines not shown at this width)";
        lines.push(paint(&truncate(note, w, ascii), Style::Dim, opts.color));
    }
}

/// A table's columns fitted to `w`: the headers and cells cut to their
/// widths, the columns left out, whether numbers took their compact form,
/// the widths and the numbers' own widths.
struct Fitted {
    heads: Vec<String>,
    cells: Vec<Vec<String>>,
    hidden: usize,
    compact: bool,
    widths: Vec<usize>,
    numbers: Vec<usize>,
}

fn fit_columns(
    chart: &Chart,
    rows: &[(String, Vec<Option<f64>>)],
    w: usize,
    ascii: bool,
) -> Fitted {
    let mut heads = headers(chart, ascii);
    let mut cells = format_cells(chart, rows, false);
    // Columns that cannot get even three characters are left out and said so.
    let mut ncols = heads.len();
    while ncols > 2 && overhead(ncols) + 3 * ncols > w {
        ncols -= 1;
    }
    let hidden = heads.len() - ncols;
    heads.truncate(ncols);
    for r in &mut cells {
        r.truncate(ncols);
    }
    let (mut natural, mut numbers) = natural_widths(&cells, &heads);
    let budget = w.saturating_sub(overhead(ncols));
    let compact = numbers[1..].iter().sum::<usize>() + natural[0].min(LABEL_MIN) > budget;
    if compact {
        // A cut number would mislead; the compact form (37.4M) is still true.
        cells = format_cells(chart, rows, true);
        for r in &mut cells {
            r.truncate(ncols);
        }
        (natural, numbers) = natural_widths(&cells, &heads);
    }
    let widths = plan(&natural, &numbers, budget);
    cut_to(&mut heads, &widths, ascii);
    for r in &mut cells {
        cut_to(r, &widths, ascii);
    }
    Fitted {
        heads,
        cells,
        hidden,
        compact,
        widths,
        numbers,
    }
}

/// The header row: the label column (the x label, else `Label`), then a
/// column per series (the y label for one series, else its name, else
/// `Value` or `Series N`), each with the unit.
fn headers(chart: &Chart, ascii: bool) -> Vec<String> {
    let unit = clean_title(chart.unit.as_deref(), ascii);
    let with_unit = |h: String| titled(Some(&h), unit.as_deref()).unwrap_or(h);
    let label_head = clean_title(chart.x_label.as_deref(), ascii).unwrap_or_else(|| "Label".into());
    let y_label = clean_title(chart.y_label.as_deref(), ascii);
    let single = chart.series.len() == 1;
    let mut heads = vec![label_head];
    for (i, s) in chart.series.iter().enumerate() {
        let name = clean_line(s.name.trim(), ascii);
        let h = match (&y_label, single, name.is_empty()) {
            (Some(y), true, _) => y.clone(),
            (_, _, false) => name,
            (_, true, true) => "Value".into(),
            (_, false, true) => format!("Series {}", i + 1),
        };
        heads.push(with_unit(h));
    }
    heads
}

/// Rows: one per label (per time a series repeats it), in first-seen
/// order, one column per series.
fn label_rows(chart: &Chart, ascii: bool) -> Vec<(String, Vec<Option<f64>>)> {
    chart
        .table_rows()
        .into_iter()
        .map(|(l, v)| (clean_line(l, ascii), v))
        .collect()
}

/// The cells of `rows`: the label, then each series' value. A table is
/// where people read exact values: no compact 37.4M here, unless
/// `compact` (the exact numbers cannot fit the width whole).
fn format_cells(
    chart: &Chart,
    rows: &[(String, Vec<Option<f64>>)],
    compact: bool,
) -> Vec<Vec<String>> {
    let fmts: Vec<Box<dyn Fn(f64) -> String>> = chart
        .series
        .iter()
        .map(|s| -> Box<dyn Fn(f64) -> String> {
            let values = s.points.iter().map(|p| p.value);
            let title = chart.y_label.as_deref().filter(|_| chart.series.len() == 1);
            let years = are_years(title.or(Some(&s.name)), values.clone());
            if compact {
                let f = NumFormat::for_values(values).with_years(years);
                Box::new(move |v| f.format(v))
            } else {
                let f = ExactFormat::for_values(values).with_years(years);
                Box::new(move |v| f.format(v))
            }
        })
        .collect();
    rows.iter()
        .map(|(label, vals)| {
            let mut r = vec![label.clone()];
            r.extend(
                vals.iter()
                    .zip(&fmts)
                    .map(|(v, f)| v.map(f).unwrap_or_default()),
            );
            r
        })
        .collect()
}

/// Cuts each cell of a row to its column's width.
fn cut_to(row: &mut [String], widths: &[usize], ascii: bool) {
    for (c, cell) in row.iter_mut().enumerate() {
        *cell = additive(&truncate(cell, widths[c], ascii));
    }
}

/// Each column's widest cell with its header, and without (the numbers).
fn natural_widths(cells: &[Vec<String>], heads: &[String]) -> (Vec<usize>, Vec<usize>) {
    let col = |c: usize, head: Option<&String>| -> usize {
        cells
            .iter()
            .map(|r| width(&r[c]))
            .chain(head.map(|h| width(h)))
            .max()
            .unwrap_or(0)
            .max(1)
    };
    (
        (0..heads.len()).map(|c| col(c, Some(&heads[c]))).collect(),
        (0..heads.len()).map(|c| col(c, None)).collect(),
    )
}

/// Column widths within `budget`. A cut number would mislead, so value
/// columns keep their numbers whole and the label column gives way first
/// (down to a few characters), then value headers are cut; only when even
/// that does not fit is everything shared out.
fn plan(natural: &[usize], numbers: &[usize], budget: usize) -> Vec<usize> {
    let total: usize = natural.iter().sum();
    if total <= budget {
        return natural.to_vec();
    }
    for values in [&natural[1..], &numbers[1..]] {
        let used: usize = values.iter().sum();
        let label_min = natural[0].min(LABEL_MIN);
        if used + label_min <= budget {
            let mut out = vec![(budget - used).min(natural[0])];
            out.extend_from_slice(values);
            return out;
        }
    }
    share(natural, budget)
}
