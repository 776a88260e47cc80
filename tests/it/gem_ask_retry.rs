//! gem-ask's failures and retries against the fake Gemini server: HTTP
//! statuses, cut streams, timeouts, safety blocks, each with its exit code
//! and `result` error.

use crate::support;

use std::time::Duration;

use crate::support::ask::*;
use crate::support::{FakeGemini, KEY, Reply, Succeeds, fixture, kinds, temp_dir};
use serde_json::json;

#[test]
fn a_key_echoed_by_the_server_is_redacted() {
    let echo = format!(
        r#"{{"error":{{"code":500,"message":"upstream rejected x-goog-api-key: {KEY}","status":"INTERNAL"}}}}"#
    );
    let server = FakeGemini::start(
        "key-echo",
        vec![Reply::json(500, &echo), Reply::json(500, &echo)],
    );
    let home = temp_dir("key-echo");
    let out = gem_ask(&server, &home)
        .args(["--retries", "1", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stdout.contains(KEY) && !stderr.contains(KEY),
        "{stdout}{stderr}"
    );
    let ev = stable_events(&out.stdout);
    assert_eq!(
        ev.last().unwrap()["error"]["message"],
        "HTTP 500 INTERNAL: upstream rejected x-goog-api-key: [REDACTED]"
    );
    assert_eq!(
        stderr,
        "gem-ask: error: HTTP 500 INTERNAL: upstream rejected x-goog-api-key: [REDACTED]\n"
    );
}

#[test]
fn rate_limited_then_success() {
    let body =
        fixture("14-error-429-resource-exhausted.response.json").replace("\"26s\"", "\"0.05s\"");
    let server = FakeGemini::start(
        "retry-429",
        vec![
            Reply::json(429, &body),
            Reply::sse(&fixture(
                "02-text-stream-gemini-2.5-flash-single-chunk.response.sse",
            )),
        ],
    );
    let home = temp_dir("retry-429");
    let out = gem_ask(&server, &home).arg("hi").succeeds();
    let ev = stable_events(&out.stdout);
    assert_eq!(
        kinds(&ev),
        ["init", "message", "retry", "message", "result"]
    );
    assert_eq!(
        ev[2],
        json!({"type":"retry","attempt":1,"delay_ms":50,"reason":"HTTP 429 RESOURCE_EXHAUSTED"})
    );
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[0], bodies[1]);
}

