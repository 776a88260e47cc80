//! The fast lane for large tables: the common shape (plain numbers, no
//! quotes, flat JSON objects) read in bulk, anything unusual handed to the
//! full readers so the result is always theirs.
//!
//! - [`CsvLane`] reads delimited text in big chunks (`memchr` finds the
//!   last newline, quotes and carriage returns), checks each chunk as
//!   UTF-8 once, splits lines itself and hands plain rows to the reducers
//!   in bulk ([`Rows::next_row_after`]), instead of the csv crate's state
//!   machine and a UTF-8 check per cell. The first line with a quote, a
//!   carriage return or invalid UTF-8 hands the rest of the input to
//!   [`CsvRows`] (the csv crate), with line numbers carried over: quoting
//!   can span lines, so there is no way back.
//! - [`bulk`] reads those plain lines on every core for the readers that
//!   can take rows ahead of the reducers ([`Rows::read_plain`]).
//! - [`PlainObject`] reads a JSON line that is a flat object of plain
//!   values into cells without building a `serde_json::Value`; any other
//!   line goes to serde_json as before. [`ChunkLines`] gives JSON lines
//!   their lines, checked as UTF-8 a chunk at a time.
//! - [`plain_number`] and [`plain_text`] answer only for cells whose
//!   answer is certain (`-12.5`, `3e4` through fast-float2; a label with
//!   nothing to trim) and say "ask the full parser" for everything else.
//!
//! `tests/it/fast_lane_props.rs` checks all of it against the full readers.

use std::borrow::Cow;
use std::io::{Chain, Cursor, Read};

use mapped::{MappedFile, Source};
use memchr::{memchr, memchr2, memrchr};

use super::ParseError;
use super::number::Decimal;
use super::sources::{CsvRows, delimiter_name};
use super::table::{Cells, Loc, Rows, Warner, next_untaken};

mod bulk;
mod mapped;
pub(crate) use bulk::{PlainShape, Push, Record};

