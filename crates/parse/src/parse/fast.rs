//! The fast lane for large tables: the common shape (plain numbers, no
//! quotes, flat JSON objects) read in bulk, anything unusual handed to the
//! full readers so the result is always theirs.
//!
//! - [`CsvLane`] reads delimited text in big chunks (`memchr` finds the
//!   last newline, quotes and carriage returns), checks each chunk as
//!   UTF-8 once, splits lines itself and hands plain rows to the reducers
//!   in bulk ([`Rows::next_row_after`]), instead of the csv crate's state
//!   machine and a UTF-8 check per cell. The first line with a quote, a
//!   carriage return or invalid UTF-8 hands the rest of the input to
//!   [`CsvRows`] (the csv crate), with line numbers carried over: quoting
//!   can span lines, so there is no way back.
//! - [`bulk`] reads those plain lines on every core for the readers that
//!   can take rows ahead of the reducers ([`Rows::read_plain`]).
//! - [`jsonl`]: [`JsonlRows`] reads JSON lines; a line that is a flat
//!   object of plain values is read by `PlainObject` into cells without
//!   building a `serde_json::Value`, any other line goes to serde_json as
//!   before. `ChunkLines` gives JSON lines their lines, checked as UTF-8 a
//!   chunk at a time.
//! - [`jsondoc`]: JSON arrays (and runs of documents, and an object
//!   wrapping an array) cut into records as they stream in, each read as
//!   a JSON line is: flat memory, as JSON lines.
//! - [`plain_number`] and [`plain_text`] (`parse::plain`, used here most)
//!   answer only for cells whose answer is certain (`-12.5`, `3e4` through
//!   fast-float2; a label with nothing to trim) and say "ask the full
//!   parser" for everything else.
//!
//! `tests/it/fast_lane_props.rs` checks all of it against the full readers.

use std::borrow::Cow;
use std::io::{Chain, Cursor, Read};

use mapped::{MappedFile, Source};
use memchr::{memchr2, memrchr};

use super::ParseError;
use super::formats::{CsvRows, delimiter_name};
use super::number::Decimal;
pub use super::plain::{plain_number, plain_text};
use super::rows::{Cells, Loc, PlainShape, Push, Rows, Warner, next_untaken};

mod bulk;
mod jsondoc;
mod jsonl;
mod mapped;
pub(crate) use jsondoc::{JsonDoc, JsonItems, read_json};
pub(crate) use jsonl::JsonlRows;

/// Bytes read from the input at a time.
const CHUNK: usize = 256 * 1024;

/// What the full reader gets after a hand-over: the unread bytes, then the
/// rest of the input.
type Rest<R> = CsvRows<Chain<Cursor<Vec<u8>>, Source<R>>>;

/// Input read ahead in big chunks and handed out as runs of complete
/// lines (the last line may lack its newline at the end of the input).
struct Chunks<R> {
    /// `None` once handed to a full reader.
    input: Option<Source<R>>,
    /// Bytes read from `input` so far.
    read: u64,
    /// Read but not yet taken: starts at a line start.
    raw: Vec<u8>,
    eof: bool,
    /// Bytes to read at a time ([`CHUNK`]; tests make it small).
    size: usize,
    /// The file being read and where in it the input began, when it is a
    /// regular file: read ahead through mapped windows ([`mapped`]).
    file: Option<(std::fs::File, u64)>,
    /// The file once mapping began, until it ends.
    map: Option<MappedFile>,
}

impl<R: Read> Chunks<R> {
    fn new(input: R) -> Self {
        Chunks {
            input: Some(Source::Stream(input)),
            read: 0,
            raw: Vec::new(),
            eof: false,
            size: CHUNK,
            file: None,
            map: None,
        }
    }

