//! gem-ask's one-shot mode against the fake Gemini server: the stream of a
//! plain answer, the key, the base URL, stdin as context, `-c`, usage errors.

use crate::support;

use std::path::Path;
use std::time::Duration;

use crate::support::ask::*;
use crate::support::{FakeGemini, KEY, Reply, Succeeds, fixture, kinds, temp_dir};
use serde_json::{Value, json};

#[test]
fn plain_streamed_text() {
    let server = FakeGemini::start(
        "plain",
        vec![Reply::sse(&fixture(
            "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
        ))],
    );
    let home = temp_dir("plain");
    let out = gem_ask(&server, &home)
        .args(["What", "is", "the", "capital", "of", "France?"])
        .succeeds();
    let ev = stable_events(&out.stdout);
    assert_eq!(
        ev,
        vec![
            json!({"type":"init","session_id":"ID","model":"gemini-3.5-flash"}),
            json!({"type":"message","role":"user","content":"What is the capital of France?"}),
            json!({"type":"message","role":"assistant","content":"Paris","delta":true}),
            // The recording's own model answered (its modelVersion), and
            // its price is the cost: 11 in at $0.30, 34 out at $2.50 a million.
            json!({"type":"result","status":"success","model_version":"gemini-2.5-flash","stats":{"input_tokens":11,"output_tokens":1,
                   "thought_tokens":33,"cached_input_tokens":0,"total_tokens":45,"cost_usd":0.00008829999999999999,"tool_calls":0,"requests":1,
                   "tools":{"render_visualization":{"calls":0,"failed":0,"fallbacks":0},"plot":{"calls":0,"failed":0,"fallbacks":0}}}}),
        ]
    );
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(
        reqs[0].request_line,
        "POST /v1beta/models/gemini-3.5-flash:streamGenerateContent?alt=sse HTTP/1.1"
    );
    let body = reqs[0].json();
    assert_eq!(
        body["contents"],
        json!([{"role":"user","parts":[{"text":"What is the capital of France?"}]}])
    );
    let system = body["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        system.contains("then call render_visualization with structured series"),
        "{system}"
    );
    assert!(body.get("system").is_none());
    let names: Vec<&str> = body["tools"][0]["functionDeclarations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, crate::support::tools::DEFAULT_TOOLS);
    // The session holds the turn.
    let id = session_id(&out.stdout);
    let file = home.join(format!("gemline/sessions/{id}.jsonl"));
    let lines: Vec<Value> = std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["record"], "meta");
    // The turn closes with its tokens: the request's 11 prompt tokens and
    // the answer's 1.
    assert_eq!(lines[3]["record"], "turn");
    assert_eq!(lines[3]["tokens"], 12);
    assert_eq!(lines[3]["context_tokens"], 12);
    assert_eq!(lines[1]["content"], body["contents"][0]);
    assert_eq!(
        lines[2]["content"],
        json!({"role":"model","parts":[{"text":"Paris"}]})
    );
}

#[test]
fn key_only_in_the_header_and_never_printed() {
    let server = FakeGemini::start(
        "key-header",
        vec![Reply::sse(&fixture(
            "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
        ))],
    );
    let home = temp_dir("key-header");
    let out = gem_ask(&server, &home)
        .args(["--debug", "--no-history", "hi"])
        .succeeds();
    let req = &server.requests()[0];
    assert_eq!(req.header("x-goog-api-key"), Some(KEY));
    assert!(!req.request_line.contains(KEY));
    assert!(!req.request_line.contains("key="));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains(KEY));
    assert!(String::from_utf8_lossy(&out.stderr).contains("x-goog-api-key: [REDACTED]"));
    // --no-history: nothing stored.
    assert!(!home.join("gemline/sessions").exists());
}

#[test]
fn missing_key_makes_no_request() {
    let server = FakeGemini::start("no-key", vec![]);
    let home = temp_dir("no-key");
    let out = gem_ask(&server, &home)
        .env_remove("GEMINI_API_KEY")
        .arg("hi")
        .assert()
        .code(3)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(
        ev[2]["error"],
        json!({"type":"missing_api_key","message":"no API key: set GEMINI_API_KEY or GOOGLE_API_KEY"})
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("gem-ask: error: no API key"));
    assert!(server.requests().is_empty());
}

