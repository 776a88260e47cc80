//! The layered plot a spec's marks on shared axes become, for the
//! terminal canvas and SVG alike: each mark adds its layers ([`Layers`],
//! through its file's `GrammarMark::layers`), one per series, in axis
//! values; the axes span all of them (bars and areas from zero) and take
//! the spec's domain, inversion, labels and units.

use std::collections::HashMap;

use super::super::plot::{self, AxisSpec, Layer, Markers, Plot, Shape, legend};
use super::super::text::Style;
use crate::spec::grammar::{ChartSpec, Column, FieldType, Mark, Operand, Resolved, SeriesBy};

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

/// Rows of one mark split by series: (series name, row indices).
pub(crate) fn groups(spec: &ChartSpec, m: &Mark, rows: usize) -> Vec<(String, Vec<usize>)> {
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

/// A spec's marks on one pair of axes, as a layered plot.
pub(crate) fn build(spec: &ChartSpec, ascii: bool) -> Plot {
    let mut b = Layers::new(spec, ascii);
    for m in &spec.marks {
        super::of(m.kind).layers(&mut b, m);
    }
    b.finish()
}

/// The categories of a category axis, in order of appearance over the
/// marks' fields on it.
#[derive(Default)]
struct Categories {
    names: Vec<String>,
    index: HashMap<String, usize>,
}

impl Categories {
    fn of(spec: &ChartSpec, ty: FieldType, field: impl Fn(&Mark) -> Option<&str>) -> Categories {
        let mut c = Categories::default();
        if ty != FieldType::String {
            return c;
        }
        for col in spec.marks.iter().filter_map(|m| spec.column(field(m)?)) {
            for s in col.texts().unwrap_or(&[]).iter().flatten() {
                if !c.index.contains_key(s) {
                    c.index.insert(s.clone(), c.names.len());
                    c.names.push(s.clone());
                }
            }
        }
        c
    }
}

/// The plot as it is put together, mark by mark.
pub(crate) struct Layers<'a> {
    spec: &'a ChartSpec,
    ascii: bool,
    x_type: FieldType,
    y_type: FieldType,
    /// Categories of the x and the y axis when they are category axes.
    x_cats: Categories,
    y_cats: Categories,
    series: Series,
    layers: Vec<Layer>,
    xe: Extent,
    ye: Extent,
    /// x positions of every bar, for the slot width.
    bar_xs: Vec<f64>,
    /// Filled marks so far: every second one is dotted.
    fills: usize,
}

