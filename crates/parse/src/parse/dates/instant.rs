//! Labels read as moments on a time axis, as people write them: years
//! (`2024`, `FY2024`), quarters (`Q1 2024`, `2024-Q1`), ISO weeks (`2024 W06`,
//! `2024-W06`: tsibble's `yearweek`), ISO-ordered dates
//! and times (`2024-01-05`, `2024-01`, `2001/01/01 00:47`,
//! `2024-01-05T10:00:00Z`), dates with the day and month as numbers read
//! in the column's [`DateOrder`] (`05/01/2024`), and dates with a month
//! name (`Jan 1 2000`, `January 1, 2000`, `1 Jan 2000`, `Jan 2000`).
//! Times without a zone are UTC, as the plot grammar reads them.

use jiff::Timestamp;
use jiff::civil::{Date, DateTime, Time};

use super::super::number::{is_missing, parse_number};
use super::time::{DateOrder, NumericDate, looks_like_year};
use crate::spec::XType;

/// How finely a moment is written: what a tick or a time unit can say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Grain {
    Year,
    Quarter,
    Month,
    Day,
    Time,
}

/// A label as seconds since 1970-01-01T00:00:00Z and how finely it is
/// written; `None` when it is no moment (or needs a day/month `order`
/// that is not given).
pub(crate) fn instant(s: &str, order: Option<DateOrder>) -> Option<(f64, Grain)> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    if looks_like_year(t) {
        let y: i16 = t.strip_prefix("FY").unwrap_or(t).trim().parse().ok()?;
        return Some((
            secs(Date::new(y, 1, 1).ok()?, Time::midnight())?,
            Grain::Year,
        ));
    }
    quarter(t)
        .or_else(|| week(t))
        .or_else(|| numeric(t, order))
        .or_else(|| iso_ordered(t))
        .or_else(|| named_month(t))
        .or_else(|| {
            // Offsets and fractions ISO 8601 allows that the above do not read.
            let ts: Timestamp = t.parse().ok()?;
            Some((ts.as_millisecond() as f64 / 1000.0, Grain::Time))
        })
}

fn secs(d: Date, t: Time) -> Option<f64> {
    let z = DateTime::from_parts(d, t)
        .to_zoned(jiff::tz::TimeZone::UTC)
        .ok()?;
    Some(z.timestamp().as_millisecond() as f64 / 1000.0)
}

fn year_of(w: &str) -> Option<i16> {
    looks_like_year(w).then(|| w.parse().ok()).flatten()
}

/// `Q1 2024`, `2024-Q1`, `2024 Q1`.
fn quarter(t: &str) -> Option<(f64, Grain)> {
    let upper = t.to_ascii_uppercase();
    let words: Vec<&str> = upper
        .split([' ', '-', '/'])
        .filter(|w| !w.is_empty())
        .collect();
    let [a, b] = words.as_slice() else {
        return None;
    };
    let q = |w: &str| -> Option<i8> {
        let q: i8 = w.strip_prefix('Q')?.parse().ok()?;
        (1..=4).contains(&q).then_some(q)
    };
    let (q, y) = match (q(a), year_of(b), q(b), year_of(a)) {
        (Some(q), Some(y), _, _) | (_, _, Some(q), Some(y)) => (q, y),
        _ => return None,
    };
    let d = Date::new(y, (q - 1) * 3 + 1, 1).ok()?;
    Some((secs(d, Time::midnight())?, Grain::Quarter))
}

/// An ISO week, as tsibble's `yearweek` writes it (`1991 W06`) or ISO
/// 8601 does (`1991-W06`): its Monday.
fn week(t: &str) -> Option<(f64, Grain)> {
    let upper = t.to_ascii_uppercase();
    let (y, w) = upper.split_once([' ', '-'])?;
    let w: i8 = w.trim().strip_prefix('W')?.parse().ok()?;
    let d = jiff::civil::ISOWeekDate::new(year_of(y.trim())?, w, jiff::civil::Weekday::Monday)
        .ok()?
        .date();
    Some((secs(d, Time::midnight())?, Grain::Day))
}

