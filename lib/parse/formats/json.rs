//! JSON documents, parsed whole and walked as rows (an array of records or
//! of arrays, records by key, nested arrays of records), and the mapping of
//! JSON objects onto columns that JSON lines shares ([`KeyColumns`],
//! [`json_cell`]).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::super::ParseError;
use super::super::number::MarkHint;
use super::super::rows::{Cells, Loc, Names, OwnedRow, Rows, Warner, short};

/// The cell text of a JSON value: strings as they are, numbers in JSON
/// form, null as missing, nested values as compact JSON (which no number
/// parser accepts, so they are reported, not charted).
pub(crate) fn json_cell(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        other => Some(other.to_string()),
    }
}

/// Maps objects onto columns by key; new keys add columns (up to a cap, so
/// a stream of ever-new keys cannot grow without bound).
#[derive(Default)]
pub(crate) struct KeyColumns {
    pub(crate) names: Vec<String>,
    pub(crate) index: HashMap<String, usize>,
}

const MAX_COLUMNS: usize = 1000;

impl KeyColumns {
    pub(crate) fn row(&mut self, obj: &Map<String, Value>, row: &mut OwnedRow) {
        row.clear();
        for (k, v) in obj {
            let i = match self.index.get(k) {
                Some(&i) => i,
                None if self.names.len() < MAX_COLUMNS => {
                    self.names.push(k.clone());
                    self.index.insert(k.clone(), self.names.len() - 1);
                    self.names.len() - 1
                }
                None => continue,
            };
            if row.len() <= i {
                row.resize(i + 1, None);
            }
            row[i] = json_cell(v);
        }
    }
}

/// Rows already in memory (a JSON document).
pub(crate) struct VecRows {
    rows: std::vec::IntoIter<(OwnedRow, Loc)>,
    current: OwnedRow,
    names: Option<Names>,
    what: String,
}

impl VecRows {
    pub(crate) fn new(rows: Vec<(OwnedRow, Loc)>, names: Option<Names>, what: &str) -> Self {
        VecRows {
            rows: rows.into_iter(),
            current: Vec::new(),
            names,
            what: what.into(),
        }
    }
}

impl Rows for VecRows {
    fn next_row(&mut self, _warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        Ok(self.rows.next().map(|(r, loc)| {
            self.current = r;
            loc
        }))
    }
    fn current(&self) -> &dyn Cells {
        &self.current
    }
    fn names(&self) -> Option<Names> {
        self.names.clone()
    }
    fn what(&self) -> String {
        self.what.clone()
    }
    /// Only JSON documents become rows in memory.
    fn mark_hint(&self) -> MarkHint {
        MarkHint::Point
    }
}

/// A JSON document that holds rows, turned into [`VecRows`]:
/// an object map `{"M5 CS": 2.9}`, a map of records `{"M5": {"secs": 2.9}}`,
/// an array of records, of pairs/rows, or of bare numbers, or an object
/// wrapping one such array (`{"data": [...]}`).
pub(crate) fn json_rows(v: Value, warn: &mut Warner) -> Result<VecRows, ParseError> {
    match v {
        Value::Array(items) => array_rows(items, warn),
        Value::Object(map) => {
            let arrays: Vec<&String> = map
                .iter()
                .filter(|(_, v)| v.is_array())
                .map(|(k, _)| k)
                .collect();
            let scalars_numeric = map.values().any(|v| {
                v.is_number()
                    || v.as_str()
                        .is_some_and(|s| super::super::number::parse_number(s).is_some())
            });
            if arrays.len() == 1 && !scalars_numeric {
                let key = arrays[0].clone();
                let mut map = map;
                let inner = map.remove(&key).unwrap_or(Value::Null);
                return json_rows(inner, warn);
            }
            // Records further down (`{"data": {"items": [...]}}`): charting
            // the wrapper would draw its keys, so point at the array instead.
            nested_records(&map)?;
            if !map.is_empty() && map.values().all(Value::is_object) {
                return Ok(records_by_key(map));
            }
            let rows = map
                .into_iter()
                .enumerate()
                .map(|(i, (k, v))| (vec![Some(k), json_cell(&v)], Loc::Record(i + 1)))
                .collect();
            Ok(VecRows::new(
                rows,
                Some(Names {
                    list: vec!["label".into(), "value".into()],
                    real: false,
                }),
                "a JSON object",
            ))
        }
        other => Err(super::super::examples_error(format!(
            "a lone JSON {} ({}), not rows of data",
            match other {
                Value::String(_) => "string",
                Value::Number(_) => "number",
                Value::Bool(_) => "boolean",
                _ => "null",
            },
            short(&other.to_string())
        ))),
    }
}

