//! Plain rows read on every core: the input cut into runs of complete
//! lines, each run read by a worker thread into numbers and label ranges,
//! and the runs handed to the reducers in input order on the calling
//! thread, so the chart, the row count, the warnings and their line
//! numbers are what one thread reading row by row gives.
//!
//! A worker reads only what the fast lane would take ([`PlainShape`]);
//! any other record (a missing value, a unit, a ragged row) comes back as
//! its line, which the calling thread sends down the full path in its
//! place. Reading stops where the fast lane would hand over (a quote, a
//! carriage return, invalid UTF-8): the caller reads on from there.
//!
//! An input that fits in one run is read on the calling thread: no thread
//! is started for a small file.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;

use super::super::ParseError;
use super::super::number::Decimal;
use super::super::table::{Cells, Loc, Warner};
use super::{CsvLane, Line, plain_number, plain_prefix, plain_text, split_line};
use std::io::Read;

use memchr::memchr2;

/// Runs given to each worker before the first comes back: enough to keep
/// it busy while the calling thread reduces, few enough to keep memory flat.
const IN_FLIGHT: usize = 2;

/// Bytes read at a time once reading ahead (a run is that and the rest
/// of a line): small runs keep the memory in flight small, and at some
/// 3,000 lines each, a run's trip between threads costs little.
const RUN: usize = 64 * 1024;

/// Worker threads at most (more cores than this buy nothing measurable).
const MAX_WORKERS: usize = 8;

/// What the fast lane takes from a row: a plain number in each value
/// column, a label with nothing to trim, no field past the header.
#[derive(Debug, Clone)]
pub(crate) struct PlainShape {
    pub(crate) values: Vec<(usize, Decimal)>,
    /// The label column, if the chart has one (else labels are row numbers).
    pub(crate) label: Option<usize>,
    /// Wider rows are ragged: the full path names and skips them.
    pub(crate) max_width: Option<usize>,
    /// For a top-N of one value column: the bits of the magnitude at or
    /// below which a value is dropped whatever comes later
    /// ([`crate::spec::reduce::Reducer::floor`]), kept current by the
    /// reducers' side. Workers drop such rows themselves and send only
    /// their count, so the calling thread never sees most rows of a long
    /// top-N.
    pub(crate) floor: Option<Arc<AtomicU64>>,
}

/// A record, in input order.
pub(crate) enum Record<'a> {
    /// Its values (one per value column) and its label cell.
    Plain(&'a [f64], Option<&'a str>),
    /// Any other record, for the full path.
    Other(&'a dyn Cells, Loc),
    /// This many records in a row whose value is at or below the floor.
    Dropped(usize),
}

/// Where records go: the caller's reducers.
pub(crate) type Push<'p> = dyn FnMut(Record<'_>, &mut Warner) -> Result<(), ParseError> + 'p;

/// A run of complete lines and what a worker read from it.
#[derive(Debug, Default)]
struct Run {
    text: String,
    /// Where reading starts in `text`.
    start: usize,
    /// The plain rows: `values` holds one number per value column each.
    values: Vec<f64>,
    /// Ranges of `text` (u32: half the memory of a run in flight).
    labels: Vec<(u32, u32)>,
    others: Vec<Other>,
    /// Lines read, blank ones included.
    lines: u64,
    /// The line (counted from 1 in this run) of its last record.
    last_record: Option<u64>,
}

/// Records between plain rows: one for the full path, or dropped ones.
#[derive(Debug)]
struct Other {
    /// Plain rows before it in its run.
    after: usize,
    what: Between,
}

#[derive(Debug)]
enum Between {
    /// A record the fast lane does not take.
    Full {
        /// Its line in the run's text.
        start: usize,
        /// The line it is numbered by, counted in its run, when a record
        /// before it in the run decides it (else the run before decides).
        first: Option<u64>,
    },
    /// Records in a row under the floor ([`PlainShape::floor`]).
    Dropped(usize),
}

/// What a worker made of a row.
enum Taken {
    Plain,
    Dropped,
    Full,
}