/// A time of day after a date: `10:00`, `T10:00:30`, `00:47:00.5`.
fn time_of_day(rest: &str) -> Option<Time> {
    let r = rest.trim_start_matches(['T', ' ']).trim();
    if r.is_empty() {
        return Some(Time::midnight());
    }
    let parts: Vec<&str> = r.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let num = |p: &str| -> Option<i8> {
        (!p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse().ok())
            .flatten()
    };
    let (h, m) = (num(parts[0])?, num(parts[1])?);
    let (s, nanos) = match parts.get(2) {
        None => (0, 0),
        Some(p) => {
            let (whole, frac) = p.split_once('.').unwrap_or((p, ""));
            let frac_ok = frac.bytes().all(|b| b.is_ascii_digit()) && frac.len() <= 9;
            if !frac_ok {
                return None;
            }
            let nanos = if frac.is_empty() {
                0
            } else {
                format!("{frac:0<9}").parse().ok()?
            };
            (num(whole)?, nanos)
        }
    };
    Time::new(h, m, s, nanos).ok()
}

/// `05/01/2024`, `5.1.2024 10:00`: day and month in `order`.
fn numeric(t: &str, order: Option<DateOrder>) -> Option<(f64, Grain)> {
    let d = NumericDate::of(t)?;
    let (m, day) = d.month_day(order?)?;
    let time = time_of_day(d.rest)?;
    let grain = if d.rest.trim().is_empty() {
        Grain::Day
    } else {
        Grain::Time
    };
    let date = Date::new(i16::try_from(d.year).ok()?, m as i8, day as i8).ok()?;
    Some((secs(date, time)?, grain))
}