#[test]
fn google_api_key_is_the_fallback() {
    let server = FakeGemini::start(
        "google-key",
        vec![Reply::sse(&fixture(
            "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
        ))],
    );
    let home = temp_dir("google-key");
    gem_ask(&server, &home)
        .env_remove("GEMINI_API_KEY")
        .env("GOOGLE_API_KEY", "other-key")
        .args(["--model", "gemini-3-flash-preview", "hi"])
        .assert()
        .success();
    let req = &server.requests()[0];
    assert_eq!(req.header("x-goog-api-key"), Some("other-key"));
    assert!(
        req.request_line
            .contains("/models/gemini-3-flash-preview:streamGenerateContent")
    );
}

#[test]
fn several_chunks_stream_as_deltas_and_sse_variants_parse() {
    // LF framing, a comment, and one event split over two data: lines.
    let raw = ": ping\n\ndata: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"The sum \"}]}}]}\n\n\
               data: {\"candidates\":[{\"content\":{\"role\":\"model\",\n\
               data: \"parts\":[{\"text\":\"is 5.\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":3,\"candidatesTokenCount\":4,\"totalTokenCount\":7}}\n\n";
    let server = FakeGemini::start(
        "chunks",
        vec![
            Reply::sse(&fixture(
                "07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse",
            ))
            .delay_each(Duration::from_millis(20)),
            Reply::sse(raw),
        ],
    );
    let home = temp_dir("chunks");
    let out = gem_ask(&server, &home).arg("sum?").succeeds();
    let ev = stable_events(&out.stdout);
    let deltas: Vec<&str> = ev
        .iter()
        .filter(|e| e["type"] == "message" && e["role"] == "assistant")
        .map(|e| e["content"].as_str().unwrap())
        .collect();
    assert_eq!(
        deltas,
        [
            "The sum of ",
            "2 and 3 is 5.\nThe sum of 4 and ",
            "5 is 9.\nThe sum of 6 and 7 is 13."
        ]
    );
    let out = gem_ask(&server, &home).arg("sum?").succeeds();
    assert_eq!(assistant_text(&stable_events(&out.stdout)), "The sum is 5.");
}

#[test]
fn thoughts_only_with_the_flag() {
    let sse = fixture("03-text-stream-thoughts-gemini-2.5-flash.response.sse");
    let server = FakeGemini::start("thoughts", vec![Reply::sse(&sse), Reply::sse(&sse)]);
    let home = temp_dir("thoughts");
    let out = gem_ask(&server, &home)
        .args(["--thoughts", "primes"])
        .succeeds();
    let ev = stable_events(&out.stdout);
    let thoughts: Vec<&Value> = ev.iter().filter(|e| e["type"] == "thought").collect();
    assert_eq!(thoughts.len(), 3);
    assert!(
        thoughts[0]["content"]
            .as_str()
            .unwrap()
            .starts_with("**Calculating Prime Sum**")
    );
    assert_eq!(thoughts[0]["delta"], true);
    assert!(assistant_text(&ev).contains("5117"));
    assert_eq!(
        server.bodies()[0]["generationConfig"],
        json!({"thinkingConfig":{"includeThoughts":true}})
    );
    let out = gem_ask(&server, &home).arg("primes").succeeds();
    assert!(!kinds(&stable_events(&out.stdout)).contains(&"thought"));
    assert!(server.bodies()[1].get("generationConfig").is_none());
}

#[test]
fn a_base_url_that_is_not_http_is_a_usage_error() {
    let server = FakeGemini::start("bad-base", vec![]);
    let home = temp_dir("bad-base");
    for (url, why) in [
        ("ftp://example.com", "the scheme is not http or https"),
        ("localhost:8080", "no scheme"),
        ("http://", "not a URL"),
    ] {
        let out = gem_ask(&server, &home)
            .args(["--base-url", url, "hi"])
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(out.stdout.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "gem-ask: error: invalid base URL {url:?}: {why}; expected an http(s) URL such as https://generativelanguage.googleapis.com\n"
            )
        );
    }
    assert!(server.requests().is_empty());
}

