//! What each column of a table's sample holds, measured for the automatic
//! choice ([`Kind`]): dates, years, identifiers (`id`, `*_id`, `zip`,
//! `fips`, `*code`, codes with leading zeros), small integer codes
//! (`month`, `cluster`), coordinates, rising numbers, amounts, repeating
//! categories, names, and columns mostly empty; with how many distinct
//! values each has and, for dates, their moments.

use super::super::dates::instant::{Grain, instant};
use super::super::dates::time::{DateOrder, looks_like_year};
use super::super::number::{is_missing, parse_number};
use super::super::rows::{Loc, OwnedRow, cell};

/// Distinct values of a category at most.
const MAX_CATEGORIES: usize = 50;
/// Rows under which a table is a person's own few rows: numbers alone
/// keep their first column as the labels, any two dates are an x.
pub(super) const SMALL: usize = 20;

/// Kinds of columns of numbers.
pub(super) fn numeric(k: Kind) -> bool {
    matches!(
        k,
        Kind::Number
            | Kind::Ordered
            | Kind::Code
            | Kind::Year
            | Kind::Id
            | Kind::Coordinate
            | Kind::Weight
            | Kind::Bound
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
    /// How many times each row's cells happen (`Freq`, `n`, `count`: whole
    /// numbers, none negative, beside categories that name each row once):
    /// a frequency table's weight, summed, never averaged.
    Weight,
    /// The start of an interval whose end is another column (`start`
    /// and `stop`, `entry` and `exit`): neither an x nor an amount.
    Bound,
    /// Text whose values repeat: a category.
    Category,
    /// Text mostly unique: names of things.
    Name,
}

impl Kind {
    pub(super) fn describe(self) -> &'static str {
        match self {
            Kind::Sparse => "mostly empty",
            Kind::Date => "dates",
            Kind::Year => "years",
            Kind::Ordered => "rising numbers",
            Kind::Id => "an identifier",
            Kind::Code => "codes",
            Kind::Coordinate => "coordinates",
            Kind::Number => "numbers",
            Kind::Weight => "counts of each row (a frequency weight)",
            Kind::Bound => "the start of an interval",
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
    pub present: usize,
    /// For dates: their moments, in row order, and whether any has a time of day.
    pub moments: Vec<f64>,
    pub timed: bool,
    /// Cells that are the number 0.
    pub zeros: usize,
    /// Every number in it is whole.
    pub whole: bool,
}

pub(super) fn words(name: &str) -> Vec<String> {
    name.trim()
        .to_ascii_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Named as an identifier: `id`, `*_id`, `Candidate_ID`, `zip_code`,
/// `fips`, `Sample Number`, `tailnum`, `parent`, row names; for numbers also a graph's `source`
/// and `target`.
fn named_id(name: &str, numeric: bool) -> bool {
    let n = name.trim().to_ascii_lowercase();
    let w = words(name);
    let last = w.last().map_or("", String::as_str);
    let first = w.first().map_or("", String::as_str);
    // `number` or `no` alone counts things (polyps, children); after a
    // word (`Sample Number`, `case no`) it numbers them.
    let numbered = matches!(last, "number" | "no") && w.len() > 1;
    matches!(
        last,
        "id" | "ids" | "zip" | "zipcode" | "fips" | "code" | "uuid"
    ) || numbered
        || matches!(first, "id")
        || row_names(&n)
        || n == "parent"
        || (numeric && matches!(n.as_str(), "source" | "target"))
        || (n.ends_with("id") && n.len() > 2 && name.trim().ends_with("ID"))
        || (n.ends_with("code") && n.len() > 4)
        || (n.ends_with("num") && n.len() > 3 && !n.ends_with("_num"))
}

/// The names a data frame's row names are written under: R's
/// `rownames`, pandas' `index` or `Unnamed: 0`, or no name at all.
fn row_names(lower: &str) -> bool {
    matches!(
        lower,
        "index" | "rownames" | "row.names" | "unnamed: 0" | ""
    )
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
pub(super) fn named_count(name: &str) -> bool {
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

/// Words that say whole numbers stand for groups, not amounts.
pub(super) const CODE_WORDS: &[&str] = &[
    "seed",
    "dept",
    "department",
    "sex",
    "gender",
    "race",
    "ethnicity",
    "treatment",
    "trt",
    "block",
    "subject",
    "rep",
    "replicate",
    "batch",
    "litter",
    "stratum",
    "strata",
    "ward",
    "district",
    "region",
    "school",
    "plot",
    "group",
    "clinic",
    "center",
    "centre",
    "class",
    "type",
    "grade",
    "level",
    "category",
    "cluster",
    "team",
    "diet",
    "dose",
    "status",
    "smoker",
    "married",
];

/// Whether numbers read as years can be years: named as years, or all
/// between 1000 and 2100 (a household id from 1000 to 2400 is no year).
fn year_range(name: &str, numbers: &[f64]) -> bool {
    let named = words(name)
        .iter()
        .any(|w| w.contains("year") || matches!(w.as_str(), "yr" | "fy" | "season"));
    named || numbers.iter().all(|v| (1000.0..=2100.0).contains(v))
}

/// Whole numbers that stand for groups: 0 and 1 or 1 and 2 alone (a
/// yes/no, a sex), or named as a grouping (`seed`, `dept`, `sex`)
/// with each value in two rows or more.
fn code_like(name: &str, numbers: &[f64], distinct: usize) -> bool {
    if numbers.len() < 4 || numbers.iter().any(|v| v.fract() != 0.0) {
        return false;
    }
    let named = words(name).iter().any(|w| CODE_WORDS.contains(&w.as_str()));
    let binary = numbers.iter().all(|v| *v == 0.0 || *v == 1.0)
        || numbers.iter().all(|v| *v == 1.0 || *v == 2.0);
    (binary && distinct == 2) || (named && distinct * 2 <= numbers.len())
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
        zeros: cells
            .iter()
            .filter(|c| parse_number(c).is_some_and(|n| n.value == 0.0))
            .count(),
        whole: cells
            .iter()
            .all(|c| parse_number(c).is_none_or(|n| n.value.fract() == 0.0)),
    };
    if present > 0 {
        col.kind = kind_of(name, &cells, distinct);
    }
    if col.kind == Kind::Date {
        for c in &cells {
            if let Some((t, g)) = instant(c, Some(DateOrder::Dmy)) {
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
    // Dates with a month's name (`1987 Jan`, tsibble's year-month) read
    // as a number with a unit would be codes: the name says a date.
    let worded = cells
        .iter()
        .filter(|c| {
            c.chars().any(char::is_alphabetic) && !looks_like_year(c) && instant(c, None).is_some()
        })
        .count();
    if worded * 10 >= present * 9 {
        return Kind::Date;
    }
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
        if cells.iter().all(|c| looks_like_year(c)) && year_range(name, &numbers) {
            return Kind::Year;
        }
        if named_coordinate(name) {
            return Kind::Coordinate;
        }
        if named_time_part(name, &numbers) || code_like(name, &numbers, distinct) {
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
        for not in ["width", "acid", "paid", "number of cases", "number", "no"] {
            assert!(!named_id(not, true), "{not}");
        }
        assert!(named_id("source", true) && !named_id("source", false));
        assert!(named_id("rownames", true) && named_id("rownames", false));
    }

    #[test]
    fn a_few_rising_numbers_beside_names_are_numbers() {
        let rows = ["model,secs", "a,2.9", "b,3.0", "c,3.4"];
        assert_eq!(kinds(&rows), [Kind::Name, Kind::Number]);
        let rows = ["step,loss", "1,0.9", "2,0.5", "3,0.4"];
        assert_eq!(kinds(&rows), [Kind::Ordered, Kind::Number]);
    }
}
