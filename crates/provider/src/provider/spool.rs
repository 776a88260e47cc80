//! Text of one answer that may outgrow memory: a model streaming for an
//! hour must not make gem-ask's footprint grow with it. A [`Spool`] keeps
//! the first [`SPILL_AT`] bytes in memory (almost every answer stays
//! there); past that everything goes to an unlinked temporary file, with a
//! small buffer in front of it, and is read back in pieces when the answer
//! is written to the session or sent back as history.

use std::fs::File;
use std::io::{self, Write};
use std::os::unix::fs::FileExt;

/// Answers shorter than this never touch the disk.
pub const SPILL_AT: usize = 256 << 10;

/// Once spilled, text is written to the file in pieces of about this size.
const PIECE: usize = 64 << 10;

/// Appendable text, in memory while small, on disk once large.
#[derive(Debug, Default)]
pub struct Spool {
    /// The whole text while not spilled; afterwards, what follows the
    /// file's `on_disk` bytes.
    tail: String,
    file: Option<File>,
    on_disk: u64,
}

impl Spool {
    pub fn new() -> Spool {
        Spool::default()
    }

    /// The text's length in bytes.
    pub fn len(&self) -> u64 {
        self.on_disk + self.tail.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether part of the text lives in the temporary file.
    pub fn spilled(&self) -> bool {
        self.file.is_some()
    }

    /// Appends `s`; an error is the temporary file's (a full disk).
    pub fn push_str(&mut self, s: &str) -> io::Result<()> {
        self.tail.push_str(s);
        let limit = if self.file.is_some() { PIECE } else { SPILL_AT };
        if self.tail.len() >= limit {
            self.flush_tail()?;
        }
        Ok(())
    }

    fn flush_tail(&mut self) -> io::Result<()> {
        let file = match &mut self.file {
            Some(f) => f,
            // tempfile() is unlinked at creation (O_TMPFILE where the
            // kernel has it): nothing is left behind, even after SIGKILL.
            None => self.file.insert(tempfile::tempfile()?),
        };
        file.write_all_at(self.tail.as_bytes(), self.on_disk)?;
        self.on_disk += self.tail.len() as u64;
        self.tail.clear();
        // Give back a buffer that grew past a piece while spilling.
        self.tail.shrink_to(PIECE * 2);
        Ok(())
    }

    /// Calls `f` with the text in order, in valid UTF-8 pieces of at most
    /// about [`PIECE`] bytes, reading the spilled part back from disk.
    pub fn for_each_piece(&self, mut f: impl FnMut(&str) -> io::Result<()>) -> io::Result<()> {
        if let Some(file) = &self.file {
            let mut buf = vec![0u8; PIECE];
            // Bytes of a character cut by the previous read.
            let mut carry = 0usize;
            let mut at = 0u64;
            while at < self.on_disk {
                let want = (PIECE - carry).min((self.on_disk - at) as usize);
                file.read_exact_at(&mut buf[carry..carry + want], at)?;
                at += want as u64;
                let filled = carry + want;
                let valid = match std::str::from_utf8(&buf[..filled]) {
                    Ok(s) => s.len(),
                    // A character cut at the end of the read: keep it for
                    // the next round. Only whole strings were written, so
                    // nothing else can be invalid.
                    Err(e) if e.error_len().is_none() => e.valid_up_to(),
                    Err(e) => return Err(io::Error::new(io::ErrorKind::InvalidData, e)),
                };
                let text = std::str::from_utf8(&buf[..valid]).expect("checked just above");
                f(text)?;
                buf.copy_within(valid..filled, 0);
                carry = filled - valid;
            }
            if carry > 0 {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the spooled answer ends inside a character",
                ));
            }
        }
        if !self.tail.is_empty() {
            f(&self.tail)?;
        }
        Ok(())
    }

    /// The whole text in memory: for the few callers that need it as one
    /// string (a summary, history that is sent again).
    pub fn to_text(&self) -> io::Result<String> {
        let mut s = String::with_capacity(usize::try_from(self.len()).unwrap_or(0));
        self.for_each_piece(|p| {
            s.push_str(p);
            Ok(())
        })?;
        Ok(s)
    }

    /// Writes the text as a JSON string, quotes included, byte for byte
    /// what `serde_json` writes for the same `String`.
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"\"")?;
        let mut escaped = Vec::with_capacity(PIECE + PIECE / 8);
        self.for_each_piece(|p| {
            escaped.clear();
            serde_json::to_writer(&mut escaped, p)?;
            // serde_json's own escaping, without its quotes.
            out.write_all(&escaped[1..escaped.len() - 1])
        })?;
        out.write_all(b"\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tricky() -> String {
        // Quotes, backslashes, every control character, multi-byte
        // characters that land across read boundaries.
        let mut s = String::new();
        for i in 0..2000u32 {
            s.push_str("line \"quoted\" \\ é 漢字 🎉 ");
            s.push(char::from_u32(i % 0x20).unwrap());
            s.push('\u{7f}');
        }
        s
    }

    #[test]
    fn small_text_stays_in_memory() {
        let mut sp = Spool::new();
        sp.push_str("hello ").unwrap();
        sp.push_str("world").unwrap();
        assert!(!sp.spilled());
        assert_eq!(sp.to_text().unwrap(), "hello world");
        let mut out = Vec::new();
        sp.write_json(&mut out).unwrap();
        assert_eq!(out, br#""hello world""#);
    }

    #[test]
    fn large_text_spills_and_reads_back_whole() {
        let piece = tricky();
        let mut sp = Spool::new();
        let mut whole = String::new();
        while whole.len() < 3 * SPILL_AT {
            sp.push_str(&piece).unwrap();
            whole.push_str(&piece);
        }
        // One odd-sized piece so the tail is not aligned.
        sp.push_str("fin ✓").unwrap();
        whole.push_str("fin ✓");
        assert!(sp.spilled());
        assert_eq!(sp.len(), whole.len() as u64);
        assert!(sp.tail.len() < PIECE + piece.len());
        assert_eq!(sp.to_text().unwrap(), whole);
        let mut out = Vec::new();
        sp.write_json(&mut out).unwrap();
        assert_eq!(out, serde_json::to_vec(&whole).unwrap());
    }

    #[test]
    fn pieces_are_whole_characters() {
        let mut sp = Spool::new();
        let emoji = "🎉".repeat(SPILL_AT / 3);
        sp.push_str(&emoji).unwrap();
        sp.push_str(&emoji).unwrap();
        assert!(sp.spilled());
        let mut n = 0;
        sp.for_each_piece(|p| {
            assert!(p.len() <= PIECE + emoji.len());
            n += p.chars().count();
            Ok(())
        })
        .unwrap();
        assert_eq!(n, 2 * (SPILL_AT / 3));
    }
}
