//! Answers as data (`--schema`, `--schema-multi`) and what the user adds to
//! the prompts (`--system`, roles, templates, GEMLINE.md context files), end
//! to end: the real binaries against the fake Gemini server, the records
//! through real pipes into viz-parse and viz-render.

use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::ask::{ask_in as ask, run, text_reply};
use crate::support::tools::Scene;
use crate::support::{FakeGemini, Reply, events, fixture, kinds, of_type};

const BMW_SCHEMA: &str = "model, zero_to_sixty float: seconds from 0 to 60 mph";

/// The recorded-shape JSON-schema answer (fixture 37).
fn schema_answer() -> Reply {
    Reply::sse(&fixture(
        "37-json-schema-answer-stream-gemini-2.5-flash.response.sse",
    ))
}

#[test]
fn a_list_of_records_is_plain_json_lines_and_charts_end_to_end() {
    let scene = Scene::new("schema-pipeline");
    let server = FakeGemini::start("schema-pipeline", vec![schema_answer(), schema_answer()]);
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["--schema-multi", BMW_SCHEMA, "fastest 5 BMWs"],
    ));
    assert_eq!(code, 0, "{err}");
    // What `| jq` reads: one record a line, nothing else.
    let records: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 5, "{out}");
    assert_eq!(records[0], json!({"model": "M5 CS", "zero_to_sixty": 2.9}));
    let body = &server.bodies()[0];
    assert_eq!(
        body["generationConfig"]["responseMimeType"],
        "application/json"
    );
    let sent = &body["generationConfig"]["responseJsonSchema"];
    assert_eq!(sent["required"], json!(["items"]));
    assert_eq!(
        sent["properties"]["items"]["items"]["properties"]["zero_to_sixty"],
        json!({"type": "number", "description": "seconds from 0 to 60 mph"})
    );
    // No tools unless named: JSON mode and function calling do not mix on 2.5.
    assert!(body.get("tools").is_none(), "{body}");

    // The pipeline of the issue, through real pipes.
    let mut gem = ask(
        &scene,
        &server,
        &["--schema-multi", BMW_SCHEMA, "fastest 5 BMWs"],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut parse = Command::new(assert_cmd::cargo::cargo_bin!("viz-parse"))
        .args(["--chart", "bar"])
        .stdin(gem.stdout.take().unwrap())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let render = Command::new(assert_cmd::cargo::cargo_bin!("viz-render"))
        .args(["--width", "60", "--ascii", "--color", "never"])
        .env_remove("GITHUB_ACTIONS")
        .env_remove("GITLAB_CI")
        .stdin(parse.stdout.take().unwrap())
        .output()
        .unwrap();
    assert!(gem.wait().unwrap().success());
    assert!(parse.wait().unwrap().success());
    let drawn = String::from_utf8(render.stdout).unwrap();
    insta::assert_snapshot!("schema_multi_bar_chart_ascii_60", drawn);
    assert!(drawn.contains("M5 CS") && drawn.contains("2.9"), "{drawn}");
}