    /// The complete lines read so far, after reading at least [`CHUNK`]
    /// bytes (or up to the end); empty at the end. Take with `consume`.
    fn lines(&mut self) -> Result<&[u8], ParseError> {
        let mut raw = std::mem::take(&mut self.raw);
        let complete = self.fill(&mut raw);
        self.raw = raw;
        Ok(&self.raw[..complete?])
    }

    /// The next complete lines (as [`Self::lines`] gives them) moved into
    /// `buf` rather than copied: `buf`'s own allocation takes the rest.
    fn take_lines(&mut self, buf: &mut Vec<u8>) -> Result<(), ParseError> {
        buf.clear();
        std::mem::swap(&mut self.raw, buf);
        let complete = self.fill(buf)?;
        self.raw.extend_from_slice(&buf[complete..]);
        buf.truncate(complete);
        Ok(())
    }

    /// Reads into `raw` until it holds at least `size` bytes of complete
    /// lines, or the end; returns where its complete lines end.
    fn fill(&mut self, raw: &mut Vec<u8>) -> Result<usize, ParseError> {
        loop {
            let complete = if self.eof {
                raw.len()
            } else {
                memrchr(b'\n', raw).map_or(0, |i| i + 1)
            };
            if self.eof || (complete > 0 && raw.len() >= self.size) {
                return Ok(complete);
            }
            let Some(input) = self.input.as_mut() else {
                self.eof = true;
                continue;
            };
            // Room for a whole read: a read as large as the input's buffer
            // (see `cli`) then bypasses it, one copy fewer.
            raw.reserve(self.size);
            let n = input.by_ref().take(self.size as u64).read_to_end(raw)?;
            self.read += n as u64;
            self.eof = n < self.size;
        }
    }

    fn consume(&mut self, n: usize) {
        self.raw.drain(..n);
    }
}

/// Delimited text, fast while it is plain (see the module doc).
pub(crate) struct CsvLane<R: Read> {
    chunks: Chunks<R>,
    delimiter: u8,
    /// Complete plain lines, checked, being read from `pos`.
    text: String,
    pos: usize,
    /// The line a record being looked for starts on, once blank lines were
    /// skipped for it (the csv crate numbers a record by the line after the
    /// previous record, and so does this lane).
    first: Option<u64>,
    /// Lines consumed so far (the current row's line number).
    line: u64,
    /// The current row's fields, as ranges of `text`.
    fields: Vec<(usize, usize)>,
    /// The full reader once the input stopped being plain, and the line
    /// count before it.
    full: Option<(Rest<R>, u64)>,
    /// Threads reading plain rows ahead: `None` for one a core.
    pub(crate) workers: Option<usize>,
}

impl<R: Read> CsvLane<R> {
    pub(crate) fn new(input: R, delimiter: u8) -> Self {
        CsvLane {
            chunks: Chunks::new(input),
            delimiter,
            text: String::new(),
            pos: 0,
            first: None,
            line: 0,
            fields: Vec::new(),
            full: None,
            workers: None,
        }
    }

    /// The regular file the input reads and where in it the input began:
    /// read ahead through mapped windows rather than copied.
    pub(crate) fn map_file(&mut self, file: Option<(std::fs::File, u64)>) {
        self.chunks.file = file;
    }

    /// A lane reading `chunk` bytes at a time with `workers` threads, to
    /// put small inputs through the paths large ones take.
    #[cfg(test)]
    pub(crate) fn tuned(input: R, delimiter: u8, chunk: usize, workers: usize) -> Self {
        let mut lane = CsvLane::new(input, delimiter);
        lane.chunks.size = chunk.max(1);
        lane.workers = Some(workers);
        lane
    }

    /// Moves the next run of plain lines into `text`; false at the end of
    /// the input or when the full reader took over.
    fn refill(&mut self) -> Result<bool, ParseError> {
        let run = self.chunks.lines()?;
        if run.is_empty() {
            return Ok(false);
        }
        let clean = plain_prefix(run);
        if clean.is_empty() {
            self.hand_over();
            return Ok(false);
        }
        self.text.clear();
        self.text.push_str(clean);
        let n = clean.len();
        self.chunks.consume(n);
        self.pos = 0;
        Ok(true)
    }

