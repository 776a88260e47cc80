//! gem-ask against a fake Gemini server serving the recorded payloads of
//! testdata/gemini: every test checks the events that come out and the
//! request bodies that went in.

mod support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};
use support::{FakeGemini, KEY, Reply, Succeeds, fixture, temp_dir};

fn gem_ask(server: &FakeGemini, data_home: &Path) -> assert_cmd::Command {
    support::gem_ask_cmd(server, data_home)
}

/// Events from stdout with the volatile fields (times, ids) removed.
fn events(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            let o = v.as_object_mut().unwrap();
            o.remove("timestamp");
            if o["type"] == "init" {
                o.insert("session_id".into(), "ID".into());
            }
            if let Some(s) = o.get_mut("stats").and_then(Value::as_object_mut) {
                s.remove("duration_ms");
            }
            v
        })
        .collect()
}

fn kinds(ev: &[Value]) -> Vec<&str> {
    ev.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

fn assistant_text(ev: &[Value]) -> String {
    ev.iter()
        .filter(|e| e["type"] == "message" && e["role"] == "assistant")
        .map(|e| e["content"].as_str().unwrap())
        .collect()
}

fn session_id(stdout: &[u8]) -> String {
    let first: Value =
        serde_json::from_str(String::from_utf8_lossy(stdout).lines().next().unwrap()).unwrap();
    first["session_id"].as_str().unwrap().to_string()
}

/// Replaces the functionCalls of an SSE fixture, in order, keeping every
/// other byte of the recording (ids, signatures, usage).
fn with_calls(sse: &str, calls: &[Value]) -> String {
    let mut i = 0;
    support::split_events(sse)
        .into_iter()
        .map(|ev| {
            let data = ev.trim().strip_prefix("data: ").unwrap();
            let mut v: Value = serde_json::from_str(data).unwrap();
            if let Some(parts) = v["candidates"][0]["content"]["parts"].as_array_mut() {
                for p in parts {
                    if let Some(fc) = p.get_mut("functionCall") {
                        fc["name"] = calls[i]["name"].clone();
                        fc["args"] = calls[i]["args"].clone();
                        i += 1;
                    }
                }
            }
            format!("data: {v}\r\n\r\n")
        })
        .collect()
}

fn bmw_bar() -> Value {
    json!({"name":"render_visualization","args":{"chartType":"bar","title":"BMW 0-60 mph","unit":"s","sort":"asc",
      "series":[{"name":"0-60 mph","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition","value":3.0},
      {"label":"M3 Competition xDrive","value":3.4}]}]}})
}

