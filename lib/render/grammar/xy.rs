//! Marks on a pair of axes, turned into a layered [`Plot`]: each line,
//! area, point or bar mark becomes one layer per series, rectangles become
//! bands and rules reference lines; the axes span all of them (bars and
//! areas from zero), take the spec's domain, inversion, labels and units.

use std::collections::HashMap;

use super::super::plot::{self, AxisSpec, Layer, Markers, Plot, Shape, legend};
use crate::spec::grammar::{
    ChartSpec, Column, FieldType, Mark, MarkKind, Operand, Resolved, SeriesBy,
};

/// Rules or bands drawn from one field: one per row, up to this many.
const MAX_REFERENCES: usize = 200;

/// Series so far: names in order of appearance, and the legend.
#[derive(Default)]
struct Series {
    names: Vec<String>,
    legend: Vec<legend::Item>,
    /// Series of data (not bands).
    data: usize,
}

impl Series {
    /// The index of a series name, new ones getting the next colour and a
    /// legend item with `glyph`.
    fn index(&mut self, name: &str, glyph: impl Fn(usize) -> char) -> usize {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return i;
        }
        let i = self.names.len();
        self.names.push(name.to_string());
        self.legend.push(legend::Item {
            glyph: glyph(i),
            style: plot::series_style(i),
            name: name.to_string(),
        });
        i
    }
}

/// The axis types a validated spec's marks agree on (number when no mark
/// says).
pub(super) fn axis_type(spec: &ChartSpec, x: bool) -> FieldType {
    for m in &spec.marks {
        let f = if x { &m.x } else { &m.y };
        let op = if x {
            [&m.x_start, &m.x_value]
        } else {
            [&m.y_start, &m.y_value]
        };
        if let Some(t) = f.as_deref().and_then(|f| spec.field_type(f)) {
            return t;
        }
        if let Some(o) = op.into_iter().flatten().next() {
            return match o {
                Operand::Text(s) => {
                    spec.field_type(s)
                        .unwrap_or(if crate::spec::grammar::parse_date(s).is_some() {
                            FieldType::Date
                        } else {
                            FieldType::String
                        })
                }
                Operand::Number(_) => FieldType::Number,
            };
        }
    }
    FieldType::Number
}

/// Rows of one mark split by series: (series name, row indices).
pub(super) fn groups(spec: &ChartSpec, m: &Mark, rows: usize) -> Vec<(String, Vec<usize>)> {
    match spec.series_by(m) {
        SeriesBy::Field(f) => {
            let col = spec.column(f);
            let texts = col.as_ref().and_then(Column::texts).unwrap_or(&[]);
            let mut out: Vec<(String, Vec<usize>)> = Vec::new();
            let mut at: HashMap<&str, usize> = HashMap::new();
            for (i, t) in texts.iter().enumerate() {
                let Some(t) = t.as_deref() else { continue };
                let k = *at.entry(t).or_insert_with(|| {
                    out.push((t.to_string(), Vec::new()));
                    out.len() - 1
                });
                out[k].1.push(i);
            }
            out
        }
        SeriesBy::Constant(name) => vec![(name.to_string(), (0..rows).collect())],
        SeriesBy::None => {
            let name =
                m.y.as_deref()
                    .map(|y| spec.field_label(y).to_string())
                    .unwrap_or_else(|| m.kind.as_str().to_string());
            vec![(name, (0..rows).collect())]
        }
    }
}

/// Positions of a column: numbers and dates as they are, text as its
/// index among `categories`.
fn positions(col: Option<Column>, categories: &HashMap<String, usize>) -> Vec<Option<f64>> {
    match col {
        Some(Column::Text(t)) => t
            .into_iter()
            .map(|t| t.and_then(|t| categories.get(&t).map(|&i| i as f64)))
            .collect(),
        Some(c) => c.positions().map(<[_]>::to_vec).unwrap_or_default(),
        None => Vec::new(),
    }
}

/// Extents seen on one axis.
#[derive(Default)]
struct Extent {
    min: f64,
    max: f64,
    any: bool,
}

