//! Validation of untrusted VisualChartV1 JSON: the caps first (before any
//! copy is made), then structure, cell values, and each mark's encodings
//! against the fields and against the other marks' scales. Every failure
//! is a [`Violation`] naming its [`Rule`]; the list is capped so a
//! 5,000-row spec with a bad column does not answer with 5,000 lines.

use std::io;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::data::{infer_type, parse_date};
pub use super::rules::{Rule, Violation, Violations};
use super::{
    ChartSpec, Dataset, Field, FieldType, KIND_CHART, Limits, MAX_MARKS, Mark, MarkKind, Operand,
    UiEnvelope, VERSION,
};

/// The spec members kept; others are trimmed.
const TOP_LEVEL: [&str; 5] = ["dataset", "fields", "marks", "axes", "interaction"];

/// A spec that passed: safe to draw or export as it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Validated {
    pub spec: ChartSpec,
    /// Unknown top-level members that were dropped, in input order.
    pub trimmed: Vec<String>,
}

pub(super) fn validate_envelope(ui: &UiEnvelope, limits: &Limits) -> Result<Validated, Violations> {
    if ui.kind != Some(KIND_CHART) {
        let got = ui.kind.map_or("missing".to_string(), |k| format!("{k:?}"));
        return Err(Violations::one(Rule::Kind, "kind", got, "\"chart\""));
    }
    if ui.version.and_then(Value::as_u64) != Some(VERSION) {
        let got = ui.version.map_or("missing".to_string(), |v| v.to_string());
        return Err(Violations::one(Rule::Version, "version", got, "1"));
    }
    let Some(spec) = ui.spec else {
        return Err(Violations::one(
            Rule::Shape,
            "spec",
            "missing".into(),
            "a VisualChartV1 object",
        ));
    };
    validate_spec(spec, limits)
}

/// Checks a VisualChartV1 `spec` (the value of a `ui` event's `spec`, or of
/// a `plot` call's `spec` argument) and returns it typed, unknown top-level
/// members trimmed and every used field declared.
pub fn validate_spec(spec: &Value, limits: &Limits) -> Result<Validated, Violations> {
    let bytes = json_len(spec);
    if bytes > limits.max_bytes {
        return Err(Violations::one(
            Rule::PayloadSize,
            "spec",
            format!("{bytes} bytes of JSON"),
            &format!("at most {} bytes", limits.max_bytes),
        ));
    }
    let Value::Object(obj) = spec else {
        return Err(Violations::one(
            Rule::Shape,
            "spec",
            format!("a JSON {}", json_kind(spec)),
            "an object with dataset, fields, marks, axes, interaction",
        ));
    };
    let rows = rows_of(obj, limits)?;
    let mut out = Violations::default();
    let trimmed = obj
        .keys()
        .filter(|k| !TOP_LEVEL.contains(&k.as_str()))
        .cloned()
        .collect();
    let mut spec = ChartSpec {
        dataset: Dataset { rows },
        fields: fields_of(obj.get("fields"), &mut out),
        marks: marks_of(obj.get("marks"), &mut out),
        axes: typed(
            obj.get("axes"),
            "spec.axes",
            "{\"x\": {...}, \"y\": {...}}",
            &mut out,
        )
        .unwrap_or_default(),
        interaction: obj.get("interaction").cloned(),
    };
    if !out.is_empty() {
        return Err(out);
    }
    declare_used_fields(&mut spec);
    check_cells(&spec, &mut out);
    super::encodings::check(&spec, &mut out);
    if out.is_empty() {
        Ok(Validated { spec, trimmed })
    } else {
        Err(out)
    }
}

fn rows_of(
    obj: &Map<String, Value>,
    limits: &Limits,
) -> Result<Vec<Map<String, Value>>, Violations> {
    const ACCEPTED: &str = "{\"rows\": [{\"field\": value, ...}, ...]}";
    let rows = match obj.get("dataset").map(|d| d.get("rows")) {
        Some(Some(Value::Array(rows))) => rows,
        Some(Some(other)) => {
            return Err(Violations::one(
                Rule::Shape,
                "spec.dataset.rows",
                format!("a JSON {}", json_kind(other)),
                "an array of row objects",
            ));
        }
        _ => {
            return Err(Violations::one(
                Rule::Shape,
                "spec.dataset",
                "missing, or without rows".into(),
                ACCEPTED,
            ));
        }
    };
    if rows.len() > limits.max_rows {
        return Err(Violations::one(
            Rule::RowCount,
            "spec.dataset.rows",
            format!("{} rows", rows.len()),
            &format!("at most {} rows", limits.max_rows),
        ));
    }
    let mut out = Violations::default();
    let mut typed = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        match r {
            Value::Object(m) => typed.push(m.clone()),
            other => out.push(
                Rule::Shape,
                format!("spec.dataset.rows[{i}]"),
                format!("a JSON {}", json_kind(other)),
                "an object of field: value",
            ),
        }
    }
    if out.is_empty() { Ok(typed) } else { Err(out) }
}

