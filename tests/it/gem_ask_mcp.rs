//! gem-ask with real MCP servers that no one here wrote, installed by
//! `.ci/setup-mcp.sh`: `mcp-server-time` (PyPI) and
//! `@modelcontextprotocol/server-everything` (npm). Their tools are listed,
//! declared with their JSON Schema, called, and their results returned to
//! the model; a server that never starts and one that dies mid-session
//! are each reported once while the session goes on.

use std::path::Path;

use crate::support::tools::{
    EVERYTHING, Scene, TIME, answer_reply, call, calls_reply, finish, mcp_server, responses,
};
use crate::support::{FakeGemini, of_type};
use serde_json::{Value, json};

fn mcp_arg(name: &str, path: &Path) -> String {
    format!("{name}={}", path.display())
}

#[test]
fn tools_of_both_servers_are_listed_with_source_and_level() {
    let (Some(time), Some(every)) = (mcp_server(TIME), mcp_server(EVERYTHING)) else {
        return;
    };
    let scene = Scene::new("mcp-list");
    scene.config(&format!(
        "[mcp.time]\ncommand = {:?}\ntrust = true\n",
        time.display().to_string()
    ));
    let server = FakeGemini::start("mcp-list", vec![]);
    let out = finish(scene.spawn(
        &server,
        None,
        &["--list-tools", "--mcp", &mcp_arg("everything", &every)],
    ));
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let row = |name: &str| -> Vec<String> {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} not in\n{text}"));
        line.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(String::from)
            .collect()
    };
    assert_eq!(
        row("time__get_current_time"),
        [
            "time__get_current_time",
            "mcp:time",
            "standard (trusted)",
            "yes"
        ]
    );
    assert_eq!(
        row("everything__echo"),
        ["everything__echo", "mcp:everything", "standard", "yes"]
    );
    assert!(text.contains("\ntime        running, 2 tools\n"), "{text}");
    assert!(text.contains("everything  running, "), "{text}");
}

#[test]
fn tools_are_declared_called_and_their_results_returned() {
    let (Some(time), Some(every)) = (mcp_server(TIME), mcp_server(EVERYTHING)) else {
        return;
    };
    let scene = Scene::new("mcp-call");
    let server = FakeGemini::start(
        "mcp-call",
        vec![
            calls_reply(&[
                call("time__get_current_time", json!({"timezone": "UTC"})),
                call("everything__echo", json!({"message": "hello from gemline"})),
                call(
                    "everything__get-structured-content",
                    json!({"location": "New York"}),
                ),
                call("time__get_current_time", json!({"timezone": "Not/A_Zone"})),
            ]),
            answer_reply(),
        ],
    );
    let ev = scene.run(
        &server,
        &[
            "--yes",
            "--mcp",
            &mcp_arg("time", &time),
            "--mcp",
            &mcp_arg("everything", &every),
            "what time is it",
        ],
    );
    let bodies = server.bodies();
    // Declared with their JSON Schema, under names valid for Gemini.
    let decls = bodies[0]["tools"][0]["functionDeclarations"]
        .as_array()
        .unwrap();
    let re = regex::Regex::new(r"^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$").unwrap();
    let time_decl = decls
        .iter()
        .find(|d| d["name"] == "time__get_current_time")
        .unwrap();
    assert_eq!(time_decl["parametersJsonSchema"]["type"], "object");
    assert!(time_decl["parametersJsonSchema"]["properties"]["timezone"].is_object());
    assert!(time_decl.get("parameters").is_none());
    for d in decls {
        assert!(re.is_match(d["name"].as_str().unwrap()), "{}", d["name"]);
    }
    let r = of_type(&ev, "tool_result");
    assert!(r[..3].iter().all(|r| r["status"] == "success"), "{r:?}");
    let fr = responses(&bodies[1]);
    let now: Value = serde_json::from_str(fr[0]["response"]["output"].as_str().unwrap()).unwrap();
    assert_eq!(now["timezone"], "UTC");
    assert_eq!(fr[1]["response"]["output"], "Echo: hello from gemline");
    assert!(
        fr[2]["response"]["structuredContent"].is_object(),
        "{}",
        fr[2]
    );
    // isError (an unknown zone) is an error result the model reads.
    assert_eq!(r[3]["status"], "error");
    let err = fr[3]["response"]["error"].as_str().unwrap();
    assert!(err.contains("Not/A_Zone"), "{err}");
    assert!(of_type(&ev, "error").is_empty());
}

