//! The validator against every example of testdata/grammar and against
//! one broken spec per rule.

use serde_json::{Value, json};

use super::*;

fn examples() -> Vec<(String, Value)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/grammar");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (
                p.display().to_string(),
                serde_json::from_str(text.trim()).unwrap(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 5);
    out
}

/// The spec of testdata/grammar/two_points.jsonl: numbers, a date and a
/// string column, one line mark.
fn base() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/grammar/two_points.jsonl"
    );
    let event: Value = serde_json::from_str(std::fs::read_to_string(path).unwrap().trim()).unwrap();
    event["spec"].clone()
}

fn add(spec: &mut Value, mark: Value) {
    spec["marks"].as_array_mut().unwrap().push(mark);
}

fn refused(spec: &Value, limits: &Limits) -> Violations {
    validate_spec(spec, limits).expect_err("refused")
}

/// `edit` breaks the base spec; the first violation must be `rule` at `path`.
fn breaks(rule: Rule, path: &str, edit: impl FnOnce(&mut Value)) {
    let mut spec = base();
    edit(&mut spec);
    let v = refused(&spec, &Limits::default());
    let first = v.first().unwrap();
    assert_eq!((first.rule, first.path.as_str()), (rule, path), "{v}");
    let text = v.to_string();
    assert!(text.contains(&format!("(rule {rule})")), "{text}");
    assert!(text.contains("accepted: "), "{text}");
}

#[test]
fn every_example_validates_and_round_trips() {
    for (name, event) in examples() {
        let env = UiEnvelope::read(event.as_object().unwrap());
        let ok = env
            .validate(&Limits::default())
            .unwrap_or_else(|v| panic!("{name}: {v}"));
        assert!(ok.trimmed.is_empty(), "{name}");
        let again = serde_json::to_value(&ok.spec).unwrap();
        let twice = validate_spec(&again, &Limits::default()).unwrap();
        assert_eq!(twice.spec, ok.spec, "{name}");
        let e = ui_event(env.id.unwrap(), env.title, &ok.spec, env.fallback_text);
        assert_eq!(e.kind(), "ui");
        assert_eq!(e.get("version"), Some(&json!(1)));
    }
}

#[test]
fn unknown_top_level_members_are_trimmed_not_refused() {
    let mut spec = base();
    spec["colour"] = json!("red");
    spec["interaction"] = json!({"xSelection": true});
    let ok = validate_spec(&spec, &Limits::default()).unwrap();
    assert_eq!(ok.trimmed, vec!["colour".to_string()]);
    assert_eq!(ok.spec.interaction, Some(json!({"xSelection": true})));
    let out = serde_json::to_value(&ok.spec).unwrap();
    assert!(out.get("colour").is_none());
}

#[test]
fn undeclared_fields_get_their_type_from_the_rows() {
    let mut spec = base();
    spec["fields"] = json!({});
    spec["marks"] = json!([{"type": "bar", "x": "day", "y": "pace", "series": "name"}]);
    let ok = validate_spec(&spec, &Limits::default()).unwrap();
    assert_eq!(ok.spec.field_type("day"), Some(FieldType::Date));
    assert_eq!(ok.spec.field_type("name"), Some(FieldType::String));
    assert_eq!(
        ok.spec.series_by(&ok.spec.marks[0]),
        SeriesBy::Field("name")
    );
}

#[test]
fn envelope_rules() {
    let spec = base();
    let mut e = json!({"type": "ui", "kind": "table", "version": 1, "spec": spec});
    let v = UiEnvelope::read(e.as_object().unwrap()).validate(&Limits::default());
    assert_eq!(v.unwrap_err().first().unwrap().rule, Rule::Kind);
    e["kind"] = json!("chart");
    e["version"] = json!(2);
    let v = UiEnvelope::read(e.as_object().unwrap()).validate(&Limits::default());
    assert_eq!(v.unwrap_err().first().unwrap().rule, Rule::Version);
    e["version"] = json!(1);
    assert!(
        UiEnvelope::read(e.as_object().unwrap())
            .validate(&Limits::default())
            .is_ok()
    );
}

#[test]
fn caps_are_parameters() {
    let spec = base();
    let small = Limits {
        max_bytes: 100,
        max_rows: 5_000,
    };
    let v = refused(&spec, &small);
    assert_eq!(v.first().unwrap().rule, Rule::PayloadSize);
    assert!(v.to_string().contains("at most 100 bytes"), "{v}");
    let few = Limits {
        max_bytes: DEFAULT_MAX_BYTES,
        max_rows: 1,
    };
    let v = refused(&spec, &few);
    assert_eq!(v.first().unwrap().rule, Rule::RowCount);
    assert!(v.to_string().contains("2 rows"), "{v}");
    assert!(
        validate_spec(
            &spec,
            &Limits {
                max_bytes: 10_000,
                max_rows: 2
            }
        )
        .is_ok()
    );
}

