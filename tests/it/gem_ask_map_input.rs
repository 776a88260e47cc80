//! `gem-ask map`'s bad input, each a clear message naming the record's
//! line where there is one, the good records answered and nothing lost:
//! empty input, a template with an unclosed `{`, a field no record has,
//! invalid UTF-8, a 50 MB record, an answer never matching the schema, a
//! server refusing with 429 for a while; and records sniffed as viz-parse
//! sniffs them (a byte order mark, CRLF, `;` delimiters, a single column).
//! The fake answers by the record (`gem_ask_map::ByRecord`). `-a FILE` goes
//! with every record: inline, or uploaded once (online and `--batch`),
//! its content in each request's key, counted by `--count-tokens`.

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

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn an_attachment_goes_with_every_records_request_and_a_changed_file_is_asked_again() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    let notes = home.path().join("notes.txt");
    std::fs::write(&notes, "context v1\n").unwrap();
    let out_file = home.path().join("out.jsonl");
    let cmd = || {
        let mut c = map_cmd(&server, home.path());
        c.current_dir(home.path()).args([
            "-a",
            "notes.txt",
            "map",
            "-j",
            "2",
            "--output",
            out_file.to_str().unwrap(),
            "say {line}",
        ]);
        c
    };
    let input = "one\ntwo\nthree\n";
    let out = run(&mut cmd(), input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut seen = server.parts();
    seen.sort_by(|a, b| a.0.cmp(&b.0));
    let prompts: Vec<&str> = seen.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(prompts, ["say one", "say three", "say two"]);
    for (prompt, parts) in &seen {
        assert_eq!(
            parts,
            &[
                serde_json::json!({"inlineData": {"mimeType": "text/plain", "data": b64(b"context v1\n")}})
            ],
            "{prompt}"
        );
    }
    let first = lines(&std::fs::read(&out_file).unwrap());
    assert_eq!(first.len(), 3);
    assert_eq!(first[0]["answer"], "eno yas");

    // The same command and file: every record is already there.
    let out = run(&mut cmd(), input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.requests(), 3, "{}", stderr(&out));

    // The file changed: its hash is in each key, so each record is asked again.
    std::fs::write(&notes, "context v2\n").unwrap();
    let out = run(&mut cmd(), input);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.requests(), 6, "{}", stderr(&out));
    let now = server.parts();
    assert!(
        now[3..]
            .iter()
            .all(|(_, p)| p[0]["inlineData"]["data"] == b64(b"context v2\n")),
        "{now:?}"
    );
    let all = lines(&std::fs::read(&out_file).unwrap());
    assert_eq!(all.len(), 6);
    assert_ne!(all[0]["_key"], all[3]["_key"]);

    // --dry-run shows the attachment as its key sees it: by its content.
    let out = run(
        map_cmd(&server, home.path())
            .current_dir(home.path())
            .args(["-a", "notes.txt", "map", "--dry-run", "say {line}"]),
        "one\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let shown = lines(&out.stdout);
    let part = &shown[0]["request"]["contents"][0]["parts"][0]["attachment"];
    assert_eq!(part["name"], "notes.txt");
    assert_eq!(part["size"], 11);
    assert_eq!(part["sha256"].as_str().map(str::len), Some(64));
    assert_eq!(shown[0]["_key"], all[3]["_key"]);
    assert_eq!(server.requests(), 6);

    // A file that cannot be read is said before any request (exit 66).
    let out = run(
        map_cmd(&server, home.path())
            .current_dir(home.path())
            .args(["-a", "gone.txt", "map", "{line}"]),
        "one\n",
    );
    assert_eq!(out.status.code(), Some(66), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot attach gone.txt: no such file"));
    // stdin holds the records: `-a -` is refused.
    let out = run(
        map_cmd(&server, home.path()).args(["-a", "-", "map", "{line}"]),
        "one\n",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(server.requests(), 6);
}

#[test]
fn count_tokens_counts_each_request_with_its_attachment() {
    let server = ByRecord::start();
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("notes.txt"), "context\n").unwrap();
    let out = run(
        map_cmd(&server, home.path())
            .current_dir(home.path())
            .args(["--count-tokens", "-a", "notes.txt", "map", "say {line}"]),
        "one\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(lines(&out.stdout)[0]["tokens"], 7);
    let dir = crate::support::capture_dir();
    let counted: Vec<serde_json::Value> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .ends_with(".countTokens.json")
        })
        .filter_map(|e| serde_json::from_slice(&std::fs::read(e.path()).ok()?).ok())
        .collect();
    assert!(
        counted.iter().any(
            |c| c["generateContentRequest"]["contents"][0]["parts"][0]["inlineData"]["data"]
                == b64(b"context\n")
        ),
        "no countTokens request carried the attachment"
    );
}

