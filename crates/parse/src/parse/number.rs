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
/// A count for messages, its thousands grouped: `336,776`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub fn is_missing(s: &str) -> bool {
    let t = s.trim();
    t.is_empty() || MISSING.iter().any(|m| t.eq_ignore_ascii_case(m))
}

/// Which mark separates the decimals. `Auto` reads each number on its own
/// (`1.234,56` and `1,234.56` are clear; `1,234` is a thousand, `0,5` a
/// half); a column decides once with [`column_decimal`] so one file never
/// mixes conventions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Decimal {
    #[default]
    Auto,
    /// `1,234.5`: `,` ` ` `'` group thousands.
    Point,
    /// `1.234,5`: `.` ` ` `'` group thousands.
    Comma,
}

impl Decimal {
    pub fn describe(self) -> &'static str {
        match self {
            Decimal::Auto => "either",
            Decimal::Point => "decimal point",
            Decimal::Comma => "decimal comma",
        }
    }
}

/// Spaces people group thousands with: space, no-break space, narrow
/// no-break space (`1 234,56` as French and Swiss software writes it).
const GROUP_SPACES: &[char] = &[' ', '\u{a0}', '\u{202f}'];

/// Reads a finite number; `None` for anything else (text, dates, `inf`).
pub fn parse_number(s: &str) -> Option<Num<'_>> {
    parse_number_as(s, Decimal::Auto)
}

/// [`parse_number`] with the decimal mark fixed.
pub fn parse_number_as(s: &str, dec: Decimal) -> Option<Num<'_>> {
    let t = s.trim();
    let b = t.as_bytes();
    let first = *b.first()?;
    if (first.is_ascii_digit() || (matches!(first, b'-' | b'+' | b'.') && b.len() > 1))
        && (dec != Decimal::Comma || !t.contains('.'))
        && let Ok(v) = t.parse::<f64>()
    {
        return v.is_finite().then_some(Num { value: v, unit: "" });
    }
    // `(1,200)` and `(4%)`: an accountant's negative.
    if let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')'))
        && !inner.starts_with(['-', '+', '\u{2212}', '('])
    {
        return parse_number_as(inner, dec).map(|n| Num {
            value: -n.value,
            unit: n.unit,
        });
    }
    slow(t, dec)
}

/// Which convention a number's separators show unambiguously, if any:
/// `1.234,56`, `2,5`, `1.234.567` are comma-decimal; `1,234.5`, `2.5`,
/// `1,234,567` point-decimal; `1,234`, `1.234` and `987` could be either.
pub fn decimal_evidence(s: &str) -> Option<Decimal> {
    let t = s.trim();
    let m: String = t
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| {
            c.is_ascii_digit() || matches!(c, ',' | '.' | '\'') || GROUP_SPACES.contains(c)
        })
        .collect();
    let spaced = m.contains(|c: char| c == '\'' || GROUP_SPACES.contains(&c));
    let (dots, commas) = (m.matches('.').count(), m.matches(',').count());
    let last = |c: char| m.rfind(c).map(|i| m.len() - i - 1);
    match (dots, commas) {
        (0, 0) => None,
        (_, 0) if dots > 1 => Some(Decimal::Comma),
        (0, _) if commas > 1 => Some(Decimal::Point),
        // No one groups thousands after a lone 0: `0.125` is a decimal.
        (1, 0) if spaced || last('.') != Some(3) || m.starts_with("0.") => Some(Decimal::Point),
        (0, 1) if spaced || last(',') != Some(3) || m.starts_with("0,") => Some(Decimal::Comma),
        (1, 0) | (0, 1) => None,
        _ if m.rfind(',') > m.rfind('.') => Some(Decimal::Comma),
        _ => Some(Decimal::Point),
    }
}

/// What a format says about the decimal mark before any number does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MarkHint {
    /// Nothing: tab- or `|`-separated text, Markdown, `label: value` lines.
    #[default]
    None,
    /// A decimal point, settled: comma-separated text (its commas part
    /// fields, so a comma inside a quoted number groups thousands) and JSON
    /// (whose numbers are written with a point).
    Point,
    /// Leaning to a decimal comma: `;`-separated text, which is mostly
    /// written that way because the comma is the decimal mark.
    Comma,
}

