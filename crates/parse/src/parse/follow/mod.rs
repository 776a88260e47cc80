//! `viz-parse --follow`: an endless input read line by line ([`lines`])
//! into a window of the last points per series ([`window`]), written as
//! `visualization` events that all carry the input's `id` and
//! `"live": true`: at most one per `--interval`, only when something
//! changed, and a last one at the end of input (or at SIGINT/SIGTERM).
//!
//! Reading happens on a thread of its own ([`crate::live`]), so the last
//! change before the input goes quiet is written within one interval,
//! and an idle input costs no CPU. A line that cannot be read is counted
//! and warned about at most once per [`WARN_EVERY`], never per line.

pub mod lines;
pub mod window;

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::{Format, ParseError, ParseOptions};
use crate::events::{Event, EventWriter};
use crate::live::{self, Feed, Shared, signals};
use crate::term;
use lines::{LineOptions, LineReader, Outcome};
use window::{Labels, Window};

pub use window::MAX_WINDOW;

/// The least time between two warnings about unreadable lines.
pub const WARN_EVERY: Duration = Duration::from_secs(10);

/// What `--follow` and its flags ask for.
#[derive(Debug, Clone, PartialEq)]
pub struct FollowOptions {
    /// `--interval`.
    pub interval: Duration,
    /// `--window`; `None`: as many points as the width has braille dots.
    pub window: Option<usize>,
    /// `--rate`.
    pub rate: bool,
    /// `--x time`.
    pub clock: bool,
    /// `--extract`, checked to compile.
    pub extract: Option<String>,
    /// `--columns`.
    pub columns: Vec<String>,
    /// `--id`; `None`: the input's file name without extension, `stdin`.
    pub id: Option<String>,
}

impl Default for FollowOptions {
    fn default() -> Self {
        FollowOptions {
            interval: Duration::from_millis(250),
            window: None,
            rate: false,
            clock: false,
            extract: None,
            columns: Vec::new(),
            id: None,
        }
    }
}

/// The window that fits a terminal `width` columns wide: a line chart's
/// plot takes the width less its y labels, two braille dots per column.
pub fn window_for_width(width: usize) -> usize {
    (width.saturating_sub(12) * 2).max(10)
}

/// The default window: the width of `COLUMNS`, else the terminal on
/// stderr (stdout is the pipe), else 80.
fn default_window() -> usize {
    window_for_width(term::TermEnv::from_process_via_stderr().width(None))
}

/// The id of a followed input: its file name without extension.
pub fn input_id(name: &str) -> String {
    if name == "<stdin>" || name == "-" {
        return "stdin".into();
    }
    Path::new(name)
        .file_stem()
        .map_or_else(|| name.to_string(), |s| s.to_string_lossy().into_owned())
}

/// Counts unreadable lines; says so at most once per [`WARN_EVERY`].
#[derive(Default)]
struct Unreadable {
    total: u64,
    since_warning: u64,
    last_warning: Option<Instant>,
}

impl Unreadable {
    fn line(&mut self, n: u64, text: &str, why: &str, at: Instant) -> Option<String> {
        self.total += 1;
        if self
            .last_warning
            .is_some_and(|t| at.saturating_duration_since(t) < WARN_EVERY)
        {
            self.since_warning += 1;
            return None;
        }
        let start: String = text.trim().chars().take(40).collect();
        let mut msg = format!("line {n}: cannot read {start:?}: {why}");
        if self.since_warning > 0 {
            msg.push_str(&format!(
                " ({} more lines could not be read since the last warning)",
                self.since_warning
            ));
        }
        self.since_warning = 0;
        self.last_warning = Some(at);
        Some(msg)
    }

    /// The count not yet told, at the end.
    fn close(&mut self) -> Option<String> {
        let n = std::mem::take(&mut self.since_warning);
        (n > 0).then(|| format!("{n} more lines could not be read ({} in all)", self.total))
    }
}

