//! The point mark: one marker per row and series, where x and y place it
//! (categories may be on y). Drawn on the canvas with its series'
//! marker, in SVG as filled circles, in Vega-Lite as filled points;
//! mermaid has no points.

use serde_json::{Value, json};

use super::super::plot::Shape;
use super::{GrammarMark, Layers, VegaLayers};
use crate::spec::grammar::Mark;

pub(super) struct Point;

impl GrammarMark for Point {
    fn layers(&self, b: &mut Layers, m: &Mark) {
        let ys = b.field(m.y.as_deref(), false);
        b.xy(m, ys, false, |_, rows| Shape::Points(rows.points()));
    }

    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        out.push(p.xy(m, json!({"type": "point", "filled": true})));
    }
}
