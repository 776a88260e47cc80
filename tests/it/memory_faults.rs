//! The memory store under faults: a file that is not a database, a WAL
//! cut short, a store locked by another process, a full disk (a small
//! tmpfs, as root), and 32 gem-ask processes remembering at once. A turn
//! runs on (with a warning) whatever the store's state, and nothing
//! already stored is lost or written over.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use crate::gem_ask_memory::{memory, ok};
use crate::support::ask::text_reply;
use crate::support::embed::{Api, FakeEmbedder};
use crate::support::{FakeGemini, events, gem_ask_cmd, gem_ask_std_cmd, of_type, temp_dir};

fn store_of(home: &Path) -> PathBuf {
    home.join("gemline/memory.sqlite3")
}

fn keys(home: &Path) -> Vec<String> {
    let mut k: Vec<String> = ok(home, &["list", "-n", "1000"])
        .iter()
        .map(|m| m["key"].as_str().unwrap().to_string())
        .collect();
    k.sort();
    k
}

fn integrity(path: &Path) -> String {
    let c = rusqlite::Connection::open(path).unwrap();
    c.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

/// `gem-ask --memory hi` against a server that answers; its events.
fn turn(name: &str, home: &Path) -> Vec<Value> {
    turn_with(name, home, &[])
}

fn turn_with(name: &str, home: &Path, flags: &[&str]) -> Vec<Value> {
    let server = FakeGemini::start(name, vec![text_reply("Hello.", 10, 2)]);
    let out = gem_ask_cmd(&server, home)
        .args(["--memory", "--output", "jsonl"])
        .args(flags)
        .arg("hi there")
        .assert()
        .success()
        .get_output()
        .clone();
    events(&out.stdout)
}

fn warnings(ev: &[Value]) -> Vec<String> {
    of_type(ev, "error")
        .iter()
        .filter(|e| e["severity"] == "warning")
        .map(|e| e["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_file_that_is_not_a_database_is_left_untouched_and_the_turn_runs() {
    let home = temp_dir("memory-garbage");
    let path = store_of(&home);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let garbage: Vec<u8> = (0..8192u32).map(|i| (i * 7 + 3) as u8).collect();
    fs::write(&path, &garbage).unwrap();

    let ev = turn("memory-garbage", &home);
    let w = warnings(&ev);
    assert!(
        w.iter().any(
            |m| m.starts_with("memory is off for this turn: the memory store")
                && m.contains("is damaged")
        ),
        "{w:?}"
    );
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");
    memory(&home, &["add", "a fact"])
        .code(1)
        .stderr(predicates::str::contains(
            "left untouched: move it aside to start a new one",
        ));
    assert_eq!(fs::read(&path).unwrap(), garbage, "the file was written to");
}

#[test]
fn a_truncated_wal_keeps_every_whole_transaction() {
    let home = temp_dir("memory-wal");
    for k in ["a", "b", "c"] {
        ok(&home, &["add", "-k", k, &format!("fact {k}")]);
    }
    // Three more writes that stay in the WAL (no checkpoint yet); the
    // files are copied while the writer still has them open.
    let copy = temp_dir("memory-wal-copy");
    let dst = store_of(&copy);
    fs::create_dir_all(dst.parent().unwrap()).unwrap();
    {
        use gemline::memory::{NewMemory, Store};
        let mut s = Store::open(&store_of(&home), Duration::from_secs(5)).unwrap();
        for k in ["w1", "w2", "w3"] {
            let new = NewMemory {
                key: Some(k.into()),
                content: format!("in the wal {k}"),
                ..NewMemory::default()
            };
            s.remember(&new, 1).unwrap();
        }
        fs::copy(store_of(&home), &dst).unwrap();
        let wal = PathBuf::from(format!("{}-wal", store_of(&home).display()));
        let bytes = fs::read(&wal).unwrap();
        assert!(bytes.len() > 3 * 4096, "the writes are in the WAL");
        // Cut the last frame (the third write's commit) in half.
        fs::write(
            format!("{}-wal", dst.display()),
            &bytes[..bytes.len() - 2048],
        )
        .unwrap();
    }
    assert_eq!(keys(&copy), ["a", "b", "c", "w1", "w2"]);
    assert_eq!(integrity(&dst), "ok");
    ok(&copy, &["add", "-k", "after", "written after the recovery"]);
    assert_eq!(keys(&copy).len(), 6);
    assert_eq!(
        of_type(&turn("memory-wal", &copy), "result")[0]["status"],
        "success"
    );
}

#[test]
fn a_locked_store_is_waited_for_and_a_turn_goes_on_without_it() {
    let home = temp_dir("memory-locked");
    ok(&home, &["add", "-k", "kept", "a fact from before"]);
    let path = store_of(&home);
    let lock = rusqlite::Connection::open(&path).unwrap();
    lock.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .unwrap();
    lock.query_row("SELECT count(*) FROM memories", [], |r| r.get::<_, i64>(0))
        .unwrap();

    let ev = turn("memory-locked", &home);
    let w = warnings(&ev);
    assert!(
        w.iter().any(|m| m.contains("is locked by another process")),
        "{w:?}"
    );
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");

    // A write waits for the lock, and gets in once it is let go.
    let writer = std::process::Command::new(assert_cmd::cargo::cargo_bin!("gem-ask"))
        .env("XDG_DATA_HOME", &home)
        .env("XDG_CONFIG_HOME", &home)
        .args(["memory", "add", "-k", "late", "written after the lock"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    lock.execute_batch("COMMIT; PRAGMA locking_mode = NORMAL;")
        .unwrap();
    lock.query_row("SELECT count(*) FROM memories", [], |r| r.get::<_, i64>(0))
        .unwrap();
    drop(lock);
    let out = writer.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(keys(&home), ["kept", "late"]);
}

/// Mounts a small tmpfs on `dir`; `None` (and a loud note) where that is
/// not permitted, which must not happen in CI.
fn small_tmpfs(dir: &Path) -> Option<Tmpfs> {
    fs::create_dir_all(dir).unwrap();
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=512k", "tmpfs"])
        .arg(dir)
        .stderr(Stdio::piped())
        .output()
        .is_ok_and(|o| o.status.success());
    if mounted {
        return Some(Tmpfs(dir.to_path_buf()));
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI: cannot mount a tmpfs for the full-disk test (needs root and CAP_SYS_ADMIN)"
    );
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED memory full-disk test: mounting a tmpfs is not permitted here"
    );
    None
}

struct Tmpfs(PathBuf);

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_fails_the_write_and_keeps_what_was_stored() {
    let home = temp_dir("memory-full").join("mnt");
    let Some(_mount) = small_tmpfs(&home) else {
        return;
    };
    for i in 0..10 {
        ok(
            &home,
            &["add", "-k", &format!("k{i}"), &format!("fact number {i}")],
        );
    }
    let before = keys(&home);
    let filler = home.join("filler");
    let mut f = fs::File::create(&filler).unwrap();
    let block = vec![b'x'; 4096];
    while std::io::Write::write_all(&mut f, &block).is_ok() {}
    drop(f);

    let big = "a long fact ".repeat(1300);
    let out = memory(&home, &["add", "-k", "big", &big])
        .code(1)
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the memory store"), "{stderr}");
    // A turn still runs (reading the store, or without it, with a
    // warning); its session would not fit either.
    let ev = turn_with("memory-full", &home, &["--no-history"]);
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");

    fs::remove_file(&filler).unwrap();
    assert_eq!(keys(&home), before);
    assert_eq!(integrity(&store_of(&home)), "ok");
    ok(&home, &["add", "-k", "big", &big]);
}

#[test]
fn thirty_two_processes_remembering_at_once_lose_no_write() {
    let e = FakeEmbedder::start("memory-32", Api::Gemini, 8);
    let home = temp_dir("memory-32");
    e.configure(&home, "fake-embed", false);
    let server = FakeGemini::start("memory-32-chat", vec![]);
    let children: Vec<_> = (0..32)
        .map(|i| {
            gem_ask_std_cmd(&server, &home)
                .env("XDG_CONFIG_HOME", &home)
                .args([
                    "memory",
                    "add",
                    "-k",
                    &format!("fact-{i:02}"),
                    "--tag",
                    "bulk",
                ])
                .arg(format!("Fact number {i} learned in a session"))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let want: Vec<String> = (0..32).map(|i| format!("fact-{i:02}")).collect();
    assert_eq!(keys(&home), want);
    let exported = memory(&home, &["export"])
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = events(&exported);
    assert!(
        lines
            .iter()
            .all(|l| l["vectors"].as_array().is_some_and(|v| v.len() == 1))
    );
    assert_eq!(integrity(&store_of(&home)), "ok");
}
