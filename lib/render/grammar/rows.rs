//! Grammar charts drawn as rows rather than on a canvas: bars over
//! categories (horizontal, one row per category and series, grouped, on
//! one scale, through the bar chart's code) and sectors (a share of the
//! total: one proportional bar and a legend with values and percentages).

use std::collections::HashMap;

use super::super::RenderOptions;
use super::super::bar::{self, Row};
use super::super::plot::{legend, series_style};
use super::super::text::{Line, NumFormat, Style, clean_line, fixed, paint, width, with_unit};
use super::super::wrap::{pad_left, pad_right, truncate};
use super::xy::groups;
use crate::spec::Chart;
use crate::spec::grammar::{ChartSpec, Column, Mark, MarkKind};

/// Categories shown as rows, at most.
const MAX_CATEGORIES: usize = 100;

/// Bar values summed per (category, series), both in order of appearance.
#[derive(Default)]
struct Grouped<'a> {
    categories: Vec<String>,
    series: Vec<String>,
    sums: HashMap<(usize, usize), f64>,
    /// The first bar's value field, for the unit and the title.
    value_field: Option<&'a str>,
    /// Marks other than bars, which this layout cannot place.
    skipped: usize,
}

impl<'a> Grouped<'a> {
    fn gather(spec: &'a ChartSpec, categories_on_x: bool) -> Grouped<'a> {
        let mut g = Grouped::default();
        let mut cat_at: HashMap<String, usize> = HashMap::new();
        for m in &spec.marks {
            if m.kind != MarkKind::Bar {
                g.skipped += 1;
                continue;
            }
            let (cat_f, val_f) = if categories_on_x {
                (&m.x, &m.y)
            } else {
                (&m.y, &m.x)
            };
            let (Some(Column::Text(c)), Some(v)) = (
                cat_f.as_deref().and_then(|f| spec.column(f)),
                val_f.as_deref().and_then(|f| spec.column(f)),
            ) else {
                continue;
            };
            g.value_field = g.value_field.or(val_f.as_deref());
            let vals = v.positions().unwrap_or(&[]);
            for (name, idx) in groups(spec, m, spec.dataset.rows.len()) {
                let si = g.series.iter().position(|n| *n == name).unwrap_or_else(|| {
                    g.series.push(name);
                    g.series.len() - 1
                });
                for i in idx {
                    let (Some(cat), Some(val)) =
                        (c.get(i).cloned().flatten(), vals.get(i).copied().flatten())
                    else {
                        continue;
                    };
                    let ci = *cat_at.entry(cat.clone()).or_insert_with(|| {
                        g.categories.push(cat);
                        g.categories.len() - 1
                    });
                    *g.sums.entry((ci, si)).or_insert(0.0) += val;
                }
            }
        }
        g
    }

    /// One row per category and series with a value; the category named
    /// on its first row only.
    fn rows(&self) -> Vec<Row> {
        let several = self.series.len() > 1;
        let mut out = Vec::new();
        for (ci, cat) in self.categories.iter().enumerate().take(MAX_CATEGORIES) {
            let mut first = true;
            for si in 0..self.series.len() {
                if let Some(&value) = self.sums.get(&(ci, si)) {
                    out.push(Row {
                        label: if first { cat.clone() } else { String::new() },
                        value,
                        series: several.then_some(si),
                    });
                    first = false;
                }
            }
        }
        out
    }

    fn notes(&self, notes: &mut Vec<String>) {
        if self.skipped > 0 {
            let s = if self.skipped == 1 { "" } else { "s" };
            notes.push(format!(
                "{} mark{s} beside bars over categories not drawn in the terminal",
                self.skipped
            ));
        }
        if self.categories.len() > MAX_CATEGORIES {
            notes.push(format!(
                "showing the first {MAX_CATEGORIES} of {} categories",
                fixed(self.categories.len() as f64, 0)
            ));
        }
    }
}

/// Bars over categories, through the bar chart's code. `categories_on_x`:
/// the category field is the bar's `x` (else its `y`, Swift Charts'
/// horizontal form). Marks other than bars are named in `notes`.
pub(super) fn category_bars(
    spec: &ChartSpec,
    categories_on_x: bool,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    let (chart, rows, series) = category_chart(spec, categories_on_x, notes);
    bar::bars(&chart, &rows, opts, lines);
    if series.len() > 1 {
        let items: Vec<legend::Item> = series
            .iter()
            .enumerate()
            .map(|(i, n)| legend::Item {
                glyph: bar::fill_glyph(Some(i), !opts.unicode),
                style: series_style(i),
                name: n.clone(),
            })
            .collect();
        lines.extend(legend::lines(
            &items,
            opts.width.max(1),
            !opts.unicode,
            opts.color,
        ));
    }
}

/// Bars over categories as a bar chart's rows: the chart (its axis
/// titles and unit), one row per category and series, the series names;
/// what cannot be placed is said in `notes`.
pub(crate) fn category_chart(
    spec: &ChartSpec,
    categories_on_x: bool,
    notes: &mut Vec<String>,
) -> (Chart, Vec<Row>, Vec<String>) {
    let g = Grouped::gather(spec, categories_on_x);
    g.notes(notes);
    let axis_label = |x: bool| {
        let a = if x {
            spec.axes.x.as_ref()
        } else {
            spec.axes.y.as_ref()
        };
        a.and_then(|a| a.label.clone())
    };
    let label_of = |f: Option<&str>| f.map(|f| spec.field_label(f).to_string());
    let cat_field = spec
        .marks
        .iter()
        .find(|m| m.kind == MarkKind::Bar)
        .and_then(|m| {
            if categories_on_x {
                m.x.as_deref()
            } else {
                m.y.as_deref()
            }
        });
    let chart = Chart {
        x_label: axis_label(categories_on_x).or_else(|| label_of(cat_field)),
        y_label: axis_label(!categories_on_x).or_else(|| label_of(g.value_field)),
        unit: g
            .value_field
            .and_then(|f| spec.field(f))
            .and_then(|f| f.unit.clone()),
        ..Chart::default()
    };
    let rows = g.rows();
    (chart, rows, g.series)
}

const SHADES: [char; 6] = ['█', '▓', '▒', '░', '▚', '▞'];
const ASCII_SHADES: [char; 6] = ['#', '=', '+', '-', ':', 'o'];

/// Sector marks: each one a bar across the width split in proportion to
/// its categories' angles (summed per category; zero and negative angles
/// are left out), then one legend row per category.
pub(super) fn sectors(
    spec: &ChartSpec,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    for m in spec.marks.iter().filter(|m| m.kind == MarkKind::Sector) {
        let parts = shares_of(spec, m, notes);
        let total: f64 = parts.iter().map(|p| p.1).sum();
        if parts.is_empty() || !(total.is_finite() && total > 0.0) {
            lines.push(paint("(no data)", Style::Dim, opts.color));
            continue;
        }
        let unit = m
            .angle
            .as_deref()
            .and_then(|f| spec.field(f))
            .and_then(|f| f.unit.as_deref())
            .map(|u| clean_line(u.trim(), !opts.unicode));
        share_lines(
            &parts,
            total,
            unit.as_deref().filter(|u| !u.is_empty()),
            opts,
            lines,
        );
    }
}

/// (category, summed positive angle) in order of appearance.
pub(crate) fn shares_of(spec: &ChartSpec, m: &Mark, notes: &mut Vec<String>) -> Vec<(String, f64)> {
    let (Some(Column::Number(angles)), Some(cats)) = (
        m.angle.as_deref().and_then(|f| spec.column(f)),
        m.category.as_deref().and_then(|f| spec.column(f)),
    ) else {
        return Vec::new();
    };
    let mut parts: Vec<(String, f64)> = Vec::new();
    let mut dropped = 0;
    for (i, a) in angles.iter().enumerate() {
        let Some(name) = category_text(&cats, i) else {
            continue;
        };
        match a {
            Some(a) if *a > 0.0 => match parts.iter_mut().find(|(n, _)| *n == name) {
                Some(p) => p.1 += a,
                None => parts.push((name, *a)),
            },
            Some(_) => dropped += 1,
            None => {}
        }
    }
    if dropped > 0 {
        notes.push(format!("{dropped} zero or negative sector angles left out"));
    }
    parts
}

/// The proportional bar and the legend rows: glyph, name, value with its
/// unit, percentage.
fn share_lines(
    parts: &[(String, f64)],
    total: f64,
    unit: Option<&str>,
    opts: &RenderOptions,
    lines: &mut Vec<String>,
) {
    let ascii = !opts.unicode;
    let w = opts.width.max(1);
    let glyph = |i: usize| {
        if ascii {
            ASCII_SHADES[i % ASCII_SHADES.len()]
        } else {
            SHADES[i % SHADES.len()]
        }
    };
    let cells = shares(&parts.iter().map(|p| p.1).collect::<Vec<_>>(), w);
    let mut bar = Line::new();
    for (i, n) in cells.iter().enumerate() {
        bar.push(
            &glyph(i).to_string().repeat(*n),
            series_style(i),
            opts.color,
        );
    }
    lines.push(bar.finish());
    let fmt = NumFormat::for_values(parts.iter().map(|p| p.1));
    let values: Vec<String> = parts
        .iter()
        .map(|p| with_unit(&fmt.format(p.1), unit))
        .collect();
    let pcts: Vec<String> = parts
        .iter()
        .map(|p| format!("{}%", fixed(p.1 / total * 100.0, 1)))
        .collect();
    let vw = values.iter().map(|v| width(v)).max().unwrap_or(0);
    let pw = pcts.iter().map(|p| width(p)).max().unwrap_or(0);
    let names: Vec<String> = parts.iter().map(|p| clean_line(&p.0, ascii)).collect();
    let room = w.saturating_sub(2 + vw + 2 + pw + 2);
    let nw = names.iter().map(|n| width(n)).max().unwrap_or(0).min(room);
    for (i, name) in names.iter().enumerate() {
        let mut l = Line::new();
        l.push(&glyph(i).to_string(), series_style(i), opts.color);
        l.plain(" ");
        l.plain(&pad_right(&truncate(name, nw, ascii), nw, ascii));
        l.plain("  ");
        l.plain(&pad_left(&values[i], vw, ascii));
        l.plain("  ");
        l.plain(&pad_left(&pcts[i], pw, ascii));
        lines.push(l.finish());
    }
}

fn category_text(col: &Column, i: usize) -> Option<String> {
    match col {
        Column::Text(t) => t.get(i).cloned().flatten(),
        Column::Number(v) => v
            .get(i)
            .copied()
            .flatten()
            .map(|v| NumFormat::for_values([v]).format(v)),
        Column::Date(v) => v.get(i).copied().flatten().map(|v| fixed(v, 0)),
    }
}

/// Splits `w` cells in proportion to `values` (largest remainders), each
/// part at least one cell while there are cells to give.
fn shares(values: &[f64], w: usize) -> Vec<usize> {
    let total: f64 = values.iter().sum();
    let exact: Vec<f64> = values.iter().map(|v| v / total * w as f64).collect();
    let mut cells: Vec<usize> = exact.iter().map(|e| (e.floor() as usize).max(1)).collect();
    let mut used: usize = cells.iter().sum();
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    for &i in order.iter().cycle().take(values.len() * 2) {
        if used >= w {
            break;
        }
        cells[i] += 1;
        used += 1;
    }
    // Too many parts for the width: take from the largest.
    while used > w {
        let Some(big) = (0..cells.len()).max_by_key(|&i| cells[i]) else {
            break;
        };
        if cells[big] == 0 {
            break;
        }
        cells[big] -= 1;
        used -= 1;
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::shares;

    #[test]
    fn shares_fill_the_width() {
        assert_eq!(shares(&[1.0, 1.0], 10), vec![5, 5]);
        assert_eq!(
            shares(&[41.0, 18.0, 12.0, 9.0, 2.0], 40)
                .iter()
                .sum::<usize>(),
            40
        );
        assert_eq!(shares(&[1.0, 1000.0], 10), vec![1, 9]);
        assert_eq!(shares(&[1.0; 5], 3).iter().sum::<usize>(), 3);
    }
}
