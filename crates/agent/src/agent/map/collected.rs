//! A batch job's answers, kept on disk by key so that collecting a job of
//! a million requests holds none of them in memory. Each answer is one
//! JSON line of a data file, in the order the job's results come (which
//! is not the input's); an index file of fixed slots (open addressing, at
//! most half full) maps a key's hash to its line's offset and length. The
//! writer then reads the records in input order and looks each key up:
//! two reads at a known place, served by the page cache, whatever the
//! job's size. Memory is a buffer and the few strings of one lookup.

use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, BufWriter, Seek, Write};
use std::os::unix::fs::FileExt;

use serde_json::{Value, json};

use super::run::{Answered, Answers};
use crate::provider::Usage;

/// A slot: the line's offset plus one (0 is an empty slot), its length.
const SLOT: u64 = 16;

/// The answers being written, before the index is built.
pub struct Builder {
    data: BufWriter<File>,
    count: u64,
}

impl Builder {
    pub fn new() -> std::io::Result<Builder> {
        Ok(Builder {
            data: BufWriter::with_capacity(256 << 10, tempfile::tempfile()?),
            count: 0,
        })
    }

    /// Keeps `key`'s answer (a later one for the same key is not seen).
    pub fn add(&mut self, key: &str, answer: &Answered) -> std::io::Result<()> {
        let line = match answer {
            Ok((text, u)) => json!({"k": key, "t": text,
                "u": [u.prompt, u.candidates, u.thoughts, u.total, u.cached]}),
            Err((kind, message)) => json!({"k": key, "e": [kind, message]}),
        };
        serde_json::to_writer(&mut self.data, &line)?;
        self.data.write_all(b"\n")?;
        self.count += 1;
        Ok(())
    }

    /// Builds the index over the lines written; a key not in it gets
    /// `missing`.
    pub fn finish(self, missing: (&'static str, String)) -> std::io::Result<Collected> {
        let mut data = self.data.into_inner().map_err(|e| e.into_error())?;
        data.flush()?;
        let slots = (self.count * 2).next_power_of_two().max(2);
        let index = tempfile::tempfile()?;
        index.set_len(slots * SLOT)?;
        data.rewind()?;
        let mut reader = BufReader::with_capacity(256 << 10, &data);
        let (mut offset, mut line) = (0u64, Vec::new());
        loop {
            line.clear();
            let n = reader.read_until(b'\n', &mut line)? as u64;
            if n == 0 {
                break;
            }
            let key = key_of_line(&line);
            let mut slot = slot_of(&key, slots);
            loop {
                let (at, _) = read_slot(&index, slot)?;
                if at == 0 {
                    let mut s = [0u8; SLOT as usize];
                    s[..8].copy_from_slice(&(offset + 1).to_le_bytes());
                    s[8..].copy_from_slice(&n.to_le_bytes());
                    index.write_all_at(&s, slot * SLOT)?;
                    break;
                }
                slot = (slot + 1) % slots;
            }
            offset += n;
        }
        Ok(Collected {
            data,
            index,
            slots,
            missing,
        })
    }
}

/// A job's answers by key; a key it has no answer for gets `missing`.
pub struct Collected {
    data: File,
    index: File,
    slots: u64,
    missing: (&'static str, String),
}

impl Collected {
    /// No answers: each key gets `missing`.
    pub fn none(missing: (&'static str, String)) -> std::io::Result<Collected> {
        Builder::new()?.finish(missing)
    }

    fn find(&self, key: &str) -> std::io::Result<Option<Value>> {
        let mut slot = slot_of(key, self.slots);
        loop {
            let (at, len) = read_slot(&self.index, slot)?;
            if at == 0 {
                return Ok(None);
            }
            let mut line = vec![0u8; len as usize];
            self.data.read_exact_at(&mut line, at - 1)?;
            let v: Value = serde_json::from_slice(&line).map_err(std::io::Error::other)?;
            if v["k"] == key {
                return Ok(Some(v));
            }
            slot = (slot + 1) % self.slots;
        }
    }
}

impl Answers for Collected {
    fn get(&self, key: &str) -> Answered {
        match self.find(key) {
            Ok(Some(v)) => answer_of(&v),
            Ok(None) => Err(self.missing.clone()),
            Err(e) => Err(("other", format!("reading the job's answers back: {e}"))),
        }
    }
}

fn read_slot(index: &File, slot: u64) -> std::io::Result<(u64, u64)> {
    let mut s = [0u8; SLOT as usize];
    index.read_exact_at(&mut s, slot * SLOT)?;
    let at = u64::from_le_bytes(s[..8].try_into().unwrap_or_default());
    let len = u64::from_le_bytes(s[8..].try_into().unwrap_or_default());
    Ok((at, len))
}

fn slot_of(key: &str, slots: u64) -> u64 {
    // SipHash with fixed keys: the same slot for a key in one process.
    let mut h = std::hash::DefaultHasher::new();
    key.hash(&mut h);
    h.finish() & (slots - 1)
}

fn key_of_line(line: &[u8]) -> String {
    #[derive(serde::Deserialize)]
    struct K {
        k: String,
    }
    serde_json::from_slice::<K>(line)
        .map(|k| k.k)
        .unwrap_or_default()
}

fn answer_of(v: &Value) -> Answered {
    if let Some(e) = v.get("e") {
        let kind = kind_of(e[0].as_str().unwrap_or_default());
        return Err((kind, e[1].as_str().unwrap_or_default().to_string()));
    }
    let n = |i: usize| v["u"][i].as_u64().unwrap_or(0);
    let usage = Usage {
        prompt: n(0),
        candidates: n(1),
        thoughts: n(2),
        total: n(3),
        cached: n(4),
    };
    Ok((v["t"].as_str().unwrap_or_default().to_string(), usage))
}

/// An error's type as written, back to the one of [`super::run::error_type`].
fn kind_of(s: &str) -> &'static str {
    const KINDS: &[&str] = &[
        "api",
        "rate_limited",
        "connection",
        "stream_cut",
        "blocked",
        "interrupted",
        "batch_missing",
        "batch_expired",
        "batch_cancelled",
        "batch_failed",
    ];
    KINDS.iter().find(|k| **k == s).copied().unwrap_or("other")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(n: u64) -> Usage {
        Usage {
            prompt: n,
            candidates: 1,
            thoughts: 0,
            total: n + 1,
            cached: 0,
        }
    }

