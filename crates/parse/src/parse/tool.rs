//! The `render_visualization` argument object, normalized as the tool
//! does: the structured `series` when given, else `inputText` through the
//! text parser. Errors name the field and carry accepted examples, because
//! their reader is usually a model that will retry with a fixed call.

use serde_json::{Map, Value};

use crate::spec::{self, Chart, ChartType, NormalizeOptions, Normalized, Point, Series, SpecError};

use super::number::parse_number;
use super::table::looks_ordered;
use super::{ParseError, ParseOptions, parse_text};

mod kinds;

/// Minimal valid calls, shown with every refusal.
pub const TOOL_EXAMPLES: &str = r#"Accepted arguments, for example:
  {"chartType":"bar","title":"0-60 mph","unit":"s","series":[{"name":"0-60","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition","value":3.0}]}]}
  {"chartType":"line","title":"Sales","inputText":"year,sales\n2021,120\n2022,135\n2023,150"}
  {"chartType":"heatmap","xLabel":"Weekday","seriesLabel":"Hour","series":[{"name":"9h","points":[{"label":"Mon","value":12},{"label":"Tue","value":7}]},{"name":"10h","points":[{"label":"Mon","value":4},{"label":"Tue","value":9}]}]}
chartType is "bar", "line", "table", "spark" (a sparkline per series), "heatmap" (a series per row, a point per cell), "box" (a series per group: its raw values, or its five numbers labelled lower, q1, median, q3, upper) or "point" (a scatter: each point's "x" and "value"); all but "table" take several series. Each point is {"label": string, "value": number}. Optional: title, subtitle, xLabel, yLabel, seriesLabel, unit, sort ("none", "asc", "desc"; bar and table), maxPoints (default 30, at most 200), stack ("zero" or "normalize"; bar), yScale and xScale ("linear", "log", "sqrt"; line and point), trend ("linear" or "loess"; line and point over number x), facet (the panels' field name; each series then names its panel in "facet"). inputText may be CSV, TSV, a Markdown table, a JSON object {"label": number} or a JSON array of records."#;

/// Why a `render_visualization` call was refused: the field at fault and
/// what is wrong with it. `Display` adds [`TOOL_EXAMPLES`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolArgsError {
    /// The JSON path of the field at fault (`series[0].points`), or
    /// `arguments` for the object as a whole.
    pub field: String,
    /// One sentence about that field.
    pub problem: String,
}

impl std::fmt::Display for ToolArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}\n{}", self.field, self.problem, TOOL_EXAMPLES)
    }
}

impl std::error::Error for ToolArgsError {}

fn err(field: impl Into<String>, problem: impl Into<String>) -> ToolArgsError {
    ToolArgsError {
        field: field.into(),
        problem: problem.into(),
    }
}

fn kind(v: &Value) -> String {
    spec::describe_value(v)
}

fn opt_str(obj: &Map<String, Value>, key: &str) -> Result<Option<String>, ToolArgsError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(other) => Err(err(key, format!("must be a string, got {}", kind(other)))),
    }
}

/// The `chartType` words, for refusals.
const CHART_TYPES: &str = r#""bar", "line", "table", "spark", "heatmap", "box" or "point""#;

/// The options the argument object sets, other than its data.
fn options(obj: &Map<String, Value>) -> Result<ParseOptions, ToolArgsError> {
    let chart = spec::enum_field(obj, "chartType", CHART_TYPES, ChartType::parse)
        .map_err(|e| err(e.field, e.problem))?;
    let spec::ArgOptions {
        sort,
        max_points,
        keep,
        downsample,
    } = spec::options_from_args(obj).map_err(|e| err(e.field, e.problem))?;
    Ok(ParseOptions {
        chart,
        title: opt_str(obj, "title")?,
        subtitle: opt_str(obj, "subtitle")?,
        x_label: opt_str(obj, "xLabel")?,
        y_label: opt_str(obj, "yLabel")?,
        unit: opt_str(obj, "unit")?,
        sort,
        max_points,
        keep,
        downsample,
        ..ParseOptions::default()
    })
}

fn label_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A value as a number; numeric strings as people write them ("2.9s").
fn value_of(v: &Value) -> Option<(f64, String)> {
    match v {
        Value::Number(n) => n.as_f64().map(|f| (f, String::new())),
        Value::String(s) => parse_number(s).map(|n| (n.value, n.unit.to_string())),
        _ => None,
    }
}

