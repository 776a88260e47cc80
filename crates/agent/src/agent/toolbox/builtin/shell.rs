//! `run_shell_command` (`standard`): one `sh -c` command line in the
//! working directory or a directory inside the workspace. The consent
//! prompt shows the command exactly as it will run and where. The command
//! gets no stdin (the pipeline's belongs to gem-ask), runs in a session and
//! process group of its own, in the sandbox when there is one
//! ([`process`](crate::agent::toolbox::process) runs it), and its output is
//! capped. It is waited for, not its output: what it leaves running in the
//! background is stopped when it ends, and the whole group is killed at
//! `--tool-timeout`, Ctrl-C or `--task-timeout`; the result names what was
//! stopped.

use std::os::fd::{AsFd, AsRawFd};
use std::process::Command;

use serde_json::{Value, json};

use super::args::str_arg;
use super::files;
use super::place;
use crate::agent::toolbox::process::{self, Outcome, PreExec};
use crate::agent::toolbox::{Ctx, Done, Failed, Level, Ran, Source, Tool, ToolResult};
use crate::events::Event;

/// Most bytes kept of each of stdout and stderr.
pub const MAX_OUTPUT: usize = 64 * 1024;

pub const NAME: &str = "run_shell_command";

pub fn tool() -> Tool {
    Tool::new(declaration(), Source::Builtin, Level::Standard, run)
        .on_request()
        .with_guidance(place::WORKSPACE, files::guidance)
        .with_check(|a, c| files::inside(a, "directory", Some("."), c))
        .with_preview(|a, c| {
            let command = str_arg(a, "command").unwrap_or("?");
            let dir = str_arg(a, "directory").unwrap_or(".");
            let at = c
                .workspace
                .resolve(dir)
                .map_or_else(|e| e.to_string(), |p| p.display().to_string());
            format!("sh -c {}\nin {at}", quote(command))
        })
}

fn declaration() -> Value {
    json!({
        "name": NAME,
        "description": format!("Runs one command line with sh -c in the working directory (or a directory inside \
            it) and returns its exit code, stdout and stderr (each cut at {} KiB). The user is asked first and \
            sees the exact command. It has no stdin and is stopped at the tool timeout; processes it leaves in \
            the background are stopped when it ends.", MAX_OUTPUT / 1024),
        "parameters": {"type": "OBJECT", "properties": {
            "command": {"type": "STRING", "description": "The command line, e.g. ls -la src."},
            "directory": {"type": "STRING", "description": "Where to run it, relative to the working directory (default .)."}
        }, "required": ["command"]}
    })
}

/// A shell word the user can read back exactly.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn run(args: &Value, ctx: &Ctx<'_>) -> Ran {
    let command = match str_arg(args, "command").filter(|c| !c.trim().is_empty()) {
        Some(c) => c,
        None => {
            return Ran::failed(Failed::new(
                "invalid_arguments",
                "run_shell_command: command is required, e.g. {\"command\":\"ls -la\"}",
            ));
        }
    };
    let dir = str_arg(args, "directory").unwrap_or(".");
    let (cwd, _) = match ctx.workspace.open_dir(dir) {
        Ok(d) => d,
        Err(f) => return Ran::failed(f),
    };
    let sandbox = match ctx.workspace.sandbox().prepare() {
        Ok(s) => s,
        Err(f) => return Ran::failed(f),
    };
    let mut events = Vec::new();
    if let Some(n) = &sandbox.notice {
        events.push(Event::error("warning", n));
    }
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(command);
    process::child_env(&mut cmd, sandbox.tmpdir.as_deref());
    let pre = PreExec {
        new_session: true,
        cwd: Some(cwd.as_fd().as_raw_fd()),
        landlock: sandbox.ruleset_fd(),
    };
    let result = match process::run(cmd, pre, ctx, MAX_OUTPUT) {
        Ok(outcome) => answer(outcome, ctx),
        Err(e) => Err(Failed::new("tool_failed", format!("cannot start sh: {e}"))),
    };
    // The directory and the ruleset stay open until the command started.
    drop((cwd, sandbox));
    Ran {
        events,
        result,
        new_topic: None,
    }
}