/// The value of a plain number cell (`-12.5`, `3e4`, no spaces, nothing
/// around it), exactly what [`super::number::parse_number_as`] gives it;
/// `None` for every other cell, which then goes to the full parser. A cell
/// that starts with a digit (or `-` and a digit) and is read whole by
/// fast-float2 is one the standard parser behind the full one reads too,
/// and both round correctly, so they agree wherever this one answers.
#[inline]
pub fn plain_number(s: &str, dec: Decimal) -> Option<f64> {
    let b = s.as_bytes();
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
struct Short {
    value: f64,
    /// Where its digits end (what follows is not looked at).
    end: usize,
    /// It has a point and a fraction.
    point: bool,
}

/// `-?[0-9]+(\.[0-9]+)?` of at most [`MAX_DIGITS`] digits at the start of
/// `b`, read exactly: the digits and the power of ten are both exact
/// doubles, so one correctly rounded division gives the correctly rounded
/// value, the one every correct parser (std, fast-float2, serde_json)
/// gives. `None` for anything longer or otherwise shaped (a point with no
/// digit after it), which the callers leave to those parsers.
fn short_decimal(b: &[u8]) -> Option<Short> {
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

/// The cell as [`super::table::cell`] would give it, when trimming cannot
/// change it (printable ASCII at both ends); `None` to ask the full path.
pub fn plain_text(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let plain = |c: u8| c > b' ' && c < 0x7f;
    (plain(*b.first()?) && plain(*b.last()?)).then_some(s)
}

/// `s.trim()`, without its character-by-character look when both ends
/// are printable ASCII (nearly every line).
pub(crate) fn trim(s: &str) -> &str {
    plain_text(s).unwrap_or_else(|| s.trim())
}

/// Bytes read from the input at a time.
const CHUNK: usize = 256 * 1024;

/// What the full reader gets after a hand-over: the unread bytes, then the
/// rest of the input.
type Rest<R> = CsvRows<Chain<Cursor<Vec<u8>>, Source<R>>>;

/// Input read ahead in big chunks and handed out as runs of complete
/// lines (the last line may lack its newline at the end of the input).
struct Chunks<R> {
    /// `None` once handed to a full reader.
    input: Option<Source<R>>,
    /// Bytes read from `input` so far.
    read: u64,
    /// Read but not yet taken: starts at a line start.
    raw: Vec<u8>,
    eof: bool,
    /// Bytes to read at a time ([`CHUNK`]; tests make it small).
    size: usize,
    /// The file being read and where in it the input began, when it is a
    /// regular file: read ahead through mapped windows ([`mapped`]).
    file: Option<(std::fs::File, u64)>,
    /// The file once mapping began, until it ends.
    map: Option<MappedFile>,
}

impl<R: Read> Chunks<R> {
    fn new(input: R) -> Self {
        Chunks {
            input: Some(Source::Stream(input)),
            read: 0,
            raw: Vec::new(),
            eof: false,
            size: CHUNK,
            file: None,
            map: None,
        }
    }

    /// The complete lines read so far, after reading at least [`CHUNK`]
    /// bytes (or up to the end); empty at the end. Take with `consume`.
    fn lines(&mut self) -> Result<&[u8], ParseError> {
        let mut raw = std::mem::take(&mut self.raw);
        let complete = self.fill(&mut raw);
        self.raw = raw;
        Ok(&self.raw[..complete?])
    }

    /// The next complete lines (as [`Self::lines`] gives them) moved into
    /// `buf` rather than copied: `buf`'s own allocation takes the rest.
    fn take_lines(&mut self, buf: &mut Vec<u8>) -> Result<(), ParseError> {
        buf.clear();
        std::mem::swap(&mut self.raw, buf);
        let complete = self.fill(buf)?;
        self.raw.extend_from_slice(&buf[complete..]);
        buf.truncate(complete);
        Ok(())
    }

    /// Reads into `raw` until it holds at least `size` bytes of complete
    /// lines, or the end; returns where its complete lines end.
    fn fill(&mut self, raw: &mut Vec<u8>) -> Result<usize, ParseError> {
        loop {
            let complete = if self.eof {
                raw.len()
            } else {
                memrchr(b'\n', raw).map_or(0, |i| i + 1)
            };
            if self.eof || (complete > 0 && raw.len() >= self.size) {
                return Ok(complete);
            }
            let Some(input) = self.input.as_mut() else {
                self.eof = true;
                continue;
            };
            // Room for a whole read: a read as large as the input's buffer
            // (see `cli`) then bypasses it, one copy fewer.
            raw.reserve(self.size);
            let n = input.by_ref().take(self.size as u64).read_to_end(raw)?;
            self.read += n as u64;
            self.eof = n < self.size;
        }
    }

    fn consume(&mut self, n: usize) {
        self.raw.drain(..n);
    }
}

/// Delimited text, fast while it is plain (see the module doc).
pub(crate) struct CsvLane<R: Read> {
    chunks: Chunks<R>,
    delimiter: u8,
    /// Complete plain lines, checked, being read from `pos`.
    text: String,
    pos: usize,
    /// The line a record being looked for starts on, once blank lines were
    /// skipped for it (the csv crate numbers a record by the line after the
    /// previous record, and so does this lane).
    first: Option<u64>,
    /// Lines consumed so far (the current row's line number).
    line: u64,
    /// The current row's fields, as ranges of `text`.
    fields: Vec<(usize, usize)>,
    /// The full reader once the input stopped being plain, and the line
    /// count before it.
    full: Option<(Rest<R>, u64)>,
    /// Threads reading plain rows ahead: `None` for one a core.
    pub(crate) workers: Option<usize>,
}

impl<R: Read> CsvLane<R> {
    pub(crate) fn new(input: R, delimiter: u8) -> Self {
        CsvLane {
            chunks: Chunks::new(input),
            delimiter,
            text: String::new(),
            pos: 0,
            first: None,
            line: 0,
            fields: Vec::new(),
            full: None,
            workers: None,
        }
    }

    /// The regular file the input reads and where in it the input began:
    /// read ahead through mapped windows rather than copied.
    pub(crate) fn map_file(&mut self, file: Option<(std::fs::File, u64)>) {
        self.chunks.file = file;
    }

    /// A lane reading `chunk` bytes at a time with `workers` threads, to
    /// put small inputs through the paths large ones take.
    #[cfg(test)]
    pub(crate) fn tuned(input: R, delimiter: u8, chunk: usize, workers: usize) -> Self {
        let mut lane = CsvLane::new(input, delimiter);
        lane.chunks.size = chunk.max(1);
        lane.workers = Some(workers);
        lane
    }

    /// Moves the next run of plain lines into `text`; false at the end of
    /// the input or when the full reader took over.
    fn refill(&mut self) -> Result<bool, ParseError> {
        let run = self.chunks.lines()?;
        if run.is_empty() {
            return Ok(false);
        }
        let clean = plain_prefix(run);
        if clean.is_empty() {
            self.hand_over();
            return Ok(false);
        }
        self.text.clear();
        self.text.push_str(clean);
        let n = clean.len();
        self.chunks.consume(n);
        self.pos = 0;
        Ok(true)
    }

    fn hand_over(&mut self) {
        if let Some(input) = self.chunks.input.take() {
            let unread = Cursor::new(std::mem::take(&mut self.chunks.raw));
            self.full = Some((CsvRows::new(unread.chain(input), self.delimiter), self.line));
        }
    }
}

/// The leading complete lines of `b` that hold no quote, no carriage
/// return and only valid UTF-8 (checked once here for all their cells).
fn plain_prefix(b: &[u8]) -> &str {
    let line_start = |at: usize| memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
    let end = memchr2(b'"', b'\r', b).map_or(b.len(), line_start);
    match std::str::from_utf8(&b[..end]) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&b[..line_start(e.valid_up_to())]).unwrap_or_default(),
    }
}

