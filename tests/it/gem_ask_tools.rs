//! gem-ask's tools and consent, end to end: the real binary against the
//! fake Gemini server, consent asked on a real pseudo-terminal
//! (`GEMLINE_TTY`) or refused for want of one (a session without a
//! controlling terminal), the file tools confined to the working directory.

use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::tools::{
    Pty, Scene, answer_reply, call, calls_reply, declared, finish, responses,
};
use crate::support::{FakeGemini, events, of_type};
use serde_json::{Value, json};

fn shell(cmd: &str) -> Value {
    call("run_shell_command", json!({"command": cmd}))
}

/// The `tool_result` events of a run, by call id.
fn results(ev: &[Value]) -> Vec<&Value> {
    of_type(ev, "tool_result")
}

const PROMPT_3: &str = "Allow? [y]es / [n]o / [a]lways in this conversation: ";
const PROMPT_2: &str = "Allow? [y]es / [n]o: ";

#[test]
fn yes_runs_the_command_shown_and_no_refuses_it() {
    let scene = Scene::new("consent-y-n");
    let server = FakeGemini::start(
        "consent-y-n",
        vec![
            calls_reply(&[shell("echo first"), shell("echo second")]),
            answer_reply(),
        ],
    );
    let mut pty = Pty::open();
    let child = scene.spawn(
        &server,
        Some(&pty),
        &["--tools", "run_shell_command", "run them"],
    );
    pty.wait_for(PROMPT_3, 1);
    pty.type_line("y");
    pty.wait_for(PROMPT_3, 2);
    pty.type_line("n");
    let out = finish(child);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t = pty.transcript();
    // The prompt shows exactly what will run, and where.
    assert!(
        t.contains(
            "gem-ask: the model wants to use run_shell_command:\r\nsh -c 'echo first'\r\nin "
        ),
        "{t}"
    );
    assert!(t.contains("sh -c 'echo second'"), "{t}");
    let ev = events(&out.stdout);
    let r = results(&ev);
    assert_eq!(r[0]["status"], "success");
    assert_eq!(r[0]["consent"], "yes");
    assert_eq!(r[0]["output"], "exit code 0\nstdout:\nfirst\n");
    assert_eq!(r[1]["status"], "error");
    assert_eq!(r[1]["consent"], "denied");
    assert_eq!(r[1]["error"]["type"], "consent_denied");
    // The model is told, and the loop went on to the answer.
    let fr = responses(&server.bodies()[1]);
    assert_eq!(fr[0]["response"]["stdout"], "first\n");
    assert_eq!(
        fr[1]["response"]["error"],
        "the user declined to run run_shell_command; it was not run"
    );
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");
}

#[test]
fn always_is_asked_once_per_session() {
    let scene = Scene::new("consent-a");
    let server = FakeGemini::start(
        "consent-a",
        vec![
            calls_reply(&[shell("echo one")]),
            calls_reply(&[shell("echo two"), shell("echo three")]),
            answer_reply(),
        ],
    );
    let mut pty = Pty::open();
    let child = scene.spawn(&server, Some(&pty), &["--tools", "run_shell_command", "go"]);
    pty.wait_for(PROMPT_3, 1);
    pty.type_line("a");
    let out = finish(child);
    assert!(out.status.success());
    assert_eq!(pty.transcript().matches("Allow?").count(), 1);
    let ev = events(&out.stdout);
    let consent: Vec<&Value> = results(&ev).iter().map(|r| &r["consent"]).collect();
    assert_eq!(consent, ["always", "always", "always"]);
    assert!(results(&ev).iter().all(|r| r["status"] == "success"));
}

#[test]
fn strict_asks_every_time_without_always() {
    let scene = Scene::new("consent-strict");
    scene.config("[tools.levels]\nrun_shell_command = \"strict\"\n");
    let server = FakeGemini::start(
        "consent-strict",
        vec![
            calls_reply(&[shell("echo one"), shell("echo two")]),
            answer_reply(),
        ],
    );
    let mut pty = Pty::open();
    let child = scene.spawn(&server, Some(&pty), &["--tools", "run_shell_command", "go"]);
    pty.wait_for(PROMPT_2, 1);
    // `a` is not offered: the question comes again.
    pty.type_line("a");
    pty.wait_for(PROMPT_2, 2);
    pty.type_line("y");
    pty.wait_for(PROMPT_2, 3);
    pty.type_line("n");
    let out = finish(child);
    assert!(out.status.success());
    assert!(!pty.transcript().contains("[a]lways"));
    let ev = events(&out.stdout);
    let r = results(&ev);
    assert_eq!(
        (&r[0]["consent"], &r[0]["status"]),
        (&json!("yes"), &json!("success"))
    );
    assert_eq!(
        (&r[1]["consent"], &r[1]["status"]),
        (&json!("denied"), &json!("error"))
    );
}

