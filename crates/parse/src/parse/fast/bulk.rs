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
//! When the first read from the input reaches its end, the rest is read
//! on the calling thread: no thread is started for a small file.
//!
//! The formats' own parts: `delimited` (CSV and the like) and `jsonl`.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::{Mutex, mpsc};
use std::thread;

use super::super::ParseError;
use super::super::number::Decimal;
use super::super::rows::{MAX_VALUES, PlainShape, Push, Record, Warner};
use super::mapped::{Lines, MappedFile};

mod delimited;
mod jsonl;

/// Runs in flight for each worker: enough that one slow run (they are
/// handed on in order) leaves the other workers busy, few enough to keep
/// memory flat. A run of a top-N keeps hardly more than its text, one of
/// any other chart a value and a label range for each row, which makes it
/// some 2.5 times larger: it gets fewer.
const IN_FLIGHT: usize = 2;
const IN_FLIGHT_TOP: usize = 3;

/// Bytes read at a time once reading ahead (a run is that and the rest
/// of a line): small runs keep the memory in flight small, and at some
/// 3,000 lines each, a run's trip between threads costs little.
const RUN: usize = 64 * 1024;

/// The same for a top-N, whose runs carry back little more than a count:
/// four times fewer trips between threads (and reads as large as the
/// input's buffer, which bypass it: see `cli`) took 4-7% off a 1M-row
/// top 30, for 0.7 MiB more in flight.
const RUN_TOP: usize = 256 * 1024;

/// Worker threads at most, asked for or not: a many-core machine starts no
/// dozens of threads for one file, nor holds their runs in memory
/// (measured only on two cores).
const MAX_WORKERS: usize = 8;

/// A run of complete lines and what a worker read from it.
#[derive(Debug, Default)]
struct Run {
    text: String,
    /// In place of `text`, a window of a mapped file ([`super::mapped`]).
    mapped: Option<super::mapped::MappedText>,
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
        /// Where its line starts in the run's text.
        start: usize,
        /// Its line, counted from 1 in its run.
        line: u64,
        /// The line after the record before it in its run, if any (the csv
        /// crate numbers a record so).
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

impl PlainShape {
    /// The fast lane's test of a row, given its cells: a plain number in
    /// each value column, then the floor, then a plain label (its range
    /// in the run); what `Builder::push_plain` takes, in its order. Only
    /// a plain row leaves anything in `values` and `labels`: its numbers
    /// wait in a local array until then, as most rows of a long top-N are
    /// dropped (some 10% off a worker's time on a 1M-row top 30).
    /// (Always inlined: JSON lines' reader did not get it inlined, and
    /// spent 8% of its time calling it and a vector's append.)
    #[inline(always)]
    fn take<'t>(
        &self,
        values: &mut Vec<f64>,
        labels: &mut Vec<(u32, u32)>,
        number: impl Fn(usize, Decimal) -> Option<f64>,
        label: impl Fn(usize) -> Option<(usize, usize, &'t str)>,
    ) -> Taken {
        let mut got = [0.0; MAX_VALUES];
        let Some(got) = got.get_mut(..self.values.len()) else {
            return Taken::Full;
        };
        for (slot, &(col, dec)) in got.iter_mut().zip(&self.values) {
            match number(col, dec) {
                Some(v) => *slot = v,
                None => return Taken::Full,
            }
        }
        let mut made = [0.0; MAX_VALUES];
        let got: &[f64] = match &self.derive {
            None => got,
            Some(d) => {
                let Some(made) = made.get_mut(..d.width) else {
                    return Taken::Full;
                };
                if !(d.compute)(got, made) {
                    return Taken::Full;
                }
                made
            }
        };
        if let (Some(floor), [v]) = (&self.floor, got)
            && v.abs() <= f64::from_bits(floor.load(Ordering::Relaxed))
        {
            return Taken::Dropped;
        }
        // (A range past 4 GiB: a line that long is the full path's.)
        let range = |(a, b, _): (usize, usize, &str)| {
            Some((u32::try_from(a).ok()?, u32::try_from(b).ok()?))
        };
        let mut cells = [(0, 0); 2];
        let mut n = 0;
        if let Some(col) = self.label {
            let Some(r) = label(col).and_then(range) else {
                return Taken::Full;
            };
            cells[0] = r;
            n = 1;
        }
        // The key's slot holds its place among the known values.
        if let Some((col, known)) = &self.key {
            let place = label(*col).and_then(|(_, _, k)| known.iter().position(|x| x == k));
            let Some(place) = place.and_then(|p| u32::try_from(p).ok()) else {
                return Taken::Full;
            };
            cells[n] = (place, place);
            n += 1;
        }
        labels.extend_from_slice(&cells[..n]);
        // One value (most charts): a push, not a call to copy a slice.
        match got {
            [v] => values.push(*v),
            _ => values.extend_from_slice(got),
        }
        Taken::Plain
    }
}

impl<R: std::io::Read> super::Chunks<R> {
    /// Sets reading ahead going: `run` bytes a read from here on (see [`RUN`]),
    /// the rest of `text` from `pos` as the first run, and whether that
    /// and what is buffered is all the input.
    fn start_runs(
        &mut self,
        text: &mut String,
        pos: &mut usize,
        run: usize,
    ) -> Result<(Run, bool), ParseError> {
        self.size = self.size.min(run);
        let first = Run {
            text: std::mem::take(text),
            start: std::mem::replace(pos, 0),
            ..Run::default()
        };
        self.lines()?;
        if !self.eof
            && let Some((file, begin)) = self.file.take()
        {
            // Where the bytes read but not yet taken begin in the file:
            // from there on, the map gives them again.
            let at = begin + self.read - self.raw.len() as u64;
            self.map = MappedFile::new(file, at);
            if self.map.is_some() {
                // Freed, not kept: the map reads the rest.
                self.raw = Vec::new();
            }
        }
        Ok((first, self.eof))
    }

