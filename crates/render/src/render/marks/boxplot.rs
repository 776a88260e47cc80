//! The box plot: a quick chart whose series are groups, each holding its
//! box's numbers as labelled points (`spec::boxplot`), as viz-parse
//! makes them with `--chart box`. Horizontal in the terminal and in SVG,
//! a row per group on one value axis: the whiskers from `lower` to
//! `upper`, the box from `q1` to `q3`, the median across it, the
//! outliers as dots. In Vega-Lite: with the input rows carried (few
//! rows), Vega-Lite's own `boxplot` (`extent: 1.5`) computes the same box
//! from them; else the box is drawn from its numbers, in the layers that
//! `boxplot` expands to (a rule, a bar, a tick, points). Mermaid has no
//! box plot: a report shows the table of numbers.
//!
//! The grammar's `boxplot` mark is the same chart ([`BoxMark`]): the
//! values a number field on `x` or `y`, a box per value of the field on
//! the other (or one box), drawn by this file's code as a chart of its
//! own (`panels.rs`); in Vega-Lite its own `boxplot` (`extent: 1.5`)
//! over the spec's rows, upright when the values are on `y`.

use serde_json::{Map, Value, json};

use super::super::RenderOptions;
use super::super::plot::axes::{Anchor, Scale, place_labels};
use super::super::plot::series_style;
use super::super::text::{Line, Style, clean_line, paint, titled, width};
use super::super::wrap::truncate;
use super::panels::{Categories, Panels};
use super::vega::field_ref;
use super::vega::{nonblank, value_title};
use super::{Body, ChartKind, GrammarMark, Layers, Mermaid, VegaLayers, WholeChart};
use crate::spec::boxplot::BoxStats;
use crate::spec::grammar::{ChartSpec, Column, FieldType, Mark};
use crate::spec::{Chart, ChartType};

pub(super) struct BoxPlot;

/// Each group's box, in the chart's order (a series without its numbers
/// is left out).
pub(crate) fn boxes(chart: &Chart) -> Vec<(String, BoxStats)> {
    chart
        .series
        .iter()
        .filter_map(|s| Some((s.name.clone(), BoxStats::from_series(s)?)))
        .collect()
}

/// The value axis over every box: about `target` ticks.
pub(crate) fn value_scale(
    groups: &[(String, BoxStats)],
    target: usize,
    unit: Option<&str>,
) -> Scale {
    let (lo, hi) = groups
        .iter()
        .map(|(_, b)| b.extent())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (lo, hi)| {
            (a.min(lo), b.max(hi))
        });
    let (lo, hi) = if lo.is_finite() && hi.is_finite() {
        (lo, hi)
    } else {
        (0.0, 1.0)
    };
    // Tight to the data, a little room at the ends: the ticks fall inside.
    let pad = ((hi - lo) * 0.02).max(f64::MIN_POSITIVE);
    Scale::number(lo, hi, target, unit, Some((lo - pad, hi + pad)))
}

impl ChartKind for BoxPlot {
    fn terminal(&self, chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
        draw(chart, opts, lines);
    }

    fn picture(&self, chart: &Chart) -> Body {
        Body::Boxes {
            groups: boxes(chart),
            value_title: value_title(chart),
            category: nonblank(chart.series_label.as_deref()).map(str::to_string),
            unit: nonblank(chart.unit.as_deref()).map(str::to_string),
        }
    }

    fn vega_lite(&self, chart: &Chart) -> Value {
        let groups = boxes(chart);
        let order: Vec<&str> = groups.iter().map(|(n, _)| n.as_str()).collect();
        let y = json!({"field": "label", "type": "nominal", "sort": order,
                       "title": nonblank(chart.series_label.as_deref())});
        let title = value_title(chart);
        let height = (groups.len() * 40).clamp(60, 800);
        // The rows themselves: Vega-Lite computes the box.
        if chart.source.is_some() && chart.transform.is_some() {
            return json!({
                "width": 480,
                "height": height,
                "data": {"values": []},
                "mark": {"type": "boxplot", "extent": 1.5},
                "encoding": {
                    "y": y,
                    "x": {"field": "value", "type": "quantitative", "title": title,
                          "scale": {"zero": false}}
                }
            });
        }
        let mut values: Vec<Value> = Vec::new();
        for (name, b) in &groups {
            values.push(json!({"label": name, "lower": b.lower, "q1": b.q1,
                "median": b.median, "q3": b.q3, "upper": b.upper, "count": b.n}));
            for o in &b.outliers {
                values.push(json!({"label": name, "outlier": o}));
            }
        }
        let x = |field: &str| {
            json!({"field": field, "type": "quantitative", "title": title,
                                     "scale": {"zero": false}})
        };
        let stats = json!({"field": "lower", "valid": true});
        json!({
            "width": 480,
            "height": height,
            "data": {"values": values},
            "encoding": {"y": y},
            "layer": [
                {"transform": [{"filter": stats}],
                 "mark": {"type": "rule"},
                 "encoding": {"x": x("lower"), "x2": {"field": "upper"}}},
                {"transform": [{"filter": stats}],
                 "mark": {"type": "bar", "size": 14, "tooltip": true},
                 "encoding": {"x": x("q1"), "x2": {"field": "q3"}}},
                {"transform": [{"filter": stats}],
                 "mark": {"type": "tick", "color": "white", "size": 14},
                 "encoding": {"x": x("median")}},
                {"transform": [{"filter": {"field": "outlier", "valid": true}}],
                 "mark": {"type": "point", "tooltip": true},
                 "encoding": {"x": x("outlier")}}
            ]
        })
    }

