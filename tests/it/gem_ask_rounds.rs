//! gem-ask's tool rounds against the fake Gemini server replaying recorded
//! function calls: signatures and ids echoed, parallel calls, the history
//! of a second turn, tool selection, round limits and topics.

use crate::support::ask::*;
use crate::support::{FakeGemini, Reply, Succeeds, fixture, kinds, temp_dir};
use serde_json::{Value, json};

#[test]
fn single_call_2_5_echoes_the_signature_and_sends_no_id() {
    let call = Reply::sse(&single_call_with(bmw_bar()));
    let text = Reply::sse_from_json(&fixture(
        "05-functionResponse-roundtrip-generateContent-gemini-2.5-flash.response.json",
    ));
    let server = FakeGemini::start("single-call", vec![call, text]);
    let home = temp_dir("single-call");
    let out = gem_ask(&server, &home)
        .arg("Fastest 3 BMW models, compare 0-60 in a chart")
        .succeeds();
    let ev = stable_events(&out.stdout);
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
        json!({"name":"render_visualization","args":{"chartType":"table","series":[{"name":"a","points":[{"label":"x","value":1}]},{"name":"b","points":[{"label":"x","value":2}]}]}}),
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
    let ev = stable_events(&out.stdout);
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
        ev[6]["error"]["message"].as_str().unwrap().contains(
            "use chartType \"bar\", \"line\", \"heatmap\" or \"spark\" for several series"
        )
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
    let ev = stable_events(&out.stdout);
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
    assert_eq!(
        decl_names(&b[2]),
        [
            "render_visualization",
            "plot",
            "signal",
            "web_search",
            "web_fetch"
        ]
    );
    let out = gem_ask(&server, &home)
        .args(["--tools", "web_browse", "hi"])
        .assert()
        .code(2)
        .get_output()
        .clone();
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown tool \"web_browse\""));
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
    let ev = stable_events(&out.stdout);
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
    let ev = stable_events(&out.stdout);
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
    // The new chapter is in the call's answer; the system instruction
    // stays the same (the cached prefix).
    assert!(!sys(&b[0]).contains("[Active Topic:"));
    assert_eq!(sys(&b[1]), sys(&b[0]));
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
    let next = &server.bodies()[2];
    assert!(turn_context(next).contains("[Active Topic: Charting BMW data]"));
    assert_eq!(sys(next), sys(&b[0]));
    let stored =
        std::fs::read_to_string(home.join(format!("gemline/sessions/{id}.jsonl"))).unwrap();
    assert!(stored.lines().any(|l| l.starts_with(r#"{"record":"topic","title":"Charting BMW data","timestamp":"#)));
}

#[test]
fn huge_token_counts_saturate_instead_of_overflowing() {
    let max = u64::MAX;
    let usage = json!({"promptTokenCount": max, "candidatesTokenCount": max,
                       "thoughtsTokenCount": max, "totalTokenCount": max,
                       "cachedContentTokenCount": max});
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
    let ev = stable_events(&out.stdout);
    let result = ev.last().unwrap();
    // The cost of saturated counts is a huge but finite number.
    let mut stats = result["stats"].clone();
    let cost = stats.as_object_mut().unwrap().remove("cost_usd");
    assert!(
        cost.and_then(|c| c.as_f64()).is_some_and(f64::is_finite),
        "{result}"
    );
    assert_eq!(
        stats,
        json!({"input_tokens": max, "output_tokens": max, "thought_tokens": max,
               "cached_input_tokens": max, "total_tokens": max, "tool_calls": 1, "requests": 2,
               "tools": {"render_visualization": {"calls": 1, "failed": 0, "fallbacks": 0},
                         "plot": {"calls": 0, "failed": 0, "fallbacks": 0}}})
    );
}
