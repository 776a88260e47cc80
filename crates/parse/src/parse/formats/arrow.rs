//! Columnar inputs as rows: Arrow record batches (from an Arrow IPC file or
//! stream here, from Parquet in [`super::parquet`]) read one batch at a
//! time, so memory follows the batch, not the file. Columns are typed, so
//! nothing is sniffed: integers, floats and decimals are numbers as they
//! are ([`Cells::number`] gives the value itself), dates and timestamps
//! are written as ISO 8601 (`2024-01-05`, `2024-01-05T10:30:00`, with `Z`
//! when the column has a time zone), strings and booleans as their text.
//! A column of a type that holds no chartable value (lists, structs,
//! binary, intervals) is read as missing, with a note naming it.

use std::borrow::Cow;
use std::io::{BufRead, Read, Seek};

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Date32Type, Date64Type, Decimal32Type, Decimal64Type, Decimal128Type, Decimal256Type,
    DecimalType, Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type,
    Time32MillisecondType, Time32SecondType, Time64MicrosecondType, Time64NanosecondType,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{ArrowError, DataType, Schema, TimeUnit};

use super::super::ParseError;
use super::super::number::{Decimal, MarkHint};
use super::super::rows::{Cells, Loc, Names, Rows, Warner};

/// Record batches, as a reader of a columnar file gives them.
pub(crate) type Batches<'a> = Box<dyn Iterator<Item = Result<RecordBatch, ArrowError>> + 'a>;

/// Rows of record batches (see the module doc).
pub(crate) struct BatchRows<'a> {
    batches: Batches<'a>,
    batch: Option<RecordBatch>,
    /// The current row of `batch`.
    row: usize,
    records: usize,
    names: Vec<String>,
    /// Columns of types read as missing, for the note at the first row.
    unread: Vec<String>,
    what: &'static str,
}

impl<'a> BatchRows<'a> {
    pub(crate) fn new(schema: &Schema, batches: Batches<'a>, what: &'static str) -> Self {
        let fields = schema.fields();
        BatchRows {
            batches,
            batch: None,
            row: 0,
            records: 0,
            names: fields.iter().map(|f| f.name().clone()).collect(),
            unread: fields
                .iter()
                .filter(|f| !readable(f.data_type()))
                .map(|f| format!("{:?} ({})", f.name(), f.data_type()))
                .collect(),
            what,
        }
    }

    fn column(&self, i: usize) -> Option<&dyn Array> {
        Some(self.batch.as_ref()?.columns().get(i)?.as_ref())
    }
}

/// An Arrow IPC file (`ARROW1`; Feather v2), read a record batch at a time.
pub(crate) fn ipc_file_rows<'a, R: Read + Seek + 'a>(file: R) -> Result<BatchRows<'a>, ParseError> {
    let reader = arrow_ipc::reader::FileReader::try_new_buffered(file, None)
        .map_err(|e| bad("an Arrow IPC file", e))?;
    let schema = reader.schema();
    Ok(BatchRows::new(
        &schema,
        Box::new(reader),
        "an Arrow IPC file",
    ))
}

/// An Arrow IPC stream, read a record batch at a time as it comes.
pub(crate) fn ipc_stream_rows<'a>(
    input: Box<dyn BufRead + 'a>,
) -> Result<BatchRows<'a>, ParseError> {
    let reader = arrow_ipc::reader::StreamReader::try_new(input, None)
        .map_err(|e| bad("an Arrow IPC stream", e))?;
    let schema = reader.schema();
    Ok(BatchRows::new(
        &schema,
        Box::new(reader),
        "an Arrow IPC stream",
    ))
}

/// The error for a columnar input that cannot be read.
pub(crate) fn bad(what: &str, e: impl std::fmt::Display) -> ParseError {
    ParseError::Data(format!("{what} that cannot be read: {e}"))
}

impl Rows for BatchRows<'_> {
    fn next_row(&mut self, warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        if self.records == 0 && !self.unread.is_empty() {
            warn.note(format!(
                "{} not charted: of a type without numbers, dates or text; read as missing",
                std::mem::take(&mut self.unread).join(", ")
            ));
        }
        self.row += 1;
        while self.batch.as_ref().is_none_or(|b| self.row >= b.num_rows()) {
            match self.batches.next() {
                None => {
                    self.batch = None;
                    return Ok(None);
                }
                Some(batch) => {
                    self.batch = Some(batch.map_err(|e| bad(self.what, e))?);
                    self.row = 0;
                }
            }
        }
        self.records += 1;
        Ok(Some(Loc::Record(self.records)))
    }
    fn current(&self) -> &dyn Cells {
        self
    }
    fn names(&self) -> Option<Names> {
        Some(Names {
            list: self.names.clone(),
            real: true,
        })
    }
    fn what(&self) -> String {
        self.what.into()
    }
    fn mark_hint(&self) -> MarkHint {
        MarkHint::Point
    }
}

