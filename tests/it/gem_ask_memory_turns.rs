//! Memory in gem-ask's turns (`--memory`): the memories that best match
//! a message ride in its request's user turn (after the history) and a `memory` event
//! says which (`--verbose` on stderr too); past `--memory-budget` the
//! model condenses them first; the memory tools are declared only with
//! memory on, and the model's writes ask for consent like other writing
//! tools and are `memory` events in the stream.

use serde_json::{Value, json};

use crate::gem_ask_memory::{corpus_file, ok};
use crate::support::ask::{text_reply, turn_context};
use crate::support::embed::{Api, FakeEmbedder};
use crate::support::tools::{
    DEFAULT_TOOLS, MEMORY_TOOLS, Pty, Scene, answer_reply, call, calls_reply, declared, finish,
    succeeded,
};
use crate::support::{FakeGemini, of_type};

/// A scene whose store holds the ranking corpus, embedded by `e`.
pub(crate) fn scene_with_corpus(name: &str, e: &FakeEmbedder) -> Scene {
    let scene = Scene::new(name);
    e.configure(&scene.home, "fake-embed", false);
    let file = corpus_file(&scene.home);
    ok(&scene.home, &["import", file.to_str().unwrap()]);
    ok(&scene.home, &["reindex"]);
    scene
}

