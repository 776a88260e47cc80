//! The point: a quick scatter chart of a `visualization` event, and the
//! plot grammar's point mark.
//!
//! A scatter places each point at its `x` (a number or a date) and its
//! value, one colour per series. A few points are drawn with their
//! series' marker; many (or points binned with a `count`, as viz-parse
//! bins a large input) are a dot each, so crowded places fill in: braille
//! dots in the terminal, cells darkening with their rows in ASCII, dots
//! darkening with their rows in SVG, points sized by their rows in
//! Vega-Lite. Mermaid has no scatter: the report shows the data.
//!
//! A point mark is one marker per row and series, where x and y place it
//! (categories may be on y): markers on the canvas, filled circles in
//! SVG, filled points in Vega-Lite.

use serde_json::{Value, json};

use super::super::RenderOptions;
use super::super::plot::{self, AxisSpec, Layer, Plot, Shape};
use super::super::text::{Style, paint, titled};
use super::line::series_legend;
use super::vega::{iso_utc, nonblank};
use super::{Body, ChartKind, GrammarMark, Layers, Mermaid, VegaLayers};
use crate::spec::grammar::Mark;
use crate::spec::{Chart, XType};

/// Points of one series drawn with markers at most; more are dots.
const MARKED: usize = 200;

pub(super) struct Point;

impl ChartKind for Point {
    fn terminal(&self, chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
        // Without colour, dots of several series look alike: each is
        // drawn with its series' marker, as the legend says.
        let marked = !opts.color && chart.series.len() > 1;
        match scatter(chart, !opts.unicode, marked) {
            Some(p) => plot::render(&p, opts, lines),
            None => lines.push(paint("(no data)", Style::Dim, opts.color)),
        }
    }

    fn picture(&self, chart: &Chart) -> Body {
        scatter(chart, false, false).map_or(Body::NoData, Body::Plot)
    }

    fn plot(&self, chart: &Chart, ascii: bool) -> Option<Plot> {
        scatter(chart, ascii, false)
    }

    fn vega_lite(&self, chart: &Chart) -> Value {
        let date = chart.x_type == Some(XType::Date);
        let binned = chart
            .series
            .iter()
            .flat_map(|s| &s.points)
            .any(|p| p.count.is_some());
        let values: Vec<Value> = chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(move |p| (s.name.as_str(), p)))
            .filter_map(|(series, p)| {
                let x = p.x?;
                let x = if date {
                    Value::from(iso_utc(x))
                } else {
                    Value::from(x)
                };
                let mut row = json!({"series": series, "label": x, "value": p.value});
                if binned {
                    row["count"] = p.count.unwrap_or(1).into();
                }
                Some(row)
            })
            .collect();
        let mut x = json!({"field": "label", "title": nonblank(chart.x_label.as_deref())});
        if date {
            x["type"] = "temporal".into();
            x["scale"] = json!({"type": "utc"});
        } else {
            x["type"] = "quantitative".into();
            x["scale"] = json!({"zero": false});
        }
        let mut encoding = json!({
            "x": x,
            "y": {"field": "value", "type": "quantitative", "scale": {"zero": false},
                  "title": titled(chart.y_label.as_deref(), chart.unit.as_deref())}
        });
        if chart.series.len() > 1 {
            encoding["color"] =
                json!({"field": "series", "type": "nominal", "sort": null, "title": null});
        }
        if binned {
            encoding["size"] = json!({"field": "count", "type": "quantitative", "title": "rows"});
        }
        json!({
            "width": 600,
            "height": 300,
            "data": {"values": values},
            "mark": {"type": "circle", "tooltip": true, "opacity": 0.7},
            "encoding": encoding
        })
    }

    fn mermaid(&self, _chart: &Chart) -> Mermaid {
        Mermaid::Refused("point")
    }
}

/// The scatter as a layered plot; `None` without a point placed.
/// `marked`: every point a marker, however many (dots tell series apart
/// only by colour).
fn scatter(chart: &Chart, ascii: bool, marked: bool) -> Option<Plot> {
    let placed = || {
        chart
            .series
            .iter()
            .flat_map(|s| &s.points)
            .filter(|p| p.x.is_some_and(f64::is_finite) && p.value.is_finite())
    };
    let extent = |f: &dyn Fn(&crate::spec::Point) -> f64| {
        let lo = placed().map(f).fold(f64::INFINITY, f64::min);
        let hi = placed().map(f).fold(f64::NEG_INFINITY, f64::max);
        (lo.is_finite() && hi.is_finite()).then_some((lo, hi))
    };
    let (x0, x1) = extent(&|p| p.x.unwrap_or(f64::NAN))?;
    let (y0, y1) = extent(&|p| p.value)?;
    // A marker each while they stay few, a few hundred a series: markers
    // tell series apart without colour.
    let most = MARKED * chart.series.len().clamp(1, 3);
    let many = !marked && (placed().count() > most || placed().any(|p| p.count.is_some()));
    let layers = chart
        .series
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let pts: Vec<&crate::spec::Point> = s
                .points
                .iter()
                .filter(|p| p.x.is_some_and(f64::is_finite) && p.value.is_finite())
                .collect();
            let points = pts.iter().map(|p| (p.x.unwrap_or(0.0), p.value)).collect();
            let shape = if many {
                Shape::Dots {
                    points,
                    counts: pts.iter().map(|p| p.count.unwrap_or(1)).collect(),
                    cell: chart.meta.cell.filter(|c| c.iter().all(|v| *v > 0.0)),
                }
            } else {
                Shape::Points(points)
            };
            Layer { series: si, shape }
        })
        .collect();
    let legend = series_legend(chart, ascii);
    let x = match chart.x_type {
        Some(XType::Date) => AxisSpec::Date {
            min: x0,
            max: x1,
            domain: None,
            invert: false,
        },
        _ => AxisSpec::Number {
            min: x0,
            max: x1,
            unit: None,
            domain: None,
            invert: false,
        },
    };
    let plot = Plot {
        x,
        y: AxisSpec::Number {
            min: y0,
            max: y1,
            unit: None,
            domain: None,
            invert: false,
        },
        y_title: titled(chart.y_label.as_deref(), chart.unit.as_deref()),
        x_title: chart.x_label.clone(),
        layers,
        legend,
    };
    Some(super::trend::dress(plot, chart, ascii))
}

impl GrammarMark for Point {
    fn layers(&self, b: &mut Layers, m: &Mark) {
        let ys = b.field(m.y.as_deref(), false);
        b.xy(m, ys, false, |_, rows| Shape::Points(rows.points()));
    }

    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        out.push(p.xy(m, json!({"type": "point", "filled": true})));
    }
}
