//! `viz-parse --grammar`: a table with several columns becomes one `ui`
//! chart of the plot grammar (docs/events.md, VisualChartV1) instead of a
//! `visualization`: `-x` is the x column, each `-y` a mark of its own (its
//! `--mark`: line, area, point or bar), `-s` splits every mark into one
//! series per value of a column, `--rule` and `--band` add reference lines
//! and shaded bands. The table is read as for charts (formats, header
//! detection, numbers as people write them, units from headers or cells),
//! then each column used gets a type: `date` when every cell is an ISO
//! 8601 date, `number` when every cell is a number, else `string`; a y
//! column is numbers, its other cells gaps with a warning. The spec is
//! checked by the grammar's own validation before it is written.

use std::io::{BufRead, Cursor, Read, Write};

use serde_json::{Map, Value};

use super::detect::{self, Kind};
use super::fast::JsonlRows;
use super::formats::{CsvRows, MarkdownRows};
use super::number::{
    Decimal, MarkHint, decide_decimal, doubt_note, is_missing, parse_number, parse_number_as,
};
use super::rows::{Loc, Names, OwnedRow, Rows, Warner, cell, owned};
use super::table::{common_unit, header_unit, looks_like_year, resolve, sample_with_names};
use super::{ParseError, ParseOptions, examples_error};
use crate::events::{Event, EventWriter};
use crate::spec::grammar::{
    Axes, Axis, ChartSpec, Dataset, Field, FieldType, Limits, Mark, MarkKind, Operand, parse_date,
    ui_event, validate_spec,
};

/// What `--grammar` asks for besides the columns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GrammarOptions {
    /// The mark of each `-y`, in order; `None`: line over numbers or
    /// dates, bar over categories.
    pub marks: Vec<Option<MarkKind>>,
    /// The `--rule`s, then the `--band`s (drawn behind the rest anyway).
    pub refs: Vec<Reference>,
}

/// A `--rule AXIS=VALUE[:LABEL]` or a `--band AXIS=FROM..TO[:LABEL]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    pub x: bool,
    pub from: Operand,
    /// The band's other edge; `None` for a rule.
    pub to: Option<Operand>,
    pub label: Option<String>,
}

/// Why a `--rule` or `--band` text is not a reference: the flag, its
/// text, what is wrong and the form to write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{flag} {text:?}: {why}; write {form}")]
pub struct ReferenceError {
    pub flag: &'static str,
    pub text: String,
    pub why: &'static str,
    pub form: &'static str,
}

impl Reference {
    /// Reads the flag's text. A value is a number (`5`, `1,500`), an ISO
    /// date (`2026-03-01T07:30`), else a category name; the label follows
    /// the last `:` that ends a whole value, so a time's colons stay its
    /// own (a category's label follows its first `:`).
    pub fn parse(text: &str, band: bool) -> Result<Reference, ReferenceError> {
        let (flag, form) = if band {
            ("--band", "AXIS=FROM..TO[:LABEL], e.g. x=2..3:lap 3")
        } else {
            ("--rule", "AXIS=VALUE[:LABEL], e.g. x=5:5K")
        };
        let bad = |why: &'static str| ReferenceError {
            flag,
            text: text.to_string(),
            why,
            form,
        };
        let (axis, rest) = text.split_once('=').ok_or_else(|| bad("no '='"))?;
        let x = match axis.trim() {
            "x" | "X" => true,
            "y" | "Y" => false,
            _ => return Err(bad("the axis is x or y")),
        };
        let whole = |v: &str| {
            if band {
                v.split_once("..")
                    .is_some_and(|(a, b)| is_position(a) && is_position(b))
            } else {
                is_position(v)
            }
        };
        let colons: Vec<usize> = rest.match_indices(':').map(|(i, _)| i).collect();
        let split = if whole(rest) {
            None
        } else {
            let last_whole = colons.iter().rev().copied().find(|&i| whole(&rest[..i]));
            last_whole.or(colons.first().copied())
        };
        let (value, label) = match split {
            Some(i) => (&rest[..i], Some(rest[i + 1..].trim())),
            None => (rest, None),
        };
        let label = label.filter(|l| !l.is_empty()).map(str::to_string);
        let (from, to) = if band {
            let (a, b) = value
                .split_once("..")
                .ok_or_else(|| bad("no '..' between the two edges"))?;
            (operand(a), Some(operand(b)))
        } else {
            (operand(value), None)
        };
        if matches!(&from, Operand::Text(t) if t.is_empty())
            || matches!(&to, Some(Operand::Text(t)) if t.is_empty())
        {
            return Err(bad("a value is empty"));
        }
        Ok(Reference { x, from, to, label })
    }
}

