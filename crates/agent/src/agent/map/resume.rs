//! `--output FILE` made resumable: the file's whole lines are read first
//! and their `_key`s kept, a torn last line (a crash or SIGKILL mid-write)
//! is cut off, and the run appends only the records whose key is not there.
//! Each line is written whole and flushed, so what a rerun finds is exactly
//! what was answered: no record is lost or written twice. A failed
//! record's line (`error`, no `_key`) is taken out of the file by the
//! rerun, which tries that record again.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;

/// The keys already in `path` and the file opened for appending after its
/// last whole line.
pub fn open(path: &Path) -> std::io::Result<(HashSet<String>, File)> {
    let mut done = HashSet::new();
    let mut whole: u64 = 0;
    let mut failed = false;
    if let Ok(f) = File::open(path) {
        let mut r = BufReader::new(f);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            let n = r.read_until(b'\n', &mut buf)?;
            if n == 0 || buf.last() != Some(&b'\n') {
                break;
            }
            whole += n as u64;
            if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&buf)
                && let Some(k) = v.get("_key").and_then(|k| k.as_str())
            {
                done.insert(k.to_string());
            } else {
                failed = true;
            }
        }
    }
    if failed {
        whole = keep_answered(path, whole)?;
    }
    let mut f = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)?;
    f.set_len(whole)?;
    f.seek(SeekFrom::Start(whole))?;
    Ok((done, f))
}

/// Rewrites the first `len` bytes of `path` without its failed lines (a
/// new file renamed over the old, so a crash leaves one or the other);
/// the new length.
fn keep_answered(path: &Path, len: u64) -> std::io::Result<u64> {
    use std::io::{Read, Write};
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    let mut r = BufReader::new(File::open(path)?.take(len));
    let mut buf = Vec::new();
    let mut kept = 0u64;
    while r.read_until(b'\n', &mut buf)? > 0 {
        let answered = serde_json::from_slice::<serde_json::Value>(&buf)
            .is_ok_and(|v| v.get("_key").is_some_and(|k| k.is_string()));
        if answered {
            tmp.write_all(&buf)?;
            kept += buf.len() as u64;
        }
        buf.clear();
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys `open` finds in a file that held `text`, and what is left.
    fn reopened(text: &str) -> (HashSet<String>, String) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.jsonl");
        std::fs::write(&p, text).unwrap();
        let (done, _f) = open(&p).unwrap();
        (done, std::fs::read_to_string(&p).unwrap())
    }

    #[test]
    fn failed_lines_are_taken_out_to_be_tried_again() {
        let (done, left) = reopened("{\"_key\":\"a\"}\n{\"error\":{}}\n{\"_key\":\"b\"}\n");
        assert_eq!(done.len(), 2);
        assert_eq!(left, "{\"_key\":\"a\"}\n{\"_key\":\"b\"}\n");
    }

    #[test]
    fn a_torn_last_line_is_cut_and_keys_are_kept() {
        let (done, left) = reopened("{\"_key\":\"a\"}\n{\"_key\":\"b\"}\n{\"_key\":\"c");
        assert_eq!(done.len(), 2);
        assert!(done.contains("b") && !done.contains("c"));
        assert_eq!(left, "{\"_key\":\"a\"}\n{\"_key\":\"b\"}\n");
    }
}