#[test]
fn max_wait_bounds_the_waiting() {
    // The server asks for 26 s (the recorded RetryInfo); --max-wait 5 says
    // no. A second 429 asking for 3 s fits once, then the budget is spent.
    let e26 = fixture("14-error-429-resource-exhausted.response.json");
    let e3 = e26.replace("\"26s\"", "\"3s\"");
    let server = FakeGemini::start(
        "max-wait",
        vec![
            Reply::json(429, &e26),
            Reply::json(429, &e3),
            Reply::json(429, &e3),
        ],
    );
    let home = temp_dir("max-wait");
    let out = gem_ask(&server, &home)
        .args(["--max-wait", "5", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    let msg = ev[2]["error"]["message"].as_str().unwrap();
    assert!(msg.starts_with("HTTP 429 RESOURCE_EXHAUSTED: "), "{msg}");
    assert!(
        msg.ends_with(" (not retried: the server asked for 26s; waiting would pass --max-wait 5s)"),
        "{msg}"
    );
    assert_eq!(server.requests().len(), 1);
    // 3 s fits in 5 once; the second 3 s would make 6.
    let out = gem_ask(&server, &home)
        .args(["--max-wait", "5", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "retry", "result"]);
    assert_eq!(ev[2]["delay_ms"], 3000);
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn bad_request_is_not_retried() {
    let server = FakeGemini::start(
        "no-retry-400",
        vec![Reply::json(
            400,
            &fixture("15-error-400-api-key-invalid.response.json"),
        )],
    );
    let home = temp_dir("no-retry-400");
    let out = gem_ask(&server, &home)
        .arg("hi")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(
        ev[2]["error"],
        json!({"type":"api_error","message":"HTTP 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key."})
    );
    assert_eq!(server.requests().len(), 1);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("gem-ask: error: HTTP 400 INVALID_ARGUMENT")
    );
    // A failed turn leaves no session behind.
    let id = session_id(&out.stdout);
    // (No content is kept; a stop record says the run stopped, for gem-ask log.)
    let kept = crate::gem_ask_log_runs::kept(&home, &id);
    assert_eq!(kept, (0, Some("error".to_string())));
}

#[test]
fn unauthorized_forbidden_and_not_found_are_not_retried() {
    for (name, status, file, code) in [
        (
            "no-retry-401",
            401,
            "10-error-401-vertex-apikey.response.json",
            4,
        ),
        (
            "no-retry-403",
            403,
            "19-error-403-no-credentials.response.json",
            4,
        ),
        // A model the API does not serve has its own exit code.
        (
            "no-retry-404",
            404,
            "16-error-404-model-not-found.response.json",
            9,
        ),
    ] {
        let server = FakeGemini::start(name, vec![Reply::json(status, &fixture(file))]);
        let home = temp_dir(name);
        gem_ask(&server, &home).arg("hi").assert().code(code);
        assert_eq!(server.requests().len(), 1, "{name}");
    }
}

#[test]
fn server_errors_exhaust_the_retries() {
    let e500 = fixture("18-error-500-internal.response.json");
    let server = FakeGemini::start(
        "exhausted-500",
        vec![
            Reply::json(500, &e500),
            Reply::json(503, &fixture("17-error-503-unavailable.response.json"))
                .header("Retry-After", "0"),
            Reply::json(500, &e500),
        ],
    );
    let home = temp_dir("exhausted-500");
    let out = gem_ask(&server, &home)
        .args(["--retries", "2", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "retry", "retry", "result"]);
    assert_eq!(ev[2]["reason"], "HTTP 500 INTERNAL");
    assert_eq!(ev[3]["reason"], "HTTP 503 UNAVAILABLE");
    assert_eq!(ev[3]["delay_ms"], 0);
    assert_eq!(ev[4]["error"]["type"], "api_error");
    assert!(
        ev[4]["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("HTTP 500 INTERNAL: An internal error")
    );
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn connection_refused_is_retried_then_fails() {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let server = FakeGemini::start("refused", vec![]);
    let home = temp_dir("refused");
    let out = gem_ask(&server, &home)
        .env("GEMINI_BASE_URL", format!("http://127.0.0.1:{port}"))
        .args(["--retries", "2", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "retry", "retry", "result"]);
    assert_eq!(ev[4]["error"]["type"], "connection_error");
    // The message names where it tried.
    let message = ev[4]["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("connection failed: 127.0.0.1:{port}: ")),
        "{message}"
    );
}

#[test]
fn stream_cut_after_text_is_an_error_not_a_retry() {
    let server = FakeGemini::start(
        "cut",
        vec![
            Reply::sse(&fixture(
                "07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse",
            ))
            .cut_after(1, "data: {\"candidates\": [{\"content\": {\"par"),
        ],
    );
    let home = temp_dir("cut");
    let out = gem_ask(&server, &home)
        .arg("hi")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "message", "result"]);
    assert_eq!(ev[2]["content"], "The sum of ");
    assert_eq!(ev[3]["status"], "error");
    assert_eq!(ev[3]["error"]["type"], "stream_interrupted");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn stream_cut_before_any_text_is_retried() {
    let sse = fixture("07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse");
    let server = FakeGemini::start(
        "cut-early",
        vec![
            Reply::sse(&sse).cut_after(0, "data: {\"cand"),
            Reply::sse(&sse),
        ],
    );
    let home = temp_dir("cut-early");
    let out = gem_ask(&server, &home).arg("hi").succeeds();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev)[2], "retry");
    assert_eq!(
        ev[2]["reason"].as_str().unwrap().split(':').next().unwrap(),
        "the response stream ended early"
    );
    assert_eq!(
        assistant_text(&ev),
        "The sum of 2 and 3 is 5.\nThe sum of 4 and 5 is 9.\nThe sum of 6 and 7 is 13."
    );
}

#[test]
fn error_object_inside_the_stream() {
    let err = "data: {\"error\":{\"code\":503,\"message\":\"The model is overloaded. Please try again later.\",\"status\":\"UNAVAILABLE\"}}\r\n\r\n";
    let text = fixture("07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse");
    let first = support::split_events(&text)[0].clone();
    let server = FakeGemini::start(
        "in-stream-error",
        vec![
            Reply::sse(err),
            Reply::sse(&text),
            Reply::sse(&format!("{first}{err}")),
        ],
    );
    let home = temp_dir("in-stream-error");
    // Before any text: retried like a 503.
    let out = gem_ask(&server, &home).arg("hi").succeeds();
    let ev = stable_events(&out.stdout);
    assert_eq!(ev[2]["type"], "retry");
    assert_eq!(ev[2]["reason"], "HTTP 503 UNAVAILABLE");
    // After text: an API error.
    let out = gem_ask(&server, &home)
        .arg("hi")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "message", "result"]);
    assert_eq!(
        ev[3]["error"]["message"],
        "HTTP 503 UNAVAILABLE: The model is overloaded. Please try again later."
    );
}

