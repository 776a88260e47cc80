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
//! A line mark is one line per series, joined in x order (rows out of
//! order are sorted, as Vega-Lite draws them), a gap where a cell is
//! missing.

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use super::super::RenderOptions;
use super::super::plot::{
    self, AxisSpec, Layer, Markers, Plot, Shape, legend, marker, series_style,
};
use super::super::text::{Style, paint, titled};
use super::vega::{iso_utc, nonblank, points, value_title};
use super::{Body, ChartKind, GrammarMark, Layers, Mermaid, VegaLayers, Xy};
use crate::spec::grammar::{Mark, parse_date};
use crate::spec::{Chart, ScaleType, XType};

pub(super) struct Line;

/// A row of a line mark: its x, and its point when both cells are one.
type RowPoint = (Option<f64>, Option<(f64, f64)>);

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

    fn plot(&self, chart: &Chart, ascii: bool) -> Option<Plot> {
        plot(chart, ascii)
    }

    fn vega_lite(&self, chart: &Chart) -> Value {
        vega_lite(chart)
    }

    fn mermaid(&self, chart: &Chart) -> Mermaid {
        if chart.y_scale.is_some_and(|s| s != ScaleType::Linear) {
            return Mermaid::Refused("line on a log or square-root scale");
        }
        Mermaid::Xy {
            categories: label_union(chart).into_iter().map(str::to_string).collect(),
            bars: false,
        }
    }
}

impl GrammarMark for Line {
    fn layers(&self, b: &mut Layers, m: &Mark) {
        let ys = b.field(m.y.as_deref(), false);
        b.xy(m, ys, false, |_, rows| {
            let mut points: Vec<RowPoint> = rows
                .idx
                .iter()
                .map(|&i| (rows.x_at(i), rows.at(i)))
                .collect();
            // In x order, as Vega-Lite draws a line: rows out of order
            // would stroke back across the plot.
            let xs = || points.iter().filter_map(|p| p.0);
            if xs().zip(xs().skip(1)).any(|(a, b)| b < a) {
                points.retain(|p| p.0.is_some());
                points.sort_by(|a, b| a.0.unwrap_or(0.0).total_cmp(&b.0.unwrap_or(0.0)));
            }
            Shape::Line {
                points: points.into_iter().map(|p| p.1).collect(),
                markers: Markers {
                    positions: rows.idx.len(),
                    several: false,
                },
            }
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
    let (x, lines) = match to_scale(chart) {
        Some(scaled) => scaled,
        None => by_label(chart),
    };
    let layers = lines
        .into_iter()
        .enumerate()
        .map(|(si, (points, positions))| Layer {
            series: si,
            shape: Shape::Line {
                points,
                markers: Markers { positions, several },
            },
        })
        .collect();
    let legend = series_legend(chart, ascii);
    let plot = Plot {
        x,
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
    };
    Some(super::trend::dress(plot, chart, ascii))
}

/// A legend item per series, with its marker, when there are several.
pub(super) fn series_legend(chart: &Chart, ascii: bool) -> Vec<legend::Item> {
    if chart.series.len() < 2 {
        return Vec::new();
    }
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
}

/// Each series' line (its points, and how many x positions the chart
/// has, for the markers).
type Lines = Vec<(Vec<Option<(f64, f64)>>, usize)>;

/// The x axis over every label once, in an order every series agrees
/// with; each point at its label's place on it.
fn by_label(chart: &Chart) -> (AxisSpec, Lines) {
    let xs = label_union(chart);
    let index: HashMap<&str, usize> = xs.iter().enumerate().map(|(i, &l)| (l, i)).collect();
    let lines = chart
        .series
        .iter()
        .map(|s| {
            let points = s
                .points
                .iter()
                .map(|p| Some((index[p.label.as_str()] as f64, p.value)))
                .collect();
            (points, xs.len())
        })
        .collect();
    let names = xs.iter().map(|s| s.to_string()).collect();
    (AxisSpec::Category { names }, lines)
}

/// A chart whose points are values on its x scale (`xType`), drawn to
/// scale in x order: `None` unless every point has a finite `x`.
fn to_scale(chart: &Chart) -> Option<(AxisSpec, Lines)> {
    let x_type = chart.x_type?;
    let all = || chart.series.iter().flat_map(|s| &s.points);
    if !all().all(|p| p.x.is_some_and(f64::is_finite)) {
        return None;
    }
    let xs = || all().filter_map(|p| p.x);
    let (min, max) = (
        xs().fold(f64::INFINITY, f64::min),
        xs().fold(f64::NEG_INFINITY, f64::max),
    );
    let mut distinct: Vec<f64> = xs().collect();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    let lines = chart
        .series
        .iter()
        .map(|s| {
            let mut points: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter_map(|p| Some((p.x?, p.value)))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            (points.into_iter().map(Some).collect(), distinct.len())
        })
        .collect();
    let axis = match x_type {
        XType::Date => AxisSpec::Date {
            min,
            max,
            domain: None,
            invert: false,
        },
        XType::Number => AxisSpec::Number {
            min,
            max,
            unit: None,
            domain: None,
            invert: false,
        },
    };
    Some((axis, lines))
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
    let scaled = to_scale(chart).and(chart.x_type);
    let dates = scaled == Some(XType::Date)
        || (scaled.is_none()
            && points(chart).all(|(_, l, _)| l.contains('-') && parse_date(l).is_some()));
    let all = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(move |p| (s.name.as_str(), p)));
    let values: Vec<Value> = all
        .map(|(series, p)| {
            let x = match (scaled, p.x) {
                (Some(XType::Date), Some(x)) => Value::from(iso_utc(x)),
                (Some(XType::Number), Some(x)) => Value::from(x),
                _ if dates => Value::from(iso_utc(parse_date(&p.label).unwrap_or_default())),
                _ => Value::from(p.label.as_str()),
            };
            json!({"series": series, "label": x, "value": p.value})
        })
        .collect();
    let mut x = json!({"field": "label", "title": nonblank(chart.x_label.as_deref())});
    if dates {
        x["type"] = "temporal".into();
        x["scale"] = json!({"type": "utc"});
    } else if scaled == Some(XType::Number) {
        x["type"] = "quantitative".into();
        x["scale"] = json!({"zero": false});
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
