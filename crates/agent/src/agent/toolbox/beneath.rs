//! Opening files and directories beneath a workspace root with the
//! kernel's help, so that nothing can be swapped in between the check of a
//! path and its use (a directory turned into a symlink that points outside
//! while a tool runs).
//!
//! Each root is held open as a directory descriptor ([`Dir`]). A path is
//! opened relative to it with `openat2(2)` and `RESOLVE_BENEATH |
//! RESOLVE_NO_MAGICLINKS`: the kernel refuses any resolution that would
//! leave the root, whatever changes meanwhile (`EXDEV`). Where `openat2` is
//! missing (Linux before 5.6, other Unixes) the path is walked one
//! component at a time with `openat(O_NOFOLLOW)`, which refuses every
//! symlink: the paths handed here are canonical, so a symlink met on the
//! way can only be a change made since the check. Directory listings and
//! the search walk go from a directory descriptor to its children the same
//! way (`fstatat`/`openat` with `O_NOFOLLOW`), never by name from the top.
//!
//! Files are opened non-blocking and their kind read from the open file
//! (`fstat`): only regular files are read or written, so a FIFO, a device
//! or a socket in the workspace is refused instead of hanging the tool.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path};

use crate::term::regular::{FileKind, make_blocking, wrong_kind};

/// An open directory: a workspace root, or a directory found beneath one.
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
}

/// One entry of a directory, as `fstatat` saw it (symlinks not followed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: OsString,
    pub kind: FileKind,
    pub len: u64,
}

/// Why a path beneath a root could not be opened: it left the root (or a
/// symlink appeared on it), or the usual I/O reasons.
pub fn escaped(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EXDEV | libc::ELOOP))
}

fn cstr(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "the path holds a NUL byte"))
}

/// `r` as an owned descriptor, or the error of the call that gave it.
fn owned(r: libc::c_long) -> io::Result<OwnedFd> {
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a descriptor the kernel just returned to us.
    Ok(unsafe { OwnedFd::from_raw_fd(r as RawFd) })
}

/// `openat(dir, name, flags | O_NOFOLLOW | O_CLOEXEC)`, `name` one
/// component.
fn open_child(dir: BorrowedFd<'_>, name: &OsStr, flags: libc::c_int) -> io::Result<OwnedFd> {
    let c = cstr(name)?;
    loop {
        // SAFETY: a NUL-terminated name and a live directory descriptor.
        let r = unsafe {
            libc::openat(
                dir.as_raw_fd(),
                c.as_ptr(),
                flags | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                0o666 as libc::c_uint,
            )
        };
        match owned(r.into()) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// The components of a relative path with no `..`, `.` or root in it.
fn plain_components(rel: &Path) -> io::Result<Vec<&OsStr>> {
    rel.components()
        .map(|c| match c {
            Component::Normal(n) => Ok(n),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the path is not a plain relative path",
            )),
        })
        .collect()
}

/// Opens `rel` beneath `dir` with the kernel refusing any way out.
fn open_beneath(dir: BorrowedFd<'_>, rel: &Path, flags: libc::c_int) -> io::Result<OwnedFd> {
    let rel = if rel.as_os_str().is_empty() {
        Path::new(".")
    } else {
        rel
    };
    #[cfg(target_os = "linux")]
    if let Some(r) = openat2_beneath(dir, rel, flags) {
        return r;
    }
    walk_nofollow(dir, rel, flags)
}

/// `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`; `None` when
/// the kernel has no `openat2`.
#[cfg(target_os = "linux")]
fn openat2_beneath(
    dir: BorrowedFd<'_>,
    rel: &Path,
    flags: libc::c_int,
) -> Option<io::Result<OwnedFd>> {
    let c = match cstr(rel.as_os_str()) {
        Ok(c) => c,
        Err(e) => return Some(Err(e)),
    };
    // SAFETY: open_how is plain data; zeroed is its documented default.
    let mut how: libc::open_how = unsafe { std::mem::zeroed() };
    how.flags = (flags | libc::O_CLOEXEC) as u64;
    how.resolve = libc::RESOLVE_BENEATH | libc::RESOLVE_NO_MAGICLINKS;
    // EAGAIN: a rename raced the lookup and the kernel could not vouch
    // for it; asking again is what openat2(2) says to do.
    for _ in 0..64 {
        // SAFETY: the syscall reads `how` (its size given) and the
        // NUL-terminated path; the result is a new descriptor or -1.
        let r = unsafe {
            libc::syscall(
                libc::SYS_openat2,
                dir.as_raw_fd(),
                c.as_ptr(),
                &how as *const libc::open_how,
                std::mem::size_of::<libc::open_how>(),
            )
        };
        match owned(r) {
            Ok(fd) => return Some(Ok(fd)),
            Err(e) => match e.raw_os_error() {
                Some(libc::ENOSYS) => return None,
                Some(libc::EINTR | libc::EAGAIN) => continue,
                _ => return Some(Err(e)),
            },
        }
    }
    Some(Err(io::Error::from_raw_os_error(libc::EAGAIN)))
}