/// How many worker threads: one a core, none on one core.
fn workers() -> usize {
    match thread::available_parallelism().map_or(1, |n| n.get()) {
        1 => 0,
        n => n.min(MAX_WORKERS),
    }
}

impl Run {
    fn clear(&mut self) {
        self.values.clear();
        self.labels.clear();
        self.others.clear();
        self.lines = 0;
        self.last_record = None;
    }

    /// Reads the run's lines as delimited text: the worker's part.
    fn read_delimited(
        &mut self,
        delimiter: u8,
        shape: &PlainShape,
        fields: &mut Vec<(usize, usize)>,
    ) {
        self.clear();
        let b = self.text.as_bytes();
        let mut pos = self.start;
        let mut plain = 0;
        while pos < b.len() {
            fields.clear();
            let (end, last) = split_line(b, pos, delimiter, fields);
            self.lines += 1;
            // An empty line is no record (as in the csv crate).
            if end > pos {
                fields.push((last, end));
                let first = self.last_record.map(|r| r + 1);
                self.last_record = Some(self.lines);
                let line = Line {
                    text: &self.text,
                    fields,
                };
                match line.read_plain(shape, &mut self.values, &mut self.labels) {
                    Taken::Plain => plain += 1,
                    Taken::Dropped => match self.others.last_mut() {
                        Some(Other {
                            after,
                            what: Between::Dropped(n),
                        }) if *after == plain => *n += 1,
                        _ => self.others.push(Other {
                            after: plain,
                            what: Between::Dropped(1),
                        }),
                    },
                    Taken::Full => self.others.push(Other {
                        after: plain,
                        what: Between::Full { start: pos, first },
                    }),
                }
            }
            pos = end + 1;
        }
    }
}

impl Run {
    fn plain_rows(&self, shape: &PlainShape) -> usize {
        self.values.len() / shape.values.len().max(1)
    }

    /// Plain rows `rows` into `push`; returns where they end.
    fn push_plain(
        &self,
        rows: std::ops::Range<usize>,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<usize, ParseError> {
        let width = shape.values.len();
        for i in rows.clone() {
            let label = shape.label.map(|_| {
                let (a, b) = self.labels[i];
                &self.text[a as usize..b as usize]
            });
            let values = &self.values[i * width..(i + 1) * width];
            push(Record::Plain(values, label), warn)?;
        }
        Ok(rows.end)
    }
}

impl Line<'_> {
    /// Appends the row's values and label range when the fast lane takes
    /// it (what `Builder::push_plain` takes, in the same order: values,
    /// then the floor, then the label); else leaves both untouched.
    fn read_plain(
        &self,
        shape: &PlainShape,
        values: &mut Vec<f64>,
        labels: &mut Vec<(u32, u32)>,
    ) -> Taken {
        if shape.max_width.is_some_and(|w| self.fields.len() > w) {
            return Taken::Full;
        }
        let n = values.len();
        for &(col, dec) in &shape.values {
            match self.field(col).and_then(|f| plain_number(f, dec)) {
                Some(v) => values.push(v),
                None => {
                    values.truncate(n);
                    return Taken::Full;
                }
            }
        }
        if let (Some(floor), [v]) = (&shape.floor, &values[n..])
            && v.abs() <= f64::from_bits(floor.load(Ordering::Relaxed))
        {
            values.truncate(n);
            return Taken::Dropped;
        }
        if let Some(col) = shape.label {
            // (A range past 4 GiB: a line that long is the full path's.)
            let range = self.field(col).and_then(plain_text).and_then(|_| {
                let (a, b) = self.fields[col];
                Some((u32::try_from(a).ok()?, u32::try_from(b).ok()?))
            });
            let Some(range) = range else {
                values.truncate(n);
                return Taken::Full;
            };
            labels.push(range);
        }
        Taken::Plain
    }
}