fn bmw_line() -> Value {
    json!({"name":"render_visualization","args":{"chartType":"line","title":"BMW models per year","xLabel":"Year",
      "yLabel":"Models","series":[{"name":"Models","points":[{"label":"2020","value":38},{"label":"2021","value":40},
      {"label":"2022","value":41},{"label":"2023","value":44},{"label":"2024","value":46}]}]}})
}

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
    let ev = events(&out.stdout);
    assert_eq!(
        ev,
        vec![
            json!({"type":"init","session_id":"ID","model":"gemini-2.5-flash"}),
            json!({"type":"message","role":"user","content":"What is the capital of France?"}),
            json!({"type":"message","role":"assistant","content":"Paris","delta":true}),
            json!({"type":"result","status":"success","stats":{"input_tokens":11,"output_tokens":1,
                   "thought_tokens":33,"total_tokens":45,"tool_calls":0,"requests":1,
                   "tools":{"render_visualization":{"calls":0,"failed":0,"fallbacks":0},"plot":{"calls":0,"failed":0,"fallbacks":0}}}}),
        ]
    );
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    assert_eq!(
        reqs[0].request_line,
        "POST /v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse HTTP/1.1"
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
    assert_eq!(names, ["render_visualization", "create_new_topic", "plot"]);
    // The session holds the turn.
    let id = session_id(&out.stdout);
    let file = home.join(format!("gemline/sessions/{id}.jsonl"));
    let lines: Vec<Value> = std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["record"], "meta");
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
fn a_key_echoed_by_the_server_is_redacted() {
    let echo = format!(
        r#"{{"error":{{"code":500,"message":"upstream rejected x-goog-api-key: {KEY}","status":"INTERNAL"}}}}"#
    );
    let server = FakeGemini::start(
        "key-echo",
        vec![Reply::json(500, &echo), Reply::json(500, &echo)],
    );
    let home = temp_dir("key-echo");
    let out = gem_ask(&server, &home)
        .args(["--retries", "1", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "{stdout}{stderr}"
    );
    let ev = events(&out.stdout);
    assert_eq!(
        ev.last().unwrap()["error"]["message"],
        "HTTP 500 INTERNAL: upstream rejected x-goog-api-key: [REDACTED]"
    );
    assert_eq!(
        stderr,
        "gem-ask: error: HTTP 500 INTERNAL: upstream rejected x-goog-api-key: [REDACTED]\n"
    );
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
    let ev = events(&out.stdout);
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
    let ev = events(&out.stdout);
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
    assert_eq!(assistant_text(&events(&out.stdout)), "The sum is 5.");
}

#[test]
fn thoughts_only_with_the_flag() {
    let sse = fixture("03-text-stream-thoughts-gemini-2.5-flash.response.sse");
    let server = FakeGemini::start("thoughts", vec![Reply::sse(&sse), Reply::sse(&sse)]);
    let home = temp_dir("thoughts");
    let out = gem_ask(&server, &home)
        .args(["--thoughts", "primes"])
        .succeeds();
    let ev = events(&out.stdout);
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
    assert!(!kinds(&events(&out.stdout)).contains(&"thought"));
    assert!(server.bodies()[1].get("generationConfig").is_none());
}

#[test]
fn single_call_2_5_echoes_the_signature_and_sends_no_id() {
    let call = Reply::sse(&with_calls(
        &format!(
            "data: {}\r\n\r\n",
            serde_json::from_str::<Value>(&fixture(
                "04-functionCall-single-generateContent-gemini-2.5-flash.response.json"
            ))
            .unwrap()
        ),
        &[bmw_bar()],
    ));
    let text = Reply::sse_from_json(&fixture(
        "05-functionResponse-roundtrip-generateContent-gemini-2.5-flash.response.json",
    ));
    let server = FakeGemini::start("single-call", vec![call, text]);
    let home = temp_dir("single-call");
    let out = gem_ask(&server, &home)
        .arg("Fastest 3 BMW models, compare 0-60 in a chart")
        .succeeds();
    let ev = events(&out.stdout);
    assert_eq!(
        kinds(&ev),
        [
            "init",
            "message",
            "tool_use",
            "visualization",
            "tool_result",
            "message",
            "result"
        ]
    );
    assert_eq!(ev[2]["tool_name"], "render_visualization");
    assert_eq!(ev[2]["tool_id"], "render_visualization-1-1");
    assert_eq!(ev[3]["chartType"], "bar");
    assert_eq!(
        ev[3]["series"][0]["points"][0],
        json!({"label":"M5 CS","value":2.9})
    );
    assert_eq!(ev[4]["status"], "success");
    assert_eq!(ev[6]["stats"]["tool_calls"], 1);
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    let model = &bodies[1]["contents"][1];
    assert_eq!(model["role"], "model");
    assert!(
        model["parts"][0]["thoughtSignature"]
            .as_str()
            .unwrap()
            .starts_with("CssBAb4+9vtA0YNy")
    );
    let fr = &bodies[1]["contents"][2]["parts"][0]["functionResponse"];
    assert!(fr.get("id").is_none());
    assert_eq!(fr["name"], "render_visualization");
    assert!(fr["response"]["output"].as_str().unwrap().starts_with(
        "Rendered a bar chart \"BMW 0-60 mph\" with 1 series and 3 points. 0-60 mph: M5 CS=2.9 s"
    ));
}

#[test]
fn parallel_calls_2_5_in_one_event() {
    let calls = [
        bmw_bar(),
        json!({"name":"render_visualization","args":{"chartType":"bar","series":[{"name":"a","points":[{"label":"x","value":1}]},{"name":"b","points":[{"label":"x","value":2}]}]}}),
        json!({"name":"sum","args":{"a":6,"b":7}}),
    ];
    let server = FakeGemini::start(
        "parallel-25",
        vec![
            Reply::sse(&with_calls(
                &fixture("06-parallel-functionCall-stream-gemini-2.5-flash.response.sse"),
                &calls,
            )),
            Reply::sse(&fixture(
                "07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse",
            )),
        ],
    );
    let home = temp_dir("parallel-25");
    let out = gem_ask(&server, &home).arg("charts").succeeds();
    let ev = events(&out.stdout);
    assert_eq!(
        kinds(&ev),
        [
            "init",
            "message",
            "tool_use",
            "visualization",
            "tool_result",
            "tool_use",
            "tool_result",
            "tool_use",
            "tool_result",
            "message",
            "message",
            "message",
            "result"
        ]
    );
    assert_eq!(ev[6]["status"], "error");
    assert_eq!(ev[6]["error"]["type"], "invalid_arguments");
    assert!(
        ev[6]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("use chartType \"line\" for several series")
    );
    assert_eq!(ev[8]["error"]["type"], "unknown_tool");
    let b = &server.bodies()[1];
    // The model's turn verbatim: signature on the first call only.
    let model_parts = b["contents"][1]["parts"].as_array().unwrap();
    assert_eq!(model_parts.len(), 3);
    assert!(model_parts[0].get("thoughtSignature").is_some());
    assert!(model_parts[1].get("thoughtSignature").is_none());
    let responses = b["contents"][2]["parts"].as_array().unwrap();
    let names: Vec<&str> = responses
        .iter()
        .map(|p| p["functionResponse"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["render_visualization", "render_visualization", "sum"]
    );
    assert!(
        responses
            .iter()
            .all(|p| p["functionResponse"].get("id").is_none())
    );
    assert!(responses[1]["functionResponse"]["response"]["error"].is_string());
}

#[test]
fn parallel_calls_3_one_per_event_with_ids() {
    let calls = [
        bmw_bar(),
        bmw_line(),
        json!({"name":"sum","args":{"a":6,"b":7}}),
    ];
    let server = FakeGemini::start(
        "parallel-3",
        vec![
            Reply::sse(&with_calls(
                &fixture("08-parallel-functionCall-stream-gemini-3-flash-preview.response.sse"),
                &calls,
            )),
            Reply::sse(&fixture(
                "09-parallel-functionResponse-stream-gemini-3-flash-preview.response.sse",
            )),
        ],
    );
    let home = temp_dir("parallel-3");
    let out = gem_ask(&server, &home)
        .args(["-m", "gemini-3-flash-preview", "charts"])
        .succeeds();
    let ev = events(&out.stdout);
    let ids: Vec<&str> = ev
        .iter()
        .filter(|e| e["type"] == "tool_use")
        .map(|e| e["tool_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["3ae8iwca", "up3kf30e", "ycroch25"]);
    let b = &server.bodies()[1];
    let recorded: Value = serde_json::from_str(&fixture(
        "09-parallel-functionResponse-stream-gemini-3-flash-preview.request.json",
    ))
    .unwrap();
    // Same parts as the recorded follow-up, except the tools we swapped in.
    let mut expected_model = recorded["contents"][1].clone();
    for (i, c) in calls.iter().enumerate() {
        expected_model["parts"][i]["functionCall"]["name"] = c["name"].clone();
        expected_model["parts"][i]["functionCall"]["args"] = c["args"].clone();
    }
    assert_eq!(b["contents"][1], expected_model);
    let resp_ids: Vec<&str> = b["contents"][2]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["functionResponse"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(resp_ids, ["3ae8iwca", "up3kf30e", "ycroch25"]);
    assert_eq!(
        assistant_text(&ev),
        "The sum of 2 and 3 is 5, the sum of 4 and 5 is 9, and the sum of 6 and 7 is 13."
    );
}

#[test]
fn gemini_3_1_history_matches_the_recorded_second_turn() {
    // Turn 1: calls (fixture 11) then text ending in a signature-only event
    // (fixture 25). Turn 2 in the same session must send what fixture 26
    // shows the API accepting.
    let server = FakeGemini::start(
        "history-3-1",
        vec![
            Reply::sse(&fixture(
                "11-parallel-functionCall-stream-gemini-3.1-pro-preview.response.sse",
            )),
            Reply::sse(&fixture(
                "25-text-stream-after-tools-gemini-3.1-pro-preview.response.sse",
            )),
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            )),
        ],
    );
    let home = temp_dir("history-3-1");
    let recorded: Value = serde_json::from_str(&fixture(
        "26-second-turn-history-gemini-3.1-pro-preview.request.json",
    ))
    .unwrap();
    let first_prompt = recorded["contents"][0]["parts"][0]["text"]
        .as_str()
        .unwrap();
    let second_prompt = recorded["contents"][4]["parts"][0]["text"]
        .as_str()
        .unwrap();
    let out = gem_ask(&server, &home)
        .args([
            "-m",
            "gemini-3.1-pro-preview",
            "--tools",
            "render_visualization",
            first_prompt,
        ])
        .succeeds();
    let id = session_id(&out.stdout);
    gem_ask(&server, &home)
        .args([
            "-m",
            "gemini-3.1-pro-preview",
            "--session",
            &id,
            second_prompt,
        ])
        .assert()
        .success();
    let third = &server.bodies()[2];
    let c = third["contents"].as_array().unwrap();
    assert_eq!(c.len(), 5);
    assert_eq!(c[0], recorded["contents"][0]);
    assert_eq!(c[1], recorded["contents"][1]);
    assert_eq!(c[3], recorded["contents"][3]);
    assert_eq!(c[4], recorded["contents"][4]);
    // Our functionResponses: same ids and names, our answer (sum is not ours).
    for i in 0..3 {
        let ours = &c[2]["parts"][i]["functionResponse"];
        let theirs = &recorded["contents"][2]["parts"][i]["functionResponse"];
        assert_eq!(ours["id"], theirs["id"]);
        assert_eq!(ours["name"], theirs["name"]);
        assert!(
            ours["response"]["error"]
                .as_str()
                .unwrap()
                .starts_with("unknown tool \"sum\"")
        );
    }
}

#[test]
fn rate_limited_then_success() {
    let body =
        fixture("14-error-429-resource-exhausted.response.json").replace("\"26s\"", "\"0.05s\"");
    let server = FakeGemini::start(
        "retry-429",
        vec![
            Reply::json(429, &body),
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            )),
        ],
    );
    let home = temp_dir("retry-429");
    let out = gem_ask(&server, &home).arg("hi").succeeds();
    let ev = events(&out.stdout);
    assert_eq!(
        kinds(&ev),
        ["init", "message", "retry", "message", "result"]
    );
    assert_eq!(
        ev[2],
        json!({"type":"retry","attempt":1,"delay_ms":50,"reason":"HTTP 429 RESOURCE_EXHAUSTED"})
    );
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0], bodies[1]);
}