#[test]
fn the_event_stream_carries_record_events_that_viz_parse_charts() {
    let scene = Scene::new("schema-events");
    let server = FakeGemini::start("schema-events", vec![schema_answer()]);
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &[
            "--output",
            "jsonl",
            "--schema-multi",
            BMW_SCHEMA,
            "fastest 5 BMWs",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    let ev = events(&out);
    assert_eq!(
        kinds(&ev),
        [
            "init", "message", "record", "record", "record", "record", "record", "result"
        ]
    );
    assert_eq!(ev[2]["record"]["model"], "M5 CS");
    // The answer's JSON text is data, not prose: no assistant message.
    assert!(of_type(&ev, "message").iter().all(|m| m["role"] == "user"));
    let (code, charted, err) = crate::support::filter(
        assert_cmd::cargo::cargo_bin_cmd!("viz-parse"),
        &["--chart", "bar"],
        &out,
    );
    assert_eq!(code, 0, "{err}");
    let ev = events(&charted);
    assert_eq!(kinds(&ev), ["init", "message", "visualization", "result"]);
    let points = ev[2]["series"][0]["points"].as_array().unwrap();
    assert_eq!(points.len(), 5);
    assert_eq!(points[0], json!({"label": "M5 CS", "value": 2.9}));
    // viz-render draws a run of records as a table, at every width.
    for (width, ascii) in [("60", true), ("100", false)] {
        let mut args = vec!["--width", width, "--color", "never"];
        if ascii {
            args.push("--ascii");
        }
        let (code, drawn, _) =
            crate::support::filter(assert_cmd::cargo::cargo_bin_cmd!("viz-render"), &args, &out);
        assert_eq!(code, 0);
        insta::assert_snapshot!(format!("records_table_{width}"), drawn);
    }
}

#[test]
fn an_answer_that_does_not_match_is_asked_once_more_then_refused() {
    let scene = Scene::new("schema-retry");
    let server = FakeGemini::start(
        "schema-retry",
        vec![
            text_reply("Here are the cars: M5 CS, M8.", 10, 9),
            text_reply(
                r#"{"items":[{"model":"M5 CS","zero_to_sixty":"fast"}]}"#,
                30,
                12,
            ),
        ],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["--schema-multi", BMW_SCHEMA, "fastest BMWs"],
    ));
    assert_eq!(code, 65, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("does not match the schema (1 problem); asking once more"),
        "{err}"
    );
    assert!(
        err.contains("at /items/0/zero_to_sixty: \"fast\" is not of type \"number\""),
        "{err}"
    );
    assert!(
        err.contains(r#"{"items":[{"model":"M5 CS","zero_to_sixty":"fast"}]}"#),
        "{err}"
    );
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    // The retry shows the model its answer and the problems, constrained.
    let contents = bodies[1]["contents"].as_array().unwrap();
    assert_eq!(contents.len(), 3);
    assert_eq!(
        contents[1]["parts"][0]["text"],
        "Here are the cars: M5 CS, M8."
    );
    let ask_again = contents[2]["parts"][0]["text"].as_str().unwrap();
    assert!(ask_again.contains("the answer is not JSON"), "{ask_again}");
    assert!(bodies[1]["generationConfig"]["responseJsonSchema"].is_object());
    assert!(bodies[1].get("tools").is_none());

    // A retry that matches is a success with its records.
    let server = FakeGemini::start(
        "schema-retry-ok",
        vec![text_reply("nope", 10, 1), schema_answer()],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &["--schema-multi", BMW_SCHEMA, "fastest BMWs"],
    ));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 5);
}

#[test]
fn with_tools_named_the_schema_rides_in_the_system_prompt() {
    let scene = Scene::new("schema-tools");
    let server = FakeGemini::start(
        "schema-tools",
        vec![text_reply(
            "```json\n{\"model\": \"M5 CS\", \"zero_to_sixty\": 2.9}\n```",
            10,
            9,
        )],
    );
    let (code, out, err) = run(&mut ask(
        &scene,
        &server,
        &[
            "--tools",
            "read_file",
            "--schema",
            BMW_SCHEMA,
            "the fastest BMW",
        ],
    ));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "{\"model\":\"M5 CS\",\"zero_to_sixty\":2.9}\n");
    let body = &server.bodies()[0];
    assert!(body.get("generationConfig").is_none(), "{body}");
    let system = body["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    assert!(system.contains("must be only JSON"), "{system}");
}

#[test]
fn a_bad_schema_is_a_usage_error_with_its_position_and_an_example() {
    let scene = Scene::new("schema-bad");
    let server = FakeGemini::start("schema-bad", vec![]);
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &["--schema", "model, year integer", "x"],
    ));
    assert_eq!(code, 2);
    assert!(err.contains("unknown type \"integer\""), "{err}");
    assert!(
        err.contains("(at column 13)") && err.contains("\n              ^"),
        "{err}"
    );
    assert!(err.contains("the concise form, e.g."), "{err}");
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &[
            "--schema-multi",
            r#"{"type": "object", "properties": {"a": {"type": 5}}}"#,
            "x",
        ],
    ));
    assert_eq!(code, 2);
    assert!(
        err.contains("not a valid JSON Schema at /properties/a/type"),
        "{err}"
    );
    let (code, _, err) = run(&mut ask(
        &scene,
        &server,
        &["--schema", "@missing.json", "x"],
    ));
    assert_eq!(code, 66, "{err}");
    assert!(server.requests().is_empty());
}

