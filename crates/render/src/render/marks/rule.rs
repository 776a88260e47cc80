//! The rule mark: a reference line across the plot at a constant
//! (`xValue`, `yValue`) or at each row's value of a field (`x`, `y`),
//! with an optional label. Dashed in SVG and Vega-Lite (its label a text
//! layer beside it); mermaid draws only a rule at a number on the value
//! axis, as a flat line.

use serde_json::{Map, Value, json};

use super::super::plot::Shape;
use super::vega::{label, one_row};
use super::{GrammarMark, Layers, VegaLayers, Xy, nonblank};
use crate::spec::grammar::{Mark, Resolved};

pub(super) struct Rule;

impl GrammarMark for Rule {
    fn needs_rows(&self) -> bool {
        false
    }

    fn draws_data(&self) -> bool {
        false
    }

    fn layers(&self, b: &mut Layers, m: &Mark) {
        let label = m.label.clone();
        for x in b
            .values(m.x_value.as_ref(), m.x.as_deref(), true)
            .unwrap_or_default()
        {
            b.add_x(x);
            b.push_plain(Shape::Rule {
                x: Some(x),
                y: None,
                label: label.clone(),
            });
        }
        for y in b
            .values(m.y_value.as_ref(), m.y.as_deref(), false)
            .unwrap_or_default()
        {
            b.add_y(y);
            b.push_plain(Shape::Rule {
                x: None,
                y: Some(y),
                label: label.clone(),
            });
        }
    }

    /// A reference line across the plot, and its label.
    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        let candidates = [
            (true, m.x_value.as_ref().and_then(|v| p.resolve(v, true))),
            (false, m.y_value.as_ref().and_then(|v| p.resolve(v, false))),
            (true, m.x.as_deref().map(Resolved::Field)),
            (false, m.y.as_deref().map(Resolved::Field)),
        ];
        let Some((x, at)) = candidates.into_iter().find_map(|(x, r)| Some((x, r?))) else {
            return;
        };
        let own_row = !matches!(at, Resolved::Field(_));
        let (ch, other, far): (&str, &str, Value) = if x {
            ("x", "y", 0.into())
        } else {
            ("y", "x", "width".into())
        };
        let mut enc = Map::new();
        enc.insert(ch.into(), p.position(x, &at));
        let mut layer = p.layer(
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

    fn mermaid(&self) -> Xy {
        Xy::Rule
    }
}
