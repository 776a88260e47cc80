//! What the sample's rows say about how two columns go together, for the
//! automatic choice: a value that is each category's shares (income.json's
//! `pct`: each state's households split over income brackets, summing to 1
//! in every state), and which other category varies within one.

use super::super::super::number::parse_number;
use super::super::super::rows::{Loc, OwnedRow, cell};

/// Sums this close to their median are "the same total".
const SAME_TOTAL: f64 = 0.05;

/// Whether `value` splits a whole within each value of category `c`: its
/// sums by `c` are all about the same (the last group, perhaps cut by the
/// sample's end, left out), over three groups or more of two rows or more.
/// Averaged by `c`, such a value is the same bar for every category.
pub(in super::super) fn shares(sample: &[(OwnedRow, Loc)], c: usize, value: usize) -> bool {
    let mut sums: Vec<(String, f64, usize)> = Vec::new();
    for (r, _) in sample {
        let v = cell(r, value).and_then(|v| parse_number(&v).map(|n| n.value));
        let (Some(k), Some(v)) = (cell(r, c), v) else {
            continue;
        };
        match sums.iter_mut().find(|(g, _, _)| *g == *k) {
            Some(g) => {
                g.1 += v;
                g.2 += 1;
            }
            None => sums.push((k.into_owned(), v, 1)),
        }
    }
    sums.pop();
    if sums.len() < 3 || sums.iter().any(|g| g.2 < 2) {
        return false;
    }
    let mut totals: Vec<f64> = sums.iter().map(|g| g.1).collect();
    totals.sort_by(f64::total_cmp);
    let median = totals[totals.len() / 2];
    median > 0.0
        && totals
            .iter()
            .all(|t| (t - median).abs() <= SAME_TOTAL * median)
}

/// Whether category `other` takes several values within one value of `c`
/// (income brackets within a state; a state's region does not).
pub(in super::super) fn varies_within(sample: &[(OwnedRow, Loc)], c: usize, other: usize) -> bool {
    let mut first: Vec<(String, String)> = Vec::new();
    sample.iter().any(|(r, _)| {
        let (Some(k), Some(o)) = (cell(r, c), cell(r, other)) else {
            return false;
        };
        match first.iter().find(|(g, _)| *g == *k) {
            Some((_, seen)) => *seen != *o,
            None => {
                first.push((k.into_owned(), o.into_owned()));
                false
            }
        }
    })
}

/// Whether each pair of values of `a` and `b` comes in one row at most.
pub(in super::super) fn pairs_unique(sample: &[(OwnedRow, Loc)], a: usize, b: usize) -> bool {
    let mut seen = std::collections::HashSet::new();
    sample.iter().all(|(r, _)| {
        seen.insert((
            cell(r, a).map(|c| c.into_owned()),
            cell(r, b).map(|c| c.into_owned()),
        ))
    })
}

/// How often column `c` changes value from one row to the next: a file
/// sorted by it changes it seldom.
pub(in super::super) fn changes(sample: &[(OwnedRow, Loc)], c: usize) -> usize {
    sample
        .windows(2)
        .filter(|w| cell(&w[0].0, c) != cell(&w[1].0, c))
        .count()
}

/// Whether each value of column `c` comes in about as many rows (within
/// a tenth, or one: the sample's end may cut the last thing short), over
/// three values or more of two rows or more: a panel (a row per country
/// and year), whose rows counted at each `c` draw a flat line.
pub(in super::super) fn same_count(sample: &[(OwnedRow, Loc)], c: usize) -> bool {
    let mut counts = std::collections::HashMap::new();
    for (r, _) in sample {
        if let Some(k) = cell(r, c) {
            *counts.entry(k.into_owned()).or_insert(0usize) += 1;
        }
    }
    let (Some(&min), Some(&max)) = (counts.values().min(), counts.values().max()) else {
        return false;
    };
    counts.len() >= 3 && min >= 2 && max - min <= (max / 10).max(1)
}
