//! The role each column plays, from its name, its values and the other
//! columns, beyond what one column shows alone (`columns.rs` measures
//! each): a frequency table's weight (`Freq`, `n`, `count`: whole numbers
//! beside categories naming each row once, summed, never averaged), row
//! numbers (consecutive integers: an identifier, not an amount), codes
//! stored as numbers (0/1, a seed, a department number: groups, never a
//! measure or a line's x). What one column shows alone (codes by name,
//! years only where a year can be) is measured in `columns.rs`. The
//! scoring of charts (`auto/score.rs`) reads these roles; no rule here
//! names a file.

use super::super::number::parse_number;
use super::super::rows::{Loc, OwnedRow, cell};
use super::columns::{CODE_WORDS, Column, Kind, SMALL, words};
use crate::spec::Sort;

/// Names that say a column counts how often its row happens.
const WEIGHT_NAMES: &[&str] = &[
    "freq",
    "frequency",
    "n",
    "count",
    "counts",
    "number",
    "num",
    "nobs",
    "total",
];

/// A code that stands for groups, never an amount even where nothing
/// else is: named as a grouping (`seed`, `dept`) or two values alone.
/// Small whole numbers that are codes by their values only (scores,
/// passengers) may still be the amount.
pub(super) fn stands_for_groups(name: &str, c: &Column) -> bool {
    let named = words(name).iter().any(|w| CODE_WORDS.contains(&w.as_str()));
    c.kind == Kind::Code && (named || c.distinct <= 2)
}

/// Roles that need the other columns: a frequency weight, row numbers.
pub(super) fn assign(list: &[String], sample: &[(OwnedRow, Loc)], cols: &mut [Column]) {
    // Row numbers lead the row (R's row names, a data frame's index); a
    // later column that happens to count up is a value.
    if !cols.is_empty() && cols.len() > 1 && consecutive(sample, 0, &cols[0]) {
        cols[0].kind = Kind::Id;
    }
    // The key leads the row, after any row numbers: numbered once each
    // (a family per row), or in runs (a patient's visits, a pig's weekly
    // weights: a long table's entity), it names things, it is no amount.
    let lead = usize::from(cols.first().is_some_and(|c| c.kind == Kind::Id));
    // A grid's `x` (or `y`) runs so too: positions, not things.
    let axis = list
        .get(lead)
        .is_some_and(|n| matches!(n.trim().to_ascii_lowercase().as_str(), "x" | "y" | "z"));
    if cols.len() > lead + 1
        && !axis
        && (consecutive(sample, lead, &cols[lead]) || in_runs(sample, lead, &cols[lead]))
    {
        cols[lead].kind = Kind::Id;
    }
    if let Some(w) = (0..cols.len()).find(|&i| weight(list, sample, cols, i)) {
        cols[w].kind = Kind::Weight;
    }
}

/// The numbers of column `i` in row order.
pub(super) fn numbers(sample: &[(OwnedRow, Loc)], i: usize) -> Vec<f64> {
    sample
        .iter()
        .filter_map(|(r, _)| cell(r, i).and_then(|c| parse_number(&c).map(|n| n.value)))
        .collect()
}

/// Consecutive whole numbers in row order (1, 2, 3, ...), one per row,
/// over enough rows not to be chance: in the first column, row numbers.
fn consecutive(sample: &[(OwnedRow, Loc)], i: usize, c: &Column) -> bool {
    if !matches!(c.kind, Kind::Ordered | Kind::Number) || c.present < SMALL || c.sparse {
        return false;
    }
    let v = numbers(sample, i);
    v.len() == c.present && v.windows(2).all(|w| w[1] - w[0] == 1.0) && v[0].fract() == 0.0
}

/// Whole numbers that come in runs, each value in one run of its own
/// (1, 1, 2, 2, 2, 3, ...): the rows of each thing together, as a long
/// table keeps them. Enough things and repeats not to be chance.
fn in_runs(sample: &[(OwnedRow, Loc)], i: usize, c: &Column) -> bool {
    if !matches!(c.kind, Kind::Number | Kind::Code | Kind::Ordered) || c.sparse || !c.whole {
        return false;
    }
    let v = numbers(sample, i);
    let runs = 1 + v.windows(2).filter(|w| w[0] != w[1]).count();
    v.len() == c.present && c.distinct >= 5 && runs == c.distinct && c.present >= 2 * runs
}

/// Whole numbers counting the rows from the first (each the one before
/// plus one): row numbers, which make every row its own but say nothing
/// of what the rows are.
pub(super) fn row_numbers(sample: &[(OwnedRow, Loc)], i: usize, c: &Column) -> bool {
    let v = numbers(sample, i);
    v.len() == c.present
        && v.len() >= 2
        && v[0].fract() == 0.0
        && v.windows(2).all(|w| w[1] - w[0] == 1.0)
}

/// Column `i` is a frequency table's weight: named as a count, whole
/// numbers none negative, no other column of amounts, and the other
/// columns (categories, codes) naming each row once in the sample.
fn weight(list: &[String], sample: &[(OwnedRow, Loc)], cols: &[Column], i: usize) -> bool {
    let named = words(&list[i])
        .last()
        .is_some_and(|w| WEIGHT_NAMES.contains(&w.as_str()));
    if !named || !matches!(cols[i].kind, Kind::Number | Kind::Code | Kind::Ordered) {
        return false;
    }
    let v = numbers(sample, i);
    if v.len() < 2 || v.iter().any(|x| *x < 0.0 || x.fract() != 0.0) {
        return false;
    }
    let others: Vec<usize> = (0..cols.len())
        .filter(|&o| o != i && !cols[o].sparse && !matches!(cols[o].kind, Kind::Id | Kind::Name))
        .collect();
    let groups = |k: Kind| matches!(k, Kind::Category | Kind::Code | Kind::Year | Kind::Date);
    if others.is_empty() || !others.iter().all(|&o| groups(cols[o].kind)) {
        return false;
    }
    let mut seen = std::collections::HashSet::new();
    sample.iter().all(|(r, _)| {
        let key: Vec<Option<String>> = others
            .iter()
            .map(|&o| cell(r, o).map(|c| c.into_owned()))
            .collect();
        seen.insert(key)
    })
}

