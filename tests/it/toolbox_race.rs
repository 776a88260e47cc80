//! The workspace check cannot be raced (issue 21): while a thread keeps
//! swapping a directory of the workspace with a symlink to a directory
//! outside it (`renameat2(RENAME_EXCHANGE)`, so the name is always one of
//! the two), thousands of `read_file`, `list_directory`, `search_files` and
//! `write_file` calls through the toolbox never read, list, find or write
//! anything outside. Each also checks the race really ran: the flips
//! happened and some calls got through inside.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use gemline::agent::toolbox::{ToolCall, ToolSetup, Toolbox};
use serde_json::{Value, json};

use crate::support::temp_dir;

/// `ws/d` (a directory: `f` says "inside") and `ws/swap` (a symlink to
/// `outside/d`, whose `f` holds the secret), swapped again and again until
/// the flipper is dropped.
struct Flipper {
    ws: PathBuf,
    outside: PathBuf,
    stop: Arc<AtomicBool>,
    flips: Arc<AtomicU64>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Flipper {
    fn start(name: &str) -> Flipper {
        let d = temp_dir(name);
        let ws = d.join("ws");
        let outside = d.join("outside");
        std::fs::create_dir_all(ws.join("d")).unwrap();
        std::fs::create_dir_all(outside.join("d")).unwrap();
        std::fs::write(ws.join("d/f"), "inside").unwrap();
        std::fs::write(ws.join("d/inside-only"), "").unwrap();
        std::fs::write(outside.join("d/f"), "OUTSIDE SECRET").unwrap();
        std::fs::write(outside.join("d/outside-only"), "").unwrap();
        std::os::unix::fs::symlink(outside.join("d"), ws.join("swap")).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let flips = Arc::new(AtomicU64::new(0));
        let a = CString::new(ws.join("d").into_os_string().into_encoded_bytes()).unwrap();
        let b = CString::new(ws.join("swap").into_os_string().into_encoded_bytes()).unwrap();
        let thread = {
            let (stop, flips) = (stop.clone(), flips.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    // SAFETY: two NUL-terminated paths; an atomic swap.
                    let rc = unsafe {
                        libc::renameat2(
                            libc::AT_FDCWD,
                            a.as_ptr(),
                            libc::AT_FDCWD,
                            b.as_ptr(),
                            libc::RENAME_EXCHANGE,
                        )
                    };
                    assert_eq!(rc, 0, "{}", std::io::Error::last_os_error());
                    flips.fetch_add(1, Ordering::Relaxed);
                }
            })
        };
        Flipper {
            ws,
            outside,
            stop,
            flips,
            thread: Some(thread),
        }
    }

    fn toolbox(&self) -> Toolbox {
        let setup = ToolSetup {
            only: ["read_file", "list_directory", "search_files", "write_file"]
                .map(String::from)
                .to_vec(),
            workdir: Some(self.ws.clone()),
            yes: true,
            ..ToolSetup::default()
        };
        setup.build_with(&Default::default()).unwrap().0
    }

    fn flips(&self) -> u64 {
        self.flips.load(Ordering::Relaxed)
    }
}

impl Drop for Flipper {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What the model would get back from one call.
fn answer(tb: &mut Toolbox, name: &str, args: &Value) -> String {
    let d = tb
        .dispatch(
            &ToolCall {
                name,
                id: None,
                args,
                tool_id: "t",
            },
            &mut |_| Ok(()),
        )
        .unwrap();
    d.part["functionResponse"]["response"].to_string()
}

/// Runs `n` calls during the flipping; how many answers held `leak` and
/// how many held `inside`.
fn race(name: &str, tool: &str, args: Value, n: usize, leak: &str, inside: &str) -> (usize, usize) {
    let f = Flipper::start(name);
    let mut tb = f.toolbox();
    let (mut leaked, mut ok) = (0, 0);
    for _ in 0..n {
        let a = answer(&mut tb, tool, &args);
        leaked += usize::from(a.contains(leak));
        ok += usize::from(a.contains(inside));
    }
    assert!(f.flips() > 100, "the flipper hardly ran: {}", f.flips());
    assert!(!outside_written(&f.outside));
    (leaked, ok)
}

fn outside_written(outside: &Path) -> bool {
    outside.join("d/new.txt").exists()
}

#[test]
fn read_file_never_reads_outside_while_a_directory_flips() {
    let (leaked, ok) = race(
        "race-read",
        "read_file",
        json!({"path": "d/f"}),
        10_000,
        "OUTSIDE SECRET",
        "inside",
    );
    assert_eq!(leaked, 0, "{leaked} of 10000 reads got the outside file");
    assert!(ok > 0, "no read got through at all");
}

#[test]
fn list_directory_never_lists_outside_while_a_directory_flips() {
    let (leaked, ok) = race(
        "race-list",
        "list_directory",
        json!({"path": "d"}),
        10_000,
        "outside-only",
        "inside-only",
    );
    assert_eq!(leaked, 0, "{leaked} of 10000 listings showed the outside");
    assert!(ok > 0);
}

#[test]
fn search_files_never_finds_outside_while_a_directory_flips() {
    let (leaked, ok) = race(
        "race-search",
        "search_files",
        json!({"pattern": "SECRET|inside"}),
        // Each search compiles its pattern (about 1 ms unoptimized): fewer.
        2_000,
        "OUTSIDE SECRET",
        "d/f:1: inside",
    );
    assert_eq!(
        leaked, 0,
        "{leaked} of 10000 searches found the outside file"
    );
    assert!(ok > 0);
}

#[test]
fn write_file_never_writes_outside_while_a_directory_flips() {
    let (_, ok) = race(
        "race-write",
        "write_file",
        json!({"path": "d/new.txt", "content": "x"}),
        10_000,
        "\u{0}",
        "wrote 1 bytes",
    );
    assert!(ok > 0, "no write got through at all");
}
