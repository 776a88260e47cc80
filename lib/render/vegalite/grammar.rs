//! A validated plot-grammar chart as Vega-Lite: the rows inline once, one
//! layer per mark on shared scales, so the marks share one pair of axes
//! and one legend as on the terminal canvas.
//!
//! The mapping, mark by mark: `line`, `point`, `area` (a band: `y`/`y2`
//! from `yStart`/`yEnd`) and `bar` (grouped by `xOffset`/`yOffset` over
//! categories; over numbers or dates a bar spans its slot, the closest gap
//! between two x values, as in the terminal) keep their names; `rectangle`
//! is `rect`, `rule` is `rule` with a `text` layer for its label; `sector`
//! is `arc` on `theta`. Constants are `datum`s on the axis's scale, and a
//! layer made only of constants gets one row of its own so it is drawn
//! once, not once per row. Dates are `temporal` on a UTC scale (cells
//! rewritten as RFC 3339 UTC so every browser reads them alike), units go
//! in the axis titles, inverted axes are reversed scales, and nothing
//! stacks: the terminal draws series side by side or over each other.
//! `interaction` rides along in `usermeta` and its three flags become
//! selections: `xSelection` a nearest-point hover, `xRangeSelection` an x
//! brush, `scrollableX` pan and zoom of x.

use serde_json::{Map, Value, json};

use super::{iso_utc, nonblank, preamble, titled};
use crate::spec::grammar::{
    ChartSpec, FieldType, Mark, MarkKind, Operand, Resolved, SeriesBy, parse_date,
};

/// A ui chart's spec as a Vega-Lite spec: `title` is the event's title,
/// `fallback` its fallbackText (the description).
pub fn grammar_spec(title: Option<&str>, fallback: Option<&str>, spec: &ChartSpec) -> Value {
    let mut top = preamble(title, None, fallback);
    let plan = Plan::new(spec);
    let sectors = spec.marks.iter().all(|m| m.kind == MarkKind::Sector);
    if sectors {
        top.insert("width".into(), 300.into());
        top.insert("height".into(), 300.into());
    } else {
        if plan.x.ty != FieldType::String {
            top.insert("width".into(), 600.into());
        }
        if plan.y.ty != FieldType::String {
            top.insert("height".into(), 300.into());
        }
    }
    top.insert("data".into(), json!({"values": rows(spec)}));
    let mut layers = plan.layers();
    if let Some(i) = &spec.interaction {
        top.insert("usermeta".into(), json!({"interaction": i}));
        plan.interaction(i, &mut layers);
    }
    top.insert("layer".into(), Value::Array(layers));
    Value::Object(top)
}

/// The rows with date cells as RFC 3339 UTC (a cell that is not a date is
/// a gap, as the terminal reads it).
fn rows(spec: &ChartSpec) -> Vec<Value> {
    let dates: Vec<&str> = spec
        .fields
        .iter()
        .filter(|(_, f)| f.ty == FieldType::Date)
        .map(|(n, _)| n.as_str())
        .collect();
    spec.dataset
        .rows
        .iter()
        .map(|r| {
            let mut r = r.clone();
            for d in &dates {
                if let Some(cell) = r.get_mut(*d) {
                    *cell = match cell.as_str().and_then(parse_date) {
                        Some(t) => iso_utc(t).into(),
                        None => Value::Null,
                    };
                }
            }
            Value::Object(r)
        })
        .collect()
}

