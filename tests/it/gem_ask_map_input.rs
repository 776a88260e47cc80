//! `gem-ask map`'s bad input, each a clear message naming the record's
//! line where there is one, the good records answered and nothing lost:
//! empty input, a template with an unclosed `{`, a field no record has,
//! invalid UTF-8, a 50 MB record, an answer never matching the schema, a
//! server refusing with 429 for a while; and records sniffed as viz-parse
//! sniffs them (a byte order mark, CRLF, `;` delimiters, a single column).
//! The fake answers by the record (`gem_ask_map::ByRecord`).

use serde_json::Value;

use crate::gem_ask_map::{ByRecord, lines, map_cmd, run};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn message(l: &Value) -> &str {
    l["error"]["message"].as_str().unwrap_or_default()
}

#[test]
fn empty_input_an_unclosed_brace_and_a_field_no_record_has_are_said_plainly() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let out = run(map_cmd(&server, home.path()).args(["map", "say {a}"]), "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert!(
        stderr(&out).contains("no records in stdin (empty input)"),
        "{}",
        stderr(&out)
    );

    let out = run(map_cmd(&server, home.path()).args(["map", "say {a"]), "x\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unclosed '{' at byte 4"),
        "{}",
        stderr(&out)
    );

    let input = "{\"b\": 1}\n\n{\"b\": 2}\n";
    let out = run(
        map_cmd(&server, home.path()).args(["map", "say {a}"]),
        input,
    );
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no record has the field(s) the template names"),
        "{}",
        stderr(&out)
    );
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 2);
    assert_eq!(message(&got[0]), "stdin:1: the record has no field 'a'");
    assert_eq!(message(&got[1]), "stdin:3: the record has no field 'a'");
    assert_eq!(server.requests(), 0);
}

#[test]
fn invalid_utf8_is_named_and_a_50_mb_record_is_answered_between_good_ones() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("in.jsonl");
    let big = "x".repeat(50 << 20);
    let mut input = b"{\"a\": \"one\"}\n{\"a\": \"t\xffo\"}\n".to_vec();
    input.extend_from_slice(format!("{{\"a\": \"{big}\"}}\n{{\"a\": \"four\"}}\n").as_bytes());
    std::fs::write(&file, input).unwrap();
    let out = map_cmd(&server, home.path())
        .args(["map", "say {a}"])
        .arg(&file)
        .output()
        .unwrap();
    let got = lines(&out.stdout);
    let second = got.get(1).map(|l| l["error"].clone());
    assert_eq!(out.status.code(), Some(0), "{} {second:?}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("in.jsonl:2: invalid UTF-8 at byte 8; line skipped"),
        "{err}"
    );
    assert!(err.contains("1 bad input lines"), "{err}");
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["answer"], "eno yas");
    assert_eq!(got[1]["answer"], format!("long: {} bytes", big.len() + 4));
    assert_eq!(got[2]["answer"], "ruof yas");
}

#[test]
fn a_semicolon_csv_with_a_bom_and_crlf_and_a_single_column_are_sniffed_as_viz_parse_does() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    // Named .csv, split at `;` (decimal commas in the values).
    let file = home.path().join("issues.csv");
    let csv = "\u{feff}title;score\r\nlogin broken;1,5\r\nslow build;2,25\r\n";
    std::fs::write(&file, csv).unwrap();
    let out = map_cmd(&server, home.path())
        .args(["map", "{title}={score}"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0]["title"], "login broken");
    assert_eq!(got[0]["answer"], "5,1=nekorb nigol");
    assert_eq!(got[1]["score"], "2,25");
    // The same bytes on stdin, no name to go by: sniffed alike.
    let out = run(map_cmd(&server, home.path()).args(["map", "{title}"]), csv);
    assert_eq!(lines(&out.stdout)[1]["answer"], "dliub wols");
    // A column of labels is lines (viz-parse counts it as a category
    // under a header): its first line is a record too.
    let labels = "bug\nbug\nfeature\nbug\nfeature\nbug\nbug\n";
    let out = run(
        map_cmd(&server, home.path()).args(["map", "{line}"]),
        labels,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 7);
    assert_eq!(got[0]["answer"], "gub");
}

#[test]
fn an_answer_never_matching_the_schema_fails_its_record_naming_the_line() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let out = run(
        map_cmd(&server, home.path()).args(["--schema", "label", "map", "{line}"]),
        "short\nprose please\nlonger one\n",
    );
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["label"], "5");
    assert_eq!(got[1]["error"]["type"], "schema");
    assert!(
        message(&got[1]).starts_with("stdin:2: the answer is not"),
        "{}",
        got[1]
    );
    assert_eq!(got[2]["label"], "10");
}

#[test]
fn a_server_refusing_with_429_for_a_while_fails_only_that_record_until_it_lets_up() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let input = "one\nstorm two\nthree\n";
    let out = run(
        map_cmd(&server, home.path()).args(["--retries", "1", "map", "{line}"]),
        input,
    );
    assert_eq!(out.status.code(), Some(10), "{}", stderr(&out));
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["answer"], "eno");
    assert_eq!(got[1]["error"]["type"], "rate_limited");
    assert!(message(&got[1]).starts_with("stdin:2: "), "{}", got[1]);
    assert_eq!(got[2]["answer"], "eerht");
    // Two refusals so far; the third and fourth are retried through.
    let out = run(
        map_cmd(&server, home.path()).args(["--retries", "3", "map", "{line}"]),
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(lines(&out.stdout)[1]["answer"], "owt mrots");
}

#[test]
fn count_tokens_counts_each_records_request_and_answers_none() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let out = run(
        map_cmd(&server, home.path()).args([
            "--count-tokens",
            "--model",
            "gemini-2.5-flash",
            "map",
            "say {line}",
        ]),
        "one\nthree\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 2);
    assert_eq!(
        (got[0]["line"].as_str(), got[0]["tokens"].as_u64()),
        (Some("one"), Some(7))
    );
    assert_eq!(got[1]["tokens"], 9);
    assert!(got[0].get("answer").is_none());
    let err = stderr(&out);
    assert!(err.contains("2 requests counted, 16 tokens in; $"), "{err}");
    assert_eq!(server.requests(), 0, "countTokens only, no generateContent");
}

#[test]
fn count_tokens_on_an_openai_compatible_server_is_refused() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let out = run(
        map_cmd(&server, home.path()).args([
            "--provider",
            "openai",
            "--model",
            "gpt-test",
            "--count-tokens",
            "map",
            "{line}",
        ]),
        "one\n",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--count-tokens needs --provider gemini"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn an_attachment_is_refused_not_silently_dropped() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("notes.txt"), "context").unwrap();
    let out = run(
        map_cmd(&server, home.path())
            .current_dir(home.path())
            .args(["-a", "notes.txt", "map", "{line}"]),
        "one\n",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("-a notes.txt: attachments are not sent"),
        "{}",
        stderr(&out)
    );
    assert_eq!(server.requests(), 0);
}
