//! The `plot` tool: the model describes a layered chart in the plot
//! grammar (VisualChartV1, docs/events.md) and gem-ask validates it with
//! the grammar's own rules before anything reaches the user.
//!
//! A valid spec becomes a `ui` event (kind `chart`, version 1) between the
//! call's `tool_use` and `tool_result`, and the model is told in one line
//! what was drawn. An invalid one is not drawn: the model gets every
//! violation (rule, path, what is accepted) so it can fix the spec in the
//! next round, and when the call carried a `fallbackText` the user gets
//! that text instead, as a `ui` event every viewer shows as its fallback.
//!
//! Declared with `parametersJsonSchema` (full JSON Schema): rows are
//! objects with the caller's own keys, which the OpenAPI subset of
//! `parameters` cannot say (an OBJECT there needs fixed properties).

use serde_json::{Value, json};

use crate::agent::toolbox::{Done, Failed, Level, Ran, Source, Tool};
use crate::events::Event;
use crate::spec::grammar::{self, Aggregate, ChartSpec, Limits, MarkKind};

pub const PLOT: &str = "plot";

/// The tool (`auto`, declared by default).
pub fn tool() -> Tool {
    Tool::new(declaration(), Source::Builtin, Level::Auto, |args, ctx| {
        let plotted = run(args, ctx.tool_id);
        Ran {
            events: plotted.events,
            result: plotted
                .answer
                .map(Done::text)
                .map_err(|e| Failed::new("invalid_arguments", e)),
            new_topic: None,
        }
    })
    .with_guidance(super::place::PLOT, |_| GUIDANCE.to_string())
}

/// The worked example the description carries: pace and heart rate over
/// distance, a rule at 5 km, pace inverted (faster is up).
const EXAMPLE: &str = r#"{"title":"Run overview","fallbackText":"Pace and heart rate over 10 km; 5K mark at 5 km","spec":{"dataset":{"rows":[{"km":0,"pace":300,"hr":128},{"km":5,"pace":307,"hr":146},{"km":10,"pace":312,"hr":150}]},"fields":{"km":{"type":"number","label":"Distance","unit":"km"},"pace":{"type":"number","label":"Pace","unit":"s/km"},"hr":{"type":"number","label":"Heart rate","unit":"bpm"}},"marks":[{"type":"line","x":"km","y":"pace","series":"pace"},{"type":"line","x":"km","y":"hr","series":"hr"},{"type":"rule","xValue":5,"label":"5K"}],"axes":{"x":{"label":"Distance (km)"},"y":{"label":"Pace (s/km), heart rate (bpm)","invert":true}}}}"#;

