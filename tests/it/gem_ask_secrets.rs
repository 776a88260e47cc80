//! Secrets stay home: a tool's processes never get the API keys or other
//! secret-looking variables (the config's `tools.pass_env` puts back what
//! the user names), and what a tool prints is cleaned of every key gem-ask
//! knows before it is shown, stored or sent, with either provider. An
//! image or PDF for the model is never altered; one holding a key is
//! withheld.

use serde_json::{Value, json};

use crate::gem_ask_openai::{call_stream, fixture as openai_fixture};
use crate::support::tools::{Scene, answer_reply, call, calls_reply, finish, succeeded};
use crate::support::{FakeGemini, KEY, Reply, of_type};

const GITHUB: &str = "ghp_9f8e7d6c5b4a39281706";
const NPM: &str = "npm_passed_0123456789";

/// `env` and a file holding the key, as one shell call.
fn leaky_command() -> Value {
    json!({"command": "env; cat creds.txt"})
}

/// Everything a run leaves: its events, its session file, the bodies the
/// server was sent after the tool ran.
fn traces(scene: &Scene, stdout: &[u8], later_bodies: &[String]) -> Vec<(String, String)> {
    let mut all = vec![(
        "stdout".into(),
        String::from_utf8_lossy(stdout).into_owned(),
    )];
    for entry in std::fs::read_dir(scene.home.join("gemline/sessions")).unwrap() {
        let p = entry.unwrap().path();
        all.push((
            p.display().to_string(),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    for (i, b) in later_bodies.iter().enumerate() {
        all.push((format!("request {}", i + 2), b.clone()));
    }
    all
}

fn assert_clean(traces: &[(String, String)], secrets: &[&str]) {
    for (place, text) in traces {
        for s in secrets {
            assert!(!text.contains(s), "{s:?} in {place}:\n{text}");
        }
    }
}

#[test]
fn the_shell_gets_no_key_and_its_output_is_redacted() {
    let scene = Scene::new("secrets-gemini");
    scene.config("[tools]\npass_env = [\"NPM_*\"]\n");
    std::fs::write(scene.work.join("creds.txt"), format!("api_key={KEY}\n")).unwrap();
    let server = FakeGemini::start(
        "secrets-gemini",
        vec![
            calls_reply(&[call("run_shell_command", leaky_command())]),
            answer_reply(),
        ],
    );
    let out = finish(
        scene
            .gem_ask(&server, None)
            .env("GITHUB_TOKEN", GITHUB)
            .env("NPM_TOKEN", NPM)
            .env("GEMLINE_PLAIN_VAR", "visible")
            .args(["--tools", "run_shell_command", "--yes", "show me"])
            .spawn()
            .unwrap(),
    );
    let ev = succeeded(&out);
    let result = of_type(&ev, "tool_result")[0];
    let output = result["output"].as_str().unwrap();
    // The child's environment: no key, no token, the rest as it was.
    for name in ["GEMINI_API_KEY=", "GITHUB_TOKEN="] {
        assert!(
            !output.contains(name),
            "{name} in the child's env:\n{output}"
        );
    }
    assert!(output.contains("GEMLINE_PLAIN_VAR=visible"), "{output}");
    assert!(
        output.contains(&format!("NPM_TOKEN={NPM}")),
        "pass_env: {output}"
    );
    // The file's copy of the key is blanked out.
    assert!(output.contains("api_key=[REDACTED]"), "{output}");
    let bodies: Vec<String> = server.bodies()[1..].iter().map(Value::to_string).collect();
    let response = &server.bodies()[1]["contents"][2]["parts"][0]["functionResponse"];
    assert!(
        response["response"]["stdout"]
            .as_str()
            .unwrap()
            .contains("api_key=[REDACTED]"),
        "{response}"
    );
    assert_clean(&traces(&scene, &out.stdout, &bodies), &[KEY, GITHUB]);
}

#[test]
fn with_the_openai_provider_neither_key_reaches_the_tool_or_the_server() {
    const OPENAI_KEY: &str = "sk-proj-5e4d3c2b1a00";
    let scene = Scene::new("secrets-openai");
    std::fs::write(scene.work.join("creds.txt"), format!("{OPENAI_KEY}\n")).unwrap();
    let server = FakeGemini::start_uncaptured(vec![
        Reply::sse(&call_stream(
            "call_1",
            "run_shell_command",
            &leaky_command(),
        )),
        Reply::sse(&openai_fixture("oa-01-gemini-openai-compat-stream.sse")),
    ]);
    let out = finish(
        scene
            .gem_ask(&server, None)
            .env("OPENAI_API_KEY", OPENAI_KEY)
            .env("OPENAI_BASE_URL", &server.url)
            .args(["--provider", "openai", "--tools", "run_shell_command"])
            .args(["--allow-tool", "run_shell_command", "show me"])
            .spawn()
            .unwrap(),
    );
    let ev = succeeded(&out);
    let output = of_type(&ev, "tool_result")[0]["output"].as_str().unwrap();
    assert!(!output.contains("OPENAI_API_KEY="), "{output}");
    assert!(!output.contains("GEMINI_API_KEY="), "{output}");
    assert!(output.contains("[REDACTED]"), "{output}");
    let second = server.requests()[1].json();
    let tool = second["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(tool["role"], "tool");
    assert!(tool["content"].as_str().unwrap().contains("[REDACTED]"));
    assert_clean(
        &traces(&scene, &out.stdout, &[second.to_string()]),
        &[OPENAI_KEY, KEY],
    );
}

#[test]
fn an_mcp_server_gets_only_the_secrets_its_config_gives_and_they_are_redacted() {
    use crate::support::tools::{EVERYTHING, mcp_server};
    let Some(every) = mcp_server(EVERYTHING) else {
        return;
    };
    const SERVICE: &str = "svc-token-0a1b2c3d4e5f";
    let scene = Scene::new("secrets-mcp");
    scene.config(&format!(
        "[mcp.everything]\ncommand = {:?}\nenv = {{ SERVICE_TOKEN = {SERVICE:?} }}\n",
        every.display().to_string()
    ));
    let server = FakeGemini::start(
        "secrets-mcp",
        vec![
            calls_reply(&[call("everything__get-env", json!({}))]),
            answer_reply(),
        ],
    );
    let out = finish(
        scene
            .gem_ask(&server, None)
            .env("GITHUB_TOKEN", GITHUB)
            .args(["--yes", "show me"])
            .spawn()
            .unwrap(),
    );
    let ev = succeeded(&out);
    let output = of_type(&ev, "tool_result")[0]["output"].as_str().unwrap();
    assert!(
        output.contains("SERVICE_TOKEN"),
        "the config's env: {output}"
    );
    assert!(output.contains("[REDACTED]"), "{output}");
    for name in ["GEMINI_API_KEY", "GITHUB_TOKEN"] {
        assert!(
            !output.contains(name),
            "{name} in the server's env: {output}"
        );
    }
    let bodies: Vec<String> = server.bodies()[1..].iter().map(Value::to_string).collect();
    assert_clean(
        &traces(&scene, &out.stdout, &bodies),
        &[KEY, GITHUB, SERVICE],
    );
}

#[test]
fn print_config_redacts_arguments_and_values_and_an_open_config_is_warned_about() {
    use std::os::unix::fs::PermissionsExt;
    let scene = Scene::new("secrets-print-config");
    scene.config(&format!(
        "[mcp.gh]\ncommand = \"gh-mcp\"\n\
         args = [\"--password=hunter2-hunter2\", \"--token\", \"plain-value\", \"--port\", \"8080\"]\n\
         env = {{ GITHUB_TOKEN = \"{GITHUB}\" }}\n"
    ));
    let config = scene.home.join("gemline/config.toml");
    let server = FakeGemini::start("secrets-print-config", vec![]);
    let print = |extra: &[&str]| {
        let mut args = vec!["--print-config"];
        args.extend_from_slice(extra);
        let out = finish(scene.spawn(&server, None, &args));
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, stdout, stderr) = print(&[
        "--mcp",
        "db=db-mcp --password=s3cret-pw postgres://app:dbpw@db/x",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    for secret in [
        "hunter2-hunter2",
        "plain-value",
        GITHUB,
        "s3cret-pw",
        "dbpw",
    ] {
        assert!(!stdout.contains(secret), "{secret} in\n{stdout}");
        assert!(!stderr.contains(secret), "{secret} in\n{stderr}");
    }
    for kept in [
        "--port",
        "8080",
        "--password=[REDACTED]",
        "--token",
        "postgres://app:[REDACTED]@db/x",
    ] {
        assert!(stdout.contains(kept), "{kept} in\n{stdout}");
    }
    assert!(
        stderr.contains("holds secrets (mcp.gh env GITHUB_TOKEN, mcp.gh args) and other users can read it (mode 644): chmod 600"),
        "{stderr}"
    );
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (_, _, stderr) = print(&[]);
    assert!(!stderr.contains("holds secrets"), "{stderr}");
    // A value of the wrong type is named, not echoed.
    scene.config(&format!(
        "[mcp.gh]\ncommand = \"gh-mcp\"\nenv = \"GITHUB_TOKEN={GITHUB}\"\n"
    ));
    let (code, stdout, stderr) = print(&[]);
    assert_eq!(code, Some(2));
    assert!(stdout.is_empty());
    assert!(
        stderr.contains(":3: key env: invalid type: string \"[REDACTED]\""),
        "{stderr}"
    );
    assert!(!stderr.contains(GITHUB), "{stderr}");
}

/// Calls whose answers carry gem-ask's notes: two background shells
/// holding the key as their $0, each started (`touch`) before the command
/// ends (the first one's command line is short, the second's is cut at 80
/// characters in the key's middle: `pad` places it); a command stopped at
/// --tool-timeout after printing the key; a page of a file; a line cut at
/// read_file's cap.
fn noted_calls(pad: &str) -> Vec<Value> {
    let background = format!(
        "sh -c 'touch one; sleep 30; :' \"$(cat key.txt)\" & \
         sh -c 'touch two; sleep 30; : {pad}' \"$(cat key.txt)\" & \
         while [ ! -e one ] || [ ! -e two ]; do sleep 0.05; done"
    );
    vec![
        call("run_shell_command", json!({"command": background})),
        call(
            "run_shell_command",
            json!({"command": "cat key.txt; sleep 30"}),
        ),
        call(
            "read_file",
            json!({"path": "pages.txt", "offset": 2, "limit": 1}),
        ),
        call("read_file", json!({"path": "long.txt"})),
    ]
}

/// gem-ask's own notes in a tool's answer are redacted like the tool's
/// output: the background processes it killed (their command lines, whole
/// or cut short), a command stopped at --tool-timeout with its output so
/// far, a page of a file and a line cut at read_file's cap. A key cut in
/// half by a shortened command line or a cap is not shown in part either.
#[test]
fn notes_of_killed_processes_stopped_commands_and_pages_are_redacted() {
    let scene = Scene::new("secrets-notes");
    std::fs::write(scene.work.join("key.txt"), format!("{KEY}\n")).unwrap();
    std::fs::write(scene.work.join("pages.txt"), format!("one\n{KEY}\nthree\n")).unwrap();
    // The key straddles read_file's 256 KiB cap: 7 of its bytes fit.
    let long = format!("{}{KEY}\n", "a".repeat(256 * 1024 - 7));
    std::fs::write(scene.work.join("long.txt"), long).unwrap();
    let pad = "x".repeat(38);
    let server = FakeGemini::start(
        "secrets-notes",
        vec![calls_reply(&noted_calls(&pad)), answer_reply()],
    );
    let out = finish(
        scene
            .gem_ask(&server, None)
            .args(["--tools", "run_shell_command,read_file", "--yes"])
            .args(["--tool-timeout", "5", "go"])
            .spawn()
            .unwrap(),
    );
    let ev = succeeded(&out);
    let r = of_type(&ev, "tool_result");
    let killed = r[0]["output"].as_str().unwrap();
    assert!(
        killed.contains("[background processes still running when the command ended were killed: "),
        "{killed}"
    );
    assert!(
        killed.contains("sh -c touch one; sleep 30; : [REDACTED] (pid "),
        "{killed}"
    );
    assert!(
        killed.contains(&format!(
            "sh -c touch two; sleep 30; : {pad} [REDACTED]… (pid "
        )),
        "{killed}"
    );
    assert_eq!(r[1]["error"]["type"], "timeout", "{}", r[1]);
    let stopped = r[1]["error"]["message"].as_str().unwrap();
    assert!(stopped.contains("stdout:\n[REDACTED]"), "{stopped}");
    assert_eq!(
        r[2]["output"],
        "[REDACTED]\n[read_file: lines 2-2 of 3; the next page starts at offset 3]"
    );
    let cut = r[3]["output"].as_str().unwrap();
    assert!(
        cut.contains(&format!("aaaa{}\n[read_file: lines 1-1", "[REDACTED]")),
        "{}",
        &cut[cut.len() - 200..]
    );
    let fr = crate::support::tools::responses(&server.bodies()[1]);
    assert!(
        fr[0]["response"]["note"]
            .as_str()
            .unwrap()
            .contains("[REDACTED]"),
        "{}",
        fr[0]
    );
    let bodies: Vec<String> = server.bodies()[1..].iter().map(Value::to_string).collect();
    // Not the key, and not the part of it a cut would have left.
    assert_clean(&traces(&scene, &out.stdout, &bodies), &[KEY, &KEY[..7]]);
}

/// Every inline file's bytes in the requests, decoded.
fn inline_bytes(v: &Value, out: &mut Vec<Vec<u8>>) {
    match v {
        Value::Object(m) => {
            if let Some(d) = m.get("inlineData").and_then(|i| i["data"].as_str()) {
                out.push(crate::support::ask::unb64(d));
            }
            m.values().for_each(|x| inline_bytes(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| inline_bytes(x, out)),
        _ => {}
    }
}

#[test]
fn an_image_or_pdf_for_the_model_is_never_altered_and_withheld_if_it_holds_the_key() {
    let scene = Scene::new("secrets-media");
    let png = crate::gem_ask_attach::png_file(7, 5);
    std::fs::write(scene.work.join("plot.png"), &png).unwrap();
    let pdf = format!("%PDF-1.4\n1 0 obj << /Title (api_key={KEY}) >> endobj\n%%EOF\n");
    std::fs::write(scene.work.join("notes.pdf"), &pdf).unwrap();
    let server = FakeGemini::start(
        "secrets-media",
        vec![
            calls_reply(&[
                call("read_file", json!({"path": "plot.png"})),
                call("read_file", json!({"path": "notes.pdf"})),
            ]),
            answer_reply(),
        ],
    );
    let out = finish(
        scene
            .gem_ask(&server, None)
            .args(["--tools", "read_file", "what do these show?"])
            .spawn()
            .unwrap(),
    );
    let ev = succeeded(&out);
    let bodies = server.bodies();
    let last = bodies[1]["contents"].as_array().unwrap().last().unwrap();
    // The image goes byte for byte; the PDF holding the key does not go.
    let seen = &last["parts"][0]["functionResponse"];
    assert_eq!(
        seen["parts"][0]["inlineData"]["data"],
        crate::support::ask::b64(&png)
    );
    let withheld = &last["parts"][1]["functionResponse"];
    assert!(withheld.get("parts").is_none(), "{withheld}");
    let said = withheld["response"]["output"].as_str().unwrap();
    assert!(said.contains("withheld from the model"), "{said}");
    assert!(
        of_type(&ev, "tool_result")[1]["output"]
            .as_str()
            .unwrap()
            .contains("withheld from the model")
    );
    assert_eq!(of_type(&ev, "media").len(), 1);
    let mut files = Vec::new();
    inline_bytes(&bodies[1], &mut files);
    assert_eq!(files, [png]);
    let later: Vec<String> = bodies[1..].iter().map(Value::to_string).collect();
    assert_clean(&traces(&scene, &out.stdout, &later), &[KEY]);
}
