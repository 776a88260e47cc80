//! Web search and fetch, grounded answers, the models list and token
//! counts, end to end: the real binaries against the fake Gemini server
//! replaying the recorded shapes (fixtures 24 and 37-40), sources drawn as
//! numbered citations in the terminal and in the Markdown report.

use std::process::Stdio;

use serde_json::{Value, json};

use crate::support::ask::{ask_in as ask, run, text_reply};
use crate::support::tools::{Scene, call, calls_reply, declared, responses};
use crate::support::{FakeGemini, Reply, events, fixture, kinds, of_type};

fn grounded_search() -> Reply {
    Reply::sse(&fixture(
        "38-googleSearch-grounded-stream-gemini-2.5-flash.response.sse",
    ))
}

fn render(stream: &str, args: &[&str]) -> String {
    let (code, out, err) = crate::support::filter(
        assert_cmd::cargo::cargo_bin_cmd!("viz-render"),
        args,
        stream,
    );
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn web_search_asks_with_google_search_alone_and_its_sources_are_cited() {
    let scene = Scene::new("web-search");
    let server = FakeGemini::start(
        "web-search",
        vec![
            calls_reply(&[call("web_search", json!({"query": "fastest BMW 0-60"}))]),
            grounded_search(),
            text_reply(
                "The M5 CS is the quickest at 2.9 s [1], then the M8 [2].",
                300,
                20,
            ),
        ],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["--allow-tool", "web_search", "fastest BMW?"],
    ));
    assert_eq!(code, 0, "{err}");
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 3);
    // Declared by default with Gemini; the search is a request of its own.
    assert!(declared(&bodies[0]).contains(&"web_search".to_string()));
    assert!(declared(&bodies[0]).contains(&"web_fetch".to_string()));
    assert_eq!(bodies[1]["tools"], json!([{"googleSearch": {}}]));
    assert_eq!(
        bodies[1]["contents"][0]["parts"][0]["text"],
        "fastest BMW 0-60"
    );
    // The model reads the answer and the numbered sources.
    let fr = &responses(&bodies[2])[0]["response"];
    assert!(
        fr["answer"]
            .as_str()
            .unwrap()
            .starts_with("<untrusted_content source=\"web_search\">\nThe BMW M5 CS reaches 60 mph")
    );
    assert_eq!(fr["sources"][1]["index"], 2);
    assert_eq!(fr["sources"][1]["title"], "motortrend.com");

    let ev = events(&out);
    let order: Vec<&str> = kinds(&ev)
        .into_iter()
        .filter(|k| matches!(*k, "tool_use" | "source" | "tool_result"))
        .collect();
    assert_eq!(order, ["tool_use", "source", "source", "tool_result"]);
    let s = of_type(&ev, "source");
    assert_eq!(s[0]["index"], 1);
    assert_eq!(s[0]["title"], "caranddriver.com");
    assert!(
        s[0]["url"]
            .as_str()
            .unwrap()
            .starts_with("https://vertexaisearch.cloud.google.com/")
    );
    assert_eq!(
        s[1]["text"],
        "The BMW M5 CS reaches 60 mph in 2.9 seconds, the quickest BMW tested. ... \
         The M8 Competition Coupe follows at 3.0 seconds."
    );

    // Drawn under the answer, numbered, in the terminal and the report.
    for (width, ascii) in [("60", true), ("100", false)] {
        let mut args = vec!["--width", width, "--color", "never"];
        if ascii {
            args.push("--ascii");
        }
        let drawn = render(&out, &args);
        assert!(drawn.find("quickest at 2.9 s").unwrap() < drawn.find("Sources").unwrap());
        insta::assert_snapshot!(format!("web_search_sources_{width}"), drawn);
    }
    let report = render(&out, &["--format", "markdown"]);
    assert!(
        report.contains(
            "**Sources**\n\n1. [caranddriver.com](<https://vertexaisearch.cloud.google.com/"
        ),
        "{report}"
    );
    assert!(report.find("quickest at 2.9 s").unwrap() < report.find("**Sources**").unwrap());
}