#[test]
fn no_terminal_denies_and_tells_the_model() {
    let scene = Scene::new("consent-none");
    let server = FakeGemini::start(
        "consent-none",
        vec![calls_reply(&[shell("touch made-it")]), answer_reply()],
    );
    let ev = scene.run(&server, &["--tools", "run_shell_command", "go"]);
    assert!(!scene.work.join("made-it").exists());
    let r = results(&ev);
    assert_eq!(r[0]["consent"], "no_terminal");
    assert_eq!(r[0]["error"]["type"], "consent_denied");
    let fr = responses(&server.bodies()[1]);
    let msg = fr[0]["response"]["error"].as_str().unwrap();
    assert!(msg.contains("there is no terminal to ask"), "{msg}");
    assert!(msg.contains("--allow-tool run_shell_command"), "{msg}");
}

#[test]
fn allow_tool_and_yes_run_without_a_terminal() {
    let scene = Scene::new("consent-allow");
    let server = FakeGemini::start(
        "consent-allow",
        vec![
            calls_reply(&[shell("touch by-flag")]),
            answer_reply(),
            calls_reply(&[call(
                "write_file",
                json!({"path": "by-yes.txt", "content": "ok"}),
            )]),
            answer_reply(),
            calls_reply(&[shell("touch by-config")]),
            answer_reply(),
        ],
    );
    let run = |args: &[&str]| scene.run(&server, args);
    let ev = run(&[
        "--tools",
        "run_shell_command",
        "--allow-tool",
        "run_shell_command",
        "go",
    ]);
    assert_eq!(results(&ev)[0]["consent"], "allowed");
    assert!(scene.work.join("by-flag").exists());
    let ev = run(&["--tools", "write_file", "--yes", "go"]);
    assert_eq!(results(&ev)[0]["consent"], "allowed");
    assert_eq!(
        std::fs::read_to_string(scene.work.join("by-yes.txt")).unwrap(),
        "ok"
    );
    // The config's allow list, and its enable list declaring the tool.
    scene.config("[tools]\nenable = [\"run_shell_command\"]\nallow = [\"run_shell_command\"]\n");
    let ev = run(&["go"]);
    assert_eq!(results(&ev)[0]["consent"], "allowed");
    assert!(scene.work.join("by-config").exists());
    assert!(declared(&server.bodies()[4]).contains(&"run_shell_command".to_string()));
}

#[test]
fn piped_stdin_is_context_and_never_an_answer() {
    let scene = Scene::new("consent-stdin");
    let server = FakeGemini::start(
        "consent-stdin",
        vec![calls_reply(&[shell("echo ran")]), answer_reply()],
    );
    let mut pty = Pty::open();
    let mut child = scene
        .gem_ask(&server, Some(&pty))
        .args(["--tools", "run_shell_command", "summarize"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    // Lines that would be answers if the prompt read stdin.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"y\ny\ncontext line\n").unwrap();
    drop(stdin);
    pty.wait_for(PROMPT_3, 1);
    pty.type_line("n");
    let out = finish(child);
    assert!(out.status.success());
    assert_eq!(results(&events(&out.stdout))[0]["consent"], "denied");
    let first = &server.bodies()[0];
    let sent = first["contents"][0]["parts"][0]["text"].as_str().unwrap();
    assert!(sent.contains("y\ny\ncontext line"), "{sent}");
}

#[test]
fn paths_outside_the_working_directory_are_refused() {
    let scene = Scene::new("tools-outside");
    std::fs::write(scene.home.join("secret.txt"), "s3cr3t").unwrap();
    std::os::unix::fs::symlink(scene.home.join("secret.txt"), scene.work.join("link")).unwrap();
    std::fs::write(scene.work.join("notes.txt"), "inside").unwrap();
    let server = FakeGemini::start(
        "tools-outside",
        vec![
            calls_reply(&[
                call("read_file", json!({"path": "../secret.txt"})),
                call("read_file", json!({"path": "link"})),
                call("read_file", json!({"path": "notes.txt"})),
                call(
                    "write_file",
                    json!({"path": "../planted.txt", "content": "x"}),
                ),
                call("list_directory", json!({"path": ".."})),
            ]),
            answer_reply(),
        ],
    );
    let ev = scene.run(
        &server,
        &["--tools", "read_file,write_file,list_directory", "read"],
    );
    let r = results(&ev);
    let kinds: Vec<&Value> = r.iter().map(|r| &r["error"]["type"]).collect();
    assert_eq!(
        kinds,
        [
            &json!("path_refused"),
            &json!("path_refused"),
            &Value::Null,
            &json!("path_refused"),
            &json!("path_refused")
        ]
    );
    assert_eq!(r[2]["output"], "inside");
    // Refused before any question: no terminal was needed to say no.
    assert!(r.iter().all(|r| r.get("consent").is_none()));
    assert!(!scene.home.join("planted.txt").exists());
    let next = server.bodies()[1].to_string();
    assert!(!next.contains("s3cr3t"));
    assert!(next.contains("is outside the directories the tools may use"));
}

#[test]
fn include_dir_widens_the_workspace_and_search_finds_lines() {
    let scene = Scene::new("tools-include");
    let data = scene.home.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("log.txt"), "ok\nERROR disk full\nok\n").unwrap();
    let server = FakeGemini::start(
        "tools-include",
        vec![
            calls_reply(&[call(
                "search_files",
                json!({"pattern": "ERROR", "path": "../data"}),
            )]),
            answer_reply(),
        ],
    );
    let ev = scene.run(
        &server,
        &[
            "--tools",
            "search_files",
            "--include-dir",
            "../data",
            "find",
        ],
    );
    let out_text = results(&ev)[0]["output"].as_str().unwrap().to_string();
    // The model is told where its tools work.
    let system = server.bodies()[0]["systemInstruction"].to_string();
    let data = data.canonicalize().unwrap();
    assert!(
        system.contains(&format!(
            ", {} (the first is the working directory)",
            data.display()
        )),
        "{system}"
    );
    assert!(
        out_text.ends_with("data/log.txt:2: ERROR disk full"),
        "{out_text}"
    );
}

#[test]
fn a_slow_tool_times_out_and_the_turn_goes_on() {
    let scene = Scene::new("tools-timeout");
    let server = FakeGemini::start(
        "tools-timeout",
        vec![calls_reply(&[shell("sleep 20")]), answer_reply()],
    );
    let started = Instant::now();
    let ev = scene.run(
        &server,
        &[
            "--tools",
            "run_shell_command",
            "--yes",
            "--tool-timeout",
            "0.5",
            "go",
        ],
    );
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_eq!(results(&ev)[0]["error"]["type"], "timeout");
    assert_eq!(server.bodies().len(), 2);
}

#[test]
fn one_shot_declares_no_file_or_command_tool_by_default() {
    let scene = Scene::new("tools-default");
    let server = FakeGemini::start("tools-default", vec![answer_reply()]);
    let out = finish(scene.spawn(&server, None, &["hi"]));
    assert!(out.status.success());
    assert_eq!(
        declared(&server.bodies()[0]),
        crate::support::tools::DEFAULT_TOOLS
    );
}

#[test]
fn a_malformed_config_names_file_line_and_key() {
    let scene = Scene::new("tools-config");
    scene.config("[tools]\nallow = [\"write_file\"]\ntimout = 5\n");
    let server = FakeGemini::start("tools-config", vec![]);
    let out = finish(scene.spawn(&server, None, &["hi"]));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("gemline/config.toml:3: key timout: unknown field `timout`"),
        "{err}"
    );
    assert!(server.bodies().is_empty());
}