fn is_position(v: &str) -> bool {
    parse_number(v).is_some() || parse_date(v).is_some()
}

fn operand(v: &str) -> Operand {
    let v = v.trim();
    match parse_number(v) {
        Some(n) if parse_date(v).is_none() || !v.contains('-') => Operand::Number(n.value),
        _ => Operand::Text(v.to_string()),
    }
}

/// Reads one input and writes its `ui` chart event.
pub(super) fn process(
    input: Box<dyn BufRead + '_>,
    name: &str,
    opts: &ParseOptions,
    g: &GrammarOptions,
    warn: &mut Warner,
    out: &mut dyn Write,
) -> Result<(), ParseError> {
    let mut rows = rows_of(input, opts, warn)?;
    let event = build(&mut *rows, opts, g, name, warn)?;
    warn.finish("cells");
    EventWriter::new(out)
        .write(&event)
        .map_err(ParseError::Write)
}

/// The table in an input, whatever its format; a stream of events or
/// prose is not one.
fn rows_of<'a>(
    mut input: Box<dyn BufRead + 'a>,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Box<dyn Rows + 'a>, ParseError> {
    let detect::Sniffed { prefix, kind, note } =
        detect::sniff(&mut *input, opts.format, opts.delimiter)?;
    if let Some(note) = note {
        warn.note(note);
    }
    let full: Box<dyn BufRead + 'a> = Box::new(Cursor::new(prefix).chain(input));
    Ok(match kind {
        Kind::Delimited(d) => Box::new(CsvRows::new(full, d)),
        Kind::Jsonl => Box::new(JsonlRows::new(full)),
        Kind::Markdown => Box::new(MarkdownRows::new(full)?),
        Kind::JsonDoc => super::json_input_rows(full)?,
        Kind::Gzip => return rows_of(super::gunzip(full), opts, warn),
        Kind::Parquet | Kind::ArrowFile | Kind::ArrowStream => {
            super::binary_rows(&kind, full, None)?
        }
        Kind::NotData(why) => return Err(ParseError::Data(why)),
        Kind::Events => {
            return Err(ParseError::Data(
                "--grammar reads a table (CSV, TSV, JSON records, JSON lines, Markdown), \
                 not a stream of events"
                    .into(),
            ));
        }
        Kind::Empty => return Err(examples_error("empty input".into())),
        Kind::Prose(seen) => return Err(examples_error(seen)),
    })
}

/// The columns a chart uses, by index into the names.
struct Columns {
    x: usize,
    ys: Vec<usize>,
    series: Option<usize>,
}

impl Columns {
    /// `-x`, `-y`, `-s`: a column's name (or its name without the unit,
    /// `pace` for `pace (s/km)`), else its 1-based number.
    fn resolve(list: &[String], opts: &ParseOptions) -> Result<Columns, ParseError> {
        let bare: Vec<String> = list
            .iter()
            .map(|n| header_unit(n).map_or_else(|| n.trim().to_string(), |u| strip_unit(n, &u)))
            .collect();
        let resolve = |r: &str, flag: &str| {
            resolve(list, r, flag).or_else(|e| resolve(&bare, r, flag).map_err(|_| e))
        };
        if opts.values.is_empty() {
            return Err(ParseError::Usage(format!(
                "--grammar needs a -y COLUMN for each mark; the columns are {}",
                quoted(list)
            )));
        }
        let ys = opts
            .values
            .iter()
            .map(|r| resolve(r, "-y"))
            .collect::<Result<Vec<_>, _>>()?;
        let series = opts
            .series
            .as_deref()
            .map(|r| resolve(r, "-s"))
            .transpose()?;
        let x = match opts.label.as_deref() {
            Some(r) => resolve(r, "-x")?,
            None => (0..list.len())
                .find(|i| !ys.contains(i) && Some(*i) != series)
                .ok_or_else(|| {
                    ParseError::Usage(format!(
                        "--grammar needs an x column (-x) besides the -y columns; the columns are {}",
                        quoted(list)
                    ))
                })?,
        };
        Ok(Columns { x, ys, series })
    }

