//! gem-ask with MCP servers over HTTP: the reference server-everything
//! (npm, installed by `.ci/setup-mcp.sh`) started on 127.0.0.1 in its
//! Streamable HTTP and its older HTTP+SSE modes, and small HTTP servers
//! written here for what a real one does wrong: down, a web page, a
//! redirect to another host, OAuth, never answering. Each bad server is
//! said once, naming it, and the run goes on with the others' tools.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;

use crate::support::tools::{
    EVERYTHING, Scene, answer_reply, call, calls_reply, finish, mcp_server, responses, succeeded,
};
use crate::support::{FakeGemini, of_type};

/// server-everything serving over HTTP on a free port of 127.0.0.1.
struct Everything {
    child: Child,
    port: u16,
}

impl Everything {
    /// `mode`: `streamableHttp` (at /mcp) or `sse` (at /sse).
    fn start(mode: &str) -> Option<Everything> {
        Everything::start_with(mode, &[])
    }

    /// As [`Everything::start`], with `env` in its environment.
    fn start_with(mode: &str, env: &[(&str, &str)]) -> Option<Everything> {
        let bin = mcp_server(EVERYTHING)?;
        // The server takes its port from PORT: a free one is found by
        // binding :0; should another process take it meanwhile, the server
        // says so and exits, and another port is tried.
        for _ in 0..5 {
            let port = free_port();
            let mut child = Command::new(&bin)
                .arg(mode)
                .env("PORT", port.to_string())
                .envs(env.iter().copied())
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            // Its stderr is read to the end (a closed pipe could stop it);
            // the line saying it listens on the port is passed on.
            let (tx, rx) = std::sync::mpsc::channel();
            let stderr = BufReader::new(child.stderr.take().unwrap());
            let listening = format!("port {port}");
            std::thread::spawn(move || {
                for line in stderr.lines().map_while(Result::ok) {
                    if line.contains(&listening) && !line.contains("in use") {
                        let _ = tx.send(());
                    }
                }
            });
            // Bounded: a server that never says it listens fails the test.
            if rx.recv_timeout(Duration::from_secs(60)).is_ok() {
                return Some(Everything { child, port });
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("server-everything {mode} did not start");
    }
}

impl Drop for Everything {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A small HTTP server on 127.0.0.1 that answers each request (its head
/// and body) with raw bytes (none at all: it holds the connection and
/// says nothing), and keeps each request (its head and body).
struct Tiny {
    port: u16,
    heads: Arc<Mutex<Vec<String>>>,
}

type Answer = Arc<dyn Fn(&str, &str) -> String + Send + Sync>;

impl Tiny {
    /// The same answer to every request.
    fn start(answer: String) -> Tiny {
        Tiny::answering(Arc::new(move |_, _| answer.clone()))
    }

    fn answering(answer: Answer) -> Tiny {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let heads = Arc::new(Mutex::new(Vec::new()));
        let seen = heads.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { return };
                let (seen, answer) = (seen.clone(), answer.clone());
                std::thread::spawn(move || serve(conn, &seen, &answer));
            }
        });
        Tiny { port, heads }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn heads(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }
}

fn serve(mut conn: TcpStream, seen: &Mutex<Vec<String>>, answer: &Answer) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match conn.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|n| n.trim().parse().unwrap_or(0))
        })
        .unwrap_or(0);
    let mut body = vec![0; length];
    if conn.read_exact(&mut body).is_err() {
        return;
    }
    let body = String::from_utf8_lossy(&body);
    seen.lock().unwrap().push(format!("{head}{body}"));
    let answer = answer(&head, &body);
    if answer.is_empty() {
        // Never answers: holds the connection until gem-ask drops it.
        let _ = conn.read_to_end(&mut Vec::new());
        return;
    }
    let _ = conn.write_all(answer.as_bytes());
}

