//! Reading delimited text ahead: a worker splits a run's lines as
//! [`CsvLane`] does; the calling thread numbers the records the workers
//! left as the csv crate does (a record's line is the one after the record
//! before it, blank lines between them included).

use std::io::Read;

use memchr::memchr2;

use super::super::super::ParseError;
use super::super::super::number::Decimal;
use super::super::super::plain::plain_number_bytes;
use super::super::super::rows::{Loc, Warner};
use super::super::mapped::Lines;
use super::super::{CsvLane, Line, plain_prefix, plain_text, split_line};
use super::{Ahead, PlainShape, Push, ReadRun, Record, Run, Taken, read_ahead};

impl<R: Read> CsvLane<R> {
    /// See [`super::super::super::rows::Rows::read_plain`].
    pub(crate) fn read_plain_rows(
        &mut self,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        read_ahead(self, shape, push, warn)
    }
}

/// A worker's reader of delimited runs.
pub(super) struct Delimited {
    delimiter: u8,
    fields: Vec<(usize, usize)>,
}

impl ReadRun for Delimited {
    fn read(&mut self, run: &mut Run, shape: &PlainShape) {
        // One value column, no label, no floor (a histogram, a line of
        // row numbers): what `PlainShape::take` does for it, without its
        // loop over columns and its checks of what is not there.
        let plain = (&shape.floor, &shape.key, &shape.derive);
        let one = match (&*shape.values, shape.label, plain) {
            (&[(col, dec)], None, (None, None, None)) => Some((col, dec)),
            _ => None,
        };
        run.read_rows(|run, text| {
            let b = text.as_bytes();
            let mut pos = run.start;
            let mut plain = 0;
            while pos < b.len() {
                self.fields.clear();
                let (end, last) = split_line(b, pos, self.delimiter, &mut self.fields);
                run.lines += 1;
                // An empty line is no record (as in the csv crate).
                if end > pos {
                    self.fields.push((last, end));
                    let line = Line {
                        text,
                        fields: &self.fields,
                    };
                    let taken = match one {
                        Some((col, dec)) => line.read_one(col, dec, shape, &mut run.values),
                        None => line.read_plain(shape, &mut run.values, &mut run.labels),
                    };
                    run.record(taken, pos, &mut plain);
                }
                pos = end + 1;
            }
        });
    }
}

impl Line<'_> {
    /// [`Self::read_plain`] of a shape of one value column, no label and
    /// no floor: the number in column `col`, read with `dec`.
    #[inline(always)]
    fn read_one(
        &self,
        col: usize,
        dec: Decimal,
        shape: &PlainShape,
        values: &mut Vec<f64>,
    ) -> Taken {
        if shape.max_width.is_some_and(|w| self.fields.len() != w) {
            return Taken::Full;
        }
        match self
            .field_bytes(col)
            .and_then(|b| plain_number_bytes(b, dec))
        {
            Some(v) => {
                values.push(v);
                Taken::Plain
            }
            None => Taken::Full,
        }
    }

    /// Appends the row's values and label range when the fast lane takes
    /// it (what `Builder::push_plain` takes, in the same order: values,
    /// then the floor, then the label); else leaves both untouched.
    fn read_plain(
        &self,
        shape: &PlainShape,
        values: &mut Vec<f64>,
        labels: &mut Vec<(u32, u32)>,
    ) -> Taken {
        if shape.max_width.is_some_and(|w| self.fields.len() != w) {
            return Taken::Full;
        }
        shape.take(
            values,
            labels,
            |col, dec| plain_number_bytes(self.field_bytes(col)?, dec),
            |col| {
                let text = plain_text(self.field(col)?)?;
                let (a, b) = self.fields[col];
                Some((a, b, text))
            },
        )
    }
}

impl<R: Read> Ahead for CsvLane<R> {
    type Reader = Delimited;

    fn reader(&self) -> Delimited {
        Delimited {
            delimiter: self.delimiter,
            fields: Vec::new(),
        }
    }

    fn start(&mut self, run: usize) -> Result<Option<(Run, bool)>, ParseError> {
        if self.full.is_some() {
            return Ok(None);
        }
        let start = self.chunks.start_runs(&mut self.text, &mut self.pos, run)?;
        Ok(Some(start))
    }

    fn workers(&self) -> Option<usize> {
        self.workers
    }

    /// Stops at the end, or at a line that is not plain, which the lane
    /// meets next and hands to the csv crate.
    fn next_run(&mut self, run: &mut Run) -> Result<bool, ParseError> {
        run.start = 0;
        if self.chunks.next_window(run, Lines::Plain)? {
            return Ok(true);
        }
        let mut buf = std::mem::take(&mut run.text).into_bytes();
        self.chunks.take_lines(&mut buf)?;
        // Nearly always: plain throughout, checked as UTF-8 in place.
        let buf = if memchr2(b'"', b'\r', &buf).is_none() {
            match String::from_utf8(buf) {
                Ok(text) => {
                    run.text = text;
                    return Ok(!run.text.is_empty());
                }
                Err(e) => e.into_bytes(),
            }
        } else {
            buf
        };
        // Else its plain lines, and the rest back in front of the input.
        let clean = plain_prefix(&buf);
        let mut rest = buf[clean.len()..].to_vec();
        rest.append(&mut self.chunks.raw);
        self.chunks.raw = rest;
        run.text = clean.to_string();
        Ok(!run.text.is_empty())
    }

    fn full(
        &mut self,
        run: &Run,
        (start, _, first): (usize, u64, Option<u64>),
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        // `line` and `first` are as the run began until `counted`.
        let next = self.first.unwrap_or(self.line + 1);
        self.fields.clear();
        let (end, last) = split_line(
            run.text().as_bytes(),
            start,
            self.delimiter,
            &mut self.fields,
        );
        self.fields.push((last, end));
        let loc = Loc::Line(first.map_or(next, |f| self.line + f));
        let line = Line {
            text: run.text(),
            fields: &self.fields,
        };
        push(Record::Other(&line, loc), warn)
    }

    fn counted(&mut self, run: &Run) {
        let base = self.line;
        let next = run
            .last_record
            .map_or(self.first.unwrap_or(base + 1), |r| base + r + 1);
        self.line = base + run.lines;
        self.first = (next != self.line + 1).then_some(next);
    }
}
