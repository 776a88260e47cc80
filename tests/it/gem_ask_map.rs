//! `gem-ask map` against a fake server that answers by the record: the
//! answer is the prompt's text reversed, so concurrency cannot hide a
//! mix-up; a prompt holding `fail` always gets a 500, one holding `busy`
//! a 429 on its first attempt, one holding `storm` on its first four (a
//! server refusing for a while), one holding `slow` waits before
//! answering; with a schema, one holding `prose` is answered in prose; a
//! prompt over 1 MiB gets its length. A countTokens request gets the
//! prompt's length (and is not counted among the requests).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use crate::support::KEY;

/// A threaded fake: each connection on its own thread, answered by the
/// prompt it carries.
pub(crate) struct ByRecord {
    url: String,
    requests: Arc<AtomicUsize>,
    seen_busy: Arc<Mutex<std::collections::HashSet<String>>>,
    /// Each request's prompt and the parts before it (its attachments).
    parts: Parts,
}

type Parts = Arc<Mutex<Vec<(String, Vec<Value>)>>>;

/// A request's prompt: its last part's text (attachments come before it).
pub(crate) fn prompt_of(contents: &Value) -> (String, Vec<Value>) {
    let mut parts = contents[0]["parts"].as_array().cloned().unwrap_or_default();
    let last = parts.pop().unwrap_or_default();
    (last["text"].as_str().unwrap_or("").to_string(), parts)
}

impl ByRecord {
    pub(crate) fn start() -> ByRecord {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(AtomicUsize::new(0));
        let seen_busy = Arc::new(Mutex::new(std::collections::HashSet::new()));
        let parts = Parts::default();
        let (r, b, p) = (requests.clone(), seen_busy.clone(), parts.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (r, b, p) = (r.clone(), b.clone(), p.clone());
                std::thread::spawn(move || answer(stream, &r, &b, &p));
            }
        });
        ByRecord {
            url,
            requests,
            seen_busy,
            parts,
        }
    }

    /// Each generateContent request's prompt and attachment parts.
    pub(crate) fn parts(&self) -> Vec<(String, Vec<Value>)> {
        self.parts.lock().unwrap().clone()
    }

    pub(crate) fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

fn answer(
    stream: TcpStream,
    count: &AtomicUsize,
    busy: &Mutex<std::collections::HashSet<String>>,
    seen: &Parts,
) {
    let mut r = BufReader::new(&stream);
    let mut len = 0usize;
    let mut line = String::new();
    let mut request_line = None;
    loop {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let l = line.trim_end();
        if request_line.is_none() {
            request_line = Some(l.to_string());
            continue;
        }
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            len = v.trim().parse().unwrap();
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).unwrap();
    let req: Value = serde_json::from_slice(&body).unwrap();
    if request_line.is_some_and(|l| l.contains(":countTokens")) {
        return count_tokens(&stream, &req, &body);
    }
    count.fetch_add(1, Ordering::SeqCst);
    let (prompt, parts) = prompt_of(&req["contents"]);
    seen.lock().unwrap().push((prompt.clone(), parts));
    if prompt.contains("slow") {
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    let (status, payload, ctype) = if prompt.contains("fail") {
        (
            "500 Internal Server Error",
            r#"{"error":{"code":500,"message":"boom","status":"INTERNAL"}}"#.to_string(),
            "application/json",
        )
    } else if (prompt.contains("busy") && busy.lock().unwrap().insert(prompt.clone()))
        || (prompt.contains("storm")
            && (0..4).any(|n| busy.lock().unwrap().insert(format!("{prompt}#{n}"))))
    {
        (
            "429 Too Many Requests",
            r#"{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}"#
                .to_string(),
            "application/json",
        )
    } else {
        let schema = req["generationConfig"]["responseJsonSchema"].is_object();
        let text: String = if schema && !prompt.contains("prose") {
            json!({"label": prompt.len().to_string()}).to_string()
        } else if prompt.len() > 1 << 20 {
            // A model does not echo a huge record back.
            format!("long: {} bytes", prompt.len())
        } else {
            prompt.chars().rev().collect()
        };
        let chunk = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
            "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}});
        (
            "200 OK",
            format!("data: {chunk}\r\n\r\n"),
            "text/event-stream",
        )
    };
    let mut w = &stream;
    let _ = write!(
        w,
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{payload}",
        payload.len()
    );
}

/// A countTokens request: its body kept for tests/validate_requests.sh,
/// the count the prompt's length in bytes.
fn count_tokens(stream: &TcpStream, req: &Value, body: &[u8]) {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = crate::support::capture_dir();
    let n = N.fetch_add(1, Ordering::SeqCst) + 1;
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join(format!("map-count-{n}.countTokens.json")), body);
    let (prompt, _) = prompt_of(&req["generateContentRequest"]["contents"]);
    let payload = json!({"totalTokens": prompt.len()}).to_string();
    let mut w = stream;
    let _ = write!(
        w,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{payload}",
        payload.len()
    );
}