impl MarkHint {
    /// The hint of delimited text (`None`: not delimited).
    pub fn of_delimiter(d: Option<u8>) -> MarkHint {
        match d {
            Some(b',') => MarkHint::Point,
            Some(b';') => MarkHint::Comma,
            _ => MarkHint::None,
        }
    }
}

/// A column's decimal mark, and whether it was a judgement call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DecimalChoice<'a> {
    pub mark: Decimal,
    /// A number of the column the other mark reads differently (`1,200`,
    /// `1.234`), when neither the column's other numbers nor the format
    /// settle the mark: the choice then deserves a note.
    pub doubt: Option<&'a str>,
}

/// One convention for a column, from a sample of its cells, in this order:
/// - what its unambiguous numbers show (the majority, if they disagree;
///   on a tie, a decimal comma in `;`-separated text);
/// - when none shows anything, commas that each stand before exactly three
///   digits group thousands (`"1,200"` beside `950` is 1200, whatever the
///   delimiter);
/// - else, for `1.234` and plain numbers, a decimal comma in `;`-separated
///   text and a decimal point elsewhere.
pub fn decide_decimal<'a>(
    cells: impl Iterator<Item = &'a str>,
    hint: MarkHint,
) -> DecimalChoice<'a> {
    let (mut point, mut comma) = (0usize, 0usize);
    let (mut grouped_comma, mut grouped_dot): (Option<&str>, Option<&str>) = (None, None);
    for c in cells {
        match decimal_evidence(c) {
            Some(Decimal::Point) => point += 1,
            Some(Decimal::Comma) => comma += 1,
            Some(Decimal::Auto) => {}
            None if parse_number(c).is_none() => {}
            // No evidence with a separator: one `,` or `.` before three digits.
            None if c.contains(',') => {
                grouped_comma.get_or_insert(c.trim());
            }
            None if c.contains('.') => {
                grouped_dot.get_or_insert(c.trim());
            }
            None => {}
        }
    }
    let leans_comma = hint == MarkHint::Comma;
    let mark = if comma != point {
        if comma > point {
            Decimal::Comma
        } else {
            Decimal::Point
        }
    } else if point > 0 {
        if leans_comma {
            Decimal::Comma
        } else {
            Decimal::Point
        }
    } else if grouped_comma.is_some() || !leans_comma {
        Decimal::Point
    } else {
        Decimal::Comma
    };
    let settled = point + comma > 0 || hint == MarkHint::Point;
    DecimalChoice {
        mark,
        doubt: (!settled).then(|| grouped_comma.or(grouped_dot)).flatten(),
    }
}

/// [`decide_decimal`]'s mark alone.
pub fn column_decimal<'a>(cells: impl Iterator<Item = &'a str>, hint: MarkHint) -> Decimal {
    decide_decimal(cells, hint).mark
}

