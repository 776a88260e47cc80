//! Live charts: `visualization` events with an `id` and `"live": true`
//! (`viz-parse --follow`) are updates of one chart, not charts of their own.
//!
//! - [`LiveCharts`] (in `live_chart`, which the [`Renderer`] uses too)
//!   keeps the latest update per id, in the order the ids came; the
//!   [`Renderer`] draws each once at the end of input (a pipe, a file, a CI
//!   log, or a terminal without `--live`): one clean chart per id.
//! - [`run`] is `viz-render --live`: on a terminal the live charts are
//!   drawn at the bottom and redrawn in place at most `--fps` times a
//!   second ([`super::screen`]), text and other events streaming above them; a
//!   resize redraws at the new width; at the end of input, or at Ctrl-C,
//!   the last frame stays, the cursor comes back, and Ctrl-C exits 130.
//!   Elsewhere it draws as the renderer does, and also at SIGINT.
//!
//! Each frame is the chart and a footer of per-series statistics
//! ([`frame`]). Input is read on a thread of its own ([`crate::live`]):
//! an idle stream costs no CPU.

use std::collections::VecDeque;
use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::live_chart::{LiveCharts, frame, id_of, is_live};
use super::screen::{HIDE_CURSOR, SHOW_CURSOR, Screen};
use super::text::clean_line;
use super::{RenderOptions, Renderer, chart_from_event};
use crate::events::foreign::Translator;
use crate::events::{Event, LineError};
use crate::live::{self, Feed, Shared, signals};
use crate::spec::Chart;
use crate::term;

/// Events waiting to be drawn before the reader waits for the writer.
const MAX_QUEUED: usize = 256;

/// The frames of all live charts, a blank line between, at most
/// `max_rows` rows: plots are made lower first, then the top rows go.
fn region(charts: &[Chart], opts: &RenderOptions, max_rows: usize) -> Vec<String> {
    let mut o = opts.clone();
    loop {
        let mut lines = Vec::new();
        for (i, c) in charts.iter().enumerate() {
            if i > 0 {
                lines.push(String::new());
            }
            lines.extend(frame(c, &o));
        }
        if lines.len() <= max_rows {
            return lines;
        }
        let over = lines.len() - max_rows;
        if o.height <= 2 {
            return lines.split_off(over);
        }
        o.height = o
            .height
            .saturating_sub(over.div_ceil(charts.len().max(1)))
            .max(2);
    }
}

/// What the reader thread hands over.
enum Item {
    Event(Event, Arc<str>, usize),
    Bad(String),
}

/// The reader thread's side: events in order, live updates kept apart
/// (latest per id) when they are drawn in place.
struct Incoming {
    in_place: bool,
    queue: VecDeque<Item>,
    live: LiveCharts,
    live_changed: bool,
    notes: Vec<String>,
    name: Arc<str>,
    line: usize,
    /// Another agent's stream read as ours.
    foreign: Translator,
    read: VecDeque<Result<Event, LineError>>,
}

impl Feed for Incoming {
    fn start(&mut self, name: &str) {
        self.name = name.into();
        self.line = 0;
        self.foreign.reset();
    }

    fn line(&mut self, text: &str, cut: bool, _at: Instant) {
        self.line += 1;
        if cut {
            let msg = format!(
                "{}: line {}: longer than 64 KiB; skipped",
                self.name, self.line
            );
            self.queue.push_back(Item::Bad(msg));
            return;
        }
        let mut read = std::mem::take(&mut self.read);
        self.foreign.read_line(text, self.line, &mut read);
        for item in read.drain(..) {
            match item {
                Ok(e) if self.in_place && is_live(&e) => {
                    self.notes.extend(self.live.put(e));
                    self.live_changed = true;
                }
                Ok(e) => self
                    .queue
                    .push_back(Item::Event(e, Arc::clone(&self.name), self.line)),
                Err(bad) => self
                    .queue
                    .push_back(Item::Bad(format!("{}: {bad}", self.name))),
            }
        }
        self.read = read;
    }

    fn ready(&self) -> bool {
        !self.queue.is_empty() || self.live_changed
    }

    fn urgent(&self) -> bool {
        !self.notes.is_empty()
    }

    fn full(&self) -> bool {
        self.queue.len() >= MAX_QUEUED
    }
}