    fn hand_over(&mut self) {
        if let Some(input) = self.chunks.input.take() {
            let unread = Cursor::new(std::mem::take(&mut self.chunks.raw));
            self.full = Some((CsvRows::new(unread.chain(input), self.delimiter), self.line));
        }
    }
}

/// The leading complete lines of `b` that hold no quote, no carriage
/// return and only valid UTF-8 (checked once here for all their cells).
fn plain_prefix(b: &[u8]) -> &str {
    let line_start = |at: usize| memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
    let end = memchr2(b'"', b'\r', b).map_or(b.len(), line_start);
    match std::str::from_utf8(&b[..end]) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&b[..line_start(e.valid_up_to())]).unwrap_or_default(),
    }
}

impl<R: Read> CsvLane<R> {
    /// Splits the next record of `text` into `fields`, skipping blank
    /// lines (no record in the csv crate either); `None` when `text` is
    /// used up.
    fn split_next(&mut self) -> Option<Loc> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() {
            let start = self.pos;
            let first = *self.first.get_or_insert(self.line + 1);
            self.line += 1;
            self.fields.clear();
            let (end, last) = split_line(bytes, start, self.delimiter, &mut self.fields);
            self.pos = end + 1;
            if end > start {
                self.fields.push((last, end));
                self.first = None;
                return Some(Loc::Line(first));
            }
        }
        None
    }
}

/// Pushes the fields of the line at `start` that end in `delimiter`;
/// returns where the line ends (its newline, or the end of `b`) and where
/// its last field starts. Eight bytes at a time: `memchr2` costs some fifty
/// instructions a call, two calls a row, and a byte loop ten a byte; this
/// about two a byte.
#[inline]
fn split_line(
    b: &[u8],
    start: usize,
    delimiter: u8,
    fields: &mut Vec<(usize, usize)>,
) -> (usize, usize) {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // 0x80 in each byte of `x` that is zero, and nowhere else.
    let zeros = |x: u64| !(((x & LOW7) + LOW7) | x | LOW7);
    let newlines = u64::from_ne_bytes([b'\n'; 8]);
    let delimiters = u64::from_ne_bytes([delimiter; 8]);
    let mut at = start;
    let mut i = start;
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(end) = split_16(b, &mut i, &mut at, delimiter, fields) {
        return (end, at);
    }
    while let Some(word) = b.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
        let x = u64::from_le_bytes(word);
        let mut hits = zeros(x ^ newlines) | zeros(x ^ delimiters);
        while hits != 0 {
            let j = i + (hits.trailing_zeros() / 8) as usize;
            if b[j] == b'\n' {
                return (j, at);
            }
            fields.push((at, j));
            at = j + 1;
            hits &= hits - 1;
        }
        i += 8;
    }
    for (j, &c) in b.iter().enumerate().skip(i) {
        if c == b'\n' {
            return (j, at);
        }
        if c == delimiter {
            fields.push((at, j));
            at = j + 1;
        }
    }
    (b.len(), at)
}

/// [`split_line`] sixteen bytes at a time (SSE2, which every x86-64 has:
/// one compare a byte kind for the sixteen, where eight bytes take some
/// ten instructions a kind), while sixteen are left: from `i`, the field
/// being read starting at `at`. The line's end when it is found, else
/// `i` and `at` where the rest is to be read.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn split_16(
    b: &[u8],
    i: &mut usize,
    at: &mut usize,
    delimiter: u8,
    fields: &mut Vec<(usize, usize)>,
) -> Option<usize> {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
    };
    while let Some(block) = b.get(*i..*i + 16) {
        // SAFETY: SSE2 is there (the cfg says so: x86-64's baseline), and
        // `block` is sixteen bytes long, which an unaligned load reads
        // wherever they are.
        let (newline, mut delims) = unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
            let of = |c: u8| _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u32;
            (of(b'\n'), of(delimiter))
        };
        if newline != 0 {
            // Only the delimiters before the line's end.
            delims &= (1 << newline.trailing_zeros()) - 1;
        }
        while delims != 0 {
            let j = *i + delims.trailing_zeros() as usize;
            fields.push((*at, j));
            *at = j + 1;
            delims &= delims - 1;
        }
        if newline != 0 {
            return Some(*i + newline.trailing_zeros() as usize);
        }
        *i += 16;
    }
    None
}