/// `gem-ask` against the fake Batch API (which has the Files API and
/// generateContent too), from `dir`.
fn batch_cmd(
    fake: &crate::support::batch::BatchFake,
    dir: &std::path::Path,
) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("gem-ask"));
    for k in crate::support::GEMINI_ENV {
        cmd.env_remove(k);
    }
    cmd.env("GEMINI_API_KEY", crate::support::KEY)
        .env("GEMINI_BASE_URL", &fake.url)
        .env("XDG_DATA_HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .env("GEMLINE_RETRY_BASE_MS", "1")
        .env_remove("GEMLINE_BATCH_INLINE_MAX")
        .current_dir(dir);
    cmd
}

fn first_parts(requests: &[Value]) -> Vec<Value> {
    requests
        .iter()
        .map(|r| r["contents"][0]["parts"][0].clone())
        .collect()
}

/// The first part of each request of the fake's first job (inline), `n` of them.
fn job_first_parts(fake: &crate::support::batch::BatchFake, n: usize) -> Vec<Value> {
    let create = &fake.creates()[0];
    let reqs: Vec<Value> = create["batch"]["inputConfig"]["requests"]["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["request"].clone())
        .collect();
    assert_eq!(reqs.len(), n);
    first_parts(&reqs)
}

#[test]
fn a_file_over_the_inline_limit_is_uploaded_once_for_the_whole_run() {
    use crate::support::batch::BatchFake;
    let home = tempfile::tempdir().unwrap();
    // Past the 19 MB of base64 a request carries inline.
    std::fs::write(home.path().join("big.txt"), "a".repeat(14_300_000)).unwrap();
    let fake = BatchFake::start(&["SUCCEEDED"]);
    let input = "one\ntwo\nthree\nfour\n";
    let out = run(
        batch_cmd(&fake, home.path()).args(["-a", "big.txt", "map", "-j", "4", "{line}"]),
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fake.uploads(), 1, "one upload for four records");
    let bodies = fake.online_bodies();
    assert_eq!(bodies.len(), 4);
    for p in first_parts(&bodies) {
        assert_eq!(p["fileData"]["mimeType"], "text/plain", "{p}");
        assert!(
            p["fileData"]["fileUri"]
                .as_str()
                .is_some_and(|u| u.ends_with("/v1beta/files/in1")),
            "{p}"
        );
    }
    assert_eq!(lines(&out.stdout)[3]["answer"], "ruof");
}

#[test]
fn a_batch_jobs_requests_carry_the_attachment_inline_or_by_one_upload() {
    use crate::support::batch::BatchFake;
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("notes.txt"), "context\n").unwrap();
    let input = "one\ntwo\nthree\n";
    let online = BatchFake::start(&["SUCCEEDED"]);
    let want = run(
        batch_cmd(&online, home.path()).args(["-a", "notes.txt", "map", "{line}"]),
        input,
    );
    assert_eq!(want.status.code(), Some(0), "{}", stderr(&want));

    let fake = BatchFake::start(&["RUNNING", "SUCCEEDED"]);
    let out = run(
        batch_cmd(&fake, home.path()).args(["-a", "notes.txt", "map", "--batch", "{line}"]),
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        out.stdout, want.stdout,
        "the online run's lines, keys and all"
    );
    for p in job_first_parts(&fake, 3) {
        assert_eq!(
            p,
            serde_json::json!({"inlineData": {"mimeType": "text/plain", "data": b64(b"context\n")}})
        );
    }
    assert_eq!(fake.uploads(), 0);

    // Past the size of a job's inline requests, the file goes once
    // through the Files API and each request names it.
    std::fs::write(home.path().join("large.txt"), "b".repeat(2_000_000)).unwrap();
    let fake = BatchFake::start(&["SUCCEEDED"]);
    let out = run(
        batch_cmd(&fake, home.path()).args(["-a", "large.txt", "map", "--batch", "{line}"]),
        input,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fake.uploads(), 1);
    for p in job_first_parts(&fake, 3) {
        assert!(
            p["fileData"]["fileUri"]
                .as_str()
                .is_some_and(|u| u.ends_with("files/in1")),
            "{p}"
        );
    }
    assert_eq!(lines(&out.stdout)[2]["answer"], "eerht");
}