/// What `--live` was given besides the render options.
#[derive(Debug, Clone, Copy)]
pub struct LiveArgs {
    /// Redraws per second at most.
    pub fps: u32,
    /// `--width` was given: a resize does not change it.
    pub fixed_width: bool,
    pub strict: bool,
}

/// Shows the cursor again whatever way the run ends.
struct Cursor {
    hidden: bool,
}

impl Drop for Cursor {
    fn drop(&mut self) {
        if self.hidden {
            let mut o = io::stdout().lock();
            let _ = o.write_all(SHOW_CURSOR.as_bytes());
            let _ = o.flush();
        }
    }
}

/// `viz-render --live`. Returns the exit code: 0, or 128 + the signal.
pub fn run(
    renderer: &mut Renderer,
    inputs: Vec<term::Input>,
    args: LiveArgs,
) -> anyhow::Result<u8> {
    let in_place =
        io::stdout().is_terminal() && std::env::var("TERM").ok().as_deref() != Some("dumb");
    let shared = Shared::new(Incoming {
        in_place,
        queue: VecDeque::new(),
        live: LiveCharts::default(),
        live_changed: false,
        notes: Vec::new(),
        name: "<stdin>".into(),
        line: 0,
        foreign: Translator::new(),
        read: VecDeque::new(),
    });
    let on_signal = Arc::clone(&shared);
    signals::watch(in_place, move |sig| {
        let mut g = on_signal.lock();
        match sig {
            signals::Signal::Stop(s) => g.stopped = Some(s),
            signals::Signal::Resize => g.resized = true,
        }
        drop(g);
        on_signal.wake();
    })?;
    let inputs = inputs
        .into_iter()
        .map(|i| live::Input {
            name: i.name,
            reader: i.reader,
        })
        .collect();
    live::spawn_reader(Arc::clone(&shared), inputs)?;
    let mut w = Writer {
        period: Duration::from_secs_f64(1.0 / f64::from(args.fps.max(1))),
        args,
        in_place,
        opts: renderer.options().clone(),
        screen: Screen::new(),
        charts: Vec::new(),
        warned: Vec::new(),
        cursor: Cursor { hidden: false },
        next_frame: None,
    };
    if in_place {
        // A terminal's own width, not a COLUMNS that a resize makes stale.
        w.resize(renderer);
    }
    w.run(renderer, &shared)
}

/// The main thread's side.
struct Writer {
    args: LiveArgs,
    period: Duration,
    in_place: bool,
    opts: RenderOptions,
    screen: Screen,
    /// The live charts drawn in place: (id, latest valid chart), in order.
    charts: Vec<(String, Chart)>,
    /// Ids whose invalid update was warned about.
    warned: Vec<String>,
    cursor: Cursor,
    next_frame: Option<Instant>,
}

impl Writer {
    fn run(&mut self, renderer: &mut Renderer, shared: &Shared<Incoming>) -> anyhow::Result<u8> {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        loop {
            let not_before = if self.screen.shown() {
                self.next_frame
            } else {
                None
            };
            let mut g = shared.wait(not_before);
            let items = std::mem::take(&mut g.feed.queue);
            let live = std::mem::take(&mut g.feed.live_changed).then(|| g.feed.live.clone());
            let notes = std::mem::take(&mut g.feed.notes);
            let resized = std::mem::take(&mut g.resized);
            let (ended, stopped, error) = (g.eof, g.stopped, g.error.take());
            drop(g);
            // The reader may be waiting for room in the queue.
            shared.wake();
            for n in notes {
                term::diag(format!("viz-render: warning: {n}"));
            }
            let mut text = Vec::new();
            let mut failure = self.draw_items(renderer, items, &mut text);
            let changed = match live.map(|l| self.take_charts(l)) {
                Some(Err(e)) => {
                    failure.get_or_insert(e);
                    false
                }
                Some(Ok(())) => true,
                None => false,
            };
            let resized = resized && self.resize(renderer);
            let last = ended || stopped.is_some() || failure.is_some() || error.is_some();
            if last {
                renderer.finish(&mut text)?;
            }
            if self.in_place && (self.screen.shown() || !self.charts.is_empty()) {
                if last || changed || resized || !text.is_empty() {
                    self.redraw(&text, last, &mut out)?;
                }
            } else {
                if self.in_place {
                    self.screen.wrote(&String::from_utf8_lossy(&text));
                }
                out.write_all(&text)?;
                out.flush()?;
            }
            if let Some(e) = failure {
                return Err(e);
            }
            if let Some(e) = error {
                return Err(e.into());
            }
            if let Some(sig) = stopped {
                return Ok(128u8.saturating_add(sig as u8));
            }
            if ended {
                return Ok(term::exit::OK);
            }
        }
    }

