//! A value over an ordered x (dates, years, rising numbers): one line;
//! long format, a line per value of a category naming one row per x;
//! things of their own counted at each x; or the rows at each x (or each
//! time unit of dates that come as events) aggregated.

use super::super::super::rows::{Loc, OwnedRow};
use super::super::columns::{Column, Kind, SMALL};
use super::super::roles;
use super::{Choice, MAX_AUTO_SERIES, MAX_AVERAGED_SERIES, aggregate_for, q, shape, skipped_note};
use crate::parse::transform::{AggregateOp, TimeUnit};
use crate::spec::ChartType;

/// Whether moments come at a steady pace (a series: daily, monthly)
/// rather than as events: most gaps between neighbours within half to
/// four times the median gap.
fn steady(moments: &[f64]) -> bool {
    let mut m = moments.to_vec();
    m.sort_by(f64::total_cmp);
    m.dedup();
    let mut gaps: Vec<f64> = m.windows(2).map(|w| w[1] - w[0]).collect();
    if gaps.len() < 3 {
        return true;
    }
    gaps.sort_by(f64::total_cmp);
    let g = gaps[gaps.len() / 2];
    // Weekends and holidays leave gaps of up to four days in daily data.
    let near = gaps
        .iter()
        .filter(|&&d| d >= g / 2.0 && d <= g * 4.0)
        .count();
    near * 10 >= gaps.len() * 8
}

/// The calendar unit that makes a few dozen groups of moments spanning
/// this long: years, months or days.
fn unit_for(moments: &[f64]) -> TimeUnit {
    let lo = moments.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = moments.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let days = (hi - lo) / 86_400.0;
    if days > 3.0 * 365.0 {
        TimeUnit::Year
    } else if days > 60.0 {
        TimeUnit::Yearmonth
    } else {
        TimeUnit::Yearmonthdate
    }
}

/// A value over an ordered x: one line, long format by a category, or
/// aggregated where x repeats or comes as events.
pub(super) fn over_x(
    list: &[String],
    sample: &[(OwnedRow, Loc)],
    cols: &[Column],
    x: usize,
    value: usize,
) -> Choice {
    let line = Choice {
        label: Some(x),
        values: vec![value],
        chart: Some(ChartType::Line),
        ..Choice::default()
    };
    let col = &cols[x];
    let candidates: Vec<usize> = (0..cols.len())
        .filter(|&i| {
            cols[i].kind == Kind::Category
                && !cols[i].sparse
                && i != value
                && (2..=MAX_AUTO_SERIES).contains(&cols[i].distinct)
        })
        .collect();
    let repeats = col.distinct * 2 <= col.present;
    let steady_x = col.kind != Kind::Date || steady(&col.moments);
    // A steady x, a fifth of its values again or more, and a category
    // naming one row per x: long format.
    let long = (steady_x && col.distinct * 10 <= col.present * 8)
        .then(|| {
            candidates
                .iter()
                .copied()
                .find(|&s| long_by(sample, cols, x, s))
        })
        .flatten();
    // Dates that a quarter of the rows share, but fewer than half (those
    // are averaged at each date: cars by model year), are things
    // happening (birdstrikes: 115 days in 199 rows), not a daily series.
    let shared = !repeats && col.present >= SMALL && col.distinct * 4 <= col.present * 3;
    let events =
        col.kind == Kind::Date && long.is_none() && (!steady_x || (repeats && col.timed) || shared);
    // Averaged lines per category: a few of them.
    let series = long.or_else(|| {
        (repeats || events)
            .then(|| {
                candidates
                    .iter()
                    .copied()
                    .filter(|&s| cols[s].distinct <= MAX_AVERAGED_SERIES)
                    .min_by_key(|&s| cols[s].distinct)
            })
            .flatten()
    });
    let skipped = skipped_note(list, cols, value, &[Some(x), series]);
    if !repeats && !events && long.is_none() {
        return Choice {
            note: (!skipped.is_empty())
                .then(|| format!("charting {} over {}{skipped}", q(list, value), q(list, x))),
            ..line
        };
    }
    let unit = events.then(|| unit_for(&col.moments));
    // Things with a date or year of their own (planes by the year they
    // were built); moments with a time of day are events (flights), whose
    // identifiers only look their own in a sample.
    if long.is_none()
        && !col.timed
        && let Some(id) = own_identifier(sample, cols)
        && (unit.is_some() || !shape::same_count(sample, x))
    {
        let why = format!("a row per {} (each its own)", list[id]);
        return counted_over_x(list, x, &why, series, unit, line);
    }
    // Events whose amount is 0 in nearly every row: its mean says little,
    // the number of events says what happened.
    let v = &cols[value];
    if events && v.zeros * 10 >= v.present * 9 {
        let why = format!("{} is 0 in nearly every row", q(list, value));
        return counted_over_x(list, x, &why, series, unit, line);
    }
    if let Some(s) = long {
        return Choice {
            series: Some(s),
            note: Some(format!(
                "the rows are long: {} repeats beside {}, so each of its values is a line of {}{skipped}; \
                 -s chooses another column, -x and -y others",
                q(list, s),
                q(list, x),
                q(list, value)
            )),
            ..line
        };
    }
    aggregated_over_x(
        list,
        x,
        (value, aggregate_for(list, cols, value)),
        series,
        unit,
        &skipped,
        line,
    )
}