impl<R: Read> CsvLane<R> {
    /// Splits the next record of `text` into `fields`, skipping blank
    /// lines (no record in the csv crate either); `None` when `text` is
    /// used up.
    fn split_next(&mut self) -> Option<Loc> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            let start = self.pos;
            let first = *self.first.get_or_insert(self.line + 1);
            self.line += 1;
            self.fields.clear();
            let (end, last) = split_line(bytes, start, self.delimiter, &mut self.fields);
            self.pos = end + 1;
            if end > start {
                self.fields.push((last, end));
                self.first = None;
                return Some(Loc::Line(first));
            }
        }
        None
    }
}

/// Pushes the fields of the line at `start` that end in `delimiter`;
/// returns where the line ends (its newline, or the end of `b`) and where
/// its last field starts. Eight bytes at a time: `memchr2` costs some fifty
/// instructions a call, two calls a row, and a byte loop ten a byte; this
/// about two a byte.
fn split_line(
    b: &[u8],
    start: usize,
    delimiter: u8,
    fields: &mut Vec<(usize, usize)>,
) -> (usize, usize) {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // 0x80 in each byte of `x` that is zero, and nowhere else.
    let zeros = |x: u64| !(((x & LOW7) + LOW7) | x | LOW7);
    let newlines = u64::from_ne_bytes([b'\n'; 8]);
    let delimiters = u64::from_ne_bytes([delimiter; 8]);
    let mut at = start;
    let mut i = start;
    while let Some(word) = b.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
        let x = u64::from_le_bytes(word);
        let mut hits = zeros(x ^ newlines) | zeros(x ^ delimiters);
        while hits != 0 {
            let j = i + (hits.trailing_zeros() / 8) as usize;
            if b[j] == b'\n' {
                return (j, at);
            }
            fields.push((at, j));
            at = j + 1;
            hits &= hits - 1;
        }
        i += 8;
    }
    for (j, &c) in b.iter().enumerate().skip(i) {
        if c == b'\n' {
            return (j, at);
        }
        if c == delimiter {
            fields.push((at, j));
            at = j + 1;
        }
    }
    (b.len(), at)
}

impl<R: Read> Rows for CsvLane<R> {
    fn next_row(&mut self, warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        loop {
            if let Some((full, before)) = &mut self.full {
                // Blank lines skipped before the hand-over count as the
                // csv crate would have counted them.
                let first = self.first.take();
                return Ok(full.next_row(warn)?.map(|loc| match loc {
                    Loc::Line(n) => Loc::Line(first.unwrap_or(n + *before)),
                    other => other,
                }));
            }
            if let Some(loc) = self.split_next() {
                return Ok(Some(loc));
            }
            if !self.refill()? && self.full.is_none() {
                return Ok(None);
            }
        }
    }
    fn next_row_after(
        &mut self,
        take: &mut dyn FnMut(&dyn Cells) -> bool,
        warn: &mut Warner,
    ) -> Result<Option<Loc>, ParseError> {
        // The bulk of a plain file: no reader state changes hands.
        loop {
            while let Some(loc) = self.split_next() {
                if !take(&*self) {
                    return Ok(Some(loc));
                }
            }
            if self.full.is_some() || !self.refill()? {
                break;
            }
        }
        // The rest, if any, through the full reader.
        next_untaken(self, take, warn)
    }
    fn current(&self) -> &dyn Cells {
        match &self.full {
            Some((full, _)) => full.current(),
            None => self,
        }
    }
    fn what(&self) -> String {
        delimiter_name(self.delimiter).to_string()
    }
    fn delimiter(&self) -> Option<u8> {
        Some(self.delimiter)
    }
    fn read_plain(
        &mut self,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        self.read_plain_rows(shape, push, warn)
    }
}

