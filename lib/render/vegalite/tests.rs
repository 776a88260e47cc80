use serde_json::{Value, json};

use super::*;
use crate::spec::grammar::{Limits, validate_spec};

fn chart(v: Value) -> Chart {
    let c = Chart::from_value(&v).unwrap();
    c.validate().unwrap();
    c
}

fn grammar(spec: Value) -> Value {
    let valid = validate_spec(&spec, &Limits::default()).unwrap();
    grammar_spec(Some("t"), Some("fallback"), &valid.spec)
}

#[test]
fn a_bar_chart_is_horizontal_bars_in_input_order_with_the_unit_in_the_title() {
    let vl = chart_spec(&chart(json!({
        "chartType": "bar", "title": "0-60", "xLabel": "Model", "yLabel": "Time", "unit": "s",
        "series": [{"name": "s", "points": [{"label": "M5", "value": 2.9}, {"label": "M8", "value": 3.0}]}]
    })));
    assert_eq!(vl["$schema"], SCHEMA);
    assert_eq!(vl["title"]["text"], "0-60");
    assert_eq!(vl["mark"]["type"], "bar");
    assert_eq!(vl["encoding"]["y"]["sort"], Value::Null);
    assert_eq!(vl["encoding"]["y"]["title"], "Model");
    assert_eq!(vl["encoding"]["x"]["title"], "Time (s)");
    assert_eq!(
        vl["data"]["values"][1],
        json!({"label": "M8", "value": 3.0})
    );
}

#[test]
fn a_line_of_iso_dates_is_a_utc_time_axis_and_other_labels_stay_in_order() {
    let dated = chart_spec(&chart(json!({
        "chartType": "line",
        "series": [{"name": "a", "points": [{"label": "2026-03", "value": 1}, {"label": "2026-04-02", "value": 2}]},
                   {"name": "b", "points": [{"label": "2026-03", "value": 3}]}]
    })));
    assert_eq!(dated["encoding"]["x"]["type"], "temporal");
    assert_eq!(dated["encoding"]["x"]["scale"]["type"], "utc");
    assert_eq!(
        dated["data"]["values"][0]["label"],
        "2026-03-01T00:00:00.000Z"
    );
    assert_eq!(dated["encoding"]["color"]["field"], "series");
    let years = chart_spec(&chart(json!({
        "chartType": "line",
        "series": [{"name": "a", "points": [{"label": "2025", "value": 1}, {"label": "2024", "value": 2}]}]
    })));
    assert_eq!(years["encoding"]["x"]["type"], "ordinal");
    assert_eq!(years["encoding"]["x"]["sort"], Value::Null);
    assert!(years["encoding"].get("color").is_none());
}

#[test]
fn a_table_is_two_text_columns_under_their_headers() {
    let vl = chart_spec(&chart(json!({
        "chartType": "table", "xLabel": "Model", "yLabel": "Price", "unit": "$",
        "series": [{"name": "s", "points": [{"label": "M5", "value": 100000}]}]
    })));
    let cols = vl["hconcat"].as_array().unwrap();
    assert_eq!(cols[0]["title"], "Model");
    assert_eq!(cols[1]["title"], "Price ($)");
    assert_eq!(cols[1]["mark"]["align"], "right");
    assert_eq!(
        vl["data"]["values"][0],
        json!({"row": 0, "label": "M5", "value": 100000.0})
    );
}

#[test]
fn marks_share_the_axes_and_a_constant_rule_is_drawn_once_with_its_label() {
    let vl = grammar(json!({
        "dataset": {"rows": [{"km": 0, "pace": 300, "hr": 130}, {"km": 1, "pace": 290, "hr": 140}]},
        "fields": {"km": {"type": "number", "label": "Distance", "unit": "km"},
                   "pace": {"type": "number", "label": "Pace", "unit": "s/km"},
                   "hr": {"type": "number", "label": "HR", "unit": "bpm"}},
        "marks": [{"type": "line", "x": "km", "y": "pace", "series": "pace"},
                  {"type": "line", "x": "km", "y": "hr", "series": "hr"},
                  {"type": "rule", "xValue": 0.5, "label": "half"}],
        "axes": {"y": {"invert": true}}
    }));
    assert_eq!(vl["description"], "fallback");
    let layers = vl["layer"].as_array().unwrap();
    assert_eq!(layers.len(), 4, "two lines, a rule and its label");
    assert_eq!(layers[0]["encoding"]["x"]["title"], "Distance (km)");
    assert_eq!(layers[0]["encoding"]["y"]["title"], "Pace (s/km), HR (bpm)");
    assert_eq!(layers[0]["encoding"]["y"]["scale"]["reverse"], true);
    assert_eq!(layers[0]["encoding"]["y"]["scale"]["zero"], false);
    assert_eq!(layers[1]["encoding"]["color"]["datum"], "hr");
    assert_eq!(layers[2]["encoding"]["x"]["datum"], 0.5);
    assert_eq!(layers[2]["data"]["values"], json!([{}]));
    assert_eq!(layers[3]["encoding"]["text"]["value"], "half");
}