/// An identifier of its own in every row (`tailnum`: a row per plane):
/// the rows are things, counted where x repeats (unless each x has as
/// many: a panel, a row per thing and year, whose count says nothing).
/// Row numbers make every row its own in any table: they are no such
/// identifier.
fn own_identifier(sample: &[(OwnedRow, Loc)], cols: &[Column]) -> Option<usize> {
    (0..cols.len()).find(|&i| {
        let c = &cols[i];
        c.kind == Kind::Id
            && !c.sparse
            && c.present >= SMALL
            && c.distinct == c.present
            && !roles::row_numbers(sample, i, c)
    })
}

/// Rows over a repeating x counted at each x (or time unit), `why` said,
/// a line per `series` value if any: things (a row each), or events whose
/// amount is nearly always 0.
fn counted_over_x(
    list: &[String],
    x: usize,
    why: &str,
    by: Option<usize>,
    unit: Option<TimeUnit>,
    line: Choice,
) -> Choice {
    let per = by.map_or(String::new(), |s| format!(", one line per {}", list[s]));
    let over = unit.map_or(list[x].clone(), |u| format!("{}({})", u.name(), list[x]));
    Choice {
        values: Vec::new(),
        series: by,
        aggregate: Some(AggregateOp::Count),
        time_unit: unit,
        note: Some(format!(
            "charting count over {over}{per}: {why}, so the rows at each x are counted; \
             --aggregate mean -y COLUMN averages a value instead, -s splits by another column"
        )),
        ..line
    }
}

/// The rows at each x (or each time unit of events) aggregated, a line
/// per `series` value if any: the choice and its note.
fn aggregated_over_x(
    list: &[String],
    x: usize,
    (value, op): (usize, AggregateOp),
    by: Option<usize>,
    unit: Option<TimeUnit>,
    skipped: &str,
    line: Choice,
) -> Choice {
    let per = by.map_or(String::new(), |s| format!(", one line per {}", list[s]));
    let over = match unit {
        Some(u) => format!("{}({})", u.name(), list[x]),
        None => list[x].clone(),
    };
    let why = match unit {
        Some(u) => {
            let per = match u {
                TimeUnit::Year => "year",
                TimeUnit::Yearmonth => "month",
                _ => "day",
            };
            format!(
                "{} holds events, so they are grouped by {per} and",
                q(list, x)
            )
        }
        None => format!("{} repeats, so the rows at each x are", q(list, x)),
    };
    let verb = if op == AggregateOp::Sum {
        "summed"
    } else {
        "averaged"
    };
    Choice {
        series: by,
        aggregate: Some(op),
        time_unit: unit,
        note: Some(format!(
            "charting {}({}) over {over}{per}: {why} {verb}{skipped}; --aggregate \
             sum|mean|median|count|... computes another, --time-unit groups otherwise, -s splits \
             by another column",
            op.name(),
            list[value],
        )),
        ..line
    }
}

/// Whether a category makes long format of the sample: each x once per
/// value of the category, and most of those pairs there (a panel, not
/// events that happen to differ).
fn long_by(sample: &[(OwnedRow, Loc)], cols: &[Column], x: usize, s: usize) -> bool {
    let pairs = cols[x].distinct * cols[s].distinct;
    if cols[x].present > pairs || cols[x].present * 2 < pairs {
        return false;
    }
    shape::pairs_unique(sample, x, s)
}