    /// The next run as a mapped window of lines of the kind `lines`, when
    /// the file is mapped; false when it is not, or no longer: then the
    /// caller reads the run, and the input reads on where the map stopped
    /// (the end, a line not of that kind, or a very long one).
    fn next_window(&mut self, run: &mut Run, lines: Lines) -> Result<bool, ParseError> {
        run.mapped = None;
        let Some(map) = &mut self.map else {
            return Ok(false);
        };
        if let Some(text) = map.next_window(self.size, lines)? {
            // Freed, not kept (the first run's was a whole first read).
            run.text = String::new();
            run.mapped = Some(text);
            return Ok(true);
        }
        if let Some(map) = self.map.take() {
            self.input = Some(map.into_source());
        }
        Ok(false)
    }
}

/// How many worker threads: one a core, none on one core.
fn workers() -> usize {
    match thread::available_parallelism().map_or(1, |n| n.get()) {
        1 => 0,
        n => n.min(MAX_WORKERS),
    }
}

/// A reader whose plain records can be read ahead: the calling thread's
/// side of one format.
trait Ahead {
    /// A worker's side: reads a run.
    type Reader: ReadRun;
    fn reader(&self) -> Self::Reader;
    /// What is left of the text being read, as the first run, and whether
    /// that and what is buffered is all the input (then no thread starts,
    /// however many were asked for);
    /// `None` when the reader cannot read ahead any more.
    fn start(&mut self, run: usize) -> Result<Option<(Run, bool)>, ParseError>;
    /// Threads asked for (tests), else one a core.
    fn workers(&self) -> Option<usize>;
    /// The next run into `run`; false where reading ahead stops.
    fn next_run(&mut self, run: &mut Run) -> Result<bool, ParseError>;
    /// A record the workers left ([`Between::Full`]), down the full path
    /// into `push`; `line` and `first` are counted in the run.
    fn full(
        &mut self,
        run: &Run,
        at: (usize, u64, Option<u64>),
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError>;
    /// The run's lines counted as read.
    fn counted(&mut self, run: &Run);
}

/// A worker's side of a format.
trait ReadRun: Send {
    fn read(&mut self, run: &mut Run, shape: &PlainShape);
}

impl Run {
    /// Its text, copied or mapped.
    fn text(&self) -> &str {
        self.mapped.as_ref().map_or(&self.text, |m| m.as_str())
    }

    /// Reads its rows afresh: `read` gets the run, cleared, and its text,
    /// copied or mapped, which is taken out meanwhile so that the rows can
    /// be written into the run.
    #[inline(always)]
    fn read_rows(&mut self, read: impl FnOnce(&mut Run, &str)) {
        self.clear();
        let owned = std::mem::take(&mut self.text);
        let mapped = self.mapped.take();
        read(self, mapped.as_ref().map_or(owned.as_str(), |m| m.as_str()));
        self.text = owned;
        self.mapped = mapped;
    }

    fn clear(&mut self) {
        self.values.clear();
        self.labels.clear();
        self.others.clear();
        self.lines = 0;
        self.last_record = None;
    }

