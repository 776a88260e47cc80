//! `gem-ask log` (issue 35's audit log) over real sessions: runs against
//! the fake server leave session files, then `log list`, `log search`,
//! their filters and `log show` find them; an index gone stale, damaged
//! or locked gives the same answers; no secret gem-ask knows is shown or
//! kept in the index.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::ask::text_reply;
use crate::support::tools::{MODEL, Scene, call, calls_reply, finish};
use crate::support::{FakeGemini, KEY, events, of_type};

/// `gem-ask log ARGS`: its exit code, its lines and its stderr.
fn log(scene: &Scene, server: &FakeGemini, args: &[&str]) -> (i32, Vec<Value>, String) {
    let out = finish(scene.spawn(server, None, &[&["log"], args].concat()));
    (
        out.status.code().unwrap_or(-1),
        events(&out.stdout),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The records of a `log list` or `log search` that must succeed.
fn records(scene: &Scene, server: &FakeGemini, args: &[&str]) -> Vec<Value> {
    let (code, lines, err) = log(scene, server, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert!(lines.iter().all(|l| l["type"] == "record"), "{lines:?}");
    lines.into_iter().map(|l| l["record"].clone()).collect()
}

fn sessions(records: &[Value]) -> Vec<&str> {
    records
        .iter()
        .map(|r| r["session"].as_str().unwrap())
        .collect()
}

fn session_of(ev: &[Value]) -> String {
    of_type(ev, "init")[0]["session_id"]
        .as_str()
        .unwrap()
        .to_string()
}

fn sessions_dir(scene: &Scene) -> PathBuf {
    scene.home.join("gemline/sessions")
}

/// A copy of a session file with every time moved to `day`: a session of
/// another week.
fn backdate(dir: &Path, from: &str, to: &str, day: &str) {
    let text = std::fs::read_to_string(dir.join(format!("{from}.jsonl"))).unwrap();
    let re = regex::Regex::new(r"\d{4}-\d{2}-\d{2}T").unwrap();
    let moved = re.replace_all(&text, format!("{day}T").as_str());
    std::fs::write(dir.join(format!("{to}.jsonl")), moved.as_bytes()).unwrap();
}

/// A session that ran a shell command, and one that did not.
fn two_sessions(name: &str) -> (Scene, FakeGemini, String, String) {
    let scene = Scene::new(name);
    let server = FakeGemini::start(
        name,
        vec![
            calls_reply(&[call(
                "run_shell_command",
                json!({"command": "echo marker-from-tool"}),
            )]),
            text_reply("The command printed the marker.", 10, 5),
            text_reply("Paris is the capital of France.", 10, 5),
        ],
    );
    let ev = scene.run(
        &server,
        &[
            "--tools",
            "run_shell_command",
            "--allow-tool",
            "run_shell_command",
            "run the marker command",
        ],
    );
    let a = session_of(&ev);
    let b = session_of(&scene.run(&server, &["capital of France?"]));
    assert_ne!(a, b);
    (scene, server, a, b)
}

#[test]
fn log_lists_searches_filters_and_shows_real_sessions() {
    let (scene, server, a, b) = two_sessions("log-real");
    let all = records(&scene, &server, &["list"]);
    assert_eq!(sessions(&all), [b.as_str(), a.as_str()]);
    let ra = &all[1];
    assert_eq!(ra["model"], MODEL);
    assert_eq!(ra["tool_calls"], 1);
    assert_eq!(ra["tools"], "run_shell_command");
    assert_eq!(ra["status"], "success");
    assert_eq!(ra["turns"], 1);
    assert!(ra["tokens"].as_u64().unwrap() > 0, "{ra}");
    assert!(ra["cost_usd"].as_f64().unwrap() > 0.0, "{ra}");
    assert_eq!(ra["prompt"], "run the marker command");

    // The text is found in the call, its result and the answer.
    let hits = records(&scene, &server, &["search", "marker"]);
    let kinds: Vec<&str> = hits.iter().map(|h| h["kind"].as_str().unwrap()).collect();
    for k in ["prompt", "tool_call", "tool_result", "answer"] {
        assert!(kinds.contains(&k), "{k}: {hits:?}");
    }
    assert!(sessions(&hits).iter().all(|s| *s == a));
    let calls = records(
        &scene,
        &server,
        &["search", "marker", "--tool", "run_shell_command"],
    );
    let kinds: Vec<&str> = calls.iter().map(|h| h["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.len(), 2, "{calls:?}");
    assert!(kinds.contains(&"tool_call") && kinds.contains(&"tool_result"));
    assert!(records(&scene, &server, &["search", "Paris"])[0]["session"] == b.as_str());
    assert!(records(&scene, &server, &["search", "nowhere-said"]).is_empty());

    // The filters.
    let only = |args: &[&str]| sessions(&records(&scene, &server, args)).join(" ");
    assert_eq!(only(&["list", "--tool", "run_shell_command"]), a);
    assert_eq!(only(&["list", "--model", MODEL]), format!("{b} {a}"));
    assert_eq!(only(&["list", "--model", "gemini-0-none"]), "");
    assert_eq!(only(&["list", "--status", "error"]), "");
    assert_eq!(only(&["list", "--status", "success"]), format!("{b} {a}"));
    assert_eq!(only(&["list", "--status", "incomplete"]), "");
    assert_eq!(only(&["list", "--cost-over", "0"]), format!("{b} {a}"));
    assert_eq!(only(&["list", "--cost-over", "1000"]), "");

    // A session of an earlier year: left out by --since, found without.
    backdate(
        &sessions_dir(&scene),
        &a,
        "20200102-030405-aaaaaa",
        "2020-01-02",
    );
    assert_eq!(only(&["list", "--since", "7d"]), format!("{b} {a}"));
    assert_eq!(only(&["list"]), format!("{b} {a} 20200102-030405-aaaaaa"));
    assert_eq!(
        only(&[
            "list",
            "--since",
            "2019-12-31",
            "--tool",
            "run_shell_command"
        ]),
        format!("{a} 20200102-030405-aaaaaa")
    );
    let recent = records(
        &scene,
        &server,
        &[
            "search",
            "marker",
            "--since",
            "7d",
            "--tool",
            "run_shell_command",
        ],
    );
    assert!(sessions(&recent).iter().all(|s| *s == a), "{recent:?}");
    let (code, _, err) = log(&scene, &server, &["list", "--since", "last week"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("7d"), "{err}");

    // One session replayed as a run's events.
    let (code, ev, err) = log(&scene, &server, &["show", &a]);
    assert_eq!(code, 0, "{err}");
    let kinds: Vec<&str> = ev.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "init",
            "message",
            "tool_use",
            "tool_result",
            "message",
            "result"
        ]
    );
    assert_eq!(ev[2]["parameters"]["command"], "echo marker-from-tool");
    assert_eq!(ev[3]["tool_id"], ev[2]["tool_id"]);
    assert!(
        ev[3]["output"]
            .as_str()
            .unwrap()
            .contains("marker-from-tool")
    );
    assert_eq!(ev[5]["status"], "success");
    let (code, _, err) = log(&scene, &server, &["show", "no-such-session"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("no session no-such-session"), "{err}");

    // A call refused (headless, no rule, no --allow-tool): status error.
    let refused = FakeGemini::start(
        "log-real-refused",
        vec![
            calls_reply(&[call(
                "run_shell_command",
                json!({"command": "touch refused"}),
            )]),
            text_reply("It was refused.", 10, 5),
        ],
    );
    let c = session_of(&scene.run(&refused, &["--tools", "run_shell_command", "try it"]));
    assert_eq!(only(&["list", "--status", "error"]), c);
    let (_, ev, _) = log(&scene, &server, &["show", &c]);
    assert_eq!(of_type(&ev, "tool_result")[0]["status"], "error");
    assert_eq!(of_type(&ev, "result")[0]["status"], "error");
}

#[test]
fn a_stale_damaged_or_locked_index_gives_the_same_answer() {
    let (scene, server, a, b) = two_sessions("log-index");
    let dir = sessions_dir(&scene);
    let index = dir.join("log-index.sqlite3");
    assert_eq!(sessions(&records(&scene, &server, &["list"])).len(), 2);
    assert!(index.exists());

    // Stale: a session added, one changed, one removed.
    backdate(&dir, &a, "20200102-030405-aaaaaa", "2020-01-02");
    std::fs::remove_file(dir.join(format!("{b}.jsonl"))).unwrap();
    let text = std::fs::read_to_string(dir.join(format!("{a}.jsonl"))).unwrap();
    let topic = json!({"record": "topic", "title": "appended later", "timestamp": "2030-01-01T00:00:00.000Z"});
    std::fs::write(dir.join(format!("{a}.jsonl")), format!("{text}{topic}\n")).unwrap();
    let list = records(&scene, &server, &["list"]);
    assert_eq!(sessions(&list), [a.as_str(), "20200102-030405-aaaaaa"]);
    assert_eq!(list[0]["topic"], "appended later");
    assert!(records(&scene, &server, &["search", "Paris"]).is_empty());

    // Damaged: rebuilt, with a warning, and the answer the same.
    std::fs::write(&index, b"not an index at all, just bytes").unwrap();
    let (code, lines, err) = log(
        &scene,
        &server,
        &["search", "marker", "--tool", "run_shell_command"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("cannot be read"), "{err}");
    assert_eq!(lines.len(), 4, "{lines:?}");
    let (_, _, err) = log(&scene, &server, &["list"]);
    assert!(!err.contains("warning"), "rebuilt once: {err}");

    // Locked by another writer: read without it, with a warning.
    let held = rusqlite::Connection::open(&index).unwrap();
    held.execute_batch("BEGIN EXCLUSIVE").unwrap();
    backdate(&dir, &a, "20210102-030405-bbbbbb", "2021-01-02");
    let (code, lines, err) = log(&scene, &server, &["list"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("cannot be used"), "{err}");
    assert_eq!(lines.len(), 3, "{lines:?}");
    held.execute_batch("ROLLBACK").unwrap();
    drop(held);
    assert_eq!(records(&scene, &server, &["list"]).len(), 3);
}

#[test]
fn the_log_shows_no_secret_and_keeps_none_in_its_index() {
    let scene = Scene::new("log-secrets");
    let token = "ghp_a1b2c3d4e5f6g7h8i9j0k1l2";
    let server = FakeGemini::start(
        "log-secrets",
        vec![text_reply(&format!("Noted: {KEY} and {token}"), 10, 5)],
    );
    let prompt = format!("remember my key {KEY} and token {token}");
    let id = session_of(&scene.run(&server, &[prompt.as_str()]));
    let file = std::fs::read_to_string(sessions_dir(&scene).join(format!("{id}.jsonl"))).unwrap();
    assert!(file.contains(KEY), "the session file is the truth: {file}");

    let mut shown = String::new();
    for args in [
        &["list"][..],
        &["search", "remember"],
        &["search", "noted"],
        &["show", &id],
    ] {
        let (code, lines, err) = log(&scene, &server, args);
        assert_eq!(code, 0, "{err}");
        assert!(!lines.is_empty(), "{args:?}");
        shown += &serde_json::to_string(&lines).unwrap();
    }
    assert!(!shown.contains(KEY) && !shown.contains(token), "{shown}");
    assert!(shown.contains("[REDACTED]"), "{shown}");
    assert!(records(&scene, &server, &["search", KEY]).is_empty());
    for f in std::fs::read_dir(sessions_dir(&scene)).unwrap().flatten() {
        let name = f.file_name().to_string_lossy().into_owned();
        if name.starts_with("log-index") {
            let bytes = std::fs::read(f.path()).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            assert!(!text.contains(KEY) && !text.contains(token), "{name}");
        }
    }
}
