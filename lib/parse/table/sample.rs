//! The sample a table's layout is chosen from: its first rows and its
//! column names (the format's own, else a first row that looks like a
//! header), the rows wider than a header set aside and named, and the
//! check that some cell is a number.

use super::super::number::parse_number;
use super::super::rows::{Cells, Loc, Names, OwnedRow, Rows, Warner, cell, owned};
use super::super::{ParseError, ParseOptions, examples_error};
use super::{SAMPLE_ROWS, doubts, is_text, stats};

/// The first rows and the column names: the format's own, else the
/// first row when it looks like a header (or names a column a flag asks
/// for). At least one data row, else the input is not data.
pub(crate) fn sample_with_names(
    rows: &mut dyn Rows,
    opts: &ParseOptions,
    warn: &mut Warner,
) -> Result<(Vec<(OwnedRow, Loc)>, Names), ParseError> {
    let mut sample: Vec<(OwnedRow, Loc)> = Vec::new();
    while sample.len() < SAMPLE_ROWS {
        match rows.next_row(warn)? {
            Some(loc) => sample.push((owned(rows.current()), loc)),
            None => break,
        }
    }
    let what = rows.what();
    let names = match rows.names() {
        Some(n) => n,
        None => {
            if sample.is_empty() {
                return Err(examples_error(format!("{what} with no rows")));
            }
            let first = &sample[0].0;
            let header = match opts.header {
                Some(h) => h,
                None => {
                    let by_name = opts
                        .label
                        .iter()
                        .chain(&opts.values)
                        .chain(&opts.series)
                        .any(|r| {
                            r.parse::<usize>().is_err()
                                && first.iter().flatten().any(|c| c.trim() == r.trim())
                        });
                    let body = &sample[1..];
                    let st = stats(body, first.len());
                    let header = by_name
                        || (body.is_empty()
                            && !(0..first.len()).any(|i| {
                                cell(first, i).is_some_and(|c| parse_number(&c).is_some())
                            }))
                        || (0..first.len()).any(|i| st[i].numeric() && is_text(cell(first, i)))
                        || doubts::text_header(first, body, &st);
                    match doubts::year_header(first, body, &st).filter(|_| !header) {
                        Some((header, note)) => {
                            warn.note(note);
                            header
                        }
                        None => header,
                    }
                }
            };
            if header {
                let (row, _) = sample.remove(0);
                Names {
                    list: row
                        .iter()
                        .enumerate()
                        .map(|(i, c)| match c.as_deref().map(str::trim) {
                            Some(c) if !c.is_empty() => c.to_string(),
                            _ => format!("column {}", i + 1),
                        })
                        .collect(),
                    real: true,
                }
            } else {
                Names {
                    list: Vec::new(),
                    real: false,
                }
            }
        }
    };
    if sample.is_empty() {
        return Err(examples_error(format!(
            "{what} with a header ({}) but no data rows",
            names.list.join(", ")
        )));
    }
    Ok((sample, names))
}

/// Rows of a sample, each with where it came from.
type Sampled = Vec<(OwnedRow, Loc)>;

/// The sample's rows that fit a header of `width` fields, and the ragged
/// ones set aside; none fits: every ragged row said, and an error.
pub(super) fn set_aside_ragged(
    sample: Sampled,
    width: usize,
    names: &Names,
    delimiter: u8,
    warn: &mut Warner,
) -> Result<(Sampled, Sampled), ParseError> {
    let (wide, sample): (Vec<_>, Vec<_>) = sample
        .into_iter()
        .partition(|(row, loc)| ragged(row, width, *loc, delimiter).is_some());
    if sample.is_empty() {
        for (row, loc) in &wide {
            if let Some(m) = ragged(row, width, *loc, delimiter) {
                warn.skip(m)?;
            }
        }
        return Err(ParseError::Data(format!(
            "every row has more fields than the header ({}); quote values that contain {:?}",
            names.list.join(", "),
            delimiter as char
        )));
    }
    Ok((sample, wide))
}

/// An error unless some cell of the sample is a number.
pub(super) fn some_number(sample: &[(OwnedRow, Loc)], names: &Names) -> Result<(), ParseError> {
    if sample.iter().any(|(r, _)| {
        (0..r.width()).any(|i| cell(r, i).is_some_and(|c| parse_number(&c).is_some()))
    }) {
        return Ok(());
    }
    let cols: Vec<String> = if names.list.is_empty() {
        sample[0]
            .0
            .iter()
            .map(|c| c.as_deref().unwrap_or("").trim().to_string())
            .collect()
    } else {
        names.list.clone()
    };
    Err(ParseError::Data(format!(
        "no column holds numbers (columns: {}); a chart needs a column of numbers such as 2.9, 1,234 or 12%",
        cols.join(", ")
    )))
}

pub(super) fn line_of(l: Loc) -> u64 {
    match l {
        Loc::Line(n) => n,
        Loc::Record(n) => n as u64,
    }
}

/// Why a row does not fit a header of `width` fields, if it does not:
/// only fields beyond it that hold something count (a trailing delimiter
/// is harmless).
pub(super) fn ragged(row: &dyn Cells, width: usize, loc: Loc, delimiter: u8) -> Option<String> {
    let n = row.width();
    ((width..n).any(|i| cell(row, i).is_some())).then(|| {
        let d = delimiter as char;
        format!(
            "{loc} has {n} fields but the header has {width}; a {d:?} inside a value? \
             quote that value (\"$1{d}200\"); row skipped"
        )
    })
}
