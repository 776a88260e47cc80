//! Line charts of `visualization` events, drawn through the layered
//! [`plot`]: a braille canvas (2×4 dots per cell) or, in ASCII, one
//! marker character per cell (`*`, `+`, `o`, ...), y ticks at nice
//! numbers, x labels where they fit, a marker on each data point when the
//! points are few, and a legend for several series. The x positions are
//! the union of all series' labels, in an order each series keeps (see
//! [`label_union`]).

use std::collections::{HashMap, HashSet};

use super::RenderOptions;
use super::plot::{self, AxisSpec, Layer, Markers, Plot, Shape, legend, marker, series_style};
use super::text::{Style, paint};
use crate::spec::Chart;

pub fn render(chart: &Chart, opts: &RenderOptions, lines: &mut Vec<String>) {
    match plot(chart, !opts.unicode) {
        Some(p) => plot::render(&p, opts, lines),
        None => lines.push(paint("(no data)", Style::Dim, opts.color)),
    }
}

/// A line chart as a layered plot (None: no finite value).
pub(super) fn plot(chart: &Chart, ascii: bool) -> Option<Plot> {
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
    let unit = chart
        .unit
        .as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty());
    let y_label = chart
        .y_label
        .as_deref()
        .map(str::trim)
        .filter(|y| !y.is_empty());
    match (y_label, unit) {
        (Some(y), Some(u)) => Some(format!("{y} ({u})")),
        (Some(y), None) => Some(y.to_string()),
        (None, Some(u)) => Some(format!("({u})")),
        (None, None) => None,
    }
}

/// Every label of every series once. A label new to the union goes just
/// before the next label of its own series that the union already has
/// (else at the end), so a series with a gap (a missing cell of a wide
/// table) does not push the labels only others have after its own:
/// `a: 01, 03` and `b: 02, 03` give `01, 02, 03`, not `01, 03, 02`.
pub(super) fn label_union(chart: &Chart) -> Vec<&str> {
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
