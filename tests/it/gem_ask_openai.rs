//! gem-ask --provider openai against a fake OpenAI-compatible server on
//! 127.0.0.1 replaying the streams in testdata/openai/ (recorded from
//! Gemini's compatibility endpoint and Ollama, plus one written in their
//! shape with a tool call split across chunks): text, tool calls joined by
//! index and sent back with their extras, error bodies, a cut stream,
//! retries and sessions through the same code as Gemini's API. Also the
//! config file and `--print-config`.

use std::path::{Path, PathBuf};

use crate::support::{FakeGemini, GEMINI_ENV, Reply, Succeeds, events, of_type, temp_dir};
use serde_json::{Value, json};

const MODEL: &str = "qwen2.5-coder:7b";
const KEY: &str = "sk-test-8d1f0b77";

pub fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/openai")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// gem-ask on the OpenAI provider, pointed at `server`, with sessions and
/// config under `home`; no key unless a test sets one.
fn gem_ask(server: &FakeGemini, home: &Path) -> assert_cmd::Command {
    let mut cmd = bare(home);
    cmd.env("OPENAI_BASE_URL", &server.url).args([
        "--provider",
        "openai",
        "--model",
        MODEL,
        "--output",
        "jsonl",
    ]);
    cmd
}

fn text(ev: &[Value]) -> String {
    of_type(ev, "message")
        .iter()
        .filter(|e| e["role"] == "assistant")
        .filter_map(|e| e["content"].as_str())
        .collect()
}

fn result(ev: &[Value]) -> &Value {
    ev.last()
        .filter(|e| e["type"] == "result")
        .expect("ends with result")
}

#[test]
fn text_streams_until_done_with_the_usage() {
    let server = FakeGemini::start_uncaptured(vec![Reply::sse(&fixture(
        "oa-01-gemini-openai-compat-stream.sse",
    ))]);
    let home = temp_dir("openai-text");
    let out = gem_ask(&server, &home).arg("explain AI").succeeds();
    let ev = events(&out.stdout);
    assert_eq!(ev[0]["type"], "init");
    assert_eq!(ev[0]["model"], MODEL);
    assert_eq!(
        of_type(&ev, "message").len(),
        4,
        "the prompt, then three deltas"
    );
    assert!(text(&ev).starts_with("AI works by **learning from data"));
    let r = result(&ev);
    assert_eq!(r["status"], "success");
    assert_eq!(r["stats"]["input_tokens"], 12);
    assert_eq!(r["stats"]["output_tokens"], 159);
    assert_eq!(r["stats"]["total_tokens"], 171);

    let req = &server.requests()[0];
    assert_eq!(req.request_line, "POST /chat/completions HTTP/1.1");
    assert_eq!(req.header("authorization"), None, "no key, no header");
    assert_eq!(req.header("x-goog-api-key"), None);
    let body = req.json();
    assert_eq!(body["model"], MODEL);
    assert_eq!(body["stream"], true);
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(
        body["messages"][1],
        json!({"role": "user", "content": "explain AI"})
    );
    let tools: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    for t in ["render_visualization", "create_new_topic", "plot"] {
        assert!(tools.contains(&t), "{t} in {tools:?}");
    }
    // Every declaration in JSON Schema's terms, whichever form it was written in.
    for t in body["tools"].as_array().unwrap() {
        assert_eq!(t["type"], "function");
        assert_eq!(t["function"]["parameters"]["type"], "object", "{t}");
    }
}