    fn mermaid(&self, _chart: &Chart) -> Mermaid {
        Mermaid::Refused("box plot")
    }
}

/// The grammar's `boxplot` mark: a box plot of its own.
pub(super) struct BoxMark;

/// A boxplot mark's values field and its groups' field (if any): the
/// values are on x when x alone is a number field.
fn values_and_groups<'m>(spec: &ChartSpec, m: &'m Mark) -> Option<(&'m str, Option<&'m str>)> {
    let number = |f: &Option<String>| {
        f.as_deref()
            .is_some_and(|f| spec.field_type(f) == Some(FieldType::Number))
    };
    if number(&m.x) && !number(&m.y) {
        Some((m.x.as_deref()?, m.y.as_deref()))
    } else {
        Some((m.y.as_deref()?, m.x.as_deref()))
    }
}

impl GrammarMark for BoxMark {
    fn on_axes(&self) -> bool {
        false
    }

    fn whole_chart(&self, _spec: &ChartSpec) -> Option<&'static dyn WholeChart> {
        Some(&Panels)
    }

    /// Never on shared axes: the chart is its own.
    fn layers(&self, _b: &mut Layers, _m: &Mark) {}

    /// A box per group, in the groups' order (text as met, numbers up).
    fn chart_of(&self, spec: &ChartSpec, m: &Mark) -> Option<Chart> {
        let (values, groups) = values_and_groups(spec, m)?;
        let Some(Column::Number(v)) = spec.column(values) else {
            return None;
        };
        let label = spec.field_label(values).to_string();
        let (names, of_row) = match groups.and_then(|g| spec.column(g)) {
            Some(col) => {
                let c = Categories::read(&col);
                (c.names, c.of_row)
            }
            None => (vec![label.clone()], vec![Some(0); v.len()]),
        };
        let mut each: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
        for (g, v) in of_row.iter().zip(&v) {
            if let (Some(g), Some(v)) = (g, v) {
                each[*g].push(*v);
            }
        }
        let series = names
            .into_iter()
            .zip(each)
            .filter_map(|(name, mut vs)| Some(BoxStats::of(&mut vs)?.series(name)))
            .collect();
        Some(Chart {
            chart_type: ChartType::Box,
            y_label: Some(label),
            unit: spec.field(values).and_then(|f| f.unit.clone()),
            series_label: groups.map(|g| spec.field_label(g).to_string()),
            series,
            ..Chart::default()
        })
    }

    /// Vega-Lite's own box plot over the rows, whiskers at 1.5 IQR: the
    /// same box the terminal draws.
    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        let spec = p.spec;
        let Some((values, groups)) = values_and_groups(spec, m) else {
            return;
        };
        let on_x = m.x.as_deref() == Some(values);
        let (vch, gch) = if on_x { ("x", "y") } else { ("y", "x") };
        let unit = spec.field(values).and_then(|f| f.unit.as_deref());
        let mut enc = Map::new();
        enc.insert(
            vch.into(),
            json!({"field": field_ref(values), "type": "quantitative",
                   "title": titled(Some(spec.field_label(values)), unit),
                   "scale": {"zero": false}}),
        );
        if let Some(g) = groups {
            enc.insert(gch.into(), super::heatmap::discrete(spec, g));
        }
        out.push(json!({"mark": {"type": "boxplot", "extent": 1.5}, "encoding": enc}));
    }
}

/// The characters of a box: whisker, its ends, the box, its edges, the
/// median, an outlier.
struct Glyphs {
    whisker: char,
    low_end: char,
    high_end: char,
    fill: char,
    q1: char,
    q3: char,
    median: char,
    outlier: char,
}

