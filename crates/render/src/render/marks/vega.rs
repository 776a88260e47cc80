//! The Vega-Lite a chart's marks are written into: for the grammar, the
//! axes every layer shares (type, title, scale: layers on one axis must
//! agree, so they all repeat it) and the channels a mark's layers are
//! made of ([`VegaLayers`]); for quick charts, the titles and points
//! their bodies read. Each mark's own layers are in its file.
//!
//! Dates are `temporal` on a UTC scale, constants are `datum`s on the
//! axis's scale, units go in the axis titles, inverted axes are reversed
//! scales, and nothing stacks: the terminal draws series side by side or
//! over each other.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::layers::slot_width;
use crate::spec::Chart;
use crate::spec::grammar::{ChartSpec, FieldType, Mark, MarkKind, Operand, Resolved, SeriesBy};

/// A name as a Vega-Lite field reference: `.`, `[`, `]` and quotes would
/// be read as nested access, so they (and the escape itself) are escaped.
pub(crate) fn field_ref(name: &str) -> String {
    let mut s = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '.' | '[' | ']' | '\\' | '"' | '\'') {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// A field's value in a Vega expression: `datum["name"]`.
pub(crate) fn datum_expr(name: &str) -> String {
    format!("datum[{}]", Value::from(name))
}

/// One axis: its type, title and the scale every layer repeats (layers
/// on one axis must agree, so they all get the same).
pub(crate) struct Axis {
    pub ty: FieldType,
    pub title: Option<String>,
    scale: Map<String, Value>,
}

impl Axis {
    fn new(spec: &ChartSpec, x: bool) -> Axis {
        let ty = spec.axis_type(x);
        let axis = if x { &spec.axes.x } else { &spec.axes.y };
        let mut scale = Map::new();
        if axis.as_ref().is_some_and(|a| a.invert) {
            scale.insert("reverse".into(), true.into());
        }
        if ty == FieldType::Date {
            scale.insert("type".into(), "utc".into());
        }
        let domain = axis.as_ref().and_then(|a| a.domain.as_ref());
        let domain =
            domain.and_then(|(lo, hi)| Some([constant(spec, lo, ty)?, constant(spec, hi, ty)?]));
        match domain {
            Some(d) => {
                scale.insert("domain".into(), json!(d));
            }
            None if ty == FieldType::Number => {
                scale.insert("zero".into(), needs_zero(spec, x).into());
            }
            None => {}
        }
        let title = axis
            .as_ref()
            .and_then(|a| nonblank(a.label.as_deref()))
            .map(str::to_string)
            .or_else(|| fields_title(spec, x));
        Axis { ty, title, scale }
    }

    pub fn vl_type(&self) -> &'static str {
        match self.ty {
            FieldType::Number => "quantitative",
            FieldType::Date => "temporal",
            FieldType::String => "nominal",
        }
    }

    pub fn continuous(&self) -> bool {
        self.ty != FieldType::String
    }
}

/// A constant on a scale of type `ty` as Vega-Lite writes it: a number, a
/// date as milliseconds since the epoch, a category as its name.
fn constant(spec: &ChartSpec, op: &Operand, ty: FieldType) -> Option<Value> {
    match spec.resolve(op, ty)? {
        Resolved::Value(v) if ty == FieldType::Date => Some((v * 1000.0).into()),
        Resolved::Value(v) => Some(v.into()),
        Resolved::Category(c) => Some(c.into()),
        Resolved::Field(_) => None,
    }
}

/// Whether a number axis starts at zero: under marks whose length is
/// their value (bars, filled areas); line, point and band axes fit the data.
fn needs_zero(spec: &ChartSpec, x: bool) -> bool {
    spec.marks
        .iter()
        .any(|m| super::of(m.kind).vega_zero(spec, m, x))
}