/// A name as a Vega-Lite field reference: `.`, `[`, `]` and quotes would
/// be read as nested access, so they (and the escape itself) are escaped.
fn field_ref(name: &str) -> String {
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
fn datum_expr(name: &str) -> String {
    format!("datum[{}]", Value::from(name))
}

/// One axis: its type, title and the scale every layer repeats (layers
/// on one axis must agree, so they all get the same).
struct Axis {
    ty: FieldType,
    title: Option<String>,
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

    fn vl_type(&self) -> &'static str {
        match self.ty {
            FieldType::Number => "quantitative",
            FieldType::Date => "temporal",
            FieldType::String => "nominal",
        }
    }

    fn continuous(&self) -> bool {
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

/// Whether a number axis starts at zero: under bars and filled areas, whose
/// length is their value; line, point and band axes fit the data.
fn needs_zero(spec: &ChartSpec, x: bool) -> bool {
    let category = |f: &Option<String>| {
        f.as_deref()
            .and_then(|f| spec.field_type(f))
            .is_some_and(|t| t == FieldType::String)
    };
    spec.marks.iter().any(|m| match m.kind {
        MarkKind::Bar if x => category(&m.y),
        MarkKind::Bar => !category(&m.y),
        MarkKind::Area => !x && m.y.is_some(),
        _ => false,
    })
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

struct Plan<'a> {
    spec: &'a ChartSpec,
    x: Axis,
    y: Axis,
    /// More than one mark draws data: each gets a legend entry even
    /// without a `series`, named after its y field.
    legend_all: bool,
    /// A domain may cut marks: they are clipped to the plot.
    clip: bool,
}

impl<'a> Plan<'a> {
    fn new(spec: &'a ChartSpec) -> Plan<'a> {
        let data_marks = spec
            .marks
            .iter()
            .filter(|m| {
                matches!(
                    m.kind,
                    MarkKind::Line | MarkKind::Area | MarkKind::Point | MarkKind::Bar
                )
            })
            .count();
        let clip = [&spec.axes.x, &spec.axes.y]
            .into_iter()
            .any(|a| a.as_ref().is_some_and(|a| a.domain.is_some()));
        Plan {
            spec,
            x: Axis::new(spec, true),
            y: Axis::new(spec, false),
            legend_all: data_marks > 1,
            clip,
        }
    }

    /// Rectangles first: the terminal shades them behind the other marks.
    fn layers(&self) -> Vec<Value> {
        let mut out = Vec::new();
        let (rects, rest): (Vec<&Mark>, Vec<&Mark>) = self
            .spec
            .marks
            .iter()
            .partition(|m| m.kind == MarkKind::Rectangle);
        let bars = self.continuous_bars();
        let mut bar_group = 0;
        for m in rects.into_iter().chain(rest) {
            match m.kind {
                MarkKind::Line => out.push(self.xy(m, json!({"type": "line"}))),
                MarkKind::Point => out.push(self.xy(m, json!({"type": "point", "filled": true}))),
                MarkKind::Area => out.push(self.area(m)),
                MarkKind::Bar => {
                    out.push(self.bar(m, bars.as_ref().map(|&(slot, n)| (slot, bar_group, n))));
                    bar_group += 1;
                }
                MarkKind::Rectangle => self.rectangle(m, &mut out),
                MarkKind::Rule => self.rule(m, &mut out),
                MarkKind::Sector => out.push(self.sector(m)),
            }
        }
        out
    }

    fn axis(&self, x: bool) -> &Axis {
        if x { &self.x } else { &self.y }
    }

    /// A position channel (`x`, `y`) for a field or a constant.
    fn position(&self, x: bool, at: &Resolved) -> Value {
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
    fn secondary(&self, x: bool, at: &Resolved) -> Value {
        match at {
            Resolved::Field(f) => json!({"field": field_ref(f)}),
            Resolved::Value(v) if self.axis(x).ty == FieldType::Date => {
                json!({"datum": v * 1000.0})
            }
            Resolved::Value(v) => json!({"datum": v}),
            Resolved::Category(s) => json!({"datum": s}),
        }
    }

    fn resolve(&self, op: &'a Operand, x: bool) -> Option<Resolved<'a>> {
        self.spec.resolve(op, self.axis(x).ty)
    }

    /// The colour (legend entry) of a data mark's series.
    fn color(&self, m: &Mark) -> Option<Value> {
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
    fn xy(&self, m: &Mark, mark: Value) -> Value {
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

    fn layer(&self, mut mark: Value, encoding: Map<String, Value>) -> Value {
        mark["tooltip"] = true.into();
        if self.clip {
            mark["clip"] = true.into();
        }
        json!({"mark": mark, "encoding": encoding})
    }

    /// Filled to the zero baseline, or a band between `yStart` and `yEnd`.
    fn area(&self, m: &Mark) -> Value {
        let band = m
            .y_start
            .as_ref()
            .zip(m.y_end.as_ref())
            .and_then(|(a, b)| Some((self.resolve(a, false)?, self.resolve(b, false)?)));
        let mut layer = match band {
            Some((lo, hi)) if m.y.is_none() => {
                let mut l = self.xy(m, json!({"type": "area", "opacity": 0.3}));
                l["encoding"]["y"] = self.position(false, &lo);
                l["encoding"]["y2"] = self.secondary(false, &hi);
                l
            }
            _ => self.xy(m, json!({"type": "area", "opacity": 0.7})),
        };
        unstack(&mut layer, "y");
        layer
    }

    /// Bars over numbers or dates (not categories) share a slot width:
    /// the closest two x positions, split between the bar marks.
    fn continuous_bars(&self) -> Option<(f64, usize)> {
        let bars: Vec<&Mark> = self
            .spec
            .marks
            .iter()
            .filter(|m| m.kind == MarkKind::Bar)
            .collect();
        if bars.is_empty() || !self.x.continuous() || !self.y.continuous() {
            return None;
        }
        let mut xs: Vec<f64> = bars
            .iter()
            .filter_map(|m| self.spec.column(m.x.as_deref()?))
            .flat_map(|c| c.positions().map(|p| p.to_vec()).unwrap_or_default())
            .flatten()
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let slot = xs
            .windows(2)
            .map(|w| w[1] - w[0])
            .filter(|d| *d > 0.0)
            .fold(f64::INFINITY, f64::min);
        let slot = if slot.is_finite() { slot } else { 1.0 };
        let ms = if self.x.ty == FieldType::Date {
            1000.0
        } else {
            1.0
        };
        Some((slot * ms, bars.len()))
    }

    /// Columns over numbers or dates (each spanning its share of the
    /// slot), or bars over categories, grouped by series.
    fn bar(&self, m: &Mark, slot: Option<(f64, usize, usize)>) -> Value {
        let mut layer = self.xy(m, json!({"type": "bar"}));
        let value_axis = if self.y.continuous() { "y" } else { "x" };
        unstack(&mut layer, value_axis);
        if let (Some((slot, group, groups)), Some(x)) = (slot, &m.x) {
            let pos = if self.x.ty == FieldType::Date {
                format!("time(toDate({}))", datum_expr(x))
            } else {
                format!("toNumber({})", datum_expr(x))
            };
            let width = slot / groups as f64;
            let start = -slot / 2.0 + width * group as f64 + width * 0.05;
            let end = start + width * 0.9;
            layer["transform"] = json!([
                {"calculate": format!("{pos} + ({start})"), "as": "__x0"},
                {"calculate": format!("{pos} + ({end})"), "as": "__x1"}
            ]);
            let mut x0 = self.position(true, &Resolved::Field("__x0"));
            x0["title"] = self.x.title.clone().unwrap_or_else(|| x.clone()).into();
            layer["encoding"]["x"] = x0;
            layer["encoding"]["x2"] = json!({"field": "__x1"});
            // With x2 the bar is a range along x: its length along y
            // needs a baseline of its own.
            layer["encoding"]["y2"] = json!({"datum": 0});
        } else if let Some(c) = self.color(m) {
            let offset = if self.x.continuous() {
                "yOffset"
            } else {
                "xOffset"
            };
            let mut c = c;
            if let Value::Object(o) = &mut c {
                o.remove("title");
            }
            layer["encoding"][offset] = c;
        }
        layer
    }

    /// A shaded band: a missing pair spans the plot.
    fn rectangle(&self, m: &Mark, out: &mut Vec<Value>) {
        let mut enc = Map::new();
        let mut rows_needed = false;
        for (x, a, b) in [(true, &m.x_start, &m.x_end), (false, &m.y_start, &m.y_end)] {
            let (p, p2) = if x { ("x", "x2") } else { ("y", "y2") };
            let pair = a
                .as_ref()
                .zip(b.as_ref())
                .and_then(|(a, b)| Some((self.resolve(a, x)?, self.resolve(b, x)?)));
            match pair {
                Some((a, b)) => {
                    rows_needed |=
                        matches!(a, Resolved::Field(_)) || matches!(b, Resolved::Field(_));
                    enc.insert(p.into(), self.position(x, &a));
                    enc.insert(p2.into(), self.secondary(x, &b));
                }
                None => {
                    let far = if x { "width" } else { "height" };
                    enc.insert(p.into(), json!({"value": 0}));
                    enc.insert(p2.into(), json!({"value": far}));
                }
            }
        }
        let label_at = enc.get("x").cloned();
        let mut layer = self.layer(
            json!({"type": "rect", "color": "#888888", "opacity": 0.2}),
            enc,
        );
        if !rows_needed {
            one_row(&mut layer);
        }
        out.push(layer);
        if let Some(text) = nonblank(m.label.as_deref()) {
            let x = label_at
                .filter(|x| x.get("value").is_none())
                .unwrap_or(json!({"value": 0}));
            let mut enc = Map::new();
            enc.insert("x".into(), x);
            enc.insert("y".into(), json!({"value": 0}));
            out.push(label(text, enc, "left", "top", !rows_needed));
        }
    }

    /// A reference line across the plot, and its label.
    fn rule(&self, m: &Mark, out: &mut Vec<Value>) {
        let candidates = [
            (true, m.x_value.as_ref().and_then(|v| self.resolve(v, true))),
            (
                false,
                m.y_value.as_ref().and_then(|v| self.resolve(v, false)),
            ),
            (true, m.x.as_deref().map(Resolved::Field)),
            (false, m.y.as_deref().map(Resolved::Field)),
        ];
        let Some((x, at)) = candidates.into_iter().find_map(|(x, r)| Some((x, r?))) else {
            return;
        };
        let own_row = !matches!(at, Resolved::Field(_));
        let (p, other, far): (&str, &str, Value) = if x {
            ("x", "y", 0.into())
        } else {
            ("y", "x", "width".into())
        };
        let mut enc = Map::new();
        enc.insert(p.into(), self.position(x, &at));
        let mut layer = self.layer(
            json!({"type": "rule", "strokeDash": [4, 3], "color": "#555555"}),
            enc.clone(),
        );
        if own_row {
            one_row(&mut layer);
        }
        out.push(layer);
        if let Some(text) = nonblank(m.label.as_deref()) {
            enc.insert(other.into(), json!({"value": far}));
            let (align, baseline) = if x {
                ("left", "top")
            } else {
                ("right", "bottom")
            };
            out.push(label(text, enc, align, baseline, own_row));
        }
    }

    /// A share of the whole: an arc per category.
    fn sector(&self, m: &Mark) -> Value {
        let mut enc = Map::new();
        if let Some(a) = &m.angle {
            let unit = self.spec.field(a).and_then(|f| f.unit.as_deref());
            let mut theta = json!({"field": field_ref(a), "type": "quantitative", "stack": true});
            if let Some(t) = titled(Some(self.spec.field_label(a)), unit) {
                theta["title"] = t.into();
            }
            enc.insert("theta".into(), theta);
        }
        if let Some(c) = &m.category {
            enc.insert(
                "color".into(),
                json!({"field": field_ref(c), "type": "nominal", "sort": null, "title": self.spec.field_label(c)}),
            );
        }
        self.layer(json!({"type": "arc"}), enc)
    }

    /// `interaction`'s flags as selections on the first layer that draws
    /// data along x: an x brush, pan and zoom; `xSelection` is a hover
    /// layer of its own (nearest point, with a rule at its x), the way
    /// Vega-Lite picks a point near a line.
    fn interaction(&self, i: &Value, layers: &mut Vec<Value>) {
        let on = |k: &str| i.get(k).and_then(Value::as_bool).unwrap_or(false);
        let Some(at) = layers.iter().position(|l| {
            l.get("data").is_none()
                && l.get("transform").is_none()
                && l["encoding"]["x"].get("field").is_some()
                && matches!(
                    l["mark"]["type"].as_str(),
                    Some("line" | "point" | "area" | "bar")
                )
        }) else {
            return;
        };
        let mut params = Vec::new();
        if on("xRangeSelection") {
            params.push(
                json!({"name": "xRange", "select": {"type": "interval", "encodings": ["x"]}}),
            );
        }
        if on("scrollableX") && self.x.continuous() {
            // With a brush on drag, panning needs the shift key.
            let mut select = json!({"type": "interval", "encodings": ["x"]});
            if on("xRangeSelection") {
                select["translate"] =
                    "[mousedown[event.shiftKey], window:mouseup] > window:mousemove!".into();
            }
            params.push(json!({"name": "xZoom", "select": select, "bind": "scales"}));
        }
        if !params.is_empty() {
            layers[at]["params"] = Value::Array(params);
        }
        if on("xSelection") {
            let x = layers[at]["encoding"]["x"].clone();
            let y = layers[at]["encoding"]["y"].clone();
            layers.push(json!({
                "mark": {"type": "point", "opacity": 0},
                "encoding": {"x": x, "y": y},
                "params": [{"name": "xPoint", "select": {
                    "type": "point", "encodings": ["x"], "nearest": true,
                    "on": "mouseover", "clear": "mouseout"
                }}]
            }));
            layers.push(json!({
                "mark": {"type": "rule", "color": "#999999"},
                "encoding": {"x": x, "opacity": {
                    "condition": {"param": "xPoint", "empty": false, "value": 1}, "value": 0
                }}
            }));
        }
    }
}

/// No stacking on a channel: the terminal draws series over each other.
fn unstack(layer: &mut Value, channel: &str) {
    if let Some(c) = layer["encoding"].get_mut(channel)
        && c.get("field").is_some()
    {
        c["stack"] = Value::Null;
    }
}

/// A layer of constants only is drawn from one empty row of its own,
/// not once per row of the dataset.
fn one_row(layer: &mut Value) {
    layer["data"] = json!({"values": [{}]});
}

fn label(
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