/// The note for a column whose mark was a judgement call: which reading
/// was taken, why, and the `--decimal` that gives the other.
pub fn doubt_note(column: &str, choice: &DecimalChoice<'_>) -> Option<String> {
    let cell = choice.doubt?;
    let other = match choice.mark {
        Decimal::Comma => Decimal::Point,
        _ => Decimal::Comma,
    };
    let (read, alt) = (
        parse_number_as(cell, choice.mark)?.value,
        parse_number_as(cell, other)?.value,
    );
    let why = match (choice.mark, cell.contains(',')) {
        (Decimal::Comma, _) => {
            "a ;-separated file writes a decimal comma, and no value here shows a decimal point"
        }
        (_, true) => {
            "a comma before three digits groups thousands, and no value here shows a decimal comma"
        }
        _ => "no value here shows a decimal comma",
    };
    let flag = if other == Decimal::Comma { "," } else { "." };
    Some(format!(
        "column {column:?}: {cell:?} read as {read} ({why}); --decimal {flag} reads it as {alt}"
    ))
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

fn slow(t: &str, dec: Decimal) -> Option<Num<'_>> {
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
    // The mantissa: digits and separators; a space or apostrophe only
    // between digits, so `5 km` and `3 - 4` end where they should.
    let mut digits = 0;
    let mut end = 0;
    let mut prev_digit = false;
    let mut it = rest.char_indices().peekable();
    while let Some((at, c)) = it.next() {
        let next_digit = it.peek().is_some_and(|(_, n)| n.is_ascii_digit());
        let ok = c.is_ascii_digit()
            || matches!(c, ',' | '.')
            || ((c == '\'' || GROUP_SPACES.contains(&c)) && prev_digit && next_digit);
        if !ok {
            break;
        }
        digits += usize::from(c.is_ascii_digit());
        prev_digit = c.is_ascii_digit();
        end = at + c.len_utf8();
    }
    if digits == 0 {
        return None;
    }
    let b = rest.as_bytes();
    let mantissa_end = end;
    let mut i = end;
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
    let mantissa = separators(&rest[..mantissa_end], dec)?;
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

/// Thousands separators out, the decimal mark to a point. `None` when the
/// grouping is not one a person would write (`1,23,4`, `1.2.3`) or does
/// not fit the convention asked for.
fn separators(m: &str, dec: Decimal) -> Option<String> {
    let mark = match dec {
        Decimal::Point => '.',
        Decimal::Comma => ',',
        Decimal::Auto => match decimal_evidence(m) {
            Some(Decimal::Comma) => ',',
            _ => '.',
        },
    };
    let mut parts = m.split(mark);
    let int = parts.next().unwrap_or("");
    let frac = parts.next();
    if parts.next().is_some() {
        return None;
    }
    let frac = match frac {
        Some(f) if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) => return None,
        Some(f) => f,
        None => "",
    };
    let group = int.chars().find(|c| !c.is_ascii_digit());
    let int = match group {
        None => int.to_string(),
        Some(g) => {
            if g == mark || !(matches!(g, ',' | '.' | '\'') || GROUP_SPACES.contains(&g)) {
                return None;
            }
            let groups: Vec<&str> = int.split(g).collect();
            if groups[0].is_empty()
                || groups[0].len() > 3
                || !groups.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()))
                || groups[1..].iter().any(|p| p.len() != 3)
            {
                return None;
            }
            groups.concat()
        }
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    Some(if frac.is_empty() {
        int
    } else {
        format!("{int}.{frac}")
    })
}

