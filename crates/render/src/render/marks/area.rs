//! The area mark: filled from each series' line down to the baseline, or
//! a band between `yStart` and `yEnd`. Every second filled mark (areas,
//! bars) is dotted so two fills are told apart without colour. In
//! Vega-Lite an `area` (a band: `y`/`y2`), never stacked; mermaid has no
//! areas.

use serde_json::{Value, json};

use super::super::plot::Shape;
use super::vega::unstack;
use super::{GrammarMark, Layers, VegaLayers};
use crate::spec::grammar::{ChartSpec, Mark};

pub(super) struct Area;

impl GrammarMark for Area {
    fn layers(&self, b: &mut Layers, m: &Mark) {
        // A band: y is its upper edge, y2 its lower one.
        let (ys, y2s) = if m.y.is_none() {
            (b.operand(&m.y_end), Some(b.operand(&m.y_start)))
        } else {
            (b.field(m.y.as_deref(), false), None)
        };
        b.xy(m, ys, true, |b, rows| {
            let pts: Vec<(f64, f64, Option<f64>)> = rows
                .idx
                .iter()
                .filter_map(|&i| {
                    let (x, y) = rows.at(i)?;
                    match &y2s {
                        Some(lower) => Some((x, y, Some(lower.get(i).copied().flatten()?))),
                        None => Some((x, y, None)),
                    }
                })
                .collect();
            for p in &pts {
                b.add_y(p.2.unwrap_or(0.0));
            }
            Shape::Area {
                points: pts,
                dotted: rows.dotted,
            }
        });
    }

    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        let band = m
            .y_start
            .as_ref()
            .zip(m.y_end.as_ref())
            .and_then(|(a, b)| Some((p.resolve(a, false)?, p.resolve(b, false)?)));
        let mut layer = match band {
            Some((lo, hi)) if m.y.is_none() => {
                let mut l = p.xy(m, json!({"type": "area", "opacity": 0.3}));
                l["encoding"]["y"] = p.position(false, &lo);
                l["encoding"]["y2"] = p.secondary(false, &hi);
                l
            }
            _ => p.xy(m, json!({"type": "area", "opacity": 0.7})),
        };
        unstack(&mut layer, "y");
        out.push(layer);
    }

    /// A filled area's height is its value.
    fn vega_zero(&self, _spec: &ChartSpec, m: &Mark, x: bool) -> bool {
        !x && m.y.is_some()
    }
}
