//! One JSON line of a flat object of plain values read without building a
//! `serde_json::Value` ([`PlainObject`]): the fast lane of JSON lines (and
//! of a JSON array's records). A line of the last line's shape, the same
//! text around its values byte for byte, is read without looking at its
//! keys; a number in a column whose numbers the chart does not take (a
//! label) is only checked, not read, until asked for.

use std::borrow::Cow;

use super::super::super::number::Decimal;
use super::super::super::plain::{plain_number, short_decimal, short_decimal_end};
use super::super::super::rows::Cells;

/// A JSON value the fast lane read from a line.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Json {
    /// Not in this line.
    Absent,
    Null,
    /// A string without escapes: its content.
    Text(usize, usize),
    /// `true`/`false`: its token is the text serde_json writes for it.
    Word(usize, usize),
    /// An integer of at most 15 digits: its token (the text serde_json
    /// writes for it) and its value.
    Int(usize, usize, f64),
    /// A number with a fraction, at most 15 digits and no exponent: read
    /// exactly by serde_json too (see [`short_decimal`]), so its value is
    /// known here.
    Float(f64),
    /// A number of either kind in a column not asked for numbers (see
    /// [`PlainObject::eager`]): its token and whether it has a point; its
    /// value is read when asked for.
    Lazy(usize, usize, bool),
}

/// Text around a line's values (`{"x":`, `,"y":`), a range of
/// [`PlainObject::shape`]; up to 8 bytes of it also as a word, compared in
/// one go where the line has 8 bytes left.
#[derive(Debug, Default, Clone, Copy)]
struct Lit {
    from: usize,
    to: usize,
    word: u64,
    mask: u64,
}

impl Lit {
    fn new(shape: &[u8], from: usize, to: usize) -> Lit {
        let len = to - from;
        let mut bytes = [0u8; 8];
        let short = len <= 8;
        if short {
            bytes[..len].copy_from_slice(&shape[from..to]);
        }
        Lit {
            from,
            to,
            word: u64::from_le_bytes(bytes),
            mask: match len {
                8.. => u64::MAX,
                n => (1u64 << (n * 8)) - 1,
            },
        }
    }

    /// Whether `b` holds this text at `at`.
    #[inline(always)]
    fn at(&self, shape: &[u8], b: &[u8], at: usize) -> bool {
        if self.to - self.from <= 8
            && let Some(w) = b.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok())
        {
            return u64::from_le_bytes(w) & self.mask == self.word;
        }
        b.get(at..at + (self.to - self.from)) == Some(&shape[self.from..self.to])
    }
}

/// One JSON line of a flat object with plain values, as cells by column,
/// without building a `serde_json::Value`; any other line is left to the
/// full reader (see `JsonlRows`).
#[derive(Debug, Default)]
pub(crate) struct PlainObject {
    text: String,
    cells: Vec<Json>,
    /// The cells of this line: `cells` beyond it are all absent.
    width: usize,
    /// The last line read key by key, without its values (`{"x":`,
    /// `,"y":`, `}`), and for each value the text before it in `shape`
    /// and its column, then the text after the last; no slots when that
    /// line was refused.
    shape: Vec<u8>,
    /// (Each slot's column, and whether its numbers are read eagerly.)
    slots: Vec<(Lit, usize, bool)>,
    tail: Lit,
    /// The columns whose numbers are read as the line is (the values of
    /// a chart); any other column's are read only when asked for: a label
    /// that is a number is most often only looked at as text.
    eager: Vec<bool>,
}

impl PlainObject {
    /// The lane for a worker whose chart takes numbers from `columns`.
    pub(crate) fn for_values(columns: impl IntoIterator<Item = usize>) -> Self {
        let mut o = PlainObject::default();
        for c in columns {
            if o.eager.len() <= c {
                o.eager.resize(c + 1, false);
            }
            o.eager[c] = true;
        }
        o
    }

