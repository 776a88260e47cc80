//! The chart a person would make of a table nobody described, chosen from
//! a sample of its rows: what each column is ([`Kind`]: dates, years,
//! identifiers, codes, coordinates, numbers, repeating categories, names,
//! columns mostly empty), then which is the value, which the x, and
//! whether rows are long (one series per value of a category) or must be
//! aggregated. What was chosen is said once, with the flags that choose
//! otherwise; when nothing sensible can be charted, the columns and their
//! kinds are said with an example command, and no chart is made.
//!
//! The rules, in order:
//! - identifiers (`id`, `*_id`, `zip`, `fips`, `*code`, codes with leading
//!   zeros, integers all distinct and rising), years, small integer codes
//!   (`month`, `cluster`), coordinates (`lat`, `lon`) and dates are never
//!   the value: the value is the first other column of numbers;
//! - a column of dates (or else of years, or of rising numbers) with five
//!   values or more is x, drawn as a line; a label is a column present in
//!   most rows;
//! - beside such an x, a category (a text column whose values repeat, at
//!   most 12 of them in the sample) naming one row per x makes long
//!   format: one line per value; where x repeats otherwise, the rows at
//!   each x (and category) are averaged; dates that come as events, not at
//!   a steady pace, are grouped by year, month or day (what makes a few
//!   dozen groups of the sample's span);
//! - with no ordered x, a category is the label and its rows are averaged
//!   (a bar per value), unless fewer than 50 rows are named one by one
//!   before it; with no category, the first name column is the label, as
//!   before; two amounts beside a category are a scatter coloured by it;
//!   with no label at all, two columns of numbers are a scatter and one a
//!   histogram;
//! - a value named as a count (`count`, `people`, `deaths`, ...) is summed
//!   where rows are grouped, any other averaged;
//! - with no column of numbers, the rows of a category are counted, or
//!   coordinates are drawn as places.

use super::super::number::{is_missing, parse_number};
use super::super::rows::{Loc, OwnedRow, cell};
use super::super::{ParseError, ParseOptions};
use super::instant::{Grain, instant};
use super::time::looks_like_year;
use crate::parse::transform::{AggregateOp, TimeUnit};
use crate::spec::ChartType;

/// Categories a long table splits into series at most (in the sample).
const MAX_AUTO_SERIES: usize = 12;
/// Lines of averages by category at most.
const MAX_AVERAGED_SERIES: usize = 6;
/// Distinct values of a category at most.
const MAX_CATEGORIES: usize = 50;
/// Distinct values an ordered x needs: fewer are groups to compare.
const MIN_ORDERED: usize = 5;
/// Rows under which a table of numbers alone keeps its first column as
/// the labels.
const SMALL: usize = 20;

/// Rows under which a column of names (before any category) labels a
/// bar each rather than the category's averages.
const FEW: usize = 50;

/// Kinds of columns of numbers.
fn numeric(k: Kind) -> bool {
    matches!(
        k,
        Kind::Number | Kind::Ordered | Kind::Code | Kind::Year | Kind::Id | Kind::Coordinate
    )
}

/// What a column holds, as its sample shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Present in fewer than half the rows.
    Sparse,
    Date,
    Year,
    /// Numbers that rise row after row, not named as identifiers: an x.
    Ordered,
    /// An identifier or a code named as one: never a value.
    Id,
    /// A few small whole numbers standing for categories (`month`,
    /// `cluster`, `cylinders`), or a clock time written as a number.
    Code,
    /// A latitude or longitude: a place, not an amount.
    Coordinate,
    Number,
    /// Text whose values repeat: a category.
    Category,
    /// Text mostly unique: names of things.
    Name,
}

impl Kind {
    fn describe(self) -> &'static str {
        match self {
            Kind::Sparse => "mostly empty",
            Kind::Date => "dates",
            Kind::Year => "years",
            Kind::Ordered => "rising numbers",
            Kind::Id => "an identifier",
            Kind::Code => "codes",
            Kind::Coordinate => "coordinates",
            Kind::Number => "numbers",
            Kind::Category => "a category",
            Kind::Name => "names",
        }
    }
}

/// One column of the sample, measured.
#[derive(Debug, Clone)]
pub(super) struct Column {
    pub kind: Kind,
    /// Present in fewer than half the rows: labels nothing.
    pub sparse: bool,
    /// Distinct values among its cells.
    pub distinct: usize,
    /// Cells present.
    present: usize,
    /// For dates: their moments, in row order, and whether any has a time of day.
    moments: Vec<f64>,
    timed: bool,
}

