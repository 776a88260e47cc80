//! The role each column plays, from its name, its values and the other
//! columns, beyond what one column shows alone (`columns.rs` measures
//! each): a frequency table's weight (`Freq`, `n`, `count`: whole numbers
//! beside categories naming each row once, summed, never averaged), row
//! numbers (consecutive integers: an identifier, not an amount), codes
//! stored as numbers (0/1, a seed, a department number: groups, never a
//! measure or a line's x), the units a row is about numbered (`Subject`,
//! `student`, `patid`: identifiers), the start of an interval whose end
//! is another column (`start`/`stop`, `entry`/`exit`, `time1`/`time2`:
//! no x for its end), a constant (the same number in every row), codes
//! nesting a category (a baker's series) and a clock counted from an x
//! (an age over a panel's years). What one column shows alone (codes by name,
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

/// Words naming the unit a row is about (a person, a household, an
/// institution): whole numbers so named number those units, they do not
/// measure them.
const ENTITY_WORDS: &[&str] = &[
    "subject",
    "subj",
    "ss",
    "participant",
    "respondent",
    "patient",
    "student",
    "pupil",
    "person",
    "individual",
    "family",
    "household",
    "hospital",
    "school",
    "firm",
    "company",
    "worker",
    "employee",
    "customer",
    "child",
    "mother",
    "case",
];

/// Short forms before `id` (`patid`, `hhid`, `pid`): an identifier of
/// the unit, whatever it holds.
const ENTITY_ID_STEMS: &[&str] = &[
    "p", "pat", "subj", "subject", "hh", "fam", "person", "student", "school", "emp", "cust", "s",
];

/// The role of a column named as the unit its row is about: numbers of
/// units are an identifier where there are more of them than groups to
/// compare (or one per row), else a code; a `patid` is an identifier
/// whatever it holds. None where the name says nothing of units, or the
/// numbers are no whole numbers (a hospital's rate).
fn entity_role(name: &str, c: &Column) -> Option<Kind> {
    let w = words(name);
    // `patid`; a code numbered (`cowcode2`: a second country code).
    if w.iter().any(|w| {
        w.strip_suffix("id")
            .is_some_and(|stem| ENTITY_ID_STEMS.contains(&stem))
            || (w.len() > 4
                && w.trim_end_matches(|c: char| c.is_ascii_digit())
                    .ends_with("code"))
    }) {
        return Some(Kind::Id);
    }
    let named = w.iter().any(|w| ENTITY_WORDS.contains(&w.as_str()));
    let numbers = matches!(
        c.kind,
        Kind::Number | Kind::Code | Kind::Ordered | Kind::Id | Kind::Year
    );
    if !named || !numbers || !c.whole || c.sparse {
        return None;
    }
    if c.distinct > MAX_CODE_GROUPS || c.distinct == c.present {
        Some(Kind::Id)
    } else {
        Some(Kind::Code)
    }
}

/// Words naming the two ends of an interval.
const ENDS: &[(&str, &str)] = &[
    ("start", "stop"),
    ("start", "end"),
    ("begin", "end"),
    ("entry", "exit"),
    ("enter", "exit"),
    ("lower", "upper"),
    ("left", "right"),
    ("from", "to"),
    ("tstart", "tstop"),
];

/// Stems that count times when numbered (`time1`, `time2`, `t0`, `t1`).
const TIME_STEMS: &[&str] = &["t", "time", "tm", "age", "day"];

/// Whether names `a` and `b` name the start and the end of one interval:
/// the same words but one, a pair of ends (`start_time`, `stop_time`), or
/// a time stem numbered one after the other (`time1`, `time2`).
fn named_ends(a: &str, b: &str) -> bool {
    let (wa, wb) = (words(a), words(b));
    if wa.len() != wb.len() || wa.is_empty() {
        return false;
    }
    let differ: Vec<usize> = (0..wa.len()).filter(|&k| wa[k] != wb[k]).collect();
    let [k] = differ.as_slice() else {
        return false;
    };
    let (x, y) = (wa[*k].as_str(), wb[*k].as_str());
    if ENDS.contains(&(x, y)) {
        return true;
    }
    let split = |w: &str| {
        let stem = w.trim_end_matches(|c: char| c.is_ascii_digit());
        (stem.len(), w[stem.len()..].parse::<u32>().ok())
    };
    let (sx, nx) = split(x);
    let (sy, ny) = split(y);
    sx == sy && TIME_STEMS.contains(&&x[..sx]) && nx.zip(ny).is_some_and(|(i, j)| j == i + 1)
}

