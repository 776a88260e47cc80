//! Which model answers: the default gem-ask asks for, the model that
//! actually answered (`result.model_version`), and a model the API no
//! longer serves (exit 9, naming the model, `--list-models` and the
//! replacement the API names).

use crate::support::ask::*;
use crate::support::{FakeGemini, Reply, fixture, temp_dir};
use serde_json::{Value, json};

/// Google's answer for a shut-down model, in the shape of its 404 for a
/// retired model ("... has been deprecated on DATE. Consider switching to
/// different model, for example NAME.").
const RETIRED: &str = r#"{
  "error": {
    "code": 404,
    "message": "Gemini 2.5 Flash has been deprecated on December 1, 2026. Consider switching to different model, for example gemini-3.5-flash-lite.",
    "status": "NOT_FOUND"
  }
}"#;

fn run_against(name: &str, reply: Reply, model: &str) -> (i32, Vec<Value>, String, usize) {
    let server = FakeGemini::start(name, vec![reply.clone(), reply.clone(), reply]);
    let home = temp_dir(name);
    let out = gem_ask(&server, &home)
        .args(["-m", model, "--output", "jsonl", "hi"])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        stable_events(&out.stdout),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        server.requests().len(),
    )
}

#[test]
fn a_retired_model_is_exit_9_naming_it_the_list_and_the_replacement() {
    let (code, ev, stderr, requests) = run_against(
        "model-retired",
        Reply::json(404, RETIRED),
        "gemini-2.5-flash",
    );
    assert_eq!(code, 9, "{stderr}");
    // Asked once: a missing model does not come back on a retry.
    assert_eq!(requests, 1);
    let result = ev.last().unwrap();
    assert_eq!(result["type"], "result");
    assert_eq!(result["error"]["type"], "model_not_found");
    let message = result["error"]["message"].as_str().unwrap();
    for needle in [
        "\"gemini-2.5-flash\"",
        "gem-ask --list-models",
        "-m gemini-3.5-flash-lite",
        "HTTP 404 NOT_FOUND",
    ] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
    assert!(stderr.contains("-m gemini-3.5-flash-lite"), "{stderr}");
}

#[test]
fn an_unknown_model_names_no_replacement() {
    // The API's recorded answer for a name it does not know.
    let reply = Reply::json(404, &fixture("16-error-404-model-not-found.response.json"));
    let (code, ev, _, _) = run_against("model-unknown", reply, "gemini-pro");
    assert_eq!(code, 9);
    let message = ev.last().unwrap()["error"]["message"].as_str().unwrap();
    assert!(message.contains("\"gemini-pro\""), "{message}");
    assert!(message.contains("--list-models"), "{message}");
    assert!(!message.contains("replacement"), "{message}");
}

#[test]
fn a_404_that_is_not_about_a_model_stays_an_api_error() {
    let reply = Reply::json(404, "<html><body>Not Found</body></html>");
    let (code, ev, _, _) = run_against("model-404-page", reply, "gemini-3.5-flash");
    assert_eq!(code, 4);
    assert_eq!(ev.last().unwrap()["error"]["type"], "api_error");
}

#[test]
fn the_result_names_the_model_that_answered() {
    // Asked for one model, answered by another (an alias, or a retired
    // model the API routes elsewhere): the answer's modelVersion.
    let sse = fixture("02-text-stream-gemini-2.5-flash-single-chunk.response.sse")
        .replace("\"gemini-2.5-flash\"", "\"gemini-3.5-flash-lite\"");
    let (code, ev, stderr, _) =
        run_against("model-version", Reply::sse(&sse), "gemini-flash-latest");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(ev[0]["model"], "gemini-flash-latest");
    let result = ev.last().unwrap();
    assert_eq!(result["model_version"], "gemini-3.5-flash-lite");
}