#[test]
fn base_url_credentials_and_query_are_never_printed() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let server = FakeGemini::start("base-secrets", vec![]);
    let home = temp_dir("base-secrets");
    let out = gem_ask(&server, &home)
        .env(
            "GEMINI_BASE_URL",
            format!("http://user:hunter2pw@127.0.0.1:{port}/"),
        )
        .args(["--debug", "--retries", "1", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    // A query cannot be part of a base URL (the path goes after it): a usage
    // error that still does not show it.
    let refused = gem_ask(&server, &home)
        .env(
            "GEMINI_BASE_URL",
            format!("http://127.0.0.1:{port}/?token=qwerty123"),
        )
        .arg("hi")
        .assert()
        .code(2)
        .get_output()
        .clone();
    let refused = String::from_utf8_lossy(&refused.stderr);
    assert!(refused.contains("a query or fragment"), "{refused}");
    assert!(!refused.contains("qwerty123"), "{refused}");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    for secret in ["hunter2pw", "qwerty123"] {
        assert!(!stdout.contains(secret), "{stdout}");
        assert!(!stderr.contains(secret), "{stderr}");
    }
    assert!(
        stderr.contains(&format!("POST http://127.0.0.1:{port}/v1beta/models/")),
        "{stderr}"
    );
    let ev = stable_events(&out.stdout);
    let message = ev.last().unwrap()["error"]["message"].as_str().unwrap();
    assert!(message.contains(&format!("127.0.0.1:{port}")), "{message}");
}

#[test]
fn usage_errors_exit_2() {
    let server = FakeGemini::start("usage", vec![]);
    let home = temp_dir("usage");
    gem_ask(&server, &home).assert().code(2);
    gem_ask(&server, &home)
        .args(["--bogus", "x"])
        .assert()
        .code(2);
    gem_ask(&server, &home)
        .args(["--session", "../etc", "x"])
        .assert()
        .code(2);
    gem_ask(&server, &home)
        .args(["--session", "a", "--new-chat", "x"])
        .assert()
        .code(2);
    assert!(server.requests().is_empty());
}

#[test]
fn stdin_is_context_before_the_prompt() {
    let server = FakeGemini::start(
        "stdin",
        vec![
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            )),
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            )),
        ],
    );
    let home = temp_dir("stdin");
    gem_ask(&server, &home)
        .arg("chart the slowest 5")
        .write_stdin("model,secs\nM5 CS,2.9\n")
        .assert()
        .success();
    gem_ask(&server, &home)
        .args(["--no-stdin", "just this"])
        .write_stdin("ignored")
        .assert()
        .success();
    let b = server.bodies();
    assert_eq!(
        b[0]["contents"][0]["parts"],
        json!([{"text":"model,secs\nM5 CS,2.9\n"},{"text":"chart the slowest 5"}])
    );
    assert_eq!(b[1]["contents"][0]["parts"], json!([{"text":"just this"}]));
}

#[test]
fn command_help_prints_the_command_alone() {
    let sse = format!(
        "data: {}\r\n\r\n",
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":"```bash\nfind . -size +100M\n```"}]},"finishReason":"STOP"}]})
    );
    let server = FakeGemini::start("command-help", vec![Reply::sse(&sse), Reply::sse(&sse)]);
    let home = temp_dir("command-help");
    // Into a pipe too: `$(gem-ask -c ...)` gets the command alone.
    gem_ask(&server, &home)
        .args(["-c", "files over 100 MB"])
        .assert()
        .success()
        .stdout("find . -size +100M\n");
    let b = &server.bodies()[0];
    assert_eq!(
        b["contents"][0]["parts"][0]["text"],
        "Provide the Linux command for: files over 100 MB"
    );
    assert!(b.get("tools").is_none());
    let out = gem_ask(&server, &home)
        .args(["--output", "jsonl", "-c", "files over 100 MB"])
        .succeeds();
    assert_eq!(
        assistant_text(&stable_events(&out.stdout)),
        "```bash\nfind . -size +100M\n```"
    );
}

