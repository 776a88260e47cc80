//! The pacing shared by `viz-parse --follow` and `viz-render --live`: an
//! endless input is read on a thread of its own into a state behind a
//! mutex, and the main thread writes what changed at most once per period.
//! The main thread sleeps on a condition variable until there is something
//! to write (a change, the end of input, a signal), so an idle stream costs
//! no CPU: the reader blocks in `read`, the writer in a wait, the signal
//! watcher in `sigwait` ([`signals`]); nothing polls.
//!
//! Why a reader thread: a change that arrives just before the input goes
//! quiet must still be written within one period, so the writer cannot be
//! the one blocked in `read`.

pub mod signals;

use std::io::{self, BufRead};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The longest line kept: the rest of a longer one is skipped, so memory
/// stays bounded whatever the stream holds (a line with no newline at all).
pub const MAX_LINE: usize = 64 * 1024;

/// What the reader thread feeds with each line of input.
pub trait Feed: Send + 'static {
    /// A new input begins (its name, for messages).
    fn start(&mut self, _name: &str) {}
    /// One line, without its line ending; `cut` when it was longer than
    /// [`MAX_LINE`] and only its start is given. `at` is when it was read.
    fn line(&mut self, line: &str, cut: bool, at: Instant);
    /// Something changed that the writer writes at its pace.
    fn ready(&self) -> bool;
    /// Something the writer writes at once (warnings).
    fn urgent(&self) -> bool {
        false
    }
    /// The reader should wait before reading more (the writer is behind
    /// on something that must not be dropped).
    fn full(&self) -> bool {
        false
    }
}

/// The state both threads see.
pub struct Inner<F> {
    pub feed: F,
    /// Every input has ended.
    pub eof: bool,
    /// Reading failed; the writer reports it.
    pub error: Option<io::Error>,
    /// SIGINT or SIGTERM came.
    pub stopped: Option<i32>,
    /// SIGWINCH came and has not been handled.
    pub resized: bool,
    /// The writer is asleep waiting for a change (the reader then wakes it).
    waiting: bool,
}

/// The state and the condition variable both threads wait on.
pub struct Shared<F> {
    inner: Mutex<Inner<F>>,
    cv: Condvar,
}

impl<F: Feed> Shared<F> {
    pub fn new(feed: F) -> Arc<Shared<F>> {
        Arc::new(Shared {
            inner: Mutex::new(Inner {
                feed,
                eof: false,
                error: None,
                stopped: None,
                resized: false,
                waiting: false,
            }),
            cv: Condvar::new(),
        })
    }

    pub fn lock(&self) -> MutexGuard<'_, Inner<F>> {
        // A panic on the other thread must not hide what was read.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Wakes every waiter (the writer, and a reader waiting for room).
    pub fn wake(&self) {
        self.cv.notify_all();
    }

    /// Sleeps until the state has something for the writer: a change
    /// (`Feed::ready`), the end of input, a signal, a resize. A change is
    /// only reported once `not_before` has passed (the pacing); the end of
    /// input, signals and urgent news are reported at once.
    pub fn wait(&self, not_before: Option<Instant>) -> MutexGuard<'_, Inner<F>> {
        let mut g = self.lock();
        loop {
            if g.eof || g.stopped.is_some() || g.resized || g.error.is_some() || g.feed.urgent() {
                return g;
            }
            if g.feed.ready() {
                match not_before.map(|t| t.saturating_duration_since(Instant::now())) {
                    Some(left) if !left.is_zero() => {
                        g = self
                            .cv
                            .wait_timeout(g, left)
                            .unwrap_or_else(|p| p.into_inner())
                            .0;
                        continue;
                    }
                    _ => return g,
                }
            }
            g.waiting = true;
            g = self.cv.wait(g).unwrap_or_else(|p| p.into_inner());
            g.waiting = false;
        }
    }
}

/// An input for the reader thread.
pub struct Input {
    pub name: String,
    pub reader: Box<dyn BufRead + Send>,
}

/// Starts the reader thread: every input in turn, line by line, into the
/// feed; then `eof`. The thread is not joined: at a signal the program
/// ends while it may still be blocked in `read`.
pub fn spawn_reader<F: Feed>(shared: Arc<Shared<F>>, inputs: Vec<Input>) -> io::Result<()> {
    std::thread::Builder::new()
        .name("live-reader".into())
        .spawn(move || {
            let mut result = Ok(());
            for input in inputs {
                shared.lock().feed.start(&input.name);
                result = read_lines(&shared, input.reader);
                if result.is_err() {
                    break;
                }
            }
            let mut g = shared.lock();
            g.eof = true;
            g.error = result.err();
            if g.stopped.is_none() {
                g.stopped = signals::pending_stop();
            }
            drop(g);
            shared.wake();
        })
        .map(|_| ())
}

