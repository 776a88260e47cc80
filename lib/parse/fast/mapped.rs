//! A large regular file read ahead through memory-mapped windows rather
//! than copied: the calling thread cuts runs of lines out of the page
//! cache and the workers read them in place ([`super::bulk`]). Copying
//! 22 MB with `read` took about a third of the calling thread's time on a
//! 1M-row file, time the workers waited for on two cores.
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
    /// plain ([`plain_prefix`]). `None` at the end, at a line that is not
    /// plain, or at one longer than [`SLACK`]: the caller then reads on
    /// from [`Self::into_source`].
    pub(crate) fn next_window(&mut self, size: usize) -> io::Result<Option<MappedText>> {
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
        let plain = plain_prefix(bytes).len();
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
        // SAFETY: `len` is the length of the `&str` that `plain_prefix`
        // returned for these bytes, so they were checked as UTF-8 when the
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