impl<R: Read> CsvLane<R> {
    /// Reads the plain part of the rest of the input on every core into
    /// `push` (see the module doc); the caller reads on from where this
    /// stops.
    pub(crate) fn read_plain_rows(
        &mut self,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        if self.full.is_some() {
            return Ok(());
        }
        // Smaller reads from here on, so that a run is small (see RUN).
        self.chunks.size = self.chunks.size.min(RUN);
        // What is left of the run being read comes first.
        let first = Run {
            text: std::mem::take(&mut self.text),
            start: std::mem::replace(&mut self.pos, 0),
            ..Run::default()
        };
        self.chunks.lines()?;
        let workers = match self.workers {
            Some(n) => n,
            None if self.chunks.eof => 0,
            None => workers(),
        };
        if workers == 0 {
            let mut run = first;
            let mut fields = Vec::new();
            loop {
                run.read_delimited(self.delimiter, shape, &mut fields);
                self.apply(&run, shape, push, warn)?;
                if !self.next_run(&mut run)? {
                    return Ok(());
                }
            }
        }
        let delimiter = self.delimiter;
        thread::scope(|s| {
            let mut to: Vec<mpsc::Sender<Run>> = Vec::new();
            let mut from: Vec<mpsc::Receiver<Run>> = Vec::new();
            for _ in 0..workers {
                let (run_tx, run_rx) = mpsc::channel::<Run>();
                let (done_tx, done_rx) = mpsc::channel::<Run>();
                s.spawn(move || {
                    let mut fields = Vec::new();
                    for mut run in run_rx {
                        run.read_delimited(delimiter, shape, &mut fields);
                        if done_tx.send(run).is_err() {
                            break;
                        }
                    }
                });
                to.push(run_tx);
                from.push(done_rx);
            }
            let mut next = Some(first);
            let mut spare: Vec<Run> = Vec::new();
            let (mut sent, mut got, mut more) = (0, 0, true);
            loop {
                while more && sent - got < IN_FLIGHT * workers {
                    let run = match next.take() {
                        Some(run) => run,
                        None => {
                            let mut run = spare.pop().unwrap_or_default();
                            more = self.next_run(&mut run)?;
                            if !more {
                                break;
                            }
                            run
                        }
                    };
                    // A worker gone is a worker that panicked: the scope
                    // passes its panic on.
                    if to[sent % workers].send(run).is_err() {
                        return Ok(());
                    }
                    sent += 1;
                }
                if got == sent {
                    return Ok(());
                }
                let Ok(run) = from[got % workers].recv() else {
                    return Ok(());
                };
                got += 1;
                self.apply(&run, shape, push, warn)?;
                spare.push(run);
            }
        })
    }

    /// The next run of plain lines into `run`; false where the fast lane
    /// stops (the end, or a line that is not plain, which the caller's
    /// reader meets next and hands over).
    fn next_run(&mut self, run: &mut Run) -> Result<bool, ParseError> {
        run.start = 0;
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
        let clean = plain_prefix(&buf).len();
        let mut rest = buf[clean..].to_vec();
        rest.append(&mut self.chunks.raw);
        self.chunks.raw = rest;
        run.text = plain_prefix(&buf).to_string();
        Ok(clean > 0)
    }

