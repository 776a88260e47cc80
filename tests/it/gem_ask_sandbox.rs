//! The shell tool's sandbox (Landlock) on this kernel, end to end: a
//! command works as usual inside the working directory and its private
//! TMPDIR, but cannot write outside it, read the (fake) home directory's
//! ~/.ssh, or connect to a local port without --allow-network; with
//! `--sandbox off` the same commands do what they say (so the sandbox is
//! what stopped them). Run by an unprivileged user, a command cannot read
//! gem-ask's own environment (the API key) through /proc.

use std::io::Write;
use std::net::TcpListener;

use serde_json::{Value, json};

use crate::support::tools::{Scene, answer_reply, call, calls_reply, finish, succeeded};
use crate::support::{FakeGemini, of_type};

fn shell(cmd: &str) -> Value {
    call("run_shell_command", json!({"command": cmd}))
}

fn landlock_here() -> bool {
    let abi = gemline::agent::toolbox::sandbox::kernel_abi();
    if abi < 4 {
        let _ = writeln!(
            std::io::stderr().lock(),
            "SKIPPED: this kernel's Landlock ABI is {abi}; the sandbox tests need 4"
        );
    }
    abi >= 4
}

/// A scene with `outside/` beside the working directory and a fake home
/// directory holding an SSH key.
fn scene(name: &str) -> Scene {
    let s = Scene::new(name);
    std::fs::create_dir_all(s.home.join("outside")).unwrap();
    std::fs::create_dir_all(s.home.join("fakehome/.ssh")).unwrap();
    std::fs::write(s.home.join("fakehome/.ssh/id_ed25519"), "PRIVATE KEY BYTES").unwrap();
    std::fs::write(s.home.join("fakehome/notes.txt"), "plain notes").unwrap();
    s
}

/// Runs the shell commands with `--yes` and the flags; their results.
fn run(s: &Scene, name: &str, cmds: &[&str], flags: &[&str]) -> Vec<Value> {
    let calls: Vec<Value> = cmds.iter().map(|c| shell(c)).collect();
    let server = FakeGemini::start(name, vec![calls_reply(&calls), answer_reply()]);
    let mut cmd = s.gem_ask(&server, None);
    cmd.env("HOME", s.home.join("fakehome"))
        .args(["--yes", "--tools", "run_shell_command"])
        .args(flags)
        .arg("go");
    let ev = succeeded(&finish(cmd.spawn().unwrap()));
    of_type(&ev, "tool_result").into_iter().cloned().collect()
}

fn exit_code(r: &Value) -> i64 {
    r["output"]
        .as_str()
        .and_then(|o| o.strip_prefix("exit code "))
        .and_then(|o| o.split('\n').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no exit code: {r}"))
}

#[test]
fn commands_work_inside_and_cannot_write_out_read_keys_or_connect() {
    if !landlock_here() {
        return;
    }
    let s = scene("sandbox-on");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let r = run(
        &s,
        "sandbox-on",
        &[
            "echo made > made.txt && cat made.txt && ls -a ~ && cat ~/notes.txt",
            "echo x > ../outside/planted.txt",
            "cat ~/.ssh/id_ed25519",
            &format!("bash -c 'exec 3<>/dev/tcp/127.0.0.1/{port}'"),
            "touch \"$TMPDIR/scratch\" && echo \"$TMPDIR\"",
        ],
        &[],
    );
    assert_eq!(exit_code(&r[0]), 0, "{}", r[0]);
    assert!(r[0]["output"].as_str().unwrap().contains("made\n"));
    assert!(r[0]["output"].as_str().unwrap().contains("plain notes"));
    assert_eq!(
        std::fs::read_to_string(s.work.join("made.txt")).unwrap(),
        "made\n"
    );
    assert_ne!(exit_code(&r[1]), 0, "{}", r[1]);
    assert!(
        r[1]["output"]
            .as_str()
            .unwrap()
            .contains("Permission denied")
    );
    assert!(!s.home.join("outside/planted.txt").exists());
    assert_ne!(exit_code(&r[2]), 0, "{}", r[2]);
    assert!(!r[2]["output"].as_str().unwrap().contains("PRIVATE KEY"));
    assert_ne!(exit_code(&r[3]), 0, "{}", r[3]);
    listener.set_nonblocking(true).unwrap();
    assert!(listener.accept().is_err(), "a connection came through");
    assert_eq!(exit_code(&r[4]), 0, "{}", r[4]);
    let tmp = r[4]["output"].as_str().unwrap();
    assert!(tmp.contains("gem-ask-sandbox-"), "{tmp}");
}

#[test]
fn without_the_sandbox_or_with_the_network_allowed_they_go_through() {
    if !landlock_here() {
        return;
    }
    let s = scene("sandbox-off");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = format!("bash -c 'exec 3<>/dev/tcp/127.0.0.1/{port}'");
    let r = run(
        &s,
        "sandbox-off",
        &["echo x > ../outside/planted.txt", "cat ~/.ssh/id_ed25519"],
        &["--sandbox", "off"],
    );
    assert_eq!(exit_code(&r[0]), 0, "{}", r[0]);
    assert!(s.home.join("outside/planted.txt").exists());
    assert!(r[1]["output"].as_str().unwrap().contains("PRIVATE KEY"));
    let r = run(&s, "sandbox-net", &[&connect], &["--allow-network"]);
    assert_eq!(exit_code(&r[0]), 0, "{}", r[0]);
    assert!(listener.accept().is_ok());
}

#[test]
fn the_config_turns_it_off_and_strict_still_runs_here() {
    if !landlock_here() {
        return;
    }
    let s = scene("sandbox-config");
    s.config("[tools]\nsandbox = \"off\"\n");
    let r = run(
        &s,
        "sandbox-config",
        &["echo x > ../outside/planted.txt"],
        &[],
    );
    assert_eq!(exit_code(&r[0]), 0, "{}", r[0]);
    std::fs::remove_file(s.home.join("outside/planted.txt")).unwrap();
    // The flag wins over the config; strict runs where Landlock is.
    let r = run(
        &s,
        "sandbox-strict",
        &["echo x > ../outside/planted.txt; echo ran"],
        &["--sandbox", "strict"],
    );
    assert!(r[0]["output"].as_str().unwrap().contains("ran"), "{}", r[0]);
    assert!(!s.home.join("outside/planted.txt").exists());
}

/// Everything under `dir` open to every user (the run below is not root).
fn open_to_all(dir: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    for e in walk(dir) {
        let _ = std::fs::set_permissions(&e, std::fs::Permissions::from_mode(0o777));
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut all = vec![dir.to_path_buf()];
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                all.extend(walk(&e.path()));
            } else {
                all.push(e.path());
            }
        }
    }
    all
}

