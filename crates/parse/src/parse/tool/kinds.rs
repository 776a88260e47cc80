//! What a `render_visualization` call says beyond its series (issue 36):
//! `seriesLabel`, `stack`, `yScale`, `xScale`, `trend` and `facet`, read
//! as the chart event carries them (docs/events.md) so a model asks for
//! what viz-parse's flags ask for; a box plot's groups given as raw
//! values made into their five numbers; and the x positions a scatter, a
//! trend or a log x scale needs. Refusals name the field, as the rest of
//! the tool's do.

use serde_json::{Map, Value};

use crate::spec::boxplot::{BoxStats, MAX_OUTLIERS};
use crate::spec::{
    self, Chart, ChartType, Drawing, Facet, FacetScales, ScaleType, Series, Stack, TrendMethod,
    XType,
};

use super::{ToolArgsError, err, kind, opt_str};

/// The fields of the call that say how its points are drawn.
#[derive(Debug, Clone, Default)]
pub(super) struct Extras {
    pub series_label: Option<String>,
    pub drawing: Drawing,
    pub facet: Option<Facet>,
}

fn word<T>(
    obj: &Map<String, Value>,
    key: &str,
    accepted: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, ToolArgsError> {
    spec::enum_field(obj, key, accepted, parse).map_err(|e| err(e.field, e.problem))
}

fn scale(s: &str) -> Option<ScaleType> {
    match s {
        "linear" => Some(ScaleType::Linear),
        "log" => Some(ScaleType::Log),
        "sqrt" => Some(ScaleType::Sqrt),
        _ => None,
    }
}

fn trend(s: &str) -> Option<TrendMethod> {
    match s {
        "linear" => Some(TrendMethod::Linear),
        "loess" => Some(TrendMethod::Loess),
        _ => None,
    }
}

/// Reads `seriesLabel`, `stack`, `yScale`, `xScale`, `trend`, `facet`.
pub(super) fn extras(obj: &Map<String, Value>) -> Result<Extras, ToolArgsError> {
    let stack = word(obj, "stack", r#""zero" or "normalize""#, |s| match s {
        "zero" | "true" => Some(Stack::Zero),
        "normalize" => Some(Stack::Normalize),
        _ => None,
    })?;
    let scales = r#""linear", "log" or "sqrt""#;
    // The event's form {"method": ...} is taken too.
    let trend_method = match obj.get("trend") {
        Some(Value::Object(t)) => word(t, "method", r#""linear" or "loess""#, trend)
            .map_err(|e| err(format!("trend.{}", e.field), e.problem))?,
        _ => word(obj, "trend", r#""linear" or "loess""#, trend)?,
    };
    Ok(Extras {
        series_label: opt_str(obj, "seriesLabel")?,
        drawing: Drawing {
            stack,
            y_scale: word(obj, "yScale", scales, scale)?,
            x_scale: word(obj, "xScale", scales, scale)?,
            trend: trend_method,
            spark: None,
        },
        facet: facet(obj)?,
    })
}

/// `facet`: a field name, or `{field, columns?, scales?}` as the event
/// carries it.
fn facet(obj: &Map<String, Value>) -> Result<Option<Facet>, ToolArgsError> {
    let f = match obj.get("facet") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) => Facet {
            field: s.clone(),
            ..Facet::default()
        },
        Some(Value::Object(o)) => Facet {
            field: opt_str(o, "field")
                .map_err(|e| err(format!("facet.{}", e.field), e.problem))?
                .unwrap_or_default(),
            columns: match o.get("columns") {
                None | Some(Value::Null) => None,
                Some(Value::Number(n)) if n.as_u64().is_some_and(|c| c >= 1) => {
                    n.as_u64().map(|c| c as usize)
                }
                Some(other) => {
                    return Err(err(
                        "facet.columns",
                        format!("must be a whole number of 1 or more, got {}", kind(other)),
                    ));
                }
            },
            scales: word(o, "scales", r#""shared" or "free""#, |s| match s {
                "shared" => Some(FacetScales::Shared),
                "free" => Some(FacetScales::Free),
                _ => None,
            })
            .map_err(|e| err(format!("facet.{}", e.field), e.problem))?
            .unwrap_or_default(),
        },
        Some(other) => {
            return Err(err(
                "facet",
                format!(
                    r#"must be the panels' field name or {{"field": "Region", "columns": 2, "scales": "shared"}}, got {}"#,
                    kind(other)
                ),
            ));
        }
    };
    Ok(Some(f))
}

/// The panels' field when series name panels but `facet` was not given.
const PANELS: &str = "panel";