/// Reads one input. Each buffer the reader hands over is fed under one
/// lock, so a fast stream costs one lock per read, not per line.
fn read_lines<F: Feed>(shared: &Shared<F>, mut reader: Box<dyn BufRead + Send>) -> io::Result<()> {
    let mut carry: Vec<u8> = Vec::new();
    let mut cut = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !carry.is_empty() || cut {
                let mut g = shared.lock();
                feed_line(&mut g, &carry, cut, Instant::now());
                drop(notify(shared, g));
            }
            return Ok(());
        }
        let at = Instant::now();
        let len = chunk.len();
        let mut g = shared.lock();
        let mut rest = chunk;
        while let Some(nl) = memchr::memchr(b'\n', rest) {
            let piece = &rest[..nl];
            if carry.is_empty() && !cut {
                feed_line(&mut g, piece, false, at);
            } else {
                take(&mut carry, &mut cut, piece);
                feed_line(&mut g, &carry, cut, at);
                carry.clear();
                cut = false;
            }
            rest = &rest[nl + 1..];
        }
        take(&mut carry, &mut cut, rest);
        let full = g.feed.full();
        let g = notify(shared, g);
        if full {
            let g = shared
                .cv
                .wait_while(g, |g| g.feed.full() && g.stopped.is_none())
                .unwrap_or_else(|p| p.into_inner());
            drop(g);
        } else {
            drop(g);
        }
        reader.consume(len);
    }
}

/// Appends to the partial line, up to [`MAX_LINE`] bytes.
fn take(carry: &mut Vec<u8>, cut: &mut bool, piece: &[u8]) {
    let room = MAX_LINE.saturating_sub(carry.len());
    if piece.len() > room {
        *cut = true;
    }
    carry.extend_from_slice(&piece[..piece.len().min(room)]);
}

fn feed_line<F: Feed>(g: &mut Inner<F>, bytes: &[u8], cut: bool, at: Instant) {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let cut = cut || bytes.len() > MAX_LINE;
    let bytes = &bytes[..bytes.len().min(MAX_LINE)];
    let line = String::from_utf8_lossy(bytes);
    g.feed.line(&line, cut, at);
}

/// Wakes the writer when it sleeps and now has work: one wake per change,
/// not one per line.
fn notify<'a, F: Feed>(
    shared: &'a Shared<F>,
    g: MutexGuard<'a, Inner<F>>,
) -> MutexGuard<'a, Inner<F>> {
    if g.waiting && (g.feed.ready() || g.feed.urgent()) {
        shared.wake();
    }
    g
}

/// Why a `--interval` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    #[error("{0:?} is not a duration: write 250ms, 1s or 0.5s")]
    NotADuration(String),
    #[error("{0:?}: give a duration above 0 and at most 1 hour")]
    OutOfRange(String),
}

/// `250ms`, `1s`, `0.5s`, `2m`, `1h` or plain milliseconds (`250`), for
/// `--interval`.
pub fn parse_duration(s: &str) -> Result<Duration, DurationError> {
    let t = s.trim();
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e-3)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60.0)
    } else if let Some(n) = t.strip_suffix('h') {
        (n, 3600.0)
    } else {
        (t, 1e-3)
    };
    let v: f64 = num
        .trim()
        .parse()
        .map_err(|_| DurationError::NotADuration(s.to_string()))?;
    let secs = v * scale;
    if !(secs.is_finite() && secs > 0.0 && secs <= 3600.0) {
        return Err(DurationError::OutOfRange(s.to_string()));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Lines(Vec<(String, bool)>);

    impl Feed for Lines {
        fn line(&mut self, line: &str, cut: bool, _at: Instant) {
            self.0.push((line.to_string(), cut));
        }
        fn ready(&self) -> bool {
            !self.0.is_empty()
        }
    }

    #[test]
    fn lines_are_split_and_long_ones_cut() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("a\r\nb\n{long}\nlast");
        // A tiny buffer so lines straddle reads.
        let reader = io::BufReader::with_capacity(7, io::Cursor::new(text.into_bytes()));
        let shared = Shared::new(Lines::default());
        read_lines(&shared, Box::new(reader)).unwrap();
        let got = &shared.lock().feed.0;
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], ("a".to_string(), false));
        assert_eq!(got[1], ("b".to_string(), false));
        assert_eq!(got[2].0.len(), MAX_LINE);
        assert!(got[2].1);
        assert_eq!(got[3], ("last".to_string(), false));
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("250").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("0.5s").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("0").is_err());
        assert!(parse_duration("fast").is_err());
        assert!(parse_duration("-1s").is_err());
    }
}