#[test]
fn list_tools_shows_source_level_and_declaration() {
    let scene = Scene::new("tools-list");
    scene.config("[tools]\nenable = [\"read_file\"]\nallow = [\"write_file\"]\n[tools.levels]\nrun_shell_command = \"strict\"\n");
    let server = FakeGemini::start("tools-list", vec![]);
    let out = finish(scene.spawn(&server, None, &["--list-tools"]));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    assert_eq!(rows[0], ["TOOL", "SOURCE", "CONSENT", "DECLARED"]);
    for want in [
        ["render_visualization", "built-in", "auto", "yes"],
        ["read_file", "built-in", "auto", "yes"],
        ["search_files", "built-in", "auto", "no"],
        ["write_file", "built-in", "standard (allowed)", "no"],
        ["run_shell_command", "built-in", "strict", "no"],
    ] {
        assert!(rows.contains(&want.to_vec()), "{want:?} in\n{text}");
    }
    assert!(server.bodies().is_empty());
}

#[test]
fn ctrl_c_at_the_prompt_ends_the_run_as_interrupted() {
    let scene = Scene::new("consent-sigint");
    let server = FakeGemini::start(
        "consent-sigint",
        vec![calls_reply(&[shell("touch never")]), answer_reply()],
    );
    let pty = Pty::open();
    let child = scene.spawn(&server, Some(&pty), &["--tools", "run_shell_command", "go"]);
    pty.wait_for(PROMPT_3, 1);
    // SAFETY: signalling the child we started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let out = finish(child);
    assert_eq!(out.status.code(), Some(130));
    let ev = events(&out.stdout);
    assert_eq!(results(&ev)[0]["consent"], "denied");
    let result = of_type(&ev, "result");
    assert_eq!(result[0]["error"]["type"], "interrupted");
    assert!(!scene.work.join("never").exists());
    assert_eq!(server.bodies().len(), 1);
}

#[test]
fn a_config_naming_no_tool_is_a_warning() {
    let scene = Scene::new("tools-config-typo");
    scene.config("[tools]\nallow = [\"wirte_file\"]\n");
    let server = FakeGemini::start("tools-config-typo", vec![]);
    let out = finish(scene.spawn(&server, None, &["--list-tools"]));
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "gem-ask: warning: config: tools.allow names \"wirte_file\", which is not a tool of this run"
        ),
        "{err}"
    );
}
