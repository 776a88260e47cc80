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

mod props {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::super::grammar_spec;
    use crate::spec::grammar::{Limits, validate_spec};

    /// Field names with the characters a Vega field reference reads as
    /// syntax, and plain ones.
    fn name() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("a".to_string()),
            Just("b.c".to_string()),
            Just("x[0]".to_string()),
            Just("q\"s'".to_string()),
            Just("back\\slash".to_string()),
            "[a-z.\\[\\]\\\\'\" ]{1,6}",
        ]
    }

    fn cell() -> impl Strategy<Value = Value> {
        prop_oneof![
            (-1e6f64..1e6).prop_map(|v| json!(v)),
            Just(json!("2026-03-01")),
            Just(json!("2026-03-01T07:30")),
            Just(json!("Mon")),
            Just(json!(null)),
        ]
    }

    fn operand(names: Vec<String>) -> impl Strategy<Value = Value> {
        prop_oneof![
            (-10f64..10.0).prop_map(|v| json!(v)),
            Just(json!("2026-03-02")),
            Just(json!("Mon")),
            prop::sample::select(names).prop_map(|n| json!(n)),
        ]
    }

    fn spec() -> impl Strategy<Value = Value> {
        prop::collection::vec(name(), 1..4).prop_flat_map(|names| {
            let rows = prop::collection::vec(
                prop::collection::vec(cell(), names.len()).prop_map({
                    let names = names.clone();
                    move |cells| {
                        let obj: serde_json::Map<String, Value> =
                            names.iter().cloned().zip(cells).collect();
                        Value::Object(obj)
                    }
                }),
                0..12,
            );
            let field = prop::sample::select(names.clone());
            let kind = prop::sample::select(vec![
                "line",
                "area",
                "point",
                "bar",
                "rectangle",
                "rule",
                "sector",
            ]);
            let mark = (
                kind,
                field.clone(),
                field.clone(),
                prop::option::of(field),
                operand(names.clone()),
                operand(names.clone()),
                any::<bool>(),
            )
                .prop_map(|(k, x, y, s, a, b, flag)| match k {
                    "rectangle" if flag => json!({"type": k, "xStart": a, "xEnd": b, "label": "r"}),
                    "rectangle" => json!({"type": k, "yStart": a, "yEnd": b}),
                    "rule" if flag => json!({"type": k, "xValue": a, "label": "l"}),
                    "rule" => json!({"type": k, "y": y}),
                    "sector" => json!({"type": k, "angle": y, "category": x}),
                    "area" if flag => json!({"type": k, "x": x, "yStart": a, "yEnd": b}),
                    _ => json!({"type": k, "x": x, "y": y, "series": s}),
                });
            (
                rows,
                prop::collection::vec(mark, 1..4),
                any::<bool>(),
                any::<bool>(),
            )
                .prop_map(|(rows, marks, invert, interaction)| {
                    let mut s = json!({"dataset": {"rows": rows}, "marks": marks,
                                       "axes": {"y": {"invert": invert}}});
                    if interaction {
                        s["interaction"] =
                            json!({"xSelection": true, "xRangeSelection": true, "scrollableX": true});
                    }
                    s
                })
        })
    }

    /// A field reference read back as Vega reads it: `\` escapes the next
    /// character.
    fn unescape(r: &str) -> String {
        let mut out = String::new();
        let mut chars = r.chars();
        while let Some(c) = chars.next() {
            out.push(if c == '\\' {
                chars.next().unwrap_or('\\')
            } else {
                c
            });
        }
        out
    }

    fn field_refs<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    match (k.as_str(), v) {
                        ("field", Value::String(f)) => out.push(f),
                        ("data", _) => {}
                        _ => field_refs(v, out),
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|v| field_refs(v, out)),
            _ => {}
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Every spec validation accepts exports without a panic, with a
        /// layer per mark at least, and every field it names is one of the
        /// spec's fields once Vega has read the escapes (or a computed one).
        #[test]
        fn every_valid_spec_exports_and_names_only_its_fields(spec in spec()) {
            let Ok(valid) = validate_spec(&spec, &Limits::default()) else { return Ok(()) };
            let vl = grammar_spec(Some("t"), None, &valid.spec);
            let layers = vl["layer"].as_array().expect("layers");
            prop_assert!(layers.len() >= valid.spec.marks.len());
            let mut refs = Vec::new();
            field_refs(&vl["layer"], &mut refs);
            for r in refs {
                let name = unescape(r);
                prop_assert!(
                    valid.spec.fields.contains_key(&name) || name.starts_with("__x"),
                    "{r:?} reads as {name:?}, not a field"
                );
            }
            prop_assert!(serde_json::to_string(&vl).is_ok());
        }
    }
}