/// Puts the facet on the chart: every series names its panel when one
/// does or when `facet` is given.
pub(super) fn apply_facet(
    chart: &mut Chart,
    facet: Option<Facet>,
    panels: &[Option<String>],
) -> Result<(), ToolArgsError> {
    let named = panels.iter().any(Option::is_some);
    if facet.is_none() && !named {
        return Ok(());
    }
    if let Some(i) = panels.iter().position(Option::is_none) {
        return Err(err(
            format!("series[{i}].facet"),
            "is missing: with small multiples every series names its panel (a string, e.g. \"Europe\")",
        ));
    }
    let mut facet = facet.unwrap_or_default();
    if facet.field.trim().is_empty() {
        facet.field = PANELS.to_string();
    }
    for (s, p) in chart.series.iter_mut().zip(panels) {
        s.facet = p.clone();
    }
    chart.facet = Some(facet);
    Ok(())
}

/// A box plot's groups: a series that holds its five numbers
/// (`lower`, `q1`, `median`, `q3`, `upper`, `outlier`s) is kept, any
/// other is raw values, made into its box.
pub(super) fn boxes(series: Vec<Series>) -> Vec<Series> {
    series
        .into_iter()
        .map(|s| {
            if BoxStats::from_series(&s).is_some() {
                return s;
            }
            let mut values: Vec<f64> = s.points.iter().map(|p| p.value).collect();
            match BoxStats::of(&mut values) {
                Some(b) => Series {
                    facet: s.facet.clone(),
                    ..b.series(s.name)
                },
                None => s,
            }
        })
        .collect()
}

/// Gives the points normalization kept back their `x` and `count` (a
/// reducer keeps labels and values only): each takes the first unused
/// point of its series with its label and value.
pub(super) fn restore(before: &[Series], after: &mut [Series]) {
    for (b, a) in before.iter().zip(after.iter_mut()) {
        let mut used = vec![false; b.points.len()];
        for p in &mut a.points {
            let found = b.points.iter().enumerate().position(|(i, q)| {
                !used[i] && q.label == p.label && q.value.total_cmp(&p.value).is_eq()
            });
            if let Some(i) = found {
                used[i] = true;
                p.x = b.points[i].x;
                p.count = b.points[i].count;
            }
        }
    }
}

/// Points a box plot's series keeps: its five numbers and its outliers.
pub const BOX_POINTS: usize = 5 + 2 * MAX_OUTLIERS;

/// Places the points on a number x where the chart needs it: a scatter
/// always, a line when a trend or an x scale is asked or its points
/// carry `x`. Each point's `x`, else its label read as a number.
pub(super) fn place_x(chart: &mut Chart, drawing: &Drawing) -> Result<(), ToolArgsError> {
    let given = chart
        .series
        .iter()
        .flat_map(|s| &s.points)
        .any(|p| p.x.is_some());
    let needed = match chart.chart_type {
        ChartType::Point => true,
        ChartType::Line => given || drawing.trend.is_some() || drawing.x_scale.is_some(),
        _ => false,
    };
    if !needed {
        for p in chart.series.iter_mut().flat_map(|s| s.points.iter_mut()) {
            p.x = None;
        }
        return Ok(());
    }
    for (i, s) in chart.series.iter_mut().enumerate() {
        for (j, p) in s.points.iter_mut().enumerate() {
            if p.x.is_none() {
                p.x = p.label.trim().parse::<f64>().ok().filter(|x| x.is_finite());
            }
            if p.x.is_none() {
                return Err(err(
                    format!("series[{i}].points[{j}].x"),
                    format!(
                        "is missing: a {}{} places each point at a number x; give \"x\": 3.5 or a label that is a number (label {:?} is not)",
                        chart.chart_type.as_str(),
                        if chart.chart_type == ChartType::Line {
                            " with a trend or an x scale"
                        } else {
                            " chart"
                        },
                        p.label
                    ),
                ));
            }
        }
    }
    chart.x_type = Some(XType::Number);
    Ok(())
}

/// Copies one field's part of a drawing into another.
type SetPart = fn(&mut Drawing, &Drawing);

/// The drawing put on the chart; a refusal names the field that asked
/// for what cannot be drawn.
pub(super) fn apply_drawing(chart: &mut Chart, drawing: Drawing) -> Result<(), ToolArgsError> {
    // Each field's part of the drawing, tried alone first.
    let parts: [(&str, SetPart); 4] = [
        ("stack", |d, w| d.stack = w.stack),
        ("yScale", |d, w| d.y_scale = w.y_scale),
        ("xScale", |d, w| d.x_scale = w.x_scale),
        ("trend", |d, w| d.trend = w.trend),
    ];
    for (field, set) in parts {
        let mut d = Drawing::default();
        set(&mut d, &drawing);
        if d != Drawing::default() {
            d.apply(&mut chart.clone())
                .map_err(|e| err(field, e.to_string()))?;
        }
    }
    drawing
        .apply(chart)
        .map_err(|e| err("arguments", e.to_string()))
}