    /// Each column once, x first.
    fn used(&self) -> Vec<usize> {
        let mut v = vec![self.x];
        for c in self.ys.iter().copied().chain(self.series) {
            if !v.contains(&c) {
                v.push(c);
            }
        }
        v
    }
}

fn quoted(list: &[String]) -> String {
    list.iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One column as a field: its key in the rows, type, label and unit, and
/// its cells as JSON.
struct Column {
    key: String,
    field: Field,
    cells: Vec<Value>,
}

fn build(
    rows: &mut dyn Rows,
    opts: &ParseOptions,
    g: &GrammarOptions,
    name: &str,
    warn: &mut Warner,
) -> Result<Event, ParseError> {
    let (sample, names) = sample_with_names(rows, opts, warn)?;
    let list = column_names(&names, &sample);
    let cols = Columns::resolve(&list, opts)?;
    let used = cols.used();
    let series_hint = series_candidate(&sample, &list, &cols);
    let limits = Limits::default();
    let mut table: Vec<(OwnedRow, Loc)> = sample
        .into_iter()
        .map(|(r, loc)| (pick(&r, &used), loc))
        .collect();
    while let Some(loc) = rows.next_row(warn)? {
        if table.len() > limits.max_rows {
            return Err(ParseError::Data(format!(
                "more than {} rows: a chart spec holds at most that many; \
                 thin the table first (e.g. awk 'NR % 10 == 1')",
                limits.max_rows
            )));
        }
        table.push((pick(rows.current(), &used), loc));
    }
    let mut columns: Vec<Column> = Vec::new();
    for (at, &c) in used.iter().enumerate() {
        let want = if c == cols.x {
            None
        } else if Some(c) == cols.series {
            Some(FieldType::String)
        } else {
            Some(FieldType::Number)
        };
        let col = column(&list[c], &table, at, want, rows.mark_hint(), opts, warn)?;
        let key = unique_key(&col.key, &columns);
        columns.push(Column { key, ..col });
    }
    let spec = spec_of(&columns, &cols, &used, table.len(), opts, g);
    if let Some(note) = repeated_x_note(&spec, &columns[0], series_hint.as_deref()) {
        warn.note(note);
    }
    let value = serde_json::to_value(&spec).expect("a spec always serializes");
    let valid = validate_spec(&value, &limits).map_err(|why| {
        ParseError::Usage(format!(
            "the chart these flags describe is not valid: {why}"
        ))
    })?;
    let id = std::path::Path::new(name)
        .file_stem()
        .map_or("table".into(), |s| s.to_string_lossy().into_owned());
    let id = if name == "-" || name.starts_with('<') {
        "table".into()
    } else {
        id
    };
    let fallback = fallback_text(&valid.spec, &columns, &cols, &used, table.len());
    Ok(ui_event(
        &id,
        opts.title.as_deref(),
        &valid.spec,
        Some(&fallback),
    ))
}

/// The names, padded with `column N` for cells past the header.
fn column_names(names: &Names, sample: &[(OwnedRow, Loc)]) -> Vec<String> {
    let width = sample.iter().map(|(r, _)| r.len()).max().unwrap_or(0);
    let mut list = names.list.clone();
    for i in list.len()..width.max(list.len()) {
        list.push(format!("column {}", i + 1));
    }
    list
}

/// The cells of the used columns only, trimmed.
fn pick(row: &dyn super::rows::Cells, used: &[usize]) -> OwnedRow {
    let row = owned(row);
    used.iter()
        .map(|&c| cell(&row, c).map(|s| s.into_owned()))
        .collect()
}

fn unique_key(key: &str, taken: &[Column]) -> String {
    let mut k = key.to_string();
    let mut n = 2;
    while taken.iter().any(|c| c.key == k) {
        k = format!("{key} {n}");
        n += 1;
    }
    k
}

/// Types one column (as `want` says, else from its cells) and reads its
/// cells: see the module doc.
fn column(
    name: &str,
    table: &[(OwnedRow, Loc)],
    at: usize,
    want: Option<FieldType>,
    hint: MarkHint,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<Column, ParseError> {
    let texts: Vec<Option<&str>> = table
        .iter()
        .map(|(r, _)| r[at].as_deref().filter(|c| !is_missing(c)))
        .collect();
    let header = header_unit(name);
    let label = match &header {
        Some(u) => strip_unit(name, u),
        None => name.trim().to_string(),
    };
    let ty = want.unwrap_or_else(|| cell_type(&texts, at == 0));
    let (cells, unit) = match ty {
        FieldType::Number => number_cells(name, &texts, table, header, hint, opts, warn)?,
        _ => (
            texts
                .iter()
                .map(|t| t.map_or(Value::Null, Value::from))
                .collect(),
            header,
        ),
    };
    Ok(Column {
        key: label.clone(),
        field: Field {
            ty,
            label: Some(label).filter(|l| !l.is_empty()),
            unit,
        },
        cells,
    })
}

/// The type of a column's cells (those present): dates written with `-`
/// or `T` (or years, on x: `1952`), numbers, else strings.
fn cell_type(texts: &[Option<&str>], x: bool) -> FieldType {
    let present = || texts.iter().flatten().copied();
    let is_date = |c: &str| parse_date(c).is_some() && (c.contains('-') || c.contains('T'));
    if present().next().is_some() && present().all(|c| is_date(c) || (x && looks_like_year(c))) {
        FieldType::Date
    } else if present().next().is_some() && present().all(|c| parse_number(c).is_some()) {
        FieldType::Number
    } else {
        FieldType::String
    }
}

/// A number column's cells (`texts`, those of `table`), read with its
/// decimal mark, and its unit: the header's (`unit`), else the one its
/// cells share. A cell that is no number is a gap; a column of gaps only
/// is an error.
fn number_cells(
    name: &str,
    texts: &[Option<&str>],
    table: &[(OwnedRow, Loc)],
    mut unit: Option<String>,
    hint: MarkHint,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<(Vec<Value>, Option<String>), ParseError> {
    let present = || texts.iter().flatten().copied();
    let dec = opts.decimal.unwrap_or_else(|| {
        let choice = decide_decimal(present(), hint);
        if let Some(note) = doubt_note(name, &choice) {
            warn.note(note);
        }
        choice.mark
    });
    if unit.is_none() {
        unit = common_unit(present()).unwrap_or_else(|mixed| {
            warn.note(format!(
                "column {name:?} mixes units ({})",
                mixed.join(", ")
            ));
            None
        });
    }
    let mut cells = Vec::with_capacity(texts.len());
    for (t, (_, loc)) in texts.iter().zip(table) {
        cells.push(match t.map(|c| (c, number(c, dec))) {
            Some((_, Some(v))) => v.into(),
            Some((c, None)) => {
                warn.skip(format!(
                    "{loc}, column {name:?}: {c:?} is not a number; left as a gap"
                ))?;
                Value::Null
            }
            None => Value::Null,
        });
    }
    if cells.iter().all(Value::is_null) {
        return Err(ParseError::Data(format!(
            "column {name:?} holds no numbers; a -y column needs numbers such as 2.9, 1,234 or 12%"
        )));
    }
    Ok((cells, unit))
}

/// A text column of the sample (not x, not a -y) that names one row per
/// x value: what `-s` would split a line by.
fn series_candidate(sample: &[(OwnedRow, Loc)], list: &[String], cols: &Columns) -> Option<String> {
    (0..list.len())
        .filter(|&c| c != cols.x && !cols.ys.contains(&c) && Some(c) != cols.series)
        .find(|&c| {
            let mut seen = std::collections::HashSet::new();
            let text = sample
                .iter()
                .filter_map(|(r, _)| cell(r, c))
                .any(|v| parse_number(&v).is_none());
            text && sample.iter().all(|(r, _)| {
                seen.insert((
                    cell(r, cols.x).map(|v| v.into_owned()),
                    cell(r, c).map(|v| v.into_owned()),
                ))
            })
        })
        .map(|c| list[c].clone())
}

/// A line or area whose x repeats within one series goes up and down at
/// each x: said, with what splits it into lines.
fn repeated_x_note(spec: &ChartSpec, x: &Column, series_hint: Option<&str>) -> Option<String> {
    let joined = spec
        .marks
        .iter()
        .any(|m| matches!(m.kind, MarkKind::Line | MarkKind::Area) && m.series.is_none());
    if !joined || x.field.ty == FieldType::String {
        return None;
    }
    // Each value's count, in order of first appearance: the most
    // repeated, the first of equals.
    let mut at: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut counts: Vec<(String, usize)> = Vec::new();
    for c in x.cells.iter().filter(|c| !c.is_null()) {
        let k = *at.entry(c.to_string()).or_insert_with(|| {
            counts.push((c.to_string(), 0));
            counts.len() - 1
        });
        counts[k].1 += 1;
    }
    let (value, n) = counts.into_iter().rev().max_by_key(|(_, n)| *n)?;
    if n < 2 {
        return None;
    }
    let how = match series_hint {
        Some(s) => format!("-s {s:?} draws one line per {s}"),
        None => "-s COLUMN draws one line per value of a column".into(),
    };
    Some(format!(
        "x column {:?} repeats ({} is in {n} rows): one line through them goes up and down at \
         each x, drawn in x order; {how}, --mark point draws the points alone",
        x.key,
        value.trim_matches('"')
    ))
}

fn number(c: &str, dec: Decimal) -> Option<f64> {
    parse_number_as(c, dec).map(|n| n.value)
}

/// `pace (s/km)` without its unit: `pace`.
fn strip_unit(name: &str, unit: &str) -> String {
    let t = name.trim();
    for (open, close) in [('(', ')'), ('[', ']')] {
        let tail = format!("{open}{unit}{close}");
        if let Some(head) = t.strip_suffix(&tail) {
            return head.trim().to_string();
        }
    }
    t.to_string()
}

fn spec_of(
    columns: &[Column],
    cols: &Columns,
    used: &[usize],
    rows: usize,
    opts: &ParseOptions,
    g: &GrammarOptions,
) -> ChartSpec {
    let key_of = |c: usize| {
        columns[used.iter().position(|&u| u == c).unwrap_or(0)]
            .key
            .clone()
    };
    let mut spec = ChartSpec {
        dataset: Dataset {
            rows: (0..rows)
                .map(|i| {
                    columns
                        .iter()
                        .filter(|c| !c.cells[i].is_null())
                        .map(|c| (c.key.clone(), c.cells[i].clone()))
                        .collect::<Map<String, Value>>()
                })
                .collect(),
        },
        fields: columns
            .iter()
            .map(|c| (c.key.clone(), c.field.clone()))
            .collect(),
        ..ChartSpec::default()
    };
    let x = key_of(cols.x);
    let categories = columns[0].field.ty == FieldType::String;
    for (i, &y) in cols.ys.iter().enumerate() {
        let kind = g.marks.get(i).copied().flatten().unwrap_or(if categories {
            MarkKind::Bar
        } else {
            MarkKind::Line
        });
        let mut m = Mark::new(kind);
        m.x = Some(x.clone());
        m.y = Some(key_of(y));
        m.series = cols.series.map(key_of);
        spec.marks.push(m);
    }
    for r in &g.refs {
        let mut m = Mark::new(if r.to.is_some() {
            MarkKind::Rectangle
        } else {
            MarkKind::Rule
        });
        match (&r.to, r.x) {
            (Some(to), true) => (m.x_start, m.x_end) = (Some(r.from.clone()), Some(to.clone())),
            (Some(to), false) => (m.y_start, m.y_end) = (Some(r.from.clone()), Some(to.clone())),
            (None, true) => m.x_value = Some(r.from.clone()),
            (None, false) => m.y_value = Some(r.from.clone()),
        }
        m.label = r.label.clone();
        spec.marks.push(m);
    }
    let axis = |label: &Option<String>| {
        label.as_ref().map(|l| Axis {
            label: Some(l.clone()),
            ..Axis::default()
        })
    };
    spec.axes = Axes {
        x: axis(&opts.x_label),
        y: axis(&opts.y_label),
    };
    spec
}

/// What a reader without the chart should know: which columns over which,
/// how many rows, and the references.
fn fallback_text(
    spec: &ChartSpec,
    columns: &[Column],
    cols: &Columns,
    used: &[usize],
    rows: usize,
) -> String {
    let label = |c: usize| {
        let col = &columns[used.iter().position(|&u| u == c).unwrap_or(0)];
        spec.field_label(&col.key).to_string()
    };
    let ys: Vec<String> = cols.ys.iter().map(|&y| label(y)).collect();
    let s = if rows == 1 { "" } else { "s" };
    let mut text = format!("{} by {}, {rows} row{s}", ys.join(" and "), label(cols.x));
    let labels: Vec<&str> = spec
        .marks
        .iter()
        .filter_map(|m| m.label.as_deref())
        .collect();
    if !labels.is_empty() {
        text.push_str(&format!("; marked: {}", labels.join(", ")));
    }
    text
}

#[cfg(test)]
mod tests;