/// Whether a value follows the row order (its lag-1 autocorrelation in
/// the sample is high): a series stored a row per step, where row
/// numbers are time; a table of people or things shows none. A few rows
/// cannot tell: they follow.
pub(super) fn serial(sample: &[(OwnedRow, Loc)], value: usize) -> bool {
    let v = numbers(sample, value);
    if v.len() < SMALL {
        // Too few rows to tell: a few rising numbers are taken as an x.
        return true;
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var: f64 = v.iter().map(|x| (x - mean) * (x - mean)).sum();
    if var <= 0.0 {
        return false;
    }
    let cov: f64 = v.windows(2).map(|w| (w[0] - mean) * (w[1] - mean)).sum();
    cov / var >= 0.5
}

/// Distinct values a code needs at most to group rows (bars, colours).
const MAX_CODE_GROUPS: usize = 12;

/// The column that groups rows: a category of text, else a code of a
/// few values (0/1, a department number) beside amounts to compare by it,
/// never an identifier.
pub(super) fn group(cols: &[Column]) -> Option<usize> {
    let ok = |c: &Column| !c.sparse;
    let amounts = cols
        .iter()
        .any(|c| matches!(c.kind, Kind::Number | Kind::Weight));
    (0..cols.len())
        .find(|&i| cols[i].kind == Kind::Category && ok(&cols[i]))
        .or_else(|| {
            (0..cols.len()).find(|&i| {
                amounts
                    && cols[i].kind == Kind::Code
                    && ok(&cols[i])
                    && (2..=MAX_CODE_GROUPS).contains(&cols[i].distinct)
            })
        })
}

/// The x of a line, if any: an ordered column (`ordered`) whose rising
/// numbers the value follows (rows of people numbered 1, 2, 3 are no
/// series: their x would be an identifier); else, where nothing groups
/// the rows, row numbers or rising identifiers the value follows (a series
/// stored a row per step).
pub(super) fn line_x(
    sample: &[(OwnedRow, Loc)],
    cols: &[Column],
    ordered: Option<usize>,
    value: usize,
    group: Option<usize>,
) -> Option<usize> {
    let follows = serial(sample, value);
    match ordered {
        Some(x) if cols[x].kind != Kind::Ordered || follows => return Some(x),
        Some(_) => return None,
        None => {}
    }
    if group.is_some() || !follows {
        return None;
    }
    (0..cols.len()).find(|&i| {
        cols[i].kind == Kind::Id && cols[i].distinct == cols[i].present && {
            let v = numbers(sample, i);
            v.len() >= SMALL && v.windows(2).all(|w| w[0] < w[1])
        }
    })
}

/// The order of bars by column `c`: numbers (codes, years), days and
/// months by label (in calendar order), other ordinal categories (bands
/// starting with a number, levels) as they come; any other category
/// largest first.
pub(super) fn bar_order(sample: &[(OwnedRow, Loc)], cols: &[Column], c: usize) -> Sort {
    if !matches!(cols[c].kind, Kind::Category | Kind::Name) {
        return Sort::Label;
    }
    if calendar(sample, c) {
        // Days and months read in calendar order whatever order they came in.
        Sort::Label
    } else if ordinal(sample, c) {
        Sort::None
    } else {
        Sort::Desc
    }
}

/// Whether every value of column `c` in the sample names a day, or every
/// one a month (`crate::spec::order`'s calendar rule).
pub(super) fn calendar(sample: &[(OwnedRow, Loc)], c: usize) -> bool {
    let cells: Vec<_> = sample
        .iter()
        .filter_map(|(r, _)| cell(r, c))
        .filter(|v| !v.trim().is_empty())
        .collect();
    crate::spec::order::calendar(cells.iter().map(|v| v.as_ref())).is_some()
}

/// Words of ordered scales.
const SCALES: &[&[&str]] = &[
    &[
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ],
    &["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
    &["low", "medium", "high", "mid", "moderate", "none", "very"],
    &["small", "large", "medium", "big", "tiny"],
    &["never", "rarely", "sometimes", "often", "always"],
    &["disagree", "agree", "neutral", "strongly"],
    &["poor", "fair", "good", "excellent"],
    &["q1", "q2", "q3", "q4"],
];

/// Whether a category's values are an ordered scale: each starts with a
/// number (age bands `18-24`, `<5`, `1st`), or all are words of one scale.
fn ordinal(sample: &[(OwnedRow, Loc)], c: usize) -> bool {
    let values: Vec<String> = sample
        .iter()
        .filter_map(|(r, _)| cell(r, c).map(|v| v.trim().to_ascii_lowercase()))
        .filter(|v| !v.is_empty())
        .collect();
    if values.is_empty() {
        return false;
    }
    let numbered = values.iter().all(|v| {
        v.trim_start_matches(['<', '>', '=', '+', '-', ' ', '$'])
            .starts_with(|ch: char| ch.is_ascii_digit())
    });
    numbered
        || SCALES.iter().any(|scale| {
            values.iter().all(|v| {
                let w = words(v);
                !w.is_empty()
                    && w.iter()
                        .any(|x| scale.iter().any(|s| x.starts_with(s) && x.len() <= 9))
            })
        })
}
