//! `render_visualization`: a bar chart, line chart, table, sparklines,
//! heatmap, box plot or scatter from structured data, with what the chart
//! event carries besides (stacked bars, log scales, a trend, small
//! multiples; docs/events.md). The call is validated and normalized as viz-parse
//! reads tool arguments; the chart becomes a `visualization` event between
//! `tool_use` and `tool_result`, and the model is answered with a short
//! factual summary and a preview of the data (and how an ambiguous
//! `inputText` was read, also said once on stderr), or with the error and
//! an accepted example so it can correct itself in the next round.

use serde_json::{Value, json};

use crate::agent::toolbox::{Done, Failed, Level, Ran, Source, Tool};
use crate::spec;

pub const RENDER_VISUALIZATION: &str = "render_visualization";

const VIZ_EXAMPLE: &str = r#"{"chartType":"bar","title":"BMW 0-60 mph","xLabel":"Model","yLabel":"0-60 mph","unit":"s","sort":"asc","series":[{"name":"0-60 mph","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition","value":3.0},{"label":"M3 Competition xDrive","value":3.4}]}]}"#;

/// The system prompt's paragraph.
const GUIDANCE: &str = "When the user asks to compare, chart, trend or show tabular metrics, gather or compute the \
             data first, then call render_visualization with structured series. After it returns, answer \
             in one or two sentences; do not repeat the data as text.\n";

/// The tool (`auto`, declared by default).
pub fn tool() -> Tool {
    Tool::new(declaration(), Source::Builtin, Level::Auto, |args, ctx| {
        run(args, ctx.tool_id)
    })
    .with_guidance(super::place::CHART, |_| GUIDANCE.to_string())
}

