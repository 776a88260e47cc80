//! `viz-render --format github|gitlab|auto`: snapshots of the CI logs
//! (chapters as sections, error events as GitHub annotations), and proof
//! that text from events never forms a command of its own: the output is
//! read line by line as GitHub's runner and GitLab's log parser read it,
//! and every command or section marker found must be one viz-render meant.

use assert_cmd::cargo::cargo_bin_cmd;
use regex::Regex;

fn example(path: &str) -> String {
    std::fs::read_to_string(format!("{}/testdata/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// viz-render in a clean environment plus `env`.
fn render_env(env: &[(&str, &str)], args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut cmd = cargo_bin_cmd!("viz-render");
    cmd.env_clear().env("LANG", "C.UTF-8");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd
        .args(args)
        .write_stdin(stdin.to_string())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn log(format: &str, input: &str) -> String {
    let args = ["--format", format, "--color", "never", "--width", "60"];
    let (code, out, err) = render_env(&[], &args, input);
    assert_eq!(code, 0, "{err}");
    out
}

/// GitLab's markers carry the time: snapshots name it T.
fn timeless(s: &str) -> String {
    Regex::new(r"section_(start|end):\d+:")
        .unwrap()
        .replace_all(s, "section_$1:T:")
        .into_owned()
}

/// The workflow commands GitHub's runner would act on, as (name, data):
/// a line whose first non-blank characters are `::` (`::name props::data`)
/// or holding `##[` (the old form) is a command, except between
/// `::stop-commands::TOKEN` and `::TOKEN::`.
fn github_commands(log: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut stopped: Option<String> = None;
    for line in log.lines() {
        if let Some(t) = &stopped {
            if line.trim() == format!("::{t}::") {
                stopped = None;
            }
            continue;
        }
        if line.contains("##[") {
            found.push(("##[".to_string(), line.to_string()));
            continue;
        }
        let Some(rest) = line.trim_start().strip_prefix("::") else {
            continue;
        };
        let Some((info, data)) = rest.split_once("::") else {
            continue;
        };
        let name = info.split(' ').next().unwrap_or("").to_string();
        if name == "stop-commands" {
            stopped = Some(data.to_string());
        }
        found.push((name, data.to_string()));
    }
    found
}

/// GitLab's section markers as its log parser finds them: (action, name).
fn gitlab_markers(log: &str) -> Vec<(String, String)> {
    Regex::new(r"section_(start|end):(\d+):([a-zA-Z0-9_.-]+)(\[[^\]]*\])?\r\x1b\[0K")
        .unwrap()
        .captures_iter(log)
        .map(|c| (c[1].to_string(), c[3].to_string()))
        .collect()
}

#[test]
fn snapshots_of_github_and_gitlab_logs() {
    for (name, path) in [
        ("chapters", "render/chapters.jsonl"),
        ("report", "report/stream.jsonl"),
    ] {
        insta::assert_snapshot!(format!("github_{name}"), log("github", &example(path)));
        // ESC and CR shown as symbols, so the snapshot file is plain text.
        let gitlab = timeless(&log("gitlab", &example(path)))
            .replace('\x1b', "␛")
            .replace('\r', "␍");
        insta::assert_snapshot!(format!("gitlab_{name}"), gitlab);
    }
}

#[test]
fn event_text_never_forms_a_github_workflow_command() {
    let out = log("github", &example("report/injection.jsonl"));
    let commands = github_commands(&out);
    for (name, data) in &commands {
        assert!(
            ["group", "endgroup", "error", "warning", "stop-commands"].contains(&name.as_str()),
            "a command from the data: {name} {data}\n{out}"
        );
    }
    // Exactly ours: one group per chapter, closed; the two error events.
    let names: Vec<&str> = commands
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| *n != "stop-commands")
        .collect();
    assert_eq!(
        names,
        ["group", "error", "warning", "endgroup", "group", "endgroup"],
        "{out}"
    );
    // The text is all there, as written, only fenced.
    for text in [
        "::set-env name=X::1",
        "::add-mask::secret",
        "see ##[set-env name=Y;]2 and %0A",
        "::endgroup::",
    ] {
        assert!(out.lines().any(|l| l == text), "{text:?} missing:\n{out}");
    }
    // Our commands' data is escaped as the runner unescapes it.
    assert!(
        out.contains(
            "::error file=src/a%2Cb%3A%3Ac.rs,line=12::::set-env name=E::1%0A::error::nested\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("::group::1 · ::set-env name=TOPIC::1\n"),
        "{out}"
    );
}

#[test]
fn event_text_never_forms_a_gitlab_section_marker() {
    let out = log("gitlab", &example("report/injection.jsonl"));
    let markers = gitlab_markers(&out);
    assert_eq!(
        markers,
        [
            ("start".to_string(), "gemline_chapter_1".to_string()),
            ("end".to_string(), "gemline_chapter_1".to_string()),
            ("start".to_string(), "gemline_chapter_2".to_string()),
            ("end".to_string(), "gemline_chapter_2".to_string()),
        ],
        "{out}"
    );
    assert!(out.contains("^[[0Kfake header"), "{out}");
    // Colour codes aside, no ESC or CR but in our markers.
    let ours = Regex::new(
        r"\x1b\[0Ksection_(start|end):\d+:gemline_chapter_\d+(\[collapsed=true\])?\r\x1b\[0K",
    )
    .unwrap();
    let rest = ours.replace_all(&out, "");
    assert!(!rest.contains('\x1b') && !rest.contains('\r'), "{rest:?}");
}

#[test]
fn auto_picks_the_ci_of_the_environment_when_stdout_is_not_a_terminal() {
    let input = example("render/chapters.jsonl");
    let args = ["--color", "never", "--width", "60"];
    let (_, github, _) = render_env(&[("GITHUB_ACTIONS", "true")], &args, &input);
    assert_eq!(github, log("github", &input));
    let (_, gitlab, _) = render_env(&[("GITLAB_CI", "true")], &args, &input);
    assert_eq!(timeless(&gitlab), timeless(&log("gitlab", &input)));
    let (_, plain, _) = render_env(&[], &args, &input);
    assert_eq!(plain, log("terminal", &input));
    assert!(!plain.contains("::group::"));
    // Asked for by name, the terminal drawing stays one.
    let mut named = args.to_vec();
    named.extend(["--format", "terminal"]);
    let (_, term, _) = render_env(&[("GITHUB_ACTIONS", "true")], &named, &input);
    assert_eq!(term, plain);
}

#[test]
fn ci_logs_are_coloured_unless_no_color() {
    let input = example("render/chapters.jsonl");
    let (_, coloured, _) = render_env(&[], &["--format", "github"], &input);
    assert!(coloured.contains("\x1b["), "{coloured}");
    let (_, plain, _) = render_env(&[("NO_COLOR", "1")], &["--format", "github"], &input);
    assert!(!plain.contains('\x1b'), "{plain}");
}

#[test]
fn chapters_only_counts_and_still_annotates() {
    let input = example("render/chapters.jsonl");
    let (code, out, err) = render_env(
        &[],
        &["--format", "github", "--chapters", "--color", "never"],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("::warning::rate limited, retrying"), "{out}");
    assert!(!out.contains("::group::"), "{out}");
    assert!(out.contains("1 error"), "{out}");
}

#[test]
fn strict_stops_at_an_invalid_chart_in_a_ci_log() {
    let bad = r#"{"type":"visualization","chartType":"bar","series":[]}"#;
    let (code, _, err) = render_env(&[], &["--format", "gitlab", "--strict"], bad);
    assert_eq!(code, 65, "{err}");
}
