//! The rectangle mark: a shaded band between `xStart`/`xEnd` and
//! `yStart`/`yEnd` (fields or constants; a missing pair spans the plot),
//! drawn behind the other marks, its label in its top left corner and in
//! the legend. In Vega-Lite a grey `rect`; mermaid has no bands.

use serde_json::{Map, Value, json};

use super::super::plot::Shape;
use super::vega::{label, one_row};
use super::{GrammarMark, Layers, VegaLayers, nonblank};
use crate::spec::grammar::{Mark, Resolved};

pub(super) struct Rectangle;

impl GrammarMark for Rectangle {
    fn needs_rows(&self) -> bool {
        false
    }

    fn draws_data(&self) -> bool {
        false
    }

    fn behind(&self) -> bool {
        true
    }

    fn layers(&self, b: &mut Layers, m: &Mark) {
        let xs = b.bounds(&m.x_start, &m.x_end, true);
        let ys = b.bounds(&m.y_start, &m.y_end, false);
        if let Some(l) = &m.label {
            b.legend_band(l);
        }
        for (i, bx) in xs.iter().enumerate() {
            let by = ys.get(i).or(ys.first()).copied().flatten();
            if let Some((lo, hi)) = *bx {
                b.add_x(lo);
                b.add_x(hi);
            }
            if let Some((lo, hi)) = by {
                b.add_y(lo);
                b.add_y(hi);
            }
            b.push_plain(Shape::Band {
                x: *bx,
                y: by,
                label: m.label.clone(),
            });
        }
    }

    /// A shaded band: a missing pair spans the plot.
    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        let mut enc = Map::new();
        let mut rows_needed = false;
        for (x, a, b) in [(true, &m.x_start, &m.x_end), (false, &m.y_start, &m.y_end)] {
            let (ch, ch2) = if x { ("x", "x2") } else { ("y", "y2") };
            let pair = a
                .as_ref()
                .zip(b.as_ref())
                .and_then(|(a, b)| Some((p.resolve(a, x)?, p.resolve(b, x)?)));
            match pair {
                Some((a, b)) => {
                    rows_needed |=
                        matches!(a, Resolved::Field(_)) || matches!(b, Resolved::Field(_));
                    enc.insert(ch.into(), p.position(x, &a));
                    enc.insert(ch2.into(), p.secondary(x, &b));
                }
                None => {
                    let far = if x { "width" } else { "height" };
                    enc.insert(ch.into(), json!({"value": 0}));
                    enc.insert(ch2.into(), json!({"value": far}));
                }
            }
        }
        let label_at = enc.get("x").cloned();
        let mut layer = p.layer(
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
}