fn system_text(body: &Value) -> String {
    body["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_turn_carries_the_best_memories_and_says_which() {
    let e = FakeEmbedder::start("memory-turn", Api::Gemini, 32);
    let scene = scene_with_corpus("memory-turn", &e);
    let server = FakeGemini::start("memory-turn", vec![text_reply("Rack north.", 900, 4)]);
    let out = finish(scene.spawn(
        &server,
        None,
        &["--memory", "--verbose", "which rack holds the deploy host"],
    ));
    let ev = succeeded(&out);
    let recalled = of_type(&ev, "memory");
    assert_eq!(recalled.len(), 1);
    let keys: Vec<&str> = recalled[0]["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    // The eight best of the fused ranking (the ranking test checks the order).
    let searched = ok(
        &scene.home,
        &["search", "-n", "8", "which rack holds the deploy host"],
    );
    let want: Vec<&str> = searched
        .iter()
        .map(|h| h["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, want);
    assert_eq!(keys[0], "deploy-host");
    assert_eq!(recalled[0]["summarized"], false);
    let kinds: Vec<&str> = ev.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds[..3], ["init", "message", "memory"]);

    // In the user's turn, after the history: the system instruction stays
    // the same from turn to turn (the cached prefix).
    assert!(!system_text(&server.bodies()[0]).contains("Memories saved"));
    let context = turn_context(&server.bodies()[0]);
    assert!(
        context.contains("Memories saved in earlier sessions"),
        "{context}"
    );
    assert!(
        context.contains(
            "- deploy-host [infra] (2026-03-01): The deploy host is build seven in the north rack\n"
        ),
        "{context}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("gem-ask: memory: {}", keys.join(", "))),
        "{stderr}"
    );
    // The memory tools are declared with memory on, after the default ones.
    let names = declared(&server.bodies()[0]);
    let want: Vec<&str> = DEFAULT_TOOLS.iter().chain(&MEMORY_TOOLS).copied().collect();
    assert_eq!(names, want);
}

#[test]
fn without_memory_nothing_is_recalled_or_declared() {
    let e = FakeEmbedder::start("memory-off", Api::Gemini, 32);
    let scene = scene_with_corpus("memory-off", &e);
    let server = FakeGemini::start("memory-off", vec![text_reply("Ok.", 10, 2)]);
    let asked = e.requests().len();
    let ev = scene.run(&server, &["which rack holds the deploy host"]);
    assert!(of_type(&ev, "memory").is_empty());
    assert!(!system_text(&server.bodies()[0]).contains("Memories saved"));
    assert_eq!(turn_context(&server.bodies()[0]), "");
    assert_eq!(declared(&server.bodies()[0]), DEFAULT_TOOLS);
    assert_eq!(e.requests().len(), asked, "no query was embedded");
    // The config turns it on for every run; --no-memory off again.
    e.configure(&scene.home, "fake-embed", true);
    let server = FakeGemini::start(
        "memory-config",
        vec![text_reply("Ok.", 10, 2), text_reply("Ok.", 10, 2)],
    );
    let ev = scene.run(&server, &["deploy host"]);
    assert_eq!(of_type(&ev, "memory").len(), 1);
    let ev = scene.run(&server, &["--no-memory", "deploy host"]);
    assert!(of_type(&ev, "memory").is_empty());
}

#[test]
fn memories_past_the_budget_are_condensed_by_the_model() {
    let e = FakeEmbedder::start("memory-budget", Api::Gemini, 32);
    let scene = scene_with_corpus("memory-budget", &e);
    let server = FakeGemini::start(
        "memory-budget",
        vec![
            text_reply("[deploy-host] build seven, north rack.", 300, 12),
            text_reply("North rack.", 500, 3),
        ],
    );
    let ev = scene.run(
        &server,
        &[
            "--memory",
            "--memory-budget",
            "60",
            "which rack holds the deploy host",
        ],
    );
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    assert!(system_text(&bodies[0]).starts_with("You condense saved notes"));
    let ask = bodies[0]["contents"][0]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        ask.contains("The user's message:\nwhich rack holds the deploy host"),
        "{ask}"
    );
    assert!(ask.contains("- deploy-host [infra]"), "{ask}");
    assert!(bodies[0].get("tools").is_none());
    let context = turn_context(&bodies[1]);
    assert!(
        context.contains("(summarized to fit)\n[deploy-host] build seven, north rack."),
        "{context}"
    );
    assert!(!context.contains("- vpn [infra]"), "{context}");
    let recalled = of_type(&ev, "memory");
    assert_eq!(recalled[0]["summarized"], true);
    // The summary's tokens count in the run's stats.
    let result = of_type(&ev, "result")[0];
    assert_eq!(result["stats"]["requests"], 2);
    // The condensed text is not shown as the answer.
    let said: String = of_type(&ev, "message")
        .iter()
        .filter(|m| m["role"] == "assistant")
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(said, "North rack.");
}

fn remember_call() -> Value {
    call(
        "remember",
        json!({"key": "editor", "content": "Alice prefers helix", "tags": ["prefs"]}),
    )
}

#[test]
fn the_models_writes_ask_for_consent_and_are_memory_events() {
    let e = FakeEmbedder::start("memory-consent", Api::Gemini, 8);
    let scene = Scene::new("memory-consent");
    e.configure(&scene.home, "fake-embed", false);
    let server = FakeGemini::start(
        "memory-consent",
        vec![
            calls_reply(&[remember_call()]),
            answer_reply(),
            calls_reply(&[remember_call()]),
            answer_reply(),
            calls_reply(&[
                call(
                    "remember",
                    json!({"key": "helix", "content": "Helix is a modal editor"}),
                ),
                call(
                    "relate",
                    json!({"from": "editor", "to": "helix", "relation": "uses"}),
                ),
                call("forget", json!({"key": "nothing-here"})),
            ]),
            answer_reply(),
        ],
    );
    // No terminal: refused, nothing stored.
    let ev = scene.run(&server, &["--memory", "remember my editor"]);
    let r = of_type(&ev, "tool_result");
    assert_eq!(
        (&r[0]["consent"], &r[0]["error"]["type"]),
        (&json!("no_terminal"), &json!("consent_denied"))
    );
    assert!(
        of_type(&ev, "memory")
            .iter()
            .all(|m| m["action"] == "recalled")
    );
    assert!(ok(&scene.home, &["list"]).is_empty());

    // Asked on the terminal, which shows what would be kept; yes.
    let mut tty = Pty::open();
    let child = scene.spawn(&server, Some(&tty), &["--memory", "remember my editor"]);
    tty.wait_for("remember editor [prefs]: Alice prefers helix", 1);
    tty.type_line("y");
    let ev = succeeded(&finish(child));
    let init = of_type(&ev, "init")[0]["session_id"].clone();
    let kinds: Vec<&str> = ev.iter().map(|e| e["type"].as_str().unwrap()).collect();
    let at = kinds.iter().position(|k| *k == "tool_use").unwrap();
    assert_eq!(kinds[at..at + 3], ["tool_use", "memory", "tool_result"]);
    let mut written = ev[at + 1].clone();
    written.as_object_mut().unwrap().remove("timestamp");
    assert_eq!(
        written,
        json!({"type":"memory","action":"remembered","key":"editor","content":"Alice prefers helix",
               "tags":["prefs"],"by":"model"})
    );
    assert_eq!(ev[at + 2]["consent"], "yes");
    let shown = ok(&scene.home, &["show", "editor"]);
    assert_eq!(shown[0]["session"], init);
    assert_eq!(e.texts().last().unwrap(), "Alice prefers helix");
    yes_writes_without_asking(&scene, &server);
}

/// `--yes`: a remember, a relate, and a forget of a key that is not there.
fn yes_writes_without_asking(scene: &Scene, server: &FakeGemini) {
    let ev = scene.run(server, &["--memory", "--yes", "link them"]);
    let r = of_type(&ev, "tool_result");
    assert_eq!(r[0]["status"], "success");
    assert_eq!(r[1]["status"], "success");
    assert_eq!(r[2]["error"]["type"], "invalid_arguments");
    assert!(
        r[2]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no memory with key \"nothing-here\"")
    );
    let writes: Vec<&str> = of_type(&ev, "memory")
        .iter()
        .filter_map(|m| m["action"].as_str())
        .filter(|a| *a != "recalled")
        .collect();
    assert_eq!(writes, ["remembered", "related"]);
    assert_eq!(
        ok(&scene.home, &["path", "editor", "helix"])[0]["found"],
        true
    );
}

#[test]
fn recall_answers_the_model_from_the_store() {
    let e = FakeEmbedder::start("memory-recall-tool", Api::Gemini, 32);
    let scene = scene_with_corpus("memory-recall-tool", &e);
    let server = FakeGemini::start(
        "memory-recall-tool",
        vec![
            calls_reply(&[call(
                "recall",
                json!({"query": "database port", "tags": ["db"], "limit": 2}),
            )]),
            answer_reply(),
        ],
    );
    let ev = scene.run(&server, &["--memory", "what port?"]);
    let r = of_type(&ev, "tool_result");
    assert_eq!(r[0]["status"], "success");
    assert!(r[0].get("consent").is_none(), "recall only reads: auto");
    let out = r[0]["output"].as_str().unwrap();
    assert!(
        out.starts_with(
            "- db-port [db] (2026-03-01): Staging database listens on port 5433\n- cache [db]"
        ),
        "{out}"
    );
    assert_eq!(out.lines().count(), 2);
}

/// `gem-ask -i ARGS` in a 120x40 terminal (tmux), data and config in `home`.
fn repl(home: &std::path::Path, server: &FakeGemini, args: &[&str]) -> crate::support::tmux::Tmux {
    let bin = assert_cmd::cargo::cargo_bin!("gem-ask")
        .to_string_lossy()
        .into_owned();
    let env = [
        ("PATH", std::env::var("PATH").unwrap_or_default()),
        ("HOME", home.display().to_string()),
        ("LANG", "C.UTF-8".to_string()),
        ("GEMINI_API_KEY", crate::support::KEY.to_string()),
        ("GEMINI_BASE_URL", server.url.clone()),
        ("XDG_DATA_HOME", home.display().to_string()),
        ("XDG_CONFIG_HOME", home.display().to_string()),
        ("GEMLINE_RETRY_BASE_MS", "1".to_string()),
    ];
    let mut argv = vec![
        bin.as_str(),
        "-i",
        "--auto-continue",
        "off",
        "--width",
        "120",
    ];
    argv.extend(args);
    crate::support::tmux::Tmux::program(home, &env, &argv, 120, 40)
}

#[test]
fn memory_commands_at_the_repl_and_the_status_line() {
    use crate::support::tmux;
    if !tmux::available("memory-repl") {
        return;
    }
    let e = FakeEmbedder::start("memory-repl", Api::Gemini, 16);
    let home = crate::support::temp_dir("memory-repl");
    e.configure(&home, "fake-embed", false);
    let server = FakeGemini::start("memory-repl", vec![text_reply("Build seven.", 50, 3)]);
    let t = repl(&home, &server, &["--memory"]);
    // Each command once the prompt before it is ready (keys typed while
    // the editor is not reading are lost), then its output.
    let mut prompts = 1;
    let mut step = |line: &str, want: &str| {
        crate::gem_ask_repl::wait_prompt(&t, prompts);
        t.line(line);
        t.wait_for(want);
        prompts += 1;
    };
    step("/memory help", "/memory path FROM TO");
    step(
        "/memory add --key deploy-host --tag infra The deploy host is build seven",
        "memory: remembered deploy-host [infra] (by you): The deploy host is build seven",
    );
    step(
        "/memory add -k rack 'Build seven sits in the north rack'",
        "memory: remembered rack (by you)",
    );
    step(
        "/memory relate deploy-host rack located_in",
        "memory: related deploy-host ─located_in→ rack (by you)",
    );
    step(
        "/memory search deploy host",
        ": The deploy host is build seven",
    );
    step(
        "/memory path rack deploy-host",
        "rack ←located_in─ deploy-host",
    );
    step("/memory graph", "memory: 2 memories, 1 relations");
    step("/memory show nope", "no memory with key \"nope\"");
    step("/memory frob", "unknown memory command \"frob\"");
    let file = home.join("out.jsonl");
    step(
        &format!("/memory export {}", file.display()),
        "exported 2 memories to",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 2);

    crate::gem_ask_repl::wait_prompt(&t, prompts);
    t.line("where is the deploy host?");
    t.wait_for("Build seven.");
    t.wait_for("memory: deploy-host, rack │ $0.0001 │ waiting for you");
    let context = turn_context(&server.bodies()[0]);
    assert!(context.contains("- deploy-host [infra]"), "{context}");
    t.line("/quit");
    assert_eq!(t.wait_exit(), 0);

    drop(t);
    // Without --memory the commands say how to turn it on.
    let t = repl(&crate::support::temp_dir("memory-repl-off"), &server, &[]);
    crate::gem_ask_repl::wait_prompt(&t, 1);
    t.line("/memory list");
    t.wait_for("memory is off in this session");
    t.line("/quit");
    assert_eq!(t.wait_exit(), 0);
}