/// The result of a run: its exit code and output; or, stopped, why and
/// what was killed, with the output it had given.
fn answer(o: Outcome, ctx: &Ctx<'_>) -> ToolResult {
    let stdout = o.stdout.text(MAX_OUTPUT);
    let stderr = o.stderr.text(MAX_OUTPUT);
    let mut output = String::new();
    for (name, body) in [("stdout", &stdout), ("stderr", &stderr)] {
        if !body.is_empty() {
            output.push_str(&format!("\n{name}:\n{body}"));
        }
    }
    let escaped = |text: &mut String| {
        if !o.escaped.is_empty() {
            text.push_str(&format!(
                "; processes that had left its process group but still held its output were killed: {}",
                list(&o.escaped)
            ));
        }
    };
    if let Some(why) = o.stopped {
        let mut msg = ctx.stop_failure(NAME, why).message;
        msg.push_str(&format!(
            "; its process group was killed ({})",
            list(&o.killed)
        ));
        escaped(&mut msg);
        msg.push_str(&output);
        return Err(Failed {
            message: msg,
            ..ctx.stop_failure(NAME, why)
        });
    }
    let status = o.status.expect("a command not stopped has ended");
    let code = status.code();
    let mut text = match code {
        Some(c) => format!("exit code {c}"),
        None => format!(
            "killed by signal {}",
            std::os::unix::process::ExitStatusExt::signal(&status).unwrap_or(0)
        ),
    };
    let mut note = String::new();
    if !o.killed.is_empty() {
        note = format!(
            "background processes still running when the command ended were killed: {}",
            list(&o.killed)
        );
    }
    escaped(&mut note);
    let note = note.trim_start_matches("; ").to_string();
    text.push_str(&output);
    let mut response = json!({"exit_code": code, "stdout": stdout, "stderr": stderr});
    if !note.is_empty() {
        text.push_str(&format!("\n[{note}]"));
        response["note"] = note.into();
    }
    Ok(Done {
        response,
        output: text,
    })
}

fn list(ps: &[process::Process]) -> String {
    if ps.is_empty() {
        return "no process was left".into();
    }
    ps.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::toolbox::Workspace;
    use std::time::{Duration, Instant};

    fn ctx(w: &Workspace, secs: u64) -> Ctx<'_> {
        Ctx::new(w, Duration::from_secs(secs), "t1")
    }

    fn sh(command: &str, w: &Workspace, secs: u64) -> ToolResult {
        run(&json!({ "command": command }), &ctx(w, secs)).result
    }

    #[test]
    fn runs_and_reports_exit_code_and_output() {
        let w = Workspace::current().unwrap();
        let d = sh("echo hi; echo oops >&2; exit 3", &w, 30).unwrap();
        assert_eq!(d.output, "exit code 3\nstdout:\nhi\n\nstderr:\noops\n");
        assert_eq!(d.response["exit_code"], 3);
    }

    #[test]
    fn output_is_capped_and_timeouts_kill() {
        let w = Workspace::current().unwrap();
        let d = sh("head -c 200000 /dev/zero | tr '\\0' x", &w, 30).unwrap();
        assert!(
            d.output.contains("[output cut: 200000 bytes"),
            "{}",
            &d.output[..40]
        );
        let started = Instant::now();
        let e = sh("echo begun; sleep 30", &w, 1).unwrap_err();
        assert_eq!(e.kind, "timeout");
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(
            e.message.starts_with(
                "run_shell_command was stopped after 1 s (--tool-timeout); \
                 its process group was killed (sh -c echo begun; sleep 30 (pid "
            ),
            "{}",
            e.message
        );
        assert!(e.message.ends_with("\nstdout:\nbegun\n"), "{}", e.message);
    }

    #[test]
    fn the_command_is_waited_for_not_its_background_children() {
        let w = Workspace::current().unwrap();
        let d = sh("sleep 27 & echo $!", &w, 60).unwrap();
        let pid: i32 = d.response["stdout"]
            .as_str()
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // The background job as the shell forked it, its `sleep` too once
        // it had started.
        let note = d.response["note"].as_str().unwrap();
        assert!(
            note.starts_with(
                "background processes still running when the command ended were killed: "
            ),
            "{note}"
        );
        assert!(note.contains(&format!("(pid {pid})")), "{note}");
        assert!(d.output.starts_with("exit code 0\nstdout:\n"));
        // Gone, or a zombie waiting for its new parent to reap it. SIGKILL
        // is delivered asynchronously: on a loaded machine the process may
        // still be seen running for a moment after kill(2) returned.
        let gone = |state: &str| state.is_empty() || state.contains(") Z ");
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        while !gone(&state) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
            state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        }
        assert!(gone(&state), "{state}");
    }

    #[test]
    fn a_child_that_leaves_the_group_but_holds_the_output_is_found() {
        let w = Workspace::current().unwrap();
        let d = sh("setsid sleep 28 & sleep 0.2; echo done", &w, 60).unwrap();
        let note = d.response["note"].as_str().unwrap_or_default();
        assert!(
            note.contains(
                "processes that had left its process group but still held its output were killed: sleep 28 (pid "
            ),
            "{}",
            d.output
        );
    }

    #[test]
    fn the_prompt_shows_the_exact_command() {
        let w = Workspace::current().unwrap();
        let t = tool();
        let shown = t.preview(&json!({"command": "rm -rf 'a b'"}), &ctx(&w, 1));
        assert!(shown.starts_with(r"sh -c 'rm -rf '\''a b'\'''"), "{shown}");
        assert!(
            run(&json!({"command": "pwd", "directory": "/"}), &ctx(&w, 1))
                .result
                .is_err()
        );
    }
}
