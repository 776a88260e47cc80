//! The layout choices the sample does not settle (a first row that may be
//! column names, which column labels the rows) and the one-line notes
//! that say which reading was taken and which flag takes the other. The
//! decimal mark's note lives in `number`, the date order's in `time` and
//! the delimiter's in `detect`: each beside the rule it reports on.

use super::super::dates::time::{looks_like_year, looks_ordered};
use super::super::rows::{Loc, OwnedRow, cell};
use super::{Stat, resolve};
use crate::parse::number::parse_number;

/// The label column when no `-x` names one: the first column that is not
/// numeric; when all are, the first (unless it is the only candidate and no
/// `-y` was given: then labels are row numbers).
pub(super) fn choose_label(
    list: &[String],
    st: &[Stat],
    series: Option<usize>,
    values: &[usize],
) -> Option<usize> {
    let candidates: Vec<usize> = (0..list.len())
        .filter(|i| Some(*i) != series && !values.contains(i))
        .collect();
    candidates
        .iter()
        .copied()
        .find(|&i| !st[i].numeric())
        .or_else(|| {
            (!values.is_empty() || candidates.len() >= 2)
                .then(|| candidates.first().copied())
                .flatten()
        })
}

/// The note for a label column chosen among others that could label the
/// rows as well: several text columns, or all columns numbers and the
/// first not ordered like an axis (years, dates, rising numbers).
pub(super) fn label_note(
    list: &[String],
    st: &[Stat],
    sample: &[(OwnedRow, Loc)],
    label: usize,
    series: Option<usize>,
    values: &[usize],
) -> Option<String> {
    let name = &list[label];
    if !st[label].numeric() {
        let others: Vec<usize> = (label + 1..list.len())
            .filter(|&i| Some(i) != series && !values.contains(&i))
            .filter(|&i| !st[i].numeric() && has_text(sample, i))
            .collect();
        let first = *others.first()?;
        return Some(format!(
            "the labels come from column {name:?}, the first text column ({} text too); \
             -x {} labels the rows by {:?} instead",
            others
                .iter()
                .map(|&i| format!("{:?}", list[i]))
                .collect::<Vec<_>>()
                .join(", ")
                + if others.len() == 1 { " is" } else { " are" },
            flag_word(list, first),
            list[first]
        ));
    }
    let labels = sample
        .iter()
        .filter_map(|(r, _)| r.get(label).and_then(|c| c.as_deref()));
    if looks_ordered(labels) {
        return None;
    }
    let mut all: Vec<usize> = values.to_vec();
    all.push(label);
    all.sort_unstable();
    Some(format!(
        "column {name:?} holds numbers but labels the rows (when every column holds numbers, \
         the first labels the others); {} charts them all as values over row numbers",
        all.iter()
            .map(|&i| format!("-y {}", flag_word(list, i)))
            .collect::<Vec<_>>()
            .join(" ")
    ))
}

fn has_text(sample: &[(OwnedRow, Loc)], i: usize) -> bool {
    sample.iter().any(|(r, _)| cell(r, i).is_some())
}

/// A column as a flag value the shell takes as it is: its name when that
/// is a plain word naming it alone, else its 1-based number.
pub(super) fn flag_word(list: &[String], i: usize) -> String {
    let name = &list[i];
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
        && !name.starts_with('-')
        && name.parse::<usize>().is_err();
    if plain && resolve(list, name, "").ok() == Some(i) {
        name.clone()
    } else {
        (i + 1).to_string()
    }
}

/// A first row the type rule reads as data that could be column names:
/// every number in it a year (`2022`) standing over a column whose other
/// rows hold numbers but no year. Two or more such years (`region,2022,
/// 2023`, a wide table) make it a header; one alone stays data. Returns
/// the choice and the note saying so.
pub(super) fn year_header(
    first: &OwnedRow,
    body: &[(OwnedRow, Loc)],
    st: &[Stat],
) -> Option<(bool, String)> {
    let numbers: Vec<usize> = (0..first.len())
        .filter(|&i| cell(first, i).is_some_and(|c| parse_number(&c).is_some()))
        .collect();
    let year_over_numbers = |i: usize| {
        st.get(i).is_some_and(Stat::numeric)
            && cell(first, i).is_some_and(|c| looks_like_year(&c))
            && !body
                .iter()
                .any(|(r, _)| cell(r, i).is_some_and(|c| looks_like_year(&c)))
    };
    if body.is_empty() || numbers.is_empty() || !numbers.iter().all(|&i| year_over_numbers(i)) {
        return None;
    }
    let years: Vec<String> = numbers
        .iter()
        .filter_map(|&i| cell(first, i).map(|c| c.into_owned()))
        .collect();
    Some(if numbers.len() >= 2 {
        (
            true,
            format!(
                "the first row is read as column names: its numbers ({}) look like years \
                 above columns of other numbers; --no-header reads it as data",
                years.join(", ")
            ),
        )
    } else {
        (
            false,
            format!(
                "the first row is read as data, though its {} in column {} could be a column \
                 name (a year above other numbers); --header reads it as column names",
                years[0],
                numbers[0] + 1
            ),
        )
    })
}

/// The first row of a table with no number anywhere, read as its column
/// names when each of its cells is a word or words (letters, `_`, `-`,
/// spaces) that its column's other rows never hold: `carrier,name` over
/// `9E,Endeavor Air Inc.`.
pub(super) fn text_header(first: &OwnedRow, body: &[(OwnedRow, Loc)], st: &[Stat]) -> bool {
    if body.is_empty() || first.is_empty() || st.iter().any(Stat::numeric) {
        return false;
    }
    (0..first.len()).all(|i| {
        let Some(c) = cell(first, i) else {
            return false;
        };
        let word = c.len() <= 40
            && c.chars()
                .all(|ch| ch.is_alphabetic() || matches!(ch, '_' | '-' | ' ' | '.'));
        word && !body.iter().any(|(r, _)| cell(r, i).is_some_and(|b| b == c))
    })
}