/// The `FunctionDeclaration`.
fn declaration() -> Value {
    let operand = json!({"type": ["number", "string"],
        "description": "A field name, or a constant: a number, an ISO 8601 date, a category."});
    let axis = json!({"type": "object", "properties": {
        "label": {"type": "string"},
        "invert": {"type": "boolean", "description": "Larger values toward the origin."},
        "domain": {"type": "array", "items": {"type": ["number", "string"]}, "minItems": 2, "maxItems": 2}
    }});
    let marks: Vec<&str> = MarkKind::ALL.iter().map(|k| k.as_str()).collect();
    let aggregates: Vec<&str> = Aggregate::ALL.iter().map(|a| a.as_str()).collect();
    json!({
        "name": PLOT,
        "description": format!(
            "Draws a layered chart in the user's terminal: several marks on one pair of axes, for what \
             render_visualization cannot show (two measures over one x, an area or band, points, a \
             reference line, a shaded range, a share of a whole). The spec holds the rows once \
             (dataset.rows, objects), declares each column in fields (type number, string or date \
             (ISO 8601), label, unit) and lists marks drawn in order: line/point/bar {{x, y, series}}, \
             area {{x, y}} or a band {{x, yStart, yEnd}}, rectangle {{xStart, xEnd, yStart, yEnd}} \
             (a missing pair spans the plot), rule {{xValue or yValue, label}}, sector {{angle, \
             category}} (alone), and, each a chart of its own (not with marks on axes; several \
             are drawn one under another, titled by their label): rect {{x, y, color, aggregate}} \
             (a heatmap: a cell per x and y value, colored by the rows' color field summed, or \
             aggregated by count, sum, mean, median, min or max; without color the rows counted), \
             boxplot {{x, y}} (a number field on one for the values, a field of groups on the \
             other or none; whiskers at 1.5 IQR, outliers past them). x, y, angle, category and \
             color name fields; series names a string field \
             (one series per value) or is the series' name. At most 5,000 rows. A spec that breaks a \
             rule is not drawn: the answer lists each problem, fix them and call again. Example \
             (pace and heart rate over a 10 km run, with a 5K rule): {EXAMPLE}"
        ),
        "parametersJsonSchema": {
            "type": "object",
            "properties": {
                "title": {"type": "string", "description": "Chart title."},
                "fallbackText": {"type": "string",
                    "description": "One sentence saying what the chart shows, shown where it cannot be drawn."},
                "spec": {
                    "type": "object",
                    "description": "VisualChartV1.",
                    "properties": {
                        "dataset": {"type": "object", "properties": {
                            "rows": {"type": "array", "items": {"type": "object"},
                                     "description": "One object per row; a missing or null cell is a gap."}
                        }, "required": ["rows"]},
                        "fields": {"type": "object", "additionalProperties": {
                            "type": "object",
                            "properties": {
                                "type": {"type": "string", "enum": ["number", "string", "date"]},
                                "label": {"type": "string"},
                                "unit": {"type": "string"}
                            },
                            "required": ["type"]
                        }},
                        "marks": {"type": "array", "items": {"type": "object", "properties": {
                            "type": {"type": "string", "enum": marks},
                            "x": {"type": "string"}, "y": {"type": "string"},
                            "xStart": operand, "xEnd": operand, "yStart": operand, "yEnd": operand,
                            "xValue": operand, "yValue": operand,
                            "series": {"type": "string"}, "label": {"type": "string"},
                            "angle": {"type": "string"}, "category": {"type": "string"},
                            "color": {"type": "string"},
                            "aggregate": {"type": "string", "enum": aggregates}
                        }, "required": ["type"]}},
                        "axes": {"type": "object", "properties": {"x": axis, "y": axis}},
                        "interaction": {"type": "object",
                            "description": "Kept for viewers that can interact; not drawn in a terminal."}
                    },
                    "required": ["dataset", "marks"]
                }
            },
            "required": ["spec"]
        }
    })
}

/// The system prompt's line for the tool.
const GUIDANCE: &str = "For layered charts (two measures over one axis, bands, reference lines, \
    points, areas, shares, heatmaps, box plots) call plot with a VisualChartV1 spec and a fallbackText; when it answers \
    with problems, fix exactly those and call it again. After it draws, answer in one or two \
    sentences; do not repeat the data as text.\n";

/// What one call produced: the events between `tool_use` and
/// `tool_result`, and the answer (the model's summary, or the problems).
#[derive(Debug, Clone, PartialEq)]
pub struct Plotted {
    pub events: Vec<Event>,
    // String errors kept: both sides are text for the model (its summary or
    // its problems), not an error the program handles.
    pub answer: Result<String, String>,
}

/// Validates the call's spec and turns it into a `ui` event.
pub fn run(args: &Value, tool_id: &str) -> Plotted {
    let text = |k: &str| {
        args.get(k)
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty())
    };
    let (title, fallback) = (text("title"), text("fallbackText"));
    // A model may send the spec as JSON text; it means the same object.
    let parsed;
    let spec = match args.get("spec") {
        Some(Value::String(s)) => {
            parsed = serde_json::from_str::<Value>(s).unwrap_or(Value::String(s.clone()));
            Some(&parsed)
        }
        other => other,
    };
    let Some(spec) = spec else {
        return Plotted {
            events: Vec::new(),
            answer: Err(format!(
                "plot: spec is missing; write it as in this example: {EXAMPLE}"
            )),
        };
    };
    match grammar::validate_spec(spec, &Limits::default()) {
        Ok(valid) => Plotted {
            events: vec![grammar::ui_event(tool_id, title, &valid.spec, fallback)],
            answer: Ok(summary(title, &valid.spec, &valid.trimmed)),
        },
        Err(why) => {
            let mut events = Vec::new();
            if let Some(f) = fallback {
                let mut e = Event(Default::default());
                for (k, v) in [
                    ("type", "ui"),
                    ("id", tool_id),
                    ("kind", grammar::KIND_CHART),
                ] {
                    e.set(k, v);
                }
                e.set("version", grammar::VERSION);
                if let Some(t) = title {
                    e.set("title", t);
                }
                e.set("spec", spec.clone());
                e.set("fallbackText", f);
                events.push(e);
            }
            Plotted {
                events,
                answer: Err(format!(
                    "plot: the spec was not drawn. Fix each problem and call plot again:\n{why}"
                )),
            }
        }
    }
}