impl Cells for BatchRows<'_> {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>> {
        text(self.column(i)?, self.row)
    }
    fn width(&self) -> usize {
        self.names.len()
    }
    fn number(&self, i: usize, _dec: Decimal) -> Option<f64> {
        let a = self.column(i)?;
        match number(a, self.row) {
            Some(v) => v,
            // Not a numeric column: its text, as any reader's cell.
            None => super::super::plain::plain_number(&text(a, self.row)?, Decimal::Point),
        }
    }
}

/// Whether cells of this type are read (else they are missing).
fn readable(t: &DataType) -> bool {
    use DataType::*;
    match t {
        Dictionary(_, v) => readable(v),
        Null | Boolean | Int8 | Int16 | Int32 | Int64 | UInt8 | UInt16 | UInt32 | UInt64
        | Float16 | Float32 | Float64 | Decimal32(..) | Decimal64(..) | Decimal128(..)
        | Decimal256(..) | Utf8 | LargeUtf8 | Utf8View | Date32 | Date64 | Timestamp(..)
        | Time32(_) | Time64(_) => true,
        _ => false,
    }
}

/// The value of a numeric column's cell: `Some(None)` for a null or a
/// value that is not finite, `None` when the column is not numeric.
fn number(a: &dyn Array, r: usize) -> Option<Option<f64>> {
    if a.is_null(r) {
        return Some(None);
    }
    let v = match a.data_type() {
        DataType::Int8 => f64::from(a.as_primitive::<Int8Type>().value(r)),
        DataType::Int16 => f64::from(a.as_primitive::<Int16Type>().value(r)),
        DataType::Int32 => f64::from(a.as_primitive::<Int32Type>().value(r)),
        DataType::Int64 => a.as_primitive::<Int64Type>().value(r) as f64,
        DataType::UInt8 => f64::from(a.as_primitive::<UInt8Type>().value(r)),
        DataType::UInt16 => f64::from(a.as_primitive::<UInt16Type>().value(r)),
        DataType::UInt32 => f64::from(a.as_primitive::<UInt32Type>().value(r)),
        DataType::UInt64 => a.as_primitive::<UInt64Type>().value(r) as f64,
        DataType::Float16 => a.as_primitive::<Float16Type>().value(r).to_f64(),
        // The shortest decimal that reads back as the f32, as its text
        // says: 0.1, not 0.10000000149011612.
        DataType::Float32 => short_f32(a.as_primitive::<Float32Type>().value(r)),
        DataType::Float64 => a.as_primitive::<Float64Type>().value(r),
        DataType::Decimal32(_, s) => decimal::<Decimal32Type>(a, r, *s),
        DataType::Decimal64(_, s) => decimal::<Decimal64Type>(a, r, *s),
        DataType::Decimal128(_, s) => decimal::<Decimal128Type>(a, r, *s),
        DataType::Decimal256(_, s) => decimal::<Decimal256Type>(a, r, *s),
        DataType::Dictionary(..) => {
            let d = a.as_any_dictionary();
            let key = number(d.keys(), r)??;
            return number(d.values().as_ref(), key as usize);
        }
        _ => return None,
    };
    Some(v.is_finite().then_some(v))
}

fn short_f32(v: f32) -> f64 {
    if v.is_finite() {
        v.to_string().parse().unwrap_or(f64::from(v))
    } else {
        f64::from(v)
    }
}

/// A decimal's value, read through its text (exact to the last digit the
/// text has, as the number parser reads any cell).
fn decimal<T: DecimalType>(a: &dyn Array, r: usize, scale: i8) -> f64 {
    decimal_text::<T>(a, r, scale).parse().unwrap_or(f64::NAN)
}

