//! `gem-ask map --batch` against the fake Batch API of `support::batch`:
//! the output is the online run's, line for line (inline requests and a
//! JSONL file alike); a job that fails or expires makes each record a
//! failed line that a rerun sends again; `--detach` and `--attach`; the
//! `result` event of a map run and viz-render's line for it.

use std::path::Path;
use std::process::Command;

use crate::gem_ask_map::{lines, run, spawn};
use crate::support::KEY;
use crate::support::batch::BatchFake;

const INPUT: &str = "alpha\nbravo\ncharlie\nalpha\ndelta\n";

fn cmd(fake: &BatchFake, home: &Path) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("gem-ask"));
    for k in crate::support::GEMINI_ENV {
        cmd.env_remove(k);
    }
    cmd.env("GEMINI_API_KEY", KEY)
        .env("GEMINI_BASE_URL", &fake.url)
        .env("XDG_DATA_HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("GEMLINE_RETRY_BASE_MS", "1")
        .env_remove("GEMLINE_BATCH_INLINE_MAX");
    cmd
}

fn online(home: &Path) -> Vec<u8> {
    let fake = BatchFake::start(&["SUCCEEDED"]);
    let out = run(cmd(&fake, home).args(["map", "{line}"]), INPUT);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(fake.online_requests(), 5);
    out.stdout
}

#[test]
fn a_batch_run_writes_exactly_the_online_runs_lines_inline_or_by_file() {
    let home = tempfile::tempdir().unwrap();
    let want = online(home.path());
    let fake = BatchFake::start(&["PENDING", "RUNNING", "SUCCEEDED"]);
    let out = run(
        cmd(&fake, home.path()).args(["map", "--batch", "{line}"]),
        INPUT,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&want)
    );
    assert_eq!(fake.online_requests(), 0);
    assert_eq!(fake.polls(), 3, "polled until it succeeded");
    assert!(err.contains("batches/1: running"), "{err}");
    // The documented create shape: inline, each request with its key; the
    // one request two records share is sent once.
    let create = &fake.creates()[0]["batch"];
    assert!(
        create["displayName"]
            .as_str()
            .unwrap()
            .starts_with("gem-ask-map-")
    );
    let items = create["inputConfig"]["requests"]["requests"]
        .as_array()
        .unwrap();
    assert_eq!(items.len(), 4);
    assert_eq!(
        items[0]["request"]["contents"][0]["parts"][0]["text"],
        "alpha"
    );
    assert_eq!(items[0]["metadata"]["key"], lines(&want)[0]["_key"]);

    let fake = BatchFake::start(&["RUNNING", "SUCCEEDED"]);
    let out = run(
        cmd(&fake, home.path())
            .env("GEMLINE_BATCH_INLINE_MAX", "10")
            .args(["map", "--batch", "{line}"]),
        INPUT,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&want)
    );
    assert_eq!(fake.uploads(), 1);
    let create = &fake.creates()[0]["batch"];
    assert_eq!(create["inputConfig"]["fileName"], "files/in1");
}

