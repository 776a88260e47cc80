//! The tools gem-ask offers the model: their declarations (in the
//! OpenAPI-subset `parameters` form every Gemini model accepts; JSON-Schema
//! keywords such as `additionalProperties` there are a 400, fixture 21) and
//! their execution, which turns a call into events for the user and a
//! `functionResponse` for the model.
//!
//! - `render_visualization`: validates and normalizes the chart, emits
//!   `tool_use`, `visualization`, `tool_result`; answers the model with a
//!   short factual summary and a preview of the data (and how ambiguous
//!   `inputText` was read, also said once on stderr), or with the error and
//!   an accepted example so it can correct itself in the next round.
//! - `create_new_topic`: sets the active topic (a chapter), emits `topic`,
//!   answers with a one-line confirmation.
//! - `plot`: a layered chart of the plot grammar, see [`super::plot`].

use serde_json::{Value, json};

use super::toolbox::{Done, Failed, Ran, ResultExt};
use crate::events::Event;
use crate::spec;

pub const RENDER_VISUALIZATION: &str = "render_visualization";
pub use super::plot::PLOT;
pub use crate::topic::CREATE_NEW_TOPIC;

/// Every tool, in declaration order.
pub const ALL: &[&str] = &[RENDER_VISUALIZATION, CREATE_NEW_TOPIC, PLOT];

const VIZ_EXAMPLE: &str = r#"{"chartType":"bar","title":"BMW 0-60 mph","xLabel":"Model","yLabel":"0-60 mph","unit":"s","sort":"asc","series":[{"name":"0-60 mph","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition","value":3.0},{"label":"M3 Competition xDrive","value":3.4}]}]}"#;

/// The `FunctionDeclaration` of a tool.
pub fn declaration(name: &str) -> Value {
    match name {
        RENDER_VISUALIZATION => json!({
            "name": RENDER_VISUALIZATION,
            "description": format!(
                "Draws a bar chart, line chart or table in the user's terminal from structured data. \
                 Use it when the user asks to compare, chart, trend or show tabular metrics, after \
                 gathering or computing the numbers. bar and table take exactly one series; line takes \
                 one or more series (for trends over time, points in chronological order). Values are \
                 plain numbers; put the unit in `unit`. Example (BMW 0-60 comparison): {VIZ_EXAMPLE}"
            ),
            "parameters": {
                "type": "OBJECT",
                "properties": {
                    "chartType": {"type": "STRING", "enum": ["bar", "line", "table"],
                                  "description": "bar: compare categories; line: trend over an ordered axis; table: exact values."},
                    "title": {"type": "STRING", "description": "Chart title."},
                    "subtitle": {"type": "STRING", "description": "One line under the title, e.g. the source or year."},
                    "xLabel": {"type": "STRING", "description": "What the labels are, e.g. Model or Year."},
                    "yLabel": {"type": "STRING", "description": "What the values measure, e.g. 0-60 mph."},
                    "unit": {"type": "STRING", "description": "Unit of the values, e.g. s, %, units."},
                    "series": {
                        "type": "ARRAY",
                        "description": "Data series: one for bar and table, one or more for line.",
                        "items": {
                            "type": "OBJECT",
                            "properties": {
                                "name": {"type": "STRING", "description": "Series name (legend)."},
                                "points": {
                                    "type": "ARRAY",
                                    "items": {
                                        "type": "OBJECT",
                                        "properties": {
                                            "label": {"type": "STRING", "description": "Category or x value, e.g. M5 CS or 2021."},
                                            "value": {"type": "NUMBER", "description": "Finite number."}
                                        },
                                        "required": ["label", "value"]
                                    }
                                }
                            },
                            "required": ["name", "points"]
                        }
                    },
                    "sort": {"type": "STRING", "enum": ["none", "asc", "desc"],
                             "description": "Order of a bar or table by value; lines keep their order."},
                    "maxPoints": {"type": "INTEGER", "description": "Most points per series to show (default 30, at most 200)."},
                    "keep": {"type": "STRING", "enum": ["top", "first", "last"],
                             "description": "bar or table with more than maxPoints points: keep the largest (top, default), the first or the last ones (last N years)."},
                    "downsample": {"type": "STRING", "enum": ["even", "minmax", "lttb"],
                                   "description": "line with more than maxPoints points: even sampling (default), or minmax / lttb to keep peaks."},
                    "inputText": {"type": "STRING", "description": "Fallback when series is omitted: the data as CSV, a Markdown table or JSON."}
                },
                "required": ["chartType"]
            }
        }),
        CREATE_NEW_TOPIC => json!({
            "name": CREATE_NEW_TOPIC,
            "description": "Starts a new chapter of the work, shown to the user as a header. Call it when moving \
                            between major phases (for example Research -> Strategy -> Implementation), before \
                            that phase's other calls. Forward-only: do not reopen an earlier topic.",
            "parameters": {
                "type": "OBJECT",
                "properties": {
                    "title": {"type": "STRING", "description": "Short title of the new phase, e.g. Researching BMW data."}
                },
                "required": ["title"]
            }
        }),
        PLOT => super::plot::declaration(),
        other => panic!("no declaration for tool {other}"),
    }
}

