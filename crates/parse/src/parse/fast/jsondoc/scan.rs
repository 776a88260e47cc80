//! A JSON text's structure scanned as it streams in, without parsing it:
//! where the next value ends (brackets counted, strings and their escapes
//! skipped), so that an array's elements (or a run of documents) can be
//! read one at a time while only the element being read is in memory.
//! The scanner judges nothing but the brackets and quotes: each value it
//! cuts out is parsed by the JSON-lines reader, which says what is wrong
//! with it.

use std::io::{self, Read};
use std::ops::Range;

use memchr::memchr2;

/// Bytes read from the input at a time.
const CHUNK: usize = 64 * 1024;

/// An input and the bytes of it read but not yet consumed.
pub(crate) struct Scan<R> {
    input: R,
    buf: Vec<u8>,
    /// The next byte to read in `buf`.
    pos: usize,
    /// Bytes from here on are kept though consumed, to be read again.
    hold: Option<usize>,
    eof: bool,
    /// Where `buf` begins in the input.
    base: u64,
}

/// Where a value ends, as [`Scan::value`] found it.
#[derive(Debug, PartialEq)]
pub(crate) enum End {
    /// The value's bytes, in [`Scan::bytes`]; not yet consumed.
    At(Range<usize>),
    /// It is longer than the limit asked for; nothing is consumed.
    TooLong,
    /// The input ends inside it (a truncated document).
    Cut,
}

/// Whether a byte is white space between JSON tokens.
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

impl<R: Read> Scan<R> {
    pub(crate) fn new(input: R) -> Self {
        Scan {
            input,
            buf: Vec::new(),
            pos: 0,
            hold: None,
            eof: false,
            base: 0,
        }
    }

