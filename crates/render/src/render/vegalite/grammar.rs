//! A validated plot-grammar chart as Vega-Lite: the rows inline once, one
//! layer (or a few) per mark on shared scales, so the marks share one
//! pair of axes and one legend as on the terminal canvas. What each mark
//! writes is in its file of `render/marks/`.
//!
//! A layer made only of constants gets one row of its own so it is drawn
//! once, not once per row. Date cells are rewritten as RFC 3339 UTC so
//! every browser reads them alike. `interaction` rides along in
//! `usermeta` and its three flags become selections: `xSelection` a
//! nearest-point hover, `xRangeSelection` an x brush, `scrollableX` pan
//! and zoom of x.

use serde_json::{Map, Value, json};

use super::preamble;
use crate::render::marks::{self, VegaLayers, iso_utc};
use crate::spec::grammar::{ChartSpec, FieldType, parse_date};

/// A ui chart's spec as a Vega-Lite spec: `title` is the event's title,
/// `fallback` its fallbackText (the description).
pub fn grammar_spec(title: Option<&str>, fallback: Option<&str>, spec: &ChartSpec) -> Value {
    let mut top = preamble(title, None, fallback);
    let mut plan = VegaLayers::new(spec);
    if spec.marks.iter().any(|m| m.kind.takes().own_chart()) {
        top.insert("data".into(), json!({"values": rows(spec)}));
        own_charts(&mut plan, &mut top);
        return Value::Object(top);
    }
    let off_axes = spec.marks.iter().all(|m| !marks::of(m.kind).on_axes());
    if off_axes {
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
        interaction(&plan, i, &mut layers);
    }
    top.insert("layer".into(), Value::Array(layers));
    Value::Object(top)
}

/// Marks that are charts of their own (a heatmap, a box plot; the
/// validator keeps other marks off their chart): one view, or a view
/// each one under another (`vconcat`), titled by the mark's label, over
/// the rows the top level carries. `interaction` rides along in
/// `usermeta` only: its selections are along a shared x.
fn own_charts(plan: &mut VegaLayers, top: &mut Map<String, Value>) {
    let spec = plan.spec;
    let mut views: Vec<Value> = spec
        .marks
        .iter()
        .map(|m| {
            let mut layers = Vec::new();
            marks::of(m.kind).vega_lite(plan, m, &mut layers);
            let mut view = json!({"layer": layers});
            if let Some(l) = marks::nonblank(m.label.as_deref()) {
                view["title"] = l.into();
            }
            view
        })
        .collect();
    if let Some(i) = &spec.interaction {
        top.insert("usermeta".into(), json!({"interaction": i}));
    }
    if views.len() == 1
        && let Value::Object(view) = views.remove(0)
    {
        for (k, v) in view {
            top.entry(k).or_insert(v);
        }
        return;
    }
    top.insert("vconcat".into(), Value::Array(views));
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

/// `interaction`'s flags as selections on the first layer that draws
/// data along x: an x brush, pan and zoom; `xSelection` is a hover layer
/// of its own (nearest point, with a rule at its x), the way Vega-Lite
/// picks a point near a line.
fn interaction(plan: &VegaLayers, i: &Value, layers: &mut Vec<Value>) {
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
        params.push(json!({"name": "xRange", "select": {"type": "interval", "encodings": ["x"]}}));
    }
    if on("scrollableX") && plan.x.continuous() {
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