/// The status `--list-tools` gives MCP server `name`.
fn status<'a>(listing: &'a str, name: &str) -> &'a str {
    let servers = listing.split("MCP SERVER").nth(1).unwrap_or_default();
    servers
        .lines()
        .find_map(|l| l.strip_prefix(name).filter(|r| r.starts_with(' ')))
        .map_or("", str::trim)
}

fn http(status: &str, headers: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[test]
fn tools_are_listed_and_called_over_streamable_http() {
    // The server knows the header's value (as a server that echoes its
    // request would): what it says of it is redacted before the model.
    const VALUE: &str = "tok-9f8e7d6c5b4a";
    let Some(every) = Everything::start_with("streamableHttp", &[("LEAKED", VALUE)]) else {
        return;
    };
    let scene = Scene::new("mcp-http");
    scene.config(&format!(
        "[mcp.every]\nhttpUrl = \"http://127.0.0.1:{}/mcp\"\n\
         headers = {{ Authorization = \"Bearer ${{MCP_HEADER_VALUE}}\" }}\n",
        every.port
    ));
    let listed = finish(
        scene
            .gem_ask(&FakeGemini::start("mcp-http-list", vec![]), None)
            .env("MCP_HEADER_VALUE", VALUE)
            .arg("--list-tools")
            .spawn()
            .unwrap(),
    );
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(
        status(&text, "every").starts_with("running over Streamable HTTP, "),
        "{text}"
    );
    let server = FakeGemini::start(
        "mcp-http",
        vec![
            calls_reply(&[
                call("every__echo", json!({"message": "over HTTP"})),
                call("every__get-sum", json!({"a": 2, "b": 3})),
                call("every__get-env", json!({})),
            ]),
            answer_reply(),
        ],
    );
    let ev = succeeded(&finish(
        scene
            .gem_ask(&server, None)
            .env("MCP_HEADER_VALUE", VALUE)
            .args(["--yes", "sum?"])
            .spawn()
            .unwrap(),
    ));
    let r = of_type(&ev, "tool_result");
    assert!(r.iter().all(|r| r["status"] == "success"), "{r:?}");
    let fr = responses(&server.bodies()[1]);
    assert_eq!(fr[0]["response"]["output"], "Echo: over HTTP");
    assert!(
        fr[1]["response"]["output"].as_str().unwrap().contains('5'),
        "{}",
        fr[1]
    );
    let env = fr[2]["response"]["output"].as_str().unwrap();
    assert!(env.contains("\"LEAKED\": \"[REDACTED]\""), "{env}");
    assert!(!server.bodies()[1].to_string().contains(VALUE));
    assert!(of_type(&ev, "error").is_empty());
}

#[test]
fn a_server_of_the_older_http_sse_transport_is_reached_by_the_fallback() {
    let Some(every) = Everything::start("sse") else {
        return;
    };
    let scene = Scene::new("mcp-sse");
    let server = FakeGemini::start(
        "mcp-sse",
        vec![
            calls_reply(&[call("old__echo", json!({"message": "over SSE"}))]),
            answer_reply(),
        ],
    );
    let url = format!("old=http://127.0.0.1:{}/sse", every.port);
    let out = finish(scene.spawn(&server, None, &["--list-tools", "--mcp", &url]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        status(&text, "old").starts_with("running over HTTP+SSE, "),
        "{text}"
    );
    let ev = scene.run(&server, &["--yes", "--mcp", &url, "echo"]);
    assert_eq!(of_type(&ev, "tool_result")[0]["status"], "success");
    let fr = responses(&server.bodies()[1]);
    assert_eq!(fr[0]["response"]["output"], "Echo: over SSE");
}

#[test]
fn headers_take_environment_variables_and_are_never_shown() {
    let tiny = Tiny::start(http("404 Not Found", "", ""));
    let scene = Scene::new("mcp-headers");
    scene.config(&format!(
        "[mcp.tiny]\nurl = \"{}\"\nheaders = {{ Authorization = \"Bearer $MCP_TEST_TOKEN\", X-Team = \"${{MCP_TEST_TEAM}}-ops\" }}\n",
        tiny.url("/mcp")
    ));
    let server = FakeGemini::start("mcp-headers", vec![answer_reply(), answer_reply()]);
    let run = |args: &[&str]| {
        finish(
            scene
                .gem_ask(&server, None)
                .env("MCP_TEST_TOKEN", "tok-5ecret-123")
                .env("MCP_TEST_TEAM", "data")
                .args(args)
                .spawn()
                .unwrap(),
        )
    };
    let out = run(&["hi"]);
    let heads = tiny.heads();
    assert!(!heads.is_empty());
    for h in &heads {
        let h = h.to_ascii_lowercase();
        assert!(
            h.contains("\r\nauthorization: bearer tok-5ecret-123\r\n"),
            "{h}"
        );
        assert!(h.contains("\r\nx-team: data-ops\r\n"), "{h}");
    }
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("MCP server tiny"), "{said}");
    assert!(!said.contains("5ecret"), "{said}");
    assert!(!server.bodies()[0].to_string().contains("5ecret"));
    let printed = run(&[
        "--print-config",
        "--mcp",
        "q=http://127.0.0.1:9/mcp?key=5ecret-q",
    ]);
    let text = String::from_utf8_lossy(&printed.stdout);
    assert!(text.contains("\"q=http://127.0.0.1:9/mcp?…\""), "{text}");
    assert!(
        text.contains("headers = { Authorization = \"[REDACTED]\", X-Team = \"[REDACTED]\" }"),
        "{text}"
    );
    assert!(
        !text.contains("5ecret") && !text.contains("MCP_TEST_TOKEN"),
        "{text}"
    );
    // A variable that is not set: said, by name, and nothing is sent.
    let before = tiny.heads().len();
    let out = finish(
        scene
            .gem_ask(&server, None)
            .env_remove("MCP_TEST_TOKEN")
            .env("MCP_TEST_TEAM", "data")
            .arg("hi")
            .spawn()
            .unwrap(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("header Authorization names $MCP_TEST_TOKEN, which is not set"),
        "{text}"
    );
    assert_eq!(tiny.heads().len(), before);
}

/// Servers that go wrong, each its own way, and the config naming them.
struct BadServers {
    config: String,
    /// Where `moved` redirects to.
    elsewhere: Tiny,
    silent: Tiny,
    _others: Vec<Tiny>,
}

impl BadServers {
    fn start() -> BadServers {
        let down = free_port();
        let html = Tiny::start(http(
            "200 OK",
            "Content-Type: text/html\r\n",
            "<!doctype html><title>Sign in</title>",
        ));
        let elsewhere = Tiny::start(http("500 Internal Server Error", "", ""));
        // localhost is another origin than 127.0.0.1, though the same machine.
        let redirect = Tiny::start(http(
            "307 Temporary Redirect",
            &format!("Location: http://localhost:{}/mcp\r\n", elsewhere.port),
            "",
        ));
        let oauth = Tiny::start(http(
            "401 Unauthorized",
            "WWW-Authenticate: Bearer resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource\"\r\n",
            "",
        ));
        let silent = Tiny::start(String::new());
        // A JSON answer past the 16 MiB an MCP message may have.
        let huge = Tiny::start(http(
            "200 OK",
            "Content-Type: application/json\r\n",
            &format!("{{\"x\":\"{}\"}}", "y".repeat(17 << 20)),
        ));
        let config = format!(
            "[mcp.down]\nurl = \"http://127.0.0.1:{down}/mcp\"\n\
             [mcp.html]\nurl = \"{}\"\n\
             [mcp.moved]\nurl = \"{}\"\nheaders = {{ Authorization = \"Bearer moved-5ecret\" }}\n\
             [mcp.oauth]\nurl = \"{}\"\n\
             [mcp.silent]\nurl = \"{}\"\nconnect_timeout = 1\n\
             [mcp.huge]\nurl = \"{}\"\n",
            html.url("/mcp"),
            redirect.url("/mcp"),
            oauth.url("/mcp"),
            silent.url("/mcp"),
            huge.url("/mcp"),
        );
        BadServers {
            config,
            elsewhere,
            silent,
            _others: vec![html, redirect, oauth, huge],
        }
    }
}

#[test]
fn bad_servers_are_each_said_and_the_run_goes_on() {
    let Some(every) = Everything::start("streamableHttp") else {
        return;
    };
    let bad = BadServers::start();
    let scene = Scene::new("mcp-bad");
    scene.config(&format!(
        "{}[mcp.every]\nurl = \"http://127.0.0.1:{}/mcp\"\n",
        bad.config, every.port
    ));
    let server = FakeGemini::start(
        "mcp-bad",
        vec![
            calls_reply(&[call("every__echo", json!({"message": "still here"}))]),
            answer_reply(),
        ],
    );
    let ev = scene.run(&server, &["--yes", "--tool-timeout", "20", "echo"]);
    let errors: Vec<String> = of_type(&ev, "error")
        .iter()
        .map(|e| e["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(errors.len(), 6, "{errors:#?}");
    let said = |name: &str| -> &str {
        errors
            .iter()
            .find(|e| e.starts_with(&format!("MCP server {name} (http://127.0.0.1:")))
            .unwrap_or_else(|| panic!("{name} not said: {errors:#?}"))
    };
    assert!(said("down").contains("failed to start: cannot connect: "));
    assert!(said("down").contains("(is the server running?)"));
    assert!(
        said("html").contains("it answered with text/html, not MCP"),
        "{errors:#?}"
    );
    assert!(
        said("moved").contains(&format!(
            "it redirects to another host (http://localhost:{}); refused",
            bad.elsewhere.port
        )),
        "{errors:#?}"
    );
    assert!(
        bad.elsewhere.heads().is_empty(),
        "the redirect was followed"
    );
    assert!(!errors.iter().any(|e| e.contains("5ecret")), "{errors:#?}");
    let o = said("oauth");
    assert!(
        o.contains(
            "it asks for OAuth sign-in (HTTP 401, WWW-Authenticate: Bearer resource_metadata="
        ),
        "{o}"
    );
    assert!(
        o.contains("gem-ask does not sign in with OAuth: give a token in its headers"),
        "{o}"
    );
    assert!(said("silent").contains("failed to start: no answer within 1 s"));
    assert!(!bad.silent.heads().is_empty());
    assert!(
        said("huge").contains("it sent a message over the 16 MiB an MCP message may have"),
        "{errors:#?}"
    );
    assert!(
        errors
            .iter()
            .all(|e| e.ends_with("its tools are not available"))
    );
    let r = of_type(&ev, "tool_result");
    assert_eq!(r[0]["status"], "success", "{r:?}");
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");
}

/// A Streamable HTTP server written here, enough for a handshake and two
/// tools: `big`, whose every answer is past the 16 MiB an MCP message may
/// have, and `slow`, which never answers.
fn fake_server() -> Tiny {
    Tiny::answering(Arc::new(|head, body| {
        if !head.starts_with("POST") {
            return http("405 Method Not Allowed", "", "");
        }
        let msg: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
        let id = &msg["id"];
        let result = match msg["method"].as_str().unwrap_or_default() {
            "initialize" => json!({
                "protocolVersion": msg["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fake", "version": "1"}}),
            "tools/list" => json!({"tools": [
                {"name": "big", "inputSchema": {"type": "object"}},
                {"name": "slow", "inputSchema": {"type": "object"}}]}),
            "tools/call" if msg["params"]["name"] == "slow" => return String::new(),
            "tools/call" => json!({"content": [{"type": "text", "text": "y".repeat(17 << 20)}]}),
            _ if id.is_null() => return http("202 Accepted", "", ""),
            _ => {
                let e =
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no"}});
                return mcp_json(&e);
            }
        };
        mcp_json(&json!({"jsonrpc": "2.0", "id": id, "result": result}))
    }))
}

fn mcp_json(message: &serde_json::Value) -> String {
    http(
        "200 OK",
        "Content-Type: application/json\r\nMcp-Session-Id: s1\r\n",
        &message.to_string(),
    )
}

#[test]
fn an_answer_past_the_message_limit_is_too_large_and_the_server_stays() {
    let big = fake_server();
    let scene = Scene::new("mcp-http-big");
    let server = FakeGemini::start(
        "mcp-http-big",
        vec![
            calls_reply(&[call("big__big", json!({}))]),
            calls_reply(&[call("big__big", json!({}))]),
            answer_reply(),
        ],
    );
    let url = format!("big={}", big.url("/mcp"));
    let ev = scene.run(
        &server,
        &["--yes", "--tool-timeout", "60", "--mcp", &url, "big"],
    );
    let r = of_type(&ev, "tool_result");
    assert_eq!(r.len(), 2, "{r:?}");
    for r in r {
        assert_eq!(r["error"]["type"], "too_large", "{r}");
        let m = r["error"]["message"].as_str().unwrap();
        assert!(m.contains("over the 16 MiB an MCP message may have"), "{m}");
    }
    assert!(of_type(&ev, "error").is_empty());
}

#[test]
fn a_stopped_call_is_cancelled_on_the_server() {
    let fake = fake_server();
    let scene = Scene::new("mcp-http-cancel");
    scene.config(&format!(
        "[mcp.fake]\nurl = \"{}\"\ncall_timeout = 1\n",
        fake.url("/mcp")
    ));
    let server = FakeGemini::start(
        "mcp-http-cancel",
        vec![
            calls_reply(&[call("fake__slow", json!({}))]),
            answer_reply(),
        ],
    );
    let ev = scene.run(&server, &["--yes", "--tool-timeout", "60", "slow"]);
    assert_eq!(of_type(&ev, "tool_result")[0]["error"]["type"], "timeout");
    let seen = fake.heads();
    let call = seen
        .iter()
        .find(|r| r.contains("\"tools/call\""))
        .expect("the call was sent");
    let body: serde_json::Value =
        serde_json::from_str(&call[call.find("\r\n\r\n").unwrap() + 4..]).unwrap();
    let cancel = seen
        .iter()
        .find(|r| r.contains("\"notifications/cancelled\""))
        .unwrap_or_else(|| panic!("no notifications/cancelled in {seen:#?}"));
    assert!(
        cancel.contains(&format!("\"requestId\":{}", body["id"])),
        "{cancel}"
    );
}

#[test]
fn a_call_past_the_servers_call_timeout_is_cancelled() {
    let Some(every) = Everything::start("streamableHttp") else {
        return;
    };
    let scene = Scene::new("mcp-http-slow");
    scene.config(&format!(
        "[mcp.every]\nurl = \"http://127.0.0.1:{}/mcp\"\ncall_timeout = 1\n",
        every.port
    ));
    let server = FakeGemini::start(
        "mcp-http-slow",
        vec![
            calls_reply(&[call(
                "every__trigger-long-running-operation",
                json!({"duration": 600, "steps": 2}),
            )]),
            answer_reply(),
        ],
    );
    let ev = scene.run(&server, &["--yes", "--tool-timeout", "60", "wait"]);
    let r = of_type(&ev, "tool_result");
    assert_eq!(r[0]["error"]["type"], "timeout", "{r:?}");
    let m = r[0]["error"]["message"].as_str().unwrap();
    assert!(m.contains("(mcp.every call_timeout)"), "{m}");
    assert!(m.contains("notifications/cancelled"), "{m}");
    assert_eq!(of_type(&ev, "result")[0]["status"], "success");
}
