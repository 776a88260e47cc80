//! Session files under faults: a corrupt file (cut last line, garbage, a
//! newer format), a path that is no regular file or is too big, a full
//! disk or a write error while appending, SIGKILL at random points, and
//! many writers at once (threads appending, and 32 gem-ask processes on one
//! session or on 32). The session must stay readable with every
//! completed turn, and no reader may change it.

use std::fs;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::{
    FakeGemini, Reply, Succeeds, fixture, gem_ask_cmd, gem_ask_std_cmd, temp_dir,
};
use gemline::session::{self, append, content_record, load, parse_history};
use serde_json::{Value, json};

const ANSWER: &str = "02-text-stream-gemini-2.5-flash-single-chunk.response.sse";

fn session_file(home: &Path, id: &str) -> PathBuf {
    home.join("gemline/sessions").join(format!("{id}.jsonl"))
}

fn user(text: &str) -> Value {
    json!({"role": "user", "parts": [{"text": text}]})
}

fn model(text: &str) -> Value {
    json!({"role": "model", "parts": [{"text": text}]})
}

/// Every line ends with a newline and is a JSON object.
fn assert_whole_lines(path: &Path) {
    let text = fs::read_to_string(path).unwrap();
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "a half line at the end: {text:?}"
    );
    for (i, line) in text.lines().enumerate() {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("line {}: {e}: {line:?}", i + 1));
        assert!(v.is_object());
    }
}

/// Contents alternate user, model, user, model: whole turns only.
fn assert_whole_turns(contents: &[Value]) {
    assert!(
        contents.len().is_multiple_of(2),
        "a turn without its answer"
    );
    for pair in contents.chunks(2) {
        assert_eq!(pair[0]["role"], "user");
        assert_eq!(pair[1]["role"], "model");
    }
}