pub(crate) fn map_cmd(server: &ByRecord, home: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("gem-ask"));
    for k in crate::support::GEMINI_ENV {
        cmd.env_remove(k);
    }
    cmd.env("GEMINI_API_KEY", KEY)
        .env("GEMINI_BASE_URL", &server.url)
        .env("XDG_DATA_HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("GEMLINE_RETRY_BASE_MS", "1");
    cmd
}

pub(crate) fn lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub(crate) fn run(cmd: &mut std::process::Command, stdin: &str) -> std::process::Output {
    spawn(cmd, stdin).wait_with_output().unwrap()
}

/// `cmd` started with `stdin` written to it, its output piped.
pub(crate) fn spawn(cmd: &mut std::process::Command, stdin: &str) -> std::process::Child {
    let mut child = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child
}

#[test]
fn records_come_back_in_order_each_with_its_own_answer() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let input: String = (0..40)
        .map(|i| {
            let t = if i % 3 == 0 { "slow" } else { "fast" };
            format!("{{\"id\": {i}, \"t\": \"{t}{i}\"}}\n")
        })
        .collect();
    let out = run(
        map_cmd(&server, home.path()).args(["map", "-j", "8", "item {t}"]),
        &input,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 40);
    for (i, l) in got.iter().enumerate() {
        assert_eq!(l["id"], i);
        let prompt = format!("item {}", l["t"].as_str().unwrap());
        let want: String = prompt.chars().rev().collect();
        assert_eq!(l["answer"], want.as_str());
        assert!(l["_key"].as_str().unwrap().len() == 32);
    }
}

#[test]
fn a_failed_record_is_a_line_with_error_and_the_run_goes_on() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let input = "title\nok one\nfail two\nbusy three\n{bad\n";
    let out = run(
        map_cmd(&server, home.path()).args(["--retries", "1", "map", "--format", "csv", "{title}"]),
        input,
    );
    assert_eq!(
        out.status.code(),
        Some(10),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 4);
    assert_eq!(got[0]["answer"], "eno ko");
    assert_eq!(got[1]["error"]["type"], "api");
    assert!(got[1].get("answer").is_none());
    assert_eq!(got[2]["answer"], "eerht ysub", "a 429 is retried");
    // `{bad` is a record of CSV (one field): the template fills it.
    assert_eq!(got[3]["answer"], "dab{");
}

#[test]
fn missing_fields_and_bad_lines_are_named_and_counted() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let input = "{\"a\": \"x\"}\nnot json\n{\"b\": 1}\n[1]\n{\"a\": \"y\"}\n";
    let out = run(
        map_cmd(&server, home.path()).args(["map", "say {a}"]),
        input,
    );
    assert_eq!(out.status.code(), Some(10));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stdin:2: not JSON"), "{err}");
    assert!(err.contains("stdin:4: not a JSON object"), "{err}");
    assert!(err.contains("2 bad input lines"), "{err}");
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["answer"], "x yas");
    assert_eq!(got[1]["error"]["type"], "template");
    assert!(
        got[1]["error"]["message"]
            .as_str()
            .unwrap()
            .contains("stdin:3")
    );
    assert_eq!(got[2]["answer"], "y yas");
    assert_eq!(server.requests(), 2);
}

#[test]
fn a_template_naming_no_field_gets_the_record_and_an_unclosed_brace_is_usage() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let out = run(
        map_cmd(&server, home.path()).args(["map", "Classify:"]),
        "hello\n",
    );
    assert!(out.status.success());
    let got = lines(&out.stdout);
    let want: String = "Classify:\n\n{\"line\":\"hello\"}".chars().rev().collect();
    assert_eq!(got[0]["answer"], want.as_str());
    let out = run(
        map_cmd(&server, home.path()).args(["map", "x {a"]),
        "hello\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(server.requests(), 1);
}

#[test]
fn a_rerun_with_output_sends_only_what_is_missing() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("out.jsonl");
    let input: String = (0..20).map(|i| format!("r{i}\n")).collect();
    let first: String = (0..10).map(|i| format!("r{i}\n")).collect();
    let out = run(
        map_cmd(&server, home.path()).args(["map", "-o", file.to_str().unwrap(), "{line}"]),
        &first,
    );
    assert!(out.status.success());
    // A torn last line, as a SIGKILL mid-write leaves it.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap()
        .write_all(b"{\"line\":\"r10\",\"ans")
        .unwrap();
    assert_eq!(server.requests(), 10);
    let out = run(
        map_cmd(&server, home.path()).args(["map", "-o", file.to_str().unwrap(), "{line}"]),
        &input,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.requests(), 20, "only the missing ten were sent");
    let got = lines(&std::fs::read(&file).unwrap());
    let names: Vec<&str> = got.iter().map(|l| l["line"].as_str().unwrap()).collect();
    let want: Vec<String> = (0..20).map(|i| format!("r{i}")).collect();
    assert_eq!(names, want, "each record once");
}