fn words(name: &str) -> Vec<String> {
    name.trim()
        .to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Named as an identifier: `id`, `*_id`, `Candidate_ID`, `zip_code`,
/// `fips`, `Sample Number`, `parent`; for numbers also a graph's `source`
/// and `target`.
fn named_id(name: &str, numeric: bool) -> bool {
    let n = name.trim().to_ascii_lowercase();
    let w = words(name);
    let last = w.last().map_or("", String::as_str);
    let first = w.first().map_or("", String::as_str);
    matches!(
        last,
        "id" | "ids" | "zip" | "zipcode" | "fips" | "code" | "uuid" | "number" | "no"
    ) || matches!(first, "id")
        || matches!(n.as_str(), "parent" | "index")
        || (numeric && matches!(n.as_str(), "source" | "target"))
        || (n.ends_with("id") && n.len() > 2 && name.trim().ends_with("ID"))
        || (n.ends_with("code") && n.len() > 4)
}

/// A part of a date or a clock time written as a number: `month`,
/// `day`, `hour`, `dep_time` (517 for 5:17).
fn named_time_part(name: &str, numbers: &[f64]) -> bool {
    let n = name.trim().to_ascii_lowercase();
    let part = matches!(
        n.as_str(),
        "day" | "month" | "hour" | "minute" | "second" | "week" | "weekday" | "dow" | "quarter"
    );
    let clock = (n.ends_with("time") || n.ends_with("_tm"))
        && numbers
            .iter()
            .all(|v| v.fract() == 0.0 && (0.0..=2400.0).contains(v));
    part || clock
}

fn named_coordinate(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    matches!(
        n.as_str(),
        "lat" | "lon" | "lng" | "long" | "latitude" | "longitude" | "cx" | "cy"
    )
}

/// A count of things, whose groups add up: summed, not averaged.
fn named_count(name: &str) -> bool {
    words(name).iter().any(|w| {
        matches!(
            w.as_str(),
            "count"
                | "counts"
                | "people"
                | "population"
                | "pop"
                | "total"
                | "deaths"
                | "cases"
                | "sales"
                | "amount"
                | "flights"
        )
    })
}

/// Measures every column of the sample.
pub(super) fn profile(list: &[String], sample: &[(OwnedRow, Loc)]) -> Vec<Column> {
    let mut cols: Vec<Column> = (0..list.len())
        .map(|i| measure(&list[i], sample, i))
        .collect();
    // A few rows of names: numbers that rise there rise by chance, and
    // the names label the rows (a table of three cars and their times).
    if sample.len() < SMALL && cols.iter().any(|c| c.kind == Kind::Name && !c.sparse) {
        for c in cols.iter_mut().filter(|c| c.kind == Kind::Ordered) {
            c.kind = Kind::Number;
        }
    }
    cols
}

fn measure(name: &str, sample: &[(OwnedRow, Loc)], i: usize) -> Column {
    let cells: Vec<String> = sample
        .iter()
        .filter_map(|(r, _)| cell(r, i))
        .filter(|c| !is_missing(c))
        .map(|c| c.into_owned())
        .collect();
    let mut distinct: Vec<&str> = cells.iter().map(String::as_str).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let distinct = distinct.len();
    let present = cells.len();
    let mut col = Column {
        kind: Kind::Sparse,
        sparse: present * 2 < sample.len(),
        distinct,
        present,
        moments: Vec::new(),
        timed: false,
    };
    if present > 0 {
        col.kind = kind_of(name, &cells, distinct);
    }
    if col.kind == Kind::Date {
        for c in &cells {
            if let Some((t, g)) = instant(c, Some(super::time::DateOrder::Dmy)) {
                col.moments.push(t);
                col.timed |= g == Grain::Time;
            }
        }
    }
    col
}

fn kind_of(name: &str, cells: &[String], distinct: usize) -> Kind {
    let present = cells.len();
    let numbers: Vec<f64> = cells
        .iter()
        .filter_map(|c| parse_number(c).map(|n| n.value))
        .collect();
    // A stray word among numbers is a bad row, not a text column.
    let numeric = numbers.len() * 2 >= present;
    if numeric {
        let ints = numbers.iter().all(|v| v.fract() == 0.0);
        let leading_zero = cells.iter().any(|c| {
            let t = c.trim();
            t.len() > 1 && t.starts_with('0') && t.bytes().all(|b| b.is_ascii_digit())
        });
        if named_id(name, true) || leading_zero {
            return Kind::Id;
        }
        if cells.iter().all(|c| looks_like_year(c)) {
            return Kind::Year;
        }
        if named_coordinate(name) {
            return Kind::Coordinate;
        }
        if named_time_part(name, &numbers) {
            return Kind::Code;
        }
        let small = numbers.iter().all(|v| v.abs() <= 100.0);
        let codes = ints && small && distinct <= 24 && present >= 20 && distinct * 4 <= present;
        if codes && !named_count(name) {
            return Kind::Code;
        }
        if distinct == present && present >= 3 && numbers.windows(2).all(|w| w[0] < w[1]) {
            return Kind::Ordered;
        }
        return Kind::Number;
    }
    let dates = cells.iter().filter(|c| instant(c, None).is_some()).count();
    let numeric_dates = cells
        .iter()
        .filter(|c| {
            let t = c.trim();
            t.len() >= 8 && t.contains(['/', '.', '-'])
        })
        .count();
    if dates * 10 >= present * 9 || (dates + numeric_dates) * 10 >= present * 9 && dates > 0 {
        return Kind::Date;
    }
    if named_id(name, false) {
        return Kind::Id;
    }
    if (2..=MAX_CATEGORIES).contains(&distinct) && distinct * 2 <= present {
        Kind::Category
    } else {
        Kind::Name
    }
}

/// What the automatic choice made.
#[derive(Debug, Clone, Default)]
pub(super) struct Choice {
    pub label: Option<usize>,
    pub values: Vec<usize>,
    pub series: Option<usize>,
    pub aggregate: Option<AggregateOp>,
    pub time_unit: Option<TimeUnit>,
    pub chart: Option<ChartType>,
    /// What was chosen and the flags that choose otherwise.
    pub note: Option<String>,
}

/// Whether the whole choice is the sample's to make: no column, no
/// transform and no chart kind that needs its own columns was asked for.
pub(super) fn applies(opts: &ParseOptions, real_names: bool) -> bool {
    real_names
        && opts.label.is_none()
        && opts.values.is_empty()
        && opts.series.is_none()
        && opts.transform.aggregate.is_none()
        && opts.transform.time_unit.is_none()
        && !matches!(
            opts.chart,
            Some(ChartType::Table | ChartType::Hist | ChartType::Point)
        )
}

/// The first column that can be a value: numbers; else rising numbers,
/// else small codes (a table may hold nothing else); never identifiers,
/// years, coordinates or dates.
pub(super) fn first_value(cols: &[Column], skip: &[Option<usize>]) -> Option<usize> {
    [Kind::Number, Kind::Ordered, Kind::Code]
        .iter()
        .find_map(|&k| (0..cols.len()).find(|&i| cols[i].kind == k && !skip.contains(&Some(i))))
}

/// An ordered x other than `value`: dates, else years, else rising
/// numbers, with values enough to follow (five, or one per row; in a
/// small table any two).
pub(super) fn ordered_x(cols: &[Column], value: Option<usize>) -> Option<usize> {
    let pick = |k: Kind| {
        (0..cols.len()).find(|&i| {
            let c = &cols[i];
            c.kind == k
                && !c.sparse
                && Some(i) != value
                && (c.distinct >= MIN_ORDERED || c.distinct == c.present || c.present < SMALL)
                && c.distinct >= 2
        })
    };
    pick(Kind::Date)
        .or_else(|| pick(Kind::Year))
        .or_else(|| pick(Kind::Ordered))
}

/// The quoted name, for notes.
fn q(list: &[String], i: usize) -> String {
    format!("{:?}", list[i])
}

/// The aggregate a value's groups take: a sum of counts, else a mean.
fn aggregate_for(list: &[String], value: usize) -> AggregateOp {
    if named_count(&list[value]) {
        AggregateOp::Sum
    } else {
        AggregateOp::Mean
    }
}

/// The choice for a table nobody described; an error when nothing
/// sensible can be charted.
pub(super) fn choose(
    list: &[String],
    sample: &[(OwnedRow, Loc)],
    cols: &[Column],
    what: &str,
) -> Result<Option<Choice>, ParseError> {
    let category = (0..cols.len()).find(|&i| cols[i].kind == Kind::Category && !cols[i].sparse);
    // An x that is rising numbers is no value while something else is.
    let x0 = ordered_x(cols, None);
    let value = first_value(cols, &[x0]).or_else(|| first_value(cols, &[]));
    let Some(value) = value else {
        if let Some(c) = category {
            return Ok(Some(Choice {
                label: Some(c),
                aggregate: Some(AggregateOp::Count),
                note: Some(format!(
                    "no column holds amounts: counting the rows by {}, whose values repeat; -x \
                     chooses another column, -y a value",
                    q(list, c),
                )),
                ..Choice::default()
            }));
        }
        return places(list, cols, "no column holds amounts")
            .map(Some)
            .ok_or_else(|| nothing_sensible(list, cols, what));
    };
    // Numbers alone, a few rows: the first column labels the others, as
    // it always has (a few values read well as labels).
    if sample.len() < SMALL && cols.iter().all(|c| numeric(c.kind)) {
        return Ok(None);
    }
    let x = ordered_x(cols, Some(value));
    if let Some(x) = x {
        return Ok(Some(over_x(list, sample, cols, x, value)));
    }
    let skipped = skipped_note(list, cols, value, &[]);
    // Two amounts and a category: a scatter of one over the other, a
    // colour per category (Anscombe's quartet), not their means.
    let amounts: Vec<usize> = (0..cols.len())
        .filter(|&i| cols[i].kind == Kind::Number)
        .collect();
    if let (Some(c), [a, b]) = (category, amounts.as_slice())
        && cols[c].distinct <= MAX_AUTO_SERIES
    {
        return Ok(Some(Choice {
            label: Some(*a),
            values: vec![*b],
            series: Some(c),
            chart: Some(ChartType::Point),
            note: Some(format!(
                "two columns of amounts and a category: a scatter of {} over {}, a colour per \
                 {}{skipped}; -x, -y and -s choose other columns, --aggregate mean -x {} -y {} \
                 compares their means",
                q(list, *b),
                q(list, *a),
                list[c],
                super::doubts::flag_word(list, c),
                super::doubts::flag_word(list, *b)
            )),
            ..Choice::default()
        }));
    }
    // A few rows named one by one: a bar each, by name.
    let name = (0..cols.len()).find(|&i| cols[i].kind == Kind::Name && !cols[i].sparse);
    let named_rows = name.is_some_and(|n| category.is_none_or(|c| n < c) && sample.len() < FEW);
    if let (Some(c), false) = (category, named_rows) {
        let op = aggregate_for(list, value);
        return Ok(Some(Choice {
            label: Some(c),
            values: vec![value],
            aggregate: Some(op),
            chart: Some(ChartType::Bar),
            note: Some(format!(
                "charting {}({}) by {}: {} repeats, so its rows are {}{skipped}; --aggregate \
                 sum|mean|median|count|... computes another, -x and -y choose other columns",
                op.name(),
                list[value],
                list[c],
                q(list, c),
                if op == AggregateOp::Sum {
                    "summed"
                } else {
                    "averaged"
                }
            )),
            ..Choice::default()
        }));
    }
    if let Some(label) = name {
        return Ok(Some(Choice {
            label: Some(label),
            values: vec![value],
            note: (!skipped.is_empty()).then(|| {
                format!(
                    "charting {}{skipped}; -y chooses another value",
                    q(list, value)
                )
            }),
            ..Choice::default()
        }));
    }
    Ok(Some(numbers_alone(list, cols, value, skipped)))
}

/// Numbers with nothing to label them: two of them are a scatter, one a
/// histogram.
fn numbers_alone(list: &[String], cols: &[Column], value: usize, skipped: String) -> Choice {
    let other = (0..cols.len()).find(|&i| {
        i != value
            && matches!(
                cols[i].kind,
                Kind::Number | Kind::Ordered | Kind::Coordinate | Kind::Code
            )
    });
    if let Some(choice) = places(list, cols, "nothing labels the rows") {
        return choice;
    }
    match other {
        Some(y) => {
            let (x, y) = (value.min(y), value.max(y));
            Choice {
                label: Some(x),
                values: vec![y],
                chart: Some(ChartType::Point),
                note: Some(format!(
                    "nothing labels the rows: a scatter of {} over {}{skipped}; -x and -y choose \
                     other columns, --chart hist -y COLUMN counts one",
                    q(list, y),
                    q(list, x)
                )),
                ..Choice::default()
            }
        }
        None => Choice {
            values: vec![value],
            chart: Some(ChartType::Hist),
            note: Some(format!(
                "nothing labels the rows: a histogram of {}{skipped}; -x names a label column",
                q(list, value)
            )),
            ..Choice::default()
        },
    }
}

/// Coordinates and nothing to count: the places, as a scatter of
/// longitude over latitude.
fn places(list: &[String], cols: &[Column], why: &str) -> Option<Choice> {
    let coords: Vec<usize> = (0..cols.len())
        .filter(|&i| cols[i].kind == Kind::Coordinate)
        .collect();
    if coords.len() < 2 {
        return None;
    }
    let is =
        |i: usize, names: &[&str]| names.contains(&list[i].trim().to_ascii_lowercase().as_str());
    let x = coords
        .iter()
        .copied()
        .find(|&i| is(i, &["lon", "lng", "long", "longitude", "cx"]))
        .unwrap_or(coords[0]);
    let y = coords.iter().copied().find(|&i| i != x)?;
    Some(Choice {
        label: Some(x),
        values: vec![y],
        chart: Some(ChartType::Point),
        note: Some(format!(
            "{why}: the places, {} over {}; -x and -y choose other columns",
            q(list, y),
            q(list, x)
        )),
        ..Choice::default()
    })
}

/// The columns that look like numbers but were not taken as the value,
/// said in the note (`; "id" is an identifier, ...`).
fn skipped_note(list: &[String], cols: &[Column], value: usize, used: &[Option<usize>]) -> String {
    let skipped: Vec<String> = (0..value)
        .filter(|&i| {
            matches!(
                cols[i].kind,
                Kind::Id | Kind::Year | Kind::Code | Kind::Coordinate
            ) && !used.contains(&Some(i))
        })
        .map(|i| format!("{} is {}", q(list, i), cols[i].kind.describe()))
        .collect();
    if skipped.is_empty() {
        String::new()
    } else {
        format!(" ({}, not a value)", skipped.join(", "))
    }
}

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
fn over_x(
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
    let events = col.kind == Kind::Date && long.is_none() && (!steady_x || (repeats && col.timed));
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
    let op = aggregate_for(list, value);
    let unit = events.then(|| unit_for(&col.moments));
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
    let by = series;
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
    let mut seen = std::collections::HashSet::new();
    sample.iter().all(|(r, _)| {
        seen.insert((
            cell(r, x).map(|c| c.into_owned()),
            cell(r, s).map(|c| c.into_owned()),
        ))
    })
}

/// No value and no category to count: the columns and what they hold,
/// and a command that charts something.
fn nothing_sensible(list: &[String], cols: &[Column], what: &str) -> ParseError {
    let described: Vec<String> = (0..cols.len())
        .map(|i| format!("{} ({})", q(list, i), cols[i].kind.describe()))
        .collect();
    let example = (0..cols.len())
        .find(|&i| !matches!(cols[i].kind, Kind::Sparse))
        .map_or(String::new(), |i| {
            format!(
                "; to count its rows by a column anyway: viz-parse --aggregate count -x {} FILE",
                super::doubts::flag_word(list, i)
            )
        });
    ParseError::Data(format!(
        "nothing to chart in {what}: no column holds amounts to draw, and none repeats to \
         count (columns: {}){example}",
        described.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: &[&str]) -> (Vec<String>, Vec<(OwnedRow, Loc)>) {
        let list: Vec<String> = rows[0].split(',').map(str::to_string).collect();
        let sample = rows[1..]
            .iter()
            .enumerate()
            .map(|(i, r)| {
                (
                    r.split(',').map(|c| Some(c.to_string())).collect(),
                    Loc::Line(i as u64 + 2),
                )
            })
            .collect();
        (list, sample)
    }

    fn kinds(rows: &[&str]) -> Vec<Kind> {
        let (list, sample) = table(rows);
        profile(&list, &sample)
            .into_iter()
            .map(|c| c.kind)
            .collect()
    }

    #[test]
    fn columns_are_what_their_values_and_names_say() {
        let k = kinds(&[
            "id,zip,year,name,species,amount,lat",
            "1,02134,2001,ann,a,3.5,42.1",
            "2,02135,2002,bob,b,4.5,42.2",
            "3,10001,2003,cy,a,1.5,40.7",
            "4,94110,2004,dee,b,2.5,37.7",
        ]);
        assert_eq!(
            k,
            [
                Kind::Id,
                Kind::Id,
                Kind::Year,
                Kind::Name,
                Kind::Category,
                Kind::Number,
                Kind::Coordinate
            ]
        );
        for id in [
            "county_id",
            "Candidate_ID",
            "zip_code",
            "Sample Number",
            "parent",
        ] {
            assert!(named_id(id, true), "{id}");
        }
        for not in ["width", "acid", "paid", "number of cases"] {
            assert!(!named_id(not, true), "{not}");
        }
        assert!(named_id("source", true) && !named_id("source", false));
    }

    #[test]
    fn a_few_rising_numbers_beside_names_are_numbers() {
        let rows = ["model,secs", "a,2.9", "b,3.0", "c,3.4"];
        assert_eq!(kinds(&rows), [Kind::Name, Kind::Number]);
        let rows = ["step,loss", "1,0.9", "2,0.5", "3,0.4"];
        assert_eq!(kinds(&rows), [Kind::Ordered, Kind::Number]);
    }
}