const UNICODE: Glyphs = Glyphs {
    whisker: '─',
    low_end: '├',
    high_end: '┤',
    fill: '▒',
    q1: '▐',
    q3: '▌',
    median: '┃',
    outlier: '•',
};

const ASCII: Glyphs = Glyphs {
    whisker: '-',
    low_end: '|',
    high_end: '|',
    fill: '=',
    q1: '[',
    q3: ']',
    median: '|',
    outlier: 'o',
};

/// One box across `pw` columns of `x`.
fn row(b: &BoxStats, x: &Scale, pw: usize, g: &Glyphs) -> Vec<char> {
    let mut cells = vec![' '; pw];
    let at = |v: f64| x.x_dot(v, pw).min(pw.saturating_sub(1));
    let (lo, q1, md, q3, hi) = (at(b.lower), at(b.q1), at(b.median), at(b.q3), at(b.upper));
    for c in &mut cells[lo.min(hi)..=hi.max(lo)] {
        *c = g.whisker;
    }
    cells[lo] = g.low_end;
    cells[hi] = g.high_end;
    for c in &mut cells[q1.min(q3)..=q3.max(q1)] {
        *c = g.fill;
    }
    cells[q1] = g.q1;
    cells[q3] = g.q3;
    cells[md] = g.median;
    for &o in &b.outliers {
        let c = at(o);
        if cells[c] == ' ' {
            cells[c] = g.outlier;
        }
    }
    cells
}

fn draw(chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
    let (ascii, color) = (!opts.unicode, opts.color);
    let w = opts.width.max(1);
    let groups = boxes(chart);
    let label_w = groups
        .iter()
        .map(|(n, _)| width(&clean_line(n, false)))
        .max()
        .unwrap_or(0)
        .clamp(1, (w / 3).max(1));
    let pw = w.saturating_sub(label_w + 2).max(1);
    let unit = nonblank(chart.unit.as_deref()).map(|u| clean_line(u, ascii));
    let unit = unit.as_deref();
    let x = value_scale(&groups, (pw / 12).clamp(2, 8), unit);
    let g = if ascii { &ASCII } else { &UNICODE };
    if let Some(t) = nonblank(chart.series_label.as_deref()) {
        let t = truncate(&clean_line(t, ascii), w, ascii);
        lines.push(paint(&t, Style::Dim, color));
    }
    let bar = if ascii { '|' } else { '│' };
    for (name, b) in &groups {
        let name = truncate(&clean_line(name, ascii), label_w, ascii);
        let mut line = Line::new();
        line.plain(&format!(
            "{name}{} {bar}",
            " ".repeat(label_w - width(&name))
        ));
        let cells: String = row(b, &x, pw, g).into_iter().collect();
        line.push(&cells, series_style(0), color);
        lines.push(line.finish());
    }
    axis(&x, label_w, pw, opts, lines);
    if let Some(t) = titled(chart.y_label.as_deref(), unit) {
        let t = clean_line(&t, ascii);
        let pad = " ".repeat(label_w + 2);
        lines.push(format!(
            "{pad}{}",
            paint(&truncate(&t, pw, ascii), Style::Dim, color)
        ));
    }
    let note = format!(
        "box: quartiles, {} the median; whiskers reach 1.5 x IQR; {} an outlier",
        g.median, g.outlier
    );
    super::super::wrap::note(&note, opts, lines);
}

/// The value axis under the rows: a rule with a mark at each tick, and
/// the ticks' labels.
fn axis(x: &Scale, label_w: usize, pw: usize, opts: &RenderOptions, lines: &mut Vec<String>) {
    let ascii = !opts.unicode;
    let (rule, corner, mark) = if ascii {
        ('-', '+', '+')
    } else {
        ('─', '└', '┬')
    };
    let mut cells = vec![rule; pw];
    for t in &x.ticks {
        cells[x.x_dot(t.at, pw).min(pw - 1)] = mark;
    }
    let pad = " ".repeat(label_w + 1);
    lines.push(format!(
        "{pad}{corner}{}",
        cells.into_iter().collect::<String>()
    ));
    let labels: Vec<(Anchor, &str)> = x
        .ticks
        .iter()
        .map(|t| (Anchor::Center(x.x_dot(t.at, pw)), t.label.as_str()))
        .collect();
    lines.push(format!("{pad} {}", place_labels(pw, &labels)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_in_its_columns() {
        let mut v: Vec<f64> = (0..=10).map(f64::from).chain([30.0]).collect();
        let b = BoxStats::of(&mut v).unwrap();
        let x = Scale::number(0.0, 30.0, 4, None, Some((0.0, 30.0)));
        let s: String = row(&b, &x, 31, &ASCII).into_iter().collect();
        assert_eq!(s.trim_end(), "|--[==|=]-|                   o");
    }
}