#[test]
fn dry_run_sends_nothing_and_shows_the_request() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let out = run(
        map_cmd(&server, home.path()).args(["--system", "be brief", "map", "--dry-run", "{line}"]),
        "a\nb\n",
    );
    assert!(out.status.success());
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 2);
    assert_eq!(got[1]["request"]["contents"][0]["parts"][0]["text"], "b");
    let system = got[1]["request"]["systemInstruction"]["parts"][0]["text"].as_str();
    assert!(system.unwrap().contains("be brief"));
    assert_eq!(server.requests(), 0);
    let _ = &server.seen_busy;
}

#[test]
fn thinking_goes_into_each_records_request() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let out = run(
        map_cmd(&server, home.path()).args(["--thinking", "low", "map", "--dry-run", "{line}"]),
        "a\nb\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in lines(&out.stdout) {
        let config = &line["request"]["generationConfig"]["thinkingConfig"];
        assert!(config.is_object(), "no thinkingConfig in {line}");
    }
    assert_eq!(server.requests(), 0);
}

#[test]
fn with_a_schema_the_answer_fields_join_the_record_and_a_clash_is_usage() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let input = "title,body\ncrash on start,it crashes\nslow build,takes long\n";
    let out = run(
        map_cmd(&server, home.path()).args([
            "--schema",
            "label",
            "map",
            "--format",
            "csv",
            "Label: {title}",
        ]),
        input,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["title"], "crash on start");
    assert_eq!(
        got[0]["label"], "21",
        "the fake's label is the prompt's length"
    );
    assert!(got[0].get("answer").is_none());
    let out = run(
        map_cmd(&server, home.path())
            .args(["--schema", "title", "map", "--format", "csv", "{body}"]),
        input,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stdin:2") && err.contains("title"), "{err}");
    assert_eq!(server.requests(), 2, "no request after the clash");
}

#[test]
fn a_run_killed_half_way_then_rerun_answers_each_record_exactly_once() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("out.jsonl");
    let input_path = home.path().join("in.txt");
    let input: String = (0..24).map(|i| format!("slow {i}\n")).collect();
    std::fs::write(&input_path, &input).unwrap();
    let args = [
        "map",
        "-j",
        "2",
        "-o",
        file.to_str().unwrap(),
        "{line}",
        input_path.to_str().unwrap(),
    ];
    let mut child = map_cmd(&server, home.path())
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for some lines, however long that takes, then SIGKILL.
    while std::fs::read_to_string(&file).map_or(0, |t| t.lines().count()) < 4 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = lines_of(&file);
    let sent_before = server.requests();
    let out = map_cmd(&server, home.path())
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = lines_of(&file);
    let mut names: Vec<String> = after
        .iter()
        .map(|l| l["line"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    let mut want: Vec<String> = (0..24).map(|i| format!("slow {i}")).collect();
    want.sort();
    assert_eq!(names, want, "each record exactly once");
    // At most the two in flight at the kill are asked again.
    assert!(server.requests() - sent_before <= 24 - before.len() + 2);
}

fn lines_of(path: &Path) -> Vec<Value> {
    let text = std::fs::read(path).unwrap();
    let whole = text.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    lines(&text[..whole])
}

#[test]
fn unordered_and_rate_still_answer_every_record_once() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let input: String = (0..12)
        .map(|i| format!("{}{i}\n", if i == 0 { "slow" } else { "r" }))
        .collect();
    let out = run(
        map_cmd(&server, home.path()).args(["map", "--unordered", "--rate", "6000", "{line}"]),
        &input,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut got: Vec<String> = lines(&out.stdout)
        .iter()
        .map(|l| l["line"].as_str().unwrap().to_string())
        .collect();
    got.sort();
    let mut want: Vec<String> = input.lines().map(str::to_string).collect();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn with_cache_a_second_run_is_answered_without_requests() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let first = run(
        map_cmd(&server, home.path()).args(["map", "--cache", "{line}"]),
        "a\nb\nc\n",
    );
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert_eq!(server.requests(), 3);
    let again = run(
        map_cmd(&server, home.path()).args(["map", "--cache", "{line}"]),
        "a\nb\nc\nd\n",
    );
    assert!(again.status.success());
    assert_eq!(server.requests(), 4, "only d was sent");
    let got = lines(&again.stdout);
    assert_eq!(got[..3], lines(&first.stdout)[..]);
    assert_eq!(got[3]["answer"], "d");
}