/// A line of delimited text split into fields (ranges of `text`).
struct Line<'a> {
    text: &'a str,
    fields: &'a [(usize, usize)],
}

impl<'a> Line<'a> {
    fn field(&self, i: usize) -> Option<&'a str> {
        let &(a, b) = self.fields.get(i)?;
        self.text.get(a..b)
    }
}

impl Cells for Line<'_> {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>> {
        self.field(i).map(Cow::Borrowed)
    }
    fn width(&self) -> usize {
        self.fields.len()
    }
    fn number(&self, i: usize, dec: Decimal) -> Option<f64> {
        plain_number(self.field(i)?, dec)
    }
}

impl<R: Read> CsvLane<R> {
    fn line(&self) -> Line<'_> {
        Line {
            text: &self.text,
            fields: &self.fields,
        }
    }
}

impl<R: Read> Cells for CsvLane<R> {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>> {
        self.line().field(i).map(Cow::Borrowed)
    }
    fn width(&self) -> usize {
        self.fields.len()
    }
    fn number(&self, i: usize, dec: Decimal) -> Option<f64> {
        self.line().number(i, dec)
    }
}

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
    /// `,"y":`, `}`), and for each value where the text before it ends in
    /// `shape` and its column; no slots when that line was refused.
    shape: Vec<u8>,
    slots: Vec<(usize, usize)>,
}

impl PlainObject {
    /// Takes a trimmed line when it is a flat object of strings without
    /// escapes, short numbers, booleans and nulls, no key twice, and every
    /// key has a column (`column`); false leaves it to the full reader.
    pub(crate) fn read(&mut self, line: &str, column: &dyn Fn(&str) -> Option<usize>) -> bool {
        if !(self.same_shape(line.as_bytes()) || self.read_keys(line, column)) {
            // No shape from a line refused half-way.
            self.slots.clear();
            return false;
        }
        self.text.clear();
        self.text.push_str(line);
        true
    }

