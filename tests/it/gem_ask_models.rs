//! Which model answers: the default gem-ask asks for, the model that
//! actually answered (`result.model_version`), and a model the API no
//! longer serves (exit 9, naming the model, `--list-models` and the
//! replacement the API names).

use crate::support::ask::*;
use crate::support::{FakeGemini, Reply, fixture, temp_dir};
use serde_json::Value;

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

/// The API's answer for a name it does not know.
const UNKNOWN: &str = r#"{
  "error": {
    "code": 404,
    "message": "models/gemini-9-ultra is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.",
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
    let (code, ev, _, _) =
        run_against("model-unknown", Reply::json(404, UNKNOWN), "gemini-9-ultra");
    assert_eq!(code, 9);
    let message = ev.last().unwrap()["error"]["message"].as_str().unwrap();
    assert!(message.contains("\"gemini-9-ultra\""), "{message}");
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