/// The fields placed on an axis, each as `Label (unit)`, once, joined.
fn fields_title(spec: &ChartSpec, x: bool) -> Option<String> {
    let mut names: Vec<&str> = Vec::new();
    for m in &spec.marks {
        let (f, ops) = if x {
            (&m.x, [&m.x_start, &m.x_end, &m.x_value])
        } else {
            (&m.y, [&m.y_start, &m.y_end, &m.y_value])
        };
        let named = ops.into_iter().flatten().filter_map(|o| match o {
            Operand::Text(s) if spec.field(s).is_some() => Some(s.as_str()),
            _ => None,
        });
        for n in f.as_deref().into_iter().chain(named) {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    let titles: Vec<String> = names
        .iter()
        .filter_map(|n| {
            let unit = spec.field(n).and_then(|f| f.unit.as_deref());
            titled(Some(spec.field_label(n)), unit)
        })
        .fold(Vec::new(), |mut v, t| {
            if !v.contains(&t) {
                v.push(t);
            }
            v
        });
    (!titles.is_empty()).then(|| titles.join(", "))
}

/// The layers of a grammar chart as they are written: the axes they
/// share and what the marks so far have claimed.
pub(crate) struct VegaLayers<'a> {
    pub spec: &'a ChartSpec,
    pub x: Axis,
    pub y: Axis,
    /// More than one mark draws data: each gets a legend entry even
    /// without a `series`, named after its y field.
    legend_all: bool,
    /// A domain may cut marks: they are clipped to the plot.
    clip: bool,
    /// Per kind of mark that shares slots: the slot and how many share
    /// it, and the next one's place.
    slots: HashMap<MarkKind, (Option<(f64, usize)>, usize)>,
}

impl<'a> VegaLayers<'a> {
    pub fn new(spec: &'a ChartSpec) -> VegaLayers<'a> {
        let data_marks = spec
            .marks
            .iter()
            .filter(|m| super::of(m.kind).draws_data())
            .count();
        let clip = [&spec.axes.x, &spec.axes.y]
            .into_iter()
            .any(|a| a.as_ref().is_some_and(|a| a.domain.is_some()));
        VegaLayers {
            spec,
            x: Axis::new(spec, true),
            y: Axis::new(spec, false),
            legend_all: data_marks > 1,
            clip,
            slots: HashMap::new(),
        }
    }

    /// Every mark's layers; those drawn behind the others first, as the
    /// terminal shades bands behind the other marks.
    pub fn layers(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        let spec = self.spec;
        let (behind, rest): (Vec<&Mark>, Vec<&Mark>) =
            spec.marks.iter().partition(|m| super::of(m.kind).behind());
        for m in behind.into_iter().chain(rest) {
            super::of(m.kind).vega_lite(self, m, &mut out);
        }
        out
    }

    pub fn axis(&self, x: bool) -> &Axis {
        if x { &self.x } else { &self.y }
    }

    /// A position channel (`x`, `y`) for a field or a constant.
    pub fn position(&self, x: bool, at: &Resolved) -> Value {
        let a = self.axis(x);
        let mut c = Map::new();
        match at {
            Resolved::Field(f) => {
                c.insert("field".into(), field_ref(f).into());
                if a.ty == FieldType::String {
                    c.insert("sort".into(), Value::Null);
                }
            }
            Resolved::Value(v) if a.ty == FieldType::Date => {
                c.insert("datum".into(), (v * 1000.0).into());
            }
            Resolved::Value(v) => {
                c.insert("datum".into(), (*v).into());
            }
            Resolved::Category(s) => {
                c.insert("datum".into(), (*s).into());
            }
        }
        c.insert("type".into(), a.vl_type().into());
        if let Some(t) = &a.title {
            c.insert("title".into(), t.as_str().into());
        }
        if !a.scale.is_empty() {
            c.insert("scale".into(), Value::Object(a.scale.clone()));
        }
        Value::Object(c)
    }

    /// A secondary channel (`x2`, `y2`): shares the primary's scale.
    pub fn secondary(&self, x: bool, at: &Resolved) -> Value {
        match at {
            Resolved::Field(f) => json!({"field": field_ref(f)}),
            Resolved::Value(v) if self.axis(x).ty == FieldType::Date => {
                json!({"datum": v * 1000.0})
            }
            Resolved::Value(v) => json!({"datum": v}),
            Resolved::Category(s) => json!({"datum": s}),
        }
    }

    pub fn resolve(&self, op: &'a Operand, x: bool) -> Option<Resolved<'a>> {
        self.spec.resolve(op, self.axis(x).ty)
    }

    /// The colour (legend entry) of a data mark's series.
    pub fn color(&self, m: &Mark) -> Option<Value> {
        match self.spec.series_by(m) {
            SeriesBy::Field(f) => Some(json!({
                "field": field_ref(f), "type": "nominal", "sort": null,
                "title": self.spec.field_label(f)
            })),
            SeriesBy::Constant(name) => {
                Some(json!({"datum": name, "type": "nominal", "title": null}))
            }
            SeriesBy::None if self.legend_all => {
                let f = m.y.as_deref().or(match &m.y_end {
                    Some(Operand::Text(s)) => Some(s.as_str()),
                    _ => None,
                })?;
                Some(json!({"datum": self.spec.field_label(f), "type": "nominal", "title": null}))
            }
            SeriesBy::None => None,
        }
    }

    /// A mark with `x` and `y` fields (line, point, a filled area).
    pub fn xy(&self, m: &Mark, mark: Value) -> Value {
        let mut enc = Map::new();
        if let Some(x) = &m.x {
            enc.insert("x".into(), self.position(true, &Resolved::Field(x)));
        }
        if let Some(y) = &m.y {
            enc.insert("y".into(), self.position(false, &Resolved::Field(y)));
        }
        if let Some(c) = self.color(m) {
            enc.insert("color".into(), c);
        }
        self.layer(mark, enc)
    }

    pub fn layer(&self, mut mark: Value, encoding: Map<String, Value>) -> Value {
        mark["tooltip"] = true.into();
        if self.clip {
            mark["clip"] = true.into();
        }
        json!({"mark": mark, "encoding": encoding})
    }

    /// Marks of `m`'s kind over numbers or dates (not categories) share a
    /// slot width: the closest two x positions, split between them. The
    /// slot (in the axis' units: milliseconds for dates), this mark's
    /// place in it, and how many share it; `None` over categories.
    pub fn slot(&mut self, m: &Mark) -> Option<(f64, usize, usize)> {
        let (x_continuous, y_continuous) = (self.x.continuous(), self.y.continuous());
        let (spec, date) = (self.spec, self.x.ty == FieldType::Date);
        let (slot, next) = self.slots.entry(m.kind).or_insert_with(|| {
            let marks: Vec<&Mark> = spec.marks.iter().filter(|o| o.kind == m.kind).collect();
            if !x_continuous || !y_continuous {
                return (None, 0);
            }
            let mut xs: Vec<f64> = marks
                .iter()
                .filter_map(|m| spec.column(m.x.as_deref()?))
                .flat_map(|c| c.positions().map(|p| p.to_vec()).unwrap_or_default())
                .flatten()
                .collect();
            let slot = slot_width(&mut xs);
            let ms = if date { 1000.0 } else { 1.0 };
            (Some((slot * ms, marks.len())), 0)
        });
        let at = *next;
        *next += 1;
        slot.map(|(slot, n)| (slot, at, n))
    }
}

/// No stacking on a channel: the terminal draws series over each other.
pub(crate) fn unstack(layer: &mut Value, channel: &str) {
    if let Some(c) = layer["encoding"].get_mut(channel)
        && c.get("field").is_some()
    {
        c["stack"] = Value::Null;
    }
}

/// A layer of constants only is drawn from one empty row of its own,
/// not once per row of the dataset.
pub(crate) fn one_row(layer: &mut Value) {
    layer["data"] = json!({"values": [{}]});
}

pub(crate) fn label(
    text: &str,
    mut enc: Map<String, Value>,
    align: &str,
    baseline: &str,
    own_row: bool,
) -> Value {
    enc.insert("text".into(), json!({"value": text}));
    let (dx, dy) = if baseline == "top" { (4, 4) } else { (-4, -4) };
    let mut layer = json!({
        "mark": {"type": "text", "align": align, "baseline": baseline, "dx": dx, "dy": dy},
        "encoding": enc
    });
    if own_row {
        one_row(&mut layer);
    }
    layer
}

/// A text, trimmed; `None` when blank.
pub(crate) fn nonblank(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

pub(crate) use super::super::text::titled;

/// The value axis of a quick chart: `yLabel (unit)`, else the name of
/// its one series.
pub(crate) fn value_title(chart: &Chart) -> Option<String> {
    titled(chart.y_label.as_deref(), chart.unit.as_deref()).or_else(|| {
        match chart.series.as_slice() {
            [one] => nonblank(Some(&one.name)).map(str::to_string),
            _ => None,
        }
    })
}

/// Every point of a quick chart as (series name, label, value), series
/// after series.
pub(crate) fn points(chart: &Chart) -> impl Iterator<Item = (&str, &str, f64)> {
    chart.series.iter().flat_map(|s| {
        s.points
            .iter()
            .map(move |p| (s.name.as_str(), p.label.as_str(), p.value))
    })
}

/// Seconds since the epoch as RFC 3339 UTC, the form a browser's
/// `Date.parse` reads the same in every time zone.
pub(crate) fn iso_utc(secs: f64) -> String {
    let ms = (secs * 1000.0).round() as i64;
    crate::events::format_rfc3339(ms.div_euclid(1000), ms.rem_euclid(1000) as u32)
}