/// The fallback: one `openat(O_NOFOLLOW)` per component.
fn walk_nofollow(dir: BorrowedFd<'_>, rel: &Path, flags: libc::c_int) -> io::Result<OwnedFd> {
    if rel == Path::new(".") {
        return open_child(dir, OsStr::new("."), flags);
    }
    let parts = plain_components(rel)?;
    let (last, parents) = parts.split_last().expect("a non-empty path");
    let mut cur: Option<OwnedFd> = None;
    for p in parents {
        let at = cur.as_ref().map_or(dir, |f| f.as_fd());
        cur = Some(open_child(at, p, libc::O_RDONLY | libc::O_DIRECTORY)?);
    }
    open_child(cur.as_ref().map_or(dir, |f| f.as_fd()), last, flags)
}

/// errno set to 0, so that a NULL from readdir tells its end from an error.
fn clear_errno() {
    // SAFETY: the calling thread's errno, a plain int.
    #[cfg(target_os = "linux")]
    unsafe {
        *libc::__errno_location() = 0
    };
    #[cfg(any(target_os = "macos", target_os = "ios", target_os = "freebsd"))]
    unsafe {
        *libc::__error() = 0
    };
}

/// The kind and size of an open descriptor.
fn stat_fd(fd: BorrowedFd<'_>) -> io::Result<(FileKind, u64)> {
    // SAFETY: fstat fills a zeroed stat of a live descriptor.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok((FileKind::of_mode(st.st_mode as u32), st.st_size as u64))
}

/// A descriptor opened non-blocking, kept only if it is a regular file
/// (then made blocking).
fn regular(fd: OwnedFd) -> io::Result<File> {
    match stat_fd(fd.as_fd())?.0 {
        FileKind::Regular => {
            let f = File::from(fd);
            make_blocking(&f)?;
            Ok(f)
        }
        other => Err(wrong_kind(other, "a regular file")),
    }
}

const READ_FILE: libc::c_int = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY;
const READ_DIR: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY;

impl Dir {
    /// Opens a root by its (canonical) path.
    pub fn open(path: &Path) -> io::Result<Dir> {
        let c = cstr(path.as_os_str())?;
        // SAFETY: a NUL-terminated path; the result is a descriptor or -1.
        let r = unsafe { libc::open(c.as_ptr(), READ_DIR | libc::O_CLOEXEC) };
        Ok(Dir {
            fd: owned(r.into())?,
        })
    }

    /// The directory `rel` beneath this one.
    pub fn dir(&self, rel: &Path) -> io::Result<Dir> {
        Ok(Dir {
            fd: open_beneath(self.fd.as_fd(), rel, READ_DIR)?,
        })
    }

    /// The regular file `rel` beneath this one, for reading.
    pub fn file(&self, rel: &Path) -> io::Result<File> {
        regular(open_beneath(self.fd.as_fd(), rel, READ_FILE)?)
    }

    /// The regular file `rel` beneath this one, emptied for writing, made
    /// (with its missing parent directories) if it does not exist. Every
    /// component is opened from the one before with `O_NOFOLLOW`.
    pub fn create(&self, rel: &Path) -> io::Result<File> {
        let parts = plain_components(rel)?;
        let Some((last, parents)) = parts.split_last() else {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "no file name"));
        };
        let mut cur: Option<OwnedFd> = None;
        for p in parents {
            let at = cur.as_ref().map_or(self.fd.as_fd(), |f| f.as_fd());
            let c = cstr(p)?;
            // SAFETY: mkdirat with a NUL-terminated name under a live
            // descriptor; an existing entry is EEXIST, opened next.
            if unsafe { libc::mkdirat(at.as_raw_fd(), c.as_ptr(), 0o777) } < 0 {
                let e = io::Error::last_os_error();
                if e.raw_os_error() != Some(libc::EEXIST) {
                    return Err(e);
                }
            }
            cur = Some(open_child(at, p, READ_DIR)?);
        }
        let at = cur.as_ref().map_or(self.fd.as_fd(), |f| f.as_fd());
        let fd = open_child(
            at,
            last,
            libc::O_WRONLY | libc::O_CREAT | libc::O_NONBLOCK | libc::O_NOCTTY,
        )?;
        let f = regular(fd)?;
        f.set_len(0)?;
        Ok(f)
    }

    /// A child directory, not through a symlink.
    pub fn child_dir(&self, name: &OsStr) -> io::Result<Dir> {
        Ok(Dir {
            fd: open_child(self.fd.as_fd(), name, READ_DIR)?,
        })
    }

    /// A child regular file, not through a symlink, for reading.
    pub fn child_file(&self, name: &OsStr) -> io::Result<File> {
        regular(open_child(self.fd.as_fd(), name, READ_FILE)?)
    }

    /// The entries, `.` and `..` left out, in no particular order.
    pub fn entries(&self) -> io::Result<Vec<Entry>> {
        // fdopendir takes the descriptor it is given: a duplicate.
        let dup = self.fd.try_clone()?;
        // SAFETY: fdopendir owns `raw` from here on (closedir closes it).
        let raw = dup.as_raw_fd();
        let d = unsafe { libc::fdopendir(raw) };
        if d.is_null() {
            return Err(io::Error::last_os_error());
        }
        std::mem::forget(dup);
        // SAFETY: a DIR stream of our own; a duplicate shares the offset,
        // so it starts over.
        unsafe { libc::rewinddir(d) };
        let mut out = Vec::new();
        let result = loop {
            clear_errno();
            // SAFETY: readdir on our own stream.
            let ent = unsafe { libc::readdir(d) };
            if ent.is_null() {
                let e = io::Error::last_os_error();
                break if e.raw_os_error().unwrap_or(0) == 0 {
                    Ok(())
                } else {
                    Err(e)
                };
            }
            // SAFETY: d_name is NUL-terminated within the entry.
            let name = unsafe { CStr::from_ptr((*ent).d_name.as_ptr()) };
            let bytes = name.to_bytes();
            if bytes == b"." || bytes == b".." {
                continue;
            }
            let mut st: libc::stat = unsafe { std::mem::zeroed() };
            // SAFETY: fstatat on the stream's own descriptor, no follow.
            let ok = unsafe {
                libc::fstatat(
                    libc::dirfd(d),
                    name.as_ptr(),
                    &mut st,
                    libc::AT_SYMLINK_NOFOLLOW,
                )
            } == 0;
            out.push(Entry {
                name: OsString::from_vec(bytes.to_vec()),
                kind: if ok {
                    FileKind::of_mode(st.st_mode as u32)
                } else {
                    FileKind::Unknown
                },
                len: if ok { st.st_size as u64 } else { 0 },
            });
        };
        // SAFETY: closes the stream and the duplicate it owns.
        unsafe { libc::closedir(d) };
        result.map(|()| out)
    }
}

