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

/// What a JSON document holds as rows: rows made here (an object map, a
/// map of records), or the elements of an array, each a record read as a
/// JSON line is (by `parse::fast::jsondoc`, which streams arrays too large
/// to hold).
pub(crate) enum JsonTable {
    Rows(VecRows),
    Items(Vec<Value>, Beside),
}

/// Where an array of records was found in the object wrapping it, and the
/// other keys there, which are not charted.
#[derive(Debug, Clone, Default)]
pub(crate) struct Beside {
    /// The array's jq path (`.values`); empty for a top-level array.
    pub(crate) path: String,
    pub(crate) keys: Vec<String>,
}

impl Beside {
    /// The note saying which keys beside the array were left out.
    pub(crate) fn note(&self) -> Option<String> {
        if self.keys.is_empty() {
            return None;
        }
        const SHOWN: usize = 5;
        let mut named = quoted_list(&self.keys[..self.keys.len().min(SHOWN)]);
        if self.keys.len() > SHOWN {
            named.push_str(&format!(" and {} more", self.keys.len() - SHOWN));
        }
        Some(format!(
            "charted the array at {}; {named} beside it {} not charted",
            self.path,
            if self.keys.len() == 1 { "is" } else { "are" }
        ))
    }
}

fn quoted_list(keys: &[String]) -> String {
    keys.iter()
        .map(|k| format!("{:?}", short(k)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A JSON document that holds rows: an object map `{"M5 CS": 2.9}`, a map
/// of records `{"M5": {"secs": 2.9}}`, an array of records, of pairs/rows,
/// or of bare values, or an object wrapping one such array
/// (`{"data": [...]}`, `{"width": 87, "height": 61, "values": [...]}`:
/// the other keys of a wrapper are named in a note, not charted).
pub(crate) fn json_table(v: Value) -> Result<JsonTable, ParseError> {
    match v {
        Value::Array(items) => Ok(JsonTable::Items(items, Beside::default())),
        Value::Object(mut map) => {
            if let Some(hint) = map_hint(&map) {
                return Err(ParseError::Data(hint));
            }
            let arrays: Vec<&String> = map
                .iter()
                .filter(|(_, v)| v.is_array())
                .map(|(k, _)| k)
                .collect();
            match arrays.len() {
                0 => {}
                1 => {
                    let key = arrays[0].clone();
                    let inner = map.shift_remove(&key).unwrap_or(Value::Null);
                    let Value::Array(items) = inner else {
                        unreachable!("an array was found under {key:?}")
                    };
                    if let Some(e) = raster(&map, &key, &items) {
                        return Err(e);
                    }
                    let beside = Beside {
                        path: jq_path("", &key),
                        keys: map.keys().cloned().collect(),
                    };
                    return Ok(JsonTable::Items(items, beside));
                }
                _ => return Err(several_arrays(&map)),
            }
            // Records further down (`{"data": {"items": [...]}}`): charting
            // the wrapper would draw its keys, so point at the array instead.
            nested_records(&map)?;
            if !map.is_empty() && map.values().all(Value::is_object) {
                return Ok(JsonTable::Rows(records_by_key(map)));
            }
            let rows = map
                .into_iter()
                .enumerate()
                .map(|(i, (k, v))| (vec![Some(k), json_cell(&v)], Loc::Record(i + 1)))
                .collect();
            Ok(JsonTable::Rows(VecRows::new(
                rows,
                Some(Names {
                    list: vec!["label".into(), "value".into()],
                    real: false,
                }),
                "a JSON object",
            )))
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

/// A wrapper whose array is `width` x `height` bare numbers beside those
/// two keys (volcano.json: an elevation grid of 87 x 61) is a raster read
/// row by row, not rows of data: drawn as a line it would zigzag across
/// the grid's rows. Refused, naming the grid and what can be drawn of it
/// (a grid one row or column wide is a line, and charted).
fn raster(map: &Map<String, Value>, key: &str, items: &[Value]) -> Option<ParseError> {
    let dim = |k: &str| map.get(k).and_then(Value::as_u64);
    let (w, h) = (dim("width")?, dim("height")?);
    if w < 2 || h < 2 {
        return None;
    }
    let all_numbers = !items.is_empty() && items.iter().all(Value::is_number);
    (all_numbers && w.checked_mul(h) == Some(items.len() as u64)).then(|| {
        let path = jq_path("", key);
        ParseError::Data(format!(
            "a grid of {w} x {h} numbers at {path} (\"width\" and \"height\" beside it): a \
             raster read row by row, not rows of data, and viz-parse draws no rasters; to count \
             its values: jq -c '{path}[]' FILE | viz-parse --chart hist"
        ))
    })
}

/// The error for an object holding several arrays: which holds the
/// records is the user's to say. Arrays of records (at any depth jq can
/// be pointed at) are named if there are any, else every array, the
/// longest first in the example.
fn several_arrays(map: &Map<String, Value>) -> ParseError {
    if let Err(e) = nested_records(map) {
        return e;
    }
    let mut arrays: Vec<(&String, usize)> = map
        .iter()
        .filter_map(|(k, v)| v.as_array().map(|a| (k, a.len())))
        .collect();
    let paths: Vec<String> = arrays.iter().map(|(k, _)| jq_path("", k)).collect();
    arrays.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    arrays_error(&paths, &jq_path("", arrays[0].0))
}

/// "nested JSON: arrays at .a, .b; select one, e.g. jq -c '.b[]'".
pub(crate) fn arrays_error(paths: &[String], example: &str) -> ParseError {
    ParseError::Data(format!(
        "nested JSON: arrays at {}; select one, e.g. jq -c '{example}[]' | viz-parse",
        paths.join(", ")
    ))
}

/// What a map's `type` says it is, when that is a map of places rather
/// than a table: GeoJSON and TopoJSON, whose records are properties of
/// their features and geometries; the hint says how to select them.
pub(crate) fn map_hint(map: &Map<String, Value>) -> Option<String> {
    match map.get("type").and_then(Value::as_str)? {
        "FeatureCollection" => Some(
            "GeoJSON (map features): their records are the features' properties; \
             select them, e.g. jq -c '.features[].properties' | viz-parse"
                .into(),
        ),
        "Topology" => {
            let collections: Vec<String> = map
                .get("objects")
                .and_then(Value::as_object)
                .map(|o| {
                    o.iter()
                        .filter(|(_, v)| v.get("geometries").is_some_and(Value::is_array))
                        .map(|(k, _)| format!("{}.geometries", jq_path(&jq_path("", "objects"), k)))
                        .collect()
                })
                .unwrap_or_default();
            let example = collections
                .first()
                .cloned()
                .unwrap_or_else(|| ".objects.NAME.geometries".into());
            Some(format!(
                "TopoJSON (map shapes): its records are the properties of the geometries{}; \
                 select them, e.g. jq -c '{example}[] | {{id}} + .properties' | viz-parse",
                if collections.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", collections.join(", "))
                }
            ))
        }
        _ => None,
    }
}

/// A key's jq path below `path` (`.data`, `.["odd key"]`).
pub(crate) fn jq_path(path: &str, k: &str) -> String {
    if !k.is_empty()
        && !k.starts_with(|c: char| c.is_ascii_digit())
        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        format!("{path}.{k}")
    } else {
        let dot = if path.is_empty() { "." } else { "" };
        format!("{path}{dot}[{}]", Value::from(k))
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
        let here = jq_path(&path, k);
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
