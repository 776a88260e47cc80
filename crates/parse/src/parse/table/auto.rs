//! The chart a person would make of a table nobody described, chosen from
//! a sample of its rows: what each column is (measured in `columns.rs`:
//! dates, years, identifiers, codes, coordinates, numbers, repeating
//! categories, names, columns mostly empty; its role beside the others in
//! `roles.rs`: frequency weights, row numbers), then the rules below
//! propose which is the value, which the x, and
//! whether rows are long (one series per value of a category) or must be
//! aggregated. What was chosen is said once, with the flags that choose
//! otherwise; when nothing sensible can be charted, the columns and their
//! kinds are said with an example command, and no chart is made. The
//! proposal is reviewed by `score.rs` (candidate charts under hard
//! constraints and a cost, the runners-up said); bars of categories come
//! largest first, numeric groups in numeric order.
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
//! - a frequency weight, or a value named as a count (`count`, `people`,
//!   `deaths`, ...; a `count` with fractions is a measurement) is summed
//!   where rows are grouped, any other averaged;
//! - rising numbers are a line's x only where the value follows the row
//!   order (a series); codes group rows (a bar each, a colour each).
//! - with no column of numbers, the rows of a category are counted, or
//!   coordinates are drawn as places; a row per place (its own name or
//!   identifier, coordinates that differ) is a map of the places;
//! - with no ordered x, columns named `x` and `y` are a scatter; two
//!   columns of years naming each row once are a line per the one the rows
//!   run by, over the other (`special.rs`);
//! - things with an identifier of their own in each row over a date or
//!   year of theirs are counted (row numbers are no such identifier, and
//!   where each x holds as many rows, a panel, the count is flat and a
//!   measure is averaged instead);
//! - a long table of things measured again (the thing's key in runs of
//!   rows, a column counting up within each and starting again) is the
//!   measure over those steps, a line per thing where the input holds a
//!   few, else averaged at each step (`panel.rs`); numbers named as a grouping (`group`) are
//!   counted by; a value that is each category's shares is compared by the
//!   category it splits (`shape.rs`).

use super::super::rows::{Loc, OwnedRow};
use super::super::{ParseError, ParseOptions};

mod over_x;
mod panel;
pub(super) mod score;
mod shape;
mod special;
use super::columns::{Column, Kind, SMALL, named_count, numeric};
use super::roles;
use crate::parse::transform::{AggregateOp, TimeUnit};
use crate::spec::ChartType;
use over_x::over_x;
use special::{named_x_y, one_place_a_row, years_by_years};

/// Categories a long table splits into series at most (in the sample).
const MAX_AUTO_SERIES: usize = 12;
/// Lines of averages by category at most.
const MAX_AVERAGED_SERIES: usize = 6;
/// Distinct values an ordered x needs: fewer are groups to compare.
const MIN_ORDERED: usize = 5;

/// Rows under which a column of names (before any category) labels a
/// bar each rather than the category's averages.
const FEW: usize = 50;

/// What the automatic choice made.
#[derive(Debug, Clone, Default)]
pub(super) struct Choice {
    pub label: Option<usize>,
    pub values: Vec<usize>,
    pub series: Option<usize>,
    pub aggregate: Option<AggregateOp>,
    pub time_unit: Option<TimeUnit>,
    pub chart: Option<ChartType>,
    /// The order of a bar chart's bars.
    pub sort: Option<crate::spec::Sort>,
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
            Some(
                ChartType::Table
                    | ChartType::Hist
                    | ChartType::Point
                    | ChartType::Heatmap
                    | ChartType::Box
            )
        )
}

/// The first column that can be a value: numbers; else rising numbers,
/// else small codes (a table may hold nothing else); never identifiers,
/// years, coordinates or dates.
pub(super) fn first_value(cols: &[Column], skip: &[Option<usize>]) -> Option<usize> {
    [Kind::Number, Kind::Weight, Kind::Ordered, Kind::Code]
        .iter()
        .find_map(|&k| (0..cols.len()).find(|&i| cols[i].kind == k && !skip.contains(&Some(i))))
}

