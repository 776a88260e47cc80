//! A program run with its stdout on a pseudo-terminal of a given size in
//! characters and pixels (what `TIOCGWINSZ` reports), and the bytes it
//! wrote there read back raw; and the image escapes in those bytes
//! (kitty's APC, iTerm2's OSC 1337, sixel's DCS) cut out for decoding.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::FromRawFd;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Columns, rows, and the screen's pixel width and height.
pub type Size = (u16, u16, u16, u16);

/// Runs `cmd` with `stdin` piped in and stdout (only) on a terminal of
/// `size`; its exit code and every byte the terminal received (`\n` as
/// `\r\n`, as a terminal gets it).
pub fn run_on_terminal(mut cmd: Command, stdin: &[u8], size: Size) -> (i32, Vec<u8>, String) {
    let (mut m, mut s) = (0, 0);
    let ws = libc::winsize {
        ws_col: size.0,
        ws_row: size.1,
        ws_xpixel: size.2,
        ws_ypixel: size.3,
    };
    // SAFETY: openpty fills two descriptors we then own.
    let rc = unsafe { libc::openpty(&mut m, &mut s, std::ptr::null_mut(), std::ptr::null(), &ws) };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    for fd in [m, s] {
        // SAFETY: descriptors openpty just gave us.
        assert_eq!(
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) },
            0
        );
    }
    let (mut master, slave) = unsafe { (File::from_raw_fd(m), File::from_raw_fd(s)) };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 65536];
        // EIO once the last writer of the terminal has gone.
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
        }
        all
    });
    let mut input = child.stdin.take().unwrap();
    // A program that exits before reading (a usage error) closes it.
    let _ = input.write_all(stdin);
    drop(input);
    let until = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < until, "no exit within 60 s");
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    // The cmd's own copy of the slave is gone with it: the reader ends.
    drop(cmd);
    let bytes = reader.join().unwrap();
    (
        out.status.code().unwrap_or(-1),
        bytes,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The pieces of `bytes` between `open` and `close`, in order.
pub fn between<'a>(bytes: &'a [u8], open: &[u8], close: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while let Some(i) = find(rest, open) {
        let body = &rest[i + open.len()..];
        let Some(j) = find(body, close) else { break };
        out.push(&body[..j]);
        rest = &body[j + close.len()..];
    }
    out
}

pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
