//! The sample a table's layout is chosen from: its first rows and its
//! column names (the format's own, else a first row that looks like a
//! header), the rows wider than a header set aside and named, and the
//! check that some cell is a number.

use super::super::number::parse_number;
use super::super::rows::{Cells, Loc, Names, OwnedRow, Rows, Warner, cell, owned};
use super::super::{ParseError, ParseOptions, examples_error};
use super::{SAMPLE_ROWS, doubts, is_text, stats};
use crate::parse::transform::AggregateOp;
use crate::spec::Sort;

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

/// No flag, no number in the sample and no header: the options that
/// count the rows by the first column whose values repeat (a column of
/// labels, `cut -d, -f1 flights.csv`), largest first, and the note that
/// says so; `None` where a number, a flag or a header leaves the choice
/// to the others.
pub(super) fn count_by_repeating(
    sample: &[(OwnedRow, Loc)],
    names: &Names,
    opts: &ParseOptions,
) -> Option<(ParseOptions, String)> {
    let flagged = opts.label.is_some()
        || !opts.values.is_empty()
        || opts.series.is_some()
        || opts.transform.aggregate.is_some()
        || opts.chart.is_some();
    if flagged || names.real || some_number(sample, names).is_ok() {
        return None;
    }
    let width = sample.iter().map(|(r, _)| r.width()).max().unwrap_or(0);
    let c = (0..width).find(|&i| {
        let mut v: Vec<String> = sample
            .iter()
            .filter_map(|(r, _)| cell(r, i).map(|c| c.into_owned()))
            .collect();
        let n = v.len();
        v.sort_unstable();
        v.dedup();
        n >= 2 && v.len() * 2 <= n
    })?;
    let mut o = opts.clone();
    o.transform.aggregate = Some(AggregateOp::Count);
    o.label = Some((c + 1).to_string());
    o.sort = o.sort.or(Some(Sort::Desc));
    let note = format!(
        "no column holds numbers: counting the rows by column {}, whose values repeat; -x \
         chooses another column",
        c + 1
    );
    Some((o, note))
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

/// A row holding a NUL byte, which text never does: the message naming
/// it; the row is skipped (refused under `--strict`), wherever it is.
pub(super) fn nul_row(row: &dyn Cells, loc: Loc) -> Option<String> {
    (0..row.width())
        .any(|i| row.raw(i).is_some_and(|c| c.contains('\0')))
        .then(|| format!("{loc} holds a NUL byte (binary data?); row skipped"))
}

/// A row of delimited text with fewer fields than its header (a cut last
/// row, a row missing its last fields): the message naming it, fields
/// expected and found. The row is kept, its missing cells empty.
pub(super) fn short_row(row: &dyn Cells, width: usize, loc: Loc) -> Option<String> {
    let n = row.width();
    (n < width).then(|| {
        format!(
            "{loc} has {n} field{} but the header has {width}; a cut row? \
             the missing {} read as empty",
            if n == 1 { "" } else { "s" },
            if width - n == 1 { "one is" } else { "ones are" }
        )
    })
}

/// Rows read past the sample at most, looking for where a column that is
/// one value throughout the sample changes (files sorted by place).
const LOOK_AHEAD_ROWS: usize = 10_000;
/// Bytes of cells read past the sample at most, the same look.
const LOOK_AHEAD_BYTES: usize = 4 << 20;

/// The text columns that hold one value in every row of `rows`, with it.
fn constant_text(rows: &[(OwnedRow, Loc)]) -> Vec<(usize, String)> {
    let Some((first, _)) = rows.first() else {
        return Vec::new();
    };
    (0..first.len())
        .filter_map(|i| {
            let v = cell(first, i).filter(|c| is_text(Some(c.clone())))?;
            let v = v.trim().to_string();
            rows.iter()
                .all(|(r, _)| cell(r, i).is_some_and(|c| c.trim() == v))
                .then_some((i, v))
        })
        .collect()
}

/// Whether a row holds another text than the constant ones.
fn changes(row: &OwnedRow, constant: &[(usize, String)]) -> bool {
    constant
        .iter()
        .any(|(i, v)| cell(row, *i).is_some_and(|c| is_text(Some(c.clone())) && c.trim() != v))
}

/// A full sample whose text column holds one value throughout may be the
/// first stretch of a file sorted by that column (weather.csv: 1,461 rows
/// of Seattle, then New York): the rows on to where it changes, and a
/// sample's worth after, are read too (at most [`LOOK_AHEAD_ROWS`] and
/// [`LOOK_AHEAD_BYTES`], kept to be charted in order), so that the choice
/// sees both stretches ([`decision_rows`]). The sample's length before.
pub(crate) fn look_past_constant(
    rows: &mut dyn Rows,
    sample: &mut Vec<(OwnedRow, Loc)>,
    warn: &mut Warner,
) -> Result<usize, ParseError> {
    let head = sample.len();
    if head + 1 < SAMPLE_ROWS {
        return Ok(head);
    }
    let constant = constant_text(sample);
    if constant.is_empty() {
        return Ok(head);
    }
    let (mut bytes, mut change) = (0, None);
    while sample.len() < head + LOOK_AHEAD_ROWS && bytes < LOOK_AHEAD_BYTES {
        if change.is_some_and(|c| sample.len() >= c + head) {
            break;
        }
        let Some(loc) = rows.next_row(warn)? else {
            break;
        };
        let row = owned(rows.current());
        bytes += row.iter().flatten().map(|c| c.len() + 24).sum::<usize>();
        if change.is_none() && changes(&row, &constant) {
            change = Some(sample.len());
        }
        sample.push((row, loc));
    }
    Ok(head)
}

/// The rows a layout is chosen from: the first `head` rows, and where a
/// column constant in them changes further on, as many from there.
pub(crate) fn decision_rows(sample: &[(OwnedRow, Loc)], head: usize) -> Vec<(OwnedRow, Loc)> {
    let head = head.min(sample.len());
    let mut rows = sample[..head].to_vec();
    let constant = constant_text(&rows);
    if let Some(k) = (head..sample.len()).find(|&k| changes(&sample[k].0, &constant)) {
        rows.extend_from_slice(&sample[k..(k + head).min(sample.len())]);
    }
    rows
}