    /// Takes a trimmed line when it is a flat object of strings without
    /// escapes, short numbers, booleans and nulls, no key twice, and every
    /// key has a column (`column`); false leaves it to the full reader.
    pub(crate) fn read(&mut self, line: &str, column: &dyn Fn(&str) -> Option<usize>) -> bool {
        if !self.scan(line, column) {
            return false;
        }
        self.text.clear();
        self.text.push_str(line);
        true
    }

    /// [`Self::read`] without keeping the line: its cells are then read
    /// from the line the caller still has ([`Self::number_in`],
    /// [`Self::span`]), one copy of each line fewer for a worker.
    #[inline]
    pub(crate) fn scan(&mut self, line: &str, column: &dyn Fn(&str) -> Option<usize>) -> bool {
        if !(self.same_shape(line.as_bytes()) == Some(line.len()) || self.read_keys(line, column)) {
            // No shape from a line refused half-way.
            self.slots.clear();
            return false;
        }
        true
    }

    /// The object at the start of `b` (a line, or the rest of a run of
    /// them) read as one of the previous line's shape: the same text
    /// around its values, byte for byte, and values the fast lane takes;
    /// where it ends. Values are tokens that end themselves, so a line
    /// that matches is a flat object with the previous line's keys in
    /// their order: no key to scan, compare or look up (most of a
    /// JSON-lines file).
    #[inline]
    pub(crate) fn same_shape(&mut self, b: &[u8]) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mut pos = 0;
        for &(lit, col, eager) in &self.slots {
            if !lit.at(&self.shape, b, pos) {
                return None;
            }
            let at = pos + (lit.to - lit.from);
            let (value, end) = json_value(b, at, eager)?;
            self.cells[col] = value;
            pos = end;
        }
        self.tail
            .at(&self.shape, b, pos)
            .then(|| pos + (self.tail.to - self.tail.from))
    }

    /// The line read key by key, its shape kept for [`Self::same_shape`].
    fn read_keys(&mut self, line: &str, column: &dyn Fn(&str) -> Option<usize>) -> bool {
        let b = line.as_bytes();
        self.shape.clear();
        self.slots.clear();
        if b.first() != Some(&b'{') {
            return false;
        }
        for c in &mut self.cells[..self.width] {
            *c = Json::Absent;
        }
        self.width = 0;
        let mut i = 1;
        let mut literal = 0;
        loop {
            i = skip_ws(b, i);
            let Some((ks, ke)) = json_string(b, i) else {
                return false;
            };
            i = skip_ws(b, ke + 1);
            if b.get(i) != Some(&b':') {
                return false;
            }
            i = skip_ws(b, i + 1);
            let Some(col) = column(&line[ks..ke]) else {
                return false;
            };
            let eager = self.eager.get(col).copied().unwrap_or(false);
            let Some((value, end)) = json_value(b, i, eager) else {
                return false;
            };
            let from = self.shape.len();
            self.shape.extend_from_slice(&b[literal..i]);
            self.slots
                .push((Lit::new(&self.shape, from, self.shape.len()), col, eager));
            literal = end;
            i = skip_ws(b, end);
            if self.cells.len() <= col {
                self.cells.resize(col + 1, Json::Absent);
            }
            self.width = self.width.max(col + 1);
            if self.cells[col] != Json::Absent {
                return false;
            }
            self.cells[col] = value;
            match b.get(i) {
                Some(b',') => i += 1,
                Some(b'}') if skip_ws(b, i + 1) == b.len() => break,
                _ => return false,
            }
        }
        let from = self.shape.len();
        self.shape.extend_from_slice(&b[literal..]);
        self.tail = Lit::new(&self.shape, from, self.shape.len());
        true
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The content range of a string at `i` without escapes or control
/// characters (which the full reader decodes or refuses).
fn json_string(b: &[u8], i: usize) -> Option<(usize, usize)> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    // Keys and cells are short: a plain loop beats a vector search here.
    let mut end = i + 1;
    while end < b.len() {
        match b[end] {
            b'"' => return Some((i + 1, end)),
            b'\\' | 0..0x20 => return None,
            _ => end += 1,
        }
    }
    None
}