/// A column of numbers named as a grouping (`group`, `class`, `cluster`,
/// ...) whose values repeat: groups, never an amount.
fn grouping_code(name: &str, c: &Column) -> bool {
    let n = name.trim().to_ascii_lowercase();
    let named = matches!(
        n.as_str(),
        "group" | "class" | "cluster" | "category" | "kind" | "type" | "level" | "grade" | "team"
    );
    matches!(c.kind, Kind::Code | Kind::Number) && named && c.distinct * 2 <= c.present
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

/// The aggregate a value's groups take: a sum of a frequency weight or of
/// a value named as a count or total, else a mean (a measurement named
/// `count` that is no whole number is averaged).
fn aggregate_for(list: &[String], cols: &[Column], value: usize) -> AggregateOp {
    let c = &cols[value];
    // A `count` of fractions is a measurement (a cell count per ml); a
    // total of money with cents still adds up.
    let measured = !c.whole
        && super::columns::words(&list[value])
            .iter()
            .any(|w| w == "count" || w == "counts");
    if c.kind == Kind::Weight || (named_count(&list[value]) && !measured) {
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
    calculated: Option<usize>,
) -> Result<Option<Choice>, ParseError> {
    let category = roles::group(cols);
    // An x that is rising numbers is no value while something else is.
    let x0 = ordered_x(cols, None);
    // A column the user calculated is the measure they want drawn,
    // unless it is a time or a place (an x of its own).
    let calculated = calculated.filter(|&c| {
        matches!(
            cols[c].kind,
            Kind::Number | Kind::Weight | Kind::Ordered | Kind::Code
        ) && Some(c) != category
    });
    // Codes that nest the category (a baker's series) and numbers that
    // number each group's rows (a baker's episodes) are no amount of it.
    let nested: Vec<Option<usize>> = category
        .map(|c| {
            (0..cols.len())
                .filter(|&v| {
                    v != c
                        && Some(v) != calculated
                        && (roles::nests(sample, cols, c, v)
                            || roles::numbers_rows(sample, cols, c, v))
                })
                .map(Some)
                .collect()
        })
        .unwrap_or_default();
    let skip = |more: &[Option<usize>]| [more, nested.as_slice()].concat();
    let value = calculated
        .or_else(|| first_value(cols, &skip(&[x0, category])))
        .or_else(|| first_value(cols, &skip(&[category])))
        .filter(|&v| !(category.is_some() && roles::stands_for_groups(&list[v], &cols[v])));
    let Some(mut value) = value else {
        return no_amounts(list, sample, cols, category, what).map(Some);
    };
    // Only codes that repeat (`group`: 1, 1, 2, ...): groups to count,
    // not amounts to draw.
    if grouping_code(&list[value], &cols[value])
        && !(0..cols.len()).any(|i| i != value && cols[i].kind == Kind::Number)
    {
        return no_amounts(list, sample, cols, Some(value), what).map(Some);
    }
    // Numbers alone, a few rows: the first column labels the others, as
    // it always has (a few values read well as labels).
    if sample.len() < SMALL && cols.iter().all(|c| numeric(c.kind)) && cols[0].kind != Kind::Id {
        return Ok(None);
    }
    if let Some(choice) = one_place_a_row(list, cols) {
        return Ok(Some(choice));
    }
    if let Some(choice) = panel::repeated(list, sample, cols, category) {
        return Ok(Some(choice));
    }
    let mut x = roles::line_x(sample, cols, ordered_x(cols, Some(value)), value, category);
    // A clock counted from x (an age over the years of a panel) says
    // nothing over it: the next amount instead, if any.
    if let Some(ox) = x
        && cols[ox].kind != Kind::Date
        && roles::clock(sample, ox, value)
        && let Some(other) = first_value(cols, &[x0, category, Some(value), Some(ox)])
            .filter(|&o| cols[o].kind == Kind::Number)
    {
        value = other;
        x = roles::line_x(sample, cols, ordered_x(cols, Some(value)), value, category);
    }
    if let Some(choice) = x.and_then(|x| years_by_years(list, sample, cols, x, value)) {
        return Ok(Some(choice));
    }
    if x.is_none()
        && let Some(choice) = named_x_y(list, cols, category)
    {
        return Ok(Some(choice));
    }
    if let Some(x) = x {
        return Ok(Some(over_x(list, sample, cols, x, value)));
    }
    let skipped = skipped_note(list, cols, value, &[category]);
    // Two amounts and a category: a scatter of one over the other, a
    // colour per category (Anscombe's quartet), not their means.
    let amounts: Vec<usize> = (0..cols.len())
        .filter(|&i| cols[i].kind == Kind::Number)
        .collect();
    if let (Some(c), [a, b]) = (category, amounts.as_slice())
        && cols[c].distinct <= MAX_AUTO_SERIES
    {
        return Ok(Some(category_scatter(list, c, *a, *b, &skipped)));
    }
    // A few rows named one by one: a bar each, by name.
    let name = (0..cols.len()).find(|&i| cols[i].kind == Kind::Name && !cols[i].sparse);
    let named_rows = name.is_some_and(|n| category.is_none_or(|c| n < c) && sample.len() < FEW);
    if let (Some(c), false) = (category, named_rows) {
        let op = aggregate_for(list, cols, value);
        // A value that is each category's shares: by the category it
        // splits instead (income brackets, not states).
        let split = shape::shares(sample, c, value)
            .then(|| {
                (0..cols.len()).find(|&o| {
                    o != c
                        && cols[o].kind == Kind::Category
                        && !cols[o].sparse
                        && shape::varies_within(sample, c, o)
                })
            })
            .flatten();
        let shares = split.map_or(String::new(), |_| {
            format!(
                "; {} is each {}'s shares (it sums alike in each), so it is compared by {} instead",
                q(list, value),
                list[c],
                q(list, split.unwrap_or(c))
            )
        });
        let c = split.unwrap_or(c);
        return Ok(Some(Choice {
            label: Some(c),
            values: vec![value],
            aggregate: Some(op),
            chart: Some(ChartType::Bar),
            sort: Some(roles::bar_order(sample, cols, c)),
            note: Some(format!(
                "charting {}({}) by {}: {} repeats, so its rows are {}{skipped}{shares}; \
                 --aggregate sum|mean|median|count|... computes another, -x and -y choose other \
                 columns",
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
        return Ok(Some(named_bars(list, sample, cols, label, value, &skipped)));
    }
    Ok(Some(numbers_alone(list, cols, value, skipped)))
}

/// A bar per name. A name that comes in several rows (a country measured
/// twice) would be two bars of one label: its rows are averaged (summed
/// where the value counts), said, so each name is one bar.
fn named_bars(
    list: &[String],
    sample: &[(OwnedRow, Loc)],
    cols: &[Column],
    label: usize,
    value: usize,
    skipped: &str,
) -> Choice {
    // A person's own few rows keep the order they were written in; a
    // dataset's named rows come largest first.
    let sort = (sample.len() >= SMALL).then(|| roles::bar_order(sample, cols, label));
    if cols[label].distinct < cols[label].present {
        let op = aggregate_for(list, cols, value);
        let done = if op == AggregateOp::Sum {
            "summed"
        } else {
            "averaged"
        };
        return Choice {
            label: Some(label),
            values: vec![value],
            aggregate: Some(op),
            chart: Some(ChartType::Bar),
            sort,
            note: Some(format!(
                "charting {}({}) by {}: some names come in more than one row, so their rows are \
                 {done}{skipped}; --aggregate sum|mean|max|... computes another, -y chooses another value",
                op.name(),
                list[value],
                list[label],
            )),
            ..Choice::default()
        };
    }
    Choice {
        label: Some(label),
        values: vec![value],
        sort,
        note: (!skipped.is_empty()).then(|| {
            format!(
                "charting {}{skipped}; -y chooses another value",
                q(list, value)
            )
        }),
        ..Choice::default()
    }
}

/// No column of amounts: the rows counted by a category, else the places
/// a table of coordinates holds, else an error naming the columns.
fn no_amounts(
    list: &[String],
    sample: &[(OwnedRow, Loc)],
    cols: &[Column],
    category: Option<usize>,
    what: &str,
) -> Result<Choice, ParseError> {
    if let Some(c) = category {
        return Ok(Choice {
            label: Some(c),
            aggregate: Some(AggregateOp::Count),
            sort: Some(roles::bar_order(sample, cols, c)),
            note: Some(format!(
                "no column holds amounts: counting the rows by {}, whose values repeat; -x \
                 chooses another column, -y a value",
                q(list, c),
            )),
            ..Choice::default()
        });
    }
    places(list, cols, "no column holds amounts").ok_or_else(|| nothing_sensible(list, cols, what))
}

/// Two amounts `a` and `b` beside category `c`: a scatter of `b` over
/// `a`, a colour per category.
fn category_scatter(list: &[String], c: usize, a: usize, b: usize, skipped: &str) -> Choice {
    Choice {
        label: Some(a),
        values: vec![b],
        series: Some(c),
        chart: Some(ChartType::Point),
        note: Some(format!(
            "two columns of amounts and a category: a scatter of {} over {}, a colour per \
             {}{skipped}; -x, -y and -s choose other columns, --aggregate mean -x {} -y {} \
             compares their means",
            q(list, b),
            q(list, a),
            list[c],
            super::doubts::flag_word(list, c),
            super::doubts::flag_word(list, b)
        )),
        ..Choice::default()
    }
}

/// Numbers with nothing to label them: two of them are a scatter, one a
/// histogram.
fn numbers_alone(list: &[String], cols: &[Column], value: usize, skipped: String) -> Choice {
    let other = (0..cols.len()).find(|&i| {
        i != value
            && matches!(
                cols[i].kind,
                Kind::Number | Kind::Ordered | Kind::Coordinate
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
        None => indicator_rate(list, cols, value, &skipped).unwrap_or_else(|| Choice {
            values: vec![value],
            chart: Some(ChartType::Hist),
            note: Some(format!(
                "nothing labels the rows: a histogram of {}{skipped}; -x names a label column",
                q(list, value)
            )),
            ..Choice::default()
        }),
    }
}

/// A yes/no column (0 and one other whole number) alone: its histogram
/// is two bars; its mean is the share of yes (of 0/1), compared across
/// the levels of the first coded column of a few levels (wheezing by
/// age), as a person charts a rate. None for any other column.
fn indicator_rate(list: &[String], cols: &[Column], value: usize, skipped: &str) -> Option<Choice> {
    let v = &cols[value];
    if !(v.distinct == 2 && v.zeros > 0 && v.whole) {
        return None;
    }
    let by = (0..cols.len()).find(|&i| {
        i != value
            && cols[i].kind == Kind::Code
            && !cols[i].sparse
            && (3..=MAX_AUTO_SERIES).contains(&cols[i].distinct)
    });
    let by = by?;
    Some(Choice {
        label: Some(by),
        values: vec![value],
        aggregate: Some(AggregateOp::Mean),
        chart: Some(ChartType::Bar),
        sort: Some(crate::spec::Sort::Label),
        note: Some(format!(
            "{} holds two values (yes/no): charting its mean (of 0/1, the share of 1s) by {}, \
             in their order{skipped}; -x chooses another column, --chart hist -y {} counts it",
            q(list, value),
            q(list, by),
            super::doubts::flag_word(list, value)
        )),
        ..Choice::default()
    })
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
