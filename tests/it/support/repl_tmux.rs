//! A real terminal for the REPL tests: the program runs in a detached tmux
//! session of its own server (its own socket, no user config), keys are
//! sent with `send-keys`, and the screen is read back with `capture-pane`.
//! Waiting is polling for text with a long deadline, never a timed
//! assertion: a slow machine only makes a test slower.
//!
//! tmux comes from `.ci/setup-tmux.sh`. Without it a test fails under
//! `CI=true` and is skipped, with a note on stderr, elsewhere.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// How long a test waits for text to appear before it fails.
pub const DEADLINE: Duration = Duration::from_secs(90);

/// Whether tmux can be used; panics under CI, where it must be installed.
pub fn available() -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("tmux is not installed (.ci/setup-tmux.sh installs it)");
        }
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "SKIPPED: tmux is not installed (.ci/setup-tmux.sh installs it): the REPL was NOT tested"
        );
    }
    ok
}

pub struct Tmux {
    socket: PathBuf,
    conf: PathBuf,
    /// Where the wrapper writes the exit status.
    status: PathBuf,
}

const TARGET: &str = "repl";

impl Tmux {
    /// Starts `argv` in a `cols` x `rows` terminal with exactly `env` as
    /// its environment (plus TERM).
    pub fn start(dir: &Path, env: &[(&str, String)], argv: &[&str], cols: u16, rows: u16) -> Tmux {
        let socket = dir.join("tmux.sock");
        let conf = dir.join("tmux.conf");
        std::fs::write(
            &conf,
            "set -g remain-on-exit on\nset -g history-limit 10000\nset -g status off\n",
        )
        .unwrap();
        let status = dir.join("exit-status");
        let _ = std::fs::remove_file(&status);
        let mut cmd: Vec<String> = vec!["env".into(), "-i".into()];
        cmd.push("TERM=screen-256color".into());
        cmd.extend(env.iter().map(|(k, v)| format!("{k}={v}")));
        cmd.extend(
            [
                "sh",
                "-c",
                "s=$1; shift; trap : INT TERM; \"$@\"; echo $? > \"$s.tmp\"; mv \"$s.tmp\" \"$s\"",
                "sh",
            ]
            .map(String::from),
        );
        cmd.push(status.display().to_string());
        cmd.extend(argv.iter().map(|s| s.to_string()));
        let t = Tmux {
            socket,
            conf,
            status,
        };
        let size = [cols.to_string(), rows.to_string()];
        let mut args = vec![
            "new-session",
            "-d",
            "-s",
            TARGET,
            "-x",
            &size[0],
            "-y",
            &size[1],
            "--",
        ];
        args.extend(cmd.iter().map(String::as_str));
        t.run(&args);
        t
    }

    fn tmux(&self) -> Command {
        let mut c = Command::new("tmux");
        c.arg("-S").arg(&self.socket).arg("-f").arg(&self.conf);
        c
    }

    fn run(&self, args: &[&str]) -> Output {
        let out = self.tmux().args(args).output().expect("run tmux");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    /// Keys by tmux name: `Enter`, `C-c`, `C-d`, `Tab`.
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", TARGET];
        args.extend(keys);
        self.run(&args);
    }

    /// Types text as it is, without Enter.
    pub fn type_text(&self, text: &str) {
        self.run(&["send-keys", "-t", TARGET, "-l", text]);
    }

    /// Types a line and presses Enter.
    pub fn line(&self, text: &str) {
        self.type_text(text);
        self.keys(&["Enter"]);
    }

    /// Everything the terminal showed, scrollback included, wrapped lines
    /// joined, trailing blanks trimmed.
    pub fn screen(&self) -> String {
        self.capture(false)
    }

    /// As [`Tmux::screen`], with the colour escapes.
    pub fn screen_ansi(&self) -> String {
        self.capture(true)
    }

    /// Only what the terminal shows now, without the scrollback.
    pub fn visible(&self) -> String {
        let out = self.run(&["capture-pane", "-p", "-J", "-t", TARGET]);
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    fn capture(&self, ansi: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-J", "-S", "-", "-t", TARGET];
        if ansi {
            args.push("-e");
        }
        let out = self.run(&args);
        String::from_utf8_lossy(&out.stdout).trim_end().to_string()
    }

    /// Polls the screen until `pred` holds; fails with the screen when the
    /// deadline passes.
    pub fn wait_until(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            if start.elapsed() > DEADLINE {
                panic!("waited {DEADLINE:?} for {what}; the screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits for `text` to be on the screen.
    pub fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Waits until `text` is on the screen `n` times.
    pub fn wait_for_n(&self, text: &str, n: usize) -> String {
        self.wait_until(&format!("{n} x {text:?}"), |s| s.matches(text).count() >= n)
    }

    /// The program's process id: the wrapper shell's child.
    pub fn pid(&self) -> i32 {
        let out = self.run(&["display-message", "-p", "-t", TARGET, "#{pane_pid}"]);
        let sh = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let children =
            std::fs::read_to_string(format!("/proc/{sh}/task/{sh}/children")).unwrap_or_default();
        children
            .split_whitespace()
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no program under the shell {sh}"))
    }

    /// What each thread of the program waits in, and the terminal's
    /// modes, for a failure message.
    fn where_stuck(&self) -> String {
        let out = self.run(&["display-message", "-p", "-t", TARGET, "#{pane_pid}"]);
        let sh = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let pid = std::fs::read_to_string(format!("/proc/{sh}/task/{sh}/children"))
            .unwrap_or_default()
            .trim()
            .to_string();
        let state = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .unwrap_or_default()
            .lines()
            .filter(|l| {
                l.starts_with("State:") || l.starts_with("PPid:") || l.starts_with("SigBlk:")
            })
            .collect::<Vec<_>>()
            .join(" ");
        let mut s = format!("pid {pid} {state}:");
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
            for t in tasks.flatten() {
                let read = |f: &str| std::fs::read_to_string(t.path().join(f)).unwrap_or_default();
                s.push_str(&format!(
                    " [{} in {}]",
                    read("comm").trim(),
                    read("wchan").trim()
                ));
            }
        }
        let out = self.run(&["display-message", "-p", "-t", TARGET, "#{pane_tty}"]);
        let tty = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if let Ok(f) = std::fs::File::open(&tty)
            && let Ok(o) = Command::new("stty").arg("-a").stdin(f).output()
        {
            s.push_str(&format!(
                " stty: {}",
                String::from_utf8_lossy(&o.stdout).replace('\n', " ")
            ));
        }
        s
    }

    /// The exit status once the program has ended.
    pub fn exit_status(&self) -> Option<i32> {
        std::fs::read_to_string(&self.status)
            .ok()
            .and_then(|t| t.trim().parse().ok())
    }

    /// Waits for the program to end and gives its exit status.
    pub fn wait_exit(&self) -> i32 {
        let start = Instant::now();
        loop {
            if let Some(code) = self.exit_status() {
                return code;
            }
            if start.elapsed() > DEADLINE {
                panic!(
                    "waited {DEADLINE:?} for the program to end; {}; the screen:\n{}",
                    self.where_stuck(),
                    self.screen()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").output();
        let _ = std::fs::remove_file(&self.socket);
    }
}
