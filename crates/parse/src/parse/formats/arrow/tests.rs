use std::sync::Arc;

use arrow_array::builder::{Int32Builder, ListBuilder};
use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, BooleanArray, Date32Array, Decimal128Array, DictionaryArray, Float32Array,
    Float64Array, Int64Array, StringArray, Time64MicrosecondArray, TimestampMillisecondArray,
};

use super::*;
use crate::parse::rows::{OwnedRow, owned};

/// Every row of `columns` (one batch, or two when `split`), the numbers of
/// the cells, and the notes.
fn read(
    columns: Vec<(&str, ArrayRef)>,
    split: bool,
) -> (Vec<OwnedRow>, Vec<Vec<Option<f64>>>, Vec<String>) {
    let batch = RecordBatch::try_from_iter(columns).unwrap();
    let schema = batch.schema();
    let batches: Vec<Result<RecordBatch, ArrowError>> = if split {
        let half = batch.num_rows() / 2;
        vec![
            Ok(batch.slice(0, half)),
            Ok(batch.slice(half, batch.num_rows() - half)),
        ]
    } else {
        vec![Ok(batch)]
    };
    let mut rows = BatchRows::new(&schema, Box::new(batches.into_iter()), "test batches");
    let mut notes = Vec::new();
    let mut sink = |m: String| notes.push(m);
    let mut warn = Warner::new(&mut sink, false);
    let (mut cells, mut numbers) = (Vec::new(), Vec::new());
    let mut n = 0;
    while let Some(loc) = rows.next_row(&mut warn).unwrap() {
        n += 1;
        assert_eq!(loc, Loc::Record(n));
        let row = rows.current();
        cells.push(owned(row));
        numbers.push(
            (0..row.width())
                .map(|i| row.number(i, Decimal::Auto))
                .collect(),
        );
    }
    (cells, numbers, notes)
}

/// A row's cells, `-` for a missing one.
fn shown(row: &OwnedRow) -> Vec<&str> {
    row.iter().map(|c| c.as_deref().unwrap_or("-")).collect()
}

fn column(a: impl Array + 'static) -> ArrayRef {
    Arc::new(a)
}

#[test]
fn typed_columns_read_as_their_type_says() {
    let dict: DictionaryArray<Int32Type> = vec!["JFK", "LGA", "JFK"].into_iter().collect();
    let (cells, numbers, notes) = read(
        vec![
            (
                "name",
                column(StringArray::from(vec![Some("a"), None, Some("c")])),
            ),
            (
                "n",
                column(Int64Array::from(vec![9_007_199_254_740_993, -2, 3])),
            ),
            ("f", column(Float32Array::from(vec![0.1, f32::NAN, 2.5]))),
            ("x", column(Float64Array::from(vec![1e300, 1.5, -0.25]))),
            (
                "price",
                column(
                    Decimal128Array::from(vec![12345, -5, 100])
                        .with_precision_and_scale(10, 2)
                        .unwrap(),
                ),
            ),
            ("ok", column(BooleanArray::from(vec![true, false, true]))),
            ("origin", column(dict)),
        ],
        true,
    );
    let text = |r: usize| shown(&cells[r]);
    assert_eq!(
        text(0),
        [
            "a",
            "9007199254740993",
            "0.1",
            "1e+300",
            "123.45",
            "true",
            "JFK"
        ]
    );
    assert_eq!(text(1), ["-", "-2", "NaN", "1.5", "-0.05", "false", "LGA"]);
    assert_eq!(
        numbers[0][1..5],
        [
            Some(9_007_199_254_740_992.0),
            Some(0.1),
            Some(1e300),
            Some(123.45)
        ]
    );
    assert_eq!(numbers[1][2], None);
    assert_eq!(numbers[2][0], None);
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn dates_and_times_are_iso_8601() {
    let day = 19_727; // 2024-01-05
    let ms = i64::from(day) * 86_400_000;
    let (cells, _, _) = read(
        vec![
            ("d", column(Date32Array::from(vec![day, 0]))),
            (
                "t",
                column(TimestampMillisecondArray::from(vec![ms, ms + 37_800_500])),
            ),
            (
                "tz",
                column(
                    TimestampMillisecondArray::from(vec![ms + 3_600_000, ms])
                        .with_timezone("+01:00"),
                ),
            ),
            (
                "clock",
                column(Time64MicrosecondArray::from(vec![37_800_000_000, 1])),
            ),
        ],
        false,
    );
    let text = |r: usize| shown(&cells[r]);
    assert_eq!(
        text(0),
        [
            "2024-01-05",
            "2024-01-05",
            "2024-01-05T01:00:00Z",
            "10:30:00"
        ]
    );
    assert_eq!(
        text(1),
        [
            "1970-01-01",
            "2024-01-05T10:30:00.5",
            "2024-01-05",
            "00:00:00.000001"
        ]
    );
}

#[test]
fn columns_of_other_types_are_named_and_read_as_missing() {
    let mut list = ListBuilder::new(Int32Builder::new());
    list.values().append_value(1);
    list.append(true);
    let (cells, _, notes) = read(
        vec![
            ("v", column(Int64Array::from(vec![4]))),
            ("l", column(list.finish())),
        ],
        false,
    );
    assert_eq!(cells, [vec![Some("4".to_string()), None]]);
    assert_eq!(notes.len(), 1);
    assert!(notes[0].starts_with("\"l\" (List("), "{notes:?}");
}
