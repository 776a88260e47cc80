//! Numbers as people write them in tables and chat: `1,234`, `4.2s`,
//! `12%`, `$1,200`, `-3`, `1e6`, `0,5`. A unit written beside the number
//! (a suffix such as `s` or `%`, or a currency prefix such as `$`) is
//! returned with it so a column's common unit can become the chart's unit;
//! placeholders such as `N/A` are recognised as missing, not as text.
//!
//! The plain-number case is tried first with the standard parser, because
//! it is nearly every cell of a large file and must stay cheap.

/// A number read from text, with the unit written beside it (empty if none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num<'a> {
    pub value: f64,
    pub unit: &'a str,
}

/// Cell texts that mean "no value" rather than "not a number".
const MISSING: &[&str] = &[
    "",
    "-",
    "--",
    "—",
    "–",
    "?",
    "n/a",
    "na",
    "n.a.",
    "null",
    "none",
    "nil",
    "nan",
    "#n/a",
    "missing",
    "undefined",
];

/// Currency signs accepted before a number (`$1,200`, `€3.50`).
const CURRENCY: &[char] = &[
    '$', '€', '£', '¥', '₹', '₩', '₽', '₺', '₴', '₦', '₱', '₿', '¢',
];

/// Scale suffixes written against a number (`950k`, `1.2M`, `3bn`), with
/// their powers of ten. Lower-case `m` and `b` stay units (metres, bits).
pub const MULTIPLIERS: &[(&str, i32)] = &[
    ("k", 3),
    ("K", 3),
    ("M", 6),
    ("B", 9),
    ("bn", 9),
    ("Bn", 9),
    ("T", 12),
];

/// True for an empty cell or a placeholder such as `N/A`, `null`, `-`.
pub fn is_missing(s: &str) -> bool {
    let t = s.trim();
    t.is_empty() || MISSING.iter().any(|m| t.eq_ignore_ascii_case(m))
}

/// Reads a finite number; `None` for anything else (text, dates, `inf`).
pub fn parse_number(s: &str) -> Option<Num<'_>> {
    let t = s.trim();
    let b = t.as_bytes();
    let first = *b.first()?;
    if (first.is_ascii_digit() || (matches!(first, b'-' | b'+' | b'.') && b.len() > 1))
        && let Ok(v) = t.parse::<f64>()
    {
        return v.is_finite().then_some(Num { value: v, unit: "" });
    }
    slow(t)
}

fn take_sign(s: &str) -> (&str, bool) {
    if let Some(r) = s.strip_prefix('-').or_else(|| s.strip_prefix('\u{2212}')) {
        (r, true)
    } else if let Some(r) = s.strip_prefix('+') {
        (r, false)
    } else {
        (s, false)
    }
}

fn slow(t: &str) -> Option<Num<'_>> {
    let (mut rest, mut neg) = take_sign(t);
    let mut prefix = "";
    if let Some(c) = rest.chars().next()
        && CURRENCY.contains(&c)
    {
        prefix = &rest[..c.len_utf8()];
        rest = rest[c.len_utf8()..].trim_start();
        if !neg {
            let (r, n) = take_sign(rest);
            rest = r;
            neg = n;
        }
    }
    let b = rest.as_bytes();
    let mut i = 0;
    let mut digits = 0;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b',' || b[i] == b'.') {
        digits += usize::from(b[i].is_ascii_digit());
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    let mantissa_end = i;
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > start {
            i = j;
        }
    }
    // All bytes up to `i` are ASCII, so these are char boundaries.
    let mantissa = separators(&rest[..mantissa_end])?;
    let mut exponent = rest[mantissa_end..i].to_string();
    let mut suffix = rest[i..].trim_start();
    // `950k`, `1.2M`, `3bn`: a scale, not a unit. Only written right
    // against the number; `3 MB`, `5 km`, `2 m` keep their units.
    if exponent.is_empty()
        && let Some(&(_, power)) = MULTIPLIERS.iter().find(|(m, _)| *m == &rest[i..])
    {
        exponent = format!("e{power}");
        suffix = "";
    }
    if !valid_suffix(suffix) {
        return None;
    }
    // Scaled in the decimal text, so `1.2M` is exactly 1200000.
    let value: f64 = format!("{mantissa}{exponent}").parse().ok()?;
    let value = if neg { -value } else { value };
    if !value.is_finite() {
        return None;
    }
    let unit = if prefix.is_empty() { suffix } else { prefix };
    Some(Num { value, unit })
}

