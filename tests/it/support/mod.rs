//! What the areas of the integration tests share: a fake Gemini API, the
//! programs started as the tests start them, a directory of its own for
//! each test ([`temp_dir`]), the events a program wrote ([`events`]);
//! gem-ask's runs and scenarios in [`ask`], a fake embedding endpoint in
//! [`embed`], a real terminal in [`tmux`],
//! tool calls, a pseudo-terminal and the MCP servers in [`tools`], chart
//! points in [`viz`].
//!
//! The fake Gemini API is a `TcpListener` on 127.0.0.1:0 with a thread
//! that answers each connection with the next scripted reply (status,
//! headers, a whole body or SSE events written one by one with optional
//! delays, optionally cut off mid-stream) and captures what the client
//! sent: request line, headers, body.
//!
//! Every captured request body of a model call (`...generateContent`;
//! not the Files API's uploads and polls) is also written to the capture directory
//! (`$GEMLINE_CAPTURE_DIR`, default `target/tmp/gemini-requests`), where
//! `tests/validate_requests.sh` checks them against the official schema
//! (a countTokens body as `NAME-N.countTokens.json`; a GET has none).

pub mod answer;
pub mod ask;
pub mod batch;
pub mod commonmark;
pub mod embed;
pub mod screen;
pub mod tmux;
pub mod tools;
pub mod viz;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use serde_json::Value;

/// One scripted answer.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Body,
    /// The SSE event with this index waits until the gate opens.
    pub gate: Option<(usize, Gate)>,
}

/// Holds the server back until the test has seen something, so a test can
/// prove an event left gem-ask while the rest of the answer was not yet
/// sent. A gate never opened gives way after 20 s and says so.
#[derive(Debug, Clone, Default)]
pub struct Gate(Arc<(Mutex<(bool, bool)>, Condvar)>);

impl Gate {
    pub fn open(&self) {
        self.0.0.lock().unwrap().0 = true;
        self.0.1.notify_all();
    }

    /// True when the server gave up waiting: the test never opened it.
    pub fn timed_out(&self) -> bool {
        self.0.0.lock().unwrap().1
    }

    fn wait(&self) {
        let (lock, cv) = &*self.0;
        let (mut state, _) = cv
            .wait_timeout_while(lock.lock().unwrap(), Duration::from_secs(20), |s| !s.0)
            .unwrap();
        if !state.0 {
            state.1 = true;
        }
    }
}

#[derive(Debug, Clone)]
pub enum Body {
    /// Sent with Content-Length.
    Whole(Vec<u8>),
    /// Sent chunked, one SSE event per chunk, flushed each; `cut` ends the
    /// connection after these bytes without the final chunk.
    Sse {
        events: Vec<(Duration, Vec<u8>)>,
        cut: Option<Vec<u8>>,
    },
}

impl Reply {
    pub fn json(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: vec![(
                "Content-Type".into(),
                "application/json; charset=UTF-8".into(),
            )],
            body: Body::Whole(body.as_bytes().to_vec()),
            gate: None,
        }
    }

    /// Raw SSE bytes, split into their events (`\r\n\r\n` or `\n\n`).
    pub fn sse(raw: &str) -> Reply {
        Reply {
            status: 200,
            headers: vec![("Content-Type".into(), "text/event-stream".into())],
            body: Body::Sse {
                events: split_events(raw)
                    .into_iter()
                    .map(|e| (Duration::ZERO, e.into_bytes()))
                    .collect(),
                cut: None,
            },
            gate: None,
        }
    }

    /// A whole JSON response (a `generateContent` fixture) as one SSE event.
    pub fn sse_from_json(json: &str) -> Reply {
        let v: Value = serde_json::from_str(json).expect("fixture is JSON");
        Reply::sse(&format!("data: {v}\r\n\r\n"))
    }

    /// Keeps the first `n` events, then sends `partial` and drops the connection.
    pub fn cut_after(mut self, n: usize, partial: &str) -> Reply {
        if let Body::Sse { events, cut } = &mut self.body {
            events.truncate(n);
            *cut = Some(partial.as_bytes().to_vec());
        }
        self
    }

    pub fn delay_each(mut self, d: Duration) -> Reply {
        if let Body::Sse { events, .. } = &mut self.body {
            for e in events {
                e.0 = d;
            }
        }
        self
    }

    /// Event `index` is sent only once `gate` is open.
    pub fn gated(mut self, index: usize, gate: &Gate) -> Reply {
        self.gate = Some((index, gate.clone()));
        self
    }

    pub fn header(mut self, k: &str, v: &str) -> Reply {
        self.headers.push((k.into(), v.into()));
        self
    }
}