/// Points from `[{label, value}]`, `[[label, value]]` or `{label: value}`.
fn points(
    v: &Value,
    path: &str,
    name: &str,
    out: &mut Vec<(Point, String)>,
    dropped: &mut Vec<(String, String)>,
) -> Result<(), ToolArgsError> {
    let mut add = |label: String, value: &Value, x: Option<f64>| match value_of(value) {
        Some((v, unit)) if v.is_finite() => out.push((
            Point {
                x,
                ..Point::new(label, v)
            },
            unit,
        )),
        _ => dropped.push((name.to_string(), label)),
    };
    match v {
        Value::Array(items) => {
            for (j, p) in items.iter().enumerate() {
                let at = format!("{path}[{j}]");
                match p {
                    Value::Object(o) => {
                        let label = o
                            .get("label")
                            .or_else(|| o.get("x"))
                            .or_else(|| o.get("name"))
                            .ok_or_else(|| {
                                err(
                                    format!("{at}.label"),
                                    "is missing; every point needs a label",
                                )
                            })?;
                        let label = label_text(label).ok_or_else(|| {
                            err(
                                format!("{at}.label"),
                                format!("must be a string, got {}", kind(label)),
                            )
                        })?;
                        let value = o.get("value").or_else(|| o.get("y")).ok_or_else(|| {
                            err(
                                format!("{at}.value"),
                                "is missing; every point needs a numeric value",
                            )
                        })?;
                        // A scatter's position (kept where the chart has an x scale).
                        let x = o.get("x").and_then(Value::as_f64).filter(|x| x.is_finite());
                        add(label, value, x);
                    }
                    Value::Array(pair) if pair.len() == 2 => {
                        let label = label_text(&pair[0]).ok_or_else(|| {
                            err(
                                format!("{at}[0]"),
                                format!("must be a string label, got {}", kind(&pair[0])),
                            )
                        })?;
                        add(label, &pair[1], None);
                    }
                    other => {
                        return Err(err(
                            at,
                            format!(
                                r#"must be an object like {{"label": "M5 CS", "value": 2.9}}, got {}"#,
                                kind(other)
                            ),
                        ));
                    }
                }
            }
            Ok(())
        }
        Value::Object(map) => {
            for (k, v) in map {
                add(k.clone(), v, None);
            }
            Ok(())
        }
        other => Err(err(
            path,
            format!(
                r#"must be an array of points like [{{"label": "M5 CS", "value": 2.9}}], got {}"#,
                kind(other)
            ),
        )),
    }
}