#[test]
fn a_sandboxed_command_cannot_read_gem_asks_own_environment() {
    if !landlock_here() {
        return;
    }
    let s = scene("sandbox-environ");
    open_to_all(&s.home);
    let server = FakeGemini::start(
        "sandbox-environ",
        vec![
            calls_reply(&[shell("cat /proc/$PPID/environ | tr '\\0' '\\n'; echo end")]),
            answer_reply(),
        ],
    );
    let mut cmd = s.gem_ask(&server, None);
    cmd.env("HOME", s.home.join("fakehome"))
        .args(["--yes", "--tools", "run_shell_command", "go"]);
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        use std::os::unix::process::CommandExt;
        // As an unprivileged user (root may read any process's memory).
        cmd.uid(65534).gid(65534);
    }
    let ev = succeeded(&finish(cmd.spawn().unwrap()));
    let out = of_type(&ev, "tool_result")[0]["output"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(out.contains("end"), "{out}");
    assert!(!out.contains(crate::support::KEY), "the key leaked: {out}");
}

#[test]
fn sandbox_mcp_puts_the_mcp_servers_in_it_too() {
    if !landlock_here() {
        return;
    }
    let s = scene("sandbox-mcp");
    let Some((mcp, _log)) = crate::gem_ask_stops::silent_server(&s) else {
        return;
    };
    let target = s.home.join("outside/by-mcp.txt");
    // What the server wrote, and what it says of its environment.
    let run = |name: &str, flags: &[&str]| -> (String, String) {
        let server = FakeGemini::start(
            name,
            vec![
                calls_reply(&[
                    call("silent__write", json!({"path": target})),
                    call("silent__env", json!({})),
                ]),
                answer_reply(),
            ],
        );
        let mut cmd = s.gem_ask(&server, None);
        cmd.env("GITHUB_TOKEN", "ghp_0a1b2c3d4e5f6a7b8c9d")
            .args(["--mcp", &mcp, "--yes"])
            .args(flags)
            .arg("go");
        let ev = succeeded(&finish(cmd.spawn().unwrap()));
        let r = of_type(&ev, "tool_result");
        let text = |i: usize| r[i]["output"].as_str().unwrap_or_default().to_string();
        (text(0), text(1))
    };
    let (wrote, env) = run("sandbox-mcp-on", &["--sandbox-mcp"]);
    assert_eq!(wrote, "not written: Permission denied");
    assert!(!target.exists());
    // In the sandbox, the server still gets no key (the environment is
    // scrubbed first) and its private TMPDIR is set after.
    let tmpdir = env.lines().next().unwrap().strip_prefix("TMPDIR=").unwrap();
    assert!(
        std::path::Path::new(tmpdir)
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("gem-ask-sandbox-")),
        "{env}"
    );
    assert!(env.ends_with("secret-looking: none"), "{env}");
    let (wrote, env) = run("sandbox-mcp-off", &[]);
    assert_eq!(wrote, "written");
    assert!(target.exists());
    assert!(env.ends_with("secret-looking: none"), "{env}");
    assert!(!env.contains("gem-ask-sandbox-"), "{env}");
}