/// Thousands separators out, a decimal comma to a point. `None` when the
/// grouping is not one a person would write (`1,23,4`).
fn separators(m: &str) -> Option<String> {
    let dots = m.matches('.').count();
    let commas = m.matches(',').count();
    if dots > 1 {
        return None;
    }
    if commas == 0 {
        return Some(m.to_string());
    }
    let (int, frac) = match m.find('.') {
        Some(d) => (&m[..d], &m[d..]),
        None => (m, ""),
    };
    if int.contains('.') || frac.contains(',') {
        return None;
    }
    let groups: Vec<&str> = int.split(',').collect();
    if dots == 0 && commas == 1 && groups[1].len() != 3 {
        // `0,5` and `12,75`: a decimal comma, as much of Europe writes it.
        if groups[0].is_empty() || groups[1].is_empty() {
            return None;
        }
        return Some(format!("{}.{}", groups[0], groups[1]));
    }
    if groups[0].is_empty() || groups[0].len() > 3 || groups[1..].iter().any(|g| g.len() != 3) {
        return None;
    }
    Some(format!("{}{frac}", groups.concat()))
}

/// A unit word after the number: `s`, `%`, `km/h`, `°C`, `ms`. Digits and
/// inner spaces are refused so dates, times and ranges stay text.
fn valid_suffix(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return true;
    };
    let starts_ok = first.is_alphabetic() || "%‰°µ'\"′″×/".contains(first);
    starts_ok
        && s.chars().count() <= 8
        && !s.chars().any(|c| {
            c.is_ascii_digit() || c.is_whitespace() || c.is_control() || ",.:;|".contains(c)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Option<(f64, &str)> {
        parse_number(s).map(|n| (n.value, n.unit))
    }

    #[test]
    fn as_people_write_them() {
        assert_eq!(v("1,234"), Some((1234.0, "")));
        assert_eq!(v("4.2s"), Some((4.2, "s")));
        assert_eq!(v("12%"), Some((12.0, "%")));
        assert_eq!(v("$1,200"), Some((1200.0, "$")));
        assert_eq!(v("-$3.5"), Some((-3.5, "$")));
        assert_eq!(v("-3"), Some((-3.0, "")));
        assert_eq!(v("1e6"), Some((1e6, "")));
        assert_eq!(v(" 3.5 ms "), Some((3.5, "ms")));
        assert_eq!(v("0,5"), Some((0.5, "")));
        assert_eq!(v("1,234,567.5"), Some((1234567.5, "")));
        assert_eq!(v("120 km/h"), Some((120.0, "km/h")));
        assert_eq!(v("−7"), Some((-7.0, "")));
    }

    #[test]
    fn scale_suffixes_multiply() {
        assert_eq!(v("950k"), Some((950_000.0, "")));
        assert_eq!(v("1.2M"), Some((1_200_000.0, "")));
        assert_eq!(v("9.1K"), Some((9_100.0, "")));
        assert_eq!(v("3bn"), Some((3e9, "")));
        assert_eq!(v("2.5B"), Some((2.5e9, "")));
        assert_eq!(v("1.5T"), Some((1.5e12, "")));
        assert_eq!(v("$1.2M"), Some((1_200_000.0, "$")));
        assert_eq!(v("-80k"), Some((-80_000.0, "")));
        // Units stay units.
        assert_eq!(v("3 MB"), Some((3.0, "MB")));
        assert_eq!(v("3MB"), Some((3.0, "MB")));
        assert_eq!(v("5 km"), Some((5.0, "km")));
        assert_eq!(v("10 kg"), Some((10.0, "kg")));
        assert_eq!(v("4.2s"), Some((4.2, "s")));
        assert_eq!(v("2 M"), Some((2.0, "M")));
        assert_eq!(v("7m"), Some((7.0, "m")));
    }

    #[test]
    fn not_numbers() {
        for s in [
            "",
            "N/A",
            "abc",
            "2024-01-05",
            "12:30",
            "1.2.3",
            "inf",
            "NaN",
            "1e400",
            "-inf",
            "1,23,4",
            "Q1",
            "M5 CS",
            "3 - 4",
            "$",
            ".",
            "12,",
            "5 km 3",
        ] {
            assert_eq!(v(s), None, "{s:?}");
        }
    }

    #[test]
    fn missing_placeholders() {
        assert!(is_missing("N/A"));
        assert!(is_missing("  "));
        assert!(is_missing("null"));
        assert!(!is_missing("0"));
    }
}