/// A plain value at `i` and where it ends.
// Always inlined: called for every value of a JSON line, where the call
// cost 6% of the instructions (1167M -> 1098M on 1M lines with -j 1).
#[inline(always)]
fn json_value(b: &[u8], i: usize, eager: bool) -> Option<(Json, usize)> {
    let word = |w: &[u8], v: Json| b[i..].starts_with(w).then_some((v, i + w.len()));
    match *b.get(i)? {
        b'"' => json_string(b, i).map(|(s, e)| (Json::Text(s, e), e + 1)),
        b't' => word(b"true", Json::Word(i, i + 4)),
        b'f' => word(b"false", Json::Word(i, i + 5)),
        b'n' => word(b"null", Json::Null),
        b'-' | b'0'..=b'9' => {
            let short = if eager {
                short_decimal(&b[i..]).map(|d| (Some(d.value), i + d.end, d.point))
            } else {
                short_decimal_end(&b[i..]).map(|(len, point)| (None, i + len, point))
            };
            let (value, end, point) = match short {
                Some(read) => read,
                None => long_fraction(b, i, eager)?,
            };
            let int = i + usize::from(b[i] == b'-');
            // JSON has no leading zeros (serde_json refuses `01`), and
            // serde_json writes -0 as -0.0: both left to it, as are
            // exponents. (A short integer that is zero is `0`.)
            let zero_led = b[int] == b'0' && b.get(int + 1).is_some_and(u8::is_ascii_digit);
            let minus_zero = int > i && !point && &b[int..end] == b"0";
            if zero_led || minus_zero || matches!(b.get(end), Some(b'e' | b'E')) {
                return None;
            }
            // A fraction's text is respelled from its value as serde_json
            // does; an integer's is the token itself.
            Some((
                match value {
                    None => Json::Lazy(i, end, point),
                    Some(v) if point => Json::Float(v),
                    Some(v) => Json::Int(i, end, v),
                },
                end,
            ))
        }
        _ => None,
    }
}

/// A number with a fraction at `i` of more digits than [`short_decimal`]
/// reads (`1.5166666666666666`, as JavaScript and Python write most
/// fractions): its value when `eager`, where it ends, and `true` for its
/// point. Read by the standard library, correctly rounded, as serde_json
/// reads it (its `float_roundtrip` feature). An integer of more digits is
/// left to serde_json, which may write it otherwise (`1e20` past `u64`).
#[cold]
fn long_fraction(b: &[u8], i: usize, eager: bool) -> Option<(Option<f64>, usize, bool)> {
    let digits = |from: usize| from + b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let start = i + usize::from(b[i] == b'-');
    let int_end = digits(start);
    if int_end == start || b.get(int_end) != Some(&b'.') {
        return None;
    }
    let end = digits(int_end + 1);
    if end == int_end + 1 {
        return None;
    }
    let value = if eager {
        Some(std::str::from_utf8(&b[i..end]).ok()?.parse().ok()?)
    } else {
        None
    };
    Some((value, end, true))
}

/// The value of a [`Json::Lazy`] token, valid as it was checked.
fn lazy_value(token: &str) -> f64 {
    match short_decimal(token.as_bytes()) {
        Some(d) => d.value,
        None => token.parse().unwrap_or(f64::NAN),
    }
}

impl PlainObject {
    /// Where cell `i` lies in the line read when it is text there as it
    /// is (a string without escapes, a word, an integer).
    pub(crate) fn span(&self, i: usize) -> Option<(usize, usize)> {
        match *self.cells[..self.width].get(i)? {
            Json::Text(a, b) | Json::Word(a, b) | Json::Int(a, b, _) | Json::Lazy(a, b, false) => {
                Some((a, b))
            }
            _ => None,
        }
    }
}