/// The starts of intervals: a column of numbers whose end is another,
/// named as its pair and never before it in any row of the sample. An
/// interval's start over which its end is averaged, or a scatter of one
/// end over the other, shows only that ends come after starts.
fn interval_starts(list: &[String], sample: &[(OwnedRow, Loc)], cols: &[Column]) -> Vec<usize> {
    let numeric = |c: &Column| {
        matches!(
            c.kind,
            Kind::Number | Kind::Ordered | Kind::Code | Kind::Weight
        ) && !c.sparse
    };
    let mut starts = Vec::new();
    for a in (0..cols.len()).filter(|&a| numeric(&cols[a])) {
        let end = (0..cols.len()).find(|&b| {
            b != a && numeric(&cols[b]) && named_ends(&list[a], &list[b]) && {
                let pairs: Vec<(f64, f64)> = sample
                    .iter()
                    .filter_map(|(r, _)| {
                        let n = |i| cell(r, i).and_then(|c| parse_number(&c).map(|n| n.value));
                        n(a).zip(n(b))
                    })
                    .collect();
                pairs.len() >= 3 && pairs.iter().all(|(s, e)| s <= e)
            }
        });
        if end.is_some() {
            starts.push(a);
        }
    }
    starts
}

/// Roles that need the other columns: a frequency weight, row numbers,
/// units named, intervals' starts, constants.
pub(super) fn assign(list: &[String], sample: &[(OwnedRow, Loc)], cols: &mut [Column]) {
    for (name, c) in list.iter().zip(cols.iter_mut()) {
        if let Some(k) = entity_role(name, c) {
            c.kind = k;
        }
    }
    for a in interval_starts(list, sample, cols) {
        cols[a].kind = Kind::Bound;
    }
    // One number in every row (a binomial's 20 trials each): a constant of
    // the design, which varies with nothing and measures nothing.
    for c in cols.iter_mut() {
        if matches!(c.kind, Kind::Number | Kind::Ordered) && c.distinct == 1 && c.present >= 3 {
            c.kind = Kind::Code;
        }
    }
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

/// Whether `value` is a clock counted from `x`: its mean at each x moves
/// in step with x, one unit a unit (an age over the years of a panel:
/// each person a year older a year later, so its mean over the years is a
/// straight line by construction and says nothing). Five values of x at
/// least, a slope within a tenth of 1 and the means on a line.
pub(super) fn clock(sample: &[(OwnedRow, Loc)], x: usize, value: usize) -> bool {
    let mut at: std::collections::BTreeMap<i64, (f64, f64)> = std::collections::BTreeMap::new();
    for (r, _) in sample {
        let n = |i| cell(r, i).and_then(|c| parse_number(&c).map(|n| n.value));
        if let (Some(a), Some(b)) = (n(x), n(value)) {
            let e = at.entry((a * 1000.0).round() as i64).or_default();
            *e = (e.0 + b, e.1 + 1.0);
        }
    }
    if at.len() < 5 {
        return false;
    }
    let pts: Vec<(f64, f64)> = at
        .iter()
        .map(|(k, (s, n))| (*k as f64 / 1000.0, s / n))
        .collect();
    let len = pts.len() as f64;
    let (mx, my) = pts
        .iter()
        .fold((0.0, 0.0), |a, p| (a.0 + p.0 / len, a.1 + p.1 / len));
    let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let syy: f64 = pts.iter().map(|p| (p.1 - my).powi(2)).sum();
    let sxy: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 || syy <= 0.0 {
        return false;
    }
    let slope = sxy / sxx;
    let r2 = sxy * sxy / (sxx * syy);
    (0.9..=1.1).contains(&slope.abs()) && r2 >= 0.98
}

/// The cells of column `value` in the rows of each value of `group`.
fn by_group(
    sample: &[(OwnedRow, Loc)],
    group: usize,
    value: usize,
) -> std::collections::HashMap<String, Vec<String>> {
    let mut of: std::collections::HashMap<String, Vec<String>> = std::collections::HashMap::new();
    for (r, _) in sample {
        if let (Some(k), Some(x)) = (cell(r, group), cell(r, value)) {
            of.entry(k.into_owned()).or_default().push(x.into_owned());
        }
    }
    of
}

/// Whether whole numbers `value` label groups above `group` (a baker's
/// series, a plot's block): a few of them, one within each group of two
/// rows or more on average (nine groups in ten: a name may recur in
/// another series), each label naming two groups or more. Their mean by
/// the group gives each its label back: a code nesting the groups, no
/// amount.
pub(super) fn nests(
    sample: &[(OwnedRow, Loc)],
    cols: &[Column],
    group: usize,
    value: usize,
) -> bool {
    let (g, v) = (&cols[group], &cols[value]);
    if !v.whole || v.distinct > MAX_CODE_GROUPS || v.distinct < 2 || g.present < 2 * g.distinct {
        return false;
    }
    let of = by_group(sample, group, value);
    let labels: Vec<std::collections::HashSet<&String>> =
        of.values().map(|xs| xs.iter().collect()).collect();
    let mixed = labels.iter().filter(|s| s.len() > 1).count();
    // Each label names two groups or more (a rare amount names one).
    let mut named: std::collections::HashMap<&String, usize> = std::collections::HashMap::new();
    for x in labels.iter().flatten() {
        *named.entry(x).or_default() += 1;
    }
    !of.is_empty() && mixed * 10 < of.len() && named.values().all(|&n| n >= 2)
}

/// Whether whole numbers `value` number the rows of each group of
/// `group` (1, 2, ..., k for a baker's k episodes) in nine groups in ten,
/// of two rows or more on average: their mean by the group is (k + 1) / 2,
/// a count of its rows in disguise, no amount.
pub(super) fn numbers_rows(
    sample: &[(OwnedRow, Loc)],
    cols: &[Column],
    group: usize,
    value: usize,
) -> bool {
    let (g, v) = (&cols[group], &cols[value]);
    if !v.whole || g.present < 2 * g.distinct {
        return false;
    }
    let of = by_group(sample, group, value);
    let counted = of
        .values()
        .filter(|xs| {
            let mut n: Vec<f64> = xs
                .iter()
                .map(|x| parse_number(x).map_or(f64::NAN, |n| n.value))
                .collect();
            n.sort_by(f64::total_cmp);
            n.iter().enumerate().all(|(i, x)| *x == (i + 1) as f64)
        })
        .count();
    !of.is_empty() && counted * 10 >= of.len() * 9
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

/// The number a lower-case Roman numeral writes (`iv`: 4), written the
/// one way it is written (`iiii` and `vx` are none), up to 3999.
fn roman(v: &str) -> Option<u32> {
    const DIGITS: [(u32, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut n = 0;
    let mut rest = v;
    for (value, digit) in DIGITS {
        while let Some(r) = rest.strip_prefix(digit) {
            n += value;
            rest = r;
        }
    }
    if !rest.is_empty() || n == 0 || n > 3999 {
        return None;
    }
    // Written back the one way: `iiii` reads 4 but is written `iv`.
    let mut back = String::new();
    let mut left = n;
    for (value, digit) in DIGITS {
        while left >= value {
            back.push_str(digit);
            left -= value;
        }
    }
    (back == v).then_some(n)
}

/// Whether a category's values are an ordered scale: each starts with a
/// number (age bands `18-24`, `<5`, `1st`), all are Roman numerals (an
/// experiment's occasions `I` to `IX`), or all are words of one scale.
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
        || values.iter().all(|v| roman(v).is_some())
        || SCALES.iter().any(|scale| {
            values.iter().all(|v| {
                let w = words(v);
                !w.is_empty()
                    && w.iter()
                        .any(|x| scale.iter().any(|s| x.starts_with(s) && x.len() <= 9))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::roman;

    #[test]
    fn roman_numerals_read_one_way() {
        assert_eq!(roman("i"), Some(1));
        assert_eq!(roman("iv"), Some(4));
        assert_eq!(roman("ix"), Some(9));
        assert_eq!(roman("xiv"), Some(14));
        assert_eq!(roman("mcmxcix"), Some(1999));
        for not in ["", "iiii", "vx", "dim", "civil", "ic", "vv"] {
            assert_eq!(roman(not), None, "{not}");
        }
    }
}
