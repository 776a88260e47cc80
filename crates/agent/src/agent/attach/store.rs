//! Attachment bytes kept for a session's later turns, by content:
//! `$XDG_DATA_HOME/gemline/attachments/<sha256>`, files mode 0600 in a
//! directory of mode 0700 (they hold what the user attached, as sessions
//! hold their prompts). A follow-up turn that resends an inline
//! attachment reads it from here, whatever became of the original file;
//! a file is written once, through a temporary file renamed into place.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// The store's directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

/// The hex SHA-256 of a file and its length, read a piece at a time.
pub fn hash_file(path: &Path) -> io::Result<(String, u64)> {
    let mut f = File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 64 << 10];
    let mut n = 0u64;
    loop {
        let k = f.read(&mut buf)?;
        if k == 0 {
            break;
        }
        h.update(&buf[..k]);
        n += k as u64;
    }
    Ok((hex(&h.finalize()), n))
}

pub fn hash_bytes(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A SHA-256 in hex: the only names the store reads (a session file's
/// word is not trusted to name a path).
pub fn valid_hash(h: &str) -> bool {
    h.len() == 64
        && h.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl Store {
    /// The store beside the sessions directory.
    pub fn open(sessions_dir: &Path) -> Store {
        let base = sessions_dir.parent().unwrap_or(sessions_dir);
        Store {
            dir: base.join("attachments"),
        }
    }

    pub fn in_dir(dir: PathBuf) -> Store {
        Store { dir }
    }

    /// Where the bytes of `sha256` are kept (whether or not they are).
    pub fn path(&self, sha256: &str) -> Option<PathBuf> {
        valid_hash(sha256).then(|| self.dir.join(sha256))
    }

    pub fn has(&self, sha256: &str) -> bool {
        self.path(sha256).is_some_and(|p| p.is_file())
    }

    fn make_dir(&self) -> io::Result<()> {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.dir)
    }

    /// Keeps a copy of `src` (whose hash is `sha256`).
    pub fn put_file(&self, src: &Path, sha256: &str) -> io::Result<PathBuf> {
        let dest = self
            .path(sha256)
            .ok_or_else(|| io::Error::other("not a SHA-256"))?;
        if dest.is_file() {
            return Ok(dest);
        }
        self.make_dir()?;
        let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
        io::copy(&mut File::open(src)?, tmp.as_file_mut())?;
        tmp.persist(&dest).map_err(|e| e.error)?;
        Ok(dest)
    }

    /// Keeps `bytes`; their hash.
    pub fn put_bytes(&self, bytes: &[u8]) -> io::Result<String> {
        let sha = hash_bytes(bytes);
        let dest = self.dir.join(&sha);
        if !dest.is_file() {
            self.make_dir()?;
            let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
            tmp.write_all(bytes)?;
            tmp.persist(&dest).map_err(|e| e.error)?;
        }
        Ok(sha)
    }
}

/// Copies `head` then the rest of `rest` into a new temporary file in
/// `dir` (the store's, or the system's), hashing as it goes: stdin
/// becomes a file without being held in memory. At most `max` bytes; more
/// is `Ok(None)`.
pub fn spool(
    dir: Option<&Path>,
    head: &[u8],
    rest: &mut dyn Iterator<Item = io::Result<Vec<u8>>>,
    max: u64,
) -> io::Result<Option<(tempfile::NamedTempFile, String, u64)>> {
    let mut tmp = match dir {
        Some(d) => {
            fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(d)?;
            tempfile::NamedTempFile::new_in(d)?
        }
        None => tempfile::NamedTempFile::new()?,
    };
    let mut h = Sha256::new();
    let mut n = 0u64;
    for piece in std::iter::once(Ok(head.to_vec())).chain(rest) {
        let piece = piece?;
        n += piece.len() as u64;
        if n > max {
            return Ok(None);
        }
        h.update(&piece);
        tmp.write_all(&piece)?;
    }
    tmp.flush()?;
    Ok(Some((tmp, hex(&h.finalize()), n)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn bytes_are_kept_by_their_hash_privately() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::in_dir(dir.path().join("attachments"));
        let sha = store.put_bytes(b"abc").unwrap();
        assert_eq!(
            sha,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(store.has(&sha));
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&store.path(&sha).unwrap()), 0o600);
        assert_eq!(mode(&dir.path().join("attachments")), 0o700);
        // A session's word is no path.
        assert_eq!(store.path("../../etc/passwd"), None);
        let src = dir.path().join("f");
        fs::write(&src, b"abc").unwrap();
        assert_eq!(hash_file(&src).unwrap(), (sha.clone(), 3));
        let mut rest = vec![Ok(b"def".to_vec())].into_iter();
        let (tmp, h, n) = spool(None, b"abc", &mut rest, 10).unwrap().unwrap();
        assert_eq!((h, n), (hash_bytes(b"abcdef"), 6));
        assert_eq!(fs::read(tmp.path()).unwrap(), b"abcdef");
        let mut rest = vec![Ok(b"def".to_vec())].into_iter();
        assert!(spool(None, b"abc", &mut rest, 5).unwrap().is_none());
    }
}