/// A unit word after the number: `s`, `%`, `km/h`, `°C`, `ms`. Digits and
/// inner spaces are refused so dates, times and ranges stay text.
fn valid_suffix(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return true;
    };
    let starts_ok =
        first.is_alphabetic() || "%‰°µ'\"′″×/".contains(first) || CURRENCY.contains(&first);
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

    fn d(s: &str, dec: Decimal) -> Option<(f64, &str)> {
        parse_number_as(s, dec).map(|n| (n.value, n.unit))
    }

    #[test]
    fn decimal_conventions() {
        use Decimal::*;
        assert_eq!(v("1.234,56"), Some((1234.56, "")));
        assert_eq!(v("2.000,00"), Some((2000.0, "")));
        assert_eq!(v("1 234,56"), Some((1234.56, "")));
        assert_eq!(v("1\u{a0}234,56"), Some((1234.56, "")));
        assert_eq!(v("1\u{202f}234"), Some((1234.0, "")));
        assert_eq!(v("1'234.5"), Some((1234.5, "")));
        assert_eq!(v("1.234.567"), Some((1234567.0, "")));
        assert_eq!(v("12,50 €"), Some((12.5, "€")));
        assert_eq!(d("1.234", Comma), Some((1234.0, "")));
        assert_eq!(d("2.500", Comma), Some((2500.0, "")));
        assert_eq!(d("1,234", Comma), Some((1.234, "")));
        assert_eq!(d("2,5", Comma), Some((2.5, "")));
        assert_eq!(d("987", Comma), Some((987.0, "")));
        assert_eq!(d("1,234", Point), Some((1234.0, "")));
        assert_eq!(d("2,5", Point), None);
        assert_eq!(d("1.234,56", Point), None);
        assert_eq!(d("1,234.56", Comma), None);
        assert_eq!(decimal_evidence("1.234,56"), Some(Comma));
        assert_eq!(decimal_evidence("2,5"), Some(Comma));
        assert_eq!(decimal_evidence("1,234"), None);
        assert_eq!(decimal_evidence("1.5"), Some(Point));
        assert_eq!(decimal_evidence("0.125"), Some(Point));
        assert_eq!(decimal_evidence("-0,125"), Some(Comma));
        assert_eq!(
            column_decimal(["1.234", "2.500", "987"].into_iter(), MarkHint::Comma),
            Comma
        );
        assert_eq!(
            column_decimal(["1.234", "2.500", "987"].into_iter(), MarkHint::Point),
            Point
        );
        assert_eq!(
            column_decimal(["1,234", "2,5"].into_iter(), MarkHint::Point),
            Comma
        );
    }

    #[test]
    fn commas_before_three_digits_group_thousands_unless_one_is_a_decimal() {
        use Decimal::*;
        let d = |cells: &[&'static str], hint| decide_decimal(cells.iter().copied(), hint);
        // The case: `"1,200"` beside `950` in a `;` file is 1200.
        let c = d(&["1,200", "950"], MarkHint::Comma);
        assert_eq!((c.mark, c.doubt), (Point, Some("1,200")));
        let c = d(&["1,200", " 3,400 ", "950"], MarkHint::None);
        assert_eq!((c.mark, c.doubt), (Point, Some("1,200")));
        // Any decimal comma in the column makes every comma one.
        assert_eq!(
            d(&["1,200", "2,5"], MarkHint::Comma),
            DecimalChoice {
                mark: Comma,
                doubt: None
            }
        );
        assert_eq!(d(&["1,200", "0,125"], MarkHint::None).mark, Comma);
        // Comma-separated text and JSON settle it: no doubt.
        assert_eq!(
            d(&["1,200", "950"], MarkHint::Point),
            DecimalChoice {
                mark: Point,
                doubt: None
            }
        );
        // Dots before three digits: the delimiter's lean, in doubt.
        let c = d(&["1.234", "987"], MarkHint::Comma);
        assert_eq!((c.mark, c.doubt), (Comma, Some("1.234")));
        // Commas grouping and dots: the dots are decimals.
        assert_eq!(d(&["1,200", "1.234"], MarkHint::Comma).mark, Point);
        // Plain numbers leave nothing in doubt; text is not a number.
        assert_eq!(d(&["950", "12", "abc,def"], MarkHint::Comma).doubt, None);
        let note = doubt_note("p", &d(&["1,200"], MarkHint::Comma)).unwrap();
        assert!(note.ends_with("--decimal , reads it as 1.2"), "{note}");
        assert_eq!(doubt_note("p", &d(&["2,5"], MarkHint::None)), None);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_is_finite(s in "[0-9.,'() \u{a0}\u{202f}$€%kKMBTbnmse+-]{0,16}|\\PC{0,12}") {
            for dec in [Decimal::Auto, Decimal::Point, Decimal::Comma] {
                if let Some(n) = parse_number_as(&s, dec) {
                    proptest::prop_assert!(n.value.is_finite());
                }
            }
            let _ = decimal_evidence(&s);
        }
    }

    #[test]
    fn accounting_negatives() {
        assert_eq!(v("(4%)"), Some((-4.0, "%")));
        assert_eq!(v("(1,200)"), Some((-1200.0, "")));
        assert_eq!(v("($3.50)"), Some((-3.5, "$")));
        assert_eq!(v("(x)"), None);
        assert_eq!(v("((4))"), None);
        assert_eq!(
            v(&format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000))),
            None
        );
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