#[test]
fn max_wait_bounds_the_waiting() {
    // The server asks for 26 s (the recorded RetryInfo); --max-wait 5 says
    // no. A second 429 asking for 3 s fits once, then the budget is spent.
    let e26 = fixture("14-error-429-resource-exhausted.response.json");
    let e3 = e26.replace("\"26s\"", "\"3s\"");
    let server = FakeGemini::start(
        "max-wait",
        vec![
            Reply::json(429, &e26),
            Reply::json(429, &e3),
            Reply::json(429, &e3),
        ],
    );
    let home = temp_dir("max-wait");
    let out = gem_ask(&server, &home)
        .args(["--max-wait", "5", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    let msg = ev[2]["error"]["message"].as_str().unwrap();
    assert!(msg.starts_with("HTTP 429 RESOURCE_EXHAUSTED: "), "{msg}");
    assert!(
        msg.ends_with(" (not retried: the server asked for 26s; waiting would pass --max-wait 5s)"),
        "{msg}"
    );
    assert_eq!(server.requests().len(), 1);
    // 3 s fits in 5 once; the second 3 s would make 6.
    let out = gem_ask(&server, &home)
        .args(["--max-wait", "5", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "retry", "result"]);
    assert_eq!(ev[2]["delay_ms"], 3000);
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn bad_request_is_not_retried() {
    let server = FakeGemini::start(
        "no-retry-400",
        vec![Reply::json(
            400,
            &fixture("15-error-400-api-key-invalid.response.json"),
        )],
    );
    let home = temp_dir("no-retry-400");
    let out = gem_ask(&server, &home)
        .arg("hi")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(
        ev[2]["error"],
        json!({"type":"api_error","message":"HTTP 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key."})
    );
    assert_eq!(server.requests().len(), 1);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("gem-ask: error: HTTP 400 INVALID_ARGUMENT")
    );
    // A failed turn leaves no session behind.
    let id = session_id(&out.stdout);
    assert!(!home.join(format!("gemline/sessions/{id}.jsonl")).exists());
}

#[test]
fn unauthorized_forbidden_and_not_found_are_not_retried() {
    for (name, status, file) in [
        (
            "no-retry-401",
            401,
            "10-error-401-vertex-apikey.response.json",
        ),
        (
            "no-retry-403",
            403,
            "19-error-403-no-credentials.response.json",
        ),
        (
            "no-retry-404",
            404,
            "16-error-404-model-not-found.response.json",
        ),
    ] {
        let server = FakeGemini::start(name, vec![Reply::json(status, &fixture(file))]);
        let home = temp_dir(name);
        gem_ask(&server, &home).arg("hi").assert().code(4);
        assert_eq!(server.requests().len(), 1, "{name}");
    }
}

#[test]
fn server_errors_exhaust_the_retries() {
    let e500 = fixture("18-error-500-internal.response.json");
    let server = FakeGemini::start(
        "exhausted-500",
        vec![
            Reply::json(500, &e500),
            Reply::json(503, &fixture("17-error-503-unavailable.response.json"))
                .header("Retry-After", "0"),
            Reply::json(500, &e500),
        ],
    );
    let home = temp_dir("exhausted-500");
    let out = gem_ask(&server, &home)
        .args(["--retries", "2", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "retry", "retry", "result"]);
    assert_eq!(ev[2]["reason"], "HTTP 500 INTERNAL");
    assert_eq!(ev[3]["reason"], "HTTP 503 UNAVAILABLE");
    assert_eq!(ev[3]["delay_ms"], 0);
    assert_eq!(ev[4]["error"]["type"], "api_error");
    assert!(
        ev[4]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("HTTP 500 INTERNAL: An internal error")
    );
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn connection_refused_is_retried_then_fails() {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let server = FakeGemini::start("refused", vec![]);
    let home = temp_dir("refused");
    let out = gem_ask(&server, &home)
        .env("GEMINI_BASE_URL", format!("http://127.0.0.1:{port}"))
        .args(["--retries", "2", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "retry", "retry", "result"]);
    assert_eq!(ev[4]["error"]["type"], "connection_error");
    // The message names where it tried.
    let message = ev[4]["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("connection failed: 127.0.0.1:{port}: ")),
        "{message}"
    );
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
    let ev = events(&out.stdout);
    let message = ev.last().unwrap()["error"]["message"].as_str().unwrap();
    assert!(message.contains(&format!("127.0.0.1:{port}")), "{message}");
}

#[test]
fn stream_cut_after_text_is_an_error_not_a_retry() {
    let server = FakeGemini::start(
        "cut",
        vec![
            Reply::sse(&fixture(
                "07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse",
            ))
            .cut_after(1, "data: {\"candidates\": [{\"content\": {\"par"),
        ],
    );
    let home = temp_dir("cut");
    let out = gem_ask(&server, &home)
        .arg("hi")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "message", "result"]);
    assert_eq!(ev[2]["content"], "The sum of ");
    assert_eq!(ev[3]["status"], "error");
    assert_eq!(ev[3]["error"]["type"], "stream_interrupted");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn stream_cut_before_any_text_is_retried() {
    let sse = fixture("07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse");
    let server = FakeGemini::start(
        "cut-early",
        vec![
            Reply::sse(&sse).cut_after(0, "data: {\"cand"),
            Reply::sse(&sse),
        ],
    );
    let home = temp_dir("cut-early");
    let out = gem_ask(&server, &home).arg("hi").succeeds();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev)[2], "retry");
    assert_eq!(
        ev[2]["reason"].as_str().unwrap().split(':').next().unwrap(),
        "the response stream ended early"
    );
    assert_eq!(
        assistant_text(&ev),
        "The sum of 2 and 3 is 5.\nThe sum of 4 and 5 is 9.\nThe sum of 6 and 7 is 13."
    );
}

#[test]
fn error_object_inside_the_stream() {
    let err = "data: {\"error\":{\"code\":503,\"message\":\"The model is overloaded. Please try again later.\",\"status\":\"UNAVAILABLE\"}}\r\n\r\n";
    let text = fixture("07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse");
    let first = support::split_events(&text)[0].clone();
    let server = FakeGemini::start(
        "in-stream-error",
        vec![
            Reply::sse(err),
            Reply::sse(&text),
            Reply::sse(&format!("{first}{err}")),
        ],
    );
    let home = temp_dir("in-stream-error");
    // Before any text: retried like a 503.
    let out = gem_ask(&server, &home).arg("hi").succeeds();
    let ev = events(&out.stdout);
    assert_eq!(ev[2]["type"], "retry");
    assert_eq!(ev[2]["reason"], "HTTP 503 UNAVAILABLE");
    // After text: an API error.
    let out = gem_ask(&server, &home)
        .arg("hi")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "message", "result"]);
    assert_eq!(
        ev[3]["error"]["message"],
        "HTTP 503 UNAVAILABLE: The model is overloaded. Please try again later."
    );
}

#[test]
fn safety_blocks_have_their_own_exit_code() {
    let server = FakeGemini::start(
        "safety",
        vec![
            Reply::sse_from_json(&fixture("22-safety-finishReason-SAFETY.response.json")),
            Reply::sse_from_json(&fixture("23-safety-promptFeedback-blocked.response.json")),
        ],
    );
    let home = temp_dir("safety");
    let out = gem_ask(&server, &home)
        .arg("x")
        .assert()
        .code(5)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(
        ev.last().unwrap()["error"],
        json!({"type":"blocked","message":"blocked by safety filters: the answer was stopped (finishReason SAFETY, category HARM_CATEGORY_SEXUALLY_EXPLICIT)"})
    );
    let out = gem_ask(&server, &home)
        .arg("x")
        .assert()
        .code(5)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(
        ev.last().unwrap()["error"]["message"],
        "blocked by safety filters: the prompt was blocked (blockReason PROHIBITED_CONTENT)"
    );
    assert_eq!(server.requests().len(), 2);
}

/// The BMW scenario's four answers (Gemini 3.1 shapes, signatures kept):
/// a bar chart call, its text, a line chart call, its text.
fn bmw_server(name: &str) -> FakeGemini {
    let call_1 = with_calls(
        &fixture("11-parallel-functionCall-stream-gemini-3.1-pro-preview.response.sse"),
        &[bmw_bar(), bmw_bar(), bmw_bar()],
    );
    // One call only: keep the first event and the closing one.
    let ev1 = support::split_events(&call_1);
    let turn1_call = format!("{}{}", ev1[0], ev1[3]);
    let call_2 = with_calls(
        &fixture("26-second-turn-history-gemini-3.1-pro-preview.response.sse"),
        &[bmw_line(), bmw_line(), bmw_line()],
    );
    let ev2 = support::split_events(&call_2);
    let turn2_call = format!("{}{}", ev2[0], ev2[3]);
    let text = |t: &str| {
        format!(
            "data: {}\r\n\r\n",
            json!({"candidates":[{"content":{"role":"model","parts":[{"text":t}]},"finishReason":"STOP","index":0}],
                   "usageMetadata":{"promptTokenCount":500,"candidatesTokenCount":20,"totalTokenCount":520}})
        )
    };
    FakeGemini::start(
        name,
        vec![
            Reply::sse(&turn1_call),
            Reply::sse(&text("The M5 CS is the quickest at 2.9 s.")),
            Reply::sse(&turn2_call),
            Reply::sse(&text("BMW's lineup grew from 38 to 46 models.")),
        ],
    )
}

