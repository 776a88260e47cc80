//! Opening a file that must be a regular file without ever blocking: a
//! FIFO, a device or a socket where a file is expected (a config file, a
//! file a tool reads) is refused with its kind named, instead of hanging
//! in `open` (a FIFO with no writer) or in the first `read`. The open is
//! non-blocking (`O_NONBLOCK`), the kind is read from the open file
//! (`fstat`, so no other file can be swapped in between), and the file is
//! made blocking again before it is handed back.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// What a file is, for messages that refuse the wrong kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Regular,
    Directory,
    Symlink,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    Unknown,
}

impl FileKind {
    pub fn of(t: std::fs::FileType) -> FileKind {
        if t.is_file() {
            FileKind::Regular
        } else if t.is_dir() {
            FileKind::Directory
        } else if t.is_symlink() {
            FileKind::Symlink
        } else if t.is_fifo() {
            FileKind::Fifo
        } else if t.is_socket() {
            FileKind::Socket
        } else if t.is_char_device() {
            FileKind::CharDevice
        } else if t.is_block_device() {
            FileKind::BlockDevice
        } else {
            FileKind::Unknown
        }
    }

    /// From a `st_mode` (`fstat`, `fstatat`).
    pub fn of_mode(mode: u32) -> FileKind {
        match mode & libc::S_IFMT {
            libc::S_IFREG => FileKind::Regular,
            libc::S_IFDIR => FileKind::Directory,
            libc::S_IFLNK => FileKind::Symlink,
            libc::S_IFIFO => FileKind::Fifo,
            libc::S_IFSOCK => FileKind::Socket,
            libc::S_IFCHR => FileKind::CharDevice,
            libc::S_IFBLK => FileKind::BlockDevice,
            _ => FileKind::Unknown,
        }
    }

    /// "a FIFO (named pipe)", "a directory", ...
    pub fn described(self) -> &'static str {
        match self {
            FileKind::Regular => "a regular file",
            FileKind::Directory => "a directory",
            FileKind::Symlink => "a symbolic link",
            FileKind::Fifo => "a FIFO (named pipe)",
            FileKind::Socket => "a socket",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Unknown => "not a regular file",
        }
    }
}

/// Refusing a file of the wrong kind: an `io::Error` whose text names it.
pub fn wrong_kind(kind: FileKind, wanted: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {}, not {wanted}", kind.described()),
    )
}

/// `f` made blocking again after a non-blocking open.
pub fn make_blocking(f: &File) -> io::Result<()> {
    let fd = f.as_raw_fd();
    // SAFETY: fcntl on a descriptor we own; F_GETFL/F_SETFL take ints.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The kind of an open file.
pub fn kind_of(f: &File) -> io::Result<FileKind> {
    Ok(FileKind::of(f.metadata()?.file_type()))
}

/// Opens `path` for reading if it is a regular file; anything else is an
/// `InvalidInput` error naming what it is. Never blocks.
pub fn open_regular(path: &Path) -> io::Result<File> {
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    match kind_of(&f)? {
        FileKind::Regular => {
            make_blocking(&f)?;
            Ok(f)
        }
        other => Err(wrong_kind(other, "a regular file")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let d = std::env::temp_dir().join(format!("gemline-regular-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let fifo = d.join("pipe");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo with a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = open_regular(&fifo).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(
            e.to_string(),
            "it is a FIFO (named pipe), not a regular file"
        );
        let e = open_regular(&d).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        std::fs::write(d.join("f"), "x").unwrap();
        let mut s = String::new();
        io::Read::read_to_string(&mut open_regular(&d.join("f")).unwrap(), &mut s).unwrap();
        assert_eq!(s, "x");
        assert!(open_regular(Path::new("/dev/null")).is_err());
    }
}
