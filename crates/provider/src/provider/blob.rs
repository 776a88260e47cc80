//! Attachment bytes in a request body without holding them twice. A
//! request is built as a JSON value in which each inline attachment's
//! `data` is a placeholder ([`Blobs::placeholder`]): a word no prompt can
//! guess (a random nonce of the process, then the blob's number). The
//! value is serialized small, then [`Blobs::splice`] writes the final
//! body once, with each placeholder replaced by the base64 of its bytes
//! read from their file a piece at a time: the body holds the encoding
//! once, and nothing else holds the bytes.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::OnceLock;

use base64::Engine;

/// Where a blob's bytes are.
#[derive(Debug, Clone)]
pub enum Source {
    /// A file, read whole.
    File(PathBuf),
    /// Bytes in memory (an MCP tool's image).
    Bytes(std::sync::Arc<[u8]>),
}

/// The blobs of one request body.
#[derive(Debug, Clone, Default)]
pub struct Blobs {
    blobs: Vec<(Source, u64)>,
}

/// This process's nonce, so a placeholder cannot be typed by anyone who
/// has not seen one.
fn nonce() -> &'static str {
    static NONCE: OnceLock<String> = OnceLock::new();
    NONCE.get_or_init(|| {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(std::process::id());
        let a = h.finish();
        h.write_u64(a);
        format!("{a:016x}{:016x}", h.finish())
    })
}

fn prefix() -> String {
    format!("gemline-blob-{}-", nonce())
}

/// Base64 characters of `n` bytes (padded).
pub fn encoded_len(n: u64) -> u64 {
    n.div_ceil(3) * 4
}

impl Blobs {
    pub fn is_empty(&self) -> bool {
        self.blobs.is_empty()
    }

    /// Registers `source` of `len` bytes; the word to put where its
    /// base64 goes.
    pub fn placeholder(&mut self, source: Source, len: u64) -> String {
        self.blobs.push((source, len));
        format!("{}{}", prefix(), self.blobs.len() - 1)
    }

    /// `json` (a serialized body) with every placeholder replaced by its
    /// blob's base64. A blob whose file changed size since it was
    /// registered is an error, not a body of the wrong length.
    pub fn splice(&self, json: Vec<u8>) -> io::Result<Vec<u8>> {
        if self.blobs.is_empty() {
            return Ok(json);
        }
        let prefix = prefix();
        let prefix = prefix.as_bytes();
        let extra: u64 = self.blobs.iter().map(|(_, n)| encoded_len(*n)).sum();
        let mut out = Vec::with_capacity(json.len() + usize::try_from(extra).unwrap_or(0));
        let mut rest = &json[..];
        while let Some(at) = memchr::memmem::find(rest, prefix) {
            out.extend_from_slice(&rest[..at]);
            let digits = rest[at + prefix.len()..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let num = &rest[at + prefix.len()..at + prefix.len() + digits];
            let index: Option<usize> = std::str::from_utf8(num).ok().and_then(|s| s.parse().ok());
            match index.and_then(|i| self.blobs.get(i)) {
                Some((source, len)) => encode_into(source, *len, &mut out)?,
                None => out.extend_from_slice(&rest[at..at + prefix.len() + digits]),
            }
            rest = &rest[at + prefix.len() + digits..];
        }
        out.extend_from_slice(rest);
        Ok(out)
    }
}

/// Appends the base64 of `source` (`len` bytes) to `out`, reading a file
/// in pieces of a multiple of 3 bytes so the pieces' encodings join.
fn encode_into(source: &Source, len: u64, out: &mut Vec<u8>) -> io::Result<()> {
    let engine = &base64::engine::general_purpose::STANDARD;
    let mut file = match source {
        Source::Bytes(b) => {
            let start = out.len();
            out.resize(start + b.len().div_ceil(3) * 4, 0);
            let n = engine
                .encode_slice(b, &mut out[start..])
                .map_err(io::Error::other)?;
            out.truncate(start + n);
            return Ok(());
        }
        Source::File(path) => File::open(path)?,
    };
    let mut buf = vec![0u8; 3 * 21_846];
    let mut total = 0u64;
    loop {
        let mut filled = 0;
        while filled < buf.len() {
            let n = file.read(&mut buf[filled..])?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        if filled == 0 {
            break;
        }
        total += filled as u64;
        let start = out.len();
        out.resize(start + filled.div_ceil(3) * 4, 0);
        let n = engine
            .encode_slice(&buf[..filled], &mut out[start..])
            .map_err(io::Error::other)?;
        out.truncate(start + n);
        if filled < buf.len() {
            break;
        }
    }
    if total != len {
        return Err(io::Error::other(format!(
            "the attachment changed while it was sent ({len} bytes became {total})"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_become_the_base64_of_their_blobs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.bin");
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        let mut blobs = Blobs::default();
        let a = blobs.placeholder(Source::File(path.clone()), bytes.len() as u64);
        let b = blobs.placeholder(Source::Bytes(b"hi!?".to_vec().into()), 4);
        let body =
            json!({"parts": [{"inlineData": {"data": a}}, {"url": format!("data:x;base64,{b}")}]});
        let out = blobs.splice(serde_json::to_vec(&body).unwrap()).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let engine = &base64::engine::general_purpose::STANDARD;
        assert_eq!(v["parts"][0]["inlineData"]["data"], engine.encode(&bytes));
        assert_eq!(v["parts"][1]["url"], "data:x;base64,aGkhPw==");
        // The room the encoding needs was taken once: no growth, no copy.
        assert!(out.capacity() - out.len() < 200, "{}", out.capacity());
        // A file that changed is refused.
        std::fs::write(&path, b"short").unwrap();
        assert!(blobs.splice(serde_json::to_vec(&body).unwrap()).is_err());
    }

    #[test]
    fn a_guessed_word_is_left_alone() {
        let blobs = Blobs::default();
        let text = br#"{"text":"gemline-blob-0000-0"}"#.to_vec();
        assert_eq!(blobs.splice(text.clone()).unwrap(), text);
        let mut one = Blobs::default();
        let p = one.placeholder(Source::Bytes(b"x".to_vec().into()), 1);
        let other = p.replace(nonce(), "feedfeedfeedfeedfeedfeedfeedfeed");
        let body = format!(r#"{{"text":"{other}"}}"#).into_bytes();
        assert_eq!(one.splice(body.clone()).unwrap(), body);
    }
}
