//! `gem-ask -i` in a real terminal (tmux) against the fake Gemini server:
//! what the user sees on the screen, what the server was sent, and what
//! reaches stdout when it is not the terminal. Every wait polls the screen
//! with a long deadline; nothing is timed.

use crate::support;
use crate::support::tmux;

use std::path::{Path, PathBuf};

use crate::support::{FakeGemini, Gate, KEY, Reply, temp_dir};
use serde_json::{Value, json};
use tmux::Tmux;

/// One streamed answer of plain text.
fn text(t: &str) -> Reply {
    Reply::sse(&text_event(t, true))
}

fn text_event(t: &str, last: bool) -> String {
    let mut v = json!({"candidates":[{"content":{"role":"model","parts":[{"text":t}]},"index":0}],
                       "usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60}});
    if last {
        v["candidates"][0]["finishReason"] = "STOP".into();
    }
    format!("data: {v}\r\n\r\n")
}

/// An answer that calls one tool.
fn call(name: &str, args: Value) -> Reply {
    let v = json!({"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":name,"args":args}}]},
                   "finishReason":"STOP","index":0}],
                   "usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":10,"totalTokenCount":60}});
    Reply::sse(&format!("data: {v}\r\n\r\n"))
}

/// Text in two pieces; the second waits for `gate`. The first should end
/// its paragraph: the Markdown view draws a line once it is settled.
fn gated_text(first: &str, rest: &str, gate: &Gate) -> Reply {
    Reply::sse(&format!(
        "{}{}",
        text_event(first, false),
        text_event(rest, true)
    ))
    .gated(1, gate)
}

fn bmw_bar() -> Value {
    json!({"chartType":"bar","title":"BMW 0-60 mph","unit":"s",
           "series":[{"name":"0-60 mph","points":[{"label":"M5 CS","value":2.9},{"label":"M8 Competition","value":3.0}]}]})
}

struct Session {
    home: PathBuf,
    tmux: Tmux,
}

/// gem-ask with `flags` in a 100x40 terminal, sessions and input history
/// under a fresh data home. `None` when tmux is missing outside CI.
fn start(name: &str, server: &FakeGemini, flags: &[&str]) -> Option<Session> {
    start_with(name, server, flags, None, &[])
}