/// A cell as text (see the module doc); `None` when it is null or of a
/// type that is not read.
fn text(a: &dyn Array, r: usize) -> Option<Cow<'_, str>> {
    if a.is_null(r) {
        return None;
    }
    let owned = |s: String| Some(Cow::Owned(s));
    let int = |v: &dyn std::fmt::Display| owned(v.to_string());
    match a.data_type() {
        DataType::Utf8 => Some(Cow::Borrowed(a.as_string::<i32>().value(r))),
        DataType::LargeUtf8 => Some(Cow::Borrowed(a.as_string::<i64>().value(r))),
        DataType::Utf8View => Some(Cow::Borrowed(a.as_string_view().value(r))),
        DataType::Boolean => Some(Cow::Borrowed(if a.as_boolean().value(r) {
            "true"
        } else {
            "false"
        })),
        DataType::Int8 => int(&a.as_primitive::<Int8Type>().value(r)),
        DataType::Int16 => int(&a.as_primitive::<Int16Type>().value(r)),
        DataType::Int32 => int(&a.as_primitive::<Int32Type>().value(r)),
        DataType::Int64 => int(&a.as_primitive::<Int64Type>().value(r)),
        DataType::UInt8 => int(&a.as_primitive::<UInt8Type>().value(r)),
        DataType::UInt16 => int(&a.as_primitive::<UInt16Type>().value(r)),
        DataType::UInt32 => int(&a.as_primitive::<UInt32Type>().value(r)),
        DataType::UInt64 => int(&a.as_primitive::<UInt64Type>().value(r)),
        DataType::Float16 | DataType::Float32 | DataType::Float64 => owned(match number(a, r)? {
            // serde_json's spelling, as a JSON reader's cell has it.
            Some(v) => serde_json::Number::from_f64(v)?.to_string(),
            None => "NaN".into(),
        }),
        DataType::Decimal32(_, s) => owned(decimal_text::<Decimal32Type>(a, r, *s)),
        DataType::Decimal64(_, s) => owned(decimal_text::<Decimal64Type>(a, r, *s)),
        DataType::Decimal128(_, s) => owned(decimal_text::<Decimal128Type>(a, r, *s)),
        DataType::Decimal256(_, s) => owned(decimal_text::<Decimal256Type>(a, r, *s)),
        DataType::Date32 => owned(date(a.as_primitive::<Date32Type>().value(r))),
        DataType::Date64 => owned(datetime(
            a.as_primitive::<Date64Type>().value(r),
            TimeUnit::Millisecond,
            false,
        )),
        DataType::Timestamp(unit, zone) => {
            owned(datetime(timestamp(a, r, *unit), *unit, zone.is_some()))
        }
        DataType::Time32(unit) | DataType::Time64(unit) => {
            let v = match unit {
                TimeUnit::Second => i64::from(a.as_primitive::<Time32SecondType>().value(r)),
                TimeUnit::Millisecond => {
                    i64::from(a.as_primitive::<Time32MillisecondType>().value(r))
                }
                TimeUnit::Microsecond => a.as_primitive::<Time64MicrosecondType>().value(r),
                TimeUnit::Nanosecond => a.as_primitive::<Time64NanosecondType>().value(r),
            };
            owned(time_of_day(v, *unit))
        }
        DataType::Dictionary(..) => {
            let d = a.as_any_dictionary();
            let key = number(d.keys(), r)??;
            text(d.values().as_ref(), key as usize)
        }
        _ => None,
    }
}

fn timestamp(a: &dyn Array, r: usize, unit: TimeUnit) -> i64 {
    match unit {
        TimeUnit::Second => a.as_primitive::<TimestampSecondType>().value(r),
        TimeUnit::Millisecond => a.as_primitive::<TimestampMillisecondType>().value(r),
        TimeUnit::Microsecond => a.as_primitive::<TimestampMicrosecondType>().value(r),
        TimeUnit::Nanosecond => a.as_primitive::<TimestampNanosecondType>().value(r),
    }
}

fn decimal_text<T: DecimalType>(a: &dyn Array, r: usize, scale: i8) -> String {
    T::format_decimal(a.as_primitive::<T>().value(r), T::MAX_PRECISION, scale)
}

/// Seconds in a day.
const DAY: i64 = 86_400;

/// Days since 1970-01-01 as `2024-01-05`.
fn date(days: i32) -> String {
    jiff::Timestamp::from_second(i64::from(days) * DAY)
        .map(|t| jiff::tz::Offset::UTC.to_datetime(t).date().to_string())
        .unwrap_or_else(|_| format!("{days} days from 1970-01-01"))
}

/// A timestamp as ISO 8601: the date alone at midnight, `Z` after it when
/// the column has a time zone (the instant is the same in any zone).
fn datetime(v: i64, unit: TimeUnit, zoned: bool) -> String {
    let nanos = i128::from(v)
        * match unit {
            TimeUnit::Second => 1_000_000_000,
            TimeUnit::Millisecond => 1_000_000,
            TimeUnit::Microsecond => 1_000,
            TimeUnit::Nanosecond => 1,
        };
    let Ok(t) = jiff::Timestamp::from_nanosecond(nanos) else {
        return format!("{v} {unit:?}s from 1970-01-01");
    };
    let civil = jiff::tz::Offset::UTC.to_datetime(t);
    if civil.time() == jiff::civil::Time::midnight() {
        civil.date().to_string()
    } else if zoned {
        t.to_string()
    } else {
        civil.to_string()
    }
}

/// A time of day as `10:30:00` (with a fraction when it has one).
fn time_of_day(v: i64, unit: TimeUnit) -> String {
    let per_second: i64 = match unit {
        TimeUnit::Second => 1,
        TimeUnit::Millisecond => 1_000,
        TimeUnit::Microsecond => 1_000_000,
        TimeUnit::Nanosecond => 1_000_000_000,
    };
    let nanos = v.rem_euclid(DAY * per_second) * (1_000_000_000 / per_second);
    jiff::civil::Time::midnight()
        .wrapping_add(jiff::SignedDuration::from_nanos(nanos))
        .to_string()
}

#[cfg(test)]
mod tests;
