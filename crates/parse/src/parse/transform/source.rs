//! The input rows a transformed chart carries for its Vega-Lite export:
//! only the columns the transforms read, each cell typed as viz-parse
//! read it (a number as the number it parsed, `1,234` as 1234; a date as
//! RFC 3339 UTC; text as written; anything else `null`), so Vega filters,
//! groups and counts exactly what viz-parse did. At most
//! [`super::SOURCE_ROWS`] rows: past that the chart carries none.

use serde_json::{Map, Value};

use super::super::dates::{DateOrder, instant};
use super::super::number::{Decimal, is_missing, parse_number_as};
use super::CellKind;
use crate::events::format_rfc3339;

/// One column kept: where it is, its name, how its cells are typed.
#[derive(Debug, Clone)]
pub(crate) struct Column {
    pub at: usize,
    pub name: String,
    pub kind: CellKind,
    pub decimal: Decimal,
    pub dates: Option<DateOrder>,
}

/// Rows being kept, until there are too many: a typed cell per column,
/// row after row, made into JSON objects only at the end. (An object a
/// row, its keys copied into each, was 330 bytes a row in small
/// allocations: 1.6 MB of a 1M-point scatter's peak for rows it then
/// dropped.)
#[derive(Debug)]
pub(crate) struct Source {
    columns: Vec<Column>,
    cells: Vec<Typed>,
    rows: usize,
    /// Past the cap: no rows are carried.
    over: bool,
    /// A stand-in that keeps nothing and is never over (the rows of a
    /// derived table are kept from its input: `table/derive.rs`).
    placeholder: bool,
}

/// A cell as the export carries it ([`typed`]), compact until then.
#[derive(Debug)]
enum Typed {
    Null,
    Number(f64),
    Text(Box<str>),
}

impl Typed {
    fn into_value(self) -> Value {
        match self {
            Typed::Null => Value::Null,
            Typed::Number(v) => Value::from(v),
            Typed::Text(t) => Value::String(t.into()),
        }
    }
}

impl Source {
    pub(crate) fn new(columns: Vec<Column>) -> Source {
        Source {
            columns,
            cells: Vec::new(),
            rows: 0,
            over: false,
            placeholder: false,
        }
    }

    /// A stand-in: see `placeholder`.
    pub(crate) fn placeholder() -> Source {
        Source {
            placeholder: true,
            ..Source::new(Vec::new())
        }
    }

    /// A row, its cells given by `cell(column index)` (trimmed).
    pub(crate) fn push<'c>(&mut self, cell: impl Fn(usize) -> Option<std::borrow::Cow<'c, str>>) {
        self.push_read(|_| None, cell);
    }

    /// [`Self::push`], given the numbers already read (`number(column
    /// index)`, `None` for a column not read as a number): a number column's
    /// value is taken as it is, not written out and read again.
    pub(crate) fn push_read<'c>(
        &mut self,
        number: impl Fn(usize) -> Option<f64>,
        cell: impl Fn(usize) -> Option<std::borrow::Cow<'c, str>>,
    ) {
        if self.over || self.placeholder {
            return;
        }
        if self.rows >= super::SOURCE_ROWS {
            self.over = true;
            self.cells = Vec::new();
            return;
        }
        self.rows += 1;
        let columns = &self.columns;
        self.cells
            .extend(columns.iter().map(|c| match (c.kind, number(c.at)) {
                (CellKind::Number, Some(v)) => Typed::Number(v),
                _ => typed(c, cell(c.at).as_deref()),
            }));
    }

    /// Whether rows are no longer kept (there were too many).
    pub(crate) fn is_over(&self) -> bool {
        self.over
    }

    /// The rows, unless there were too many.
    pub(crate) fn finish(self) -> Option<Vec<Map<String, Value>>> {
        if self.over {
            return None;
        }
        let mut cells = self.cells.into_iter();
        let columns = &self.columns;
        let rows = (0..self.rows)
            .map(|_| {
                columns
                    .iter()
                    .zip(cells.by_ref())
                    .map(|(c, v)| (c.name.clone(), v.into_value()))
                    .collect()
            })
            .collect();
        Some(rows)
    }
}

fn typed(c: &Column, cell: Option<&str>) -> Typed {
    let Some(cell) = cell.filter(|s| !is_missing(s)) else {
        return Typed::Null;
    };
    match c.kind {
        CellKind::Text => Typed::Text(cell.into()),
        // (A non-finite number is null: `Value::from` at the end.)
        CellKind::Number => {
            parse_number_as(cell, c.decimal).map_or(Typed::Null, |n| Typed::Number(n.value))
        }
        CellKind::Date => instant(cell, c.dates).map_or(Typed::Null, |(t, _)| {
            let ms = (t * 1000.0).round() as i64;
            Typed::Text(
                format_rfc3339(ms.div_euclid(1000), ms.rem_euclid(1000) as u32).into_boxed_str(),
            )
        }),
    }
}