/// Normalizes a `render_visualization` call as the tool would.
///
/// The data comes from `series` (`[{name, points: [{label, value}]}]`) or,
/// when that is absent, from `inputText` (CSV, TSV, Markdown table or JSON,
/// through [`parse_text`]). Labels may be numbers (they become strings);
/// values may be numbers or numeric strings (`"2.9s"`; a common suffix
/// becomes `unit` when none is given). Non-finite or unreadable values are
/// dropped and listed in [`Normalized::non_finite`]. `maxPoints` is clamped
/// to 200; `bar` and `table` take one series. A missing `chartType` is
/// inferred (line for dates, years and ordered numbers, else bar).
/// gemline also reads `keep` (`top`, `first`, `last`) and `downsample`
/// (`even`, `minmax`, `lttb`).
pub fn chart_from_tool_args(args: &Value) -> Result<Normalized, ToolArgsError> {
    let obj = args.as_object().ok_or_else(|| {
        err(
            "arguments",
            format!("must be a JSON object, got {}", kind(args)),
        )
    })?;
    let opts = options(obj)?;
    let extras = kinds::extras(obj)?;
    let series = obj.get("series").filter(|v| !v.is_null());
    let Some(series) = series else {
        let mut n = from_input_text(obj, &opts)?;
        n.chart.series_label = extras.series_label;
        kinds::apply_drawing(&mut n.chart, extras.drawing)?;
        return Ok(n);
    };
    let mut dropped = Vec::new();
    let (built, panels) = read_series(series, &mut dropped)?;
    let chart_type = opts.chart.unwrap_or_else(|| {
        if built.len() > 1 || looks_ordered(built[0].1.iter().map(|(p, _)| p.label.as_str())) {
            ChartType::Line
        } else {
            ChartType::Bar
        }
    });
    let unit = opts.unit.clone().or_else(|| unit_of(&built));
    let mut chart = Chart {
        chart_type,
        title: opts.title.clone(),
        subtitle: opts.subtitle.clone(),
        x_label: opts.x_label.clone(),
        y_label: opts.y_label.clone(),
        unit,
        series: built
            .into_iter()
            .map(|(name, pts)| Series {
                name,
                facet: None,
                points: pts.into_iter().map(|(p, _)| p).collect(),
            })
            .collect(),
        series_label: extras.series_label,
        ..Chart::default()
    };
    // Series left without points go now (normalize would drop them), so
    // the panels the others name stay beside them.
    let panels: Vec<Option<String>> = chart
        .series
        .iter()
        .zip(panels)
        .filter(|(s, _)| !s.points.is_empty())
        .map(|(_, p)| p)
        .collect();
    chart.series.retain(|s| !s.points.is_empty());
    let mut max_points = opts
        .max_points
        .unwrap_or(spec::DEFAULT_MAX_POINTS)
        .min(spec::HARD_MAX_POINTS);
    if chart_type == ChartType::Box {
        chart.series = kinds::boxes(std::mem::take(&mut chart.series));
        max_points = kinds::BOX_POINTS;
    }
    kinds::place_x(&mut chart, &extras.drawing)?;
    let nopts = NormalizeOptions {
        max_points,
        sort: opts.sort.unwrap_or_default(),
        reduction: opts.reduction_for(chart_type),
    };
    let before = chart.series.clone();
    let mut n = normalize(chart, &nopts, dropped)?;
    kinds::restore(&before, &mut n.chart.series);
    kinds::apply_facet(&mut n.chart, extras.facet, &panels)?;
    n.chart
        .validate()
        .map_err(|e| err("series[].facet", e.to_string()))?;
    kinds::apply_drawing(&mut n.chart, extras.drawing)?;
    Ok(n)
}

/// Series read from the arguments: each one's name and its points, with
/// the text each value was written as.
type Built = Vec<(String, Vec<(Point, String)>)>;

/// The chart of an argument object without `series`: its `inputText`.
fn from_input_text(
    obj: &Map<String, Value>,
    opts: &ParseOptions,
) -> Result<Normalized, ToolArgsError> {
    match obj.get("inputText") {
        Some(Value::String(text)) if !text.trim().is_empty() => {
            parse_text(text, opts).map_err(|e| match e {
                ParseError::Data(m) | ParseError::Usage(m) => err(
                    "inputText",
                    format!("could not be read as data: {}", first_paragraph(&m)),
                ),
                ParseError::Io(e) => err("inputText", e.to_string()),
                ParseError::Write(e) => err("inputText", e.to_string()),
            })
        }
        Some(Value::String(_)) | None | Some(Value::Null) => Err(err(
            "series",
            "is missing: give series (an array of {name, points}) or inputText",
        )),
        Some(other) => Err(err(
            "inputText",
            format!(
                "must be a string of CSV, Markdown or JSON text, got {}",
                kind(other)
            ),
        )),
    }
}