impl<'a> Layers<'a> {
    fn new(spec: &'a ChartSpec, ascii: bool) -> Layers<'a> {
        let (x_type, y_type) = (spec.axis_type(true), spec.axis_type(false));
        Layers {
            spec,
            ascii,
            x_type,
            y_type,
            x_cats: Categories::of(spec, x_type, |m| m.x.as_deref()),
            y_cats: Categories::of(spec, y_type, |m| m.y.as_deref()),
            series: Series::default(),
            layers: Vec::new(),
            xe: Extent::default(),
            ye: Extent::default(),
            bar_xs: Vec::new(),
            fills: 0,
        }
    }

    /// A field's positions on the x (or y) axis, categories by index.
    pub(crate) fn field(&self, f: Option<&str>, x: bool) -> Vec<Option<f64>> {
        let cats = if x { &self.x_cats } else { &self.y_cats };
        positions(f.and_then(|f| self.spec.column(f)), &cats.index)
    }

    /// A band edge: a field, or a constant on every row.
    pub(crate) fn operand(&self, o: &Option<Operand>) -> Vec<Option<f64>> {
        match o {
            Some(Operand::Text(f)) => self.field(Some(f), false),
            Some(Operand::Number(n)) => vec![Some(*n); self.spec.dataset.rows.len()],
            None => Vec::new(),
        }
    }

    /// A mark over `x` and `ys` (its `y`, or a band's upper edge): one
    /// layer per series, each series' shape made by `shape` from its rows.
    /// A `filled` mark (areas, bars) takes the next fill, every second
    /// one dotted; the others get the series' marker in the legend.
    pub(crate) fn xy(
        &mut self,
        m: &Mark,
        ys: Vec<Option<f64>>,
        filled: bool,
        mut shape: impl FnMut(&mut Self, &XyRows) -> Shape,
    ) {
        let xs = self.field(m.x.as_deref(), true);
        let dotted = filled && self.fills % 2 == 1;
        let ascii = self.ascii;
        for (name, idx) in groups(self.spec, m, self.spec.dataset.rows.len()) {
            let glyph = |i: usize| {
                if filled {
                    plot::fill_glyph(i, dotted, ascii)
                } else {
                    plot::marker(i, ascii)
                }
            };
            let before = self.series.names.len();
            let si = self.series.index(&name, glyph);
            self.series.data += self.series.names.len() - before;
            let rows = XyRows {
                idx,
                xs: &xs,
                ys: &ys,
                dotted,
            };
            for p in rows.points() {
                self.xe.add(p.0);
                self.ye.add(p.1);
            }
            let shape = shape(self, &rows);
            self.layers.push(Layer { series: si, shape });
        }
        if filled {
            self.fills += 1;
        }
    }

    /// Values that must be on the y axis (a baseline, a band's lower edge).
    pub(crate) fn add_y(&mut self, v: f64) {
        self.ye.add(v);
    }

    /// Columns at these x positions share one slot width ([`finish_bars`]).
    pub(crate) fn slot_columns(&mut self, xs: impl IntoIterator<Item = f64>) {
        self.bar_xs.extend(xs);
    }

    /// An operand's values: a constant once, a field's (up to
    /// [`MAX_REFERENCES`]) per row.
    pub(crate) fn values(
        &self,
        op: Option<&Operand>,
        field: Option<&str>,
        x: bool,
    ) -> Option<Vec<f64>> {
        let (ty, cats) = if x {
            (self.x_type, &self.x_cats)
        } else {
            (self.y_type, &self.y_cats)
        };
        let resolved = match (op, field) {
            (Some(op), _) => self.spec.resolve(op, ty)?,
            (None, Some(f)) => Resolved::Field(f),
            (None, None) => return None,
        };
        Some(match resolved {
            Resolved::Value(v) => vec![v],
            Resolved::Category(c) => vec![*cats.index.get(c)? as f64],
            Resolved::Field(f) => self
                .field(Some(f), x)
                .into_iter()
                .flatten()
                .take(MAX_REFERENCES)
                .collect(),
        })
    }

    /// Bounds of a rectangle on one axis, per row when a bound is a field;
    /// `[None]` when the pair is missing (the band spans the plot).
    pub(crate) fn bounds(
        &self,
        a: &Option<Operand>,
        b: &Option<Operand>,
        x: bool,
    ) -> Vec<Option<(f64, f64)>> {
        let (Some(a), Some(b)) = (
            self.values(a.as_ref(), None, x),
            self.values(b.as_ref(), None, x),
        ) else {
            return vec![None];
        };
        let n = a.len().max(b.len());
        (0..n)
            .filter_map(|i| Some(Some((*a.get(i).or(a.first())?, *b.get(i).or(b.first())?))))
            .collect()
    }

    /// A position that must be on the x axis.
    pub(crate) fn add_x(&mut self, v: f64) {
        self.xe.add(v);
    }

    /// A layer drawn in the colour of no series (a rule, a band).
    pub(crate) fn push_plain(&mut self, shape: Shape) {
        self.layers.push(Layer { series: 0, shape });
    }

    /// A legend item for a labelled band, in a dim shade.
    pub(crate) fn legend_band(&mut self, label: &str) {
        let shade = if self.ascii { '.' } else { '░' };
        let i = self.series.index(label, |_| shade);
        self.series.legend[i].style = Style::Dim;
    }

    fn finish(mut self) -> Plot {
        finish_bars(&mut self.layers, &mut self.bar_xs, &mut self.xe);
        let several = self.series.data > 1;
        for l in &mut self.layers {
            if let Shape::Line {
                markers: Markers { several: s, .. },
                ..
            } = &mut l.shape
            {
                *s = several;
            }
        }
        let banded = self
            .layers
            .iter()
            .any(|l| matches!(&l.shape, Shape::Band { label: Some(_), .. }));
        let legend = if self.series.legend.len() > 1 || banded {
            std::mem::take(&mut self.series.legend)
        } else {
            Vec::new()
        };
        Plot {
            x: self.axis(true),
            y: self.axis(false),
            y_title: title(self.spec, false),
            x_title: title(self.spec, true),
            layers: std::mem::take(&mut self.layers),
            legend,
        }
    }

    /// An axis over what the marks span, with the spec's domain and
    /// inversion.
    fn axis(&self, x: bool) -> AxisSpec {
        let (e, ty) = if x {
            (&self.xe, self.x_type)
        } else {
            (&self.ye, self.y_type)
        };
        let (min, max) = if e.any { (e.min, e.max) } else { (0.0, 1.0) };
        let axis = if x {
            self.spec.axes.x.as_ref()
        } else {
            self.spec.axes.y.as_ref()
        };
        let invert = axis.is_some_and(|a| a.invert);
        let domain = axis.and_then(|a| a.domain.as_ref()).and_then(|(a, b)| {
            match (self.spec.resolve(a, ty)?, self.spec.resolve(b, ty)?) {
                (Resolved::Value(a), Resolved::Value(b)) => Some((a, b)),
                _ => None,
            }
        });
        match ty {
            FieldType::String => AxisSpec::Category {
                names: if x { &self.x_cats } else { &self.y_cats }.names.clone(),
            },
            FieldType::Date => AxisSpec::Date {
                min,
                max,
                domain,
                invert,
            },
            FieldType::Number => AxisSpec::Number {
                min,
                max,
                unit: shared_unit(self.spec, x),
                domain,
                invert,
            },
        }
    }
}

/// The rows of one series of an x/y mark, read on the axes.
pub(crate) struct XyRows<'r> {
    /// Row indices, in order.
    pub idx: Vec<usize>,
    xs: &'r [Option<f64>],
    ys: &'r [Option<f64>],
    /// This mark's fill is the dotted one.
    pub dotted: bool,
}

