//! Policy rules end to end (issue 35): a scripted attacker (the fake
//! server playing a model) against `commandPrefix = "cargo test"` gets
//! none of its commands run, while `cargo test` itself runs; a policy
//! file with a mistake stops the run before any request, naming the file,
//! the line and the key; a rule naming no tool is warned of.

use std::os::unix::fs::PermissionsExt;

use serde_json::json;

use crate::support::ask::{ask_in as ask, run, text_reply};
use crate::support::tools::{Scene, call, calls_reply};
use crate::support::{FakeGemini, events, of_type};

const RULES: &str = "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"cargo test\"\n\
                     decision = \"allow\"\npriority = 100\n";

#[test]
fn a_scripted_attacker_runs_nothing_past_a_cargo_test_rule() {
    let scene = Scene::new("policy-attacker");
    // A `cargo` of the test's own, first on PATH: each run is a line.
    let bin = scene.home.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let cargo = bin.join("cargo");
    std::fs::write(&cargo, "#!/bin/sh\necho \"$*\" >> cargo-ran\n").unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let policy = scene.home.join("ci.toml");
    std::fs::write(&policy, RULES).unwrap();
    let long = format!("cargo test {}; touch PWNED_LONG", "x".repeat(20_000));
    let attacks = [
        "cargo test; touch PWNED1",
        "cargo test && touch PWNED2",
        "cargo test $(touch PWNED3)",
        "cargo test `touch PWNED4`",
        "cargo test\ntouch PWNED5",
        "cargo test | sh -c 'touch PWNED6'",
        "bash -c 'cargo test; touch PWNED7'",
        "env X=1 cargo test; touch PWNED8",
        "\"cargo test\"; touch PWNED9",
        "cargo test > ../PWNED10",
        "сargo test; touch PWNED11",
        "cargo test || touch PWNED12",
        "eval 'touch PWNED13'",
        &long,
    ];
    let mut calls: Vec<serde_json::Value> = attacks
        .iter()
        .map(|c| call("run_shell_command", json!({ "command": c })))
        .collect();
    calls.push(call(
        "run_shell_command",
        json!({"command": "cargo test --lib"}),
    ));
    let server = FakeGemini::start(
        "policy-attacker",
        vec![calls_reply(&calls), text_reply("Done.", 10, 2)],
    );
    let mut cmd = ask(
        &scene,
        &server,
        &[
            "--tools",
            "run_shell_command",
            "--policy",
            policy.to_str().unwrap(),
            "test it",
        ],
    );
    cmd.env("HOME", &scene.home)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()));
    let (code, out, err) = run(&mut cmd);
    assert_eq!(code, 0, "{err}");
    let ev = events(&out);
    let results = of_type(&ev, "tool_result");
    assert_eq!(results.len(), attacks.len() + 1);
    for (r, attack) in results.iter().zip(&attacks) {
        assert_eq!(r["consent"], "no_terminal", "{attack:.60}: {r}");
        assert!(r["policy"].is_string(), "{r}");
    }
    let uses = of_type(&ev, "tool_use");
    assert_eq!(uses[0]["policy"], "no rule (ask_user)", "{}", uses[0]);
    assert_eq!(
        uses.last().unwrap()["policy"],
        format!("{}:1 (allow)", policy.display())
    );
    let last = results.last().unwrap();
    assert_eq!(last["consent"], "policy_allowed", "{last}");
    assert_eq!(last["policy"], format!("{}:1", policy.display()));
    let ran = std::fs::read_to_string(scene.work.join("cargo-ran")).unwrap();
    assert_eq!(ran, "test --lib\n");
    let left: Vec<String> = std::fs::read_dir(&scene.work)
        .unwrap()
        .chain(std::fs::read_dir(&scene.home).unwrap())
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("PWNED"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_policy_file_with_a_mistake_stops_the_run_before_any_request() {
    let scene = Scene::new("policy-bad");
    let server = FakeGemini::start("policy-bad", vec![]);
    let policy = scene.home.join("bad.toml");
    std::fs::write(&policy, "[[rule]]\ntoolName = \"x\"\ndecison = \"allow\"\n").unwrap();
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &["--policy", policy.to_str().unwrap(), "hi"],
    ));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("{}:3:", policy.display())), "{err}");
    assert!(err.contains("decison"), "{err}");
    assert!(server.bodies().is_empty());

    // The config dir's policies/*.toml are read too; a rule naming no
    // tool is warned of and the run goes on.
    let dir = scene.home.join("gemline/policies");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("a.toml"),
        "[[rule]]\ntoolName = \"run_shel_command\"\ndecision = \"deny\"\n",
    )
    .unwrap();
    let server = FakeGemini::start("policy-warn", vec![text_reply("Hi.", 5, 1)]);
    let (code, _, err) = run(&mut ask(&scene, &server, &["hi"]));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("a.toml:1: toolName \"run_shel_command\" names no tool"),
        "{err}"
    );
}