    /// Notes a record of the line at `start` (the current line) as the
    /// worker took it; `plain` counts the plain rows so far.
    /// (Inlined: called for every row, and in a long top-N nearly every
    /// call only counts one more row dropped.)
    #[inline(always)]
    fn record(&mut self, taken: Taken, start: usize, plain: &mut usize) {
        let first = self.last_record.map(|r| r + 1);
        self.last_record = Some(self.lines);
        let after = *plain;
        match taken {
            Taken::Plain => *plain += 1,
            Taken::Dropped => match self.others.last_mut() {
                Some(Other {
                    after: a,
                    what: Between::Dropped(n),
                }) if *a == after => *n += 1,
                _ => self.others.push(Other {
                    after,
                    what: Between::Dropped(1),
                }),
            },
            Taken::Full => self.others.push(Other {
                after,
                what: Between::Full {
                    start,
                    line: self.lines,
                    first,
                },
            }),
        }
    }

    fn plain_rows(&self, shape: &PlainShape) -> usize {
        match shape.width() {
            // Rows without a value (a heatmap's count): their cells tell.
            0 => {
                let cells = usize::from(shape.label.is_some()) + usize::from(shape.key.is_some());
                self.labels.len() / cells.max(1)
            }
            width => self.values.len() / width,
        }
    }

