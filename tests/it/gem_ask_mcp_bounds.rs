//! MCP declarations within bounds, with a scripted server
//! (testdata/mcp/scripted_server.py: 504 tools with `$ref`, `oneOf`,
//! type lists, `const`, `pattern`, a 2 MB description; or one tool whose
//! answer is 17 MiB) and a real one (server-everything): the tools a
//! config chooses, schemas normalised, descriptions cut, at most 128
//! declared with the rest named, an answer over the MCP limit reported as
//! too large rather than as a timeout.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::tools::{
    EVERYTHING, Scene, answer_reply, call, calls_reply, finish, mcp_server, python, responses,
    succeeded,
};
use crate::support::{FakeGemini, of_type};

/// The scripted server's command line in `mode`, or `None` (with a note)
/// when there is no Python to run it.
fn scripted(mode: &str) -> Option<Vec<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = python("the scripted MCP server")?;
    let script = root.join("testdata/mcp/scripted_server.py");
    Some(vec![python, script.display().to_string(), mode.to_string()])
}

fn mcp_line(name: &str, argv: &[String]) -> String {
    let quoted: Vec<String> = argv
        .iter()
        .map(|a| shlex::try_quote(a).unwrap().into_owned())
        .collect();
    format!("{name}={}", quoted.join(" "))
}