/// One followed input: what the reader thread fills.
struct Follow {
    line_opts: LineOptions,
    window_opts: (usize, bool, bool, Vec<String>),
    labels: Labels,
    strict: bool,
    fixed_id: Option<String>,
    extracting: bool,
    id: String,
    name: String,
    reader: LineReader,
    window: Window,
    lines: u64,
    unreadable: Unreadable,
    /// Warnings for stderr, in order.
    notes: Vec<String>,
    /// Events of inputs that have ended, still to be written.
    finished: Vec<Event>,
    /// Inputs that ended without a number: (exit code, message).
    failures: Vec<(u8, String)>,
    /// `--strict` and an unreadable line.
    strict_error: Option<String>,
    /// The warning about too many series was given (once per input).
    told_refused: bool,
}

impl Follow {
    fn new(opts: &ParseOptions, f: &FollowOptions) -> Result<Follow, ParseError> {
        let extract = f
            .extract
            .as_deref()
            .map(regex::Regex::new)
            .transpose()
            .map_err(|e| ParseError::Usage(format!("--extract: {e}")))?;
        let delimiter = match opts.format {
            Some(Format::Csv) => Some(opts.delimiter.unwrap_or(b',')),
            Some(Format::Tsv) => Some(b'\t'),
            Some(Format::Jsonl) | None => opts.delimiter,
            Some(other) => {
                return Err(ParseError::Usage(format!(
                    "--follow reads csv, tsv or jsonl lines (or detects them), not --format {}",
                    format!("{other:?}").to_lowercase()
                )));
            }
        };
        let line_opts = LineOptions {
            extract,
            delimiter,
            json_only: opts.format == Some(Format::Jsonl),
            columns: f.columns.clone(),
            header: opts.header,
            decimal: opts.decimal.unwrap_or_default(),
        };
        let cap = f.window.unwrap_or_else(default_window);
        let window_opts = (cap, f.rate, f.clock, opts.values.clone());
        Ok(Follow {
            reader: LineReader::new(&line_opts),
            window: Window::new(cap, f.rate, f.clock, opts.values.clone()),
            extracting: line_opts.extract.is_some(),
            line_opts,
            window_opts,
            labels: Labels {
                title: opts.title.clone(),
                subtitle: opts.subtitle.clone(),
                x_label: opts.x_label.clone(),
                y_label: opts.y_label.clone(),
                unit: opts.unit.clone(),
            },
            strict: opts.strict,
            fixed_id: f.id.clone(),
            id: String::new(),
            name: String::new(),
            lines: 0,
            unreadable: Unreadable::default(),
            notes: Vec::new(),
            finished: Vec::new(),
            failures: Vec::new(),
            strict_error: None,
            told_refused: false,
        })
    }

    /// The live event of the window, `None` before any point.
    fn event(&self) -> Option<Event> {
        let chart = self.window.chart(&self.labels)?;
        let body = chart.to_event();
        let mut map = Map::new();
        map.insert("type".into(), "visualization".into());
        map.insert("id".into(), Value::String(self.id.clone()));
        map.insert("live".into(), Value::Bool(true));
        map.extend(body.0.into_iter().filter(|(k, _)| k != "type"));
        Some(Event(map))
    }

    /// The input ended: its last event (if it changed since the last one
    /// written), what was not told yet, or why it gave nothing.
    fn close(&mut self, ended: bool) {
        if self.name.is_empty() {
            return;
        }
        if let Some(n) = self.unreadable.close() {
            self.notes.push(format!("{}: {n}", self.name));
        }
        if self.window.changed
            && let Some(e) = self.event()
        {
            self.finished.push(e);
        }
        self.window.changed = false;
        if ended && self.window.rows() == 0 && self.strict_error.is_none() {
            let why = if self.extracting {
                "no line matched --extract".to_string()
            } else if self.lines == 0 {
                "empty input".to_string()
            } else {
                "no numbers in the input".to_string()
            };
            self.failures
                .push((term::exit::DATA, format!("{}: {why}", self.name)));
        }
        self.name.clear();
    }
}

impl Feed for Follow {
    fn start(&mut self, name: &str) {
        self.close(true);
        let (cap, rate, clock, select) = self.window_opts.clone();
        self.window = Window::new(cap, rate, clock, select);
        self.reader = LineReader::new(&self.line_opts);
        self.unreadable = Unreadable::default();
        self.lines = 0;
        self.told_refused = false;
        self.name = name.to_string();
        self.id = self.fixed_id.clone().unwrap_or_else(|| input_id(name));
    }