impl AsFd for Dir {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("gemline-beneath-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("root/sub")).unwrap();
        std::fs::create_dir_all(d.join("outside")).unwrap();
        std::fs::write(d.join("outside/secret"), "s").unwrap();
        std::fs::write(d.join("root/sub/a.txt"), "a").unwrap();
        d
    }

    #[test]
    fn opens_beneath_and_refuses_ways_out() {
        let d = scratch("ways");
        std::os::unix::fs::symlink(d.join("outside"), d.join("root/abs")).unwrap();
        std::os::unix::fs::symlink("../outside", d.join("root/rel")).unwrap();
        let root = Dir::open(&d.join("root")).unwrap();
        let mut s = String::new();
        root.file(Path::new("sub/a.txt"))
            .unwrap()
            .read_to_string(&mut s)
            .unwrap();
        assert_eq!(s, "a");
        for bad in ["abs/secret", "rel/secret", "../outside/secret"] {
            let e = root.file(Path::new(bad)).unwrap_err();
            assert!(
                escaped(&e) || e.kind() == io::ErrorKind::InvalidInput,
                "{bad}: {e}"
            );
        }
        assert!(walk_nofollow(root.as_fd(), Path::new("rel/secret"), READ_FILE).is_err());
        assert!(walk_nofollow(root.as_fd(), Path::new("sub/a.txt"), READ_FILE).is_ok());
    }

    #[test]
    fn creates_lists_and_refuses_what_is_not_a_file() {
        let d = scratch("create");
        let root = Dir::open(&d.join("root")).unwrap();
        root.create(Path::new("new/deep/f.txt"))
            .unwrap()
            .write_all(b"hi")
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(d.join("root/new/deep/f.txt")).unwrap(),
            "hi"
        );
        std::os::unix::fs::symlink(d.join("outside"), d.join("root/link")).unwrap();
        assert!(root.create(Path::new("link/x")).is_err());
        assert!(!d.join("outside/x").exists());
        let fifo = CString::new(d.join("root/pipe").as_os_str().as_bytes()).unwrap();
        // SAFETY: mkfifo with a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        let e = root.file(Path::new("pipe")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "it is a FIFO (named pipe), not a regular file"
        );
        let e = root.create(Path::new("pipe")).unwrap_err();
        assert!(
            e.raw_os_error() == Some(libc::ENXIO) || e.to_string().contains("FIFO"),
            "{e}"
        );
        let mut names: Vec<(String, FileKind)> = root
            .entries()
            .unwrap()
            .into_iter()
            .map(|e| (e.name.to_string_lossy().into_owned(), e.kind))
            .collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            names,
            [
                ("link".to_string(), FileKind::Symlink),
                ("new".to_string(), FileKind::Directory),
                ("pipe".to_string(), FileKind::Fifo),
                ("sub".to_string(), FileKind::Directory),
            ]
        );
        // A second listing of the same directory starts over.
        assert_eq!(root.entries().unwrap().len(), 4);
        assert!(root.child_dir(OsStr::new("link")).is_err());
    }
}