impl Extent {
    fn add(&mut self, v: f64) {
        if !v.is_finite() {
            return;
        }
        if !self.any {
            (self.min, self.max, self.any) = (v, v, true);
        }
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }
}

pub(super) fn build(spec: &ChartSpec, ascii: bool) -> Plot {
    let x_type = axis_type(spec, true);
    let y_type = axis_type(spec, false);
    let rows = spec.dataset.rows.len();
    let mut categories: Vec<String> = Vec::new();
    let mut cat_index: HashMap<String, usize> = HashMap::new();
    if x_type == FieldType::String {
        for m in &spec.marks {
            if let Some(Column::Text(t)) = m.x.as_deref().and_then(|x| spec.column(x)) {
                for s in t.into_iter().flatten() {
                    if !cat_index.contains_key(&s) {
                        cat_index.insert(s.clone(), categories.len());
                        categories.push(s);
                    }
                }
            }
        }
    }
    let mut series = Series::default();
    let mut layers = Vec::new();
    let (mut xe, mut ye) = (Extent::default(), Extent::default());
    let mut bar_xs: Vec<f64> = Vec::new();
    let mut fills = 0;
    for m in &spec.marks {
        match m.kind {
            MarkKind::Line | MarkKind::Area | MarkKind::Point | MarkKind::Bar => {
                let xs = positions(m.x.as_deref().and_then(|f| spec.column(f)), &cat_index);
                let col = |f: &Option<String>| {
                    positions(f.as_deref().and_then(|f| spec.column(f)), &cat_index)
                };
                let op_col = |o: &Option<Operand>| match o {
                    Some(Operand::Text(f)) => positions(spec.column(f), &cat_index),
                    Some(Operand::Number(n)) => vec![Some(*n); rows],
                    None => Vec::new(),
                };
                let (ys, y2s) = if m.kind == MarkKind::Area && m.y.is_none() {
                    (op_col(&m.y_end), op_col(&m.y_start))
                } else {
                    (col(&m.y), Vec::new())
                };
                let filled = matches!(m.kind, MarkKind::Area | MarkKind::Bar);
                let dotted = filled && fills % 2 == 1;
                for (name, idx) in groups(spec, m, rows) {
                    let glyph = |i: usize| match m.kind {
                        MarkKind::Area | MarkKind::Bar => plot::fill_glyph(i, dotted, ascii),
                        _ => plot::marker(i, ascii),
                    };
                    let before = series.names.len();
                    let si = series.index(&name, glyph);
                    series.data += series.names.len() - before;
                    let pt = |i: usize| {
                        let x = xs.get(i).copied().flatten()?;
                        let y = ys.get(i).copied().flatten()?;
                        Some((x, y))
                    };
                    for p in idx.iter().filter_map(|&i| pt(i)) {
                        xe.add(p.0);
                        ye.add(p.1);
                    }
                    let shape = match m.kind {
                        MarkKind::Line => Shape::Line {
                            points: idx.iter().map(|&i| pt(i)).collect(),
                            markers: Markers::Auto {
                                positions: idx.len(),
                                several: false,
                            },
                        },
                        MarkKind::Point => {
                            Shape::Points(idx.iter().filter_map(|&i| pt(i)).collect())
                        }
                        MarkKind::Area => {
                            let band = !y2s.is_empty();
                            let pts: Vec<(f64, f64, Option<f64>)> = idx
                                .iter()
                                .filter_map(|&i| {
                                    let (x, y) = pt(i)?;
                                    let y2 = if band {
                                        Some(y2s.get(i).copied().flatten()?)
                                    } else {
                                        None
                                    };
                                    Some((x, y, y2))
                                })
                                .collect();
                            for p in &pts {
                                ye.add(p.2.unwrap_or(0.0));
                            }
                            Shape::Area {
                                points: pts,
                                dotted,
                            }
                        }
                        _ => {
                            let bars: Vec<(f64, f64)> = idx.iter().filter_map(|&i| pt(i)).collect();
                            ye.add(0.0);
                            bar_xs.extend(bars.iter().map(|b| b.0));
                            Shape::Bars {
                                bars,
                                slot: 1.0,
                                group: 0,
                                groups: 1,
                                dotted,
                            }
                        }
                    };
                    layers.push(Layer { series: si, shape });
                }
                if filled {
                    fills += 1;
                }
            }
            MarkKind::Rule | MarkKind::Rectangle => {
                references(
                    spec,
                    m,
                    x_type,
                    y_type,
                    &cat_index,
                    &mut layers,
                    &mut xe,
                    &mut ye,
                    &mut series,
                    ascii,
                );
            }
            MarkKind::Sector => {}
        }
    }
    finish_bars(&mut layers, &mut bar_xs, &mut xe);
    let several = series.data > 1;
    for l in &mut layers {
        if let Shape::Line {
            markers: Markers::Auto { several: s, .. },
            ..
        } = &mut l.shape
        {
            *s = several;
        }
    }
    let domain = |x: bool| {
        let axis = if x {
            spec.axes.x.as_ref()
        } else {
            spec.axes.y.as_ref()
        };
        let (a, b) = axis?.domain.as_ref()?;
        let ty = if x { x_type } else { y_type };
        match (spec.resolve(a, ty)?, spec.resolve(b, ty)?) {
            (Resolved::Value(a), Resolved::Value(b)) => Some((a, b)),
            _ => None,
        }
    };
    let invert = |x: bool| {
        let axis = if x {
            spec.axes.x.as_ref()
        } else {
            spec.axes.y.as_ref()
        };
        axis.is_some_and(|a| a.invert)
    };
    let axis = |x: bool, e: &Extent, ty: FieldType| -> AxisSpec {
        let (min, max) = if e.any { (e.min, e.max) } else { (0.0, 1.0) };
        match ty {
            FieldType::String => AxisSpec::Category {
                names: categories.clone(),
            },
            FieldType::Date => AxisSpec::Date {
                min,
                max,
                domain: domain(x),
                invert: invert(x),
            },
            FieldType::Number => AxisSpec::Number {
                min,
                max,
                unit: shared_unit(spec, x),
                domain: domain(x),
                invert: invert(x),
            },
        }
    };
    let legend = if series.legend.len() > 1
        || layers
            .iter()
            .any(|l| matches!(&l.shape, Shape::Band { label: Some(_), .. }))
    {
        series.legend
    } else {
        Vec::new()
    };
    Plot {
        x: axis(true, &xe, x_type),
        y: axis(false, &ye, y_type),
        y_title: title(spec, false),
        x_title: title(spec, true),
        layers,
        legend,
    }
}

