//! The terminal the REPL talks to the user on: /dev/tty, whatever stdout
//! is. The status line, command output (`/help`, `/history`, `/tools`) and
//! notes go here, so a pipe on stdout gets nothing but events. Without a
//! terminal they go to stderr, the diagnostics channel.
//!
//! It also tells whether the user typed a line while the model was
//! working on its own: the terminal stays in its normal line mode while
//! an answer streams, so a finished line (Enter) makes it readable, and
//! the line stays in the terminal's queue for the next prompt to read.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;

use super::status::Status;
use crate::render::text::{Style, clean_text, paint};
use crate::term::ColorChoice;

pub struct Term {
    tty: Option<File>,
    color: bool,
    unicode: bool,
    /// `--width`, else the terminal's current width.
    width: Option<usize>,
}

impl Term {
    /// Opens /dev/tty. Colour follows `--color`, NO_COLOR and TERM as for
    /// the answer, judged for the terminal rather than for stdout.
    pub fn open(color: ColorChoice, width: Option<usize>, ascii: bool, unicode: bool) -> Term {
        let tty = OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .ok();
        let mut env = crate::agent::environ::get().term.clone();
        env.stdout_is_tty = tty.is_some();
        Term {
            color: env.color(color),
            unicode: env.unicode(ascii, unicode),
            width,
            tty,
        }
    }

    pub fn is_terminal(&self) -> bool {
        self.tty.is_some()
    }

    pub fn color(&self) -> bool {
        self.color
    }

    pub fn unicode(&self) -> bool {
        self.unicode
    }

    /// Columns: `--width`, `COLUMNS`, the terminal's width now (it may
    /// have been resized since the start), 80.
    pub fn cols(&self) -> usize {
        let now = self
            .tty
            .as_ref()
            .and_then(terminal_size::terminal_size_of)
            .map(|(w, _)| w.0 as usize);
        let mut env = crate::agent::environ::get().term.clone();
        env.terminal_width =
            now.or_else(|| terminal_size::terminal_size().map(|(w, _)| w.0 as usize));
        env.width(self.width).max(1)
    }

    /// Writes text as it is (already cleaned by the caller).
    fn write_raw(&mut self, text: &str) {
        match &mut self.tty {
            Some(t) => {
                let _ = t.write_all(text.as_bytes());
                let _ = t.flush();
            }
            None => {
                let mut e = io::stderr().lock();
                let _ = e.write_all(text.as_bytes());
                let _ = e.flush();
            }
        }
    }

    /// A message for the user; control characters are shown harmlessly.
    pub fn say(&mut self, text: &str) {
        let mut t = clean_text(text, !self.unicode);
        if !t.ends_with('\n') {
            t.push('\n');
        }
        self.write_raw(&t);
    }

    /// A note in dim type (what a command did).
    pub fn note(&mut self, text: &str) {
        let line = paint(&clean_text(text, !self.unicode), Style::Dim, self.color);
        self.write_raw(&format!("{line}\n"));
    }

    /// A problem with what the user typed, in yellow.
    pub fn warn(&mut self, text: &str) {
        let line = paint(&clean_text(text, !self.unicode), Style::Yellow, self.color);
        self.write_raw(&format!("{line}\n"));
    }

    /// The status line, on a line of its own.
    pub fn status(&mut self, s: &Status) {
        let line = s.line(self.cols(), self.color, self.unicode);
        self.write_raw(&format!("{line}\n"));
    }

    /// The terminal's settings (line mode, echo) as they are now, to be
    /// put back should the session end while the editor holds it raw.
    pub fn mode(&self) -> Option<libc::termios> {
        let t = self.tty.as_ref()?;
        // SAFETY: tcgetattr fills the zeroed struct from an open descriptor.
        unsafe {
            let mut m: libc::termios = std::mem::zeroed();
            (libc::tcgetattr(t.as_raw_fd(), &mut m) == 0).then_some(m)
        }
    }

    /// Puts back settings taken by [`Term::mode`], ends bracketed paste
    /// (the editor turns it on), and leaves the cursor on a fresh line.
    pub fn restore(&mut self, mode: Option<libc::termios>) {
        if let (Some(t), Some(m)) = (&self.tty, mode) {
            // SAFETY: the settings were read from this terminal.
            unsafe {
                libc::tcsetattr(t.as_raw_fd(), libc::TCSANOW, &m);
            }
            self.write_raw("\x1b[?2004l\r\n");
        }
    }

    /// Whether a whole line waits in the terminal's input queue. Without
    /// a terminal nothing counts as typed ahead: piped input is the
    /// script, read at the prompt.
    pub fn typed_ahead(&self) -> bool {
        let Some(t) = &self.tty else {
            return false;
        };
        let mut fds = libc::pollfd {
            fd: t.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call; a zero
        // timeout never blocks.
        let n = unsafe { libc::poll(&mut fds, 1, 0) };
        n > 0 && fds.revents & libc::POLLIN != 0
    }
}
