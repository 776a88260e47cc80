//! Labels that are times (years, dates, months, quarters) and the order
//! they run in. Owns the reading of dates written with the day and month
//! as numbers (`05/01/2024`): day-first or month-first is decided once per
//! column, from `--dates`, else from what its dates show (`13/01/2024` is
//! day-first), else day-first, a judgement the caller reports when it
//! changes the chart.

use super::super::number::parse_number;

/// A sortable key for a time label: year, month or quarter, day, the rest
/// (a time of day, compared as text).
pub(crate) type TimeKey = (u32, u32, u32, String);

/// How a date with the day and month as numbers is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DateOrder {
    /// Day first: 05/01/2024 is 5 January 2024.
    Dmy,
    /// Month first: 05/01/2024 is May 1, 2024.
    Mdy,
}

impl DateOrder {
    pub(crate) fn other(self) -> DateOrder {
        match self {
            DateOrder::Dmy => DateOrder::Mdy,
            DateOrder::Mdy => DateOrder::Dmy,
        }
    }

    pub(crate) fn flag(self) -> &'static str {
        match self {
            DateOrder::Dmy => "dmy",
            DateOrder::Mdy => "mdy",
        }
    }

    pub(crate) fn describe(self) -> &'static str {
        match self {
            DateOrder::Dmy => "day-first",
            DateOrder::Mdy => "month-first",
        }
    }
}

/// `05/01/2024`, `5.1.2024`, `05-01-2024 10:00`: two numbers of at most
/// two digits and a four-digit year, one separator throughout.
#[derive(Debug, Clone, Copy)]
pub(super) struct NumericDate<'a> {
    first: u32,
    second: u32,
    pub(super) year: u32,
    sep: u8,
    /// What follows the date: a time of day, or nothing.
    pub(super) rest: &'a str,
}

impl<'a> NumericDate<'a> {
    pub(super) fn of(s: &'a str) -> Option<NumericDate<'a>> {
        let (date, rest) = match s.find(['T', ' ']) {
            Some(i) => (&s[..i], &s[i..]),
            None => (s, ""),
        };
        let sep = *date
            .as_bytes()
            .iter()
            .find(|b| matches!(b, b'/' | b'.' | b'-'))?;
        let parts: Vec<&str> = date.split(sep as char).collect();
        let digits = |p: &str, n: std::ops::RangeInclusive<usize>| {
            n.contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
        };
        if parts.len() != 3
            || !digits(parts[0], 1..=2)
            || !digits(parts[1], 1..=2)
            || !digits(parts[2], 4..=4)
        {
            return None;
        }
        Some(NumericDate {
            first: parts[0].parse().ok()?,
            second: parts[1].parse().ok()?,
            year: parts[2].parse().ok()?,
            sep,
            rest,
        })
    }

    /// Month and day in `order`, if that reading is a date at all.
    pub(super) fn month_day(&self, order: DateOrder) -> Option<(u32, u32)> {
        let (m, d) = match order {
            DateOrder::Dmy => (self.second, self.first),
            DateOrder::Mdy => (self.first, self.second),
        };
        ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((m, d))
    }

    /// The reading the numbers force, if only one is a date.
    fn shows(&self) -> Option<DateOrder> {
        match (
            self.month_day(DateOrder::Dmy).is_some(),
            self.month_day(DateOrder::Mdy).is_some(),
        ) {
            (true, false) => Some(DateOrder::Dmy),
            (false, true) => Some(DateOrder::Mdy),
            _ => None,
        }
    }
}

/// How a column's numeric dates are read, and whether that was a guess.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct DatesChoice {
    /// `None`: the column holds no such dates, or they contradict each other.
    pub order: Option<DateOrder>,
    /// A date both readings accept, when nothing settled the order.
    pub doubt: Option<String>,
}

/// Decides the reading of the numeric dates among `labels` (see the module
/// doc). Dotted dates (`05.01.2024`) are day-first: no one writes them
/// month-first.
pub(crate) fn decide_dates<'a>(
    labels: impl Iterator<Item = &'a str>,
    forced: Option<DateOrder>,
) -> DatesChoice {
    let (mut dmy, mut mdy, mut dotted) = (false, false, false);
    let mut doubt: Option<&str> = None;
    for l in labels {
        let Some(d) = NumericDate::of(l.trim()) else {
            continue;
        };
        dotted |= d.sep == b'.';
        match d.shows() {
            Some(DateOrder::Dmy) => dmy = true,
            Some(DateOrder::Mdy) => mdy = true,
            None if d.month_day(DateOrder::Dmy).is_some() => {
                doubt.get_or_insert(l.trim());
            }
            None => {}
        }
    }
    let order = match (forced, dmy, mdy) {
        (Some(o), ..) => Some(o),
        (None, true, false) => Some(DateOrder::Dmy),
        (None, false, true) => Some(DateOrder::Mdy),
        (None, true, true) => None,
        (None, false, false) => doubt.map(|_| DateOrder::Dmy),
    };
    let settled = forced.is_some() || dmy || mdy || dotted;
    DatesChoice {
        order,
        doubt: (!settled).then(|| doubt.map(str::to_string)).flatten(),
    }
}