/// Bars share a slot width (the closest two x positions) and sit side by
/// side when several series have bars; the x axis makes room for the
/// outer halves.
fn finish_bars(layers: &mut [Layer], xs: &mut Vec<f64>, xe: &mut Extent) {
    if xs.is_empty() {
        return;
    }
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let slot = xs
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|d| *d > 0.0)
        .fold(f64::INFINITY, f64::min);
    let slot = if slot.is_finite() { slot } else { 1.0 };
    let groups = layers
        .iter()
        .filter(|l| matches!(l.shape, Shape::Bars { .. }))
        .count();
    let mut g = 0;
    for l in layers.iter_mut() {
        if let Shape::Bars {
            slot: s,
            group,
            groups: n,
            ..
        } = &mut l.shape
        {
            (*s, *group, *n) = (slot, g, groups);
            g += 1;
        }
    }
    xe.add(xs[0] - slot / 2.0);
    xe.add(xs[xs.len() - 1] + slot / 2.0);
}

/// Rules and rectangles: from constants, or one per row of a field.
#[allow(clippy::too_many_arguments)]
fn references(
    spec: &ChartSpec,
    m: &Mark,
    x_type: FieldType,
    y_type: FieldType,
    cats: &HashMap<String, usize>,
    layers: &mut Vec<Layer>,
    xe: &mut Extent,
    ye: &mut Extent,
    series: &mut Series,
    ascii: bool,
) {
    // Each operand as values per row (a constant repeats).
    let values = |op: Option<&Operand>, field: Option<&str>, ty: FieldType| -> Option<Vec<f64>> {
        let resolved = match (op, field) {
            (Some(op), _) => spec.resolve(op, ty)?,
            (None, Some(f)) => Resolved::Field(f),
            (None, None) => return None,
        };
        Some(match resolved {
            Resolved::Value(v) => vec![v],
            Resolved::Category(c) => vec![*cats.get(c)? as f64],
            Resolved::Field(f) => positions(spec.column(f), cats)
                .into_iter()
                .flatten()
                .take(MAX_REFERENCES)
                .collect(),
        })
    };
    let label = m.label.clone();
    if m.kind == MarkKind::Rule {
        if let Some(v) = values(m.x_value.as_ref(), m.x.as_deref(), x_type) {
            for x in v {
                xe.add(x);
                layers.push(Layer {
                    series: 0,
                    shape: Shape::Rule {
                        x: Some(x),
                        y: None,
                        label: label.clone(),
                    },
                });
            }
        }
        if let Some(v) = values(m.y_value.as_ref(), m.y.as_deref(), y_type) {
            for y in v {
                ye.add(y);
                layers.push(Layer {
                    series: 0,
                    shape: Shape::Rule {
                        x: None,
                        y: Some(y),
                        label: label.clone(),
                    },
                });
            }
        }
        return;
    }
    let pair =
        |a: &Option<Operand>, b: &Option<Operand>, ty: FieldType| -> Vec<Option<(f64, f64)>> {
            match (values(a.as_ref(), None, ty), values(b.as_ref(), None, ty)) {
                (Some(a), Some(b)) => {
                    let n = a.len().max(b.len());
                    (0..n)
                        .filter_map(|i| {
                            Some(Some((*a.get(i).or(a.first())?, *b.get(i).or(b.first())?)))
                        })
                        .collect()
                }
                _ => vec![None],
            }
        };
    let xs = pair(&m.x_start, &m.x_end, x_type);
    let ys = pair(&m.y_start, &m.y_end, y_type);
    if let Some(l) = &label {
        series.index(l, |_| if ascii { '.' } else { '░' });
        if let Some(item) = series.legend.iter_mut().find(|i| &i.name == l) {
            item.style = super::super::text::Style::Dim;
        }
    }
    for (i, bx) in xs.iter().enumerate() {
        let by = ys.get(i).or(ys.first()).copied().flatten();
        if let Some((a, b)) = bx {
            xe.add(*a);
            xe.add(*b);
        }
        if let Some((a, b)) = by {
            ye.add(a);
            ye.add(b);
        }
        layers.push(Layer {
            series: 0,
            shape: Shape::Band {
                x: *bx,
                y: by,
                label: label.clone(),
            },
        });
    }
}