    /// The line read as one of the previous line's shape: the same text
    /// around its values, byte for byte, and values the fast lane takes.
    /// Values are tokens that end themselves, so a line that matches is a
    /// flat object with the previous line's keys in their order: no key to
    /// scan, compare or look up (most of a JSON-lines file).
    fn same_shape(&mut self, b: &[u8]) -> bool {
        let (mut pos, mut from) = (0, 0);
        for &(to, col) in &self.slots {
            let Some(at) = b
                .get(pos..)
                .and_then(|rest| rest.strip_prefix(&self.shape[from..to]))
                .map(|rest| b.len() - rest.len())
            else {
                return false;
            };
            let Some((value, end)) = json_value(b, at) else {
                return false;
            };
            self.cells[col] = value;
            (pos, from) = (end, to);
        }
        !self.slots.is_empty() && b.get(pos..) == Some(&self.shape[from..])
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
            let Some((value, end)) = json_value(b, i) else {
                return false;
            };
            let Some(col) = column(&line[ks..ke]) else {
                return false;
            };
            self.shape.extend_from_slice(&b[literal..i]);
            self.slots.push((self.shape.len(), col));
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
        self.shape.extend_from_slice(&b[literal..]);
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
fn json_value(b: &[u8], i: usize) -> Option<(Json, usize)> {
    let word = |w: &[u8], v: Json| b[i..].starts_with(w).then_some((v, i + w.len()));
    match *b.get(i)? {
        b'"' => json_string(b, i).map(|(s, e)| (Json::Text(s, e), e + 1)),
        b't' => word(b"true", Json::Word(i, i + 4)),
        b'f' => word(b"false", Json::Word(i, i + 5)),
        b'n' => word(b"null", Json::Null),
        b'-' | b'0'..=b'9' => {
            let d = short_decimal(&b[i..])?;
            let end = i + d.end;
            let int = i + usize::from(b[i] == b'-');
            // JSON has no leading zeros (serde_json refuses `01`), and
            // serde_json writes -0 as -0.0: both left to it, as are
            // exponents.
            let zero_led = b[int] == b'0' && b.get(int + 1).is_some_and(u8::is_ascii_digit);
            let minus_zero = int > i && !d.point && d.value == 0.0;
            if zero_led || minus_zero || matches!(b.get(end), Some(b'e' | b'E')) {
                return None;
            }
            // A fraction's text is respelled from its value as serde_json
            // does; an integer's is the token itself.
            Some((
                if d.point {
                    Json::Float(d.value)
                } else {
                    Json::Int(i, end, d.value)
                },
                end,
            ))
        }
        _ => None,
    }
}

impl PlainObject {
    /// Where cell `i` lies in the line read when it is text there as it
    /// is (a string without escapes, a word, an integer).
    fn span(&self, i: usize) -> Option<(usize, usize)> {
        match *self.cells[..self.width].get(i)? {
            Json::Text(a, b) | Json::Word(a, b) | Json::Int(a, b, _) => Some((a, b)),
            _ => None,
        }
    }
}

impl Cells for PlainObject {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>> {
        match *self.cells[..self.width].get(i)? {
            Json::Absent | Json::Null => None,
            Json::Text(a, b) | Json::Word(a, b) | Json::Int(a, b, _) => {
                Some(Cow::Borrowed(&self.text[a..b]))
            }
            // serde_json's own spelling, as the full reader's cell has it.
            Json::Float(v) => Some(Cow::Owned(serde_json::Number::from_f64(v)?.to_string())),
        }
    }
    fn width(&self) -> usize {
        self.width
    }
    fn number(&self, i: usize, dec: Decimal) -> Option<f64> {
        match *self.cells[..self.width].get(i)? {
            // Its text has a point, which a decimal-comma column reads
            // otherwise: the full parser's business.
            Json::Float(v) => (dec != Decimal::Comma).then_some(v),
            // No point or sign trouble: what `plain_number` reads it as.
            Json::Int(_, _, v) => Some(v),
            _ => plain_number(&self.raw(i)?, dec),
        }
    }
}

/// Lines of an input read in big chunks, checked as UTF-8 once a chunk
/// rather than once a line; a line that is not valid UTF-8 comes out as
/// `String::from_utf8_lossy` gives it, as a line read alone would.
pub(crate) struct ChunkLines<R: Read> {
    chunks: Chunks<R>,
    text: String,
    pos: usize,
}

impl<R: Read> ChunkLines<R> {
    pub(crate) fn new(input: R) -> Self {
        ChunkLines {
            chunks: Chunks::new(input),
            text: String::new(),
            pos: 0,
        }
    }

    /// As [`CsvLane::map_file`].
    pub(crate) fn map_file(&mut self, file: Option<(std::fs::File, u64)>) {
        self.chunks.file = file;
    }

    /// The next line without its newline; `None` at the end.
    pub(crate) fn next_line(&mut self) -> Result<Option<&str>, ParseError> {
        while self.pos >= self.text.len() {
            if !self.refill()? {
                return Ok(None);
            }
        }
        let start = self.pos;
        let rest = &self.text.as_bytes()[start..];
        let end = start + memchr(b'\n', rest).unwrap_or(rest.len());
        self.pos = end + 1;
        Ok(Some(&self.text[start..end]))
    }

    fn refill(&mut self) -> Result<bool, ParseError> {
        let b = self.chunks.lines()?;
        if b.is_empty() {
            return Ok(false);
        }
        self.text.clear();
        self.pos = 0;
        let taken = match std::str::from_utf8(b) {
            Ok(s) => {
                self.text.push_str(s);
                b.len()
            }
            Err(e) => {
                let valid = memrchr(b'\n', &b[..e.valid_up_to()]).map_or(0, |i| i + 1);
                if valid > 0 {
                    self.text
                        .push_str(std::str::from_utf8(&b[..valid]).unwrap_or_default());
                    valid
                } else {
                    // The first line is the bad one: that line alone.
                    let end = memchr(b'\n', b).map_or(b.len(), |i| i + 1);
                    self.text.push_str(&String::from_utf8_lossy(&b[..end]));
                    end
                }
            }
        };
        self.chunks.consume(taken);
        Ok(true)
    }
}