/// As [`start`]; with `stdout_to`, stdout goes to that file instead of the
/// terminal; `extra` is added to the environment.
fn start_with(
    name: &str,
    server: &FakeGemini,
    flags: &[&str],
    stdout_to: Option<&Path>,
    extra: &[(&'static str, &str)],
) -> Option<Session> {
    if !tmux::available(name) {
        return None;
    }
    let home = temp_dir(name);
    Some(Session {
        tmux: launch(&home, server, flags, stdout_to, extra),
        home,
    })
}

fn launch(
    home: &Path,
    server: &FakeGemini,
    flags: &[&str],
    stdout_to: Option<&Path>,
    extra: &[(&'static str, &str)],
) -> Tmux {
    let bin = assert_cmd::cargo::cargo_bin!("gem-ask")
        .to_string_lossy()
        .into_owned();
    let mut env = vec![
        ("PATH", std::env::var("PATH").unwrap_or_default()),
        ("HOME", home.display().to_string()),
        ("LANG", "C.UTF-8".to_string()),
        ("GEMINI_API_KEY", KEY.to_string()),
        ("GEMINI_BASE_URL", server.url.clone()),
        ("XDG_DATA_HOME", home.display().to_string()),
        ("XDG_CONFIG_HOME", home.display().to_string()),
        ("GEMLINE_RETRY_BASE_MS", "1".to_string()),
    ];
    env.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
    let mut argv: Vec<String> = vec![bin, "-i".into()];
    argv.extend(flags.iter().map(|s| s.to_string()));
    let argv = match stdout_to {
        None => argv,
        Some(file) => {
            let quoted: Vec<String> = argv
                .iter()
                .map(|a| shlex::try_quote(a).unwrap().into_owned())
                .collect();
            let to = shlex::try_quote(&file.display().to_string())
                .unwrap()
                .into_owned();
            vec![
                "sh".into(),
                "-c".into(),
                format!("exec {} > {to}", quoted.join(" ")),
            ]
        }
    };
    let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
    Tmux::program(home, &env, &argv, 100, 40)
}

/// Waits for the `n`th prompt to be ready: its status line drawn and the
/// editor reading (the prompt is drawn once the terminal is in the
/// editor's mode; a Ctrl-D sent earlier would be lost in line mode).
pub(crate) fn wait_prompt(t: &Tmux, n: usize) -> String {
    t.wait_until(&format!("prompt {n}"), |s| {
        s.matches("│ waiting for you").count() >= n
            && s.lines().last().is_some_and(|l| l.trim() == "›")
    })
}

/// The texts of the user turns a request body carries.
fn user_texts(body: &Value) -> Vec<String> {
    body["contents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["role"] == "user")
        // The user's words: not gem-ask's context for the turn before them.
        .filter_map(|c| {
            c["parts"].as_array()?.iter().find_map(|p| {
                p["text"]
                    .as_str()
                    .filter(|t| !t.starts_with(gemline::agent::turn::TURN_CONTEXT))
            })
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn a_question_with_a_chart_inline_and_the_conversation_carries() {
    let server = FakeGemini::start(
        "repl-chart",
        vec![
            call("create_new_topic", json!({"title": "BMW acceleration"})),
            call("render_visualization", bmw_bar()),
            text("The M5 CS is the quickest."),
            text("Because of its weight."),
        ],
    );
    let Some(s) = start("repl-chart", &server, &["--auto-continue", "off"]) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("Fastest BMWs, chart 0-60");
    t.wait_for("The M5 CS is the quickest.");
    // The status line is drawn after the answer: wait for it, not the text.
    let screen = wait_prompt(t, 2);
    assert!(screen.contains("BMW 0-60 mph"), "{screen}");
    assert!(screen.contains("M8 Competition"), "{screen}");
    assert!(screen.contains("2.9"), "{screen}");
    // The chapter's header, and the status line: mode, model, chapter, state.
    assert!(screen.contains("BMW acceleration"), "{screen}");
    assert!(
        screen.contains("chat │ gemini-3.5-flash │ BMW acceleration │ $0.0005 │ waiting for you"),
        "{screen}"
    );
    t.line("Why?");
    t.wait_for("Because of its weight.");
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 4);
    assert_eq!(
        user_texts(&bodies[3]),
        ["Fastest BMWs, chart 0-60", "Why?"],
        "the second question carries the first turn"
    );
    wait_prompt(t, 3);
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn slash_commands() {
    let server = FakeGemini::start(
        "repl-slash",
        vec![
            text("First answer."),
            text("Answer in a new session."),
            text("Answer after loading."),
        ],
    );
    let Some(s) = start(
        "repl-slash",
        &server,
        &["--auto-continue", "off", "--width", "100"],
    ) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("/help");
    let screen = t.wait_for("stop auto-continue and wait for input");
    for c in [
        "/new",
        "/history",
        "/save NAME",
        "/load NAME",
        "/model NAME",
    ] {
        assert!(screen.contains(c), "{c}: {screen}");
    }
    t.line("/tools");
    t.wait_for("render_visualization");
    t.line("/frobnicate");
    t.wait_for("unknown command /frobnicate");

    t.line("/model gemini-test-model");
    t.wait_for("chat │ gemini-test-model │ waiting for you");
    t.line("First question");
    t.wait_for("First answer.");
    assert!(
        server.requests()[0]
            .request_line
            .contains("/models/gemini-test-model:streamGenerateContent"),
        "{}",
        server.requests()[0].request_line
    );
    t.line("/history");
    t.wait_for("  1. > First question");

    t.line("/save bmw-talk");
    t.wait_for("saved as bmw-talk");
    let saved = s.home.join("gemline/sessions/bmw-talk.jsonl");
    let text_of = std::fs::read_to_string(&saved).unwrap();
    assert!(text_of.contains("First question") && text_of.contains("First answer."));

    t.line("/new");
    t.wait_for("new session ");
    t.line("Second question");
    t.wait_for("Answer in a new session.");
    assert_eq!(user_texts(&server.bodies()[1]), ["Second question"]);

    t.line("/load bmw-talk");
    t.wait_for("loaded session bmw-talk: 1 turn(s)");
    t.line("Third question");
    t.wait_for("Answer after loading.");
    assert_eq!(
        user_texts(&server.bodies()[2]),
        ["First question", "Third question"]
    );
    // Later turns of a loaded session are stored in it.
    let text_of = std::fs::read_to_string(&saved).unwrap();
    assert!(text_of.contains("Third question"), "{text_of}");

    t.line("/clear");
    t.wait_until("a cleared screen", |_| {
        !t.visible().contains("Answer after loading.")
    });
    t.line("/quit");
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn auto_continue_stops_at_its_limit() {
    let server = FakeGemini::start(
        "repl-auto",
        vec![text("Step one."), text("Step two."), text("Step three.")],
    );
    let Some(s) = start("repl-auto", &server, &["--max-consecutive-turns", "2"]) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("Do the steps");
    let screen = t.wait_for("auto-continue stopped after 2 turn(s) in a row");
    assert!(screen.contains("Step three."), "{screen}");
    assert!(screen.contains("continuing on its own (1/2"), "{screen}");
    assert!(screen.contains("continuing on its own (2/2"), "{screen}");
    assert_eq!(screen.matches("> Continue.").count(), 2, "{screen}");
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 3);
    assert_eq!(
        user_texts(&bodies[2]),
        ["Do the steps", "Continue.", "Continue."]
    );
    wait_prompt(t, 2);
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn typing_interrupt_stops_auto_continue() {
    let gate = Gate::default();
    let server = FakeGemini::start(
        "repl-interrupt",
        vec![
            text("Working on it."),
            gated_text("Still going.\n\n", "And more.", &gate),
            text("never sent"),
        ],
    );
    let Some(s) = start("repl-interrupt", &server, &[]) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("Work");
    t.wait_for("Still going.");
    // Typed while the model continues on its own.
    t.line("/interrupt");
    gate.open();
    t.wait_for("auto-continue stopped: you typed a line");
    t.wait_for("auto-continue is stopped; waiting for your input");
    assert_eq!(server.requests().len(), 2);
    wait_prompt(t, 3);
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn ctrl_c_stops_the_answer_not_the_session() {
    let gate = Gate::default();
    let server = FakeGemini::start(
        "repl-ctrl-c",
        vec![
            gated_text("Counting: one.\n\n", "Two, three.", &gate),
            text("Fresh answer."),
        ],
    );
    let Some(s) = start("repl-ctrl-c", &server, &["--auto-continue", "off"]) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("Count slowly");
    t.wait_for("Counting: one.");
    t.keys(&["C-c"]);
    t.wait_for("interrupted; waiting for you");
    // Let the server give up on the stopped answer.
    gate.open();
    t.line("Something else");
    let screen = t.wait_for("Fresh answer.");
    assert!(!screen.contains("Two, three."), "{screen}");
    // The stopped turn is not part of the conversation.
    assert_eq!(user_texts(&server.bodies()[1]), ["Something else"]);
    // Ctrl-C at the prompt drops the line, and the session goes on. The
    // prompt first: a Ctrl-C while the turn still ends interrupts it.
    wait_prompt(t, 3);
    t.type_text("half a line");
    t.keys(&["C-c"]);
    t.wait_for("(Ctrl-D or /quit leaves)");
    wait_prompt(t, 4);
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn ctrl_d_quits_and_stdout_gets_only_events() {
    let server = FakeGemini::start("repl-pipe", vec![text("Piped answer.")]);
    let out = temp_dir("repl-pipe-out").join("events.jsonl");
    let Some(s) = start_with(
        "repl-pipe",
        &server,
        &["--auto-continue", "off"],
        Some(&out),
        &[],
    ) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("A question");
    wait_prompt(t, 2);
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);
    let screen = t.screen();
    assert!(!screen.contains("Piped answer."), "{screen}");
    let stream = std::fs::read_to_string(&out).unwrap();
    let events: Vec<Value> = stream
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["init", "message", "message", "result"], "{stream}");
    assert_eq!(events[1]["role"], "user");
    assert_eq!(events[2]["content"], "Piped answer.");
    assert_eq!(events[3]["status"], "success");
}

#[test]
fn input_history_is_kept_across_sessions() {
    let server = FakeGemini::start("repl-history", vec![text("One."), text("Two.")]);
    let Some(s) = start("repl-history", &server, &["--auto-continue", "off"]) else {
        return;
    };
    wait_prompt(&s.tmux, 1);
    s.tmux.line("remember this line");
    s.tmux.wait_for("One.");
    wait_prompt(&s.tmux, 2);
    s.tmux.keys(&["C-d"]);
    assert_eq!(s.tmux.wait_exit(), 0);
    let file = s.home.join("gemline/repl_history");
    let kept = std::fs::read_to_string(&file).unwrap();
    assert!(kept.contains("remember this line"), "{kept}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    drop(s.tmux);

    let again = launch(&s.home, &server, &["--auto-continue", "off"], None, &[]);
    wait_prompt(&again, 1);
    again.keys(&["Up", "Enter"]);
    again.wait_for("Two.");
    assert_eq!(user_texts(&server.bodies()[1]), ["remember this line"]);
    wait_prompt(&again, 2);
    again.keys(&["C-d"]);
    assert_eq!(again.wait_exit(), 0);
}

#[test]
fn the_status_line_colours_each_state_unless_no_color() {
    let server = FakeGemini::start("repl-colour", vec![text("Step."), text("Next step.")]);
    let Some(s) = start("repl-colour", &server, &["--max-consecutive-turns", "1"]) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("Go");
    t.wait_for("auto-continue stopped after 1 turn(s)");
    let screen = t.screen_ansi();
    assert!(screen.contains("\x1b[32mwaiting for you"), "{screen:?}");
    assert!(
        screen.contains("\x1b[33mcontinuing on its own (1/1"),
        "{screen:?}"
    );
    wait_prompt(t, 2);
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);

    let server = FakeGemini::start("repl-no-colour", vec![]);
    let Some(s) = start_with("repl-no-colour", &server, &[], None, &[("NO_COLOR", "1")]) else {
        return;
    };
    wait_prompt(&s.tmux, 1);
    let screen = s.tmux.screen_ansi();
    assert!(!screen.contains('\x1b'), "{screen:?}");
    s.tmux.line("/quit");
    assert_eq!(s.tmux.wait_exit(), 0);
}

#[test]
fn sigterm_at_the_prompt_ends_the_session_with_143_and_a_result() {
    let server = FakeGemini::start("repl-term", vec![]);
    let out = temp_dir("repl-term-out").join("events.jsonl");
    let Some(s) = start_with("repl-term", &server, &[], Some(&out), &[]) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("/new");
    t.wait_for("new session ");
    wait_prompt(t, 2);
    // SAFETY: a signal to the process the test started.
    unsafe {
        libc::kill(t.pid(), libc::SIGTERM);
    }
    assert_eq!(t.wait_exit(), 143);
    let stream = std::fs::read_to_string(&out).unwrap();
    let events: Vec<Value> = stream
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["init", "init", "result"], "{stream}");
    assert_eq!(events[2]["error"]["type"], "interrupted");
    assert_ne!(events[0]["session_id"], events[1]["session_id"]);
}

/// The last user text of a request body.
fn last_user_text(body: &Value) -> String {
    user_texts(body).pop().unwrap_or_default()
}

#[test]
fn a_request_for_input_stops_auto_continue() {
    let server = FakeGemini::start(
        "repl-need-input",
        vec![
            call(
                "signal",
                json!({"kind": "need_input", "message": "Which model?"}),
            ),
            text("Which model do you mean?"),
        ],
    );
    let Some(s) = start("repl-need-input", &server, &[]) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("Tell me about the BMW");
    t.wait_for("Which model do you mean?");
    let screen = wait_prompt(t, 2);
    assert!(!screen.contains("continuing on its own"), "{screen}");
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    let system = bodies[0]["systemInstruction"].to_string();
    assert!(system.contains("interactive session"), "{system}");
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);
}

#[test]
fn a_task_plans_first_then_works_with_the_users_guidance() {
    let server = FakeGemini::start(
        "repl-task",
        vec![
            text("Plan:\n\n1. Read the CSV.\n2. Write the report."),
            text("Read the CSV: 3 rows."),
            call(
                "signal",
                json!({"kind": "task_complete", "message": "report written"}),
            ),
            text("The report is written."),
        ],
    );
    let Some(s) = start("repl-task", &server, &["-t", "write the sales report"]) else {
        return;
    };
    let t = &s.tmux;
    let screen = wait_prompt(t, 1);
    // The plan comes first, then the user has the word.
    assert!(screen.contains("2. Write the report."), "{screen}");
    assert!(screen.contains("type go, or what to change"), "{screen}");
    assert!(
        screen.contains("chat+task │ gemini-3.5-flash │ $0.0002 │ waiting for you"),
        "{screen}"
    );
    assert_eq!(server.requests().len(), 1);
    t.line("go, and use a table");
    t.wait_for("task complete; the session goes on as a chat");
    let screen = wait_prompt(t, 2);
    assert!(screen.contains("The report is written."), "{screen}");
    assert!(
        screen.contains("chat │ gemini-3.5-flash │ $0.0007 │ waiting for you"),
        "{screen}"
    );
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 4);
    assert!(last_user_text(&bodies[0]).contains("First outline a short numbered plan"));
    let guided = last_user_text(&bodies[1]);
    assert!(
        guided.starts_with("Continue. The task: write the sales report"),
        "{guided}"
    );
    assert!(
        guided.ends_with("The user says: go, and use a table"),
        "{guided}"
    );
    let on_its_own = last_user_text(&bodies[2]);
    assert!(!on_its_own.contains("The user says"), "{on_its_own}");
    let system = bodies[0]["systemInstruction"].to_string();
    assert!(system.contains("working on a task"), "{system}");
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);
}

/// With no terminal at all, the questions come from stdin, one a line,
/// and everything for the user goes to stderr: stdout keeps the stream.
#[test]
fn without_a_terminal_questions_come_from_stdin() {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let server = FakeGemini::start("repl-no-tty", vec![text("Four.")]);
    let home = temp_dir("repl-no-tty");
    let mut cmd = support::gem_ask_std_cmd(&server, &home);
    cmd.args(["-i", "--auto-continue", "off"])
        .env("XDG_CONFIG_HOME", &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setsid in the child before exec: no controlling terminal.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"What is 2+2?\n/history\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let kinds: Vec<String> = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["type"].to_string())
        .collect();
    assert_eq!(
        kinds,
        [r#""init""#, r#""message""#, r#""message""#, r#""result""#],
        "{stdout}"
    );
    assert!(stdout.contains(r#""content":"What is 2+2?""#), "{stdout}");
    assert!(stderr.contains("  1. > What is 2+2?"), "{stderr}");
    assert!(stderr.contains("waiting for you"), "{stderr}");
}

#[test]
fn a_grammar_chart_is_drawn_inline() {
    let spec = json!({"dataset":{"rows":[{"km":0,"pace":300},{"km":5,"pace":307},{"km":10,"pace":312}]},
        "fields":{"km":{"type":"number","unit":"km"},"pace":{"type":"number","unit":"s/km"}},
        "marks":[{"type":"line","x":"km","y":"pace"},{"type":"rule","xValue":5,"label":"5K"}]});
    let server = FakeGemini::start(
        "repl-plot",
        vec![
            call(
                "plot",
                json!({"title": "Run pace", "spec": spec, "fallbackText": "pace over 10 km"}),
            ),
            text("Pace rose after 5 km."),
        ],
    );
    let Some(s) = start("repl-plot", &server, &["--auto-continue", "off"]) else {
        return;
    };
    let t = &s.tmux;
    wait_prompt(t, 1);
    t.line("plot my run");
    t.wait_for("Pace rose after 5 km.");
    let screen = wait_prompt(t, 2);
    assert!(screen.contains("Run pace"), "{screen}");
    assert!(screen.contains("5K"), "{screen}");
    assert!(
        !screen.contains("pace over 10 km"),
        "the chart, not its fallback: {screen}"
    );
    t.keys(&["C-d"]);
    assert_eq!(t.wait_exit(), 0);
}