    fn line(&mut self, line: &str, cut: bool, at: Instant) {
        self.lines += 1;
        if self.strict_error.is_some() {
            return;
        }
        let wall = if self.window.clock() {
            window::wall_seconds()
        } else {
            0
        };
        self.window.line(at, wall);
        let outcome = if cut {
            Outcome::Unreadable("longer than 64 KiB")
        } else {
            let w = &mut self.window;
            self.reader
                .read(line, &mut |n: &str, c: Option<usize>, v: f64, u: &str| {
                    w.push(n, c, v, u)
                })
        };
        if !self.told_refused
            && let Some(first) = &self.window.refused
        {
            self.told_refused = true;
            self.notes.push(format!(
                "{}: more than {} series (the first refused: {first:?}); the others are not \
                 drawn: choose some with -y NAME",
                self.name,
                window::MAX_SERIES
            ));
        }
        if let Outcome::Unreadable(why) = outcome {
            let n = self.lines;
            if self.strict {
                self.strict_error = Some(format!(
                    "{}: line {n}: cannot read {:?}: {why} (--strict)",
                    self.name,
                    line.trim().chars().take(40).collect::<String>()
                ));
            } else if let Some(msg) = self.unreadable.line(n, line, why, at) {
                self.notes.push(format!("{}: {msg}", self.name));
            }
        }
    }

    fn ready(&self) -> bool {
        self.window.changed
    }

    fn urgent(&self) -> bool {
        !self.notes.is_empty() || !self.finished.is_empty() || self.strict_error.is_some()
    }
}

/// `viz-parse --follow`: every input in turn, each its own live chart.
/// Returns the exit code: 0, the first failure's, or 128 + the signal.
pub fn run(
    inputs: Vec<live::Input>,
    opts: &ParseOptions,
    f: &FollowOptions,
    out: &mut dyn Write,
    sink: &mut dyn FnMut(String),
) -> Result<u8, ParseError> {
    let feed = Follow::new(opts, f)?;
    if f.id.is_some() && inputs.len() > 1 {
        return Err(ParseError::Usage(
            "--id names one live chart: give one input, or let each file's name be its id".into(),
        ));
    }
    let shared = Shared::new(feed);
    let on_signal = Arc::clone(&shared);
    signals::watch(false, move |sig| {
        if let signals::Signal::Stop(s) = sig {
            on_signal.lock().stopped = Some(s);
            on_signal.wake();
        }
    })?;
    live::spawn_reader(Arc::clone(&shared), inputs)?;
    let mut status = term::exit::OK;
    let mut next: Option<Instant> = None;
    loop {
        let mut g = shared.wait(next);
        let end = g.eof || g.stopped.is_some() || g.error.is_some();
        if end || g.feed.strict_error.is_some() {
            let ended = g.eof && g.stopped.is_none();
            g.feed.close(ended);
        }
        let notes = std::mem::take(&mut g.feed.notes);
        let mut events = std::mem::take(&mut g.feed.finished);
        // Woken early (a warning): the update still waits for its time.
        let due = end || next.is_none_or(|t| Instant::now() >= t);
        if due && g.feed.window.changed {
            g.feed.window.changed = false;
            events.extend(g.feed.event());
        }
        let failures = std::mem::take(&mut g.feed.failures);
        let strict = g.feed.strict_error.take();
        let error = g.error.take();
        let stopped = g.stopped;
        drop(g);
        for n in notes {
            sink(n);
        }
        for e in &events {
            EventWriter::new(&mut *out)
                .write(e)
                .map_err(ParseError::Write)?;
        }
        if !events.is_empty() {
            next = Some(Instant::now() + f.interval);
        }
        for (code, msg) in failures {
            term::diag(format!("viz-parse: error: {msg}"));
            if status == term::exit::OK {
                status = code;
            }
        }
        if let Some(msg) = strict {
            return Err(ParseError::Data(msg));
        }
        if let Some(e) = error {
            return Err(ParseError::Io(e));
        }
        if let Some(sig) = stopped {
            return Ok(128u8.saturating_add(sig as u8));
        }
        if end {
            return Ok(status);
        }
    }
}
