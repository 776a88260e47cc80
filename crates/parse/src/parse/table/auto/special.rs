//! Tables whose shape says their chart before any rule of amounts: two
//! columns of years naming each row (a line per one over the other), a
//! row per place (a map), columns named `x` and `y` (a scatter).

use super::super::super::rows::{Loc, OwnedRow};
use super::super::columns::{Column, Kind, SMALL, numeric};
use super::{Choice, MAX_AUTO_SERIES, places, q, shape};
use crate::spec::ChartType;

/// Two columns of years naming each row once between them (budgets.json:
/// each budget year's forecasts for the years after): a line per value of
/// the one the rows are sorted by, over the other (a line per budget over
/// the years it forecast), not both averaged at each of the first.
pub(super) fn years_by_years(
    list: &[String],
    sample: &[(OwnedRow, Loc)],
    cols: &[Column],
    x: usize,
    value: usize,
) -> Option<Choice> {
    if cols[x].kind != Kind::Year {
        return None;
    }
    let other = (0..cols.len()).find(|&i| {
        i != x
            && i != value
            && cols[i].kind == Kind::Year
            && !cols[i].sparse
            && cols[i].distinct >= 2
    })?;
    if !shape::pairs_unique(sample, x, other) {
        return None;
    }
    let (outer, inner) = if shape::changes(sample, x) <= shape::changes(sample, other) {
        (x, other)
    } else {
        (other, x)
    };
    (cols[outer].distinct <= super::super::MAX_SERIES).then(|| Choice {
        label: Some(inner),
        values: vec![value],
        series: Some(outer),
        chart: Some(ChartType::Line),
        note: Some(format!(
            "two columns of years name each row once between them: a line of {} per {} (the \
             rows run by it) over {}; -x and -s swap them",
            q(list, value),
            list[outer],
            q(list, inner)
        )),
        ..Choice::default()
    })
}

/// A row per place (a name or identifier in nearly every row its own,
/// and coordinates that differ from row to row: airports, zip codes, the
/// places of events): a map of the places, whatever else the rows hold.
pub(super) fn one_place_a_row(list: &[String], cols: &[Column]) -> Option<Choice> {
    let mostly_own =
        |c: &Column| !c.sparse && c.present >= SMALL && c.distinct * 10 >= c.present * 9;
    let named = cols
        .iter()
        .any(|c| matches!(c.kind, Kind::Name | Kind::Id) && mostly_own(c));
    let spread = cols
        .iter()
        .filter(|c| c.kind == Kind::Coordinate && mostly_own(c))
        .count()
        >= 2;
    (named && spread)
        .then(|| places(list, cols, "a row per place"))
        .flatten()
}

/// Columns named `x` and `y` with no ordered x (a grid's cells, points of
/// a plane): a scatter of `y` over `x`, a colour per category if a few.
pub(super) fn named_x_y(
    list: &[String],
    cols: &[Column],
    category: Option<usize>,
) -> Option<Choice> {
    let named = |n: &str| {
        (0..cols.len()).find(|&i| list[i].trim().eq_ignore_ascii_case(n) && numeric(cols[i].kind))
    };
    let (x, y) = (named("x")?, named("y")?);
    let series = category.filter(|&c| cols[c].distinct <= MAX_AUTO_SERIES);
    let per = series.map_or(String::new(), |c| format!(", a colour per {}", list[c]));
    Some(Choice {
        label: Some(x),
        values: vec![y],
        series,
        chart: Some(ChartType::Point),
        note: Some(format!(
            "columns named x and y: a scatter of \"y\" over \"x\"{per}; -x, -y and -s choose \
             other columns"
        )),
        ..Choice::default()
    })
}