    /// Plain rows `rows` into `push`; returns where they end.
    fn push_plain(
        &self,
        rows: std::ops::Range<usize>,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<usize, ParseError> {
        let width = shape.width();
        if shape.label.is_none() && shape.key.is_none() {
            // All at once: one call for the run, not one a row.
            if !rows.is_empty() {
                push(
                    Record::Plains(&self.values[rows.start * width..rows.end * width]),
                    warn,
                )?;
            }
            return Ok(rows.end);
        }
        let text = |i: usize| {
            let (a, b) = self.labels[i];
            &self.text()[a as usize..b as usize]
        };
        let cells = usize::from(shape.label.is_some()) + usize::from(shape.key.is_some());
        for i in rows.clone() {
            let label = shape.label.map(|_| text(i * cells));
            let values = &self.values[i * width..(i + 1) * width];
            let record = match shape.key {
                Some(_) => {
                    Record::Keyed(values, label, self.labels[i * cells + cells - 1].0 as usize)
                }
                None => Record::Plain(values, label),
            };
            push(record, warn)?;
        }
        Ok(rows.end)
    }

    /// Its records into `push`, in order.
    fn apply<A: Ahead>(
        &self,
        reader: &mut A,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        let mut row = 0;
        for other in &self.others {
            row = self.push_plain(row..other.after, shape, push, warn)?;
            match other.what {
                Between::Full { start, line, first } => {
                    reader.full(self, (start, line, first), push, warn)?;
                }
                Between::Dropped(n) => push(Record::Dropped(n), warn)?,
            }
        }
        self.push_plain(row..self.plain_rows(shape), shape, push, warn)?;
        reader.counted(self);
        Ok(())
    }
}

/// Reads the plain part of the rest of the input on every core into
/// `push` (see the module doc); the caller reads on from where this stops.
fn read_ahead<A: Ahead>(
    reader: &mut A,
    shape: &PlainShape,
    push: &mut Push<'_>,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    let Some((first, all_read)) = reader.start(run_bytes(shape))? else {
        return Ok(());
    };
    match worker_count(reader, all_read) {
        0 => read_alone(reader, first, shape, push, warn),
        workers => read_on_workers(reader, first, workers, shape, push, warn),
    }
}

/// Bytes a read while reading ahead: [`RUN_TOP`] for a top-N, else [`RUN`].
fn run_bytes(shape: &PlainShape) -> usize {
    match shape.floor {
        Some(_) => RUN_TOP,
        None => RUN,
    }
}

/// The worker threads to start. Threads asked for start only when there
/// is more than one run's worth to share: on a small input they would cost
/// more than they save.
fn worker_count<A: Ahead>(reader: &A, all_read: bool) -> usize {
    match reader.workers() {
        _ if all_read => 0,
        // Capped: the runs in flight, and so the memory, grow with it.
        Some(n) => n.min(MAX_WORKERS),
        None => workers(),
    }
}

/// Every run read on the calling thread, one after another.
fn read_alone<A: Ahead>(
    reader: &mut A,
    mut run: Run,
    shape: &PlainShape,
    push: &mut Push<'_>,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    let mut worker = reader.reader();
    loop {
        worker.read(&mut run, shape);
        run.apply(reader, shape, push, warn)?;
        if !reader.next_run(&mut run)? {
            return Ok(());
        }
    }
}

/// A run and its place in the input, counted from 0.
type Numbered = (usize, Run);

/// The runs waiting for a worker.
type Queue = Mutex<mpsc::Receiver<Numbered>>;

/// The runs read by `workers` threads, handed on in input order.
fn read_on_workers<A: Ahead>(
    reader: &mut A,
    first: Run,
    workers: usize,
    shape: &PlainShape,
    push: &mut Push<'_>,
    warn: &mut Warner,
) -> Result<(), ParseError> {
    let in_flight = workers
        * match shape.floor {
            Some(_) => IN_FLIGHT_TOP,
            None => IN_FLIGHT,
        };
    // One queue for all workers, so that a worker held up (by the calling
    // thread, on two cores) holds up no run behind it. Its sender moves
    // into the scope: dropped there, it ends the workers.
    let (run_tx, run_rx) = mpsc::channel::<Numbered>();
    let run_rx = Mutex::new(run_rx);
    let queue = &run_rx;
    thread::scope(move |s| {
        let (done_tx, done_rx) = mpsc::channel::<Numbered>();
        for _ in 0..workers {
            let (done_tx, worker) = (done_tx.clone(), reader.reader());
            s.spawn(move || work(worker, queue, done_tx, shape));
        }
        drop(done_tx);
        let mut feed = Feed {
            run_tx,
            done_rx,
            helper: reader.reader(),
            next: Some(first),
            spare: Vec::new(),
            early: BTreeMap::new(),
            sent: 0,
            got: 0,
            more: true,
        };
        loop {
            // No worker left is a worker that panicked: the scope passes
            // its panic on.
            if !feed.send_runs(reader, in_flight)? || feed.got == feed.sent {
                return Ok(());
            }
            let Some(mut run) = feed.next_in_order(queue, shape) else {
                return Ok(());
            };
            run.apply(reader, shape, push, warn)?;
            // Unmapped now: what is mapped stays what is in flight.
            run.mapped = None;
            feed.spare.push(run);
        }
    })
}

/// A worker thread: reads the runs it takes from `queue` and sends them
/// back on `done`, until either ends.
fn work<R: ReadRun>(
    mut worker: R,
    queue: &Queue,
    done: mpsc::Sender<Numbered>,
    shape: &PlainShape,
) {
    // The lock is held only to take the next run; an error is the end (no
    // more runs, or the caller gone).
    while let Ok((n, mut run)) = queue
        .lock()
        .map_err(drop)
        .and_then(|rx| rx.recv().map_err(drop))
    {
        worker.read(&mut run, shape);
        if done.send((n, run)).is_err() {
            break;
        }
    }
}

/// The calling thread's side of reading on workers: the runs it sends to
/// the queue and the runs back, put in input order.
struct Feed<R> {
    run_tx: mpsc::Sender<Numbered>,
    done_rx: mpsc::Receiver<Numbered>,
    /// This thread's own reader, for a run no worker has taken yet.
    helper: R,
    /// The first run, until it is sent.
    next: Option<Run>,
    /// Runs handed on, to read the next ones into.
    spare: Vec<Run>,
    /// Runs back out of order, until their turn.
    early: BTreeMap<usize, Run>,
    sent: usize,
    got: usize,
    /// Whether the input has runs left to send.
    more: bool,
}

impl<R: ReadRun> Feed<R> {
    /// Sends runs until `in_flight` are out or the input has no more;
    /// false when no worker is left to take one.
    #[inline]
    fn send_runs<A: Ahead>(
        &mut self,
        reader: &mut A,
        in_flight: usize,
    ) -> Result<bool, ParseError> {
        while self.more && self.sent - self.got < in_flight {
            let run = match self.next.take() {
                Some(run) => run,
                None => {
                    let mut run = self.spare.pop().unwrap_or_default();
                    self.more = reader.next_run(&mut run)?;
                    if !self.more {
                        break;
                    }
                    run
                }
            };
            if self.run_tx.send((self.sent, run)).is_err() {
                return Ok(false);
            }
            self.sent += 1;
        }
        Ok(true)
    }

    /// The next run in input order, read; `None` when no worker is left.
    #[inline]
    fn next_in_order(&mut self, queue: &Queue, shape: &PlainShape) -> Option<Run> {
        let run = loop {
            if let Some(run) = self.early.remove(&self.got) {
                break run;
            }
            if let Ok((n, run)) = self.done_rx.try_recv() {
                self.early.insert(n, run);
                continue;
            }
            // Rather than wait, read a run no worker has taken yet. A
            // worker waiting for runs holds the queue: `try_lock`, as only
            // this thread can end that wait.
            let queued = queue.try_lock().ok().and_then(|rx| rx.try_recv().ok());
            if let Some((n, mut run)) = queued {
                self.helper.read(&mut run, shape);
                self.early.insert(n, run);
                continue;
            }
            let Ok((n, run)) = self.done_rx.recv() else {
                return None;
            };
            self.early.insert(n, run);
        };
        self.got += 1;
        Some(run)
    }
}

#[cfg(test)]
mod tests;
