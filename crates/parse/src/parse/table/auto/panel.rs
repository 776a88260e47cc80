//! A long table of things measured again and again (a patient's visits,
//! a pig's weekly weights, a child's tests by age): the rows of each thing
//! together, one column counting up within each thing and starting again
//! at the next. Its chart is the measure over that column, a line per
//! thing where they are few, else averaged at each step (by a category of
//! the things where one splits them), never the thing's number as an
//! amount or the rows' order as time.

use super::super::super::number::parse_number;
use super::super::super::rows::{Loc, OwnedRow, cell};
use super::super::SAMPLE_ROWS;
use super::super::columns::{CODE_WORDS, Column, Kind, words};
use super::{Choice, MAX_AUTO_SERIES, MAX_AVERAGED_SERIES, q};
use crate::parse::transform::AggregateOp;
use crate::spec::ChartType;

/// The cells of column `i` in row order, as text.
fn cells(sample: &[(OwnedRow, Loc)], i: usize) -> Vec<Option<String>> {
    sample
        .iter()
        .map(|(r, _)| cell(r, i).map(|c| c.into_owned()))
        .collect()
}

/// The column naming the things (an identifier, or names each in one
/// run of rows of its own), three things or more, two rows or more each on average.
fn thing(sample: &[(OwnedRow, Loc)], cols: &[Column]) -> Option<usize> {
    (0..cols.len()).find(|&i| {
        let c = &cols[i];
        // Text categories that run so are long format, the older rule's.
        if c.sparse || !matches!(c.kind, Kind::Id | Kind::Name) {
            return false;
        }
        let v = cells(sample, i);
        let runs = 1 + v.windows(2).filter(|w| w[0] != w[1]).count();
        v.iter().all(Option::is_some)
            && runs == c.distinct
            && c.distinct >= 3
            && c.present >= 2 * runs
    })
}

/// The numbers of column `i` in row order (none where a cell is no number).
fn numbers(sample: &[(OwnedRow, Loc)], i: usize) -> Vec<Option<f64>> {
    sample
        .iter()
        .map(|(r, _)| cell(r, i).and_then(|c| parse_number(&c).map(|n| n.value)))
        .collect()
}

/// Whether column `i` rises within every run of `runs` and starts again
/// lower at some new run: the steps of each thing.
fn steps(sample: &[(OwnedRow, Loc)], things: &[Option<String>], i: usize) -> bool {
    let v = numbers(sample, i);
    if v.iter().any(Option::is_none) {
        return false;
    }
    let mut restarts = 0;
    for k in 1..v.len() {
        let (a, b) = (v[k - 1], v[k]);
        if things[k] == things[k - 1] {
            if b <= a {
                return false;
            }
        } else if b <= a {
            restarts += 1;
        }
    }
    restarts >= 1
}

/// Whether column `i` takes more than one value within some thing: a
/// measure of each step, not of the thing (a start weight).
fn varies(sample: &[(OwnedRow, Loc)], things: &[Option<String>], i: usize) -> bool {
    let v = cells(sample, i);
    (1..v.len()).any(|k| things[k] == things[k - 1] && v[k] != v[k - 1])
}

/// The chart of a long table of things measured at steps, if it is one.
pub(super) fn repeated(
    list: &[String],
    sample: &[(OwnedRow, Loc)],
    cols: &[Column],
    group: Option<usize>,
) -> Option<Choice> {
    let t = thing(sample, cols)?;
    let things = cells(sample, t);
    // Steps the things share (weeks 1..12 for each pig, the same hours
    // after each dose): a number named as a grouping (`plot`, `district`)
    // numbers units within a thing instead, and a small code is steps only
    // where named as time.
    // Named as time, a number of each thing's own times is its clock.
    let stepped = |i: usize| {
        let c = &cols[i];
        let clocked = named_time(&list[i]);
        let kind = match c.kind {
            Kind::Year | Kind::Date => true,
            // Shared steps, or a clock of each thing's own (the hours
            // after each dose, read a little apart from one to the next):
            // `steps` below asks that it rise within every thing.
            Kind::Number | Kind::Ordered => c.distinct * 2 <= c.present || clocked,
            Kind::Code => c.distinct * 2 <= c.present && named_time(&list[i]),
            _ => false,
        };
        i != t && !c.sparse && kind && c.distinct >= 3 && !named_group(&list[i])
    };
    let x = (0..cols.len()).find(|&i| stepped(i) && steps(sample, &things, i))?;
    let value = (0..cols.len()).find(|&i| {
        i != x
            && i != t
            && cols[i].kind == Kind::Number
            && !cols[i].sparse
            && varies(sample, &things, i)
            && !super::roles::clock(sample, x, i)
    })?;
    // A line per thing where the whole input is in the sample (whose
    // first row may have been the header) and holds a few; else the
    // things averaged at each step.
    let few = cols[t].distinct <= MAX_AUTO_SERIES && sample.len() + 1 < SAMPLE_ROWS;
    let by = group.filter(|&g| g != t && cols[g].distinct <= MAX_AVERAGED_SERIES);
    let (series, aggregate) = if few {
        (Some(t), None)
    } else {
        (by, Some(AggregateOp::Mean))
    };
    let how = if few {
        format!("a line per {}", list[t])
    } else {
        format!("averaged at each {}", list[x])
    };
    let per = series
        .filter(|&s| s != t)
        .map_or(String::new(), |s| format!(", one line per {}", list[s]));
    Some(Choice {
        label: Some(x),
        values: vec![value],
        series,
        aggregate,
        chart: Some(ChartType::Line),
        note: Some(format!(
            "charting {} over {}, {how}{per}: the rows of each {} come together, {} counting \
             up within each; -s chooses another column, --aggregate mean averages the things",
            q(list, value),
            q(list, x),
            list[t],
            q(list, x)
        )),
        ..Choice::default()
    })
}

/// Named as a grouping of units (`plot`, `district`, `school`).
fn named_group(name: &str) -> bool {
    words(name).iter().any(|w| CODE_WORDS.contains(&w.as_str()))
}

/// Words that name a time or an age, in the units people measure at.
const TIME_WORDS: &[&str] = &[
    "time", "age", "day", "days", "week", "weeks", "month", "months", "hour", "hours", "minute",
    "minutes", "visit", "wave", "period", "occasion", "year", "years", "t",
];

/// Named as a time (`Time`, `age2`, `week`, `visit`).
fn named_time(name: &str) -> bool {
    words(name).iter().any(|w| {
        let stem = w.trim_end_matches(|c: char| c.is_ascii_digit());
        TIME_WORDS.contains(&stem)
    })
}
