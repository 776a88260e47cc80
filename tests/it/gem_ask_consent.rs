//! The consent prompt on a real terminal (tmux): what was typed before it
//! appeared never answers it, it shows the whole request on a 40-row
//! screen however it is padded, `v` pages through a long one (with no
//! pager installed too), and an `a` answer lasts for one conversation.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::tmux::{self, Tmux};
use crate::support::{FakeGemini, Gate, KEY, Reply, events, of_type, temp_dir};

fn event(parts: Value, last: bool) -> String {
    let mut v = json!({"candidates":[{"content":{"role":"model","parts":parts},"index":0}],
                       "usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60}});
    if last {
        v["candidates"][0]["finishReason"] = "STOP".into();
    }
    format!("data: {v}\r\n\r\n")
}

fn shell(command: &str) -> Value {
    json!({"functionCall": {"name": "run_shell_command", "args": {"command": command}}})
}

/// Text, then (once `gate` opens) a shell call, in one answer.
fn text_then_call(text: &str, command: &str, gate: &Gate) -> Reply {
    Reply::sse(&format!(
        "{}{}",
        event(json!([{"text": text}]), false),
        event(json!([shell(command)]), true)
    ))
    .gated(1, gate)
}

fn calls(commands: &[&str]) -> Reply {
    let parts: Vec<Value> = commands.iter().map(|c| shell(c)).collect();
    Reply::sse(&event(Value::Array(parts), true))
}

fn text(t: &str) -> Reply {
    Reply::sse(&event(json!([{ "text": t }]), true))
}

/// A test's directory, its working directory and where stdout goes.
struct Run {
    tmux: Tmux,
    work: PathBuf,
    out: PathBuf,
}

/// gem-ask ARGS in a 100x40 terminal, working in a directory of its own,
/// its event stream in a file; `env` is added (PATH is the test's unless
/// given).
fn start(name: &str, server: &FakeGemini, args: &[&str], env: &[(&str, &str)]) -> Option<Run> {
    if !tmux::available(name) {
        return None;
    }
    let home = temp_dir(name);
    let work = home.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let out = home.join("out.jsonl");
    let bin = assert_cmd::cargo::cargo_bin!("gem-ask")
        .to_string_lossy()
        .into_owned();
    let mut vars: Vec<(&str, String)> = vec![
        ("HOME", home.display().to_string()),
        ("LANG", "C.UTF-8".into()),
        ("GEMINI_API_KEY", KEY.into()),
        ("GEMINI_BASE_URL", server.url.clone()),
        ("XDG_DATA_HOME", home.display().to_string()),
        ("XDG_CONFIG_HOME", home.display().to_string()),
        ("GEMLINE_RETRY_BASE_MS", "1".into()),
    ];
    if !env.iter().any(|(k, _)| *k == "PATH") {
        vars.push(("PATH", std::env::var("PATH").unwrap_or_default()));
    }
    vars.extend(env.iter().map(|(k, v)| (*k, v.to_string())));
    let q = |s: &str| shlex::try_quote(s).unwrap().into_owned();
    let mut line = format!("cd {} && exec {}", q(&work.display().to_string()), q(&bin));
    for a in args {
        line.push(' ');
        line.push_str(&q(a));
    }
    line.push_str(&format!(
        " --output jsonl > {}",
        q(&out.display().to_string())
    ));
    let tmux = Tmux::program(&home, &vars, &["/bin/sh", "-c", &line], 100, 40);
    Some(Run { tmux, work, out })
}

impl Run {
    fn events(&self) -> Vec<Value> {
        events(&std::fs::read(&self.out).unwrap_or_default())
    }

    /// Waits until the event stream holds `text`.
    fn wait_stream(&self, text: &str) {
        self.tmux
            .wait_until(&format!("{text:?} in the stream"), |_| {
                std::fs::read_to_string(&self.out).is_ok_and(|s| s.contains(text))
            });
    }

    fn consents(&self) -> Vec<String> {
        of_type(&self.events(), "tool_result")
            .iter()
            .map(|r| r["consent"].as_str().unwrap_or_default().to_string())
            .collect()
    }
}

/// Waits until the REPL reads its `n`th line (its status drawn, the
/// editor's prompt last).
fn wait_prompt(t: &Tmux, n: usize) {
    t.wait_until(&format!("prompt {n}"), |s| {
        s.matches("│ waiting for you").count() >= n
            && s.lines().last().is_some_and(|l| l.trim() == "›")
    });
}

fn exists(dir: &Path, name: &str) -> bool {
    dir.join(name).exists()
}

/// Types `y` Enter while the answer streams, before the question exists.
fn typeahead_is_discarded(name: &str, args: &[&str], after: impl Fn(&Run)) {
    let gate = Gate::default();
    let server = FakeGemini::start(
        name,
        vec![
            text_then_call("Shall I go on?", "touch TYPEAHEAD_PWNED", &gate),
            text("Not run, then."),
        ],
    );
    let Some(run) = start(name, &server, args, &[]) else {
        return;
    };
    let t = &run.tmux;
    run.wait_stream("Shall I go on?");
    t.line("y");
    // The terminal echoes what it queued, the Enter too (the cursor is on
    // a row below the y's): the whole line is typed ahead for sure. The y
    // alone is not enough: under load the Enter could reach the terminal
    // after the question, and a terminal in line mode has no line to read
    // (or discard) before its Enter.
    t.wait_until("the y and its Enter echoed", |_| {
        let cursor: usize = t.var("cursor_y").parse().unwrap_or(0);
        t.rows()
            .iter()
            .position(|l| l.trim() == "y")
            .is_some_and(|row| cursor > row)
    });
    gate.open();
    let screen = t.wait_for("Allow?");
    assert!(
        screen.contains("what was typed before this question was discarded"),
        "{screen}"
    );
    t.line("n");
    run.wait_stream("\"type\":\"result\"");
    after(&run);
    assert!(
        !exists(&run.work, "TYPEAHEAD_PWNED"),
        "the typed-ahead y ran it"
    );
    assert_eq!(run.consents(), ["denied"]);
}

#[test]
fn a_y_typed_ahead_does_not_answer_the_question_in_one_shot() {
    typeahead_is_discarded(
        "consent-typeahead",
        &["--tools", "run_shell_command", "go"],
        |run| assert_eq!(run.tmux.wait_exit(), 0),
    );
}

#[test]
fn a_y_typed_ahead_does_not_answer_the_question_in_the_repl() {
    typeahead_is_discarded(
        "consent-typeahead-i",
        &[
            "-i",
            "--tools",
            "run_shell_command",
            "--auto-continue",
            "off",
            "go",
        ],
        |run| {
            wait_prompt(&run.tmux, 1);
            run.tmux.keys(&["C-d"]);
            assert_eq!(run.tmux.wait_exit(), 0);
        },
    );
}

#[test]
fn a_padded_command_shows_its_first_line_on_a_40_row_screen() {
    let lines = format!("touch HIDDEN #{}ls -la", "\n".repeat(80));
    let spaces = format!("touch HIDDEN2 #{}ls -la", " ".repeat(6000));
    let zero_width = "echo safe\u{200B}\r; touch HIDDEN3";
    let server = FakeGemini::start(
        "consent-padded",
        vec![calls(&[&lines, &spaces, zero_width]), text("Done.")],
    );
    let Some(run) = start(
        "consent-padded",
        &server,
        &["--tools", "run_shell_command", "go"],
        &[],
    ) else {
        return;
    };
    let t = &run.tmux;
    for (n, (first, marks)) in [
        ("sh -c 'touch HIDDEN #", "⟨79 blank lines⟩"),
        ("sh -c 'touch HIDDEN2 #⟨6000 spaces⟩ls -la'", "in "),
        ("sh -c 'echo safe⟨U+200B⟩⟨CR⟩; touch HIDDEN3'", "in "),
    ]
    .into_iter()
    .enumerate()
    {
        // The question on the screen now: only what the 40 rows show. The
        // rows are read once the question is known to be there (read
        // before, they could still show the last question answered).
        let what = format!("question {}", n + 1);
        t.wait_until(&what, |s| s.matches("Allow?").count() == n + 1);
        let rows = t.wait_rows(&what, |r| {
            r.iter()
                .rev()
                .find(|l| !l.is_empty())
                .is_some_and(|l| l.starts_with("Allow?"))
        });
        let screen = rows.join("\n");
        assert!(screen.contains(first), "question {}:\n{screen}", n + 1);
        assert!(screen.contains(marks), "question {}:\n{screen}", n + 1);
        assert!(!screen.contains("press v"), "nothing cut:\n{screen}");
        t.line("n");
    }
    assert_eq!(t.wait_exit(), 0);
    assert_eq!(run.consents(), ["denied", "denied", "denied"]);
    for f in ["HIDDEN", "HIDDEN2", "HIDDEN3"] {
        assert!(!exists(&run.work, f));
    }
}

#[test]
fn v_pages_through_a_long_command_even_with_no_pager_installed() {
    let long: String = (1..=200).map(|i| format!("echo line {i}\n")).collect();
    let server = FakeGemini::start("consent-pager", vec![calls(&[&long]), text("Done.")]);
    // A PATH with only sh and mv (the terminal's wrapper needs them):
    // neither $PAGER nor less can be found, the built-in pager pages.
    let bin = temp_dir("consent-pager-path");
    for tool in ["sh", "mv"] {
        let found = ["/bin", "/usr/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.exists())
            .unwrap();
        std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
    }
    let path = bin.display().to_string();
    let Some(run) = start(
        "consent-pager",
        &server,
        &["--tools", "run_shell_command", "go"],
        &[("PATH", &path), ("PAGER", "no-such-pager")],
    ) else {
        return;
    };
    let t = &run.tmux;
    let screen = t.wait_for("[v]iew all:");
    assert!(screen.contains("sh -c 'echo line 1\n"), "{screen}");
    assert!(screen.contains("more lines, "), "{screen}");
    assert!(screen.contains("press v to view all"), "{screen}");
    assert!(!screen.contains("echo line 200"), "{screen}");
    t.line("v");
    let mut pages = 0;
    while !t.screen().contains("-- end --") {
        t.wait_until("a page", |s| {
            s.matches("-- more: Enter").count() > pages || s.contains("-- end --")
        });
        pages = t.screen().matches("-- more: Enter").count();
        if !t.screen().contains("-- end --") {
            t.keys(&["Enter"]);
        }
    }
    assert!(pages >= 4, "{pages} pages");
    let screen = t.wait_until("the question again", |s| {
        s.matches("[v]iew all:").count() == 2
    });
    assert!(screen.contains("echo line 200"), "{screen}");
    t.line("n");
    assert_eq!(t.wait_exit(), 0);
    assert_eq!(run.consents(), ["denied"]);
}

#[test]
fn always_lasts_for_the_conversation_and_new_forgets_it() {
    let server = FakeGemini::start(
        "consent-always-new",
        vec![
            calls(&["echo one"]),
            calls(&["echo two"]),
            text("First done."),
            calls(&["echo three"]),
            text("Second done."),
        ],
    );
    let Some(run) = start(
        "consent-always-new",
        &server,
        &[
            "-i",
            "--tools",
            "run_shell_command",
            "--auto-continue",
            "off",
            "first",
        ],
        &[],
    ) else {
        return;
    };
    let t = &run.tmux;
    t.wait_for("Allow?");
    t.line("a");
    run.wait_stream("First done.");
    assert_eq!(
        t.screen().matches("Allow?").count(),
        1,
        "a holds in the turn"
    );
    wait_prompt(t, 1);
    t.line("/new");
    t.wait_for("new session ");
    t.line("second");
    let screen = t.wait_until("a question or the answer", |s| {
        s.matches("Allow?").count() == 2
            || std::fs::read_to_string(&run.out).is_ok_and(|o| o.contains("Second done."))
    });
    assert_eq!(
        screen.matches("Allow?").count(),
        2,
        "asked again:\n{screen}"
    );
    t.line("y");
    run.wait_stream("Second done.");
    wait_prompt(t, 3);
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);
    assert_eq!(run.consents(), ["always", "always", "yes"]);
}