/// The `FunctionDeclaration` (OpenAPI subset).
fn declaration() -> Value {
    json!({
        "name": RENDER_VISUALIZATION,
        "description": format!(
            "Draws a chart in the user's terminal from structured data. Use it when the user asks \
             to compare, chart, trend or show tabular metrics, after gathering or computing the \
             numbers. table takes exactly one series; the other kinds take one or more. line: \
             trends, points in chronological order. bar: several series are bars side by side per \
             label, or stacked with stack. heatmap: one series per row, its points the cells \
             (label = column). box: one series per group with its raw numbers in values (the tool \
             computes quartiles, whiskers and outliers). spark: one sparkline per series. point: a \
             scatter, each point with a number x. Small multiples: set facet to the panels' field \
             and give each series the panel it belongs to in its facet. Values are plain numbers; \
             put the unit in `unit`. Example (BMW 0-60 comparison): {VIZ_EXAMPLE}"
        ),
        "parameters": {
            "type": "OBJECT",
            "properties": {
                "chartType": {"type": "STRING", "enum": ["bar", "line", "table", "spark", "heatmap", "box", "point"],
                              "description": "bar: compare categories (several series: grouped, or stacked with stack); line: trend over an ordered axis; table: exact values; spark: one sparkline per series with its last value, min and max; heatmap: a grid, a series per row and a point per cell; box: the spread of each group's values; point: a scatter of x against value."},
                "title": {"type": "STRING", "description": "Chart title."},
                "subtitle": {"type": "STRING", "description": "One line under the title, e.g. the source or year."},
                "xLabel": {"type": "STRING", "description": "What the labels are, e.g. Model or Year."},
                "yLabel": {"type": "STRING", "description": "What the values measure, e.g. 0-60 mph."},
                "unit": {"type": "STRING", "description": "Unit of the values, e.g. s, %, units."},
                "seriesLabel": {"type": "STRING", "description": "What the series are, e.g. Region: a heatmap's rows, a box plot's groups."},
                "series": {
                    "type": "ARRAY",
                    "description": "Data series: one for table, one or more for the other kinds.",
                    "items": {
                        "type": "OBJECT",
                        "properties": {
                            "name": {"type": "STRING", "description": "Series name (legend; a heatmap's row; a box plot's group)."},
                            "facet": {"type": "STRING", "description": "With facet: the panel this series is drawn in, e.g. Europe."},
                            "values": {"type": "ARRAY", "items": {"type": "NUMBER"},
                                       "description": "box only, instead of points: the group's raw numbers."},
                            "points": {
                                "type": "ARRAY",
                                "items": {
                                    "type": "OBJECT",
                                    "properties": {
                                        "label": {"type": "STRING", "description": "Category or x value, e.g. M5 CS or 2021."},
                                        "value": {"type": "NUMBER", "description": "Finite number."},
                                        "x": {"type": "NUMBER", "description": "point (and a line with trend or xScale): the position on a number x axis."}
                                    },
                                    "required": ["label", "value"]
                                }
                            }
                        },
                        "required": ["name"]
                    }
                },
                "sort": {"type": "STRING", "enum": ["none", "asc", "desc"],
                         "description": "Order of a bar or table by value; lines keep their order."},
                "maxPoints": {"type": "INTEGER", "description": "Most points per series to show (default 30, at most 200)."},
                "keep": {"type": "STRING", "enum": ["top", "first", "last"],
                         "description": "bar or table with more than maxPoints points: keep the largest (top, default), the first or the last ones (last N years)."},
                "downsample": {"type": "STRING", "enum": ["even", "minmax", "lttb"],
                               "description": "line with more than maxPoints points: even sampling (default), or minmax / lttb to keep peaks."},
                "stack": {"type": "STRING", "enum": ["zero", "normalize"],
                          "description": "bar with several series: stacked end to end (zero) or as shares of 100% (normalize); absent: side by side."},
                "yScale": {"type": "STRING", "enum": ["linear", "log", "sqrt"],
                           "description": "line or point: the value axis' scale; log takes values above 0 (for data spanning powers of ten)."},
                "xScale": {"type": "STRING", "enum": ["linear", "log", "sqrt"],
                           "description": "point (or a line over numbers): the x axis' scale."},
                "trend": {"type": "STRING", "enum": ["linear", "loess"],
                          "description": "line over numbers or years, or point: a fitted trend drawn over the points (linear also gives slope and r squared)."},
                "facet": {
                    "type": "OBJECT",
                    "description": "Small multiples: the chart drawn once per panel; every series names its panel in its facet.",
                    "properties": {
                        "field": {"type": "STRING", "description": "What the panels are, e.g. Region."},
                        "columns": {"type": "INTEGER", "description": "Panels per row (default: as many as fit)."},
                        "scales": {"type": "STRING", "enum": ["shared", "free"],
                                   "description": "shared (default): one scale for all panels; free: each its own."}
                    },
                    "required": ["field"]
                },
                "inputText": {"type": "STRING", "description": "Fallback when series is omitted: the data as CSV, a Markdown table or JSON."}
            },
            "required": ["chartType"]
        }
    })
}

/// The events between `tool_use` and `tool_result`, and the answer.
fn run(args: &Value, tool_id: &str) -> Ran {
    // The same validation viz-parse applies to tool arguments; its error
    // names the field and carries accepted examples for the model's retry.
    match crate::parse::chart_from_tool_args(args) {
        Ok(n) => {
            // The user hears of a guess once, here; the model in the
            // summary, so it can say so or resend the data plainer.
            for note in &n.notes {
                crate::term::diag(format!(
                    "gem-ask: warning: render_visualization {tool_id}: inputText: {note}"
                ));
            }
            Ran {
                events: vec![n.chart.to_event()],
                result: Ok(Done::text(summarize(&n))),
                new_topic: None,
            }
        }
        Err(e) => Ran::failed(Failed::new(
            "invalid_arguments",
            format!("render_visualization: {e}"),
        )),
    }
}