    #[test]
    fn each_key_finds_its_own_answer_and_an_unknown_one_is_missing() {
        let mut b = Builder::new().unwrap();
        for i in (0..5000u64).rev() {
            let a = if i % 7 == 0 {
                Err(("api", format!("no {i}")))
            } else {
                Ok((format!("answer {i}\nwith \"quotes\""), usage(i)))
            };
            b.add(&format!("key{i}"), &a).unwrap();
        }
        let c = b.finish(("batch_missing", "none".into())).unwrap();
        for i in 0..5000u64 {
            let got = c.get(&format!("key{i}"));
            if i % 7 == 0 {
                assert_eq!(got, Err(("api", format!("no {i}"))));
            } else {
                assert_eq!(got, Ok((format!("answer {i}\nwith \"quotes\""), usage(i))));
            }
        }
        assert_eq!(c.get("key5000"), Err(("batch_missing", "none".into())));
        let empty = Collected::none(("batch", "no job".into())).unwrap();
        assert_eq!(empty.get("x"), Err(("batch", "no job".into())));
    }

    /// Peak memory of collecting a million answers, for the report:
    /// `/usr/bin/time -v cargo test -p gemline-agent --lib
    /// collected::tests::a_million -- --ignored`.
    #[test]
    #[ignore]
    fn a_million_answers_are_collected_and_read_back_in_order() {
        let n = 1_000_000u64;
        let mut b = Builder::new().unwrap();
        for i in (0..n).rev() {
            let a = Ok((format!("label {}", i % 5), usage(i)));
            b.add(&format!("{i:032x}"), &a).unwrap();
        }
        let c = b.finish(("batch_missing", "none".into())).unwrap();
        for i in 0..n {
            let (t, u) = c.get(&format!("{i:032x}")).unwrap();
            assert_eq!(
                (t.as_str(), u.prompt),
                (format!("label {}", i % 5).as_str(), i)
            );
        }
    }
}
