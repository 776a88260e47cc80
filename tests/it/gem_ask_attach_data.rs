//! Attachments (`-a`) with the runs of issue 25: an answer given as data
//! (`--schema-multi`) about an attached picture, its one retry sending the
//! picture again, and `--count-tokens` counting the attachment as the turn
//! would send it. The real binary against the fake Gemini server.

use serde_json::{Value, json};

use crate::gem_ask_attach::png_file;
use crate::support::ask::{ask_in as ask, b64, run, text_reply};
use crate::support::tools::Scene;
use crate::support::{FakeGemini, Reply, events, fixture};

/// The inline files of a request body's `contents[i]`.
fn inline(body: &Value, i: usize) -> Vec<Value> {
    body["contents"][i]["parts"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p.get("inlineData").cloned())
        .collect()
}

#[test]
fn a_schema_answer_about_an_attachment_sends_it_with_the_constraint_and_again_on_retry() {
    let scene = Scene::new("schema-attach");
    let png = png_file(6, 4);
    std::fs::write(scene.work.join("cars.png"), &png).unwrap();
    let server = FakeGemini::start(
        "schema-attach",
        vec![
            text_reply("A photo of two BMWs.", 300, 6),
            Reply::sse(&fixture(
                "37-json-schema-answer-stream-gemini-2.5-flash.response.sse",
            )),
        ],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &[
            "-a",
            "cars.png",
            "--schema-multi",
            "model, zero_to_sixty float",
            "the cars in the picture",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    // Plain JSON lines, one record each.
    let records = events(&out);
    assert_eq!(records.len(), 5, "{out}");
    assert_eq!(records[0], json!({"model": "M5 CS", "zero_to_sixty": 2.9}));
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    let sent = json!([{"mimeType": "image/png", "data": b64(&png)}]);
    for body in &bodies {
        // The picture (inline, whole), the schema as the constraint, no tools.
        assert_eq!(inline(body, 0), sent.as_array().unwrap().clone(), "{body}");
        assert!(body["generationConfig"]["responseJsonSchema"].is_object());
        assert!(body.get("tools").is_none(), "{body}");
        assert!(!body.to_string().contains("\"attachment\""), "{body}");
    }
    assert_eq!(
        bodies[0]["contents"][0]["parts"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()["text"],
        "the cars in the picture"
    );
    // The retry: the first answer and the problems after the picture.
    assert_eq!(bodies[1]["contents"].as_array().unwrap().len(), 3);
}

#[test]
fn count_tokens_counts_an_attachment_as_the_turn_would_send_it() {
    let scene = Scene::new("count-attach");
    let png = png_file(5, 5);
    std::fs::write(scene.work.join("chart.png"), &png).unwrap();
    let server = FakeGemini::start(
        "count-attach",
        vec![Reply::json(200, &fixture("40-countTokens.response.json"))],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["-a", "chart.png", "--count-tokens", "what does it show?"],
    ));
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["total_tokens"], 1187);
    let req = &server.requests()[0];
    assert!(
        req.request_line.contains(":countTokens"),
        "{}",
        req.request_line
    );
    let inner = &req.json()["generateContentRequest"];
    assert_eq!(
        inline(inner, 0),
        [json!({"mimeType": "image/png", "data": b64(&png)})]
    );
    let parts = inner["contents"][0]["parts"].as_array().unwrap();
    assert_eq!(parts.last().unwrap()["text"], "what does it show?");
    assert!(!inner.to_string().contains("\"attachment\""), "{inner}");
    // A count keeps nothing: no copy in the attachment store.
    assert!(!scene.home.join("gemline/attachments").exists());

    // An attachment alone is something to count.
    let server = FakeGemini::start(
        "count-attach-alone",
        vec![Reply::json(200, &fixture("40-countTokens.response.json"))],
    );
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &["-a", "chart.png", "--count-tokens"],
    ));
    assert_eq!(code, 0, "{err}");
    let inner = &server.requests()[0].json()["generateContentRequest"];
    assert_eq!(inline(inner, 0).len(), 1);
}