#[test]
fn bmw_scenario_bar_then_same_session_line() {
    let server = bmw_server("bmw");
    let home = temp_dir("bmw");
    let out = gem_ask(&server, &home)
        .args([
            "-m",
            "gemini-3.1-pro-preview",
            "Fastest 3 BMW models, compare 0-60 in a chart",
        ])
        .succeeds();
    let ev = events(&out.stdout);
    let viz: Vec<&Value> = ev.iter().filter(|e| e["type"] == "visualization").collect();
    assert_eq!(viz.len(), 1);
    assert_eq!(
        *viz[0],
        json!({"type":"visualization","chartType":"bar","title":"BMW 0-60 mph","unit":"s",
               "series":[{"name":"0-60 mph","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition","value":3.0},
               {"label":"M3 Competition xDrive","value":3.4}]}],"meta":{"truncated":false,"originalPointCount":3}})
    );
    // The follow-up with --continue picks the same session.
    let out2 = gem_ask(&server, &home)
        .args([
            "-m",
            "gemini-3.1-pro-preview",
            "--continue",
            "BMW models per year for the last 5 years",
        ])
        .succeeds();
    assert_eq!(session_id(&out2.stdout), session_id(&out.stdout));
    let ev = events(&out2.stdout);
    assert_eq!(
        kinds(&ev),
        [
            "init",
            "message",
            "tool_use",
            "visualization",
            "tool_result",
            "message",
            "result"
        ]
    );
    assert_eq!(ev[3]["chartType"], "line");
    assert_eq!(ev[3]["series"][0]["points"].as_array().unwrap().len(), 5);
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 4);
    let c = bodies[2]["contents"].as_array().unwrap();
    // user, model(call), user(response), model(text), user(follow-up)
    assert_eq!(c.len(), 5);
    assert_eq!(
        c[1]["parts"][0]["functionCall"]["name"],
        "render_visualization"
    );
    assert!(c[1]["parts"][0]["thoughtSignature"].is_string());
    assert!(c[2]["parts"][0]["functionResponse"]["response"]["output"].is_string());
    assert_eq!(
        c[3]["parts"][0]["text"],
        "The M5 CS is the quickest at 2.9 s."
    );
    assert_eq!(
        c[4]["parts"][0]["text"],
        "BMW models per year for the last 5 years"
    );
}

/// gem-ask's environment for a `std::process::Command` (real pipes).
fn gem_ask_std(server: &FakeGemini, data_home: &Path) -> std::process::Command {
    support::gem_ask_std_cmd(server, data_home)
}

/// `gem-ask ARGS | viz-render --width 60 --ascii --color never`, both
/// binaries joined by a real pipe; returns what viz-render drew.
fn pipe_into_viz_render(server: &FakeGemini, home: &Path, args: &[&str]) -> String {
    let mut ask = gem_ask_std(server, home)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let render = std::process::Command::new(assert_cmd::cargo::cargo_bin!("viz-render"))
        .args(["--width", "60", "--ascii", "--color", "never"])
        .env_remove("NO_COLOR")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITLAB_CI")
        .stdin(ask.stdout.take().unwrap())
        .output()
        .unwrap();
    let ask = ask.wait_with_output().unwrap();
    assert!(
        ask.status.success(),
        "gem-ask: {}",
        String::from_utf8_lossy(&ask.stderr)
    );
    assert!(
        render.status.success(),
        "viz-render: {}",
        String::from_utf8_lossy(&render.stderr)
    );
    String::from_utf8(render.stdout).unwrap()
}