#[test]
fn mcp_tools_need_consent_unless_the_server_is_trusted() {
    let Some(time) = mcp_server(TIME) else {
        return;
    };
    let scene = Scene::new("mcp-consent");
    let server = FakeGemini::start(
        "mcp-consent",
        vec![
            calls_reply(&[call("time__get_current_time", json!({"timezone": "UTC"}))]),
            answer_reply(),
            calls_reply(&[call("time__get_current_time", json!({"timezone": "UTC"}))]),
            answer_reply(),
        ],
    );
    let ev = scene.run(&server, &["--mcp", &mcp_arg("time", &time), "time?"]);
    let r = of_type(&ev, "tool_result");
    assert_eq!(
        (&r[0]["consent"], &r[0]["error"]["type"]),
        (&json!("no_terminal"), &json!("consent_denied"))
    );
    scene.config(&format!(
        "[mcp.time]\ncommand = {:?}\ntrust = true\n",
        time.display().to_string()
    ));
    let ev = scene.run(&server, &["time?"]);
    let r = of_type(&ev, "tool_result");
    assert_eq!(
        (&r[0]["consent"], &r[0]["status"]),
        (&json!("trusted"), &json!("success"))
    );
}

#[test]
fn a_server_that_never_starts_is_reported_once_and_the_session_goes_on() {
    let Some(time) = mcp_server(TIME) else {
        return;
    };
    let scene = Scene::new("mcp-never");
    let server = FakeGemini::start(
        "mcp-never",
        vec![
            calls_reply(&[
                call("missing__anything", json!({})),
                call("time__get_current_time", json!({"timezone": "UTC"})),
            ]),
            answer_reply(),
        ],
    );
    let ev = scene.run(
        &server,
        &[
            "--yes",
            // Room for the time server to start on a loaded machine; the
            // two broken servers fail at once whatever the timeout.
            "--tool-timeout",
            "20",
            "--mcp",
            "missing=/nonexistent/mcp-server",
            "--mcp",
            "quits=false",
            "--mcp",
            &mcp_arg("time", &time),
            "time?",
        ],
    );
    let errors = of_type(&ev, "error");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(ev[1]["type"], "error", "reported right after init");
    assert!(
        errors[0]["message"].as_str().unwrap().starts_with(
            "MCP server missing (/nonexistent/mcp-server) failed to start: cannot run"
        )
    );
    assert!(
        errors[1]["message"]
            .as_str()
            .unwrap()
            .contains("MCP server quits (false) failed to start")
    );
    let r = of_type(&ev, "tool_result");
    assert_eq!(r[0]["error"]["type"], "unknown_tool");
    assert_eq!(r[1]["status"], "success");
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");
}

#[test]
fn a_server_that_dies_mid_session_is_reported_once() {
    let Some(time) = mcp_server(TIME) else {
        return;
    };
    let scene = Scene::new("mcp-dies");
    // The real server behind a relay that quits at the second tools/call:
    // the server sees its input end and exits, mid-session.
    let relay = scene.home.join("dying-relay.sh");
    std::fs::write(
        &relay,
        format!(
            "#!/bin/sh\nn=0\nwhile IFS= read -r line; do\n  case \"$line\" in *'\"tools/call\"'*) n=$((n+1));; esac\n  \
             [ \"$n\" -ge 2 ] && exit 0\n  printf '%s\\n' \"$line\"\ndone | exec {}\n",
            time.display()
        ),
    )
    .unwrap();
    let mut perm = std::fs::metadata(&relay).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&relay, perm).unwrap();
    let now = || call("time__get_current_time", json!({"timezone": "UTC"}));
    let server = FakeGemini::start(
        "mcp-dies",
        vec![
            calls_reply(&[now()]),
            calls_reply(&[now()]),
            calls_reply(&[now()]),
            answer_reply(),
        ],
    );
    let ev = scene.run(
        &server,
        &[
            "--yes",
            "--tool-timeout",
            "20",
            "--mcp",
            &mcp_arg("time", &relay),
            "time?",
        ],
    );
    let r = of_type(&ev, "tool_result");
    assert_eq!(r[0]["status"], "success");
    assert_eq!(r[1]["error"]["type"], "server_unavailable");
    assert_eq!(r[2]["error"]["type"], "server_unavailable");
    let errors = of_type(&ev, "error");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("MCP server time stopped")
    );
    // The model is told each time.
    let bodies = server.bodies();
    for b in &bodies[2..4] {
        let e = responses(b)[0]["response"]["error"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(e.contains("MCP server time stopped"), "{e}");
    }
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");
}