fn fields_of(v: Option<&Value>, out: &mut Violations) -> std::collections::BTreeMap<String, Field> {
    let mut fields = std::collections::BTreeMap::new();
    let obj = match v {
        None | Some(Value::Null) => return fields,
        Some(Value::Object(o)) => o,
        Some(other) => {
            out.push(
                Rule::Shape,
                "spec.fields".into(),
                format!("a JSON {}", json_kind(other)),
                "an object of field name: {\"type\", \"label\", \"unit\"}",
            );
            return fields;
        }
    };
    for (name, f) in obj {
        let path = format!("spec.fields.{name}");
        let ty = f.get("type");
        if !matches!(
            ty.and_then(Value::as_str),
            Some("number" | "string" | "date")
        ) {
            let got = ty.map_or("no type".to_string(), |t| format!("type {t}"));
            out.push(
                Rule::FieldType,
                format!("{path}.type"),
                got,
                "\"number\", \"string\" or \"date\"",
            );
            continue;
        }
        let accepted =
            "{\"type\": \"number\"|\"string\"|\"date\", \"label\": text, \"unit\": text}";
        if let Some(field) = typed::<Field>(Some(f), &path, accepted, out) {
            fields.insert(name.clone(), field);
        }
    }
    fields
}

fn marks_of(v: Option<&Value>, out: &mut Violations) -> Vec<Mark> {
    let marks = match v {
        Some(Value::Array(m)) => m,
        other => {
            let got = other.map_or("missing".to_string(), |o| {
                format!("a JSON {}", json_kind(o))
            });
            out.push(
                Rule::Shape,
                "spec.marks".into(),
                got,
                "an array of mark objects",
            );
            return Vec::new();
        }
    };
    if marks.is_empty() || marks.len() > MAX_MARKS {
        out.push(
            Rule::MarkCount,
            "spec.marks".into(),
            format!("{} marks", marks.len()),
            &format!("1 to {MAX_MARKS} marks"),
        );
        return Vec::new();
    }
    let allowlist = MarkKind::ALL
        .map(|k| format!("\"{}\"", k.as_str()))
        .join(", ");
    let mut typed_marks = Vec::with_capacity(marks.len());
    for (i, m) in marks.iter().enumerate() {
        let path = format!("spec.marks[{i}]");
        let kind = m.get("type");
        if kind
            .and_then(Value::as_str)
            .and_then(MarkKind::parse)
            .is_none()
        {
            let got = kind.map_or("no type".to_string(), |t| format!("type {t}"));
            out.push(Rule::MarkType, format!("{path}.type"), got, &allowlist);
            continue;
        }
        let accepted = "the encodings of its type (docs/events.md): field names, constants";
        if let Some(mark) = typed::<Mark>(Some(m), &path, accepted, out) {
            typed_marks.push(mark);
        }
    }
    typed_marks
}

/// Deserializes one member, a structure error becoming a `shape` violation.
fn typed<T: for<'de> Deserialize<'de>>(
    v: Option<&Value>,
    path: &str,
    accepted: &str,
    out: &mut Violations,
) -> Option<T> {
    let v = v.filter(|v| !v.is_null())?;
    match T::deserialize(v) {
        Ok(t) => Some(t),
        Err(e) => {
            out.push(Rule::Shape, path.to_string(), e.to_string(), accepted);
            None
        }
    }
}

/// Fields named by encodings but not declared get a type from the rows.
/// A rectangle or rule operand that names no column stays a constant, and
/// so does a series name that is not a string column.
fn declare_used_fields(spec: &mut ChartSpec) {
    let mut names: Vec<String> = Vec::new();
    for m in &spec.marks {
        names.extend(
            [&m.x, &m.y, &m.angle, &m.category, &m.series, &m.color]
                .into_iter()
                .flatten()
                .cloned(),
        );
        for op in [
            &m.x_start, &m.x_end, &m.y_start, &m.y_end, &m.x_value, &m.y_value,
        ]
        .into_iter()
        .flatten()
        {
            if let Operand::Text(s) = op {
                names.push(s.clone());
            }
        }
    }
    for name in names {
        if spec.fields.contains_key(&name) {
            continue;
        }
        if let Some(ty) = infer_type(&spec.dataset.rows, &name) {
            spec.fields.insert(
                name,
                Field {
                    ty,
                    label: None,
                    unit: None,
                },
            );
        }
    }
}

/// Every cell of every declared field fits the field's type.
fn check_cells(spec: &ChartSpec, out: &mut Violations) {
    for (i, row) in spec.dataset.rows.iter().enumerate() {
        for (name, field) in &spec.fields {
            let Some(cell) = row.get(name).filter(|c| !c.is_null()) else {
                continue;
            };
            let path = || format!("spec.dataset.rows[{i}].{name}");
            match field.ty {
                FieldType::Number if !cell.as_f64().is_some_and(f64::is_finite) => out.push(
                    Rule::FiniteNumber,
                    path(),
                    format!("{cell} in number field {name:?}"),
                    "a finite JSON number, or null for a gap",
                ),
                FieldType::Date if cell.as_str().is_none_or(|s| parse_date(s).is_none()) => out
                    .push(
                        Rule::DateValue,
                        path(),
                        format!("{cell} in date field {name:?}"),
                        "an ISO 8601 string (2026-03-01, 2026-03, 2026-03-01T07:30:00Z), or null",
                    ),
                FieldType::String if cell.is_object() || cell.is_array() => out.push(
                    Rule::Shape,
                    path(),
                    format!("a JSON {} in string field {name:?}", json_kind(cell)),
                    "text, a number or a boolean, or null",
                ),
                _ => {}
            }
        }
    }
}

pub(super) fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The length of a value's compact JSON, without building it.
fn json_len(v: &Value) -> usize {
    struct Count(usize);
    impl io::Write for Count {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0 += b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut c = Count(0);
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}
