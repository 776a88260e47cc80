use serde_json::json;

use super::*;

fn no_guard() -> Guard {
    Box::new(|_| None)
}

#[test]
fn since_takes_dates_moments_and_times_back() {
    let now = 1_764_000_000; // 2025-11-24T16:00:00Z
    assert_eq!(
        since("2026-11-20", now).unwrap(),
        "2026-11-20T00:00:00.000Z"
    );
    assert_eq!(
        since("2026-11-20T09:30:00Z", now).unwrap(),
        "2026-11-20T09:30:00.000Z"
    );
    assert_eq!(since("1d", now).unwrap(), "2025-11-23T16:00:00.000Z");
    assert_eq!(since("2w", now).unwrap(), "2025-11-10T16:00:00.000Z");
    assert!(since("7x", now).unwrap_err().contains("7d"));
    assert!(since("", now).is_err());
    assert!(since("yesterday", now).is_err());
}

fn line(v: serde_json::Value) -> String {
    format!("{v}\n")
}

#[test]
fn a_session_reads_as_its_summary_and_texts() {
    let mut f = line(
        json!({"record":"meta","model":"gemini-x","created":"2026-11-20T10:00:00.000Z","version":1}),
    );
    f += &line(
        json!({"record":"content","timestamp":"2026-11-20T10:00:01.000Z",
        "content":{"role":"user","parts":[{"text":"run the tests"}]}}),
    );
    f += &line(
        json!({"record":"content","timestamp":"2026-11-20T10:00:02.000Z",
        "content":{"role":"model","parts":[{"text":"hmm","thought":true},
            {"functionCall":{"name":"run_shell_command","args":{"command":"cargo test"}}}]}}),
    );
    f += &line(
        json!({"record":"content","timestamp":"2026-11-20T10:00:03.000Z",
        "content":{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command",
            "response":{"error":"denied by policy"}}}]}}),
    );
    f += &line(
        json!({"record":"content","timestamp":"2026-11-20T10:00:04.000Z",
        "content":{"role":"model","parts":[{"text":"It was denied."}]}}),
    );
    f += &line(
        json!({"record":"turn","tokens":30,"cost_usd":0.5,"timestamp":"2026-11-20T10:00:05.000Z"}),
    );
    let (s, items) = read::read("a", f.as_bytes(), &no_guard());
    assert_eq!(s.created, "2026-11-20T10:00:00.000Z");
    assert_eq!(s.updated, "2026-11-20T10:00:05.000Z");
    assert_eq!((s.turns, s.tool_calls, s.tokens), (1, 1, 30));
    assert_eq!(s.cost_usd, Some(0.5));
    assert_eq!(s.status, "error");
    assert_eq!(s.prompt, "run the tests");
    assert_eq!(s.tools, "run_shell_command");
    let kinds: Vec<&str> = items.iter().map(|i| i.kind).collect();
    assert_eq!(kinds, ["prompt", "tool_call", "tool_result", "answer"]);
    assert!(!items.iter().any(|i| i.text.contains("hmm")));

    // A turn not closed, or a line cut short: incomplete.
    let open = f.clone()
        + &line(json!({"record":"content","content":{"role":"user","parts":[{"text":"more"}]}}));
    assert_eq!(
        read::read("a", open.as_bytes(), &no_guard()).0.status,
        "incomplete"
    );
    let cut = f + "{\"record\":\"cont";
    assert_eq!(
        read::read("a", cut.as_bytes(), &no_guard()).0.status,
        "incomplete"
    );
}

#[test]
fn the_guard_redacts_what_is_kept_and_shown() {
    let f = line(json!({"record":"meta","model":"m","created":"2026-11-20T10:00:00.000Z"}))
        + &line(
            json!({"record":"content","timestamp":"2026-11-20T10:00:01.000Z",
            "content":{"role":"user","parts":[{"text":"my key is SECRET123456"}]}}),
        )
        + &line(json!({"record":"turn","tokens":1}));
    let guard: Guard = Box::new(|t: &str| {
        t.contains("SECRET123456")
            .then(|| t.replace("SECRET123456", "[REDACTED]"))
    });
    let (s, items) = read::read("a", f.as_bytes(), &guard);
    assert_eq!(s.prompt, "my key is [REDACTED]");
    assert_eq!(items[0].text, "my key is [REDACTED]");
    let ev = show::events(f.as_bytes(), &s, &guard);
    assert!(!serde_json::to_string(&ev).unwrap().contains("SECRET123456"));
}

#[test]
fn fts_queries_quote_every_word() {
    assert_eq!(
        query::fts_query("cargo test").unwrap(),
        "\"cargo\" \"test\""
    );
    assert_eq!(query::fts_query("a\"b OR").unwrap(), "\"a\"\"b\" \"OR\"");
    assert!(query::fts_query("  ").is_none());
}