    /// A run's records into `push`, in order, and its lines counted as the
    /// row-by-row reader counts them.
    fn apply(
        &mut self,
        run: &Run,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        let base = self.line;
        let next = self.first.unwrap_or(base + 1);
        let mut row = 0;
        for other in &run.others {
            row = run.push_plain(row..other.after, shape, push, warn)?;
            let (start, first) = match other.what {
                Between::Full { start, first } => (start, first),
                Between::Dropped(n) => {
                    push(Record::Dropped(n), warn)?;
                    continue;
                }
            };
            self.fields.clear();
            let (end, last) =
                split_line(run.text.as_bytes(), start, self.delimiter, &mut self.fields);
            self.fields.push((last, end));
            let loc = Loc::Line(first.map_or(next, |f| base + f));
            let line = Line {
                text: &run.text,
                fields: &self.fields,
            };
            push(Record::Other(&line, loc), warn)?;
        }
        run.push_plain(row..run.plain_rows(shape), shape, push, warn)?;
        let next = run.last_record.map_or(next, |r| base + r + 1);
        self.line = base + run.lines;
        self.first = (next != self.line + 1).then_some(next);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use proptest::prelude::*;

    use super::super::super::sources::CsvRows;
    use super::super::super::table::{Rows, chart_from_rows};
    use super::super::super::{ParseError, ParseOptions};
    use super::*;
    use crate::spec::{ChartType, Normalized};

    /// A cell: a plain number (ties common) or, `rate` times in a
    /// thousand, one that sends its record down the full path.
    fn cell(rate: u16) -> impl Strategy<Value = String> {
        let plain = prop_oneof![
            4 => "-?[0-9]{1,4}(\\.[0-9]{1,2})?",
            1 => Just("5".to_string()),
        ];
        let other = prop_oneof![
            Just(String::new()),
            "[a-z]{1,3}[0-9]{0,2}",
            Just("N/A".to_string()),
            Just(" 7 ".to_string()),
            Just("1.234,5".to_string()),
            Just("12%".to_string()),
        ];
        (plain, other, 0..1000u16).prop_map(move |(p, o, roll)| if roll < rate { o } else { p })
    }

    /// A body of 150-450 rows (past the 200 the sample takes) of two or
    /// three columns, with ragged rows, blank lines and, rarely, a quote or
    /// CRLF that stops the fast lane. Records for the full path are rare
    /// in some bodies and common in others, so that the few warnings shown
    /// fall after the sample too.
    fn body() -> impl Strategy<Value = (bool, Vec<u8>)> {
        (any::<bool>(), prop_oneof![Just(3u16), Just(20), Just(150)]).prop_flat_map(
            |(three, rate)| {
                let row = (
                    cell(rate),
                    cell(rate),
                    cell(rate),
                    proptest::option::weighted(f64::from(rate) / 4000.0, cell(rate)),
                    prop_oneof![
                        1000 => Just("\n"),
                        30 => Just("\n\n"),
                        1 => Just("\r\n"),
                        1 => Just(",\"9\"\n")
                    ],
                );
                proptest::collection::vec(row, 150..450).prop_map(move |rows| {
                    let mut out = if three { "x,y,z\n" } else { "x,y\n" }.as_bytes().to_vec();
                    for (a, b, c, extra, end) in rows {
                        let mut line = format!("{a},{b}");
                        if three {
                            line.push(',');
                            line.push_str(&c);
                        }
                        if let Some(x) = extra {
                            line.push(',');
                            line.push_str(&x);
                        }
                        out.extend_from_slice(line.as_bytes());
                        out.extend_from_slice(end.as_bytes());
                    }
                    (three, out)
                })
            },
        )
    }

    fn chart(rows: &mut dyn Rows, opts: &ParseOptions) -> (String, Vec<String>) {
        let mut said = Vec::new();
        let got: Result<Normalized, ParseError> = {
            let mut sink = |m: String| said.push(m);
            chart_from_rows(rows, opts, &mut Warner::new(&mut sink, opts.strict))
        };
        (format!("{got:?}"), said)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Read ahead on threads, in runs cut anywhere, the rows give what
        /// the csv crate gives reading them one by one: the chart, the
        /// warnings and their line numbers, the errors.
        #[test]
        fn rows_read_ahead_are_what_the_csv_crate_reads(
            (three, input) in body(),
            chunk in 1usize..300,
            workers in 0usize..4,
            line in any::<bool>(),
            few in any::<bool>(),
            strict in proptest::bool::weighted(0.1),
        ) {
            let opts = ParseOptions {
                chart: Some(if line { ChartType::Line } else { ChartType::Bar }),
                max_points: few.then_some(5),
                values: if three { vec!["y".into(), "z".into()] } else { Vec::new() },
                strict,
                ..ParseOptions::default()
            };
            let fast = chart(
                &mut CsvLane::tuned(Cursor::new(input.clone()), b',', chunk, workers),
                &opts,
            );
            let full = chart(&mut CsvRows::new(Cursor::new(input), b','), &opts);
            prop_assert_eq!(fast, full);
        }
    }
}
