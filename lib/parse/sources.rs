//! Row readers for each tabular format: CSV/TSV (streamed through the csv
//! crate with one reused record), JSON lines (streamed, one object or array
//! per line), Markdown tables (streamed, GFM rules) and JSON documents
//! (parsed whole, then walked as rows).

use std::collections::HashMap;
use std::io::{BufRead, Read};

use serde_json::{Map, Value};

use super::ParseError;
use super::number::MarkHint;
use super::rows::{Cells, Loc, Names, OwnedRow, Rows, Warner, short};

pub(crate) fn delimiter_name(d: u8) -> &'static str {
    match d {
        b',' => "comma-separated text",
        b';' => "semicolon-separated text",
        b'\t' => "tab-separated text",
        b'|' => "pipe-separated text",
        b':' => "label: value lines",
        _ => "delimited text",
    }
}

/// CSV/TSV rows, one `ByteRecord` reused for the whole file.
pub(crate) struct CsvRows<R: Read> {
    rdr: csv::Reader<R>,
    rec: csv::ByteRecord,
    delimiter: u8,
}

impl<R: Read> CsvRows<R> {
    pub(crate) fn new(input: R, delimiter: u8) -> Self {
        let rdr = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(64 * 1024)
            .from_reader(input);
        CsvRows {
            rdr,
            rec: csv::ByteRecord::new(),
            delimiter,
        }
    }
}

impl<R: Read> Rows for CsvRows<R> {
    fn next_row(&mut self, _warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        match self.rdr.read_byte_record(&mut self.rec) {
            Ok(true) => Ok(Some(Loc::Line(
                self.rec.position().map(|p| p.line()).unwrap_or(0),
            ))),
            Ok(false) => Ok(None),
            Err(e) => match e.into_kind() {
                csv::ErrorKind::Io(io) => Err(ParseError::Io(io)),
                other => Err(ParseError::Data(format!("{other:?}"))),
            },
        }
    }
    fn current(&self) -> &dyn Cells {
        &self.rec
    }
    fn what(&self) -> String {
        delimiter_name(self.delimiter).to_string()
    }
    fn delimiter(&self) -> Option<u8> {
        Some(self.delimiter)
    }
}

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
                        .is_some_and(|s| super::number::parse_number(s).is_some())
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
        other => Err(super::examples_error(format!(
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
        return Err(super::examples_error("an empty JSON array".into()));
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

/// A GFM table row split into cells: outer pipes dropped, `\|` kept as a
/// pipe, inline code and emphasis markers removed.
pub(crate) fn split_markdown_row(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = if t.ends_with('|') && !t.ends_with("\\|") {
        &t[..t.len() - 1]
    } else {
        t
    };
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '|' => cells.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    cells.push(cur);
    cells.into_iter().map(|c| clean_markdown_cell(&c)).collect()
}

fn clean_markdown_cell(c: &str) -> String {
    let mut t = c.trim();
    loop {
        let before = t;
        for m in ["**", "__", "`", "*", "_", "~~"] {
            if t.len() >= 2 * m.len()
                && let Some(inner) = t.strip_prefix(m).and_then(|r| r.strip_suffix(m))
            {
                t = inner.trim();
            }
        }
        if t == before {
            break;
        }
    }
    t.replace('`', "")
}

/// `|---|:---:|` and friends.
pub(crate) fn is_alignment_row(line: &str) -> bool {
    let t = line.trim();
    if !t.contains('-') || !(t.contains('|') || t.starts_with(':') || t.starts_with('-')) {
        return false;
    }
    let cells = split_markdown_row(t);
    !cells.is_empty()
        && cells.iter().all(|c| {
            let c = c.trim();
            let c = c.strip_prefix(':').unwrap_or(c);
            let c = c.strip_suffix(':').unwrap_or(c);
            !c.is_empty() && c.bytes().all(|b| b == b'-')
        })
}

/// Markdown: text before the first table is skipped; the table ends at the
/// first line that is not a row.
pub(crate) struct MarkdownRows<R: BufRead> {
    input: R,
    line: u64,
    header: Option<Vec<String>>,
    row: OwnedRow,
    done: bool,
    buf: Vec<u8>,
}

impl<R: BufRead> MarkdownRows<R> {
    pub(crate) fn new(input: R) -> Result<Self, ParseError> {
        let mut m = MarkdownRows {
            input,
            line: 0,
            header: None,
            row: Vec::new(),
            done: false,
            buf: Vec::new(),
        };
        let mut prev: Option<String> = None;
        while let Some(l) = m.read_line()? {
            if let Some(p) = &prev
                && p.contains('|')
                && is_alignment_row(&l)
            {
                m.header = Some(split_markdown_row(p));
                break;
            }
            prev = Some(l);
        }
        if m.header.is_none() {
            return Err(super::examples_error(
                "text with pipes but no Markdown table (a header row followed by |---|---|)".into(),
            ));
        }
        Ok(m)
    }

    fn read_line(&mut self) -> Result<Option<String>, ParseError> {
        self.buf.clear();
        if self.input.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(None);
        }
        self.line += 1;
        Ok(Some(String::from_utf8_lossy(&self.buf).trim().to_string()))
    }
}

impl<R: BufRead> Rows for MarkdownRows<R> {
    fn next_row(&mut self, _warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        if self.done {
            return Ok(None);
        }
        match self.read_line()? {
            Some(l) if l.contains('|') && !l.is_empty() => {
                self.row.clear();
                self.row
                    .extend(split_markdown_row(&l).into_iter().map(Some));
                Ok(Some(Loc::Line(self.line)))
            }
            _ => {
                self.done = true;
                Ok(None)
            }
        }
    }
    fn current(&self) -> &dyn Cells {
        &self.row
    }
    fn names(&self) -> Option<Names> {
        self.header.clone().map(|list| Names {
            list: list
                .into_iter()
                .enumerate()
                .map(|(i, n)| {
                    if n.is_empty() {
                        format!("column {}", i + 1)
                    } else {
                        n
                    }
                })
                .collect(),
            real: true,
        })
    }
    fn what(&self) -> String {
        "a Markdown table".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cells() {
        assert_eq!(
            split_markdown_row("| `a\\|b` | **2.9 s** |"),
            vec!["a|b".to_string(), "2.9 s".to_string()]
        );
        assert!(is_alignment_row("|:---|---:|"));
        assert!(is_alignment_row("--- | :-:"));
        assert!(!is_alignment_row("| a | b |"));
        assert!(!is_alignment_row("-3"));
    }
}