/// An error naming where records further down are (`{"data": {"items":
/// [...]}}`): charting the wrapper would draw its keys.
fn nested_records(map: &Map<String, Value>) -> Result<(), ParseError> {
    let mut found = Vec::new();
    nested_record_arrays(map, String::new(), 1, &mut found);
    if found.is_empty() {
        return Ok(());
    }
    Err(ParseError::Data(format!(
        "nested JSON: {} {}; select {}, e.g. jq -c '{}[]' | viz-parse",
        if found.len() == 1 {
            "the records are at"
        } else {
            "arrays of records at"
        },
        found.join(", "),
        if found.len() == 1 {
            "that array"
        } else {
            "one"
        },
        found[0]
    )))
}

/// A map of records `{"M5": {"secs": 2.9}}`: a row per key, the key in a
/// first column named `key`.
fn records_by_key(map: Map<String, Value>) -> VecRows {
    let mut keys = KeyColumns::default();
    keys.names.push("key".into());
    keys.index.insert("key".into(), 0);
    let mut rows = Vec::with_capacity(map.len());
    for (i, (k, v)) in map.into_iter().enumerate() {
        let mut row = Vec::new();
        if let Value::Object(o) = v {
            keys.row(&o, &mut row);
        }
        if row.is_empty() {
            row.push(None);
        }
        row[0] = Some(k);
        rows.push((row, Loc::Record(i + 1)));
    }
    VecRows::new(
        rows,
        Some(Names {
            list: keys.names,
            real: true,
        }),
        "a JSON object of records",
    )
}

/// How deep below the top object arrays of records are looked for.
const NESTED_DEPTH: usize = 3;

/// jq paths (`.data.items`) of non-empty arrays of objects or arrays
/// under `map`, through objects only, at most [`NESTED_DEPTH`] keys deep.
fn nested_record_arrays(
    map: &Map<String, Value>,
    path: String,
    depth: usize,
    found: &mut Vec<String>,
) {
    for (k, v) in map {
        let here = if !k.is_empty()
            && !k.starts_with(|c: char| c.is_ascii_digit())
            && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            format!("{path}.{k}")
        } else {
            let dot = if path.is_empty() { "." } else { "" };
            format!("{path}{dot}[{}]", Value::from(k.as_str()))
        };
        match v {
            Value::Array(a) if a.first().is_some_and(|e| e.is_object() || e.is_array()) => {
                found.push(here)
            }
            Value::Object(o) if depth < NESTED_DEPTH => {
                nested_record_arrays(o, here, depth + 1, found)
            }
            _ => {}
        }
    }
}

fn array_rows(items: Vec<Value>, warn: &mut Warner) -> Result<VecRows, ParseError> {
    let Some(first) = items.first() else {
        return Err(super::super::examples_error("an empty JSON array".into()));
    };
    enum Kind {
        Records,
        Rows,
        Scalars,
    }
    let kind = match first {
        Value::Object(_) => Kind::Records,
        Value::Array(_) => Kind::Rows,
        _ => Kind::Scalars,
    };
    let mut keys = KeyColumns::default();
    let mut rows = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let loc = Loc::Record(i + 1);
        let row = match (&kind, item) {
            (Kind::Records, Value::Object(o)) => {
                let mut row = Vec::new();
                keys.row(&o, &mut row);
                row
            }
            (Kind::Rows, Value::Array(a)) => a.iter().map(json_cell).collect(),
            (Kind::Scalars, v) if !v.is_object() && !v.is_array() => vec![json_cell(&v)],
            (_, v) => {
                warn.skip(format!(
                    "{loc}: {} is not shaped like the first element; skipped",
                    short(&v.to_string())
                ))?;
                continue;
            }
        };
        rows.push((row, loc));
    }
    Ok(match kind {
        Kind::Records => VecRows::new(
            rows,
            Some(Names {
                list: keys.names,
                real: true,
            }),
            "a JSON array of records",
        ),
        Kind::Rows => VecRows::new(rows, None, "a JSON array of rows"),
        Kind::Scalars => VecRows::new(
            rows,
            Some(Names {
                list: vec!["value".into()],
                real: false,
            }),
            "a JSON array of values",
        ),
    })
}