/// The unit every field on an axis shares, for its tick labels.
fn shared_unit(spec: &ChartSpec, x: bool) -> Option<String> {
    let mut unit: Option<&str> = None;
    for f in axis_fields(spec, x) {
        let u = spec
            .field(f)
            .and_then(|f| f.unit.as_deref())
            .map(str::trim)
            .filter(|u| !u.is_empty())?;
        match unit {
            None => unit = Some(u),
            Some(prev) if prev != u => return None,
            _ => {}
        }
    }
    unit.map(str::to_string)
}

fn axis_fields(spec: &ChartSpec, x: bool) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for m in &spec.marks {
        let named = if x { [&m.x, &None] } else { [&m.y, &None] };
        let ops = if x {
            [&m.x_start, &m.x_end]
        } else {
            [&m.y_start, &m.y_end]
        };
        let fields = named.into_iter().flatten().map(String::as_str).chain(
            ops.into_iter().flatten().filter_map(|o| match o {
                Operand::Text(s) if spec.field(s).is_some() => Some(s.as_str()),
                _ => None,
            }),
        );
        for f in fields {
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// The axis label, else the label of the one field on the axis.
fn title(spec: &ChartSpec, x: bool) -> Option<String> {
    let axis = if x {
        spec.axes.x.as_ref()
    } else {
        spec.axes.y.as_ref()
    };
    if let Some(l) = axis
        .and_then(|a| a.label.as_deref())
        .filter(|l| !l.trim().is_empty())
    {
        return Some(l.to_string());
    }
    match axis_fields(spec, x).as_slice() {
        [one] => Some(spec.field_label(one).to_string()),
        _ => None,
    }
}
