//! `run_shell_command` (`standard`): one `sh -c` command line in the
//! working directory or a directory inside the workspace. The consent
//! prompt shows the command exactly as it will run and where. The command
//! gets no stdin (the pipeline's belongs to gem-ask), runs in its own
//! process group so a timeout kills everything it started, and its output
//! is capped.

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::files::{self, str_arg};
use super::place;
use crate::agent::toolbox::{Ctx, Done, Failed, Level, Ran, Source, Tool, ToolResult};

/// Most bytes kept of each of stdout and stderr.
pub const MAX_OUTPUT: usize = 64 * 1024;

pub const NAME: &str = "run_shell_command";

pub fn tool() -> Tool {
    Tool::new(declaration(), Source::Builtin, Level::Standard, |a, c| {
        Ran::from(run(a, c))
    })
    .on_request()
    .with_guidance(place::WORKSPACE, files::guidance)
    .with_check(|a, c| files::inside(a, "directory", Some("."), c))
    .with_preview(|a, c| {
        let command = str_arg(a, "command").unwrap_or("?");
        let dir = str_arg(a, "directory").unwrap_or(".");
        let at = c
            .workspace
            .resolve(dir)
            .map_or_else(|e| e, |p| p.display().to_string());
        format!("sh -c {}\nin {at}", quote(command))
    })
}

fn declaration() -> Value {
    json!({
        "name": NAME,
        "description": format!("Runs one command line with sh -c in the working directory (or a directory inside \
            it) and returns its exit code, stdout and stderr (each cut at {} KiB). The user is asked first and \
            sees the exact command. It has no stdin and is stopped at the tool timeout.", MAX_OUTPUT / 1024),
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

fn run(args: &Value, ctx: &Ctx<'_>) -> ToolResult {
    let command = str_arg(args, "command")
        .filter(|c| !c.trim().is_empty())
        .ok_or_else(|| {
            Failed::new(
                "invalid_arguments",
                "run_shell_command: command is required, e.g. {\"command\":\"ls -la\"}",
            )
        })?;
    let dir = str_arg(args, "directory").unwrap_or(".");
    let cwd = ctx
        .workspace
        .resolve(dir)
        .map_err(|e| Failed::new("path_refused", e))?;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(&cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| Failed::new("tool_failed", format!("cannot start sh: {e}")))?;
    let out = capture(child.stdout.take());
    let err = capture(child.stderr.take());
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if Instant::now() >= ctx.deadline => break None,
            Ok(None) => thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(Failed::new("tool_failed", format!("waiting for sh: {e}"))),
        }
    };
    let Some(status) = status else {
        // SAFETY: kill(2) on the process group the child leads.
        unsafe {
            libc::kill(-(child.id() as i32), libc::SIGKILL);
        }
        let _ = child.wait();
        return Err(Failed::timed_out(NAME, ctx.timeout));
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let code = status.code();
    let mut text = match code {
        Some(c) => format!("exit code {c}"),
        None => "killed by a signal".to_string(),
    };
    for (name, body) in [("stdout", &stdout), ("stderr", &stderr)] {
        if !body.is_empty() {
            text.push_str(&format!("\n{name}:\n{body}"));
        }
    }
    Ok(Done {
        response: json!({"exit_code": code, "stdout": stdout, "stderr": stderr}),
        output: text,
    })
}

/// Reads a pipe to its end on a thread, keeping the first [`MAX_OUTPUT`]
/// bytes (the rest is drained so the command never blocks on a full pipe).
fn capture(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let Some(mut pipe) = pipe else {
            return String::new();
        };
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        let mut total = 0usize;
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            total += n;
            let room = MAX_OUTPUT.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        let mut s = String::from_utf8_lossy(&kept).into_owned();
        if total > MAX_OUTPUT {
            s.push_str(&format!(
                "\n[output cut: {total} bytes, the first {} KiB shown]",
                MAX_OUTPUT / 1024
            ));
        }
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::toolbox::Workspace;

    fn ctx(w: &Workspace, secs: u64) -> Ctx<'_> {
        Ctx {
            workspace: w,
            deadline: Instant::now() + Duration::from_secs(secs),
            timeout: Duration::from_secs(secs),
            tool_id: "t1",
            memory: None,
        }
    }

    #[test]
    fn runs_and_reports_exit_code_and_output() {
        let w = Workspace::current().unwrap();
        let d = run(
            &json!({"command": "echo hi; echo oops >&2; exit 3"}),
            &ctx(&w, 30),
        )
        .unwrap();
        assert_eq!(d.output, "exit code 3\nstdout:\nhi\n\nstderr:\noops\n");
        assert_eq!(d.response["exit_code"], 3);
    }

    #[test]
    fn output_is_capped_and_timeouts_kill() {
        let w = Workspace::current().unwrap();
        let d = run(
            &json!({"command": "head -c 200000 /dev/zero | tr '\\0' x"}),
            &ctx(&w, 30),
        )
        .unwrap();
        assert!(
            d.output.contains("[output cut: 200000 bytes"),
            "{}",
            &d.output[..40]
        );
        let started = Instant::now();
        let e = run(&json!({"command": "sleep 30"}), &ctx(&w, 1)).unwrap_err();
        assert_eq!(e.kind, "timeout");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn the_prompt_shows_the_exact_command() {
        let w = Workspace::current().unwrap();
        let t = tool();
        let shown = t.preview(&json!({"command": "rm -rf 'a b'"}), &ctx(&w, 1));
        assert!(shown.starts_with(r"sh -c 'rm -rf '\''a b'\'''"), "{shown}");
        assert!(run(&json!({"command": "pwd", "directory": "/"}), &ctx(&w, 1)).is_err());
    }
}
