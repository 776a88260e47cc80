//! A large regular file read ahead through memory-mapped windows rather
//! than copied: the calling thread cuts runs of lines out of the page
//! cache and the workers read them in place ([`super::bulk`]), for CSV,
//! TSV and JSON lines alike. Copying 22 MB with `read` took about a third
//! of the calling thread's time on a 1M-row file, time the workers waited
//! for on two cores.
//!
//! A window is mapped for each run and unmapped when the run is done, so
//! what is resident stays what is in flight, as with copied runs.
//!
//! The caveat is ripgrep's, which maps files the same way: a file cut
//! shorter by another process while it is mapped ends the program with
//! SIGBUS, and one rewritten in place may be read half old, half new.
//! Files only grow under a log writer, which is safe: what was appended
//! after the file was opened is read with `pread` at the end.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;

use memchr::memrchr;
use memmap2::{Mmap, MmapOptions};

use super::plain_prefix;

/// Which lines a window may hold: each format reads ahead only as far as
/// its fast lane can go, and both are valid UTF-8 up to there.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Lines {
    /// Delimited lines without a quote or a CR ([`plain_prefix`]).
    Plain,
    /// Any lines of valid UTF-8 (JSON lines: the workers judge each line).
    Utf8,
}

impl Lines {
    /// How many of `bytes`' first bytes are whole lines of this kind; the
    /// last line may lack its newline only where `bytes` ends the file.
    fn prefix(self, bytes: &[u8]) -> usize {
        match self {
            Lines::Plain => plain_prefix(bytes).len(),
            Lines::Utf8 => match std::str::from_utf8(bytes) {
                Ok(_) => bytes.len(),
                Err(e) => memrchr(b'\n', &bytes[..e.valid_up_to()]).map_or(0, |i| i + 1),
            },
        }
    }
}

/// Past the bytes asked for, how far a window looks for the end of its
/// last line; a line longer than that ends mapping (it is read as before).
const SLACK: usize = 64 * 1024;

/// What [`super::Chunks`] reads: the caller's reader, or the file read
/// with `pread` from where mapping stopped.
pub(crate) enum Source<R> {
    Stream(R),
    At { file: File, pos: u64 },
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Stream(r) => r.read(buf),
            Source::At { file, pos } => {
                let n = file.read_at(buf, *pos)?;
                *pos += n as u64;
                Ok(n)
            }
        }
    }
}

/// A regular file being mapped a window at a time from `pos`.
pub(crate) struct MappedFile {
    file: File,
    pos: u64,
    /// Its length when mapping began: no window reaches past it.
    len: u64,
}

impl MappedFile {
    /// `file` from `pos` on, when it is a regular file.
    pub(crate) fn new(file: File, pos: u64) -> Option<Self> {
        let meta = file.metadata().ok()?;
        (meta.is_file() && pos <= meta.len()).then(|| MappedFile {
            file,
            pos,
            len: meta.len(),
        })
    }

    /// The next window: `size` bytes and the rest of the line they end in
    /// (all that is left at the end of the file), as far as its lines are
    /// of the kind `lines`. `None` at the end, at a line not of that kind,
    /// or at one longer than [`SLACK`]: the caller then reads on from
    /// [`Self::into_source`].
    pub(crate) fn next_window(
        &mut self,
        size: usize,
        lines: Lines,
    ) -> io::Result<Option<MappedText>> {
        let left = self.len - self.pos;
        let want = (size + SLACK) as u64;
        let len = usize::try_from(left.min(want)).unwrap_or(size);
        if len == 0 {
            return Ok(None);
        }
        // SAFETY: the map is read-only. The one hazard is the
        // file changing under it while mapped, as the module doc says:
        // shrinking (SIGBUS) or rewriting in place, which no reader of a
        // file can guard against and ripgrep accepts alike.
        let map = unsafe {
            MmapOptions::new()
                .offset(self.pos)
                .len(len)
                .map(&self.file)?
        };
        let bytes = if left <= want {
            &map[..]
        } else {
            match memrchr(b'\n', &map[..]) {
                Some(i) => &map[..=i],
                None => return Ok(None),
            }
        };
        let plain = lines.prefix(bytes);
        if plain == 0 {
            return Ok(None);
        }
        self.pos += plain as u64;
        Ok(Some(MappedText { map, len: plain }))
    }

    /// Reading on from where mapping stopped, with `pread` (so a file that
    /// grew meanwhile is read to its new end).
    pub(crate) fn into_source<R>(self) -> Source<R> {
        Source::At {
            file: self.file,
            pos: self.pos,
        }
    }
}

/// A window's plain lines: its first `len` bytes, valid UTF-8.
pub(crate) struct MappedText {
    map: Mmap,
    len: usize,
}

impl MappedText {
    pub(crate) fn as_str(&self) -> &str {
        // SAFETY: `len` is what `Lines::prefix` took of these bytes, which
        // it checked as UTF-8 (`plain_prefix` returns a `&str`) when the
        // window was made; they stay as they were unless the file is
        // rewritten while mapped (see `next_window`).
        unsafe { std::str::from_utf8_unchecked(&self.map[..self.len]) }
    }
}

impl std::fmt::Debug for MappedText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MappedText({} bytes)", self.len)
    }
}