/// `2024-01-05`, `2024/01`, `2024-01-05 10:00`, `2001/01/01 00:47`,
/// `2024-01-05T10:00:00Z` (a zone other than `Z` is left to jiff).
fn iso_ordered(t: &str) -> Option<(f64, Grain)> {
    let (date, rest) = match t.find(['T', ' ']) {
        Some(i) => (&t[..i], &t[i..]),
        None => (t, ""),
    };
    let parts: Vec<&str> = date.split(['-', '/']).collect();
    if !(2..=3).contains(&parts.len())
        || parts[1..]
            .iter()
            .any(|p| p.is_empty() || p.len() > 2 || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let year = year_of(parts[0])?;
    let month: i8 = parts[1].parse().ok()?;
    let day: i8 = parts.get(2).map_or(Some(1), |d| d.parse().ok())?;
    let rest = rest.strip_suffix('Z').unwrap_or(rest);
    let time = time_of_day(rest)?;
    let grain = match (parts.len(), rest.trim().is_empty()) {
        (2, true) => Grain::Month,
        (_, true) => Grain::Day,
        _ => Grain::Time,
    };
    Some((secs(Date::new(year, month, day).ok()?, time)?, grain))
}

/// The month a word names (`Jan`, `january`, `Sept.`): 1 to 12, as the
/// calendar order of categories reads it.
fn month_of(w: &str) -> Option<i8> {
    match crate::spec::order::calendar_place(w)? {
        (1, i) => Some(i as i8 + 1),
        _ => None,
    }
}

/// `Jan 1 2000`, `January 1, 2000`, `1 Jan 2000`, `01-Jan-2000`,
/// `Jan 2000`, with a time of day after it.
fn named_month(t: &str) -> Option<(f64, Grain)> {
    let (date, time) = match t.find(':') {
        // The time is the last word, the one holding the colon.
        Some(c) => {
            let start = t[..c].rfind([' ', 'T']).map_or(0, |i| i + 1);
            (&t[..start], time_of_day(&t[start..])?)
        }
        None => (t, Time::midnight()),
    };
    let words: Vec<&str> = date
        .split([' ', ',', '-', '/'])
        .filter(|w| !w.is_empty())
        .collect();
    if !(2..=3).contains(&words.len()) {
        return None;
    }
    let (mut month, mut year, mut day) = (None, None, None);
    for w in &words {
        if let Some(m) = month_of(w) {
            month = month.xor(Some(m)).or(Some(0));
        } else if let Some(y) = year_of(w) {
            year = year.xor(Some(y)).or(Some(0));
        } else {
            let d = w.trim_end_matches(['s', 't', 'n', 'd', 'r', 'h']);
            let d: i8 = (d.len() <= 2).then(|| d.parse().ok()).flatten()?;
            day = day.xor(Some(d)).or(Some(0));
        }
    }
    let (month, year) = (month.filter(|m| *m > 0)?, year.filter(|y| *y > 0)?);
    let grain = match (day, t.contains(':')) {
        (_, true) => Grain::Time,
        (Some(_), false) => Grain::Day,
        (None, false) => Grain::Month,
    };
    let d = Date::new(year, month, day.unwrap_or(1)).ok()?;
    Some((secs(d, time)?, grain))
}

/// The scale labels are values on: dates when every one is a moment,
/// else (`numbers` allowed) numbers when every one is; `None` when they
/// are categories (or there are none).
pub(crate) fn x_type_of<'a>(
    labels: impl Iterator<Item = &'a str>,
    order: Option<DateOrder>,
    numbers: bool,
) -> Option<XType> {
    let labels: Vec<&str> = labels.filter(|l| !is_missing(l)).collect();
    if labels.is_empty() {
        return None;
    }
    if labels.iter().all(|l| instant(l, order).is_some()) {
        Some(XType::Date)
    } else if numbers && labels.iter().all(|l| parse_number(l).is_some()) {
        Some(XType::Number)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Option<f64> {
        instant(s, Some(DateOrder::Dmy)).map(|(t, _)| t)
    }

    #[test]
    fn every_written_form_is_the_same_moment() {
        let jan1 = at("2000-01-01").unwrap();
        assert_eq!(jan1, 946_684_800.0);
        for s in [
            "2000",
            "FY2000",
            "Q1 2000",
            "2000-Q1",
            "2000-01",
            "2000/01/01",
            "01/01/2000",
            "Jan 1 2000",
            "January 1, 2000",
            "1 Jan 2000",
            "01-Jan-2000",
            "Jan 2000",
            "2000 Jan",
            "2000-01-01T00:00:00Z",
            "2000-01-01 00:00",
        ] {
            assert_eq!(at(s), Some(jan1), "{s}");
        }
        assert_eq!(at("2001/01/01 00:47"), Some(978_310_020.0));
        // An ISO week is its Monday: 2000's first, 3 January.
        let jan3 = jan1 + 2.0 * 86_400.0;
        assert_eq!(at("2000 W01"), Some(jan3));
        assert_eq!(at("2000-W01"), Some(jan3));
        assert_eq!(at("Jan 1 2000 10:30"), Some(jan1 + 37_800.0));
        assert_eq!(at("2000-01-01T01:00:00+01:00"), Some(jan1));
        assert_eq!(
            instant("05/01/2024", Some(DateOrder::Mdy)),
            instant("2024-05-01", None)
        );
    }

    #[test]
    fn grains_and_refusals() {
        let g = |s| instant(s, None).map(|(_, g)| g);
        assert_eq!(g("2024"), Some(Grain::Year));
        assert_eq!(g("Q3 2024"), Some(Grain::Quarter));
        assert_eq!(g("2024-03"), Some(Grain::Month));
        assert_eq!(g("Mar 2024"), Some(Grain::Month));
        assert_eq!(g("2024-03-01"), Some(Grain::Day));
        assert_eq!(g("2024-03-01 10:00"), Some(Grain::Time));
        for s in [
            "",
            "M5 CS",
            "March",
            "Mon",
            "05/01/2024",
            "2024-13-01",
            "2024 W54",
            "1e9",
            "12",
            "3.5",
        ] {
            assert_eq!(instant(s, None), None, "{s}");
        }
    }
}
