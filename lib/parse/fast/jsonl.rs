//! JSON lines: [`JsonlRows`] reads each line through the fast lane's
//! [`PlainObject`] when it is a flat object of plain values, else through
//! serde_json ([`super::super::sources`] maps its objects onto columns);
//! [`ChunkLines`] gives it its lines, checked as UTF-8 a chunk at a time.
//! Reading the plain lines ahead on every core is `bulk::jsonl`.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{BufRead, Read};

use memchr::{memchr, memrchr};
use serde_json::Value;

use super::super::ParseError;
use super::super::formats::{KeyColumns, json_cell};
use super::super::number::{Decimal, MarkHint};
use super::super::plain::{plain_number, short_decimal, trim};
use super::super::rows::{Cells, Loc, Names, OwnedRow, PlainShape, Push, Rows, Warner, short};
use super::Chunks;

/// JSON lines: objects (records by key) or arrays (positional rows).
pub(crate) struct JsonlRows<R: BufRead> {
    pub(super) input: ChunkLines<R>,
    pub(super) lines: JsonLines,
    /// Threads reading plain rows ahead: `None` for one a core.
    pub(crate) workers: Option<usize>,
    /// Whether rows may be read ahead at all (tests compare with not).
    pub(super) ahead: bool,
}

/// What reading JSON lines one by one keeps: the line count, the columns
/// by key, the current row.
pub(crate) struct JsonLines {
    pub(super) line: u64,
    row: OwnedRow,
    keys: KeyColumns,
    saw_objects: bool,
    /// The fast lane's row, current when `plain` is set.
    fast: PlainObject,
    plain: bool,
}

impl<R: BufRead> JsonlRows<R> {
    pub(crate) fn new(input: R) -> Self {
        JsonlRows {
            input: ChunkLines::new(input),
            lines: JsonLines::new(),
            workers: None,
            ahead: true,
        }
    }

    /// As [`super::CsvLane::map_file`].
    pub(crate) fn map_file(&mut self, file: Option<(std::fs::File, u64)>) {
        self.input.map_file(file);
    }
}

/// What a JSON record was: an object (columns by key), an array
/// (columns by place) or a lone value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Object,
    Array,
    Scalar,
}

impl JsonLines {
    pub(crate) fn new() -> Self {
        JsonLines {
            line: 0,
            row: Vec::new(),
            keys: KeyColumns::default(),
            saw_objects: false,
            fast: PlainObject::default(),
            plain: false,
        }
    }

    /// Reads line number `line`: its record's place, or `None` when it
    /// holds none (blank, or not JSON: skipped with a warning).
    pub(super) fn read(
        &mut self,
        text: &str,
        warn: &mut Warner,
    ) -> Result<Option<Loc>, ParseError> {
        let t = trim(text);
        if t.is_empty() {
            return Ok(None);
        }
        if let Err(e) = self.parse(t) {
            warn.skip(format!(
                "line {}: not JSON ({e}), starts with {:?}; line skipped",
                self.line,
                short(t)
            ))?;
            return Ok(None);
        }
        Ok(Some(Loc::Line(self.line)))
    }

    /// Reads one record, `t` trimmed and not empty, into the current row.
    pub(crate) fn parse(&mut self, t: &str) -> Result<Shape, serde_json::Error> {
        let index = &self.keys.index;
        self.plain = self.fast.read(t, &|k| index.get(k).copied());
        if self.plain {
            self.saw_objects = true;
            return Ok(Shape::Object);
        }
        Ok(self.take(serde_json::from_str::<Value>(t)?))
    }

    /// A record already parsed, into the current row.
    pub(crate) fn take(&mut self, v: Value) -> Shape {
        self.plain = false;
        match v {
            Value::Object(obj) => {
                self.saw_objects = true;
                self.keys.row(&obj, &mut self.row);
                Shape::Object
            }
            Value::Array(items) => {
                self.row.clear();
                self.row.extend(items.iter().map(json_cell));
                Shape::Array
            }
            other => {
                self.row.clear();
                self.row.push(json_cell(&other));
                Shape::Scalar
            }
        }
    }

    pub(crate) fn current(&self) -> &dyn Cells {
        if self.plain { &self.fast } else { &self.row }
    }

    /// The columns of the keys seen so far.
    pub(super) fn columns(&self) -> HashMap<String, usize> {
        self.keys.index.clone()
    }

    /// The names of the columns seen so far.
    pub(crate) fn key_names(&self) -> &[String] {
        &self.keys.names
    }
}

impl<R: BufRead> Rows for JsonlRows<R> {
    fn next_row(&mut self, warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        loop {
            let Some(text) = self.input.next_line()? else {
                return Ok(None);
            };
            self.lines.line += 1;
            if let Some(loc) = self.lines.read(text, warn)? {
                return Ok(Some(loc));
            }
        }
    }
    fn current(&self) -> &dyn Cells {
        self.lines.current()
    }
    fn read_plain(
        &mut self,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        if self.ahead {
            self.read_plain_rows(shape, push, warn)?;
        }
        Ok(())
    }
    fn names(&self) -> Option<Names> {
        self.lines.saw_objects.then(|| Names {
            list: self.lines.key_names().to_vec(),
            real: true,
        })
    }
    fn what(&self) -> String {
        "JSON lines".into()
    }
    fn mark_hint(&self) -> MarkHint {
        MarkHint::Point
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
    pub(super) fn span(&self, i: usize) -> Option<(usize, usize)> {
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
    pub(super) chunks: Chunks<R>,
    pub(super) text: String,
    pub(super) pos: usize,
}

impl<R: Read> ChunkLines<R> {
    pub(crate) fn new(input: R) -> Self {
        ChunkLines {
            chunks: Chunks::new(input),
            text: String::new(),
            pos: 0,
        }
    }

    /// As [`super::CsvLane::map_file`].
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