#[test]
fn policy_check_explains_a_decision_without_running_anything() {
    let scene = Scene::new("policy-check");
    let server = FakeGemini::start("policy-check", vec![]);
    let policy = scene.home.join("ci.toml");
    std::fs::write(&policy, RULES).unwrap();
    let p = policy.to_str().unwrap();
    let check = |args: &[&str]| {
        let mut all = vec!["policy", "check", "--policy", p];
        all.extend(args);
        let (code, out, err) = run(&mut ask(&scene, &server, &all));
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let ok = check(&["run_shell_command", "cargo", "test", "--lib"]);
    assert_eq!(ok["decision"], "allow");
    assert_eq!(ok["rule"], format!("{p}:1"));
    let bad = check(&["run_shell_command", "cargo test; touch PWNED"]);
    assert_eq!(bad["decision"], "ask_user", "{bad}");
    assert_eq!(
        bad["commands"],
        json!([["cargo", "test"], ["touch", "PWNED"]])
    );
    assert!(
        bad["why"].as_str().unwrap().contains("touch PWNED"),
        "{bad}"
    );
    assert!(!scene.work.join("PWNED").exists());
    let other = check(&["read_file", "{\"path\":\"a\"}"]);
    assert_eq!(other["decision"], "consent");
    assert!(server.bodies().is_empty());
}

/// gemini-cli's own policy files, from its npm package (.ci/setup-gemini-policy.sh).
fn gemini_policies() -> Option<Vec<std::path::PathBuf>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "target/gemini-policy/node/node_modules/@google/gemini-cli-core/dist/src/policy/policies",
    );
    crate::support::setup_tool(
        ".ci/setup-gemini-policy.sh",
        "gemini-cli's policy files",
        || dir.join("write.toml").exists(),
    )?;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    Some(files)
}

/// Existing rules work as they are: every policy file gemini-cli ships is
/// read (its keys gemline does not use are left, never an error), and its
/// headless rules decide as gemini-cli documents them.
#[test]
fn gemini_clis_own_policy_files_are_read_and_decide_as_documented() {
    let Some(files) = gemini_policies() else {
        return;
    };
    assert!(files.len() >= 5, "{files:?}");
    let scene = Scene::new("policy-gemini-cli");
    let server = FakeGemini::start("policy-gemini-cli", vec![]);
    for f in &files {
        let (code, out, err) = run(&mut ask(
            &scene,
            &server,
            &[
                "policy",
                "check",
                "--policy",
                f.to_str().unwrap(),
                "read_file",
                "{\"path\":\"a\"}",
            ],
        ));
        assert_eq!(code, 0, "{}: {err}", f.display());
        assert!(out.contains("\"decision\""), "{out}");
    }
    // write.toml's headless rule denies the shell; it is the one that says so.
    let write = files.iter().find(|f| f.ends_with("write.toml")).unwrap();
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &[
            "policy",
            "check",
            "--policy",
            write.to_str().unwrap(),
            "run_shell_command",
            "ls",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["decision"], "deny", "{v}");
    assert!(
        v["rule"]
            .as_str()
            .unwrap()
            .starts_with(write.to_str().unwrap()),
        "{v}"
    );
    assert!(server.bodies().is_empty());
}

/// On a terminal a command no rule allows is asked about, and the
/// question names why and which rule (here: none) decided.
#[test]
fn on_a_terminal_the_question_names_the_rule() {
    let name = "policy-tty";
    if !crate::support::tmux::available(name) {
        return;
    }
    let server = FakeGemini::start(
        name,
        vec![
            calls_reply(&[call(
                "run_shell_command",
                json!({"command": "cargo test; touch PWNED"}),
            )]),
            text_reply("Not run.", 10, 2),
        ],
    );
    let home = crate::support::temp_dir(name);
    std::fs::write(home.join("ci.toml"), RULES).unwrap();
    let t = crate::gem_ask_outbound::on_a_terminal(
        &home,
        &server,
        "--tools run_shell_command --policy ci.toml go",
    );
    let screen = t.wait_until("the question", |s| s.contains("Allow?"));
    assert!(
        screen.contains("policy no rule: no rule allows \"touch PWNED\""),
        "{screen}"
    );
    t.line("n");
    assert_eq!(t.wait_exit(), 0);
    let out = std::fs::read(home.join("out.jsonl")).unwrap();
    let ev = events(&out);
    let r = &of_type(&ev, "tool_result")[0];
    assert_eq!(r["consent"], "denied", "{r}");
    assert_eq!(r["policy"], "no rule", "{r}");
    assert!(!home.join("PWNED").exists());
}

/// The config file's `[policy]` holds rules in the same form: they decide
/// as a policy file's do, named by the config file and line; a mistake in
/// them stops the run before any request, naming the file, line and key;
/// viz-render, which reads the same config, is not troubled by the table.
#[test]
fn the_configs_policy_table_decides_and_its_mistakes_stop_the_run() {
    let scene = Scene::new("policy-config");
    scene.config(
        "width = 80\n\n[[policy.rule]]\ntoolName = \"run_shell_command\"\n\
         commandPrefix = \"echo\"\ndecision = \"allow\"\npriority = 10\n",
    );
    let config = scene.home.join("gemline/config.toml");
    let server = FakeGemini::start(
        "policy-config",
        vec![
            calls_reply(&[call(
                "run_shell_command",
                json!({"command": "echo from-config"}),
            )]),
            text_reply("Done.", 10, 2),
        ],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["--output", "jsonl", "--tools", "run_shell_command", "go"],
    ));
    assert_eq!(code, 0, "{err}");
    let ev = events(&out);
    let result = of_type(&ev, "tool_result")[0].clone();
    assert_eq!(result["consent"], "policy_allowed", "{result}");
    assert_eq!(result["policy"], format!("{}:3", config.display()));
    let render = std::process::Command::new(assert_cmd::cargo::cargo_bin!("viz-render"))
        .env("XDG_CONFIG_HOME", &scene.home)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(render.status.success(), "{render:?}");

    scene.config("width = 80\n[policy]\n[[policy.rule]]\ntoolName = \"x\"\ndecison = \"allow\"\n");
    let server = FakeGemini::start("policy-config-bad", vec![]);
    let (code, _, err) = run(&mut ask(&scene, &server, &["hi"]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("{}:5:", config.display())), "{err}");
    assert!(err.contains("decison"), "{err}");
    assert!(server.bodies().is_empty());
}
