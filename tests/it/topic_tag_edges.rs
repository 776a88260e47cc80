//! topic-tag at its edges: the session's last chapter (--current) and the
//! session id, bad lines and --strict, missing and several files, closed
//! pipes and stderr, a live stream, exit codes and the man page.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use assert_cmd::cargo::cargo_bin_cmd;
use predicates::prelude::*;

use crate::support::{events, temp_dir};

use super::topic_tag::{BIN, data};

fn data_home(test: &str) -> PathBuf {
    let dir = temp_dir(&format!("topic-tag-{test}"));
    let sessions = dir.join("gemline/sessions");
    std::fs::create_dir_all(&sessions).unwrap();
    std::fs::copy(data("session.jsonl"), sessions.join("2b9f0c1e.jsonl")).unwrap();
    std::fs::copy(
        data("session-no-topic.jsonl"),
        sessions.join("empty1.jsonl"),
    )
    .unwrap();
    dir
}

#[test]
fn current_prints_the_last_topic_of_a_session() {
    let home = data_home("current");
    cargo_bin_cmd!("topic-tag")
        .args(["--current", "--session", "2b9f0c1e"])
        .env("XDG_DATA_HOME", &home)
        .assert()
        .success()
        .stdout("[Active Topic: Charting]\n");
    // GEMINI_SESSION_ID is the default session.
    cargo_bin_cmd!("topic-tag")
        .arg("--current")
        .env("XDG_DATA_HOME", &home)
        .env("GEMINI_SESSION_ID", "2b9f0c1e")
        .assert()
        .success()
        .stdout("[Active Topic: Charting]\n");
    // No topic yet: nothing, success.
    cargo_bin_cmd!("topic-tag")
        .args(["--current", "--session", "empty1"])
        .env("XDG_DATA_HOME", &home)
        .assert()
        .success()
        .stdout("");
    // An unknown session names the file it looked for.
    let missing = home.join("gemline/sessions/nope.jsonl");
    cargo_bin_cmd!("topic-tag")
        .args(["--current", "--session", "nope"])
        .env("XDG_DATA_HOME", &home)
        .assert()
        .code(66)
        .stdout("")
        .stderr(predicate::str::contains(missing.display().to_string()));
    cargo_bin_cmd!("topic-tag")
        .arg("--current")
        .env("XDG_DATA_HOME", &home)
        .env_remove("GEMINI_SESSION_ID")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("GEMINI_SESSION_ID"));
    cargo_bin_cmd!("topic-tag")
        .args(["--current", "--session", "../../etc/passwd"])
        .env("XDG_DATA_HOME", &home)
        .assert()
        .code(2);
    std::fs::remove_dir_all(&home).ok();
}

#[test]
fn gemini_session_id_in_the_environment_does_not_disturb_a_stream() {
    cargo_bin_cmd!("topic-tag")
        .env("GEMINI_SESSION_ID", "2b9f0c1e")
        .write_stdin("{\"type\":\"message\"}\n")
        .assert()
        .success()
        .stdout("{\"type\":\"message\"}\n");
}

#[test]
fn bad_lines_warn_with_line_numbers_and_the_stream_goes_on() {
    let path = data("bad-lines.jsonl");
    let assert = cargo_bin_cmd!("topic-tag")
        .args(["-i", path.to_str().unwrap()])
        .assert()
        .success();
    let o = assert.get_output();
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        concat!(
            r#"{"type":"message","role":"assistant","content":"before"}"#,
            "\n",
            r#"{"type":"topic","title":"Next","topic":"Next"}"#,
            "\n",
            r#"{"type":"topic","topic":"Next"}"#,
            "\n",
            r#"{"type":"message","role":"assistant","content":"after","topic":"Next"}"#,
            "\n",
        )
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    let name = path.display().to_string();
    assert!(
        stderr.contains(&format!("{name}: line 2: not JSON")),
        "{stderr}"
    );
    assert!(stderr.contains(&format!(
        "{name}: line 4: expected a JSON object (one event per line), found an array"
    )));
    assert!(stderr.contains(&format!("{name}: line 5: not JSON (EOF while parsing")));
    assert!(stderr.contains(&format!(
        "{name}: line 7: a topic event without a title: field `title`"
    )));
    assert_eq!(stderr.lines().count(), 4, "{stderr}");
}

#[test]
fn strict_stops_at_the_first_bad_line_with_65() {
    let path = data("bad-lines.jsonl");
    cargo_bin_cmd!("topic-tag")
        .args(["--strict", "-i", path.to_str().unwrap()])
        .assert()
        .code(65)
        .stdout("{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"before\"}\n")
        .stderr(predicate::str::contains("line 2: not JSON"));
}