#[test]
fn a_failed_search_is_a_tool_error_for_the_model_and_a_warning_for_the_user() {
    let scene = Scene::new("web-search-429");
    let server = FakeGemini::start(
        "web-search-429",
        vec![
            calls_reply(&[call("web_search", json!({"query": "bmw"}))]),
            Reply::json(
                429,
                &fixture("14-error-429-resource-exhausted.response.json"),
            ),
            text_reply("I could not search; from memory, the M5 CS.", 300, 20),
        ],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &[
            "--retries",
            "0",
            "--allow-tool",
            "web_search",
            "fastest BMW?",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    let ev = events(&out);
    let r = &of_type(&ev, "tool_result")[0];
    assert_eq!(r["status"], "error");
    assert_eq!(r["error"]["type"], "tool_failed");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("RESOURCE_EXHAUSTED"),
        "{r}"
    );
    let warn = of_type(&ev, "error");
    assert_eq!(warn[0]["severity"], "warning");
    assert!(
        warn[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("web_search: HTTP 429"),
        "{warn:?}"
    );
    let fr = &responses(&server.bodies()[2])[0]["response"];
    assert!(
        fr["error"]
            .as_str()
            .unwrap()
            .starts_with("web_search failed: HTTP 429"),
        "{fr}"
    );
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");
}

#[test]
fn web_fetch_reads_pages_through_url_context_and_names_the_unread_ones() {
    let scene = Scene::new("web-fetch");
    let urls = [
        "https://www.bmwusa.com/vehicles/m-models/m5/sedan/overview.html",
        "https://example.invalid/missing",
    ];
    let server = FakeGemini::start(
        "web-fetch",
        vec![
            calls_reply(&[call(
                "web_fetch",
                json!({"urls": urls, "question": "0-60 of the M5 CS?"}),
            )]),
            Reply::sse(&fixture(
                "39-urlContext-stream-gemini-2.5-flash.response.sse",
            )),
            text_reply("2.9 s [1].", 300, 5),
        ],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["--allow-tool", "web_fetch", "read these"],
    ));
    assert_eq!(code, 0, "{err}");
    let bodies = server.bodies();
    assert_eq!(bodies[1]["tools"], json!([{"urlContext": {}}]));
    let sent = bodies[1]["contents"][0]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        sent.starts_with("0-60 of the M5 CS?") && sent.contains(urls[1]),
        "{sent}"
    );
    let ev = events(&out);
    let warn = of_type(&ev, "error");
    assert!(
        warn[0]["message"]
            .as_str()
            .unwrap()
            .contains("https://example.invalid/missing was not read (URL_RETRIEVAL_STATUS_ERROR)"),
        "{warn:?}"
    );
    assert_eq!(of_type(&ev, "source")[0]["title"], "BMW M5 Sedan");
    let fr = &responses(&bodies[2])[0]["response"];
    assert_eq!(fr["notes"].as_array().unwrap().len(), 1, "{fr}");
}

#[test]
fn a_directly_grounded_answer_has_its_sources_drawn_the_same_way() {
    let scene = Scene::new("web-direct");
    let server = FakeGemini::start("web-direct", vec![grounded_search()]);
    let (code, out, err) = run(&mut ask(&scene, &server, &["fastest BMW?"]));
    assert_eq!(code, 0, "{err}");
    let ev = events(&out);
    let k = kinds(&ev);
    let last_text = k.iter().rposition(|x| *x == "message").unwrap();
    let first_source = k.iter().position(|x| *x == "source").unwrap();
    assert!(last_text < first_source, "{k:?}");
    assert_eq!(of_type(&ev, "source").len(), 2);
    let drawn = render(&out, &["--width", "80", "--ascii", "--color", "never"]);
    assert!(drawn.contains("Sources\n[1] caranddriver.com\n"), "{drawn}");
}