#[test]
fn one_broken_spec_per_rule() {
    breaks(Rule::Shape, "spec.dataset", |s| s["dataset"] = json!(null));
    breaks(Rule::Shape, "spec.dataset.rows[1]", |s| {
        s["dataset"]["rows"][1] = json!(3)
    });
    breaks(Rule::Shape, "spec.marks[0]", |s| {
        s["marks"][0]["x"] = json!(5)
    });
    breaks(Rule::MarkCount, "spec.marks", |s| s["marks"] = json!([]));
    breaks(Rule::MarkType, "spec.marks[0].type", |s| {
        s["marks"][0]["type"] = json!("pie")
    });
    breaks(Rule::FieldType, "spec.fields.km.type", |s| {
        s["fields"]["km"]["type"] = json!("float")
    });
    breaks(Rule::FiniteNumber, "spec.dataset.rows[0].pace", |s| {
        s["dataset"]["rows"][0]["pace"] = json!("NaN")
    });
    breaks(Rule::DateValue, "spec.dataset.rows[1].day", |s| {
        s["dataset"]["rows"][1]["day"] = json!("yesterday")
    });
    breaks(Rule::EncodingMissing, "spec.marks[0].y", |s| {
        s["marks"][0].as_object_mut().unwrap().remove("y");
    });
    breaks(Rule::EncodingMissing, "spec.marks[1]", |s| {
        add(s, json!({"type": "rule", "label": "where?"}))
    });
    breaks(Rule::EncodingMissing, "spec.marks[1]", |s| {
        add(s, json!({"type": "rectangle", "xStart": 0.2}))
    });
    breaks(Rule::EncodingField, "spec.marks[0].y", |s| {
        s["marks"][0]["y"] = json!("pulse")
    });
    breaks(Rule::EncodingType, "spec.marks[0].y", |s| {
        s["marks"][0]["y"] = json!("name")
    });
    breaks(Rule::EncodingType, "spec.marks[1].xValue", |s| {
        add(s, json!({"type": "rule", "xValue": "2026-03-01"}))
    });
    breaks(Rule::ScaleConflict, "spec.marks[1].x (point)", |s| {
        add(s, json!({"type": "point", "x": "day", "y": "pace"}))
    });
    breaks(Rule::ScaleConflict, "spec.marks[0]", |s| {
        add(
            s,
            json!({"type": "sector", "angle": "pace", "category": "name"}),
        )
    });
    breaks(Rule::Domain, "spec.axes.y.domain", |s| {
        s["axes"] = json!({"y": {"domain": [3, 3]}})
    });
    breaks(Rule::Domain, "spec.axes.x.domain", |s| {
        s["marks"][0]["x"] = json!("name");
        s["axes"] = json!({"x": {"domain": [0, 1]}})
    });
}

#[test]
fn many_bad_cells_give_a_capped_list() {
    let rows: Vec<Value> = (0..500).map(|i| json!({"x": i, "y": "bad"})).collect();
    let spec = json!({
        "dataset": {"rows": rows},
        "fields": {"x": {"type": "number"}, "y": {"type": "number"}},
        "marks": [{"type": "point", "x": "x", "y": "y"}]
    });
    let v = refused(&spec, &Limits::default());
    assert_eq!(v.list.len(), 20);
    assert_eq!(v.omitted, 480);
    assert!(v.to_string().ends_with("... and 480 more"));
}

#[test]
fn operands_resolve_on_their_scale() {
    let mut spec = base();
    spec["marks"] = json!([
        {"type": "line", "x": "day", "y": "pace"},
        {"type": "rule", "xValue": "2026-03-02", "label": "race"},
        {"type": "rectangle", "yStart": 280, "yEnd": "pace"}
    ]);
    let ok = validate_spec(&spec, &Limits::default()).unwrap().spec;
    let r = ok.marks[1].x_value.as_ref().unwrap();
    assert_eq!(
        ok.resolve(r, FieldType::Date),
        Some(Resolved::Value(parse_date("2026-03-02").unwrap()))
    );
    let y_end = ok.marks[2].y_end.as_ref().unwrap();
    assert_eq!(
        ok.resolve(y_end, FieldType::Number),
        Some(Resolved::Field("pace"))
    );
    assert_eq!(ok.axis_type(true), FieldType::Date);
    assert_eq!(ok.axis_type(false), FieldType::Number);
    assert_eq!(
        ok.summary(),
        "1 line mark, 1 rule mark, 1 rectangle mark over 2 rows"
    );
}

#[test]
fn every_mark_kind_has_one_row_named_as_it_is_written() {
    let mut seen = std::collections::HashSet::new();
    for (kind, name, takes) in MARKS {
        assert_eq!(serde_json::to_value(kind).unwrap(), json!(name));
        assert_eq!(MarkKind::parse(name), Some(kind));
        assert_eq!(kind.takes(), takes);
        assert!(seen.insert(kind), "{name} has two rows");
    }
    assert_eq!(MarkKind::ALL.len(), MARKS.len());
}