    /// Draws the queued events into `text`; with `--strict`, the first bad
    /// line or invalid chart is the error returned.
    fn draw_items(
        &mut self,
        renderer: &mut Renderer,
        items: VecDeque<Item>,
        text: &mut Vec<u8>,
    ) -> Option<anyhow::Error> {
        for item in items {
            match item {
                Item::Bad(msg) if self.args.strict => return Some(term::data_error(msg)),
                Item::Bad(msg) => {
                    term::diag(format!("viz-render: warning: {}", clean_line(&msg, false)))
                }
                Item::Event(e, name, line) => {
                    let before = renderer.invalid_charts();
                    if let Err(err) = renderer.event(&e, text) {
                        return Some(err.into());
                    }
                    if self.args.strict && renderer.invalid_charts() > before {
                        return Some(term::data_error(format!(
                            "{name}: line {line}: invalid chart (--strict)"
                        )));
                    }
                }
            }
        }
        None
    }

    /// The latest updates become the charts drawn; an invalid one keeps
    /// its id's previous chart (warned once per id; `--strict`: an error).
    fn take_charts(&mut self, mut live: LiveCharts) -> anyhow::Result<()> {
        let mut charts = Vec::new();
        for e in live.take() {
            let id = id_of(&e).to_string();
            match chart_from_event(&e) {
                Ok(c) => charts.push((id, c)),
                Err(err) => {
                    let msg = format!(
                        "live chart {:?}: invalid update: {err}",
                        clean_line(&id, false)
                    );
                    if self.args.strict {
                        return Err(term::data_error(format!("{msg} (--strict)")));
                    }
                    if !self.warned.contains(&id) {
                        term::diag(format!("viz-render: warning: {}", clean_line(&msg, false)));
                        self.warned.push(id.clone());
                    }
                    if let Some(old) = self.charts.iter().find(|(i, _)| *i == id) {
                        charts.push(old.clone());
                    }
                }
            }
        }
        self.charts = charts;
        Ok(())
    }

    /// The terminal's width now (unless `--width` fixed it); true when
    /// the region must be drawn again.
    fn resize(&mut self, renderer: &mut Renderer) -> bool {
        if self.args.fixed_width {
            return false;
        }
        let Some((w, _)) = terminal_size::terminal_size() else {
            return false;
        };
        let w = usize::from(w.0).max(1);
        self.opts.width = w;
        renderer.set_width(w);
        true
    }

    /// One frame: the text since the last, then the live charts, fitted to
    /// the screen's height; the last frame whole, and the cursor shown.
    fn redraw(&mut self, text: &[u8], last: bool, out: &mut dyn Write) -> io::Result<()> {
        let (cols, rows) = terminal_size::terminal_size()
            .map_or((self.opts.width, 24), |(w, h)| {
                (usize::from(w.0), usize::from(h.0))
            });
        // A row for the open line of text (or the blank before the
        // region), and the row the cursor waits on.
        let max = if last {
            usize::MAX
        } else {
            rows.saturating_sub(2).max(3)
        };
        let charts: Vec<Chart> = self.charts.iter().map(|(_, c)| c.clone()).collect();
        let lines = region(&charts, &self.opts, max);
        let mut s = String::new();
        if !last && !self.cursor.hidden {
            s.push_str(HIDE_CURSOR);
            self.cursor.hidden = true;
        }
        s.push_str(
            &self
                .screen
                .redraw(&String::from_utf8_lossy(text), &lines, cols),
        );
        if last && self.cursor.hidden {
            s.push_str(SHOW_CURSOR);
            self.cursor.hidden = false;
        }
        out.write_all(s.as_bytes())?;
        out.flush()?;
        self.next_frame = Some(Instant::now() + self.period);
        Ok(())
    }
}
