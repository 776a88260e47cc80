//! Reading a spec's rows: cells as typed values, columns of one field,
//! ISO 8601 dates as instants, and the type of an undeclared field.

use jiff::Timestamp;
use jiff::civil::{Date, DateTime};
use serde_json::{Map, Value};

use super::FieldType;

/// One field's values in row order; `None` is a gap (missing, `null`, or
/// a cell a validated spec would not hold).
#[derive(Debug, Clone, PartialEq)]
pub enum Column {
    Number(Vec<Option<f64>>),
    /// Seconds since 1970-01-01T00:00:00Z.
    Date(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
}

/// One cell read as its field's type.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    Number(f64),
    Date(f64),
    Text(String),
}

impl Scalar {
    /// Reads a cell; `None` for a gap or a value that does not fit.
    pub fn read(cell: &Value, ty: FieldType) -> Option<Scalar> {
        match (ty, cell) {
            (FieldType::Number, Value::Number(n)) => {
                n.as_f64().filter(|v| v.is_finite()).map(Scalar::Number)
            }
            (FieldType::Date, Value::String(s)) => parse_date(s).map(Scalar::Date),
            (FieldType::String, Value::String(s)) => Some(Scalar::Text(s.clone())),
            (FieldType::String, Value::Number(n)) => Some(Scalar::Text(n.to_string())),
            (FieldType::String, Value::Bool(b)) => Some(Scalar::Text(b.to_string())),
            _ => None,
        }
    }

    /// The position of a number or date; `None` for text.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Scalar::Number(v) | Scalar::Date(v) => Some(*v),
            Scalar::Text(_) => None,
        }
    }
}

impl Column {
    pub fn read(rows: &[Map<String, Value>], name: &str, ty: FieldType) -> Column {
        let cells = rows
            .iter()
            .map(|r| r.get(name).and_then(|c| Scalar::read(c, ty)));
        match ty {
            FieldType::Number => {
                Column::Number(cells.map(|s| s.and_then(|s| s.as_f64())).collect())
            }
            FieldType::Date => Column::Date(cells.map(|s| s.and_then(|s| s.as_f64())).collect()),
            FieldType::String => Column::Text(
                cells
                    .map(|s| match s {
                        Some(Scalar::Text(t)) => Some(t),
                        _ => None,
                    })
                    .collect(),
            ),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Column::Number(v) | Column::Date(v) => v.len(),
            Column::Text(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Positions of a number or date column; `None` for text.
    pub fn positions(&self) -> Option<&[Option<f64>]> {
        match self {
            Column::Number(v) | Column::Date(v) => Some(v),
            Column::Text(_) => None,
        }
    }

    pub fn texts(&self) -> Option<&[Option<String>]> {
        match self {
            Column::Text(v) => Some(v),
            _ => None,
        }
    }
}

/// An ISO 8601 date or date-time as seconds since the epoch: `2026`,
/// `2026-03`, `2026-03-01`, `2026-03-01T07:30[:00[.5]]` (UTC), or with
/// `Z` or an offset. Anything else is `None`.
pub fn parse_date(s: &str) -> Option<f64> {
    let s = s.trim();
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let date = match b.len() {
        4 if digits(0..4) => format!("{s}-01-01"),
        7 if digits(0..4) && b[4] == b'-' && digits(5..7) => format!("{s}-01"),
        10 => s.to_string(),
        _ => String::new(),
    };
    if !date.is_empty() {
        let d: Date = date.parse().ok()?;
        return Some(
            d.to_zoned(jiff::tz::TimeZone::UTC)
                .ok()?
                .timestamp()
                .as_second() as f64,
        );
    }
    if let Ok(t) = s.parse::<Timestamp>() {
        return Some(t.as_millisecond() as f64 / 1000.0);
    }
    let dt: DateTime = s.parse().ok()?;
    let t = dt.to_zoned(jiff::tz::TimeZone::UTC).ok()?.timestamp();
    Some(t.as_millisecond() as f64 / 1000.0)
}

/// The type of an undeclared field from its cells: `number` when every
/// non-null cell is a number, `date` when every one is an ISO 8601 string,
/// else `string`. `None` when no row has the field.
pub fn infer_type(rows: &[Map<String, Value>], name: &str) -> Option<FieldType> {
    let mut seen = false;
    let (mut numbers, mut dates) = (true, true);
    for cell in rows.iter().filter_map(|r| r.get(name)) {
        match cell {
            Value::Null => continue,
            Value::Number(_) => dates = false,
            Value::String(s) => {
                numbers = false;
                if dates && parse_date(s).is_none() {
                    dates = false;
                }
            }
            _ => (numbers, dates) = (false, false),
        }
        seen = true;
        if !numbers && !dates {
            break;
        }
    }
    match (seen, numbers, dates) {
        (false, _, _) => rows
            .iter()
            .any(|r| r.contains_key(name))
            .then_some(FieldType::Number),
        (true, true, _) => Some(FieldType::Number),
        (true, _, true) => Some(FieldType::Date),
        _ => Some(FieldType::String),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_every_documented_form() {
        let day = parse_date("2026-03-01").unwrap();
        assert_eq!(day, 1_772_323_200.0);
        assert_eq!(parse_date("2026-03"), Some(day));
        assert_eq!(parse_date("2026-03-01T00:00:00Z"), Some(day));
        assert_eq!(parse_date("2026-03-01T01:00:00+01:00"), Some(day));
        assert_eq!(parse_date("2026-03-01T00:00"), Some(day));
        assert_eq!(parse_date("2026"), parse_date("2026-01-01"));
        for bad in ["", "soon", "2026-13-01", "2026-02-30", "20260", "1e9"] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn types_are_inferred_from_cells() {
        let rows: Vec<Map<String, Value>> = serde_json::from_str(
            r#"[{"a":1,"b":"2026-01-02","c":"x"},{"a":null,"b":"2026-02","c":3}]"#,
        )
        .unwrap();
        assert_eq!(infer_type(&rows, "a"), Some(FieldType::Number));
        assert_eq!(infer_type(&rows, "b"), Some(FieldType::Date));
        assert_eq!(infer_type(&rows, "c"), Some(FieldType::String));
        assert_eq!(infer_type(&rows, "d"), None);
    }
}
