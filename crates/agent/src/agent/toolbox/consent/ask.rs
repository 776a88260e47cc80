//! The question on the terminal. What was typed before it appeared never
//! answers it: pending input is discarded (`tcflush`) before the question
//! is drawn, and again once it is drawn (`tcdrain`), so a `y` typed while
//! an answer streamed ("Shall I go on?") cannot approve a call the user
//! never saw. The request is shown whole and compactly ([`shown`]); `v`
//! pages through all of it ([`pager`]).

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::path::PathBuf;

use super::shown::{self, Marks, Room};
use super::{Decision, pager};
use crate::agent::toolbox::{Level, Source};
use crate::render::text::{Style, clean_line, paint};

/// How the question is drawn: colour (marks in reverse video) and
/// whether the terminal shows Unicode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Look {
    pub color: bool,
    pub unicode: bool,
}

impl Default for Look {
    fn default() -> Look {
        Look {
            color: false,
            unicode: true,
        }
    }
}

impl Look {
    /// `--color`, `--ascii`/`--unicode`, NO_COLOR, TERM and the locale, as
    /// for the answer, judged for the terminal.
    pub fn resolve(color: crate::term::ColorChoice, ascii: bool, unicode: bool) -> Look {
        let mut env = crate::agent::environ::get().term.clone();
        env.stdout_is_tty = true;
        Look {
            color: env.color(color),
            unicode: env.unicode(ascii, unicode),
        }
    }
}

/// The terminal the question goes to.
pub(super) struct Tty {
    file: File,
    look: Look,
}

/// One drawing of the question.
struct Drawn {
    /// `v` would show more than is on the screen.
    more: bool,
}

impl Tty {
    pub(super) fn open(path: PathBuf, look: Look) -> Option<Tty> {
        // Opening /dev/tty without a controlling terminal fails (ENXIO):
        // that is the "no terminal" case.
        OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .ok()
            .map(|file| Tty { file, look })
    }

    fn marks(&self) -> Marks {
        Marks::for_terminal(self.look.unicode)
    }

    /// Columns and rows, 80x24 when the terminal does not say.
    fn size(&self) -> (usize, usize) {
        match terminal_size::terminal_size_of(&self.file) {
            Some((w, h)) if w.0 > 0 && h.0 > 0 => (w.0 as usize, h.0 as usize),
            _ => (80, 24),
        }
    }

    /// Asks until the answer is one of the choices; end of input is n.
    pub(super) fn ask(self, name: &str, source: &Source, what: &str, level: Level) -> Decision {
        let Ok(mut out) = self.file.try_clone() else {
            return Decision::No;
        };
        let typed = discard_input(&self.file);
        let from = match source {
            Source::Builtin => String::new(),
            s => format!(" ({s})"),
        };
        let header = format!(
            "gem-ask: the model wants to use {}:\n",
            clean_line(&format!("{name}{from}"), !self.look.unicode)
        );
        let _ = out.write_all(header.as_bytes());
        if typed {
            let _ = writeln!(
                out,
                "(what was typed before this question was discarded: answer below)"
            );
        }
        let mut drawn = self.draw(&mut out, what);
        let mut input = BufReader::new(&self.file);
        let mut wrong = 0;
        while wrong < 5 {
            let _ = write!(out, "Allow? {}: ", choices(level, drawn.more));
            let _ = out.flush();
            if !wait_for_input(&input) {
                let _ = writeln!(out);
                return Decision::No;
            }
            let mut line = String::new();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => return Decision::No,
                Ok(_) => {}
            }
            match line.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => return Decision::Yes,
                "n" | "no" => return Decision::No,
                "a" | "always" if level == Level::Standard => return Decision::Always,
                "v" | "view" => {
                    let (cols, rows) = self.size();
                    let all = painted(&shown::full(what, self.marks()), self.marks(), self.look);
                    pager::page(&all, &self.file, cols, rows);
                    let _ = out.write_all(header.as_bytes());
                    drawn = self.draw(&mut out, what);
                }
                _ => wrong += 1,
            }
        }
        Decision::No
    }

    /// The request, compact, within the rows the terminal has to spare
    /// (the header, a cut note and the question keep theirs).
    fn draw(&self, out: &mut File, what: &str) -> Drawn {
        let (cols, rows) = self.size();
        let room = Room {
            cols,
            rows: rows.saturating_sub(5).max(3),
        };
        let marks = self.marks();
        let s = shown::compact(what, marks, room);
        let mut text = painted(&s.text, marks, self.look);
        text.push('\n');
        if let Some(cut) = s.cut {
            let note = format!("... {}: press v to view all", shown::cut_note(cut));
            text.push_str(&paint(&note, Style::Dim, self.look.color));
            text.push('\n');
        }
        let _ = out.write_all(text.as_bytes());
        settle(&self.file);
        Drawn {
            more: s.cut.is_some() || s.text != shown::full(what, marks),
        }
    }
}

fn choices(level: Level, more: bool) -> String {
    let mut c = String::from("[y]es / [n]o");
    if level == Level::Standard {
        c.push_str(" / [a]lways in this conversation");
    }
    if more {
        c.push_str(" / [v]iew all");
    }
    c
}

/// Shown text with its marks in reverse video (when there is colour).
pub(super) fn painted(text: &str, marks: Marks, look: Look) -> String {
    if !look.color {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(marks.open()) {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let end = after
            .find(marks.close())
            .map_or(after.len(), |e| e + marks.close().len());
        out.push_str(&paint(&after[..end], Style::Reverse, true));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Throws away what was typed and not yet read; true when there was some.
fn discard_input(tty: &File) -> bool {
    let fd = tty.as_raw_fd();
    let mut pending: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int; tcflush takes a valid descriptor.
    unsafe {
        if libc::ioctl(fd, libc::FIONREAD, &mut pending) != 0 {
            pending = 0;
        }
        libc::tcflush(fd, libc::TCIFLUSH);
    }
    pending > 0
}

/// Once the request is on the screen (its output drained), anything
/// typed while it was drawn is thrown away too, just before the question
/// line: only what is typed once the whole request is shown answers it.
fn settle(tty: &File) {
    let fd = tty.as_raw_fd();
    // SAFETY: both take a valid descriptor and nothing else.
    unsafe {
        libc::tcdrain(fd);
        libc::tcflush(fd, libc::TCIFLUSH);
    }
}

/// Waits until the terminal has input; false when SIGINT or SIGTERM
/// arrives first (the handlers restart reads, so a blocked read would keep
/// the run waiting for an answer after Ctrl-C).
fn wait_for_input(input: &BufReader<&File>) -> bool {
    if !input.buffer().is_empty() {
        return true;
    }
    let mut fds = libc::pollfd {
        fd: input.get_ref().as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        if crate::agent::signals::received().is_some() {
            return false;
        }
        // SAFETY: one valid pollfd, for the duration of the call.
        match unsafe { libc::poll(&mut fds, 1, 100) } {
            0 => continue,
            n if n < 0
                && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted =>
            {
                continue;
            }
            _ => return true,
        }
    }
}