/// The system prompt's lines for the declared tools.
pub fn guidance(tools: &[&str]) -> String {
    let mut g = String::new();
    if tools.contains(&RENDER_VISUALIZATION) {
        g.push_str(
            "When the user asks to compare, chart, trend or show tabular metrics, gather or compute the \
             data first, then call render_visualization with structured series. After it returns, answer \
             in one or two sentences; do not repeat the data as text.\n",
        );
    }
    if tools.contains(&PLOT) {
        g.push_str(super::plot::GUIDANCE);
    }
    if tools.contains(&CREATE_NEW_TOPIC) {
        g.push_str(
            "Use create_new_topic to organize your work into logical chapters: call it when moving between \
             major steps (e.g. Research -> Strategy -> Implementation). It is a forward-only marker.\n",
        );
    }
    g
}

/// What running one call produced (the form tests and older callers use;
/// gem-ask itself goes through [`super::toolbox::Toolbox::dispatch`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// For the user, in order (tool_use first, tool_result last).
    pub events: Vec<Event>,
    /// `functionResponse.response`.
    pub response: Value,
    /// Set by create_new_topic.
    pub new_topic: Option<String>,
}

/// Runs one call with its `tool_use` and `tool_result` around it. Unknown
/// or undeclared tools are an error answer, so the model can recover.
pub fn execute(name: &str, args: &Value, tool_id: &str, declared: &[&str]) -> Outcome {
    let mut events = vec![Event::tool_use(name, tool_id, args.clone())];
    let ran = if declared.contains(&name) {
        run(name, args, tool_id)
    } else {
        Ran::failed(Failed::unknown_tool(name, declared))
    };
    events.extend(ran.events);
    events.push(ran.result.result_event(tool_id));
    Outcome {
        events,
        response: ran.result.response(),
        new_topic: ran.new_topic,
    }
}