#[test]
fn bmw_scenario_piped_into_viz_render() {
    let server = bmw_server("bmw-pipe");
    let home = temp_dir("bmw-pipe");
    let first = pipe_into_viz_render(
        &server,
        &home,
        &[
            "-m",
            "gemini-3.1-pro-preview",
            "Fastest 3 BMW models, compare 0-60 in a chart",
        ],
    );
    assert_eq!(
        first,
        "> Fastest 3 BMW models, compare 0-60 in a chart\n\
         \n\
         BMW 0-60 mph\n\
         M5 CS                 ###########################      2.9 s\n\
         M8 Competition        ############################     3.0 s\n\
         M3 Competition xDrive ################################ 3.4 s\n\
         \n\
         The M5 CS is the quickest at 2.9 s.\n"
    );
    let second = pipe_into_viz_render(
        &server,
        &home,
        &[
            "-m",
            "gemini-3.1-pro-preview",
            "--continue",
            "BMW models per year for the last 5 years",
        ],
    );
    let lines: Vec<&str> = second.lines().collect();
    assert_eq!(
        lines[..5],
        [
            "> BMW models per year for the last 5 years",
            "",
            "BMW models per year",
            "Models",
            "46 |                                                      **",
        ]
    );
    // The line rises from 38 in 2020 to 46 in 2024: ticks, axis, years.
    assert_eq!(lines[4].split('|').next(), Some("46 "));
    assert!(lines.contains(&"38 |***"), "{second}");
    assert!(lines.iter().any(|l| l.starts_with("   +-----")), "{second}");
    let years: Vec<&str> = lines
        .iter()
        .find(|l| l.contains("2020"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(years, ["2020", "2021", "2022", "2023", "2024"]);
    assert!(second.ends_with("Year\n\nBMW's lineup grew from 38 to 46 models.\n"));
    // The follow-up resent the first turn: same session, history included.
    assert_eq!(server.bodies()[2]["contents"].as_array().unwrap().len(), 5);
}

#[test]
fn output_text_draws_the_chart_as_viz_render_does() {
    let server = bmw_server("bmw-text");
    let home = temp_dir("bmw-text");
    let out = gem_ask(&server, &home)
        .args([
            "--output",
            "text",
            "--width",
            "60",
            "--ascii",
            "--color",
            "never",
            "Fastest 3 BMW models, compare 0-60 in a chart",
        ])
        .succeeds();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "> Fastest 3 BMW models, compare 0-60 in a chart\n\
         \n\
         BMW 0-60 mph\n\
         M5 CS                 ###########################      2.9 s\n\
         M8 Competition        ############################     3.0 s\n\
         M3 Competition xDrive ################################ 3.4 s\n\
         \n\
         The M5 CS is the quickest at 2.9 s.\n"
    );
}

#[test]
fn output_text_never_passes_control_characters_through() {
    let evil_call = json!({"name":"render_visualization","args":{"chartType":"bar","title":"Pwn\u{1b}]0;owned\u{7}",
        "series":[{"name":"s","points":[{"label":"a\u{1b}[2J","value":1},{"label":"b\u{9b}31m","value":2}]}]}});
    let call = with_calls(
        &format!(
            "data: {}\r\n\r\n",
            serde_json::from_str::<Value>(&fixture(
                "04-functionCall-single-generateContent-gemini-2.5-flash.response.json"
            ))
            .unwrap()
        ),
        &[evil_call],
    );
    let text = format!(
        "data: {}\r\n\r\n",
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":"done\u{1b}[2J\u{1b}]52;c;Zm9v\u{7} \u{202e}x"}]},"finishReason":"STOP"}]})
    );
    let server = FakeGemini::start(
        "ctrl",
        vec![
            Reply::sse(&call),
            Reply::sse(&text),
            Reply::sse(&call),
            Reply::sse(&text),
        ],
    );
    let home = temp_dir("ctrl");
    let colour = regex::Regex::new("\u{1b}\\[[0-9;]*m").unwrap();
    for extra in [&["--ascii"][..], &["--unicode"][..]] {
        let out = gem_ask(&server, &home)
            .args([
                "--output",
                "text",
                "--color",
                "always",
                "--width",
                "60",
                "--show-tools",
            ])
            .args(extra)
            .arg("chart")
            .succeeds();
        let shown = String::from_utf8(out.stdout).unwrap();
        // Only our own colour sequences (ESC [ ... m) may carry an ESC.
        let stripped = colour.replace_all(&shown, "");
        assert!(
            !stripped
                .chars()
                .any(|c| (c.is_control() && c != '\n') || c == '\u{202e}'),
            "{shown:?}"
        );
        assert!(stripped.contains("done^[[2J^[]52;c;Zm9v^G"), "{stripped:?}");
        assert!(stripped.contains("a^[[2J"), "{stripped:?}");
        // The tool lines (--show-tools) carry the title too.
        assert!(stripped.contains("Pwn^[]0;owned^G"), "{stripped:?}");
    }
    assert_eq!(server.requests().len(), 4);
}

#[test]
fn record_then_replay_without_network_or_key() {
    let server = FakeGemini::start(
        "record",
        vec![
            Reply::sse(&with_calls(
                &fixture("08-parallel-functionCall-stream-gemini-3-flash-preview.response.sse"),
                &[bmw_bar(), bmw_line(), bmw_bar()],
            )),
            Reply::sse(&fixture(
                "09-parallel-functionResponse-stream-gemini-3-flash-preview.response.sse",
            )),
        ],
    );
    let home = temp_dir("record");
    let file = home.join("session.replay");
    let live = gem_ask(&server, &home)
        .args(["--no-history", "--record", file.to_str().unwrap(), "charts"])
        .succeeds();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains(KEY));
    assert_eq!(text.lines().count(), 2);
    let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(
        first["request"]["path"],
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    );
    assert_eq!(first["response"]["status"], 200);
    assert_eq!(
        first["response"]["body"].as_str().unwrap(),
        with_calls(
            &fixture("08-parallel-functionCall-stream-gemini-3-flash-preview.response.sse"),
            &[bmw_bar(), bmw_line(), bmw_bar()],
        )
    );
    let replayed = gem_ask(&server, &home)
        .env_remove("GEMINI_API_KEY")
        .env("GEMINI_BASE_URL", "http://127.0.0.1:9")
        .args(["--no-history", "--replay", file.to_str().unwrap(), "charts"])
        .succeeds();
    assert_eq!(events(&replayed.stdout), events(&live.stdout));
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn the_readme_demo_replays_both_turns() {
    let home = temp_dir("demo");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/demo/bmw.replay");
    let server = FakeGemini::start("demo-unused", vec![]);
    let run = |args: &[&str]| {
        let out = gem_ask(&server, &home)
            .env_remove("GEMINI_API_KEY")
            .arg("--replay")
            .arg(&demo)
            .args(args)
            .succeeds();
        events(&out.stdout)
    };
    let ev = run(&["Fastest 3 BMW models, compare 0-60 in a chart"]);
    let viz = ev.iter().find(|e| e["type"] == "visualization").unwrap();
    assert_eq!(viz["chartType"], "bar");
    let ev = run(&["--continue", "BMW models per year for the last 5 years"]);
    let viz = ev.iter().find(|e| e["type"] == "visualization").unwrap();
    assert_eq!(viz["chartType"], "line");
    assert!(server.requests().is_empty());
}

#[test]
fn tool_selection_flags() {
    let sse = fixture("02-text-stream-gemini-2.5-flash-single-chunk.response.sse");
    let server = FakeGemini::start(
        "tool-flags",
        vec![Reply::sse(&sse), Reply::sse(&sse), Reply::sse(&sse)],
    );
    let home = temp_dir("tool-flags");
    gem_ask(&server, &home)
        .args(["--no-tools", "hi"])
        .assert()
        .success();
    gem_ask(&server, &home)
        .args(["--tools", "create_new_topic", "hi"])
        .assert()
        .success();
    gem_ask(&server, &home)
        .args(["--exclude-tools", "create_new_topic", "hi"])
        .assert()
        .success();
    let b = server.bodies();
    assert!(b[0].get("tools").is_none());
    let decl_names = |v: &Value| -> Vec<String> {
        v["tools"][0]["functionDeclarations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(decl_names(&b[1]), ["create_new_topic"]);
    assert_eq!(decl_names(&b[2]), ["render_visualization", "plot"]);
    let out = gem_ask(&server, &home)
        .args(["--tools", "web_search", "hi"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown tool \"web_search\""));
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
        assistant_text(&events(&out.stdout)),
        "```bash\nfind . -size +100M\n```"
    );
}

#[test]
fn too_many_tool_rounds() {
    let call = with_calls(
        &fixture("08-parallel-functionCall-stream-gemini-3-flash-preview.response.sse"),
        &[bmw_bar(), bmw_bar(), bmw_bar()],
    );
    let server = FakeGemini::start("rounds", vec![Reply::sse(&call), Reply::sse(&call)]);
    let home = temp_dir("rounds");
    let out = gem_ask(&server, &home)
        .args(["--max-tool-rounds", "1", "x"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(ev.last().unwrap()["error"]["type"], "max_tool_rounds");
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn topic_comes_first_and_is_carried_into_the_next_requests() {
    let calls = [
        bmw_bar(),
        json!({"name":"create_new_topic","args":{"title":"Charting BMW data"}}),
        bmw_bar(),
    ];
    let server = FakeGemini::start(
        "topic",
        vec![
            Reply::sse(&with_calls(
                &fixture("08-parallel-functionCall-stream-gemini-3-flash-preview.response.sse"),
                &calls,
            )),
            Reply::sse(&fixture(
                "09-parallel-functionResponse-stream-gemini-3-flash-preview.response.sse",
            )),
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            )),
        ],
    );
    let home = temp_dir("topic");
    let out = gem_ask(&server, &home).arg("chart BMW").succeeds();
    let ev = events(&out.stdout);
    assert_eq!(
        &kinds(&ev)[2..6],
        ["tool_use", "topic", "tool_result", "tool_use"]
    );
    assert_eq!(ev[2]["tool_name"], "create_new_topic");
    assert_eq!(ev[2]["tool_id"], "up3kf30e");
    assert_eq!(ev[3], json!({"type":"topic","title":"Charting BMW data"}));
    let b = server.bodies();
    let sys = |v: &Value| {
        v["systemInstruction"]["parts"][0]["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(!sys(&b[0]).contains("[Active Topic:"));
    assert!(sys(&b[1]).contains(
        "[Active Topic: Charting BMW data]\nIf the current active topic no longer describes"
    ));
    // functionResponses stay in the model's call order.
    let names: Vec<&str> = b[1]["contents"][2]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["functionResponse"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "render_visualization",
            "create_new_topic",
            "render_visualization"
        ]
    );
    assert_eq!(
        b[1]["contents"][2]["parts"][1]["functionResponse"]["response"],
        json!({"output":"Topic changed to: \"Charting BMW data\""})
    );
    // The next turn of the session starts with the topic in place.
    let id = session_id(&out.stdout);
    gem_ask(&server, &home)
        .args(["--session", &id, "and now?"])
        .assert()
        .success();
    assert!(sys(&server.bodies()[2]).contains("[Active Topic: Charting BMW data]"));
    let stored =
        std::fs::read_to_string(home.join(format!("gemline/sessions/{id}.jsonl"))).unwrap();
    assert!(stored.lines().any(|l| l.starts_with(r#"{"record":"topic","title":"Charting BMW data","timestamp":"#)));
}

/// Runs gem-ask against a model that answers nothing for 30 s, sends it
/// `signal` once the request is in, and returns what it wrote.
fn interrupted(name: &str, signal: i32) -> (std::process::Output, PathBuf) {
    let server = FakeGemini::start(
        name,
        vec![
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            ))
            .delay_each(Duration::from_secs(30)),
        ],
    );
    let home = temp_dir(name);
    let child = gem_ask_std(&server, &home)
        .arg("hi")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the request is in: the model is "thinking".
    while server.requests().is_empty() {
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: signalling our own child by its pid.
    unsafe {
        libc::kill(child.id() as i32, signal);
    }
    (child.wait_with_output().unwrap(), home)
}

#[test]
fn sigint_ends_the_stream_with_a_result() {
    let (out, _) = interrupted("sigint", libc::SIGINT);
    assert_eq!(out.status.code(), Some(130));
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(
        ev[2]["error"],
        json!({"type":"interrupted","message":"interrupted by SIGINT"})
    );
}

#[test]
fn sigterm_ends_the_stream_with_a_result() {
    let (out, home) = interrupted("sigterm", libc::SIGTERM);
    assert_eq!(out.status.code(), Some(143));
    let ev = events(&out.stdout);
    assert_eq!(
        ev.last().unwrap()["error"]["message"],
        "interrupted by SIGTERM"
    );
    // The interrupted turn is not stored.
    let id = session_id(&out.stdout);
    assert!(!home.join(format!("gemline/sessions/{id}.jsonl")).exists());
}

/// Rebuilds testdata/demo/bmw.replay, the README's demo session: a scripted
/// session in the recorded gemini-2.5-flash wire format. The answers below
/// are written by hand (not captured from the live API) in the shapes of the
/// recorded fixtures (a streamed call with its thought signature and no id,
/// then text in pieces); gem-ask's `--record` against the fake server turns
/// them into the replay file. Run: cargo test --test gem_ask -- --ignored
#[test]
#[ignore]
fn regenerate_demo_replay() {
    let sig = "CssBAb4+9vtA0YNySGDhNbWUekpgT0C4JzfoLAMCUxxSlERpI2LVij53p/T9qWJSHxNvQmxdYycF8yf/oRMZ0cnD1wKxww2tYiJpDtgJXwJRLKNaB6YpvNLH7gbW/3Sd2qNzdOlcbbenmh6gYBvjrngYKV8PYSoGj58y7BmJ7bpdwar93Q+wTGQNaeJLQeAJM+KqpF1IB6fZWk4EtotwxKnePkkMgFtwFGYXOZQjhnCudMJprOkORFhhoF4mujrSVU9uqWAIpkhahJn6d2I=";
    let call = |args: Value, rid: &str, prompt_tokens: u64| {
        format!(
            "data: {}\r\n\r\n",
            json!({"candidates":[{"content":{"parts":[{"functionCall":{"name":"render_visualization","args":args},"thoughtSignature":sig}],"role":"model"},
                   "finishReason":"STOP","index":0,"finishMessage":"Model generated function call(s)."}],
                   "usageMetadata":{"promptTokenCount":prompt_tokens,"candidatesTokenCount":96,"totalTokenCount":prompt_tokens + 96 + 412,
                   "promptTokensDetails":[{"modality":"TEXT","tokenCount":prompt_tokens}],"thoughtsTokenCount":412},
                   "modelVersion":"gemini-2.5-flash","responseId":rid})
        )
    };
    let text = |pieces: &[&str], rid: &str, prompt_tokens: u64| {
        let mut out = String::new();
        let mut done = 0;
        for (i, p) in pieces.iter().enumerate() {
            done += p.split_whitespace().count() as u64 + 2;
            let mut cand = json!({"content":{"parts":[{"text":p}],"role":"model"},"index":0});
            if i + 1 == pieces.len() {
                cand["finishReason"] = "STOP".into();
            }
            out.push_str(&format!(
                "data: {}\r\n\r\n",
                json!({"candidates":[cand],"usageMetadata":{"promptTokenCount":prompt_tokens,"candidatesTokenCount":done,
                       "totalTokenCount":prompt_tokens + done,"promptTokensDetails":[{"modality":"TEXT","tokenCount":prompt_tokens}]},
                       "modelVersion":"gemini-2.5-flash","responseId":rid})
            ));
        }
        out
    };
    let bar = json!({"chartType":"bar","title":"BMW 0-60 mph, quickest current models","subtitle":"BMW M claims, 2025 model year",
        "xLabel":"Model","yLabel":"0-60 mph","unit":"s","sort":"asc",
        "series":[{"name":"0-60 mph","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition Coupe","value":3.0},
        {"label":"M3 Competition xDrive","value":3.4}]}]});
    let line = json!({"chartType":"line","title":"BMW brand deliveries per year","subtitle":"BMW Group annual reports",
        "xLabel":"Year","yLabel":"Cars delivered","unit":"million",
        "series":[{"name":"BMW","points":[{"label":"2020","value":2.03},{"label":"2021","value":2.21},{"label":"2022","value":2.10},
        {"label":"2023","value":2.25},{"label":"2024","value":2.20}]}]});
    let server = FakeGemini::start(
        "demo",
        vec![
            Reply::sse(&call(bar, "k2m8ZcW1BLqTnsEP4dGqgQo", 742)),
            Reply::sse(&text(
                &[
                    "The quickest three are the M5 CS (2.9 s), the M8 Competition Coupe (3.0 s)",
                    " and the M3 Competition xDrive (3.4 s); all are BMW's own 0-60 mph figures.",
                    " Independent tests often run a tenth or two quicker.",
                ],
                "l9m8ZbXeA5yVnsEPwpuNqAk",
                918,
            )),
            Reply::sse(&call(line, "n4m8ZdHtIuSUnsEP0aKg2Qw", 1003)),
            Reply::sse(&text(
                &[
                    "I read \"models per year\" as BMW-brand cars delivered each year.",
                    " Deliveries dipped in 2022 on chip shortages, peaked at 2.25 million in 2023",
                    " and eased to 2.20 million in 2024.",
                ],
                "p1n8ZeKwHvaXnsEPyb6FoA0",
                1187,
            )),
        ],
    );
    let home = temp_dir("demo-regen");
    let t1 = home.join("t1.replay");
    let t2 = home.join("t2.replay");
    gem_ask(&server, &home)
        .arg("--record")
        .arg(&t1)
        .arg("Fastest 3 BMW models, compare 0-60 in a chart")
        .assert()
        .success();
    gem_ask(&server, &home)
        .arg("--record")
        .arg(&t2)
        .args(["--continue", "BMW models per year for the last 5 years"])
        .assert()
        .success();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/demo/bmw.replay");
    std::fs::create_dir_all(demo.parent().unwrap()).unwrap();
    let both = std::fs::read_to_string(t1).unwrap() + &std::fs::read_to_string(t2).unwrap();
    std::fs::write(demo, both).unwrap();
}

#[test]
fn session_from_the_environment_and_new_chat() {
    let sse = fixture("02-text-stream-gemini-2.5-flash-single-chunk.response.sse");
    let server = FakeGemini::start(
        "session-env",
        vec![Reply::sse(&sse), Reply::sse(&sse), Reply::sse(&sse)],
    );
    let home = temp_dir("session-env");
    let out = gem_ask(&server, &home)
        .env("GEMINI_SESSION_ID", "work-chat")
        .env_remove("GEMINI_BASE_URL")
        .env("GOOGLE_GEMINI_BASE_URL", &server.url)
        .arg("first")
        .succeeds();
    assert_eq!(session_id(&out.stdout), "work-chat");
    gem_ask(&server, &home)
        .env("GEMINI_SESSION_ID", "work-chat")
        .arg("second")
        .assert()
        .success();
    let out = gem_ask(&server, &home)
        .env("GEMINI_SESSION_ID", "work-chat")
        .args(["--new-chat", "third"])
        .succeeds();
    assert_ne!(session_id(&out.stdout), "work-chat");
    let b = server.bodies();
    let texts = |v: &Value| -> Vec<String> {
        v["contents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["parts"][0]["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(texts(&b[0]), ["first"]);
    assert_eq!(texts(&b[1]), ["first", "Paris", "second"]);
    assert_eq!(texts(&b[2]), ["third"]);
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
            .contains("/models/gemini-2.5-flash:")
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
    let ev = events(&out.stdout);
    assert_eq!(
        assistant_text(&ev),
        "The sum of 2 and 3 is 5.\nThe sum of 4 and 5 is 9.\nThe sum of 6 and 7 is 13."
    );
}

#[test]
fn redirects_are_not_followed() {
    let server = FakeGemini::start(
        "redirect",
        vec![Reply::json(307, "{}").header("Location", "http://127.0.0.1:9/steal")],
    );
    let home = temp_dir("redirect");
    let out = gem_ask(&server, &home)
        .arg("hi")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(ev.last().unwrap()["error"]["message"], "HTTP 307: {}");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn replay_files_that_run_out_or_are_missing() {
    let server = FakeGemini::start("replay-errors", vec![]);
    let home = temp_dir("replay-errors");
    let file = home.join("one.replay");
    let call = with_calls(
        &fixture("08-parallel-functionCall-stream-gemini-3-flash-preview.response.sse"),
        &[bmw_bar(), bmw_bar(), bmw_bar()],
    );
    // One exchange only, but the run needs two (a tool round).
    let line = json!({"request":{"method":"POST","path":"/x","body":{}},
                      "response":{"status":200,"headers":{"content-type":"text/event-stream"},"body":call}});
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let out = gem_ask(&server, &home)
        .env_remove("GEMINI_API_KEY")
        .arg("--replay")
        .arg(&file)
        .arg("x")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(
        ev.last().unwrap()["error"],
        json!({"type":"replay_error","message":"replay: replay file has no exchange left for this request"})
    );
    let out = gem_ask(&server, &home)
        .args(["--replay", "/nonexistent/demo.replay", "x"])
        .assert()
        .code(66)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(ev.last().unwrap()["error"]["type"], "setup_error");
    assert!(server.requests().is_empty());
}

#[test]
fn a_closed_stdout_ends_quietly_with_0() {
    // `gem-ask ... | head`: the reader takes the lines up to the first
    // piece of the answer and goes away; only then does the server send the
    // rest. That the piece arrived at all while the server held back the
    // rest also proves each chunk is passed on as it comes.
    let gate = support::Gate::default();
    let server = FakeGemini::start(
        "head",
        vec![
            Reply::sse(&fixture(
                "07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse",
            ))
            .gated(1, &gate),
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            )),
        ],
    );
    let home = temp_dir("head");
    let mut child = gem_ask_std(&server, &home)
        .arg("hi")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    while !lines
        .last()
        .is_some_and(|l: &String| l.contains(r#""role":"assistant""#))
    {
        let mut line = String::new();
        assert_ne!(
            std::io::BufRead::read_line(&mut reader, &mut line).unwrap(),
            0
        );
        lines.push(line);
    }
    assert!(lines[0].starts_with(r#"{"type":"init","#), "{lines:?}");
    drop(reader);
    gate.open();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert!(!gate.timed_out());
    // Closed before the first event: same quiet end, no request made. The
    // read end is closed before gem-ask starts, so no write can win a race.
    let mut fds = [0; 2];
    // SAFETY: pipe2() fills two descriptors we then own; close-on-exec so
    // no child spawned meanwhile by another test keeps the read end open.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    // SAFETY: each descriptor is owned exactly once.
    let (read_end, write_end) = unsafe {
        use std::os::fd::FromRawFd;
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    };
    drop(read_end);
    let out = gem_ask_std(&server, &home)
        .arg("hi")
        .stdout(write_end)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn read_timeout_cuts_a_silent_server_not_a_slow_stream() {
    let sse = fixture("07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse");
    // Headers, then silence far longer than --read-timeout. (The fake
    // server answers one connection at a time: the slow stream below gets
    // a server of its own.)
    let silent = FakeGemini::start(
        "read-timeout",
        vec![Reply::sse(&sse).delay_each(Duration::from_secs(60))],
    );
    // Each event well within the timeout (300 ms gaps under 3 s, room
    // for a loaded machine), the whole stream (13 gaps) beyond it.
    let pieces: String = (1..=13)
        .map(|i| {
            let mut cand = json!({"content":{"role":"model","parts":[{"text": format!("{i} ")}]}});
            if i == 13 {
                cand["finishReason"] = "STOP".into();
            }
            format!("data: {}\r\n\r\n", json!({"candidates":[cand]}))
        })
        .collect();
    let slow = FakeGemini::start(
        "read-timeout-slow",
        vec![Reply::sse(&pieces).delay_each(Duration::from_millis(300))],
    );
    let home = temp_dir("read-timeout");
    let out = gem_ask(&silent, &home)
        .args(["--read-timeout", "1", "--retries", "0", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(
        ev[2]["error"],
        json!({"type":"stream_interrupted","message":"the response stream ended early: no data for 1s (--read-timeout)"})
    );
    let out = gem_ask(&slow, &home)
        .args(["--read-timeout", "3", "--retries", "0", "hi"])
        .succeeds();
    assert_eq!(
        assistant_text(&events(&out.stdout)),
        "1 2 3 4 5 6 7 8 9 10 11 12 13 "
    );
}

#[test]
fn sigterm_while_stdin_is_still_open() {
    let server = FakeGemini::start("sigterm-stdin", vec![]);
    let home = temp_dir("sigterm-stdin");
    let mut child = gem_ask_std(&server, &home)
        .arg("summarize")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Some context, and the writer stays open (`tail -f log | gem-ask`);
    // a watchdog closes it after 20 s so a gem-ask deaf to the signal
    // fails this test instead of hanging it.
    let mut stdin = child.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, b"line 1\n").unwrap();
    let (done, alarm) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let fired = alarm.recv_timeout(Duration::from_secs(20)).is_err();
        drop(stdin);
        fired
    });
    // Signal only once gem-ask catches SIGTERM (bit 15 of SigCgt), else
    // the default action would kill it before it can answer.
    let status = format!("/proc/{}/status", child.id());
    loop {
        let text = std::fs::read_to_string(&status).unwrap();
        let caught = text
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .map(|m| u64::from_str_radix(m.trim(), 16).unwrap())
            .unwrap();
        if caught & (1 << (libc::SIGTERM - 1)) != 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: signalling our own child by its pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let out = child.wait_with_output().unwrap();
    done.send(()).unwrap();
    assert!(
        !watchdog.join().unwrap(),
        "gem-ask waited for stdin to close"
    );
    assert_eq!(out.status.code(), Some(143));
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(
        ev[2]["error"],
        json!({"type":"interrupted","message":"interrupted by SIGTERM"})
    );
    assert!(server.requests().is_empty());
}

#[test]
fn output_text_shows_an_error_once() {
    let server = FakeGemini::start("text-error", vec![]);
    let home = temp_dir("text-error");
    let out = gem_ask(&server, &home)
        .env_remove("GEMINI_API_KEY")
        .args(["--output", "text", "--ascii", "--color", "never", "hi"])
        .assert()
        .code(3)
        .get_output()
        .clone();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "> hi\nerror: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY\n"
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // -c prints only the command, so its failure goes to stderr.
    let out = gem_ask(&server, &home)
        .env_remove("GEMINI_API_KEY")
        .args(["--output", "text", "-c", "list files"])
        .assert()
        .code(3)
        .get_output()
        .clone();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "gem-ask: error: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY\n"
    );
}

#[test]
fn an_unreadable_session_ends_inside_the_stream() {
    let server = FakeGemini::start("bad-session", vec![]);
    let home = temp_dir("bad-session");
    // A directory where the session file should be: it cannot be read.
    std::fs::create_dir_all(home.join("gemline/sessions/stuck.jsonl")).unwrap();
    let out = gem_ask(&server, &home)
        .args(["--session", "stuck", "hi"])
        .assert()
        .code(1)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(ev[2]["error"]["type"], "session_error");
    assert!(
        ev[2]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("cannot read session "),
        "{:?}",
        ev[2]
    );
    assert!(server.requests().is_empty());
}

#[test]
fn connect_timeout_gives_up_on_a_peer_that_never_accepts() {
    // A listener with a backlog of 0 that never accepts: once its queue is
    // full the kernel drops further SYNs, so connecting hangs.
    // SAFETY: plain socket calls on a descriptor owned by this test.
    let (fd, port) = unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM, 0);
        assert!(fd >= 0);
        let mut addr: libc::sockaddr_in = std::mem::zeroed();
        addr.sin_family = libc::AF_INET as libc::sa_family_t;
        addr.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
        let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        assert_eq!(
            libc::bind(fd, &addr as *const _ as *const libc::sockaddr, len),
            0
        );
        assert_eq!(libc::listen(fd, 0), 0);
        let mut bound: libc::sockaddr_in = std::mem::zeroed();
        let mut blen = len;
        libc::getsockname(fd, &mut bound as *mut _ as *mut libc::sockaddr, &mut blen);
        (fd, u16::from_be(bound.sin_port))
    };
    // Fill the accept queue.
    let fillers: Vec<_> = (0..4)
        .filter_map(|_| {
            std::net::TcpStream::connect_timeout(
                &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
                Duration::from_millis(200),
            )
            .ok()
        })
        .collect();
    let server = FakeGemini::start("connect-timeout", vec![]);
    let home = temp_dir("connect-timeout");
    let out = gem_ask(&server, &home)
        .env("GEMINI_BASE_URL", format!("http://127.0.0.1:{port}"))
        .args([
            "--connect-timeout",
            "1",
            "--read-timeout",
            "2",
            "--retries",
            "0",
            "hi",
        ])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = events(&out.stdout);
    let error = &ev.last().unwrap()["error"];
    assert_eq!(error["type"], "connection_error");
    // Whether the kernel drops the SYN (the connect hangs) or completes the
    // handshake anyway (syncookies, a larger backlog: then nothing answers)
    // is not ours to choose; either way the run gives up, naming the limit.
    let hung =
        format!("connection failed: 127.0.0.1:{port}: no connection within 1s (--connect-timeout)");
    let silent =
        format!("connection failed: 127.0.0.1:{port}: no answer within 2s (--read-timeout)");
    let message = error["message"].as_str().unwrap();
    assert!(message == hung || message == silent, "{message}");
    drop(fillers);
    // SAFETY: closing the descriptor opened above.
    unsafe {
        libc::close(fd);
    }
}

#[test]
fn huge_token_counts_saturate_instead_of_overflowing() {
    let max = u64::MAX;
    let usage = json!({"promptTokenCount": max, "candidatesTokenCount": max,
                       "thoughtsTokenCount": max, "totalTokenCount": max});
    let call = json!({"candidates":[{"content":{"role":"model","parts":[{"functionCall": bmw_bar()}]},
                      "finishReason":"STOP"}], "usageMetadata": usage});
    let text = json!({"candidates":[{"content":{"role":"model","parts":[{"text":"done"}]},
                      "finishReason":"STOP"}], "usageMetadata": usage});
    let server = FakeGemini::start(
        "huge-usage",
        vec![
            Reply::sse(&format!("data: {call}\r\n\r\n")),
            Reply::sse(&format!("data: {text}\r\n\r\n")),
        ],
    );
    let home = temp_dir("huge-usage");
    let out = gem_ask(&server, &home)
        .args(["--no-history", "chart it"])
        .succeeds();
    let ev = events(&out.stdout);
    let result = ev.last().unwrap();
    assert_eq!(
        result["stats"],
        json!({"input_tokens": max, "output_tokens": max, "thought_tokens": max,
               "total_tokens": max, "tool_calls": 1, "requests": 2,
               "tools": {"render_visualization": {"calls": 1, "failed": 0, "fallbacks": 0},
                         "plot": {"calls": 0, "failed": 0, "fallbacks": 0}}})
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

/// A gem-ask stuck writing to a stdout nobody reads cannot reach its
/// `result`: the first Ctrl-C only sets the flag, the second one must kill
/// it (the handler is one-shot).
#[test]
fn a_second_sigint_kills_a_stuck_run() {
    use std::io::BufRead;
    use std::os::unix::process::ExitStatusExt;
    let big = "x".repeat(1 << 20);
    let text = json!({"candidates":[{"content":{"role":"model","parts":[{"text": big}]},
                      "finishReason":"STOP"}]});
    let server = FakeGemini::start(
        "second-sigint",
        vec![Reply::sse(&format!("data: {text}\r\n\r\n"))],
    );
    let home = temp_dir("second-sigint");
    let mut child = gem_ask_std(&server, &home)
        .args(["--no-history", "hi"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Once the start of the answer's 1 MiB line is out, gem-ask is inside
    // that write; the pipe is then left unread (but open), so it blocks.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for kind in ["\"init\"", "\"user\""] {
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert!(line.contains(kind), "{line}");
    }
    let mut start = [0u8; 16];
    std::io::Read::read_exact(&mut stdout, &mut start).unwrap();
    // Signals sent close together may merge into one, so keep sending
    // until it is gone; a run that ignores them is killed after 20 s.
    let mut status = None;
    for _ in 0..200 {
        // SAFETY: signalling our own child by its pid.
        unsafe {
            libc::kill(child.id() as i32, libc::SIGINT);
        }
        std::thread::sleep(Duration::from_millis(100));
        if let Some(s) = child.try_wait().unwrap() {
            status = Some(s);
            break;
        }
    }
    let Some(status) = status else {
        child.kill().unwrap();
        child.wait().unwrap();
        panic!("gem-ask survived repeated SIGINTs while stuck writing");
    };
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
    drop(stdout);
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

#[test]
fn replay_warns_when_the_request_differs_from_the_recording() {
    let server = FakeGemini::start("replay-differs", vec![]);
    let home = temp_dir("replay-differs");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/demo/bmw.replay");
    let replay = |args: &[&str]| {
        let out = gem_ask(&server, &home)
            .env_remove("GEMINI_API_KEY")
            .arg("--replay")
            .arg(&demo)
            .args(args)
            .output()
            .unwrap();
        events(&out.stdout)
            .into_iter()
            .filter(|e| e["type"] == "error")
            .map(|e| e["message"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    // The recorded request: no warning.
    assert_eq!(
        replay(&[
            "--no-history",
            "Fastest 3 BMW models, compare 0-60 in a chart"
        ]),
        Vec::<String>::new()
    );
    // Another prompt, model and tool set: answered, but said.
    assert_eq!(
        replay(&[
            "--no-history",
            "--model",
            "foo",
            "--no-tools",
            "something else"
        ]),
        vec![
            "replay: request differs from the recording (other contents; model foo, recorded \
             gemini-2.5-flash; tools none, recorded render_visualization, create_new_topic, plot); \
             answering with the recorded one"
                .to_string();
            2
        ]
    );
    assert!(server.requests().is_empty());
}

#[test]
fn answers_over_16_mib_are_a_stream_error_not_memory() {
    let huge = format!(
        "{{\"candidates\":[{{\"x\":\"{}\"}}]}}",
        "y".repeat(17 << 20)
    );
    let server = FakeGemini::start(
        "huge-answer",
        vec![
            Reply::sse(&format!("data: {huge}\r\n\r\n")),
            Reply::json(200, &huge),
        ],
    );
    let home = temp_dir("huge-answer");
    for expected in [
        "the response stream ended early: a line of the event stream is longer than 16 MiB",
        "the response stream ended early: the JSON answer is longer than 16 MiB",
    ] {
        let out = gem_ask(&server, &home)
            .args(["--no-history", "--retries", "0", "hi"])
            .assert()
            .code(4)
            .get_output()
            .clone();
        let ev = events(&out.stdout);
        assert_eq!(
            ev.last().unwrap()["error"],
            json!({"type": "stream_interrupted", "message": expected})
        );
    }
}