fn declarations(body: &Value) -> Vec<Value> {
    body["tools"][0]["functionDeclarations"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[test]
fn five_hundred_tools_are_cut_to_128_normalised_and_named() {
    let Some(argv) = scripted("many") else {
        return;
    };
    let scene = Scene::new("mcp-many");
    let server = FakeGemini::start("mcp-many", vec![answer_reply()]);
    let out = finish(scene.spawn(&server, None, &["--mcp", &mcp_line("big", &argv), "hi"]));
    let ev = succeeded(&out);
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let body = &server.bodies()[0];
    let decls = declarations(body);
    assert_eq!(decls.len(), 128, "{stderr}");
    let names: Vec<&str> = decls.iter().map(|d| d["name"].as_str().unwrap()).collect();
    // gem-ask's own tools first (the web tools with Gemini), then the server's.
    assert_eq!(&names[..6], crate::support::tools::DEFAULT_TOOLS);
    assert_eq!(names[6], "big__tool_0");
    assert_eq!(names[127], "big__tool_121");
    // What the API does not take is gone; what it does is kept.
    let text = body.to_string();
    for gone in [
        "$ref",
        "$defs",
        "oneOf",
        "\"pattern\"",
        "\"const\"",
        "\"default\"",
        "$schema",
    ] {
        assert!(!text.contains(gone), "{gone} still sent");
    }
    assert!(text.len() < 300_000, "{} bytes sent", text.len());
    let p = &decls[7]["parametersJsonSchema"];
    assert_eq!(
        p["properties"]["zone"],
        json!({"type": "string", "description": "zone of call 1"})
    );
    assert_eq!(
        p["properties"]["when"]["anyOf"],
        json!([{"type": "string"}, {"type": "null"}])
    );
    assert_eq!(
        p["properties"]["mode"]["anyOf"],
        json!([{"enum": ["fast"]}, {"enum": ["slow"]}])
    );
    assert_eq!(
        p["properties"]["tree"]["properties"]["child"]["type"],
        "object"
    );
    assert_eq!(p["additionalProperties"], false);
    let first = decls[6]["description"].as_str().unwrap();
    assert!(
        first.len() < 2100 && first.ends_with("more bytes]"),
        "{}",
        first.len()
    );
    for w in [
        "gem-ask: warning: 382 tools are not declared (at most 128 tools",
        "big__tool_122, big__tool_123,",
        "and 370 more; choose with --tools, --exclude-tools or include_tools/exclude_tools",
        "MCP server big: descriptions over 2048 bytes were cut: tool_0",
        "MCP server big: schema keywords the APIs do not take were dropped: default (504 tools), pattern (504 tools)",
    ] {
        assert!(stderr.contains(w), "{w} in\n{stderr}");
    }
    let list = finish(scene.spawn(
        &server,
        None,
        &["--list-tools", "--mcp", &mcp_line("big", &argv)],
    ));
    let listing = String::from_utf8_lossy(&list.stdout);
    assert!(
        listing.contains("\nbig         running, 504 tools"),
        "{listing}"
    );
    assert!(
        listing.contains("big__tool_503         mcp:big   standard  no"),
        "{listing}"
    );
}

#[test]
fn the_config_chooses_a_servers_tools() {
    let Some(argv) = scripted("many") else {
        return;
    };
    let scene = Scene::new("mcp-include");
    scene.config(&format!(
        "[mcp.big]\ncommand = {:?}\nargs = [{:?}, \"many\"]\n\
         include_tools = [\"tool_1\", \"tool_2\", \"tool_3\", \"nope\"]\nexclude_tools = [\"tool_3\"]\n",
        argv[0], argv[1]
    ));
    let server = FakeGemini::start("mcp-include", vec![answer_reply()]);
    let out = finish(scene.spawn(&server, None, &["hi"]));
    succeeded(&out);
    let names: Vec<String> = declarations(&server.bodies()[0])
        .iter()
        .map(|d| d["name"].as_str().unwrap().to_string())
        .filter(|n| n.starts_with("big__"))
        .collect();
    assert_eq!(names, ["big__tool_1", "big__tool_2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "MCP server big: its config names the tool \"nope\", which the server does not have"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("not declared"), "{stderr}");
    let list = finish(scene.spawn(&server, None, &["--list-tools"]));
    let listing = String::from_utf8_lossy(&list.stdout);
    assert!(listing.contains("running, 2 of its 504 tools"), "{listing}");
}

#[test]
fn an_answer_over_the_mcp_limit_is_too_large_not_a_timeout() {
    let Some(argv) = scripted("huge") else {
        return;
    };
    let scene = Scene::new("mcp-huge");
    let server = FakeGemini::start(
        "mcp-huge",
        vec![
            calls_reply(&[call("huge__dump", json!({}))]),
            answer_reply(),
        ],
    );
    let out = finish(scene.spawn(
        &server,
        None,
        &[
            "--yes",
            "--tool-timeout",
            "40",
            "--mcp",
            &mcp_line("huge", &argv),
            "dump it",
        ],
    ));
    let ev = succeeded(&out);
    let r = of_type(&ev, "tool_result")[0];
    assert_eq!(r["status"], "error");
    assert_eq!(r["error"]["type"], "too_large", "{r}");
    let msg = r["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("over the 16 MiB an MCP message may have"),
        "{msg}"
    );
    let fr = responses(&server.bodies()[1]);
    assert!(
        fr[0]["response"]["error"]
            .as_str()
            .unwrap()
            .contains("16 MiB")
    );
}

#[test]
fn a_real_servers_tools_can_be_excluded_and_its_schemas_still_declared() {
    let Some(every) = mcp_server(EVERYTHING) else {
        return;
    };
    let scene = Scene::new("mcp-exclude");
    scene.config(&format!(
        "[mcp.everything]\ncommand = {:?}\nexclude_tools = [\"echo\"]\n",
        every.display().to_string()
    ));
    let server = FakeGemini::start(
        "mcp-exclude",
        vec![
            calls_reply(&[call("everything__get-sum", json!({"a": 2, "b": 3}))]),
            answer_reply(),
        ],
    );
    let out = finish(scene.spawn(&server, None, &["--yes", "add"]));
    let ev = succeeded(&out);
    let decls = declarations(&server.bodies()[0]);
    let names: Vec<&str> = decls.iter().map(|d| d["name"].as_str().unwrap()).collect();
    assert!(!names.contains(&"everything__echo"), "{names:?}");
    assert!(names.contains(&"everything__get-sum"), "{names:?}");
    for d in decls
        .iter()
        .filter(|d| d["name"].as_str().unwrap().starts_with("everything__"))
    {
        assert_eq!(d["parametersJsonSchema"]["type"], "object", "{d}");
    }
    assert_eq!(of_type(&ev, "tool_result")[0]["status"], "success");
}