const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// `05/01/2024` read in `order`, for messages: `5 January 2024`.
pub(crate) fn spell_date(s: &str, order: DateOrder) -> Option<String> {
    let d = NumericDate::of(s.trim())?;
    let (m, day) = d.month_day(order)?;
    Some(format!("{day} {} {}", MONTH_NAMES[m as usize - 1], d.year))
}

/// The note for dates in doubt whose reading changes the line: `reversed`
/// says whether the reading taken puts the rows newest first.
pub(crate) fn date_note(column: &str, example: &str, order: DateOrder, reversed: bool) -> String {
    let spelt = |o| spell_date(example, o).unwrap_or_else(|| example.to_string());
    let (given, newest) = (
        "which keeps them in the order given",
        "which puts them newest first, so the line is reversed",
    );
    let (taken, other) = if reversed {
        (newest, given)
    } else {
        (given, newest)
    };
    format!(
        "column {column:?}: {example:?} could be {} or {}; the dates are read {}, {taken}; \
         --dates {} reads them {}, {other}",
        spelt(order),
        spelt(order.other()),
        order.describe(),
        order.other().flag(),
        order.other().describe(),
    )
}

/// Whether a line's labels run strictly newest first, watched row by row
/// (time written that way would draw right to left).
#[derive(Debug, Clone)]
pub(crate) struct NewestFirst {
    order: Option<DateOrder>,
    last: Option<TimeKey>,
    first_label: Option<String>,
    last_label: Option<String>,
}

impl NewestFirst {
    pub(crate) fn new(order: Option<DateOrder>) -> NewestFirst {
        NewestFirst {
            order,
            last: None,
            first_label: None,
            last_label: None,
        }
    }

    /// Takes the next label; false once the labels are not newest first.
    pub(crate) fn see(&mut self, label: &str) -> bool {
        match time_key(label, self.order) {
            Some(k) if self.last.as_ref().is_none_or(|p| k < *p) => {
                self.last = Some(k);
                if self.first_label.is_none() {
                    self.first_label = Some(label.to_string());
                } else {
                    self.last_label = Some(label.to_string());
                }
                true
            }
            _ => false,
        }
    }

    /// The first and last label, when at least two ran newest first.
    pub(crate) fn span(self) -> Option<(String, String)> {
        self.first_label.zip(self.last_label)
    }
}

pub(crate) fn looks_like_year(s: &str) -> bool {
    let t = s.trim();
    let t = t.strip_prefix("FY").unwrap_or(t).trim();
    t.len() == 4
        && t.bytes().all(|b| b.is_ascii_digit())
        && (b'1'..=b'2').contains(&t.as_bytes()[0])
}

fn looks_like_date(s: &str) -> bool {
    let t = s.trim();
    let b = t.as_bytes();
    if b.is_empty() || !b[0].is_ascii_digit() {
        return false;
    }
    if !t
        .bytes()
        .all(|c| c.is_ascii_digit() || b"-/.:TZ +".contains(&c))
    {
        return false;
    }
    let dots = t.matches('.').count();
    t.contains(['-', '/', ':']) || dots >= 2
}

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAYS: &[&str] = &["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// `Q1 2024`, `2024-Q3`, `H2 2023`, `Jan 2024`, `March`, `Mon`, `W07`.
fn looks_like_period(s: &str) -> bool {
    let lower = s.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split([' ', '-', '/', '\'', '_', ','])
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() || words.len() > 3 {
        return false;
    }
    let mut named = false;
    for w in &words {
        let b = w.as_bytes();
        let period = matches!(b[0], b'q' | b'h' | b'w')
            && b.len() >= 2
            && b[1..].iter().all(u8::is_ascii_digit);
        let name = w.len() >= 3
            && w.bytes().all(|c| c.is_ascii_alphabetic())
            && (MONTHS.iter().any(|m| w.starts_with(m)) || DAYS.iter().any(|d| w.starts_with(d)));
        let number = w.bytes().all(|c| c.is_ascii_digit());
        if !(period || name || number) {
            return false;
        }
        named |= period || name;
    }
    named
}

/// A sortable key for a label that is a year (`2024`, `FY2024`), an
/// ISO-ordered date or month (`2024-01-05`, `2024/01`, `2024-01-05T10:00`),
/// a quarter (`Q1 2024`, `2024-Q1`) or, read in `order`, a date with the
/// day and month as numbers (`05/01/2024`); `None` for anything else.
pub(crate) fn time_key(s: &str, order: Option<DateOrder>) -> Option<TimeKey> {
    let t = s.trim();
    if looks_like_year(t) {
        let y = t.strip_prefix("FY").unwrap_or(t).trim().parse().ok()?;
        return Some((y, 0, 0, String::new()));
    }
    let upper = t.to_ascii_uppercase();
    if let Some(d) = NumericDate::of(t) {
        let (month, day) = d.month_day(order?)?;
        return Some((d.year, month, day, d.rest.to_string()));
    }
    let quarter = |q: &str, y: &str| -> Option<TimeKey> {
        let q: u32 = q.strip_prefix('Q')?.parse().ok()?;
        (looks_like_year(y) && (1..=4).contains(&q))
            .then(|| (y.parse().ok().unwrap_or(0), q, 0, String::new()))
    };
    let words: Vec<&str> = upper
        .split([' ', '-', '/'])
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() == 2
        && let Some(k) = quarter(words[0], words[1]).or_else(|| quarter(words[1], words[0]))
    {
        return Some(k);
    }
    let (date, rest) = match t.find(['T', ' ']) {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, ""),
    };
    let parts: Vec<&str> = date.split(['-', '/']).collect();
    if !(2..=3).contains(&parts.len())
        || parts[0].len() != 4
        || parts[1..].iter().any(|p| p.is_empty() || p.len() > 2)
        || !parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let n = |i: usize| parts.get(i).and_then(|p| p.parse().ok()).unwrap_or(0);
    Some((n(0), n(1), n(2), rest.to_string()))
}