#[test]
fn base_url_flag_and_model_variable() {
    let sse = fixture("02-text-stream-gemini-2.5-flash-single-chunk.response.sse");
    let server = FakeGemini::start("base-url-flag", vec![Reply::sse(&sse), Reply::sse(&sse)]);
    let home = temp_dir("base-url-flag");
    // --base-url beats the environment (which points nowhere here); a
    // trailing slash is fine.
    gem_ask(&server, &home)
        .env("GEMINI_BASE_URL", "http://127.0.0.1:9")
        .env("GEMINI_MODEL", "gemini-3-flash-preview")
        .args(["--base-url", &format!("{}/", server.url), "hi"])
        .assert()
        .success();
    // --model beats GEMINI_MODEL.
    gem_ask(&server, &home)
        .env("GEMINI_MODEL", "gemini-3-flash-preview")
        .args(["--model", "gemini-2.5-pro", "hi"])
        .assert()
        .success();
    let lines: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.request_line.clone())
        .collect();
    assert_eq!(
        lines,
        [
            "POST /v1beta/models/gemini-3-flash-preview:streamGenerateContent?alt=sse HTTP/1.1",
            "POST /v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse HTTP/1.1",
        ]
    );
}

#[test]
fn empty_model_variable_means_the_default() {
    let server = FakeGemini::start(
        "empty-model",
        vec![Reply::sse(&fixture(
            "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
        ))],
    );
    let home = temp_dir("empty-model");
    gem_ask(&server, &home)
        .env("GEMINI_MODEL", "")
        .arg("hi")
        .assert()
        .success();
    assert!(
        server.requests()[0]
            .request_line
            .contains("/models/gemini-3.5-flash:")
    );
}

#[test]
fn a_json_array_answer_works_like_the_stream() {
    // What the API sends without alt=sse; some gateways answer that way.
    let chunks: Vec<Value> = support::split_events(&fixture(
        "07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse",
    ))
    .iter()
    .map(|e| serde_json::from_str(e.trim().strip_prefix("data: ").unwrap()).unwrap())
    .collect();
    let server = FakeGemini::start(
        "json-array",
        vec![Reply::json(200, &Value::Array(chunks).to_string())],
    );
    let home = temp_dir("json-array");
    let out = gem_ask(&server, &home).arg("hi").succeeds();
    let ev = stable_events(&out.stdout);
    assert_eq!(
        assistant_text(&ev),
        "The sum of 2 and 3 is 5.\nThe sum of 4 and 5 is 9.\nThe sum of 6 and 7 is 13."
    );
}

/// roff joins a line to the one before it unless a blank line separates
/// them: an indented list (exit codes, variables) followed directly by a
/// paragraph would run into it in `man gem-ask`.
#[test]
fn man_page_lists_end_before_the_next_paragraph() {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("man/gem-ask.1"))
        .unwrap();
    let lines: Vec<&str> = page.lines().collect();
    for w in lines.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a.starts_with("  ") && !b.is_empty() && !b.starts_with(' ') && !b.starts_with('.') {
            panic!("a list line runs into a paragraph:\n{a}\n{b}");
        }
    }
}

#[test]
fn stdin_over_8_mib_is_refused_not_cut() {
    let server = FakeGemini::start("big-stdin", vec![]);
    let home = temp_dir("big-stdin");
    let out = gem_ask(&server, &home)
        .arg("summarize")
        .write_stdin(vec![b'a'; (8 << 20) + 1])
        .assert()
        .code(65)
        .get_output()
        .clone();
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "gem-ask: error: stdin is larger than 8 MiB, the most gem-ask sends as context; trim it first (e.g. tail -c 8M)\n"
    );
    assert!(server.requests().is_empty());
    // Exactly 8 MiB is still sent.
    let server = FakeGemini::start(
        "big-stdin-ok",
        vec![Reply::sse(&fixture(
            "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
        ))],
    );
    gem_ask(&server, &home)
        .args(["--no-history", "summarize"])
        .write_stdin(vec![b'a'; 8 << 20])
        .assert()
        .success();
    assert_eq!(server.requests().len(), 1);
}
