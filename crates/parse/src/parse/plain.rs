//! Plain cells: the answers that are certain without the full number
//! parser. [`plain_number`] reads a short decimal or a number fast-float2
//! reads whole, exactly as [`super::number::parse_number_as`] would;
//! [`plain_text`] is a cell with nothing to trim. Everything else is "ask
//! the full parser". A leaf below the row vocabulary ([`super::rows`]) and
//! the fast lane ([`super::fast`]); it knows only [`super::number`].

use memchr::memchr;

use super::number::Decimal;

/// The value of a plain number cell (`-12.5`, `3e4`, no spaces, nothing
/// around it), exactly what [`super::number::parse_number_as`] gives it;
/// `None` for every other cell, which then goes to the full parser. A cell
/// that starts with a digit (or `-` and a digit) and is read whole by
/// fast-float2 is one the standard parser behind the full one reads too,
/// and both round correctly, so they agree wherever this one answers.
#[inline]
pub fn plain_number(s: &str, dec: Decimal) -> Option<f64> {
    plain_number_bytes(s.as_bytes(), dec)
}

/// [`plain_number`] of a cell's bytes (a field of delimited text cut at
/// its ASCII delimiters, with no look at where its characters start).
#[inline]
pub(crate) fn plain_number_bytes(b: &[u8], dec: Decimal) -> Option<f64> {
    // Nearly every cell: a short decimal, read in one pass (inlined into
    // the readers' loops; the rest is not).
    if let Some(d) = short_decimal(b)
        && d.end == b.len()
    {
        // A point in a decimal-comma column groups thousands: the full
        // parser's business.
        return (dec != Decimal::Comma || !d.point).then_some(d.value);
    }
    longer_number(b, dec)
}

/// [`plain_number`] of a cell that is no short decimal.
#[inline(never)]
fn longer_number(b: &[u8], dec: Decimal) -> Option<f64> {
    let digit_at = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    if !(digit_at(0) || (b.first() == Some(&b'-') && digit_at(1))) {
        return None;
    }
    if dec == Decimal::Comma && memchr(b'.', b).is_some() {
        return None;
    }
    match fast_float2::parse_partial::<f64, _>(b) {
        Ok((v, n)) if n == b.len() && v.is_finite() => Some(v),
        _ => None,
    }
}

/// Digits a [`short_decimal`] may have: up to 15 they fit a double exactly.
const MAX_DIGITS: usize = 15;

/// The powers of ten a [`short_decimal`] is divided by, all exact doubles.
const POW10: [f64; MAX_DIGITS + 1] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
];

/// A [`short_decimal`] read from the start of some bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Short {
    pub(crate) value: f64,
    /// Where its digits end (what follows is not looked at).
    pub(crate) end: usize,
    /// It has a point and a fraction.
    pub(crate) point: bool,
}

/// `-?[0-9]+(\.[0-9]+)?` of at most [`MAX_DIGITS`] digits at the start of
/// `b`, read exactly: the digits and the power of ten are both exact
/// doubles, so one correctly rounded division gives the correctly rounded
/// value, the one every correct parser (std, fast-float2, serde_json)
/// gives. `None` for anything longer or otherwise shaped (a point with no
/// digit after it), which the callers leave to those parsers. (Inlined:
/// the readers' loops call it for nearly every cell.)
#[inline]
pub(crate) fn short_decimal(b: &[u8]) -> Option<Short> {
    let neg = b.first() == Some(&b'-');
    let start = usize::from(neg);
    // Wrapping: a number too long to be exact is refused below anyway.
    let mut m = 0u64;
    let mut digits = |mut i: usize| {
        while let Some(&c) = b.get(i)
            && c.is_ascii_digit()
        {
            m = m.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            i += 1;
        }
        i
    };
    let int_end = digits(start);
    let point = int_end > start && b.get(int_end) == Some(&b'.');
    let end = if point { digits(int_end + 1) } else { int_end };
    let scale = end.saturating_sub(int_end + 1);
    if int_end == start || (point && scale == 0) || end - start - usize::from(point) > MAX_DIGITS {
        return None;
    }
    // Through i64, exact below 10^15: one instruction where u64 takes six.
    let v = m as i64 as f64 / POW10[scale];
    Some(Short {
        value: if neg { -v } else { v },
        end,
        point,
    })
}

/// Where the number [`short_decimal`] reads at the start of `b` ends, and
/// whether it has a point, without its value: for a cell that may never
/// be asked for one (a JSON line's label, say). `None` exactly where
/// `short_decimal` gives `None`.
#[inline]
pub(crate) fn short_decimal_end(b: &[u8]) -> Option<(usize, bool)> {
    let start = usize::from(b.first() == Some(&b'-'));
    let int_end = digit_run(b, start);
    let point = int_end > start && b.get(int_end) == Some(&b'.');
    let end = if point {
        digit_run(b, int_end + 1)
    } else {
        int_end
    };
    let scale = end.saturating_sub(int_end + 1);
    if int_end == start || (point && scale == 0) || end - start - usize::from(point) > MAX_DIGITS {
        return None;
    }
    Some((end, point))
}

/// Where the run of ASCII digits at `i` in `b` ends: eight bytes at a time
/// while there are eight left.
#[inline(always)]
fn digit_run(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    while let Some(w) = b.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
        // Each byte less '0' is below 10 only for a digit: adding 0x76
        // sets its top bit otherwise (as its own top bit does for a byte
        // past 0x7f; a carry out of such a byte only reaches bytes after
        // it, and only the first byte that is no digit counts).
        let x = u64::from_le_bytes(w) ^ (b'0' as u64 * ONES);
        let other = (x.wrapping_add(0x76 * ONES) | x) & (0x80 * ONES);
        if other != 0 {
            return i + (other.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// The cell as [`super::rows::cell`] would give it, when trimming cannot
/// change it (printable ASCII at both ends); `None` to ask the full path.
pub fn plain_text(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let plain = |c: u8| c > b' ' && c < 0x7f;
    // A NUL inside is a bad line's, which the full path names.
    (plain(*b.first()?) && plain(*b.last()?) && !b.contains(&0)).then_some(s)
}

/// `s.trim()`, without its character-by-character look when both ends
/// are printable ASCII (nearly every line).
pub(crate) fn trim(s: &str) -> &str {
    plain_text(s).unwrap_or_else(|| s.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_runs() {
        for (s, end) in [
            ("", 0),
            ("1", 1),
            ("12345678", 8),
            ("123456789x", 9),
            ("1234567/9", 7),
        ] {
            assert_eq!(digit_run(s.as_bytes(), 0), end, "{s:?}");
        }
        // Bytes past 0x7f and ':' / '/' beside the digits' range.
        assert_eq!(digit_run("12é4567890".as_bytes(), 0), 2);
        assert_eq!(digit_run(b"0123456:89", 0), 7);
        assert_eq!(digit_run(b"\xff\xff12345678", 2), 10);
    }

    proptest::proptest! {
        /// The end found without the value is the end found with it.
        #[test]
        fn short_decimal_end_agrees(
            s in "-?[0-9]{0,17}(\\.[0-9]{0,11})?[.,e}x/:\\x7f-\\u{ff}]?[0-9]{0,9}"
        ) {
            let b = s.as_bytes();
            proptest::prop_assert_eq!(
                short_decimal_end(b),
                short_decimal(b).map(|d| (d.end, d.point))
            );
        }
    }
}