#[test]
fn a_failed_or_expired_job_fails_each_record_and_a_rerun_answers_them() {
    for (state, kind) in [("FAILED", "batch_failed"), ("EXPIRED", "batch_expired")] {
        let home = tempfile::tempdir().unwrap();
        let file = home.path().join("out.jsonl");
        let file = file.to_str().unwrap();
        let fake = BatchFake::start(&["RUNNING", state]);
        let out = run(
            cmd(&fake, home.path()).args(["map", "--batch", "-o", file, "{line}"]),
            INPUT,
        );
        assert_eq!(
            out.status.code(),
            Some(10),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let written = lines(&std::fs::read(file).unwrap());
        assert_eq!(written.len(), 5);
        for l in &written {
            assert_eq!(l["error"]["type"], kind, "{l}");
            assert!(
                l["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("batches/1")
            );
        }
        let result = lines(&out.stdout);
        assert_eq!(result[0]["type"], "result");
        assert_eq!(result[0]["stats"]["map"]["failed"], 5);
        // The rerun sends them again, and only them.
        let fake = BatchFake::start(&["SUCCEEDED"]);
        let out = run(
            cmd(&fake, home.path()).args(["map", "--batch", "-o", file, "{line}"]),
            INPUT,
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let written = lines(&std::fs::read(file).unwrap());
        assert_eq!(written.len(), 5);
        assert!(
            written.iter().all(|l| l.get("answer").is_some()),
            "{written:?}"
        );
    }
}

#[test]
fn detach_prints_the_job_and_attach_collects_it_resumably() {
    let home = tempfile::tempdir().unwrap();
    let want = online(home.path());
    let fake = BatchFake::start(&["PENDING", "SUCCEEDED"]);
    let out = run(
        cmd(&fake, home.path()).args(["map", "--batch", "--detach", "{line}"]),
        INPUT,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "batches/1\n");
    assert_eq!(fake.polls(), 0);
    let out = run(
        cmd(&fake, home.path()).args(["map", "--attach", "batches/1", "{line}"]),
        INPUT,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&want)
    );
    // With --output, attaching again writes nothing twice.
    let file = home.path().join("out.jsonl");
    let file = file.to_str().unwrap();
    for _ in 0..2 {
        let out = run(
            cmd(&fake, home.path()).args(["map", "--attach", "1", "-o", file, "{line}"]),
            INPUT,
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(std::fs::read(file).unwrap(), want);
    assert_eq!(fake.creates().len(), 1);
    assert_eq!(fake.online_requests(), 0);
}

#[test]
fn the_result_event_counts_the_run_at_the_batch_price_and_viz_render_draws_it() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("out.jsonl");
    let file = file.to_str().unwrap();
    let fake = BatchFake::start(&["SUCCEEDED"]);
    let args = ["--model", "gemini-2.5-flash", "map", "-o", file, "{line}"];
    let online = run(cmd(&fake, home.path()).args(args), "one\ntwo\n");
    assert_eq!(
        online.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&online.stderr)
    );
    let online = lines(&online.stdout);
    assert_eq!(
        online.len(),
        1,
        "the result alone: the records are in the file"
    );
    let r = &online[0];
    assert_eq!(r["type"], "result");
    assert_eq!(r["status"], "success");
    assert_eq!(r["stats"]["map"]["answered"], 2);
    assert_eq!(r["stats"]["input_tokens"], 6);
    assert_eq!(r["stats"]["output_tokens"], 4);
    // 6 tokens at $0.30 and 4 at $2.50 a million.
    assert_eq!(r["stats"]["cost_usd"], 0.000012);

    std::fs::remove_file(file).unwrap();
    let mut c = cmd(&fake, home.path());
    c.args([
        "--model",
        "gemini-2.5-flash",
        "map",
        "--batch",
        "-o",
        file,
        "{line}",
    ]);
    let batch = run(&mut c, "one\ntwo\n");
    let batch = lines(&batch.stdout);
    assert_eq!(batch[0]["stats"]["cost_usd"], 0.000006, "half the price");
    assert_eq!(batch[0]["stats"]["map"]["batch"], "batches/1");

    // Without --output the records are stdout: the result follows them
    // only when events are asked for.
    let plain = run(cmd(&fake, home.path()).args(["map", "{line}"]), "one\n");
    assert!(lines(&plain.stdout).iter().all(|l| l.get("type").is_none()));
    let events = run(
        cmd(&fake, home.path()).args(["--output", "jsonl", "map", "{line}"]),
        "one\n",
    );
    let events = lines(&events.stdout);
    assert_eq!(events.len(), 2);
    assert_eq!(events[1]["type"], "result");

    let mut viz = Command::new(assert_cmd::cargo::cargo_bin!("viz-render"));
    let drawn = run(viz.args(["--color", "never"]), &format!("{}\n", online[0]));
    let drawn = String::from_utf8_lossy(&drawn.stdout);
    assert!(
        drawn.contains("map: 2 records: 2 answered, 0 failed; 6 tokens in, 4 out;"),
        "{drawn}"
    );
    assert!(drawn.contains("$0.0000"), "{drawn}");
}

#[test]
fn an_openai_compatible_provider_says_it_has_no_batch_api_and_runs_online() {
    let home = tempfile::tempdir().unwrap();
    let fake = BatchFake::start(&["SUCCEEDED"]);
    let out = run(
        cmd(&fake, home.path()).args([
            "--provider",
            "openai",
            "--model",
            "gpt-test",
            "map",
            "--batch",
            "--dry-run",
            "{line}",
        ]),
        "one\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no batch API; the requests go online"),
        "{err}"
    );
    let out = run(
        cmd(&fake, home.path()).args([
            "--provider",
            "openai",
            "--model",
            "gpt-test",
            "map",
            "--attach",
            "batches/1",
            "{line}",
        ]),
        "one\n",
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_signal_while_the_job_runs_says_how_to_collect_it() {
    let home = tempfile::tempdir().unwrap();
    let fake = BatchFake::start(&["RUNNING"]);
    let child = spawn(
        cmd(&fake, home.path()).args(["map", "--batch", "{line}"]),
        INPUT,
    );
    // Waits for the job to be polled, whatever the machine's load.
    while fake.polls() < 2 {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("gem-ask map --attach batches/1"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_request_the_job_could_not_answer_is_that_records_error_line() {
    let home = tempfile::tempdir().unwrap();
    let fake = BatchFake::start(&["SUCCEEDED"]);
    let out = run(
        cmd(&fake, home.path()).args(["map", "--batch", "{line}"]),
        "one\nfail here\nthree\n",
    );
    assert_eq!(
        out.status.code(),
        Some(10),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = lines(&out.stdout);
    assert_eq!(got.len(), 3);
    assert_eq!(got[0]["answer"], "eno");
    assert_eq!(got[1]["error"]["type"], "api");
    assert_eq!(got[1]["error"]["message"], "stdin:2: boom (code 500)");
    assert!(got[1].get("_key").is_none(), "a rerun tries it again");
    assert_eq!(got[2]["answer"], "eerht");
}
