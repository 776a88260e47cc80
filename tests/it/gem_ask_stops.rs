//! Tools that always stop (issue 21): a FIFO in the workspace or as the
//! config file is refused instead of hanging; the shell tool waits for the
//! shell, not for what it left in the background; Ctrl-C and
//! `--task-timeout` stop a running shell command or an MCP call that never
//! answers (the server is told, `notifications/cancelled`); `read_file`
//! pages through a file of any size. Every run ends with its `result`.
//! The 60 s of `finish` are only a guard against a hang.

use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::tools::{Scene, answer_reply, call, calls_reply, finish, responses};
use crate::support::{FakeGemini, events, of_type};

fn shell(cmd: &str) -> Value {
    call("run_shell_command", json!({"command": cmd}))
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo with a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// Waits (at most 30 s) until `file` exists: the tool has started.
fn wait_file(file: &Path) {
    let until = Instant::now() + Duration::from_secs(30);
    while !file.exists() {
        assert!(Instant::now() < until, "{} never appeared", file.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: signalling our own child by its pid.
    unsafe {
        libc::kill(child.id() as i32, sig);
    }
}

/// Whether process `pid` still runs (a zombie does not) after a grace of
/// a few seconds: SIGKILL is delivered asynchronously, and on a loaded
/// machine a killed process may be seen running for a moment.
fn alive(pid: i32) -> bool {
    let running = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while running() {
        if std::time::Instant::now() > deadline {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}

#[test]
fn a_fifo_is_refused_by_read_and_write_instead_of_hanging() {
    let scene = Scene::new("stops-fifo");
    mkfifo(&scene.work.join("pipe"));
    let server = FakeGemini::start(
        "stops-fifo",
        vec![
            calls_reply(&[
                call("read_file", json!({"path": "pipe"})),
                call("write_file", json!({"path": "pipe", "content": "x"})),
                call("search_files", json!({"pattern": "x"})),
            ]),
            answer_reply(),
        ],
    );
    let out = finish(scene.spawn(
        &server,
        None,
        &[
            "--tools",
            "read_file,write_file,search_files",
            "--allow-tool",
            "write_file",
            "--tool-timeout",
            "5",
            "go",
        ],
    ));
    let ev = events(&out.stdout);
    assert_eq!(of_type(&ev, "result").len(), 1, "{ev:?}");
    assert_eq!(out.status.code(), Some(0));
    let r = of_type(&ev, "tool_result");
    assert_eq!(r[0]["error"]["type"], "tool_failed");
    assert_eq!(
        r[0]["error"]["message"],
        "pipe: it is a FIFO (named pipe), not a regular file"
    );
    assert_eq!(r[1]["status"], "error", "{}", r[1]);
    let msg = r[1]["error"]["message"].as_str().unwrap();
    assert!(msg.starts_with("pipe: "), "{msg}");
    assert_eq!(
        r[2]["output"],
        "no match for \"x\" under .\n[search_files: skipped 1 entries that are not regular files (FIFOs, sockets, devices)]"
    );
}

#[test]
fn a_config_file_that_is_a_fifo_is_a_usage_error() {
    let scene = Scene::new("stops-fifo-config");
    std::fs::create_dir_all(scene.home.join("gemline")).unwrap();
    let config = scene.home.join("gemline/config.toml");
    mkfifo(&config);
    let server = FakeGemini::start("stops-fifo-config", vec![answer_reply()]);
    let out = finish(scene.spawn(&server, None, &["hi"]));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "{}: it is a FIFO (named pipe), not a regular file",
            config.display()
        )),
        "{err}"
    );
    assert!(server.requests().is_empty());
}

#[test]
fn a_background_child_does_not_hold_the_shell_tool() {
    let scene = Scene::new("stops-background");
    let server = FakeGemini::start(
        "stops-background",
        vec![
            calls_reply(&[shell("sleep 25 & echo $! > bg.pid; echo started")]),
            answer_reply(),
        ],
    );
    let out = finish(scene.spawn(
        &server,
        None,
        &[
            "--yes",
            "--tool-timeout",
            "3",
            "--tools",
            "run_shell_command",
            "go",
        ],
    ));
    let ev = events(&out.stdout);
    assert_eq!(out.status.code(), Some(0));
    let r = of_type(&ev, "tool_result")[0];
    // The shell's own answer, not a timeout: it ended at once.
    assert_eq!(r["status"], "success", "{r}");
    let pid: i32 = std::fs::read_to_string(scene.work.join("bg.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The background job as the shell forked it (its `sleep` too, when
    // it had started by then).
    let output = r["output"].as_str().unwrap();
    assert!(
        output.starts_with(
            "exit code 0\nstdout:\nstarted\n\n[background processes still running when the command \
             ended were killed: "
        ),
        "{output}"
    );
    assert!(output.contains(&format!("(pid {pid})")), "{output}");
    assert!(!alive(pid), "sleep 25 still runs");
    // The model is told too, naming the job by its pid (its name is
    // `sleep 25` or, caught between fork and exec on a loaded machine,
    // the shell's).
    let fr = responses(&server.bodies()[1]);
    let note = fr[0]["response"]["note"].as_str().unwrap();
    assert!(note.contains(&format!("(pid {pid})")), "{note}");
}

#[test]
fn ctrl_c_stops_a_running_shell_command() {
    let scene = Scene::new("stops-sigint-shell");
    let server = FakeGemini::start(
        "stops-sigint-shell",
        vec![
            calls_reply(&[shell(
                "sleep 20 & echo $! > sleep.pid; echo $$ > sh.pid; touch started; wait",
            )]),
            answer_reply(),
        ],
    );
    let child = scene.spawn(
        &server,
        None,
        &[
            "--yes",
            "--tool-timeout",
            "50",
            "--tools",
            "run_shell_command",
            "go",
        ],
    );
    wait_file(&scene.work.join("started"));
    signal(&child, libc::SIGINT);
    let out = finish(child);
    assert_eq!(out.status.code(), Some(130));
    let ev = events(&out.stdout);
    let r = of_type(&ev, "tool_result")[0];
    assert_eq!(r["error"]["type"], "interrupted", "{r}");
    let msg = r["error"]["message"].as_str().unwrap();
    assert!(
        msg.starts_with("run_shell_command was stopped by SIGINT; its process group was killed ("),
        "{msg}"
    );
    let result = of_type(&ev, "result")[0];
    assert_eq!(result["error"]["type"], "interrupted");
    for file in ["sh.pid", "sleep.pid"] {
        let pid: i32 = std::fs::read_to_string(scene.work.join(file))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(msg.contains(&format!("(pid {pid})")), "{file}: {msg}");
        assert!(!alive(pid), "{file}: {pid} still runs");
    }
    // The model is not asked again after an interruption.
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn the_task_timeout_applies_in_the_middle_of_a_tool() {
    let scene = Scene::new("stops-task-timeout");
    let server = FakeGemini::start(
        "stops-task-timeout",
        vec![calls_reply(&[shell("sleep 20")]), answer_reply()],
    );
    let out = finish(scene.spawn(
        &server,
        None,
        &[
            "--yes",
            "--tool-timeout",
            "50",
            "--task-timeout",
            "2",
            "-t",
            "wait a while",
        ],
    ));
    assert_eq!(
        out.status.code(),
        Some(7),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ev = events(&out.stdout);
    let r = of_type(&ev, "tool_result")[0];
    assert_eq!(r["error"]["type"], "interrupted", "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().starts_with(
            "run_shell_command was stopped at --task-timeout; its process group was killed"
        ),
        "{r}"
    );
    assert_eq!(of_type(&ev, "result")[0]["error"]["type"], "task_timeout");
}

#[test]
fn read_file_pages_past_the_first_256_kib() {
    let scene = Scene::new("stops-paging");
    let text: String = (1..=25_000)
        .map(|i| format!("line {i:05} of the long file\n"))
        .collect();
    assert!(text.len() > 256 * 1024);
    std::fs::write(scene.work.join("long.txt"), &text).unwrap();
    let server = FakeGemini::start(
        "stops-paging",
        vec![
            calls_reply(&[
                call(
                    "read_file",
                    json!({"path": "long.txt", "offset": 24_999, "limit": 5}),
                ),
                call("read_file", json!({"path": "long.txt"})),
            ]),
            answer_reply(),
        ],
    );
    let ev = scene.run(&server, &["--tools", "read_file", "read it"]);
    let r = of_type(&ev, "tool_result");
    assert_eq!(
        r[0]["output"],
        "line 24999 of the long file\nline 25000 of the long file\n[read_file: lines 24999-25000 of 25000]"
    );
    let first = r[1]["output"].as_str().unwrap();
    assert!(first.len() <= 256 * 1024 + 200);
    let note = first.lines().last().unwrap();
    // 28 bytes a line: 9362 lines fit in 256 KiB.
    assert_eq!(
        note,
        "[read_file: lines 1-9362 of 25000 (a call returns at most 256 KiB); the next page starts at offset 9363]"
    );
}

/// A stand-in MCP server (testdata/mcp/silent_server.py) that never
/// answers a tool call and logs every message it gets.
pub fn silent_server(scene: &Scene) -> Option<(String, std::path::PathBuf)> {
    let python = crate::support::tools::python("the stand-in MCP server (silent_server.py)")?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/mcp/silent_server.py");
    // In the working directory: a server in the sandbox may write there.
    let log = scene.work.join("mcp.log");
    Some((
        format!("silent={python} {} {}", script.display(), log.display()),
        log,
    ))
}

#[test]
fn ctrl_c_cancels_an_mcp_call_that_never_answers() {
    let scene = Scene::new("stops-mcp-cancel");
    let Some((mcp, log)) = silent_server(&scene) else {
        return;
    };
    let server = FakeGemini::start(
        "stops-mcp-cancel",
        vec![
            calls_reply(&[call("silent__wait", json!({"seconds": 100}))]),
            answer_reply(),
        ],
    );
    let child = scene.spawn(
        &server,
        None,
        &["--mcp", &mcp, "--yes", "--tool-timeout", "50", "go"],
    );
    let until = Instant::now() + Duration::from_secs(30);
    while !std::fs::read_to_string(&log).is_ok_and(|l| l.contains("tools/call")) {
        assert!(Instant::now() < until, "the call never reached the server");
        std::thread::sleep(Duration::from_millis(20));
    }
    signal(&child, libc::SIGINT);
    let out = finish(child);
    assert_eq!(out.status.code(), Some(130));
    let ev = events(&out.stdout);
    let r = of_type(&ev, "tool_result")[0];
    assert_eq!(r["error"]["type"], "interrupted", "{r}");
    assert_eq!(
        r["error"]["message"],
        "wait was stopped by SIGINT; the server was told to cancel it (notifications/cancelled)"
    );
    let lines: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let call_id = &lines.iter().find(|m| m["method"] == "tools/call").unwrap()["id"];
    let cancel = lines
        .iter()
        .find(|m| m["method"] == "notifications/cancelled")
        .unwrap_or_else(|| panic!("no notifications/cancelled: {lines:?}"));
    assert_eq!(&cancel["params"]["requestId"], call_id);
}