#[test]
fn safety_blocks_have_their_own_exit_code() {
    let server = FakeGemini::start(
        "safety",
        vec![
            Reply::sse_from_json(&fixture("22-safety-finishReason-SAFETY.response.json")),
            Reply::sse_from_json(&fixture("23-safety-promptFeedback-blocked.response.json")),
        ],
    );
    let home = temp_dir("safety");
    let out = gem_ask(&server, &home)
        .arg("x")
        .assert()
        .code(5)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(
        ev.last().unwrap()["error"],
        json!({"type":"blocked","message":"blocked by safety filters: the answer was stopped (finishReason SAFETY, category HARM_CATEGORY_SEXUALLY_EXPLICIT)"})
    );
    let out = gem_ask(&server, &home)
        .arg("x")
        .assert()
        .code(5)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(
        ev.last().unwrap()["error"]["message"],
        "blocked by safety filters: the prompt was blocked (blockReason PROHIBITED_CONTENT)"
    );
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn redirects_are_not_followed() {
    let server = FakeGemini::start(
        "redirect",
        vec![Reply::json(307, "{}").header("Location", "http://127.0.0.1:9/steal")],
    );
    let home = temp_dir("redirect");
    let out = gem_ask(&server, &home)
        .arg("hi")
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(ev.last().unwrap()["error"]["message"], "HTTP 307: {}");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn read_timeout_cuts_a_silent_server_not_a_slow_stream() {
    let sse = fixture("07-parallel-functionResponse-stream-gemini-2.5-flash.response.sse");
    // Headers, then silence far longer than --read-timeout. (The fake
    // server answers one connection at a time: the slow stream below gets
    // a server of its own.)
    let silent = FakeGemini::start(
        "read-timeout",
        vec![Reply::sse(&sse).delay_each(Duration::from_secs(60))],
    );
    // Each event well within the timeout (300 ms gaps under 3 s, room
    // for a loaded machine), the whole stream (13 gaps) beyond it.
    let pieces: String = (1..=13)
        .map(|i| {
            let mut cand = json!({"content":{"role":"model","parts":[{"text": format!("{i} ")}]}});
            if i == 13 {
                cand["finishReason"] = "STOP".into();
            }
            format!("data: {}\r\n\r\n", json!({"candidates":[cand]}))
        })
        .collect();
    let slow = FakeGemini::start(
        "read-timeout-slow",
        vec![Reply::sse(&pieces).delay_each(Duration::from_millis(300))],
    );
    let home = temp_dir("read-timeout");
    let out = gem_ask(&silent, &home)
        .args(["--read-timeout", "1", "--retries", "0", "hi"])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    assert_eq!(kinds(&ev), ["init", "message", "result"]);
    assert_eq!(
        ev[2]["error"],
        json!({"type":"stream_interrupted","message":"the response stream ended early: no data for 1s (--read-timeout)"})
    );
    let out = gem_ask(&slow, &home)
        .args(["--read-timeout", "3", "--retries", "0", "hi"])
        .succeeds();
    assert_eq!(
        assistant_text(&stable_events(&out.stdout)),
        "1 2 3 4 5 6 7 8 9 10 11 12 13 "
    );
}

#[test]
fn connect_timeout_gives_up_on_a_peer_that_never_accepts() {
    // A listener with a backlog of 0 that never accepts: once its queue is
    // full the kernel drops further SYNs, so connecting hangs.
    // Close-on-exec: no program another test starts meanwhile keeps it.
    // SAFETY: plain socket calls on a descriptor owned by this test.
    let (fd, port) = unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        assert!(fd >= 0);
        let mut addr: libc::sockaddr_in = std::mem::zeroed();
        addr.sin_family = libc::AF_INET as libc::sa_family_t;
        addr.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
        let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        assert_eq!(
            libc::bind(fd, &addr as *const _ as *const libc::sockaddr, len),
            0
        );
        assert_eq!(libc::listen(fd, 0), 0);
        let mut bound: libc::sockaddr_in = std::mem::zeroed();
        let mut blen = len;
        libc::getsockname(fd, &mut bound as *mut _ as *mut libc::sockaddr, &mut blen);
        (fd, u16::from_be(bound.sin_port))
    };
    // Fill the accept queue.
    let fillers: Vec<_> = (0..4)
        .filter_map(|_| {
            std::net::TcpStream::connect_timeout(
                &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
                Duration::from_millis(200),
            )
            .ok()
        })
        .collect();
    let server = FakeGemini::start("connect-timeout", vec![]);
    let home = temp_dir("connect-timeout");
    let out = gem_ask(&server, &home)
        .env("GEMINI_BASE_URL", format!("http://127.0.0.1:{port}"))
        .args([
            "--connect-timeout",
            "1",
            "--read-timeout",
            "2",
            "--retries",
            "0",
            "hi",
        ])
        .assert()
        .code(4)
        .get_output()
        .clone();
    let ev = stable_events(&out.stdout);
    let error = &ev.last().unwrap()["error"];
    assert_eq!(error["type"], "connection_error");
    // Whether the kernel drops the SYN (the connect hangs) or completes the
    // handshake anyway (syncookies, a larger backlog: then nothing answers)
    // is not ours to choose; either way the run gives up, naming the limit.
    let hung =
        format!("connection failed: 127.0.0.1:{port}: no connection within 1s (--connect-timeout)");
    let silent =
        format!("connection failed: 127.0.0.1:{port}: no answer within 2s (--read-timeout)");
    let message = error["message"].as_str().unwrap();
    assert!(message == hung || message == silent, "{message}");
    drop(fillers);
    // SAFETY: closing the descriptor opened above.
    unsafe {
        libc::close(fd);
    }
}

#[test]
fn answers_over_16_mib_are_a_stream_error_not_memory() {
    let huge = format!(
        "{{\"candidates\":[{{\"x\":\"{}\"}}]}}",
        "y".repeat(17 << 20)
    );
    let server = FakeGemini::start(
        "huge-answer",
        vec![
            Reply::sse(&format!("data: {huge}\r\n\r\n")),
            Reply::json(200, &huge),
        ],
    );
    let home = temp_dir("huge-answer");
    for expected in [
        "the response stream ended early: a line of the event stream is longer than 16 MiB",
        "the response stream ended early: the JSON answer is longer than 16 MiB",
    ] {
        let out = gem_ask(&server, &home)
            .args(["--no-history", "--retries", "0", "hi"])
            .assert()
            .code(4)
            .get_output()
            .clone();
        let ev = stable_events(&out.stdout);
        assert_eq!(
            ev.last().unwrap()["error"],
            json!({"type": "stream_interrupted", "message": expected})
        );
    }
}