impl PlainObject {
    /// Cell `i` of `line`, the line last read (kept or scanned).
    fn raw_in<'t>(&self, line: &'t str, i: usize) -> Option<Cow<'t, str>> {
        match *self.cells[..self.width].get(i)? {
            Json::Absent | Json::Null => None,
            Json::Text(a, b) | Json::Word(a, b) | Json::Int(a, b, _) | Json::Lazy(a, b, false) => {
                Some(Cow::Borrowed(&line[a..b]))
            }
            // serde_json's own spelling, as the full reader's cell has it.
            Json::Float(v) => Some(Cow::Owned(serde_json::Number::from_f64(v)?.to_string())),
            Json::Lazy(a, b, true) => Some(Cow::Owned(
                serde_json::Number::from_f64(lazy_value(&line[a..b]))?.to_string(),
            )),
        }
    }

    /// [`Cells::number`] of cell `i` of `line`, the line last read.
    #[inline(always)]
    pub(crate) fn number_in(&self, line: &str, i: usize, dec: Decimal) -> Option<f64> {
        match *self.cells[..self.width].get(i)? {
            // Its text has a point, which a decimal-comma column reads
            // otherwise: the full parser's business.
            Json::Float(v) => (dec != Decimal::Comma).then_some(v),
            // No point or sign trouble: what `plain_number` reads it as.
            Json::Int(_, _, v) => Some(v),
            Json::Lazy(a, b, point) => {
                (!point || dec != Decimal::Comma).then(|| lazy_value(&line[a..b]))
            }
            _ => plain_number(&self.raw_in(line, i)?, dec),
        }
    }
}

impl Cells for PlainObject {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>> {
        self.raw_in(&self.text, i)
    }
    fn width(&self) -> usize {
        self.width
    }
    fn number(&self, i: usize, dec: Decimal) -> Option<f64> {
        self.number_in(&self.text, i, dec)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::super::super::number::Decimal;
    use super::super::JsonLines;

    /// Cells and numbers of the current row of `lines`.
    fn cells(lines: &JsonLines, width: usize) -> Vec<(Option<String>, Option<f64>)> {
        let row = lines.current();
        (0..width)
            .map(|i| {
                let raw = row.raw(i).map(|c| c.into_owned());
                (raw, row.number(i, Decimal::Point))
            })
            .collect()
    }

    proptest! {
        /// A flat object read by the fast lane has the cells serde_json
        /// gives it; fractions of any length without an exponent (as
        /// JavaScript and Python write them: vega-datasets' flights have
        /// `"time":1.5166666666666666`) are the fast lane's, where they
        /// went to serde_json (most of those flights' lines did).
        #[test]
        fn the_fast_lane_reads_what_serde_json_reads(
            values in proptest::collection::vec(prop_oneof![
                "-?(0|[1-9][0-9]{0,8})\\.[0-9]{1,22}",
                "-?(0|[1-9][0-9]{0,20})",
                "\"[a-z]{0,4}\"",
                Just("true".to_string()),
                Just("null".to_string()),
            ], 1..5),
        ) {
            let line = format!(
                "{{{}}}",
                values.iter().enumerate()
                    .map(|(i, v)| format!("\"k{i}\": {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let mut lines = JsonLines::new();
            // The first line of new keys is serde_json's; the same again
            // is the fast lane's when its numbers are short or fractions.
            lines.parse(&line).unwrap();
            prop_assert!(!lines.plain);
            let full = cells(&lines, values.len());
            for eager in [false, true] {
                lines.fast.eager = vec![eager; values.len()];
                lines.parse(&line).unwrap();
                // serde_json's own: integers past 15 digits, and `-0`
                // (which it writes `-0.0`).
                let serdes = values.iter().any(|v| {
                    v == "-0" || !v.contains(['.', '"']) && v.trim_start_matches('-').len() > 15
                });
                prop_assert_eq!(lines.plain, !serdes, "{}", line);
                prop_assert_eq!(&cells(&lines, values.len()), &full, "{}", line);
            }
        }
    }
}