#[test]
fn the_openai_provider_declares_no_web_tools_and_says_why() {
    let scene = Scene::new("web-openai");
    let server = FakeGemini::start_uncaptured(vec![]);
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["--provider", "openai", "-m", "qwen", "--list-tools"],
    ));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\nweb_search "), "{out}");
    assert!(
        out.contains(
            "web_search, web_fetch: not declared: they use Gemini's own googleSearch and \
                      urlContext tools, which --provider openai does not have"
        ),
        "{out}"
    );
    let line = out.lines().find(|l| l.starts_with("web_fetch")).unwrap();
    assert!(line.ends_with("no"), "{line}");
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &[
            "--provider",
            "openai",
            "-m",
            "qwen",
            "--tools",
            "web_search",
            "hi",
        ],
    ));
    assert_eq!(code, 2);
    assert!(err.contains("web_search cannot be declared"), "{err}");
}

#[test]
fn list_models_reads_every_page_with_context_sizes() {
    let scene = Scene::new("list-models");
    let page2 = json!({"models": [{"name": "models/gemini-embedding-001", "displayName": "Gemini Embedding 001",
        "inputTokenLimit": 2048, "supportedGenerationMethods": ["embedContent"]}]});
    let server = FakeGemini::start(
        "list-models",
        vec![
            Reply::json(200, &fixture("24-models-list.response.json")),
            Reply::json(200, &page2.to_string()),
            Reply::json(200, &fixture("24-models-list.response.json")),
            Reply::json(200, &page2.to_string()),
        ],
    );
    let (code, out, err) = run(&mut ask(&scene, &server, &["--list-models"]));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        json!({"id": "gemini-2.5-flash", "display_name": "Gemini 2.5 Flash", "context_tokens": 1048576,
               "output_tokens": 65536, "methods": ["generateContent", "countTokens",
               "createCachedContent", "batchGenerateContent"]})
    );
    let reqs = server.requests();
    assert_eq!(
        reqs[0].request_line,
        "GET /v1beta/models?pageSize=1000 HTTP/1.1"
    );
    assert_eq!(
        reqs[1].request_line,
        "GET /v1beta/models?pageSize=1000&pageToken=SYNTHETIC_PAGE_TOKEN HTTP/1.1"
    );
    assert_eq!(reqs[0].header("x-goog-api-key"), Some(crate::support::KEY));
    let (code, out, _) = run(&mut ask(
        &scene,
        &server,
        &["--list-models", "--output", "text"],
    ));
    assert_eq!(code, 0);
    assert!(out.starts_with("MODEL"), "{out}");
    assert!(
        out.contains("gemini-2.5-pro        1,048,576  65,536  Gemini 2.5 Pro"),
        "{out}"
    );

    let oa = FakeGemini::start_uncaptured(vec![Reply::json(
        200,
        r#"{"object":"list","data":[{"id":"qwen2.5-coder:7b","object":"model","max_model_len":32768},{"id":"llama3","object":"model"}]}"#,
    )]);
    let (code, out, err) = run(ask(&scene, &oa, &["--provider", "openai", "--list-models"])
        .env("OPENAI_BASE_URL", format!("{}/v1", oa.url))
        .env("OPENAI_MODEL", "x"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "{\"id\":\"qwen2.5-coder:7b\",\"context_tokens\":32768}\n{\"id\":\"llama3\"}\n"
    );
    assert_eq!(oa.requests()[0].request_line, "GET /v1/models HTTP/1.1");
}