#[test]
fn a_corrupt_session_is_reported_and_its_readable_turns_used() {
    let home = temp_dir("faults-corrupt");
    let path = session_file(&home, "cut");
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let good = [
        json!({"record":"meta","model":"gemini-2.5-flash","created":"2026-11-22T00:00:00Z","version":9,"summary":"a field from later"}),
        content_record(&user("first question")),
        content_record(&model("first answer")),
    ];
    let mut text: String = good.iter().map(|r| format!("{r}\n")).collect();
    text.push_str("\u{0}\u{1}binary garbage\n");
    text.push_str(&format!(
        "{}\n",
        json!({"record":"bookmark","text":"a record from later"})
    ));
    text.push_str(r#"{"record":"content","content":{"role":"model","parts":[{"text":"cut sh"#);
    fs::write(&path, &text).unwrap();

    let server = FakeGemini::start("faults-corrupt", vec![Reply::sse(&fixture(ANSWER))]);
    let out = gem_ask_cmd(&server, &home)
        .args(["--session", "cut", "next question"])
        .succeeds();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("session cut, line 4: not JSON"), "{stderr}");
    assert!(
        stderr.contains("session cut, line 6: last line cut short, no line end"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 1: written in session format 9, newer than this version reads (1)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("continuing with the 2 readable content record(s)"),
        "{stderr}"
    );
    // The readable turn went to the model.
    let sent = &server.bodies()[0]["contents"];
    assert_eq!(sent[0], user("first question"));
    assert_eq!(sent[1], model("first answer"));
    assert_eq!(sent[2]["parts"][0]["text"], "next question");

    // The reader changed nothing; the new turn starts on its own line.
    let after = fs::read_to_string(&path).unwrap();
    assert!(after.starts_with(&text), "the reader rewrote the file");
    assert!(after[text.len()..].starts_with('\n'));
    let h = load(&path).unwrap();
    assert_eq!(h.contents.len(), 4);
    assert_eq!(h.contents[3]["parts"][0]["text"], "Paris");
    assert_eq!(h.skipped.iter().map(|s| s.0).collect::<Vec<_>>(), [4, 6]);
}

#[test]
fn a_path_that_is_not_a_regular_file_is_refused() {
    let home = temp_dir("faults-not-file");
    let dir = session_file(&home, "dir");
    fs::create_dir_all(&dir).unwrap();
    let fifo = session_file(&home, "fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let server = FakeGemini::start("faults-not-file", vec![]);
    for id in ["dir", "fifo"] {
        let start = Instant::now();
        let out = gem_ask_cmd(&server, &home)
            .args(["--session", id, "hi"])
            .timeout(Duration::from_secs(20))
            .assert()
            .code(1)
            .get_output()
            .clone();
        assert!(start.elapsed() < Duration::from_secs(15), "{id}: hung");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("not a regular file") || stdout.contains("Is a directory"),
            "{id}: {stdout}"
        );
    }
    assert!(server.requests().is_empty());
    assert!(append(&fifo, "m", &[content_record(&user("x"))]).is_err());
}

#[test]
fn a_session_past_the_size_cap_is_refused_unread() {
    let dir = temp_dir("faults-big");
    let path = dir.join("big.jsonl");
    let f = fs::File::create(&path).unwrap();
    // Sparse: no disk used, but past the cap.
    f.set_len(session::MAX_SESSION_BYTES + 1).unwrap();
    let e = load(&path).unwrap_err();
    assert!(
        e.to_string()
            .contains("larger than the 64 MiB a session may hold"),
        "{e}"
    );
    let e = append(&path, "m", &[content_record(&user("x"))]).unwrap_err();
    assert!(e.to_string().contains("64 MiB"), "{e}");
    assert_eq!(
        fs::metadata(&path).unwrap().len(),
        session::MAX_SESSION_BYTES + 1
    );
    // Kept directories are copied now and then: not 64 MiB of zeros.
    fs::remove_file(&path).unwrap();
}

/// A long answer, so the turn is many kilobytes.
fn long_answer(bytes: usize) -> String {
    let text = "lorem ipsum ".repeat(bytes / 12);
    let chunk = json!({"candidates":[{"content":{"role":"model","parts":[{"text": text}]},"finishReason":"STOP"}]});
    format!("data: {chunk}\r\n\r\n")
}

/// Session `id` holding one turn, and its bytes.
fn one_turn_session(home: &Path, id: &str) -> (PathBuf, Vec<u8>) {
    let path = session_file(home, id);
    let turn = [content_record(&user("q")), content_record(&model("a"))];
    append(&path, "m", &turn).unwrap();
    let before = fs::read(&path).unwrap();
    (path, before)
}

/// A write error while appending a turn (the file size limit, which cuts
/// a write part-way like a full disk does): exit non-zero, reported, and
/// no half-written line remains.
#[test]
fn a_write_error_while_appending_leaves_no_half_line() {
    let home = temp_dir("faults-fsize");
    let (path, before) = one_turn_session(&home, "fsize");
    let server = FakeGemini::start("faults-fsize", vec![Reply::sse(&long_answer(64 << 10))]);
    let limit = before.len() as u64 + 4096;
    let mut cmd = gem_ask_std_cmd(&server, &home);
    cmd.args(["--session", "fsize", "hi"]);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let lim = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("cannot write session"), "{stdout}");
    assert!(stdout.contains(r#""status":"error""#), "{stdout}");
    assert_eq!(
        fs::read(&path).unwrap(),
        before,
        "a half-written turn remains"
    );
}

/// Mounts a small tmpfs for the full-disk test; `None` (and a loud note)
/// where mounting is not permitted, which must not happen in CI.
fn small_tmpfs(dir: &Path) -> Option<TmpfsGuard> {
    fs::create_dir_all(dir).unwrap();
    let ok = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(dir)
        .stderr(Stdio::piped())
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if ok {
        return Some(TmpfsGuard(dir.to_path_buf()));
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI: cannot mount a tmpfs for the full-disk test (needs root and CAP_SYS_ADMIN)"
    );
    support_note("SKIPPED full-disk test: mounting a tmpfs is not permitted here");
    None
}

fn support_note(msg: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{msg}");
}

struct TmpfsGuard(PathBuf);

impl Drop for TmpfsGuard {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_while_appending_is_reported_and_leaves_no_half_line() {
    let home = temp_dir("faults-full").join("mnt");
    let Some(_mount) = small_tmpfs(&home) else {
        return;
    };
    let (path, before) = one_turn_session(&home, "full");
    // Fill the disk but for a few kilobytes.
    let filler = home.join("filler");
    let mut f = fs::File::create(&filler).unwrap();
    let block = vec![b'x'; 4096];
    while std::io::Write::write_all(&mut f, &block).is_ok() {}
    drop(f);
    let len = fs::metadata(&filler).unwrap().len();
    fs::OpenOptions::new()
        .write(true)
        .open(&filler)
        .unwrap()
        .set_len(len - 8192)
        .unwrap();

    let server = FakeGemini::start("faults-full", vec![Reply::sse(&long_answer(64 << 10))]);
    let out = gem_ask_cmd(&server, &home)
        .args(["--session", "full", "hi"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("cannot write session"), "{stdout}");
    assert!(stdout.contains("No space left on device"), "{stdout}");
    assert_eq!(
        fs::read(&path).unwrap(),
        before,
        "a half-written turn remains"
    );
}

/// A small deterministic generator: the seed is printed, so a failure
/// can be replayed.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn sigkill_at_random_points_leaves_every_completed_turn() {
    let seed = std::env::var("GEMLINE_FAULT_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        });
    support_note(&format!("sigkill test: GEMLINE_FAULT_SEED={seed}"));
    let mut rng = Lcg(seed);
    const RUNS: usize = 50;
    // Each answer streams in a few pieces with pauses, so a kill can land
    // before the request, mid-stream or while the turn is written.
    let pieces: String = (0..4)
        .map(|i| {
            let mut c = json!({"content":{"role":"model","parts":[{"text": format!("piece {i} ").repeat(200)}]}});
            if i == 3 {
                c["finishReason"] = "STOP".into();
            }
            format!("data: {}\r\n\r\n", json!({"candidates":[c]}))
        })
        .collect();
    let reply = Reply::sse(&pieces).delay_each(Duration::from_millis(5));
    let server = FakeGemini::start("faults-kill", vec![reply; RUNS + 10]);
    let home = temp_dir("faults-kill");
    let path = session_file(&home, "kill");
    let (mut completed, mut killed) = (0, 0);
    for _ in 0..RUNS {
        let mut child = gem_ask_std_cmd(&server, &home)
            .args(["--session", "kill", "hi"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(rng.below(120)));
        match child.try_wait().unwrap() {
            Some(status) => {
                assert!(status.success(), "{status:?}");
                completed += 1;
            }
            None => {
                child.kill().unwrap();
                child.wait().unwrap();
                killed += 1;
            }
        }
        if path.exists() {
            let h = parse_history(&fs::read(&path).unwrap());
            assert!(h.skipped.is_empty(), "seed {seed}: {:?}", h.skipped);
            assert_whole_turns(&h.contents);
        }
    }
    // One run left to finish: on a loaded machine every random kill may
    // land before the first turn is written, and the file must hold one.
    let status = gem_ask_std_cmd(&server, &home)
        .args(["--session", "kill", "hi"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{status:?}");
    completed += 1;
    let h = load(&path).unwrap();
    let turns = h.contents.len() / 2;
    assert!(
        turns >= completed && turns <= RUNS + 1,
        "seed {seed}: {turns} turns stored, {completed} runs completed"
    );
    assert_whole_lines(&path);
    support_note(&format!(
        "sigkill test: {completed} completed, {killed} killed, {turns} turns stored"
    ));
}

/// `turns` turns of three records each by `writers` threads, on the
/// sessions `path_of(writer)` gives.
fn write_concurrently(writers: usize, turns: usize, path_of: impl Fn(usize) -> PathBuf) {
    let handles: Vec<_> = (0..writers)
        .map(|w| {
            let path = path_of(w);
            std::thread::spawn(move || {
                for t in 0..turns {
                    let turn: Vec<Value> = (0..3)
                        .map(|i| content_record(&user(&format!("{w}/{t}/{i}"))))
                        .collect();
                    append(&path, "m", &turn).unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

/// The turns of a session: each three records of one writer's turn, in
/// order; returns how many turns each writer has.
fn check_turns(path: &Path) -> std::collections::BTreeMap<String, usize> {
    assert_whole_lines(path);
    let h = load(path).unwrap();
    assert!(h.skipped.is_empty(), "{:?}", h.skipped);
    let mut per_writer = std::collections::BTreeMap::new();
    for turn in h.contents.chunks(3) {
        let texts: Vec<&str> = turn
            .iter()
            .map(|c| c["parts"][0]["text"].as_str().unwrap())
            .collect();
        let (prefix, _) = texts[0].rsplit_once('/').unwrap();
        assert_eq!(
            texts,
            [0, 1, 2].map(|i| format!("{prefix}/{i}")),
            "a torn turn"
        );
        *per_writer
            .entry(prefix.split('/').next().unwrap().to_string())
            .or_insert(0) += 1;
    }
    per_writer
}

#[test]
fn thirty_two_writers_on_one_session_lose_and_tear_nothing() {
    let dir = temp_dir("faults-32-writers");
    let path = dir.join("one.jsonl");
    write_concurrently(32, 10, |_| path.clone());
    let per_writer = check_turns(&path);
    assert_eq!(per_writer.len(), 32);
    assert!(per_writer.values().all(|&n| n == 10), "{per_writer:?}");
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches(r#""record":"meta""#).count(), 1);
}

#[test]
fn thirty_two_sessions_at_once_lose_and_tear_nothing() {
    let dir = temp_dir("faults-32-sessions");
    write_concurrently(32, 10, |w| dir.join(format!("s{w}.jsonl")));
    for w in 0..32 {
        let per_writer = check_turns(&dir.join(format!("s{w}.jsonl")));
        assert_eq!(per_writer.get(&w.to_string()), Some(&10));
    }
}

/// `runs` gem-ask processes started at once, run `w` asking `question w`
/// on session `session_of(w)`: real processes, each reading its session
/// before the turn and appending the turn after it. Returns the data home.
fn gem_ask_all_at_once(name: &str, runs: usize, session_of: impl Fn(usize) -> String) -> PathBuf {
    let server = FakeGemini::start(name, vec![Reply::sse(&fixture(ANSWER)); runs]);
    let home = temp_dir(name);
    let children: Vec<_> = (0..runs)
        .map(|w| {
            gem_ask_std_cmd(&server, &home)
                .args(["--session", &session_of(w), &format!("question {w}")])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    home
}

/// The questions of a session's turns, each turn whole (its answer right
/// after it) and every line whole.
fn questions(path: &Path) -> Vec<String> {
    assert_whole_lines(path);
    let h = load(path).unwrap();
    assert!(h.skipped.is_empty(), "{:?}", h.skipped);
    assert_whole_turns(&h.contents);
    h.contents
        .chunks(2)
        .map(|turn| {
            assert_eq!(turn[1]["parts"][0]["text"], "Paris");
            turn[0]["parts"][0]["text"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn thirty_two_gem_ask_runs_on_one_session_lose_and_tear_nothing() {
    let home = gem_ask_all_at_once("faults-32-runs", 32, |_| "shared".into());
    let mut asked = questions(&session_file(&home, "shared"));
    asked.sort();
    let mut want: Vec<String> = (0..32).map(|w| format!("question {w}")).collect();
    want.sort();
    assert_eq!(asked, want);
    let text = fs::read_to_string(session_file(&home, "shared")).unwrap();
    assert_eq!(text.matches(r#""record":"meta""#).count(), 1);
}

#[test]
fn thirty_two_gem_ask_runs_on_their_own_sessions_at_once() {
    let home = gem_ask_all_at_once("faults-32-run-sessions", 32, |w| format!("s{w}"));
    for w in 0..32 {
        assert_eq!(
            questions(&session_file(&home, &format!("s{w}"))),
            [format!("question {w}")]
        );
    }
}