    /// Reads more of the input into `buf`, first dropping what is consumed
    /// and not held; false at the end of the input.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        let drop = self.hold.map_or(self.pos, |h| h.min(self.pos));
        if drop > 0 {
            self.buf.drain(..drop);
            self.pos -= drop;
            self.hold = self.hold.map(|h| h - drop);
            self.base += drop as u64;
        }
        let n = self
            .input
            .by_ref()
            .take(CHUNK as u64)
            .read_to_end(&mut self.buf)?;
        self.eof = n < CHUNK;
        Ok(n > 0)
    }

    /// The next byte that is not white space, not consumed; `None` at the
    /// end of the input.
    pub(crate) fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            while let Some(&c) = self.buf.get(self.pos) {
                if !is_ws(c) {
                    return Ok(Some(c));
                }
                self.pos += 1;
            }
            if !self.fill()? {
                return Ok(None);
            }
        }
    }

    /// Consumes the byte [`Self::peek`] gave.
    pub(crate) fn bump(&mut self) {
        self.pos += 1;
    }

    /// Consumes up to `end` (the end of a value [`Self::value`] found).
    pub(crate) fn consume_to(&mut self, end: usize) {
        self.pos = end;
    }

    /// The bytes read so far, for a range [`Self::value`] gave.
    pub(crate) fn bytes(&self, r: Range<usize>) -> &[u8] {
        &self.buf[r]
    }

    /// Where in the input the next byte lies, for messages.
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Keeps every byte from the next one on until [`Self::release`] (or
    /// [`Self::into_held`]), however much is consumed meanwhile.
    pub(crate) fn hold(&mut self) {
        self.hold = Some(self.pos);
    }

    /// Back to the first byte held, if any.
    pub(crate) fn rewind(&mut self) {
        if let Some(h) = self.hold {
            self.pos = h;
        }
    }

    pub(crate) fn release(&mut self) {
        self.hold = None;
    }

    /// The held bytes and the rest of the input, to be read whole.
    pub(crate) fn into_held(self) -> (Vec<u8>, R) {
        let from = self.hold.unwrap_or(self.pos);
        let mut buf = self.buf;
        buf.drain(..from);
        (buf, self.input)
    }

    /// Where the value at the next byte (after [`Self::peek`]) ends: an
    /// object or array at its closing bracket, a string at its closing
    /// quote, anything else (a number, `true`, a stray byte) before the
    /// next white space or bracket, comma, colon or quote, and a stray `,`
    /// `:` `]` `}` is a value of its own one byte long, which no JSON
    /// parser takes. Nothing is consumed; `limit` caps how long it may be.
    pub(crate) fn value(&mut self, limit: Option<usize>) -> io::Result<End> {
        // `at` counts from `self.pos`, which `fill` may move.
        let mut at = 0;
        let mut depth = 0usize;
        let mut in_string = false;
        let first = match self.buf.get(self.pos) {
            Some(&c) => c,
            None => return Ok(End::Cut),
        };
        let scalar = !matches!(first, b'{' | b'[' | b'"');
        if scalar && matches!(first, b',' | b':' | b']' | b'}') {
            return Ok(End::At(self.pos..self.pos + 1));
        }
        loop {
            let end = self.scan(&mut at, &mut depth, &mut in_string, scalar);
            if let Some(end) = end {
                return Ok(End::At(self.pos..self.pos + end));
            }
            if limit.is_some_and(|l| at > l) {
                return Ok(End::TooLong);
            }
            if !self.fill()? {
                return Ok(if scalar {
                    End::At(self.pos..self.buf.len())
                } else {
                    End::Cut
                });
            }
        }
    }

    /// [`Self::value`]'s scan of the bytes read, from `at` (counted from
    /// `pos`) on: the value's length once it ends in them.
    fn scan(
        &self,
        at: &mut usize,
        depth: &mut usize,
        in_string: &mut bool,
        scalar: bool,
    ) -> Option<usize> {
        let b = &self.buf[self.pos..];
        if scalar {
            while let Some(&c) = b.get(*at) {
                if is_ws(c) || matches!(c, b',' | b':' | b'[' | b']' | b'{' | b'}' | b'"') {
                    return Some(*at);
                }
                *at += 1;
            }
            return None;
        }
        while *at < b.len() {
            if *in_string {
                // A backslash and the byte after it are skipped together;
                // one at the very end of what is read waits for more.
                match memchr2(b'"', b'\\', &b[*at..]) {
                    Some(i) if b[*at + i] == b'\\' => {
                        if *at + i + 1 >= b.len() {
                            *at += i;
                            return None;
                        }
                        *at += i + 2;
                    }
                    Some(i) => {
                        *at += i + 1;
                        *in_string = false;
                        if *depth == 0 {
                            return Some(*at);
                        }
                    }
                    None => {
                        *at = b.len();
                        return None;
                    }
                }
                continue;
            }
            match b[*at] {
                b'"' => *in_string = true,
                b'{' | b'[' => *depth += 1,
                b'}' | b']' => {
                    *depth = depth.saturating_sub(1);
                    if *depth == 0 {
                        *at += 1;
                        return Some(*at);
                    }
                }
                _ => {}
            }
            *at += 1;
        }
        None
    }

    /// Skips the value at the next byte without keeping it in memory;
    /// false when the input ends inside it.
    pub(crate) fn skip_value(&mut self) -> io::Result<bool> {
        match self.value(Some(CHUNK))? {
            End::At(r) => {
                self.pos = r.end;
                Ok(true)
            }
            End::Cut => Ok(false),
            // Too long to hold: walk it a chunk at a time.
            End::TooLong => self.walk_long(),
        }
    }

    /// [`Self::skip_value`] of a long container or string, consuming as it
    /// goes.
    fn walk_long(&mut self) -> io::Result<bool> {
        let scalar = !matches!(self.buf.get(self.pos), Some(b'{' | b'[' | b'"'));
        let mut depth = 0usize;
        let mut in_string = false;
        let mut at = 0;
        loop {
            if let Some(end) = self.scan(&mut at, &mut depth, &mut in_string, scalar) {
                self.pos += end;
                return Ok(true);
            }
            // Everything scanned so far is consumed: only the state is kept.
            self.pos += at;
            at = 0;
            if !self.fill()? {
                return Ok(scalar);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of a run of documents, as text.
    fn values(text: &str) -> Vec<String> {
        let mut s = Scan::new(text.as_bytes());
        let mut out = Vec::new();
        while s.peek().unwrap().is_some() {
            match s.value(None).unwrap() {
                End::At(r) => {
                    out.push(String::from_utf8(s.bytes(r.clone()).to_vec()).unwrap());
                    s.consume_to(r.end);
                }
                other => {
                    out.push(format!("{other:?}"));
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn values_end_where_json_says() {
        assert_eq!(
            values(r#" {"a":"}]\"{"} [1,[2]] "x\\" 12 true,null"#),
            [
                r#"{"a":"}]\"{"}"#,
                "[1,[2]]",
                r#""x\\""#,
                "12",
                "true",
                ",",
                "null"
            ]
        );
        assert_eq!(values(r#"{"a": [1, 2"#), ["Cut"]);
        assert_eq!(values("]"), ["]"]);
    }

    #[test]
    fn long_values_are_cut_or_skipped_in_small_reads() {
        let long = format!("[{}0] 7", "1,".repeat(100_000));
        let mut s = Scan::new(long.as_bytes());
        s.peek().unwrap();
        assert_eq!(s.value(Some(1000)).unwrap(), End::TooLong);
        assert!(s.skip_value().unwrap());
        assert_eq!(s.peek().unwrap(), Some(b'7'));
        // Consumed as it went: what is left in memory is about a chunk.
        assert!(s.buf.len() <= 2 * CHUNK, "{}", s.buf.len());
        let escaped = format!("\"{}\" 8", "\\\"".repeat(100_000));
        let mut s = Scan::new(escaped.as_bytes());
        s.peek().unwrap();
        assert!(s.skip_value().unwrap());
        assert_eq!(s.peek().unwrap(), Some(b'8'));
    }

    #[test]
    fn held_bytes_come_back() {
        let mut s = Scan::new(&b"  {\"a\": 1} rest"[..]);
        s.peek().unwrap();
        s.hold();
        s.bump();
        s.peek().unwrap();
        assert!(s.skip_value().unwrap());
        let (held, _) = s.into_held();
        assert_eq!(held, b"{\"a\": 1} rest");
    }
}