/// The model's view of a rendered chart: what was drawn, in a few lines.
pub fn summarize(n: &spec::Normalized) -> String {
    let c = &n.chart;
    let unit = c
        .unit
        .as_deref()
        .map(|u| format!(" {u}"))
        .unwrap_or_default();
    let mut s = format!(
        "Rendered a {} chart{} with {} series and {} points.",
        c.chart_type.as_str(),
        c.title
            .as_deref()
            .map(|t| format!(" \"{t}\""))
            .unwrap_or_default(),
        c.series.len(),
        c.point_count()
    );
    if c.meta.truncated {
        s.push_str(&format!(
            " Showing {} of {} points ({}).",
            c.point_count(),
            c.meta.original_point_count,
            c.meta.reduction.map(|r| r.describe()).unwrap_or("reduced")
        ));
    }
    const PREVIEW: usize = 10;
    for series in &c.series {
        let shown: Vec<String> = series
            .points
            .iter()
            .take(PREVIEW)
            .map(|p| format!("{}={}{unit}", p.label, p.value))
            .collect();
        let more = series.points.len().saturating_sub(PREVIEW);
        s.push_str(&format!(" {}: {}", series.name, shown.join(", ")));
        if more > 0 {
            s.push_str(&format!(", ... ({more} more)"));
        }
        s.push('.');
    }
    if !n.non_finite.is_empty() {
        s.push_str(&format!(
            " Dropped {} points without a finite value.",
            n.non_finite.len()
        ));
    }
    if !n.notes.is_empty() {
        s.push_str(&format!(
            " Reading inputText took a guess; tell the user if it matters: {}",
            n.notes.join("; ")
        ));
        if !s.ends_with('.') {
            s.push('.');
        }
    }
    s.push_str(" The chart is on the user's screen.");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::toolbox::{ToolCall, Toolbox};
    use crate::events::Event;

    /// One call through the toolbox, as gem-ask makes it: the events and
    /// the model's `functionResponse.response`.
    fn execute(args: &Value, tool_id: &str) -> (Vec<Event>, Value) {
        let mut tb = Toolbox::charts_only(&[RENDER_VISUALIZATION]);
        let mut events = Vec::new();
        let d = tb
            .dispatch(
                &ToolCall {
                    name: RENDER_VISUALIZATION,
                    id: None,
                    args,
                    tool_id,
                },
                &mut |e| {
                    events.push(e);
                    Ok(())
                },
            )
            .unwrap();
        (events, d.part["functionResponse"]["response"].clone())
    }

    #[test]
    fn the_canonical_example_renders() {
        let args: Value = serde_json::from_str(VIZ_EXAMPLE).unwrap();
        let (events, response) = execute(&args, "t1");
        let kinds: Vec<&str> = events.iter().map(Event::kind).collect();
        assert_eq!(kinds, ["tool_use", "visualization", "tool_result"]);
        assert_eq!(
            response["output"],
            "Rendered a bar chart \"BMW 0-60 mph\" with 1 series and 3 points. 0-60 mph: M5 CS=2.9 s, \
             M8 Competition=3 s, M3 Competition xDrive=3.4 s. The chart is on the user's screen."
        );
    }

    #[test]
    fn bad_arguments_answer_with_the_fix() {
        let (_, response) = execute(
            &json!({"chartType":"bar","series":[{"name":"a","points":[{"label":"x","value":"fast"}]}]}),
            "t1",
        );
        let err = response["error"].as_str().unwrap();
        assert!(err.starts_with("render_visualization: series"), "{err}");
        assert!(err.contains("\"chartType\":\"bar\""), "{err}");
        let (events, response) = execute(
            &json!({"chartType":"bar","inputText":"model,0-60 (s)\nM5 CS,2.9\nM8,3.0"}),
            "t",
        );
        assert_eq!(events[1].kind(), "visualization", "{:?}", response);
        assert!(response["output"].as_str().unwrap().contains("M5 CS=2.9 s"));
    }

    /// The chart event of one call (panics on a refusal).
    fn chart_of(args: Value) -> Value {
        let (events, response) = execute(&args, "t");
        assert_eq!(events.len(), 3, "{response}");
        Value::Object(events[1].0.clone())
    }

    #[test]
    fn the_issue_36_kinds_and_fields_reach_the_event() {
        let heat = chart_of(
            json!({"chartType":"heatmap","seriesLabel":"Hour","xLabel":"Day",
            "series":[{"name":"9h","points":[{"label":"Mon","value":3},{"label":"Tue","value":5}]},
                      {"name":"10h","points":[{"label":"Mon","value":1}]}]}),
        );
        assert_eq!(heat["chartType"], "heatmap");
        assert_eq!(heat["seriesLabel"], "Hour");
        assert_eq!(heat["series"].as_array().unwrap().len(), 2);
        // Raw values become the five numbers and the outliers.
        let boxed = chart_of(json!({"chartType":"box","series":[
            {"name":"a","values":[1,2,3,4,5,6,7,8,100]},{"name":"b","values":[2,2,3]}]}));
        let labels: Vec<&str> = boxed["series"][0]["points"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["label"].as_str().unwrap())
            .collect();
        assert_eq!(labels, ["lower", "q1", "median", "q3", "upper", "outlier"]);
        assert_eq!(boxed["series"][0]["points"][2]["value"], 5.0);
        assert_eq!(boxed["series"][0]["points"][2]["count"], 9);
        let stacked = chart_of(json!({"chartType":"bar","stack":"normalize","series":[
            {"name":"EV","points":[{"label":"2023","value":1}]},{"name":"ICE","points":[{"label":"2023","value":3}]}]}));
        assert_eq!(stacked["stack"], "normalize");
        let faceted = chart_of(
            json!({"chartType":"line","facet":{"field":"Region","scales":"free"},"series":[
            {"name":"sales","facet":"EU","points":[{"label":"2023","value":1},{"label":"2024","value":2}]},
            {"name":"sales","facet":"US","points":[{"label":"2023","value":3},{"label":"2024","value":2}]}]}),
        );
        assert_eq!(faceted["facet"], json!({"field":"Region","scales":"free"}));
        assert_eq!(faceted["series"][1]["facet"], "US");
        let trend = chart_of(
            json!({"chartType":"line","trend":"linear","yScale":"log","series":[
            {"name":"users","points":[{"label":"2021","value":10},{"label":"2022","value":100},{"label":"2023","value":1000}]}]}),
        );
        assert_eq!(trend["xType"], "number");
        assert_eq!(trend["yScale"], "log");
        assert_eq!(trend["trend"]["fits"][0]["slope"], 495.0);
        let scatter = chart_of(json!({"chartType":"point","xScale":"log","series":[
            {"name":"life","points":[{"label":"NO","x":80000,"value":83},{"label":"IN","x":2500,"value":70}]}]}));
        assert_eq!(scatter["series"][0]["points"][0]["x"], 80000.0);
    }

    #[test]
    fn drawing_refusals_name_their_field() {
        for (args, field) in [
            (
                json!({"chartType":"line","stack":"zero","series":[{"name":"a","points":[{"label":"x","value":1}]}]}),
                "stack",
            ),
            (
                json!({"chartType":"line","yScale":"log","series":[{"name":"a","points":[{"label":"x","value":-1}]}]}),
                "yScale",
            ),
            (
                json!({"chartType":"line","trend":"linear","series":[{"name":"a","points":[{"label":"x","value":1}]}]}),
                "series[0].points[0].x",
            ),
            (
                json!({"chartType":"bar","trend":"cubic","series":[{"name":"a","points":[{"label":"x","value":1}]}]}),
                "trend",
            ),
            (
                json!({"chartType":"line","facet":"Region","series":[{"name":"a","points":[{"label":"x","value":1}]}]}),
                "series[0].facet",
            ),
        ] {
            let (events, response) = execute(&args, "t");
            assert_eq!(events.len(), 2, "{args}");
            let e = response["error"].as_str().unwrap();
            assert!(
                e.starts_with(&format!("render_visualization: {field}: ")),
                "{e}"
            );
        }
    }
}