impl XyRows<'_> {
    /// Row `i` as a point, if both its cells are.
    pub fn at(&self, i: usize) -> Option<(f64, f64)> {
        Some((
            self.xs.get(i).copied().flatten()?,
            self.ys.get(i).copied().flatten()?,
        ))
    }

    /// Row `i`'s x position, if its cell is one.
    pub fn x_at(&self, i: usize) -> Option<f64> {
        self.xs.get(i).copied().flatten()
    }

    /// The series' points, gaps left out.
    pub fn points(&self) -> Vec<(f64, f64)> {
        self.idx.iter().filter_map(|&i| self.at(i)).collect()
    }
}

/// The slot of columns at `xs` (sorted and deduplicated here): the
/// closest two positions, 1 for a single one.
pub(crate) fn slot_width(xs: &mut Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let slot = xs
        .windows(2)
        .map(|w| w[1] - w[0])
        .filter(|d| *d > 0.0)
        .fold(f64::INFINITY, f64::min);
    if slot.is_finite() { slot } else { 1.0 }
}

/// Bars share a slot width (the closest two x positions) and sit side by
/// side when several series have bars; the x axis makes room for the
/// outer halves.
fn finish_bars(layers: &mut [Layer], xs: &mut Vec<f64>, xe: &mut Extent) {
    if xs.is_empty() {
        return;
    }
    let slot = slot_width(xs);
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
