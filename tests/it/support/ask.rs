//! Helpers of the gem_ask_* tests: gem-ask against a fake server, its
//! events with the volatile fields removed, and the BMW scenario's replies.

use std::path::Path;

use serde_json::{Value, json};

use super::{FakeGemini, Reply, fixture};

pub fn gem_ask(server: &FakeGemini, data_home: &Path) -> assert_cmd::Command {
    super::gem_ask_cmd(server, data_home)
}

/// Events from stdout with the volatile fields (times, ids) removed.
pub fn stable_events(stdout: &[u8]) -> Vec<Value> {
    super::events(stdout)
        .into_iter()
        .map(|mut v| {
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

pub fn assistant_text(ev: &[Value]) -> String {
    ev.iter()
        .filter(|e| e["type"] == "message" && e["role"] == "assistant")
        .map(|e| e["content"].as_str().unwrap())
        .collect()
}

pub fn session_id(stdout: &[u8]) -> String {
    let first: Value =
        serde_json::from_str(String::from_utf8_lossy(stdout).lines().next().unwrap()).unwrap();
    first["session_id"].as_str().unwrap().to_string()
}

/// Replaces the functionCalls of an SSE fixture, in order, keeping every
/// other byte of the recording (ids, signatures, usage).
pub fn with_calls(sse: &str, calls: &[Value]) -> String {
    let mut i = 0;
    super::split_events(sse)
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

/// The recorded single-functionCall answer (fixture 04, gemini-2.5-flash)
/// with its call replaced by `call`, as SSE.
pub fn single_call_with(call: Value) -> String {
    let recorded: Value = serde_json::from_str(&fixture(
        "04-functionCall-single-generateContent-gemini-2.5-flash.response.json",
    ))
    .unwrap();
    with_calls(&format!("data: {recorded}\r\n\r\n"), &[call])
}

pub fn bmw_bar() -> Value {
    json!({"name":"render_visualization","args":{"chartType":"bar","title":"BMW 0-60 mph","unit":"s","sort":"asc",
      "series":[{"name":"0-60 mph","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition","value":3.0},
      {"label":"M3 Competition xDrive","value":3.4}]}]}})
}

pub fn bmw_line() -> Value {
    json!({"name":"render_visualization","args":{"chartType":"line","title":"BMW models per year","xLabel":"Year",
      "yLabel":"Models","series":[{"name":"Models","points":[{"label":"2020","value":38},{"label":"2021","value":40},
      {"label":"2022","value":41},{"label":"2023","value":44},{"label":"2024","value":46}]}]}})
}

/// The BMW scenario's four answers (Gemini 3.1 shapes, signatures kept):
/// a bar chart call, its text, a line chart call, its text.
pub fn bmw_server(name: &str) -> FakeGemini {
    let call_1 = with_calls(
        &fixture("11-parallel-functionCall-stream-gemini-3.1-pro-preview.response.sse"),
        &[bmw_bar(), bmw_bar(), bmw_bar()],
    );
    // One call only: keep the first event and the closing one.
    let ev1 = super::split_events(&call_1);
    let turn1_call = format!("{}{}", ev1[0], ev1[3]);
    let call_2 = with_calls(
        &fixture("26-second-turn-history-gemini-3.1-pro-preview.response.sse"),
        &[bmw_line(), bmw_line(), bmw_line()],
    );
    let ev2 = super::split_events(&call_2);
    let turn2_call = format!("{}{}", ev2[0], ev2[3]);
    FakeGemini::start(
        name,
        vec![
            Reply::sse(&turn1_call),
            text_reply("The M5 CS is the quickest at 2.9 s.", 500, 20),
            Reply::sse(&turn2_call),
            text_reply("BMW's lineup grew from 38 to 46 models.", 500, 20),
        ],
    )
}

/// gem-ask's environment for a `std::process::Command` (real pipes).
pub fn gem_ask_std(server: &FakeGemini, data_home: &Path) -> std::process::Command {
    super::gem_ask_std_cmd(server, data_home)
}

/// `gem-ask ARGS | viz-render --width 60 --ascii --color never`, both
/// binaries joined by a real pipe; returns what viz-render drew.
pub fn pipe_into_viz_render(server: &FakeGemini, home: &Path, args: &[&str]) -> String {
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

/// A one-event text answer in the recorded SSE shape, with these token
/// counts in its usageMetadata.
pub fn text_reply(text: &str, prompt: u64, candidates: u64) -> Reply {
    Reply::sse(&format!(
        "data: {}\r\n\r\n",
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":text}]},"finishReason":"STOP","index":0}],
               "usageMetadata":{"promptTokenCount":prompt,"candidatesTokenCount":candidates,
                                "totalTokenCount":prompt + candidates}})
    ))
}

/// A multimodal fixture (testdata/gemini/multimodal), as text.
pub fn mm(name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/gemini/multimodal")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A multimodal fixture, as JSON.
pub fn mm_json(name: &str) -> Value {
    serde_json::from_str(&mm(name)).unwrap()
}

pub fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub fn unb64(s: &str) -> Vec<u8> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(s).unwrap()
}

/// gem-ask in a scene's working directory with a clean environment (a
/// UTF-8 locale, the scene's XDG homes, the key, the fake server); its
/// output is whatever `--output` and the pipe make it.
pub fn ask_in(
    scene: &super::tools::Scene,
    server: &FakeGemini,
    args: &[&str],
) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("gem-ask"));
    cmd.env_clear()
        .env("GEMINI_API_KEY", super::KEY)
        .env("GEMINI_BASE_URL", &server.url)
        .env("XDG_DATA_HOME", &scene.home)
        .env("XDG_CONFIG_HOME", &scene.home)
        .env("GEMLINE_RETRY_BASE_MS", "1")
        .env("LANG", "C.UTF-8")
        .current_dir(&scene.work)
        .args(args)
        .stdin(std::process::Stdio::null());
    cmd
}

/// Runs a command: its exit code, stdout and stderr.
pub fn run(cmd: &mut std::process::Command) -> (i32, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// What gem-ask put before the user's words in a request's last user turn
/// (the memories recalled, the active chapter), or "" when nothing.
pub fn turn_context(body: &Value) -> String {
    body["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .rev()
        .find(|c| c["role"] == "user" && c["parts"][0].get("text").is_some())
        .and_then(|c| c["parts"][0]["text"].as_str())
        .filter(|t| t.starts_with(gemline::agent::turn::TURN_CONTEXT))
        .unwrap_or_default()
        .to_string()
}