/// `gem-ask ARGS hi` against a server answering `replies`; the
/// thinkingConfig of each request, the exit code and stderr.
fn thinking_of(name: &str, replies: Vec<Reply>, args: &[&str]) -> (Vec<Value>, i32, String) {
    let server = FakeGemini::start(name, replies);
    let home = temp_dir(name);
    std::fs::create_dir_all(home.join("gemline")).unwrap();
    std::fs::write(
        home.join("gemline/config.toml"),
        "thinking = \"high\"\n[roles.quick]\nthinking = \"minimal\"\n",
    )
    .unwrap();
    let out = gem_ask(&server, &home)
        .args(["--output", "jsonl"])
        .args(args)
        .arg("hi")
        .output()
        .unwrap();
    let configs = server
        .bodies()
        .iter()
        .map(|b| b["generationConfig"]["thinkingConfig"].clone())
        .collect();
    (
        configs,
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn answer() -> Reply {
    Reply::sse(&fixture(
        "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
    ))
}

#[test]
fn thinking_is_a_level_on_gemini_3_beside_thought_summaries() {
    let (c, code, _) = thinking_of(
        "think-level",
        vec![answer()],
        &["--thinking", "low", "--thoughts"],
    );
    assert_eq!(code, 0);
    assert_eq!(
        c,
        vec![json!({"includeThoughts": true, "thinkingLevel": "LOW"})]
    );
    // The config's, then a role's, then the flag.
    let (c, _, _) = thinking_of("think-config", vec![answer()], &[]);
    assert_eq!(c, vec![json!({"thinkingLevel": "HIGH"})]);
    let (c, _, _) = thinking_of("think-role", vec![answer()], &["--role", "quick"]);
    assert_eq!(c, vec![json!({"thinkingLevel": "MINIMAL"})]);
    let (c, _, _) = thinking_of(
        "think-flag",
        vec![answer()],
        &["--role", "quick", "--thinking", "medium"],
    );
    assert_eq!(c, vec![json!({"thinkingLevel": "MEDIUM"})]);
}

#[test]
fn thinking_is_the_nearest_budget_on_gemini_2_5() {
    let (c, _, stderr) = thinking_of(
        "think-25-off",
        vec![answer()],
        &["-m", "gemini-2.5-flash", "--thinking", "off"],
    );
    assert_eq!(c, vec![json!({"thinkingBudget": 0})]);
    assert!(!stderr.contains("--thinking"), "{stderr}");
    let (c, _, _) = thinking_of(
        "think-25-high",
        vec![answer()],
        &["-m", "gemini-2.5-flash", "--thinking", "high"],
    );
    assert_eq!(c, vec![json!({"thinkingBudget": 24576})]);
}

#[test]
fn what_a_model_cannot_take_is_said_once_and_the_nearest_sent() {
    // Two requests (a tool round), one note.
    let call = Reply::sse(&single_call_with(bmw_bar()));
    let (c, code, stderr) = thinking_of(
        "think-25-pro-off",
        vec![call, answer()],
        &["-m", "gemini-2.5-pro", "--thinking", "off"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        c,
        vec![
            json!({"thinkingBudget": 128}),
            json!({"thinkingBudget": 128})
        ]
    );
    assert_eq!(
        stderr.matches("cannot turn thinking off").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("gemini-2.5-pro"), "{stderr}");
    let (c, _, stderr) = thinking_of("think-3-off", vec![answer()], &["--thinking", "off"]);
    assert_eq!(c, vec![json!({"thinkingLevel": "MINIMAL"})]);
    assert!(
        stderr.contains("gemini-3.5-flash cannot turn thinking off; minimal is sent"),
        "{stderr}"
    );
    // A model gem-ask does not know gets nothing, and is told so.
    let (c, _, stderr) = thinking_of(
        "think-gemma",
        vec![answer()],
        &["-m", "gemma-4-31b-it", "--thinking", "low"],
    );
    assert_eq!(c, vec![Value::Null]);
    assert!(stderr.contains("none sent"), "{stderr}");
}

#[test]
fn an_unknown_thinking_level_is_a_usage_error_listing_the_levels() {
    let (c, code, stderr) = thinking_of("think-bad", vec![], &["--thinking", "max"]);
    assert_eq!(code, 2);
    assert!(c.is_empty());
    for level in ["off", "minimal", "low", "medium", "high"] {
        assert!(stderr.contains(level), "{stderr}");
    }
}

#[test]
fn print_config_says_the_thinking_level_and_where_it_came_from() {
    let server = FakeGemini::start("think-print", vec![]);
    let home = temp_dir("think-print");
    std::fs::create_dir_all(home.join("gemline")).unwrap();
    std::fs::write(
        home.join("gemline/config.toml"),
        "thinking = \"high\"\n[roles.quick]\nthinking = \"minimal\"\n",
    )
    .unwrap();
    let listing = |args: &[&str]| {
        let out = gem_ask(&server, &home)
            .arg("--print-config")
            .args(args)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("thinking = "))
            .unwrap_or("");
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    assert_eq!(listing(&[]), "thinking = \"high\" # config");
    assert_eq!(
        listing(&["--role", "quick"]),
        "thinking = \"minimal\" # role"
    );
    assert_eq!(
        listing(&["--thinking", "off"]),
        "thinking = \"off\" # --thinking"
    );
    assert!(server.requests().is_empty());
}