impl<R: Read> Rows for CsvLane<R> {
    fn next_row(&mut self, warn: &mut Warner) -> Result<Option<Loc>, ParseError> {
        loop {
            if let Some((full, before)) = &mut self.full {
                // Blank lines skipped before the hand-over count as the
                // csv crate would have counted them.
                let first = self.first.take();
                return Ok(full.next_row(warn)?.map(|loc| match loc {
                    Loc::Line(n) => Loc::Line(first.unwrap_or(n + *before)),
                    other => other,
                }));
            }
            if let Some(loc) = self.split_next() {
                return Ok(Some(loc));
            }
            if !self.refill()? && self.full.is_none() {
                return Ok(None);
            }
        }
    }
    fn next_row_after(
        &mut self,
        take: &mut dyn FnMut(&dyn Cells) -> bool,
        warn: &mut Warner,
    ) -> Result<Option<Loc>, ParseError> {
        // The bulk of a plain file: no reader state changes hands.
        loop {
            while let Some(loc) = self.split_next() {
                if !take(&*self) {
                    return Ok(Some(loc));
                }
            }
            if self.full.is_some() || !self.refill()? {
                break;
            }
        }
        // The rest, if any, through the full reader.
        next_untaken(self, take, warn)
    }
    fn current(&self) -> &dyn Cells {
        match &self.full {
            Some((full, _)) => full.current(),
            None => self,
        }
    }
    fn what(&self) -> String {
        delimiter_name(self.delimiter).to_string()
    }
    fn delimiter(&self) -> Option<u8> {
        Some(self.delimiter)
    }
    fn read_plain(
        &mut self,
        shape: &PlainShape,
        push: &mut Push<'_>,
        warn: &mut Warner,
    ) -> Result<(), ParseError> {
        self.read_plain_rows(shape, push, warn)
    }
}

/// A line of delimited text split into fields (ranges of `text`).
struct Line<'a> {
    text: &'a str,
    fields: &'a [(usize, usize)],
}

impl<'a> Line<'a> {
    fn field(&self, i: usize) -> Option<&'a str> {
        let &(a, b) = self.fields.get(i)?;
        self.text.get(a..b)
    }

    /// Field `i`'s bytes: cut at ASCII delimiters, so no look at where
    /// characters start is needed, as it is for [`Self::field`].
    fn field_bytes(&self, i: usize) -> Option<&'a [u8]> {
        let &(a, b) = self.fields.get(i)?;
        self.text.as_bytes().get(a..b)
    }
}

impl Cells for Line<'_> {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>> {
        self.field(i).map(Cow::Borrowed)
    }
    fn width(&self) -> usize {
        self.fields.len()
    }
    fn number(&self, i: usize, dec: Decimal) -> Option<f64> {
        plain_number(self.field(i)?, dec)
    }
}

impl<R: Read> CsvLane<R> {
    fn line(&self) -> Line<'_> {
        Line {
            text: &self.text,
            fields: &self.fields,
        }
    }
}

impl<R: Read> Cells for CsvLane<R> {
    fn raw(&self, i: usize) -> Option<Cow<'_, str>> {
        self.line().field(i).map(Cow::Borrowed)
    }
    fn width(&self) -> usize {
        self.fields.len()
    }
    fn number(&self, i: usize, dec: Decimal) -> Option<f64> {
        self.line().number(i, dec)
    }
}
