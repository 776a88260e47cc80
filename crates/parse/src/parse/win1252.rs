//! Windows-1252 (and so Latin-1) text told from UTF-8 and decoded: a
//! prefix that is not UTF-8, whose bytes past ASCII never form a UTF-8
//! character, is read as 1252 (what `iconv -f WINDOWS-1252 -t UTF-8`
//! does), the rest of the input decoded as it streams. UTF-8 input is
//! never touched: the check is on the prefix the sniffer already read.

use std::io::{self, BufRead, Read};

/// The characters of bytes 0x80-0x9F in Windows-1252; the five it leaves
/// unassigned are the C1 controls of the same number, as WHATWG decodes.
const HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
];

/// The character of one byte in Windows-1252.
fn char_of(b: u8) -> char {
    match b {
        0x80..=0x9f => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// The line (from 1) of the first byte that is not UTF-8 when `prefix`
/// reads as Windows-1252 and not as UTF-8; `None` for UTF-8 text (a
/// character cut at the prefix's end included) and for text that mixes
/// UTF-8 characters with stray bytes.
pub(crate) fn first_line(prefix: &[u8]) -> Option<usize> {
    let mut first = None;
    let mut rest = prefix;
    let at = loop {
        let e = match std::str::from_utf8(rest) {
            Ok(s) if s.is_ascii() => break first?,
            Ok(_) => return None,
            Err(e) => e,
        };
        let (valid, after) = rest.split_at(e.valid_up_to());
        if !valid.is_ascii() {
            return None;
        }
        if e.error_len().is_none() {
            // Cut at the prefix's end: a UTF-8 character or a stray byte.
            break first?;
        }
        first.get_or_insert(prefix.len() - after.len());
        rest = &after[1..];
    };
    Some(prefix[..at].iter().filter(|&&b| b == b'\n').count() + 1)
}

/// `bytes` decoded as Windows-1252, in UTF-8.
pub(crate) fn decode(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    let mut utf8 = [0u8; 4];
    for &b in bytes {
        if b.is_ascii() {
            out.push(b);
        } else {
            out.extend_from_slice(char_of(b).encode_utf8(&mut utf8).as_bytes());
        }
    }
    out
}

/// A reader of Windows-1252 text that gives it in UTF-8.
pub(crate) struct Decoder<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
}

impl<R: BufRead> Decoder<R> {
    pub(crate) fn new(inner: R) -> Self {
        Decoder {
            inner,
            buf: Vec::new(),
            pos: 0,
        }
    }
}

impl<R: BufRead> Read for Decoder<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let have = self.fill_buf()?;
            let n = have.len().min(out.len());
            out[..n].copy_from_slice(&have[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Decoder<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.buf.len() {
            let raw = self.inner.fill_buf()?;
            let n = raw.len();
            self.buf = decode(raw);
            self.pos = 0;
            self.inner.consume(n);
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.buf.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn told_from_utf8() {
        assert_eq!(first_line(b"name,v\ncaf\xe9,1\n"), Some(2));
        assert_eq!(first_line(b"a\nb\nx\x80\xe9\n"), Some(3));
        assert_eq!(first_line("name,v\ncafé,1\n".as_bytes()), None);
        // A UTF-8 character cut by the end of the prefix is UTF-8.
        assert_eq!(first_line(b"name,v\ncaf\xc3"), None);
        assert_eq!(first_line(b"caf\xc3\xa9,\xe9"), None);
        assert_eq!(first_line(b"plain ascii"), None);
    }

    #[test]
    fn decodes() {
        assert_eq!(decode(b"caf\xe9 \x80 \x93q\x94"), "café € “q”".as_bytes());
        let mut s = String::new();
        Decoder::new(&b"x\xe9\n"[..])
            .read_to_string(&mut s)
            .unwrap();
        assert_eq!(s, "xé\n");
    }
}
