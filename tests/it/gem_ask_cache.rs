//! Cache-friendly requests: within a session every request's
//! systemInstruction and tools are the same bytes, and each request's
//! contents begin with the bytes of the previous request's, so the API's
//! implicit cache can serve that prefix (the memories and the active
//! chapter ride in the user's turn, after the history). `result.stats`
//! counts the cached input tokens (`cachedContentTokenCount`) and
//! `--verbose` says their share.

use serde_json::{Value, json};

use crate::gem_ask_memory_turns::scene_with_corpus;
use crate::support::ask::{bmw_bar, turn_context};
use crate::support::embed::{Api, FakeEmbedder};
use crate::support::tools::{finish, succeeded};
use crate::support::{FakeGemini, Reply, of_type};

/// One streamed answer of `parts`, with its usage: `prompt` input tokens,
/// `cached` of them from the cache (absent when 0, as the API leaves it).
fn answer(parts: Value, prompt: u64, cached: u64) -> Reply {
    let mut usage = json!({"promptTokenCount": prompt, "candidatesTokenCount": 5,
                           "totalTokenCount": prompt + 5});
    if cached > 0 {
        usage["cachedContentTokenCount"] = cached.into();
    }
    Reply::sse(&format!(
        "data: {}\r\n\r\n",
        json!({"candidates": [{"content": {"role": "model", "parts": parts},
                               "finishReason": "STOP", "index": 0}],
               "usageMetadata": usage, "modelVersion": "gemini-3.5-flash"})
    ))
}

/// A turn: a chart call (its thought signature as Gemini 3 sends it), then
/// the text after it.
fn turn(n: u64, cached: u64) -> [Reply; 2] {
    let bar = bmw_bar();
    // Base64, as the API's signatures are: SIG1, SIG2, SIG3.
    let sig = ["U0lHMQ==", "U0lHMg==", "U0lHMw=="][n as usize - 1];
    let call = json!([{"functionCall": {"name": bar["name"], "args": bar["args"], "id": format!("c{n}")},
                       "thoughtSignature": sig}]);
    [
        answer(call, 1000 * n, cached),
        answer(
            json!([{"text": format!("Answer {n}.")}]),
            1000 * n + 200,
            cached + 800,
        ),
    ]
}

/// The body's bytes through its contents' last element (no closing `]`):
/// what the next request must begin with. The body's keys are in order,
/// `contents` first.
fn contents_prefix(raw: &str, body: &Value) -> String {
    let contents = serde_json::to_string(&body["contents"]).unwrap();
    let head = format!("{{\"contents\":{}", &contents[..contents.len() - 1]);
    assert!(raw.starts_with(&head), "the body opens with its contents");
    head
}

/// The bytes from `systemInstruction` to the end: the system instruction
/// and the tools (the keys after `contents` and `generationConfig`).
fn system_and_tools(raw: &str) -> &str {
    let at = raw
        .rfind(",\"systemInstruction\":")
        .expect("a system instruction");
    assert!(raw[at..].contains(",\"tools\":"), "tools after it");
    &raw[at..]
}

#[test]
fn three_turns_with_tool_rounds_and_memories_keep_one_prefix() {
    let e = FakeEmbedder::start("cache-prefix", Api::Gemini, 32);
    let scene = scene_with_corpus("cache-prefix", &e);
    let replies: Vec<Reply> = [turn(1, 0), turn(2, 1100), turn(3, 2300)]
        .into_iter()
        .flatten()
        .collect();
    let server = FakeGemini::start("cache-prefix", replies);
    let questions = [
        "which rack holds the deploy host",
        "and which port does the database listen on",
        "who signs off a release",
    ];
    let mut results = Vec::new();
    let mut stderrs = Vec::new();
    for q in questions {
        let out = finish(scene.spawn(
            &server,
            None,
            &["--memory", "--verbose", "--session", "cache-one", q],
        ));
        let ev = succeeded(&out);
        assert_eq!(of_type(&ev, "memory").len(), 1, "each turn recalls");
        results.push(ev.last().unwrap().clone());
        stderrs.push(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 6);
    let raws: Vec<String> = requests
        .iter()
        .map(|r| String::from_utf8(r.body.clone()).unwrap())
        .collect();
    let bodies: Vec<Value> = requests.iter().map(|r| r.json()).collect();
    for (i, raw) in raws.iter().enumerate() {
        // The same system instruction and tools, byte for byte.
        assert!(
            system_and_tools(raw) == system_and_tools(&raws[0]),
            "request {i}: its system instruction or tools are not those of request 0"
        );
        let system = bodies[i]["systemInstruction"].to_string();
        assert!(!system.contains("Memories saved"), "{system}");
        if i > 0 {
            // The contents extend the previous request's, byte for byte.
            let before = contents_prefix(&raws[i - 1], &bodies[i - 1]);
            assert!(
                raw.starts_with(&before),
                "request {i} does not extend request {}",
                i - 1
            );
            let n = bodies[i - 1]["contents"].as_array().unwrap().len();
            assert!(bodies[i]["contents"].as_array().unwrap().len() > n);
        }
    }
    // Each turn's memories open its own user turn, after the history.
    for i in [0, 2, 4] {
        let context = turn_context(&bodies[i]);
        assert!(
            context.contains("Memories saved in earlier sessions"),
            "{context}"
        );
        let last = bodies[i]["contents"].as_array().unwrap().last().unwrap();
        assert_eq!(last["parts"][1]["text"], questions[i / 2]);
    }
    // The cached tokens are counted, and --verbose says their share.
    let cached: Vec<&Value> = results
        .iter()
        .map(|r| &r["stats"]["cached_input_tokens"])
        .collect();
    assert_eq!(
        cached,
        [&json!(800), &json!(1100 + 1900), &json!(2300 + 3100)]
    );
    assert!(
        stderrs[2].contains("gem-ask: input 6200 tokens, 5400 of them cached (87%)"),
        "{}",
        stderrs[2]
    );
}