/// Runs one of [`ALL`]: the events between `tool_use` and `tool_result`
/// and what the model is answered.
pub fn run(name: &str, args: &Value, tool_id: &str) -> Ran {
    match name {
        // The same validation viz-parse applies to tool arguments; its error
        // names the field and carries accepted examples for the model's retry.
        RENDER_VISUALIZATION => match crate::parse::chart_from_tool_args(args) {
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
        },
        CREATE_NEW_TOPIC => {
            let title = args
                .get("title")
                .and_then(Value::as_str)
                .map(crate::topic::normalize_title)
                .unwrap_or_default();
            if title.is_empty() {
                return Ran::failed(Failed::new(
                    "invalid_arguments",
                    "create_new_topic: title is required, e.g. {\"title\":\"Researching BMW data\"}",
                ));
            }
            Ran {
                events: vec![Event::topic(&title, None)],
                result: Ok(Done::text(crate::topic::topic_changed_output(&title))),
                new_topic: Some(title),
            }
        }
        PLOT => {
            let plotted = super::plot::run(args, tool_id);
            Ran {
                events: plotted.events,
                result: plotted
                    .answer
                    .map(Done::text)
                    .map_err(|e| Failed::new("invalid_arguments", e)),
                new_topic: None,
            }
        }
        other => Ran::failed(Failed::unknown_tool(other, ALL)),
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

    #[test]
    fn the_canonical_example_renders() {
        let args: Value = serde_json::from_str(VIZ_EXAMPLE).unwrap();
        let out = execute(RENDER_VISUALIZATION, &args, "t1", ALL);
        let kinds: Vec<&str> = out.events.iter().map(Event::kind).collect();
        assert_eq!(kinds, ["tool_use", "visualization", "tool_result"]);
        assert_eq!(
            out.response["output"],
            "Rendered a bar chart \"BMW 0-60 mph\" with 1 series and 3 points. 0-60 mph: M5 CS=2.9 s, \
             M8 Competition=3 s, M3 Competition xDrive=3.4 s. The chart is on the user's screen."
        );
    }

    #[test]
    fn bad_arguments_answer_with_the_fix() {
        let out = execute(
            RENDER_VISUALIZATION,
            &json!({"chartType":"bar","series":[{"name":"a","points":[{"label":"x","value":"fast"}]}]}),
            "t1",
            ALL,
        );
        let err = out.response["error"].as_str().unwrap();
        assert!(err.starts_with("render_visualization: series"), "{err}");
        assert!(err.contains("\"chartType\":\"bar\""), "{err}");
        let out = execute(
            RENDER_VISUALIZATION,
            &json!({"chartType":"bar","inputText":"model,0-60 (s)\nM5 CS,2.9\nM8,3.0"}),
            "t",
            ALL,
        );
        assert_eq!(out.events[1].kind(), "visualization", "{:?}", out.response);
        assert!(
            out.response["output"]
                .as_str()
                .unwrap()
                .contains("M5 CS=2.9 s")
        );
    }

    #[test]
    fn declarations_use_only_the_openapi_subset() {
        // The v1beta `Schema` fields; anything else (additionalProperties,
        // $schema, const, ...) is the 400 of fixture 21.
        const SCHEMA_FIELDS: &[&str] = &[
            "type",
            "format",
            "title",
            "description",
            "nullable",
            "enum",
            "maxItems",
            "minItems",
            "properties",
            "required",
            "minProperties",
            "maxProperties",
            "minLength",
            "maxLength",
            "pattern",
            "example",
            "anyOf",
            "propertyOrdering",
            "default",
            "items",
            "minimum",
            "maximum",
        ];
        const TYPES: &[&str] = &[
            "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL",
        ];
        fn walk(schema: &Value, at: &str) {
            let m = schema
                .as_object()
                .unwrap_or_else(|| panic!("{at}: not an object"));
            for (k, v) in m {
                assert!(SCHEMA_FIELDS.contains(&k.as_str()), "{at}: {k}");
                match k.as_str() {
                    "type" => assert!(TYPES.contains(&v.as_str().unwrap()), "{at}: {v}"),
                    "properties" => {
                        for (name, sub) in v.as_object().unwrap() {
                            walk(sub, &format!("{at}.{name}"));
                        }
                    }
                    "items" => walk(v, &format!("{at}[]")),
                    "required" => {
                        let props = m["properties"].as_object().unwrap();
                        for r in v.as_array().unwrap() {
                            assert!(props.contains_key(r.as_str().unwrap()), "{at}: {r}");
                        }
                    }
                    _ => {}
                }
            }
        }
        for t in ALL.iter().filter(|t| **t != PLOT) {
            let d = declaration(t);
            let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
            assert_eq!(keys, ["name", "description", "parameters"]);
            walk(&d["parameters"], t);
        }
    }
}