#[test]
fn missing_input_is_66() {
    cargo_bin_cmd!("topic-tag")
        .args(["-i", "/nonexistent/stream.jsonl"])
        .assert()
        .code(66)
        .stderr(predicate::str::contains("/nonexistent/stream.jsonl"));
}

#[test]
fn files_are_one_stream_with_their_own_line_numbers() {
    let a = data("bad-lines.jsonl");
    let b = data("gem-ask-stream.jsonl");
    let assert = cargo_bin_cmd!("topic-tag")
        .args(["-i", a.to_str().unwrap(), "-i", b.to_str().unwrap()])
        .assert()
        .success();
    let out = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    let evs = events(&out);
    // "Next" from the first file stamps the start of the second.
    assert_eq!(evs[4]["type"], "init");
    assert_eq!(evs[4]["topic"], "Next");
}

#[test]
fn a_closed_pipe_ends_quietly_with_0() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let line =
            b"{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"a line of text\"}\n";
        for _ in 0..200_000 {
            if stdin.write_all(line).is_err() {
                break;
            }
        }
    });
    // Like `| head -1`: read one line, then close the pipe.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    drop(stdout);
    writer.join().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        first,
        "{\"type\":\"message\",\"role\":\"assistant\",\"content\":\"a line of text\"}\n"
    );
    assert_eq!(status.code(), Some(0));
    assert_eq!(stderr, "");
}

/// Reads one line from the child's stdout on a thread, so a bug shows as a
/// failure instead of a hung test.
fn next_line(rx: &mpsc::Receiver<String>) -> String {
    rx.recv_timeout(Duration::from_secs(30))
        .expect("topic-tag did not pass the event on while its input stayed open")
}

#[test]
fn a_live_stream_sees_each_event_before_the_input_ends() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    stdin
        .write_all(b"{\"type\":\"message\",\"content\":\"one\"}\n")
        .unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_line(&rx), r#"{"type":"message","content":"one"}"#);
    // A call held as a possible run is let go when the input goes quiet:
    // a long-running tool still shows as started.
    stdin
        .write_all(b"{\"type\":\"tool_use\",\"tool_name\":\"create_new_topic\",\"tool_id\":\"t\",\"parameters\":{\"title\":\"Live\"}}\n{\"type\":\"tool_use\",\"tool_name\":\"run_shell_command\",\"tool_id\":\"s\",\"parameters\":{}}\n")
        .unwrap();
    stdin.flush().unwrap();
    assert_eq!(
        next_line(&rx),
        r#"{"type":"topic","title":"Live","topic":"Live"}"#
    );
    assert_eq!(
        next_line(&rx),
        r#"{"type":"tool_use","tool_name":"run_shell_command","tool_id":"s","parameters":{},"topic":"Live"}"#
    );
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn help_lists_exit_codes() {
    cargo_bin_cmd!("topic-tag")
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "65  a bad input line under --strict",
        ))
        .stdout(predicate::str::contains(
            "66  an input file or the session file",
        ));
}

#[test]
fn the_man_page_renders_from_the_library_args() {
    use clap::CommandFactory;
    let mut page = Vec::new();
    clap_mangen::Man::new(gemline::app::topic_tag::Args::command())
        .render(&mut page)
        .unwrap();
    let page = String::from_utf8(page).unwrap();
    assert!(page.contains("topic\\-tag"), "{page}");
    assert!(page.contains("create_new_topic"));
    assert!(page.contains("66"));
}

#[test]
fn a_closed_stderr_does_not_kill_the_summary_table() {
    let mut child = Command::new(BIN)
        .args(["--summary=table", "--wrap", "--split", "^==> "])
        .env_remove("GEMINI_SESSION_ID")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"==> Build\ncompiling\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
}

/// `topic-tag --current --session "$GEMINI_SESSION_ID"` with the variable
/// unset: the message about a missing session, not `bad session id ""`.
#[test]
fn an_empty_session_id_is_a_missing_one() {
    for env in [None, Some("")] {
        let mut cmd = cargo_bin_cmd!("topic-tag");
        cmd.args(["--current", "--session", ""]);
        match env {
            Some(v) => cmd.env("GEMINI_SESSION_ID", v),
            None => cmd.env_remove("GEMINI_SESSION_ID"),
        };
        let o = cmd.assert().code(2).get_output().stderr.clone();
        assert_eq!(
            String::from_utf8(o).unwrap(),
            "topic-tag: error: --current needs a session: give --session ID or set GEMINI_SESSION_ID\n"
        );
    }
    cargo_bin_cmd!("topic-tag")
        .args(["--current"])
        .env("GEMINI_SESSION_ID", "")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--current needs a session"));
}
