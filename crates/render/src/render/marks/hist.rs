//! The histogram: a quick chart whose points are bins (`x`..`x2`, the
//! rows in each as the value), as viz-parse makes them with
//! `--chart hist`. In the terminal, SVG and mermaid one horizontal bar a
//! bin, labelled with its range, as xan's and lowcharts' histograms read;
//! in Vega-Lite columns over the binned axis, the form a browser reader
//! expects. No grammar mark.

use serde_json::{Value, json};

use super::super::RenderOptions;
use super::super::bar;
use super::bar::rows_of;
use super::vega::{nonblank, titled, value_title};
use super::{Body, ChartKind, Mermaid};
use crate::spec::Chart;

pub(super) struct Hist;

impl ChartKind for Hist {
    fn terminal(&self, chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
        bar::render(chart, opts, lines);
    }

    fn picture(&self, chart: &Chart) -> Body {
        Body::Bars {
            rows: rows_of(chart),
            value_title: titled(chart.y_label.as_deref(), None),
            category: nonblank(chart.x_label.as_deref()).map(str::to_string),
            unit: None,
            scale: None,
            extent: Vec::new(),
        }
    }

    /// Columns from each bin's start to its end.
    fn vega_lite(&self, chart: &Chart) -> Value {
        let values: Vec<Value> = chart
            .series
            .iter()
            .flat_map(|s| &s.points)
            .map(|p| json!({"label": p.x, "label_end": p.x2, "value": p.value}))
            .collect();
        let x_title = titled(chart.x_label.as_deref(), chart.unit.as_deref());
        json!({
            "width": 600,
            "height": 300,
            "data": {"values": values},
            "mark": {"type": "bar", "tooltip": true},
            "encoding": {
                "x": {"field": "label", "type": "quantitative", "bin": {"binned": true}, "title": x_title},
                "x2": {"field": "label_end"},
                "y": {"field": "value", "type": "quantitative", "title": value_title(chart)}
            }
        })
    }

    fn mermaid(&self, chart: &Chart) -> Mermaid {
        Mermaid::Xy {
            categories: chart
                .series
                .first()
                .map(|s| s.points.iter().map(|p| p.label.clone()).collect())
                .unwrap_or_default(),
            bars: true,
        }
    }
}
