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

/// Rows being kept, until there are too many.
#[derive(Debug)]
pub(crate) struct Source {
    columns: Vec<Column>,
    rows: Vec<Map<String, Value>>,
    /// Past the cap: no rows are carried.
    over: bool,
}

impl Source {
    pub(crate) fn new(columns: Vec<Column>) -> Source {
        Source {
            columns,
            rows: Vec::new(),
            over: false,
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
        if self.over {
            return;
        }
        if self.rows.len() >= super::SOURCE_ROWS {
            self.over = true;
            self.rows = Vec::new();
            return;
        }
        let row = self
            .columns
            .iter()
            .map(|c| {
                let value = match (c.kind, number(c.at)) {
                    (CellKind::Number, Some(v)) => Value::from(v),
                    _ => typed(c, cell(c.at).as_deref()),
                };
                (c.name.clone(), value)
            })
            .collect();
        self.rows.push(row);
    }

    /// Whether rows are no longer kept (there were too many).
    pub(crate) fn is_over(&self) -> bool {
        self.over
    }

    /// The rows, unless there were too many.
    pub(crate) fn finish(self) -> Option<Vec<Map<String, Value>>> {
        (!self.over).then_some(self.rows)
    }
}

fn typed(c: &Column, cell: Option<&str>) -> Value {
    let Some(cell) = cell.filter(|s| !is_missing(s)) else {
        return Value::Null;
    };
    match c.kind {
        CellKind::Text => cell.into(),
        CellKind::Number => parse_number_as(cell, c.decimal)
            .map(|n| Value::from(n.value))
            .unwrap_or(Value::Null),
        CellKind::Date => instant(cell, c.dates)
            .map(|(t, _)| {
                let ms = (t * 1000.0).round() as i64;
                Value::from(format_rfc3339(
                    ms.div_euclid(1000),
                    ms.rem_euclid(1000) as u32,
                ))
            })
            .unwrap_or(Value::Null),
    }
}