#[test]
fn dates_are_utc_instants_and_field_names_are_escaped() {
    let vl = grammar(json!({
        "dataset": {"rows": [{"day": "2026-03-01T07:30", "a.b[0]": 1}, {"day": "2026-03-02", "a.b[0]": 2}]},
        "fields": {"day": {"type": "date"}, "a.b[0]": {"type": "number"}},
        "marks": [{"type": "bar", "x": "day", "y": "a.b[0]"},
                  {"type": "rectangle", "xStart": "2026-03-01", "xEnd": "2026-03-02", "label": "lap"}]
    }));
    assert_eq!(vl["data"]["values"][0]["day"], "2026-03-01T07:30:00.000Z");
    let layers = vl["layer"].as_array().unwrap();
    let rect = &layers[0];
    assert_eq!(rect["mark"]["type"], "rect");
    assert_eq!(rect["encoding"]["x"]["datum"], 1_772_323_200_000.0);
    assert_eq!(rect["encoding"]["y2"]["value"], "height");
    let bar = &layers[2];
    assert_eq!(bar["encoding"]["y"]["field"], "a\\.b\\[0\\]");
    assert_eq!(bar["encoding"]["y"]["stack"], Value::Null);
    assert_eq!(bar["encoding"]["x"]["field"], "__x0");
    assert_eq!(bar["encoding"]["x"]["scale"]["type"], "utc");
    let calc = bar["transform"][0]["calculate"].as_str().unwrap();
    assert!(calc.starts_with("time(toDate(datum[\"day\"]))"), "{calc}");
}

#[test]
fn a_sector_is_an_arc_and_interaction_becomes_selections() {
    let vl = grammar(json!({
        "dataset": {"rows": [{"zone": "Z1", "min": 12}, {"zone": "Z2", "min": 41}]},
        "marks": [{"type": "sector", "angle": "min", "category": "zone"}]
    }));
    assert_eq!(vl["layer"][0]["mark"]["type"], "arc");
    assert_eq!(vl["layer"][0]["encoding"]["theta"]["field"], "min");
    let vl = grammar(json!({
        "dataset": {"rows": [{"x": 1, "y": 2}, {"x": 2, "y": 3}]},
        "marks": [{"type": "line", "x": "x", "y": "y"}],
        "interaction": {"xSelection": true, "scrollableX": true}
    }));
    assert_eq!(vl["usermeta"]["interaction"]["scrollableX"], true);
    let layers = vl["layer"].as_array().unwrap();
    assert_eq!(layers[0]["params"][0]["bind"], "scales");
    assert_eq!(
        layers[1]["params"][0]["select"]["nearest"], true,
        "a hover layer"
    );
    assert_eq!(
        layers[2]["encoding"]["opacity"]["condition"]["param"], "xPoint",
        "its rule"
    );
}

#[test]
fn other_events_export_nothing_and_refused_charts_say_why() {
    let ev = |v: Value| Event(v.as_object().unwrap().clone());
    let limits = Limits::default();
    assert_eq!(
        export(&ev(json!({"type": "message", "content": "hi"})), &limits),
        Export::Skip
    );
    assert!(matches!(
        export(
            &ev(json!({"type": "visualization", "chartType": "bar", "series": []})),
            &limits
        ),
        Export::BadChart(_)
    ));
    assert!(matches!(
        export(
            &ev(json!({"type": "ui", "kind": "chart", "version": 2})),
            &limits
        ),
        Export::BadUi { is_chart: true, .. }
    ));
}
