//! Reading JSON lines ahead: a worker reads a run's lines with its own
//! [`PlainObject`] and a copy of the columns known when reading ahead
//! began; the calling thread reads the lines it left as one by one (a line
//! with a key new since then is among them, and reads the same there).

use std::collections::HashMap;
use std::io::BufRead;

use memchr::{memchr, memrchr};

use super::super::super::ParseError;
use super::super::super::plain::{plain_text, trim};
use super::super::super::rows::{Cells, Warner};
use super::super::jsonl::{JsonlRows, PlainObject};
use super::super::mapped::Lines;
use super::{Ahead, PlainShape, Push, ReadRun, Record, Run, Taken, read_ahead};

impl<R: BufRead> JsonlRows<R> {
    /// See [`super::super::super::rows::Rows::read_plain`].
    pub(crate) fn read_plain_rows(
        &mut self,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        read_ahead(self, shape, push, warn)
    }

    /// Rows read `chunk` bytes at a time with `workers` threads, or none
    /// read ahead: to put small inputs through the paths large ones take.
    #[cfg(test)]
    pub(crate) fn tuned(input: R, chunk: usize, workers: Option<usize>) -> Self {
        let mut rows = JsonlRows::new(input);
        rows.input.chunks.size = chunk.max(1);
        rows.workers = workers;
        rows.ahead = workers.is_some();
        rows
    }
}

/// A worker's reader of JSON-line runs.
pub(super) struct Jsonl {
    columns: HashMap<String, usize>,
    /// `None` until the first run, which brings the shape read for.
    object: Option<PlainObject>,
}

impl ReadRun for Jsonl {
    fn read(&mut self, run: &mut Run, shape: &PlainShape) {
        let o = self
            .object
            .get_or_insert_with(|| PlainObject::for_values(shape.values.iter().map(|&(c, _)| c)));
        let columns = &self.columns;
        run.read_rows(|run, text| {
            let b = text.as_bytes();
            let mut pos = run.start;
            let mut plain = 0;
            while pos < b.len() {
                run.lines += 1;
                // Most lines: one of the last line's shape, read straight
                // from the run, which finds where the line ends too.
                if let Some(n) = o.same_shape(&b[pos..])
                    && matches!(b.get(pos + n), None | Some(b'\n'))
                {
                    let taken = take(o, &text[pos..pos + n], pos, shape, run);
                    run.record(taken, pos, &mut plain);
                    pos += n + 1;
                    continue;
                }
                let end = memchr(b'\n', &b[pos..]).map_or(b.len(), |i| pos + i);
                let t = trim(&text[pos..end]);
                if !t.is_empty() {
                    let at = t.as_ptr() as usize - text.as_ptr() as usize;
                    let taken = if o.scan(t, &|k| columns.get(k).copied()) {
                        take(o, t, at, shape, run)
                    } else {
                        Taken::Full
                    };
                    run.record(taken, pos, &mut plain);
                }
                pos = end + 1;
            }
        });
    }
}

/// As `Line::read_plain` for a line `t` at `at` in its run, read by `o`.
#[inline(always)]
fn take(o: &PlainObject, t: &str, at: usize, shape: &PlainShape, run: &mut Run) -> Taken {
    if shape.max_width.is_some_and(|w| o.width() > w) {
        return Taken::Full;
    }
    shape.take(
        &mut run.values,
        &mut run.labels,
        |col, dec| o.number_in(t, col, dec),
        |col| {
            let (a, b) = o.span(col)?;
            let text = plain_text(&t[a..b])?;
            Some((at + a, at + b, text))
        },
    )
}

impl<R: BufRead> Ahead for JsonlRows<R> {
    type Reader = Jsonl;

    fn reader(&self) -> Jsonl {
        Jsonl {
            columns: self.lines.columns(),
            object: None,
        }
    }

    fn start(&mut self, run: usize) -> Result<Option<(Run, bool)>, ParseError> {
        let input = &mut self.input;
        let start = input
            .chunks
            .start_runs(&mut input.text, &mut input.pos, run)?;
        Ok(Some(start))
    }

    fn workers(&self) -> Option<usize> {
        self.workers
    }

    /// Stops at the end, or at a line that is not UTF-8, which the
    /// one-by-one reader meets next.
    fn next_run(&mut self, run: &mut Run) -> Result<bool, ParseError> {
        run.start = 0;
        let chunks = &mut self.input.chunks;
        if chunks.next_window(run, Lines::Utf8)? {
            return Ok(true);
        }
        let mut buf = std::mem::take(&mut run.text).into_bytes();
        chunks.take_lines(&mut buf)?;
        let valid = match String::from_utf8(buf) {
            Ok(text) => {
                run.text = text;
                return Ok(!run.text.is_empty());
            }
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                buf = e.into_bytes();
                memrchr(b'\n', &buf[..valid]).map_or(0, |i| i + 1)
            }
        };
        let mut rest = buf.split_off(valid);
        rest.append(&mut chunks.raw);
        chunks.raw = rest;
        run.text = String::from_utf8(buf).unwrap_or_default();
        Ok(!run.text.is_empty())
    }

    fn full(
        &mut self,
        run: &Run,
        (start, line, _): (usize, u64, Option<u64>),
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        let text = run.text();
        let b = text.as_bytes();
        let end = memchr(b'\n', &b[start..]).map_or(b.len(), |i| start + i);
        // The count stays as the run began until `counted`.
        let base = self.lines.line;
        self.lines.line = base + line;
        let read = self.lines.read(&text[start..end], warn);
        self.lines.line = base;
        match read? {
            Some(loc) => push(Record::Other(self.lines.current(), loc), warn),
            None => Ok(()),
        }
    }

    fn counted(&mut self, run: &Run) {
        self.lines.line += run.lines;
    }
}