/// A config with roles, GEMLINE.md files around the working directory,
/// and the working directory two levels inside a repository.
fn prompt_scene(name: &str) -> (Scene, std::path::PathBuf) {
    let scene = Scene::new(name);
    scene.config(
        "[roles.cars]\nsystem = \"You are a $brand expert.\"\nprompt = \"About $brand: $input\"\n\
         model = \"gemini-2.5-pro\"\ntemperature = 0.3\ndefaults = { brand = \"BMW\" }\n",
    );
    std::fs::write(scene.home.join("gemline/GEMLINE.md"), "GLOBAL context").unwrap();
    let repo = scene.work.join("repo");
    let sub = repo.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(scene.work.join("GEMLINE.md"), "OUTSIDE the repo").unwrap();
    std::fs::write(repo.join("GEMLINE.md"), "REPO context").unwrap();
    std::fs::write(sub.join("GEMLINE.md"), "DEEP context").unwrap();
    (scene, sub)
}

#[test]
fn roles_templates_and_context_files_reach_the_request_in_order() {
    let (scene, sub) = prompt_scene("prompt-order");
    let server = FakeGemini::start("prompt-order", vec![text_reply("ok", 5, 1)]);
    let (code, _, err) = run(ask(
        &scene,
        &server,
        &[
            "--role",
            "cars",
            "-p",
            "brand=Audi",
            "--system",
            "Be brief.",
            "fastest?",
        ],
    )
    .current_dir(&sub));
    assert_eq!(code, 0, "{err}");
    let req = &server.requests()[0];
    assert!(
        req.request_line.contains("/models/gemini-2.5-pro:"),
        "{}",
        req.request_line
    );
    let body = req.json();
    assert_eq!(body["generationConfig"]["temperature"], 0.3);
    assert_eq!(
        body["contents"][0]["parts"][0]["text"],
        "About Audi: fastest?"
    );
    let system = body["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap();
    let at = |s: &str| system.find(s).unwrap_or_else(|| panic!("{s} in {system}"));
    // gem-ask's own guidance first, then the user's in order.
    assert!(at("render_visualization") < at("You are a Audi expert."));
    assert!(at("You are a Audi expert.") < at("Be brief."));
    assert!(at("Be brief.") < at("GLOBAL context"));
    assert!(at("GLOBAL context") < at("REPO context") && at("REPO context") < at("DEEP context"));
    assert!(!system.contains("OUTSIDE the repo"), "{system}");

    // --print-config shows the same, as TOML with sources.
    let (code, out, err) =
        run(ask(&scene, &server, &["--role", "cars", "--print-config"]).current_dir(&sub));
    assert_eq!(code, 0, "{err}");
    let parsed: toml::Table = out.parse().unwrap_or_else(|e| panic!("{e}\n{out}"));
    assert_eq!(parsed["model"].as_str(), Some("gemini-2.5-pro"));
    assert!(
        out.contains("model = \"gemini-2.5-pro\"") && out.contains("# --role"),
        "{out}"
    );
    let p = &parsed["prompt"];
    assert_eq!(p["role"].as_str(), Some("cars"));
    assert_eq!(p["temperature"].as_float(), Some(0.3));
    let files: Vec<&str> = p["context_files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 3, "{out}");
    assert!(files[0].ends_with("gemline/GEMLINE.md"));
    assert!(files[1].ends_with("repo/GEMLINE.md") && files[2].ends_with("deep/GEMLINE.md"));
    assert_eq!(p["variables"]["brand"].as_str(), Some("BMW"));
    assert_eq!(p["system"].as_str(), Some("You are a BMW expert."));

    let (_, out, _) =
        run(ask(&scene, &server, &["--no-context-files", "--print-config"]).current_dir(&sub));
    let parsed: toml::Table = out.parse().unwrap();
    assert!(
        parsed["prompt"]["context_files"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_missing_role_or_variable_is_named() {
    let (scene, _) = prompt_scene("prompt-missing");
    let server = FakeGemini::start("prompt-missing", vec![]);
    let (code, _, err) = run(&mut ask(&scene, &server, &["--role", "boats", "x"]));
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown role \"boats\": the config's roles are cars"),
        "{err}"
    );
    let (code, _, err) = run(&mut ask(&scene, &server, &["-p", "a=1", "$a and $b"]));
    assert_eq!(code, 2);
    assert!(
        err.contains("template variable $b has no value (in the prompt): give -p b=VALUE"),
        "{err}"
    );
    assert!(server.requests().is_empty());
}