/// Line when labels look like dates, years, periods or ordered numbers.
pub(crate) fn looks_ordered<'a>(labels: impl Iterator<Item = &'a str>) -> bool {
    let labels: Vec<&str> = labels.filter(|l| !l.trim().is_empty()).collect();
    if labels.len() < 2 {
        return false;
    }
    if labels
        .iter()
        .all(|l| looks_like_year(l) || looks_like_date(l) || looks_like_period(l))
    {
        return true;
    }
    let nums: Option<Vec<f64>> = labels
        .iter()
        .map(|l| parse_number(l).map(|n| n.value))
        .collect();
    nums.is_some_and(|n| n.windows(2).all(|w| w[0] < w[1]) || n.windows(2).all(|w| w[0] > w[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_labels() {
        assert!(looks_ordered(["2019", "2020", "2021"].into_iter()));
        assert!(looks_ordered(["2021", "2019", "2020"].into_iter()));
        assert!(looks_ordered(["2024-01-01", "2024-01-02"].into_iter()));
        assert!(looks_ordered(["Q1 2024", "Q2 2024"].into_iter()));
        assert!(looks_ordered(["Jan", "Feb", "March"].into_iter()));
        assert!(looks_ordered(["1", "2", "5"].into_iter()));
        assert!(!looks_ordered(["1", "5", "2"].into_iter()));
        assert!(!looks_ordered(["M5 CS", "M8"].into_iter()));
        assert!(!looks_ordered(["2.9", "3.1", "3.0"].into_iter()));
    }

    #[test]
    fn time_keys() {
        let k = |s| time_key(s, None);
        assert!(k("2024") > k("2023"));
        assert!(k("2024-02-01") > k("2024-01-31"));
        assert!(k("2024-1-5") < k("2024-01-10"));
        assert!(k("Q1 2024") > k("2023-Q4"));
        assert!(k("2024-01-05T10:00") > k("2024-01-05T09:00"));
        assert_eq!(k("05/01/2024"), None);
        assert_eq!(k("M5 CS"), None);
        let dmy = |s| time_key(s, Some(DateOrder::Dmy));
        let mdy = |s| time_key(s, Some(DateOrder::Mdy));
        assert!(dmy("01/02/2024") > dmy("02/01/2024"));
        assert!(mdy("01/02/2024") < mdy("02/01/2024"));
        assert_eq!(dmy("05.01.2024 10:00"), Some((2024, 1, 5, " 10:00".into())));
        assert_eq!(mdy("13/01/2024"), None);
        assert_eq!(dmy("2024-01-05"), k("2024-01-05"));
    }

    #[test]
    fn date_orders() {
        let d = |l: &[&str], f| decide_dates(l.iter().copied(), f);
        assert_eq!(
            d(&["13/01/2024", "05/01/2024"], None).order,
            Some(DateOrder::Dmy)
        );
        assert_eq!(
            d(&["01/13/2024", "01/05/2024"], None).order,
            Some(DateOrder::Mdy)
        );
        assert_eq!(d(&["13/01/2024", "01/13/2024"], None).order, None);
        let c = d(&["05/01/2024", "04/01/2024"], None);
        assert_eq!(c.order, Some(DateOrder::Dmy));
        assert_eq!(c.doubt.as_deref(), Some("05/01/2024"));
        let c = d(&["05/01/2024"], Some(DateOrder::Mdy));
        assert_eq!((c.order, c.doubt), (Some(DateOrder::Mdy), None));
        assert_eq!(d(&["05.01.2024"], None).doubt, None);
        assert_eq!(d(&["2024-01-05", "M5"], None), DatesChoice::default());
        assert_eq!(
            spell_date("05/01/2024", DateOrder::Mdy).as_deref(),
            Some("1 May 2024")
        );
    }
}
