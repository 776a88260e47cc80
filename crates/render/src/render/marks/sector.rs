//! The sector mark: a share of a whole. A chart of sectors has no axes:
//! in the terminal each sector mark is a bar across the width split in
//! proportion to its categories' angles, then one legend row per category
//! with its value and percentage; SVG draws the first mark's shares the
//! same way; Vega-Lite an `arc` on `theta`; mermaid has no sectors.

use serde_json::{Map, Value, json};

use super::super::RenderOptions;
use super::super::plot::series_style;
use super::super::text::{Line, NumFormat, Style, clean_line, fixed, paint, width, with_unit};
use super::super::wrap::{pad_left, pad_right, truncate};
use super::vega::field_ref;
use super::{Body, GrammarMark, Layers, Picture, VegaLayers, WholeChart, titled};
use crate::spec::grammar::{ChartSpec, Column, Mark, MarkKind};

pub(super) struct Sector;

impl GrammarMark for Sector {
    fn draws_data(&self) -> bool {
        false
    }

    fn on_axes(&self) -> bool {
        false
    }

    fn whole_chart(&self, _spec: &ChartSpec) -> Option<&'static dyn WholeChart> {
        Some(&Shares)
    }

    /// Sectors are never on axes: the chart is theirs ([`Shares`]).
    fn layers(&self, _b: &mut Layers, _m: &Mark) {}

    /// A share of the whole: an arc per category.
    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        let mut enc = Map::new();
        if let Some(a) = &m.angle {
            let unit = p.spec.field(a).and_then(|f| f.unit.as_deref());
            let mut theta = json!({"field": field_ref(a), "type": "quantitative", "stack": true});
            if let Some(t) = titled(Some(p.spec.field_label(a)), unit) {
                theta["title"] = t.into();
            }
            enc.insert("theta".into(), theta);
        }
        if let Some(c) = &m.category {
            enc.insert(
                "color".into(),
                json!({"field": field_ref(c), "type": "nominal", "sort": null, "title": p.spec.field_label(c)}),
            );
        }
        out.push(p.layer(json!({"type": "arc"}), enc));
    }
}

/// A mark's categories and their summed positive angles, in order.
type Parts = Vec<(String, f64)>;

/// A chart of sectors, laid out as shares of a whole.
struct Shares;

impl WholeChart for Shares {
    fn terminal(
        &self,
        spec: &ChartSpec,
        opts: &RenderOptions,
        lines: &mut Vec<String>,
        notes: &mut Vec<String>,
    ) {
        sectors(spec, opts, lines, notes);
    }

    /// The first sector mark's shares; the others are noted.
    fn picture(&self, spec: &ChartSpec) -> Picture {
        let mut notes = Vec::new();
        let sectors: Vec<(Parts, Option<String>)> = spec
            .marks
            .iter()
            .filter(|m| m.kind == MarkKind::Sector)
            .map(|m| {
                let unit = m
                    .angle
                    .as_deref()
                    .and_then(|a| spec.field(a))
                    .and_then(|a| a.unit.clone());
                (shares_of(spec, m, &mut notes), unit)
            })
            .filter(|(p, _)| !p.is_empty())
            .collect();
        if sectors.len() > 1 {
            notes.push(format!("{} more sector marks not drawn", sectors.len() - 1));
        }
        let body = match sectors.into_iter().next() {
            Some((parts, unit)) => Body::Shares { parts, unit },
            None => Body::NoData,
        };
        Picture {
            body,
            legend: Vec::new(),
            notes,
        }
    }
}

const SHADES: [char; 6] = ['█', '▓', '▒', '░', '▚', '▞'];
const ASCII_SHADES: [char; 6] = ['#', '=', '+', '-', ':', 'o'];

/// Sector marks: each one a bar across the width split in proportion to
/// its categories' angles (summed per category; zero and negative angles
/// are left out), then one legend row per category.
fn sectors(
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
fn shares_of(spec: &ChartSpec, m: &Mark, notes: &mut Vec<String>) -> Parts {
    let (Some(Column::Number(angles)), Some(cats)) = (
        m.angle.as_deref().and_then(|f| spec.column(f)),
        m.category.as_deref().and_then(|f| spec.column(f)),
    ) else {
        return Vec::new();
    };
    let mut parts: Parts = Vec::new();
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
