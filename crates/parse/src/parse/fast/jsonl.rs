//! JSON lines: [`JsonlRows`] reads each line through the fast lane's
//! [`PlainObject`] when it is a flat object of plain values, else through
//! serde_json ([`super::super::sources`] maps its objects onto columns);
//! [`ChunkLines`] gives it its lines, checked as UTF-8 a chunk at a time.
//! Reading the plain lines ahead on every core is `bulk::jsonl`.

use std::collections::HashMap;
use std::io::{BufRead, Read};

use memchr::{memchr, memrchr};
use serde_json::Value;

use super::super::ParseError;
use super::super::formats::{KeyColumns, json_cell};
use super::super::number::MarkHint;
use super::super::plain::trim;
use super::super::rows::{Cells, Loc, Names, OwnedRow, PlainShape, Push, Rows, Warner, short};
use super::Chunks;

mod object;
pub(crate) use object::PlainObject;

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