#[test]
fn the_key_is_a_bearer_header_and_never_printed() {
    let server = FakeGemini::start_uncaptured(vec![Reply::json(
        401,
        &format!(
            r#"{{"error":{{"message":"Incorrect API key provided: {KEY}.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}}}"#
        ),
    )]);
    let home = temp_dir("openai-key");
    let out = gem_ask(&server, &home)
        .env("OPENAI_API_KEY", KEY)
        .arg("hi")
        .assert()
        .code(4)
        .get_output()
        .clone();
    assert_eq!(
        server.requests()[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert_eq!(server.requests().len(), 1, "a 401 is not retried");
    let ev = events(&out.stdout);
    let err = &result(&ev)["error"];
    assert_eq!(err["type"], "api_error");
    assert_eq!(
        err["message"],
        "HTTP 401 invalid_api_key: Incorrect API key provided: [REDACTED]."
    );
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains(KEY));
}

#[test]
fn tool_calls_split_across_chunks_are_run_and_sent_back_with_their_signature() {
    let server = FakeGemini::start_uncaptured(vec![
        Reply::sse(&fixture("oa-04-split-toolcall-thought-signature.sse")),
        Reply::sse(&fixture("oa-01-gemini-openai-compat-stream.sse")),
    ]);
    let home = temp_dir("openai-tools");
    let out = gem_ask(&server, &home)
        .arg("how is my disk used?")
        .succeeds();
    let ev = events(&out.stdout);
    let uses = of_type(&ev, "tool_use");
    assert_eq!(uses.len(), 1);
    assert_eq!(uses[0]["tool_name"], "create_new_topic");
    assert_eq!(uses[0]["tool_id"], "function-call-4815162342");
    assert_eq!(
        uses[0]["parameters"],
        json!({"title": "Disk usage by directory"})
    );
    assert_eq!(of_type(&ev, "topic")[0]["title"], "Disk usage by directory");
    assert_eq!(of_type(&ev, "tool_result")[0]["status"], "success");
    let r = result(&ev);
    assert_eq!(
        (
            r["stats"]["requests"].as_u64(),
            r["stats"]["tool_calls"].as_u64()
        ),
        (Some(2), Some(1))
    );
    assert_eq!(r["stats"]["input_tokens"], 402 + 12);

    // The second request carries the call as it came, signature included,
    // and the tool's answer under the call's id.
    let second = server.requests()[1].json();
    let m = second["messages"].as_array().unwrap();
    let assistant = &m[m.len() - 2];
    assert_eq!(assistant["role"], "assistant");
    assert_eq!(assistant["content"], Value::Null);
    let call = &assistant["tool_calls"][0];
    assert_eq!(call["id"], "function-call-4815162342");
    assert_eq!(call["function"]["name"], "create_new_topic");
    let args: Value =
        serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args, json!({"title": "Disk usage by directory"}));
    assert_eq!(
        call["extra_content"],
        json!({"google": {"thought_signature": "CiQBjz1rX4zq0sJmR3kq3mBB2dTzP0C0ALe8zG9JqvA1ddYPpUIKYQGPPWtfuJQk"}})
    );
    let tool = &m[m.len() - 1];
    assert_eq!(tool["role"], "tool");
    assert_eq!(tool["tool_call_id"], "function-call-4815162342");
    let answer: Value = serde_json::from_str(tool["content"].as_str().unwrap()).unwrap();
    assert!(answer.is_object(), "{answer}");
}