/// The model's view of a drawn chart, in one line.
pub fn summary(title: Option<&str>, spec: &ChartSpec, trimmed: &[String]) -> String {
    let title = title.map(|t| format!(" \"{t}\"")).unwrap_or_default();
    let axis = |x: bool| {
        let mut names: Vec<&str> = Vec::new();
        for m in &spec.marks {
            if let Some(f) = if x { &m.x } else { &m.y }
                && !names.contains(&f.as_str())
            {
                names.push(f);
            }
        }
        names.join(", ")
    };
    let mut s = format!("Drew{title}: {}", spec.summary());
    let (x, y) = (axis(true), axis(false));
    if !x.is_empty() {
        s.push_str(&format!("; x: {x} ({})", spec.axis_type(true).as_str()));
    }
    if !y.is_empty() {
        s.push_str(&format!("; y: {y}"));
    }
    s.push('.');
    if !trimmed.is_empty() {
        s.push_str(&format!(
            " Ignored unknown members: {}.",
            trimmed.join(", ")
        ));
    }
    s.push_str(" The chart is on the user's screen.");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worked_example_draws_and_is_summarized() {
        let args: Value = serde_json::from_str(EXAMPLE).unwrap();
        let p = run(&args, "t1");
        assert_eq!(p.events.len(), 1);
        assert_eq!(p.events[0].kind(), "ui");
        assert_eq!(p.events[0].str_field("id"), Some("t1"));
        assert_eq!(
            p.answer.unwrap(),
            "Drew \"Run overview\": 2 line marks, 1 rule mark over 3 rows; x: km (number); \
             y: pace, hr. The chart is on the user's screen."
        );
    }

    #[test]
    fn an_invalid_spec_answers_with_every_problem_and_shows_the_fallback() {
        let args = json!({"fallbackText": "fb", "spec": {"dataset": {"rows": [{"a": 1}]},
            "marks": [{"type": "line", "x": "a", "y": "b"}, {"type": "point", "x": "c", "y": "a"}]}});
        let p = run(&args, "t1");
        let err = p.answer.unwrap_err();
        assert!(
            err.contains("spec.marks[0].y") && err.contains("spec.marks[1].x"),
            "{err}"
        );
        assert!(err.contains("rule encoding-field"), "{err}");
        assert_eq!(p.events.len(), 1, "the fallback text as a ui event");
        assert_eq!(p.events[0].str_field("fallbackText"), Some("fb"));
        let p = run(&json!({"spec": {"marks": []}}), "t2");
        assert!(p.events.is_empty() && p.answer.is_err());
        assert!(
            run(&json!({}), "t3")
                .answer
                .unwrap_err()
                .contains("spec is missing")
        );
    }

    #[test]
    fn a_spec_sent_as_json_text_is_read() {
        let args: Value = serde_json::from_str(EXAMPLE).unwrap();
        let text = json!({"spec": args["spec"].to_string()});
        assert!(run(&text, "t").answer.is_ok());
    }

    #[test]
    fn the_declaration_is_json_schema_with_every_mark() {
        let d = declaration();
        let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["name", "description", "parametersJsonSchema"]);
        let kinds = &d["parametersJsonSchema"]["properties"]["spec"]["properties"]["marks"]["items"]
            ["properties"]["type"]["enum"];
        assert_eq!(kinds.as_array().unwrap().len(), MarkKind::ALL.len());
        assert!(d["description"].as_str().unwrap().contains(EXAMPLE));
    }
}
