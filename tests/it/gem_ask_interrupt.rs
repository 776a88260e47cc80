//! SIGINT, SIGTERM and a closed stdout: the stream still ends with its
//! `result`, the exit code tells which, a stuck run dies on the second
//! Ctrl-C.

use crate::support;

use std::path::PathBuf;
use std::time::Duration;

use crate::support::ask::*;
use crate::support::{FakeGemini, Reply, fixture, kinds, temp_dir};
use serde_json::json;

/// Runs gem-ask against a model that answers nothing for 30 s, sends it
/// `signal` once the request is in, and returns what it wrote.
fn interrupted(name: &str, signal: i32) -> (std::process::Output, PathBuf) {
    let server = FakeGemini::start(
        name,
        vec![
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            ))
            .delay_each(Duration::from_secs(30)),
        ],
    );
    let home = temp_dir(name);
    let child = gem_ask_std(&server, &home)
        .arg("hi")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the request is in: the model is "thinking".
    while server.requests().is_empty() {
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: signalling our own child by its pid.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    (child.wait_with_output().unwrap(), home)
}

#[test]
fn sigint_ends_the_stream_with_a_result() {
    let (out, _) = interrupted("sigint", libc::SIGINT);
    assert_eq!(out.status.code(), Some(130));
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(
        ev[2]["error"],
        json!({"type":"interrupted","message":"interrupted by SIGINT"})
    );
}

#[test]
fn sigterm_ends_the_stream_with_a_result() {
    let (out, home) = interrupted("sigterm", libc::SIGTERM);
    assert_eq!(out.status.code(), Some(143));
    let ev = stable_events(&out.stdout);
    assert_eq!(
        ev.last().unwrap()["error"]["message"],
        "interrupted by SIGTERM"
    );
    // The interrupted turn is not stored.
    let id = session_id(&out.stdout);
    // (No content is kept; a stop record says the run stopped, for gem-ask log.)
    let kept = crate::gem_ask_log_runs::kept(&home, &id);
    assert_eq!(kept, (0, Some("interrupted".to_string())));
}

#[test]
fn a_closed_stdout_ends_quietly_with_0() {
    // `gem-ask ... | head`: the reader takes the lines up to the first
    // piece of the answer and goes away; only then does the server send the
    // rest. That the piece arrived at all while the server held back the
    // rest also proves each chunk is passed on as it comes.
    let gate = support::Gate::default();
    let server = FakeGemini::start(
        "head",
        vec![
            Reply::sse(&fixture(
                "07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse",
            ))
            .gated(1, &gate),
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            )),
        ],
    );
    let home = temp_dir("head");
    let mut child = gem_ask_std(&server, &home)
        .arg("hi")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    while !lines
        .last()
        .is_some_and(|l: &String| l.contains(r#""role":"assistant""#))
    {
        let mut line = String::new();
        assert_ne!(
            std::io::BufRead::read_line(&mut reader, &mut line).unwrap(),
            0
        );
        lines.push(line);
    }
    assert!(lines[0].starts_with(r#"{"type":"init","#), "{lines:?}");
    drop(reader);
    gate.open();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(!gate.timed_out());
    // Closed before the first event: same quiet end, no request made. The
    // read end is closed before gem-ask starts, so no write can win a race.
    let mut fds = [0; 2];
    // SAFETY: pipe2() fills two descriptors we then own; close-on-exec so
    // no child spawned meanwhile by another test keeps the read end open.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: each descriptor is owned exactly once.
    let (read_end, write_end) = unsafe {
        use std::os::fd::FromRawFd;
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    };
    drop(read_end);
    let out = gem_ask_std(&server, &home)
        .arg("hi")
        .stdout(write_end)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn sigterm_while_stdin_is_still_open() {
    let server = FakeGemini::start("sigterm-stdin", vec![]);
    let home = temp_dir("sigterm-stdin");
    let mut child = gem_ask_std(&server, &home)
        .arg("summarize")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Some context, and the writer stays open (`tail -f log | gem-ask`);
    // a watchdog closes it after 20 s so a gem-ask deaf to the signal
    // fails this test instead of hanging it.
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"line 1\n").unwrap();
    let (done, alarm) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let fired = alarm.recv_timeout(Duration::from_secs(20)).is_err();
        drop(stdin);
        fired
    });
    // Signal only once gem-ask catches SIGTERM (bit 15 of SigCgt), else
    // the default action would kill it before it can answer.
    let status = format!("/proc/{}/status", child.id());
    loop {
        let text = std::fs::read_to_string(&status).unwrap();
        let caught = text
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .map(|m| u64::from_str_radix(m.trim(), 16).unwrap())
            .unwrap();
        if caught & (1 << (libc::SIGTERM - 1)) != 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: signalling our own child by its pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let out = child.wait_with_output().unwrap();
    done.send(()).unwrap();
    assert!(
        !watchdog.join().unwrap(),
        "gem-ask waited for stdin to close"
    );
    assert_eq!(out.status.code(), Some(143));
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(
        ev[2]["error"],
        json!({"type":"interrupted","message":"interrupted by SIGTERM"})
    );
    assert!(server.requests().is_empty());
}

/// A gem-ask stuck writing to a stdout nobody reads cannot reach its
/// `result`: the first Ctrl-C only sets the flag, the second one must kill
/// it (the handler is one-shot).
#[test]
fn a_second_sigint_kills_a_stuck_run() {
    use std::io::BufRead;
    use std::os::unix::process::ExitStatusExt;
    let big = "x".repeat(1 << 20);
    let text = json!({"candidates":[{"content":{"role":"model","parts":[{"text": big}]},
                      "finishReason":"STOP"}]});
    let server = FakeGemini::start(
        "second-sigint",
        vec![Reply::sse(&format!("data: {text}\r\n\r\n"))],
    );
    let home = temp_dir("second-sigint");
    let mut child = gem_ask_std(&server, &home)
        .args(["--no-history", "hi"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Once the start of the answer's 1 MiB line is out, gem-ask is inside
    // that write; the pipe is then left unread (but open), so it blocks.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for kind in ["\"init\"", "\"user\""] {
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert!(line.contains(kind), "{line}");
    }
    let mut start = [0u8; 16];
    std::io::Read::read_exact(&mut stdout, &mut start).unwrap();
    // Signals sent close together may merge into one, so keep sending
    // until it is gone; a run that ignores them is killed after 20 s.
    let mut status = None;
    for _ in 0..200 {
        // SAFETY: signalling our own child by its pid.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGINT);
        }
        std::thread::sleep(Duration::from_millis(100));
        if let Some(s) = child.try_wait().unwrap() {
            status = Some(s);
            break;
        }
    }
    let Some(status) = status else {
        child.kill().unwrap();
        child.wait().unwrap();
        panic!("gem-ask survived repeated SIGINTs while stuck writing");
    };
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    drop(stdout);
}