/// Splits an SSE body into events, each keeping its terminator.
pub fn split_events(raw: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = raw;
    while !rest.is_empty() {
        let (i, sep) = match (rest.find("\r\n\r\n"), rest.find("\n\n")) {
            (Some(a), Some(b)) if b < a => (b, 2),
            (Some(a), _) => (a, 4),
            (None, Some(b)) => (b, 2),
            (None, None) => (rest.len(), 0),
        };
        out.push(rest[..i + sep].to_string());
        rest = &rest[i + sep..];
    }
    out.retain(|e| !e.trim().is_empty());
    out
}

/// What the client sent.
#[derive(Debug, Clone)]
pub struct Captured {
    pub request_line: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Captured {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("request body is JSON")
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub struct FakeGemini {
    pub url: String,
    captured: Arc<Mutex<Vec<Captured>>>,
}

pub fn capture_dir() -> PathBuf {
    std::env::var_os("GEMLINE_CAPTURE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("gemini-requests"))
}

impl FakeGemini {
    /// Starts serving `replies` in order; `name` prefixes the captured
    /// bodies (`<name>-2` when another server of this process has it).
    pub fn start(name: &str, replies: Vec<Reply>) -> FakeGemini {
        static TAKEN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
        FakeGemini::serve_all(Some((first_free(&TAKEN, name), capture_dir())), replies)
    }

    /// A server of another API (an OpenAI-compatible one): its request
    /// bodies are not Gemini's, so they stay out of the capture directory
    /// that tests/validate_requests.sh checks against Gemini's schema.
    pub fn start_uncaptured(replies: Vec<Reply>) -> FakeGemini {
        FakeGemini::serve_all(None, replies)
    }

    fn serve_all(capture: Option<(String, PathBuf)>, replies: Vec<Reply>) -> FakeGemini {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let captured = Arc::new(Mutex::new(Vec::new()));
        let cap = captured.clone();
        let own = url.clone();
        if let Some((_, dir)) = &capture {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::thread::spawn(move || {
            let mut replies = replies.into_iter();
            for (n, stream) in listener.incoming().enumerate() {
                let Ok(stream) = stream else { continue };
                let Some(req) = read_request(&stream) else {
                    continue;
                };
                // Only the bodies of GenerateContentRequests and
                // CountTokensRequests: the Files API's upload (metadata,
                // bytes) and polling are other shapes, a GET has none.
                if let Some((name, dir)) = &capture
                    && (req.request_line.contains("enerateContent")
                        || req.request_line.contains(":countTokens"))
                {
                    let kind = if req.request_line.contains(":countTokens") {
                        ".countTokens"
                    } else {
                        ""
                    };
                    let file = format!("{name}-{}{kind}.json", n + 1);
                    let _ = std::fs::write(dir.join(file), &req.body);
                }
                cap.lock().unwrap().push(req);
                let reply = replies.next().unwrap_or_else(|| {
                    Reply::json(
                        418,
                        r#"{"error":{"code":418,"message":"fake server: no scripted reply left","status":"FAILED_PRECONDITION"}}"#,
                    )
                });
                let _ = serve(stream, &reply, &own);
            }
        });
        FakeGemini { url, captured }
    }

    pub fn requests(&self) -> Vec<Captured> {
        self.captured.lock().unwrap().clone()
    }

    pub fn bodies(&self) -> Vec<Value> {
        self.requests().iter().map(Captured::json).collect()
    }
}

pub fn read_request(stream: &TcpStream) -> Option<Captured> {
    let mut r = BufReader::new(stream);
    let mut request_line = String::new();
    r.read_line(&mut request_line).ok()?;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let len = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    r.read_exact(&mut body).ok()?;
    Some(Captured {
        request_line: request_line.trim_end().to_string(),
        headers,
        body,
    })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// `{SERVER}` in a header value is the server's own URL (an upload URL
/// the Files API hands out points back at it).
fn serve(mut s: TcpStream, reply: &Reply, own: &str) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {}\r\n", v.replace("{SERVER}", own)));
    }
    head.push_str("Connection: close\r\n");
    match &reply.body {
        Body::Whole(b) => {
            head.push_str(&format!("Content-Length: {}\r\n\r\n", b.len()));
            s.write_all(head.as_bytes())?;
            s.write_all(b)?;
        }
        Body::Sse { events, cut } => {
            head.push_str("Transfer-Encoding: chunked\r\n\r\n");
            s.write_all(head.as_bytes())?;
            s.flush()?;
            for (i, (delay, e)) in events.iter().enumerate() {
                if let Some((_, gate)) = reply.gate.as_ref().filter(|(n, _)| *n == i) {
                    gate.wait();
                }
                if !delay.is_zero() {
                    std::thread::sleep(*delay);
                }
                write!(s, "{:x}\r\n", e.len())?;
                s.write_all(e)?;
                s.write_all(b"\r\n")?;
                s.flush()?;
            }
            match cut {
                Some(partial) => {
                    if !partial.is_empty() {
                        // Announce more than is sent: the chunk never completes.
                        write!(s, "{:x}\r\n", partial.len() + 100)?;
                        s.write_all(partial)?;
                        s.flush()?;
                    }
                    s.shutdown(std::net::Shutdown::Both)?;
                    return Ok(());
                }
                None => s.write_all(b"0\r\n\r\n")?,
            }
        }
    }
    s.flush()?;
    // Let the client read to the end before the socket goes away.
    let _ = s.shutdown(std::net::Shutdown::Write);
    let mut sink = [0u8; 64];
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let _ = s.read(&mut sink);
    Ok(())
}

/// `name`, or else the first of `<name>-2`, `<name>-3`, ... not yet in
/// `taken`; taken from then on.
fn first_free(taken: &Mutex<BTreeSet<String>>, name: &str) -> String {
    let mut taken = taken.lock().unwrap_or_else(|e| e.into_inner());
    (1..)
        .map(|n| match n {
            1 => name.to_string(),
            n => format!("{name}-{n}"),
        })
        .find(|free| taken.insert(free.clone()))
        .unwrap()
}

/// The events a program wrote (stdout), one JSON object a line.
pub fn events(stdout: &(impl AsRef<[u8]> + ?Sized)) -> Vec<Value> {
    String::from_utf8_lossy(stdout.as_ref())
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// The events of type `t`.
pub fn of_type<'a>(ev: &'a [Value], t: &str) -> Vec<&'a Value> {
    ev.iter().filter(|e| e["type"] == t).collect()
}

/// The type of each event.
pub fn kinds(ev: &[Value]) -> Vec<&str> {
    ev.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

/// A fresh, empty directory for one test (its files, XDG homes, a
/// terminal's socket), kept after the run under
/// target/tmp/it-<process id>/<name>. Every test of every area runs in
/// this one process, so a name asked for again gets a directory of its
/// own all the same (`<name>-2`, `<name>-3`): no two tests share one.
pub fn temp_dir(name: &str) -> PathBuf {
    static TAKEN: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("it-{}", std::process::id()))
        .join(first_free(&TAKEN, name));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/gemini")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The API key the tests give gem-ask; it must never show up in output.
pub const KEY: &str = "test-key-5f3a9c";

/// Every variable through which the caller's environment could steer
/// gem-ask at a real endpoint or session; tests start without them.
pub const GEMINI_ENV: &[&str] = &[
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GEMINI_BASE_URL",
    "GOOGLE_GEMINI_BASE_URL",
    "GEMINI_MODEL",
    "GEMINI_SESSION_ID",
];

/// gem-ask pointed at `server`, with [`KEY`], sessions under `data_home`
/// and millisecond retry backoff.
pub fn gem_ask_cmd(server: &FakeGemini, data_home: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::cargo::cargo_bin_cmd!("gem-ask");
    for k in GEMINI_ENV {
        cmd.env_remove(k);
    }
    cmd.env("GEMINI_API_KEY", KEY)
        .env("GEMINI_BASE_URL", &server.url)
        .env("XDG_DATA_HOME", data_home)
        // No config.toml of the developer's (MCP servers, permissions).
        .env("XDG_CONFIG_HOME", data_home)
        .env("GEMLINE_RETRY_BASE_MS", "1");
    cmd
}

/// [`gem_ask_cmd`] as a plain `Command`, for tests that spawn it and
/// signal it; stdin is empty.
pub fn gem_ask_std_cmd(server: &FakeGemini, data_home: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("gem-ask"));
    for k in GEMINI_ENV {
        cmd.env_remove(k);
    }
    cmd.env("GEMINI_API_KEY", KEY)
        .env("GEMINI_BASE_URL", &server.url)
        .env("XDG_DATA_HOME", data_home)
        .env("GEMLINE_RETRY_BASE_MS", "1")
        .stdin(std::process::Stdio::null());
    cmd
}

/// Runs a command that must succeed and hands back what it wrote.
pub trait Succeeds {
    fn succeeds(&mut self) -> std::process::Output;
}

impl Succeeds for assert_cmd::Command {
    fn succeeds(&mut self) -> std::process::Output {
        self.assert().success().get_output().clone()
    }
}

/// One of the filters run as a user would: a clean environment (a UTF-8
/// locale only), the crate's directory, `stdin` as input. Exit code,
/// stdout and stderr.
pub fn filter(mut cmd: assert_cmd::Command, args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = cmd
        .env_clear()
        .env("LANG", "C.UTF-8")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

/// A checking tool that a `.ci/setup-*.sh` script installs under
/// target/ (node packages, say): `installed` says whether it is there.
/// Under CI=true a missing install is a failure (.ci/run must run the
/// script first); elsewhere the script is tried (by one test at a time),
/// and when the tool is still missing the check is skipped with a loud
/// note on stderr (None).
pub fn setup_tool(setup: &str, what: &str, installed: impl Fn() -> bool) -> Option<()> {
    // One install at a time in the one test process: a second test of the
    // same tool waits for the first's install rather than finding it half
    // done (two mermaid tests did, on a clean target).
    static SETUP: Mutex<()> = Mutex::new(());
    let _one = SETUP.lock().unwrap_or_else(|p| p.into_inner());
    if installed() {
        return Some(());
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(
        !ci,
        "{what} is missing: .ci/run must run {setup} before the tests"
    );
    let _ = std::process::Command::new(root.join(setup))
        .stdout(std::process::Stdio::null())
        .status();
    if installed() {
        return Some(());
    }
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED: {what} is not installed and {setup} could not install it: \
         this output was NOT checked by it"
    );
    None
}

/// Runs a node checker (`tests/*/check.mjs`, which prints a line per
/// item and closes with `N passed, N failed`) on `files` with the
/// node_modules in `modules`; asserts it passed exactly `expect` items.
pub fn node_check(script: &str, modules: &Path, files: &[PathBuf], expect: usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("node")
        .arg(root.join(script))
        .arg("--modules")
        .arg(modules)
        .args(files)
        .output()
        .expect("node runs (the .ci/setup-*.sh scripts install it)");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{script} refused some:\n{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        report.lines().last().unwrap_or_default(),
        format!("{expect} passed, 0 failed"),
        "{report}"
    );
}

/// The example streams (`*.jsonl`) of these testdata folders, each
/// folder's sorted by name.
pub fn example_files(dirs: &[&str]) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut files = Vec::new();
    for dir in dirs {
        let mut in_dir: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        in_dir.sort();
        assert!(!in_dir.is_empty(), "no examples in testdata/{dir}");
        files.extend(in_dir);
    }
    files
}

/// Proptest cases to run: `PROPTEST_CASES` when set (a deeper run, as in
/// `PROPTEST_CASES=2000 cargo test --test it NAME`), else the test's default.
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
