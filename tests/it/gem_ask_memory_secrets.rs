//! Memory and the secrets gem-ask keeps (issues 21 and 26 together): the
//! model's `remember` of a known secret is refused before consent and
//! nothing is kept; what a person saves (`gem-ask memory add`, `import`)
//! is kept with the secret `[REDACTED]`; a memory saved before its secret
//! was known carries none into a turn's prompt nor out through `recall`;
//! `--count-tokens` counts the memories a turn would carry; and no
//! sandboxed command reads the store.

use std::io::Write;

use serde_json::{Value, json};

use crate::gem_ask_memory::{memory_cmd, ok};
use crate::support::tools::{Scene, answer_reply, call, calls_reply, finish, succeeded};
use crate::support::{FakeGemini, Reply, fixture, of_type};

/// A value gem-ask knows as a secret while [`VAR`] holds it (a
/// secret-named variable, hidden from children and redacted).
const SECRET: &str = "tok-4f9a-deploy-secret-77";
const VAR: &str = "DEPLOY_TOKEN";

#[test]
fn the_model_cannot_remember_a_known_secret() {
    let scene = Scene::new("memory-secret-tool");
    let server = FakeGemini::start(
        "memory-secret-tool",
        vec![
            calls_reply(&[call(
                "remember",
                json!({"key": "deploy", "content": format!("The deploy token is {SECRET}")}),
            )]),
            answer_reply(),
        ],
    );
    let mut cmd = scene.gem_ask(&server, None);
    cmd.env(VAR, SECRET)
        .args(["--memory", "--yes", "remember the token"]);
    let ev = succeeded(&finish(cmd.spawn().unwrap()));
    let r = of_type(&ev, "tool_result");
    assert_eq!(r[0]["error"]["type"], "secret_refused", "{}", r[0]);
    let message = r[0]["error"]["message"].as_str().unwrap();
    assert!(message.contains("nothing was saved"), "{message}");
    assert!(!message.contains(SECRET));
    // Refused before consent (--yes does not let it through): no write.
    assert!(
        of_type(&ev, "memory")
            .iter()
            .all(|m| m["action"] == "recalled")
    );
    assert!(ok(&scene.home, &["list"]).is_empty());
    // The model reads the refusal.
    assert!(server.bodies()[1].to_string().contains("nothing was saved"));
}

#[test]
fn a_secret_a_person_saves_is_kept_redacted() {
    let scene = Scene::new("memory-secret-add");
    let content = format!("The deploy token is {SECRET}");
    let out = memory_cmd(&scene.home, &["add", "-k", "deploy", &content])
        .env(VAR, SECRET)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("it is saved as [REDACTED]"), "{stderr}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains(SECRET));
    let shown = ok(&scene.home, &["show", "deploy"]);
    assert_eq!(shown[0]["content"], "The deploy token is [REDACTED]");

    // An import's lines too.
    let file = scene.home.join("in.jsonl");
    let line =
        json!({"type": "memory_item", "key": "other", "content": format!("db password {SECRET}")});
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let out = memory_cmd(&scene.home, &["import", file.to_str().unwrap()])
        .env(VAR, SECRET)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("memory import: the text held a secret"),
        "{stderr}"
    );
    let shown = ok(&scene.home, &["show", "other"]);
    assert_eq!(shown[0]["content"], "db password [REDACTED]");
}

#[test]
fn a_memory_saved_before_its_secret_was_known_never_reaches_the_model() {
    let scene = Scene::new("memory-secret-prompt");
    // Saved while the value was nothing gem-ask knew.
    let content = format!("The deploy token is {SECRET}");
    ok(&scene.home, &["add", "-k", "deploy", &content]);
    let server = FakeGemini::start(
        "memory-secret-prompt",
        vec![
            calls_reply(&[call("recall", json!({"query": "deploy token"}))]),
            answer_reply(),
        ],
    );
    let mut cmd = scene.gem_ask(&server, None);
    cmd.env(VAR, SECRET)
        .args(["--memory", "what is the deploy token"]);
    let ev = succeeded(&finish(cmd.spawn().unwrap()));
    assert_eq!(of_type(&ev, "memory")[0]["keys"], json!(["deploy"]));
    let context = crate::support::ask::turn_context(&server.bodies()[0]);
    assert!(
        context.contains("The deploy token is [REDACTED]"),
        "{context}"
    );
    for body in server.bodies() {
        assert!(!body.to_string().contains(SECRET), "{body}");
    }
    let r = of_type(&ev, "tool_result");
    assert_eq!(r[0]["status"], "success", "{}", r[0]);
    let output = r[0]["output"].as_str().unwrap();
    assert!(
        output.contains("[REDACTED]") && !output.contains(SECRET),
        "{output}"
    );
}

#[test]
fn count_tokens_counts_the_memories_a_turn_carries() {
    let scene = Scene::new("memory-count");
    ok(
        &scene.home,
        &["add", "-k", "deploy-host", "The deploy host is build seven"],
    );
    let server = FakeGemini::start(
        "memory-count",
        vec![Reply::json(200, &fixture("40-countTokens.response.json"))],
    );
    let mut cmd = scene.gem_ask(&server, None);
    cmd.args(["--memory", "--count-tokens", "which deploy host"]);
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let req = &server.requests()[0];
    assert!(
        req.request_line.contains(":countTokens"),
        "{}",
        req.request_line
    );
    let inner = &req.json()["generateContentRequest"];
    let context = crate::support::ask::turn_context(inner);
    assert!(
        context.contains("Memories saved in earlier sessions")
            && context.contains("The deploy host is build seven"),
        "{context}"
    );
    // The count alone on stdout, no event stream.
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["total_tokens"], 1187);
}

#[test]
fn no_sandboxed_command_reads_the_memory_store() {
    let abi = gemline::agent::toolbox::sandbox::kernel_abi();
    if abi < 4 {
        let _ = writeln!(
            std::io::stderr().lock(),
            "SKIPPED: this kernel's Landlock ABI is {abi}; the sandbox tests need 4"
        );
        return;
    }
    let scene = Scene::new("memory-sandbox");
    ok(&scene.home, &["add", "-k", "k", "kept in the store"]);
    let store = scene.home.join("gemline/memory.sqlite3");
    assert!(store.exists());
    let server = FakeGemini::start(
        "memory-sandbox",
        vec![
            calls_reply(&[call(
                "run_shell_command",
                json!({"command": format!("cat '{}' | wc -c", store.display())}),
            )]),
            answer_reply(),
        ],
    );
    let mut cmd = scene.gem_ask(&server, None);
    cmd.args([
        "--memory",
        "--yes",
        "--tools",
        "run_shell_command",
        "read it",
    ]);
    let ev = succeeded(&finish(cmd.spawn().unwrap()));
    let r = of_type(&ev, "tool_result");
    let output = r[0]["output"].as_str().unwrap();
    assert!(output.contains("Permission denied"), "{output}");
}
