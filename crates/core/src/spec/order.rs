//! The order categories are read in, wherever a chart orders them (a
//! heatmap's axes, bars sorted by label): numbers by value, before
//! words; day names (`Mon`..`Sun`, `Monday`..) and month names (`Jan`..,
//! `January`..) in calendar order when every word of the set names the
//! same calendar; other words alphabetically (case aside). One rule for every chart, so
//! a week reads Monday to Sunday in each.

use std::cmp::Ordering;

const DAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Which calendar a word names and its place in it: (0 days, 1 months;
/// the index). A day or month written whole or cut to its first three
/// letters or more (`Tue`, `Tues`, `Sept`), any case, a trailing dot
/// aside.
pub fn calendar_place(s: &str) -> Option<(u8, u8)> {
    let t = s.trim().trim_end_matches('.');
    if t.len() < 3 || t.len() > 9 || !t.is_ascii() {
        return None;
    }
    let t = t.to_ascii_lowercase();
    let find = |names: &[&str]| names.iter().position(|n| n.starts_with(t.as_str()));
    if let Some(i) = find(&DAYS) {
        return Some((0, i as u8));
    }
    // A prefix of the whole name: `Sept` is September's too.
    find(&MONTHS).map(|i| (1, i as u8))
}

/// The calendar every one of some categories names (0 days, 1 months),
/// if they all name one: a rule for the whole set, so `sun` among
/// weather words stays a word.
pub fn calendar<'a>(labels: impl IntoIterator<Item = &'a str>) -> Option<u8> {
    let mut kind = None;
    for l in labels {
        let (k, _) = calendar_place(l)?;
        if kind.is_some_and(|c| c != k) {
            return None;
        }
        kind = Some(k);
    }
    kind
}

/// Categories in reading order: numbers by value, then words: in the
/// order of `cal` (days of a week, months of a year: [`calendar`] of the
/// whole set) when they name it, else alphabetically, case aside (then
/// exactly, so the order is total).
pub fn category_order(a: &str, b: &str, cal: Option<u8>) -> Ordering {
    rank(a, cal)
        .partial_cmp(&rank(b, cal))
        .unwrap_or(Ordering::Equal)
        .then_with(|| a.to_lowercase().cmp(&b.to_lowercase()))
        .then_with(|| a.cmp(b))
}

/// Labels in order for bars sorted by label: as [`category_order`], but
/// other words in plain character order (capitals first), as they always
/// were.
pub fn label_order(a: &str, b: &str, cal: Option<u8>) -> Ordering {
    rank(a, cal)
        .partial_cmp(&rank(b, cal))
        .unwrap_or(Ordering::Equal)
        .then_with(|| a.cmp(b))
}

/// A category's class (0 numbers, 1 words of the calendar `cal`, 2 other
/// words) and its place in it.
fn rank(s: &str, cal: Option<u8>) -> (u8, f64) {
    if let Some(v) = s.trim().parse::<f64>().ok().filter(|v| v.is_finite()) {
        return (0, v);
    }
    match (cal, calendar_place(s)) {
        (Some(c), Some((k, i))) if c == k => (1, f64::from(i)),
        _ => (2, 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(v: &[&str]) -> Vec<String> {
        let cal = calendar(v.iter().copied());
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| category_order(a, b, cal));
        v
    }

    #[test]
    fn days_and_months_run_in_calendar_order() {
        assert_eq!(
            sorted(&["Sun", "Mon", "Fri", "Wed", "Sat", "Tue", "Thu"]),
            ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        );
        assert_eq!(
            sorted(&["Friday", "monday", "TUESDAY", "Sunday"]),
            ["monday", "TUESDAY", "Friday", "Sunday"]
        );
        assert_eq!(
            sorted(&["Dec", "Sept", "Jan", "Aug", "Feb", "May"]),
            ["Jan", "Feb", "May", "Aug", "Sept", "Dec"]
        );
        assert_eq!(
            sorted(&["October", "April", "March"]),
            ["March", "April", "October"]
        );
    }

    #[test]
    fn numbers_first_then_words_and_other_words_alphabetically() {
        assert_eq!(
            sorted(&["b", "10", "A", "2", "a"]),
            ["2", "10", "A", "a", "b"]
        );
        // Words that only start like a day stay alphabetical.
        assert_eq!(calendar_place("Mo"), None);
        assert_eq!(calendar_place("Monsoon"), None);
        // A set that is not all days (or all months) is words: `sun`
        // among the weather stays a word.
        assert_eq!(
            sorted(&["sun", "fog", "drizzle", "rain"]),
            ["drizzle", "fog", "rain", "sun"]
        );
        assert_eq!(sorted(&["sat", "Jan", "mon"]), ["Jan", "mon", "sat"]);
    }
}