/// `series`: one `{name, points}` object or an array of them, at least
/// one; with the panel each names (`facet`).
fn read_series(
    series: &Value,
    dropped: &mut Vec<(String, String)>,
) -> Result<(Built, Vec<Option<String>>), ToolArgsError> {
    let list: Vec<&Value> = match series {
        Value::Array(a) => a.iter().collect(),
        Value::Object(_) => vec![series],
        other => {
            return Err(err(
                "series",
                format!(
                    "must be an array of {{name, points}} objects, got {}",
                    kind(other)
                ),
            ));
        }
    };
    if list.is_empty() {
        return Err(err(
            "series",
            "is empty: give at least one series with points",
        ));
    }
    let mut built: Built = Vec::new();
    let mut panels = Vec::new();
    for (i, s) in list.iter().enumerate() {
        let path = format!("series[{i}]");
        let o = s.as_object().ok_or_else(|| {
            err(
                path.clone(),
                format!(
                    "must be an object {{\"name\": ..., \"points\": [...]}}, got {}",
                    kind(s)
                ),
            )
        })?;
        let name = match o.get("name") {
            Some(v) => label_text(v).unwrap_or_default(),
            None => String::new(),
        };
        let name = if name.is_empty() {
            if list.len() == 1 {
                "value".to_string()
            } else {
                format!("series {}", i + 1)
            }
        } else {
            name
        };
        panels.push(match o.get("facet") {
            None | Some(Value::Null) => None,
            Some(v) => Some(label_text(v).ok_or_else(|| {
                err(
                    format!("{path}.facet"),
                    format!("must be the panel's name, a string, got {}", kind(v)),
                )
            })?),
        });
        let mut pts = Vec::new();
        match (o.get("points").or_else(|| o.get("data")), o.get("values")) {
            (Some(p), _) => points(p, &format!("{path}.points"), &name, &mut pts, dropped)?,
            // Raw values (a box plot's group): labelled by their place.
            (None, Some(Value::Array(vs))) => {
                let as_points: Vec<Value> = vs
                    .iter()
                    .enumerate()
                    .map(|(j, v)| Value::Array(vec![Value::from((j + 1).to_string()), v.clone()]))
                    .collect();
                points(
                    &Value::Array(as_points),
                    &format!("{path}.values"),
                    &name,
                    &mut pts,
                    dropped,
                )?;
            }
            _ => {
                return Err(err(
                    format!("{path}.points"),
                    "is missing: every series needs points (or, for a box plot, values: an array of numbers)",
                ));
            }
        }
        built.push((name, pts));
    }
    Ok((built, panels))
}

/// The chart normalized, the points dropped while reading listed first in
/// its `non_finite`; its errors said in the arguments' terms.
fn normalize(
    chart: Chart,
    nopts: &NormalizeOptions,
    mut dropped: Vec<(String, String)>,
) -> Result<Normalized, ToolArgsError> {
    match spec::normalize(chart, nopts) {
        Ok(mut n) => {
            dropped.append(&mut n.non_finite);
            n.non_finite = dropped;
            Ok(n)
        }
        Err(SpecError::TooManySeries {
            chart,
            count,
            names,
        }) => Err(err(
            "series",
            format!(
                "chartType {chart:?} takes exactly one series, got {count} ({names}): use chartType \"bar\", \"line\", \"heatmap\" or \"spark\" for several series, or send one series"
            ),
        )),
        Err(SpecError::NoPoints { .. }) => Err(err(
            "series[].points[].value",
            format!(
                "no point has a finite numeric value{}: values must be numbers like 2.9 or numeric strings like \"2.9s\"",
                if dropped.is_empty() {
                    String::new()
                } else {
                    format!(
                        " ({} dropped, e.g. label {:?})",
                        dropped.len(),
                        dropped[0].1
                    )
                }
            ),
        )),
        Err(SpecError::Invalid(m)) => Err(err("series", m)),
    }
}

/// The one unit every string value was written with, if they agree.
fn unit_of(built: &[(String, Vec<(Point, String)>)]) -> Option<String> {
    let mut unit: Option<&str> = None;
    for (_, pts) in built {
        for (_, u) in pts {
            if u.is_empty() {
                continue;
            }
            match unit {
                None => unit = Some(u),
                Some(x) if x == u => {}
                Some(_) => return None,
            }
        }
    }
    unit.map(str::to_string)
}

/// The error without its examples block (inputText errors get the tool's).
fn first_paragraph(m: &str) -> &str {
    m.split("\n\n").next().unwrap_or(m).trim_end()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bmw_bar() {
        let n = chart_from_tool_args(&json!({
            "chartType": "bar", "unit": "s",
            "series": [{"name": "0-60", "points": [
                {"label": "M5 CS", "value": 2.9}, {"label": "M8", "value": "3.0s"},
                {"label": "X", "value": null}]}]
        }))
        .unwrap();
        assert_eq!(n.chart.series[0].points.len(), 2);
        assert_eq!(n.non_finite, vec![("0-60".into(), "X".into())]);
    }

    #[test]
    fn errors_name_the_field() {
        let e = chart_from_tool_args(&json!({"chartType": "pie", "series": []})).unwrap_err();
        assert_eq!(e.field, "chartType");
        let e = chart_from_tool_args(
            &json!({"chartType": "bar", "series": [{"name": "a", "points": 3}]}),
        )
        .unwrap_err();
        assert_eq!(e.field, "series[0].points");
        assert!(e.to_string().contains("inputText"));
    }
}