#[test]
fn count_tokens_counts_the_body_a_turn_would_send() {
    let scene = Scene::new("count-tokens");
    let server = FakeGemini::start(
        "count-tokens",
        vec![Reply::json(200, &fixture("40-countTokens.response.json"))],
    );
    let mut cmd = ask(
        &scene,
        &server,
        &["--count-tokens", "--system", "Be brief.", "chart these"],
    );
    let out = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"model,secs\nM5,2.9\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v,
        json!({"total_tokens": 1187, "model": "gemini-3.5-flash", "history_contents": 0,
               "by_modality": {"TEXT": 1187}})
    );
    let req = &server.requests()[0];
    assert_eq!(
        req.request_line,
        "POST /v1beta/models/gemini-3.5-flash:countTokens HTTP/1.1"
    );
    let inner = &req.json()["generateContentRequest"];
    assert_eq!(inner["model"], "models/gemini-3.5-flash");
    assert_eq!(
        inner["contents"][0]["parts"],
        json!([{"text": "model,secs\nM5,2.9\n"}, {"text": "chart these"}])
    );
    assert!(
        inner["systemInstruction"]["parts"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Be brief.")
    );
    assert!(!declared(inner).is_empty());
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &["--provider", "openai", "-m", "q", "--count-tokens", "x"],
    ));
    assert_eq!(code, 2);
    assert!(
        err.contains("--count-tokens needs --provider gemini"),
        "{err}"
    );
}

/// The web tools take the one consent path (a level from the config
/// makes them ask) and keep secrets home: arguments holding the key are
/// never sent, an answer holding it reaches neither the user nor the
/// model.
#[test]
fn the_web_tools_go_through_consent_and_keep_secrets_home() {
    let scene = Scene::new("web-secrets");
    let key = crate::support::KEY;
    let google = json!([{"googleSearch": {}}]);
    let query = format!("who owns the key {key}");
    let server = FakeGemini::start(
        "web-secret-query",
        vec![
            calls_reply(&[call("web_search", json!({ "query": query }))]),
            text_reply("I will not search for that.", 10, 5),
        ],
    );
    let (code, out, err) = run(&mut ask(&scene, &server, &["search it"]));
    assert_eq!(code, 0, "{err}");
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2, "no search request was made");
    assert!(bodies.iter().all(|b| b["tools"] != google));
    let ev = events(&out);
    let result = &of_type(&ev, "tool_result")[0]["error"];
    assert_eq!(result["type"], "secret_refused", "{out}");
    assert!(!result["message"].as_str().unwrap().contains(key));
    // Only the model's own call, shown as it asked, holds it.
    for e in ev.iter().filter(|e| e["type"] != "tool_use") {
        assert!(!e.to_string().contains(key), "{e}");
    }

    let server = FakeGemini::start(
        "web-secret-answer",
        vec![
            calls_reply(&[call("web_search", json!({"query": "gem-ask key"}))]),
            text_reply(&format!("The page lists {key} as the key."), 10, 5),
            text_reply("Done.", 20, 2),
        ],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["--allow-tool", "web_search", "search it"],
    ));
    assert_eq!(code, 0, "{err}");
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 3);
    assert_eq!(bodies[1]["tools"], google);
    let answer = &responses(&bodies[2])[0]["response"]["answer"];
    assert_eq!(
        answer,
        "<untrusted_content source=\"web_search\">\nThe page lists [REDACTED] as the key.\n</untrusted_content>"
    );
    assert!(!bodies[2].to_string().contains(key));
    assert!(!out.contains(key), "{out}");

    scene.config("[tools.levels]\nweb_fetch = \"standard\"\n");
    let server = FakeGemini::start(
        "web-consent",
        vec![
            calls_reply(&[call(
                "web_fetch",
                json!({"urls": ["https://www.bmw.com/"], "question": "models?"}),
            )]),
            text_reply("I could not read it.", 10, 5),
        ],
    );
    let (code, out, err) = run(&mut ask(&scene, &server, &["read bmw.com"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(server.bodies().len(), 2, "no urlContext request was made");
    let result = of_type(&events(&out), "tool_result")[0].clone();
    assert_eq!(result["consent"], "no_terminal", "{out}");
    assert_eq!(result["error"]["type"], "consent_denied");
}