#[test]
fn ollamas_parallel_calls_each_get_their_answer() {
    // Ollama names a tool gem-ask does not have: each call is answered
    // with an error the model reads, and the turn goes on.
    let server = FakeGemini::start_uncaptured(vec![
        Reply::sse(&fixture("oa-03-ollama-openai-stream-toolcalls.sse")),
        Reply::sse(&fixture("oa-01-gemini-openai-compat-stream.sse")),
    ]);
    let home = temp_dir("openai-ollama");
    let out = gem_ask(&server, &home).arg("list the files").succeeds();
    let ev = events(&out.stdout);
    let ids: Vec<&str> = of_type(&ev, "tool_use")
        .iter()
        .map(|u| u["tool_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["call_wteop8bt", "call_rk2xye1l"]);
    for r in of_type(&ev, "tool_result") {
        assert_eq!(r["error"]["type"], "unknown_tool");
    }
    let second = server.requests()[1].json();
    let m = second["messages"].as_array().unwrap();
    let calls = m[m.len() - 3]["tool_calls"].as_array().unwrap();
    assert_eq!(calls[1]["function"]["arguments"], r#"{"command":"ls -l"}"#);
    assert!(calls[0].get("extra_content").is_none());
    assert_eq!(m[m.len() - 2]["tool_call_id"], "call_wteop8bt");
    assert_eq!(m[m.len() - 1]["tool_call_id"], "call_rk2xye1l");
}

#[test]
fn a_cut_stream_is_an_error_after_text_and_retried_before() {
    let sse = fixture("oa-01-gemini-openai-compat-stream.sse");
    let server = FakeGemini::start_uncaptured(vec![
        Reply::sse(&sse).cut_after(1, "data: {\"choices\":[{\"delta\":{\"content\":\" wor"),
    ]);
    let home = temp_dir("openai-cut");
    let out = gem_ask(&server, &home)
        .arg("x")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(text(&ev), "AI");
    assert_eq!(result(&ev)["error"]["type"], "stream_interrupted");
    assert_eq!(
        server.requests().len(),
        1,
        "text was shown: no second attempt"
    );

    // Cut before anything was shown: another attempt, which completes.
    let server = FakeGemini::start_uncaptured(vec![
        Reply::sse(&sse).cut_after(0, "data: {\"choi"),
        Reply::sse(&sse),
    ]);
    let out = gem_ask(&server, &home).arg("x").succeeds();
    let ev = events(&out.stdout);
    assert_eq!(of_type(&ev, "retry").len(), 1);
    assert!(text(&ev).starts_with("AI works"));
}

#[test]
fn error_bodies_rate_limits_and_the_plain_json_answer() {
    let home = temp_dir("openai-errors");
    // Ollama's error is a string; a model it does not have is exit 9.
    let server = FakeGemini::start_uncaptured(vec![Reply::json(
        404,
        r#"{"error":"model \"qwen2.5-coder:7b\" not found, try pulling it first"}"#,
    )]);
    let out = gem_ask(&server, &home)
        .arg("x")
        .assert()
        .code(9)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    let error = &result(&ev)["error"];
    assert_eq!(error["type"], "model_not_found");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("HTTP 404: model \"qwen2.5-coder:7b\" not found, try pulling it first"),
        "{message}"
    );
    // A 429 is retried as with Gemini, then the answer comes as one JSON
    // object (a server that ignores "stream": true).
    let server = FakeGemini::start_uncaptured(vec![
        Reply::json(429, r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#)
            .header("Retry-After", "0"),
        Reply::json(200, &fixture("oa-02-gemini-openai-compat-nonstream.json")),
    ]);
    let out = gem_ask(&server, &home).arg("x").succeeds();
    let ev = events(&out.stdout);
    let retry = of_type(&ev, "retry");
    assert_eq!(retry.len(), 1);
    assert_eq!(retry[0]["reason"], "HTTP 429 rate_limit_exceeded");
    assert!(text(&ev).starts_with("Here are a few ways"));
    assert_eq!(result(&ev)["stats"]["total_tokens"], 222);
}

#[test]
fn a_session_continues_through_the_provider() {
    let server = FakeGemini::start_uncaptured(vec![
        Reply::sse(&fixture("oa-04-split-toolcall-thought-signature.sse")),
        Reply::sse(&fixture("oa-01-gemini-openai-compat-stream.sse")),
        Reply::sse(&fixture("oa-01-gemini-openai-compat-stream.sse")),
    ]);
    let home = temp_dir("openai-session");
    gem_ask(&server, &home)
        .args(["--session", "s1", "first"])
        .succeeds();
    gem_ask(&server, &home)
        .args(["--session", "s1", "second"])
        .succeeds();
    let third = server.requests()[2].json();
    let roles: Vec<&str> = third["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "tool", "assistant", "user"]
    );
    // The active chapter opens the user's turn, before its words.
    let last = third["messages"][5]["content"].as_str().unwrap();
    assert!(
        last.contains("[Active Topic: Disk usage by directory]") && last.ends_with("\n\nsecond"),
        "{last}"
    );
    assert_eq!(
        third["messages"][2]["tool_calls"][0]["extra_content"]["google"]["thought_signature"],
        "CiQBjz1rX4zq0sJmR3kq3mBB2dTzP0C0ALe8zG9JqvA1ddYPpUIKYQGPPWtfuJQk"
    );
}

fn write_config(home: &Path, text: &str) -> PathBuf {
    let dir = home.join("gemline");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// gem-ask with no flags of ours: the config and environment decide.
fn bare(home: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::cargo::cargo_bin_cmd!("gem-ask");
    for k in GEMINI_ENV.iter().chain(&[
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_MODEL",
        "NO_COLOR",
        "COLUMNS",
    ]) {
        cmd.env_remove(k);
    }
    cmd.env("XDG_DATA_HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("GEMLINE_RETRY_BASE_MS", "1");
    cmd
}

#[test]
fn the_config_chooses_the_provider_and_flags_and_environment_win() {
    let server = FakeGemini::start_uncaptured(vec![
        Reply::sse(&fixture("oa-01-gemini-openai-compat-stream.sse")),
        Reply::sse(&fixture("oa-01-gemini-openai-compat-stream.sse")),
    ]);
    let home = temp_dir("openai-config");
    write_config(
        &home,
        &format!(
            "provider = \"openai\"\n[openai]\nmodel = \"from-config\"\nbase_url = \"{}\"\n",
            server.url
        ),
    );
    bare(&home).args(["--output", "jsonl", "hi"]).succeeds();
    bare(&home)
        .env("OPENAI_MODEL", "from-env")
        .args(["--output", "jsonl", "hi"])
        .succeeds();
    let models: Vec<Value> = server.bodies().iter().map(|b| b["model"].clone()).collect();
    assert_eq!(models, ["from-config", "from-env"]);

    let out = bare(&home)
        .env("OPENAI_MODEL", "from-env")
        .env("OPENAI_API_KEY", KEY)
        .args(["--print-config", "-m", "from-flag", "--width", "61"])
        .succeeds();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains(KEY), "{text}");
    let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(table["provider"].as_str(), Some("openai"));
    assert_eq!(table["model"].as_str(), Some("from-flag"));
    assert_eq!(table["width"].as_integer(), Some(61));
    for line in [
        "# config file: ",
        "# config\n",
        "# --model\n",
        "# --width\n",
        "api_key = \"[REDACTED]\"",
        "# environment OPENAI_API_KEY\n",
    ] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
}

#[test]
fn a_malformed_config_is_a_usage_error_naming_file_line_and_key() {
    let home = temp_dir("openai-bad-config");
    let path = write_config(
        &home,
        "provider = \"openai\"\n\n[openai]\nbase_url = 11434\n",
    );
    let out = bare(&home)
        .arg("--print-config")
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "gem-ask: error: {}:4: key base_url: invalid type",
            path.display()
        )),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    // No model anywhere for an OpenAI-compatible server: said before any request.
    write_config(&home, "provider = \"openai\"\n");
    let out = bare(&home).arg("hi").assert().code(2).get_output().clone();
    assert!(String::from_utf8_lossy(&out.stderr).contains("--provider openai needs a model"));
}

/// A stream in oa-04's shape: one call of `name` whose arguments JSON
/// arrives in pieces of 7 bytes, then `finish_reason` and `[DONE]`.
pub fn call_stream(id: &str, name: &str, args: &Value) -> String {
    let chunk = |delta: Value, finish: Option<&str>| {
        let mut c = json!({"choices": [{"delta": delta, "index": 0}], "model": MODEL,
                           "object": "chat.completion.chunk"});
        if let Some(f) = finish {
            c["choices"][0]["finish_reason"] = f.into();
        }
        format!("data: {c}\n\n")
    };
    let mut out = chunk(
        json!({"role": "assistant", "tool_calls": [{"index": 0, "id": id, "type": "function",
               "function": {"name": name, "arguments": ""}}]}),
        None,
    );
    let text = args.to_string();
    for piece in text.as_bytes().chunks(7) {
        let piece = String::from_utf8_lossy(piece);
        out += &chunk(
            json!({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}),
            None,
        );
    }
    out + &chunk(json!({}), Some("tool_calls")) + "data: [DONE]\n\n"
}

#[test]
fn task_mode_completes_through_the_provider() {
    let done = json!({"kind": "task_complete", "message": "notes written"});
    let server = FakeGemini::start_uncaptured(vec![
        Reply::sse(&call_stream("call_7", "signal", &done)),
        Reply::sse(&fixture("oa-01-gemini-openai-compat-stream.sse")),
    ]);
    let home = temp_dir("openai-task");
    let out = gem_ask(&server, &home)
        .args(["-t", "write notes.txt"])
        .succeeds();
    let ev = events(&out.stdout);
    let signals = of_type(&ev, "signal");
    assert_eq!(signals.len(), 1);
    assert_eq!(
        (&signals[0]["signal"], &signals[0]["message"]),
        (&json!("task_complete"), &json!("notes written"))
    );
    assert_eq!(result(&ev)["stats"]["iterations"], 1);
    let second = server.requests()[1].json();
    let last = second["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(
        (&last["role"], &last["tool_call_id"]),
        (&json!("tool"), &json!("call_7"))
    );
}

#[test]
fn a_recorded_run_replays_without_the_server() {
    let server = FakeGemini::start_uncaptured(vec![
        Reply::sse(&fixture("oa-04-split-toolcall-thought-signature.sse")),
        Reply::sse(&fixture("oa-01-gemini-openai-compat-stream.sse")),
    ]);
    let home = temp_dir("openai-record");
    let record = home.join("run.jsonl");
    let live = gem_ask(&server, &home)
        .args(["--no-history", "--record"])
        .arg(&record)
        .arg("how is my disk used?")
        .succeeds();
    drop(server);
    let replayed = bare(&home)
        .args([
            "--provider",
            "openai",
            "-m",
            MODEL,
            "--output",
            "jsonl",
            "--no-history",
            "--replay",
        ])
        .arg(&record)
        .arg("how is my disk used?")
        .succeeds();
    let strip = |out: &[u8]| -> Vec<Value> {
        events(out)
            .into_iter()
            .map(|mut e| {
                let o = e.as_object_mut().unwrap();
                for k in ["timestamp", "session_id", "stats"] {
                    o.remove(k);
                }
                e
            })
            .collect()
    };
    assert_eq!(strip(&replayed.stdout), strip(&live.stdout));
    assert!(
        !String::from_utf8_lossy(&replayed.stdout).contains("differs from the recording"),
        "the replayed requests match the recorded ones"
    );
}

#[test]
fn thinking_is_reasoning_effort_and_off_is_none() {
    let replies = (0..2)
        .map(|_| Reply::sse(&fixture("oa-01-gemini-openai-compat-stream.sse")))
        .collect();
    let server = FakeGemini::start_uncaptured(replies);
    let home = temp_dir("openai-thinking");
    gem_ask(&server, &home)
        .args(["--thinking", "medium", "hi"])
        .succeeds();
    gem_ask(&server, &home)
        .args(["--thinking", "off", "hi"])
        .succeeds();
    let efforts: Vec<Value> = server
        .bodies()
        .iter()
        .map(|b| b["reasoning_effort"].clone())
        .collect();
    assert_eq!(efforts, ["medium", "none"]);
    assert!(
        server
            .bodies()
            .iter()
            .all(|b| b.get("generationConfig").is_none())
    );
}
