//! The line: a quick line chart of a `visualization` event, and the
//! plot grammar's line mark.
//!
//! A line chart is drawn through the layered [`plot`]: a braille canvas
//! (2×4 dots per cell) or, in ASCII, one marker character per cell (`*`,
//! `+`, `o`, ...), y ticks at nice numbers, x labels where they fit, a
//! marker on each data point when the points are few, and a legend for
//! several series. The x positions are the union of all series' labels,
//! in an order each series keeps (see [`label_union`]). In Vega-Lite its
//! x is the labels in order (a time axis when every label is an ISO 8601
//! date); mermaid draws it over the labels.
//!
//! A line mark is one line per series, joined in row order, a gap where
//! a cell is missing.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::super::RenderOptions;
use super::super::plot::{
    self, AxisSpec, Layer, Markers, Plot, Shape, legend, marker, series_style,
};
use super::super::text::{Style, paint, titled};
use super::vega::{iso_utc, nonblank, points, value_title};
use super::{Body, ChartKind, GrammarMark, Layers, Mermaid, VegaLayers, Xy};
use crate::spec::Chart;
use crate::spec::grammar::{Mark, parse_date};

pub(super) struct Line;

impl ChartKind for Line {
    fn terminal(&self, chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
        match plot(chart, !opts.unicode) {
            Some(p) => plot::render(&p, opts, lines),
            None => lines.push(paint("(no data)", Style::Dim, opts.color)),
        }
    }

    fn picture(&self, chart: &Chart) -> Body {
        match plot(chart, false) {
            Some(p) => Body::Plot(p),
            None => Body::NoData,
        }
    }

    fn vega_lite(&self, chart: &Chart) -> Value {
        vega_lite(chart)
    }

    fn mermaid(&self, chart: &Chart) -> Mermaid {
        Mermaid::Xy {
            categories: label_union(chart).into_iter().map(str::to_string).collect(),
            bars: false,
        }
    }
}

impl GrammarMark for Line {
    fn layers(&self, b: &mut Layers, m: &Mark) {
        let ys = b.field(m.y.as_deref(), false);
        b.xy(m, ys, false, |_, rows| Shape::Line {
            points: rows.idx.iter().map(|&i| rows.at(i)).collect(),
            markers: Markers {
                positions: rows.idx.len(),
                several: false,
            },
        });
    }

    fn vega_lite(&self, p: &mut VegaLayers, m: &Mark, out: &mut Vec<Value>) {
        out.push(p.xy(m, json!({"type": "line"})));
    }

    fn mermaid(&self) -> Xy {
        Xy::Plot { bar: false }
    }
}

/// A line chart as a layered plot (None: no finite value).
fn plot(chart: &Chart, ascii: bool) -> Option<Plot> {
    // The x axis: every label once, in an order every series agrees with;
    // each point is drawn at its label's place on it.
    let xs = label_union(chart);
    let index: HashMap<&str, usize> = xs.iter().enumerate().map(|(i, &l)| (l, i)).collect();
    let values = || {
        chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.value))
    };
    let ymin = values().fold(f64::INFINITY, f64::min);
    let ymax = values().fold(f64::NEG_INFINITY, f64::max);
    if !(ymin.is_finite() && ymax.is_finite()) {
        return None;
    }
    let several = chart.series.len() > 1;
    let layers = chart
        .series
        .iter()
        .enumerate()
        .map(|(si, s)| Layer {
            series: si,
            shape: Shape::Line {
                points: s
                    .points
                    .iter()
                    .map(|p| Some((index[p.label.as_str()] as f64, p.value)))
                    .collect(),
                markers: Markers {
                    positions: xs.len(),
                    several,
                },
            },
        })
        .collect();
    let legend = if several {
        chart
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| legend::Item {
                glyph: marker(i, ascii),
                style: series_style(i),
                name: s.name.clone(),
            })
            .collect()
    } else {
        Vec::new()
    };
    Some(Plot {
        x: AxisSpec::Category {
            names: xs.iter().map(|s| s.to_string()).collect(),
        },
        y: AxisSpec::Number {
            min: ymin,
            max: ymax,
            unit: None,
            domain: None,
            invert: false,
        },
        y_title: y_title(chart),
        x_title: chart.x_label.clone(),
        layers,
        legend,
    })
}

/// The y title above the plot: the label, with the unit in parentheses.
fn y_title(chart: &Chart) -> Option<String> {
    titled(chart.y_label.as_deref(), chart.unit.as_deref())
}

/// Every label of every series once. A label new to the union goes just
/// before the next label of its own series that the union already has
/// (else at the end), so a series with a gap (a missing cell of a wide
/// table) does not push the labels only others have after its own:
/// `a: 01, 03` and `b: 02, 03` give `01, 02, 03`, not `01, 03, 02`.
pub(crate) fn label_union(chart: &Chart) -> Vec<&str> {
    let mut xs: Vec<&str> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for s in &chart.series {
        let labels: Vec<&str> = s.points.iter().map(|p| p.label.as_str()).collect();
        // For each point, the next label of this series already in the
        // union before this series, found in one pass from the end.
        let mut anchor: Vec<Option<&str>> = vec![None; labels.len()];
        let mut next = None;
        for (i, &l) in labels.iter().enumerate().rev() {
            anchor[i] = next;
            if seen.contains(l) {
                next = Some(l);
            }
        }
        for (i, &l) in labels.iter().enumerate() {
            if !seen.insert(l) {
                continue;
            }
            match anchor[i].and_then(|a| xs.iter().position(|&x| x == a)) {
                Some(at) => xs.insert(at, l),
                None => xs.push(l),
            }
        }
    }
    xs
}

/// One line per series over the labels in order: a time axis when every
/// label is an ISO 8601 date with at least a month (a bare `2024` stays a
/// label, as a year column usually is one), else the labels as written.
fn vega_lite(chart: &Chart) -> Value {
    let dates = points(chart).all(|(_, l, _)| l.contains('-') && parse_date(l).is_some());
    let values: Vec<Value> = points(chart)
        .map(|(series, label, value)| {
            let x = if dates {
                Value::from(iso_utc(parse_date(label).unwrap_or_default()))
            } else {
                Value::from(label)
            };
            json!({"series": series, "label": x, "value": value})
        })
        .collect();
    let mut x = json!({"field": "label", "title": nonblank(chart.x_label.as_deref())});
    if dates {
        x["type"] = "temporal".into();
        x["scale"] = json!({"type": "utc"});
    } else {
        x["type"] = "ordinal".into();
        x["sort"] = Value::Null;
    }
    let mut encoding = json!({
        "x": x,
        "y": {"field": "value", "type": "quantitative", "title": value_title(chart), "scale": {"zero": false}}
    });
    if chart.series.len() > 1 {
        encoding["color"] =
            json!({"field": "series", "type": "nominal", "sort": null, "title": null});
    }
    let few = chart
        .series
        .iter()
        .map(|s| s.points.len())
        .max()
        .unwrap_or(0)
        <= 40;
    json!({
        "width": 600,
        "height": 300,
        "data": {"values": values},
        "mark": {"type": "line", "point": few, "tooltip": true},
        "encoding": encoding
    })
}
