//! A real terminal for tests: a detached tmux session on a private server
//! (its own socket in the test's directory, its own config), keys sent
//! with `send-keys`, the screen read back with `capture-pane`. Waiting is
//! polling with a long deadline, never a timed assertion: a slow machine
//! only makes a test slower.
//!
//! Two ways to start one: [`Tmux::script`] runs a bash script that ends
//! in a long sleep, so its last screen stays to be read (the program's
//! exit code is whatever the script writes); [`Tmux::program`] runs one
//! program with exactly the environment given, and keeps its exit status.
//!
//! Without tmux the tests that need it skip with a note on stderr, except
//! under CI (`CI` set), where that is a failure (`.ci/setup-tmux.sh`
//! installs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// How long a screen, a file or an exit may take to come. Not a timing
/// assertion: a generous bound so a broken program fails instead of
/// hanging.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// The session's (and its window's) name.
const TARGET: &str = "t";

/// Whether tmux can be used; `false` (with a note naming `test`) only
/// outside CI.
pub fn available(test: &str) -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: tmux is missing (run .ci/setup-tmux.sh)"
        );
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr().lock(),
            "SKIPPED {test}: tmux is not installed (.ci/setup-tmux.sh installs it): \
             NOT tested on a terminal"
        );
    }
    ok
}

pub struct Tmux {
    /// The test's directory: the server's socket and config, the script.
    pub dir: PathBuf,
    socket: PathBuf,
    conf: PathBuf,
    /// Where [`Tmux::program`]'s wrapper writes the exit status.
    status: Option<PathBuf>,
}

impl Tmux {
    /// A `cols` x `rows` terminal (TERM=tmux-256color, LC_ALL=C.UTF-8, the
    /// test's environment otherwise) running `script` with bash, followed
    /// by a long sleep: the pane never closes, so nothing scrolls its last
    /// screen (not `remain-on-exit`'s "Pane is dead" line either).
    pub fn script(dir: &Path, cols: u16, rows: u16, script: &str) -> Tmux {
        let file = dir.join("script.sh");
        std::fs::write(&file, format!("{script}\nexec sleep 3600\n")).unwrap();
        let t = Tmux::new(dir, None);
        let cmd = format!(
            "bash {}",
            shlex::try_quote(&file.display().to_string()).unwrap()
        );
        t.new_session(
            cols,
            rows,
            &["-e", "LC_ALL=C.UTF-8", "-e", "TERM=tmux-256color", &cmd],
        );
        t
    }

    /// Starts `argv` in a `cols` x `rows` terminal with exactly `env` as
    /// its environment (plus TERM=screen-256color); a wrapper shell keeps
    /// its exit status for [`Tmux::exit_status`].
    pub fn program(
        dir: &Path,
        env: &[(&str, String)],
        argv: &[&str],
        cols: u16,
        rows: u16,
    ) -> Tmux {
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
        let t = Tmux::new(dir, Some(status));
        let mut args = vec!["--"];
        args.extend(cmd.iter().map(String::as_str));
        t.new_session(cols, rows, &args);
        t
    }

    fn new(dir: &Path, status: Option<PathBuf>) -> Tmux {
        let conf = dir.join("tmux.conf");
        std::fs::write(
            &conf,
            "set -g remain-on-exit on\nset -g history-limit 10000\nset -g status off\n",
        )
        .unwrap();
        Tmux {
            dir: dir.to_path_buf(),
            socket: dir.join("tmux.sock"),
            conf,
            status,
        }
    }

    /// Starts the server with a detached session of this size; `command`
    /// ends the new-session arguments.
    fn new_session(&self, cols: u16, rows: u16, command: &[&str]) {
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
        ];
        args.extend(command);
        self.run(&args);
        // Not in the config file: tmux 3.3a's server dies reading it there.
        // Detached, the size given stays (resize-window sets it too).
        self.run(&["set-option", "-w", "-t", TARGET, "window-size", "manual"]);
    }

    fn tmux(&self) -> Command {
        let mut c = Command::new("tmux");
        c.arg("-S")
            .arg(&self.socket)
            .arg("-f")
            .arg(&self.conf)
            .env("LC_ALL", "C.UTF-8");
        c
    }

    fn run(&self, args: &[&str]) -> String {
        let out: Output = self.tmux().args(args).output().expect("tmux runs");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
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

    pub fn resize(&self, cols: u16, rows: u16) {
        self.run(&[
            "resize-window",
            "-t",
            TARGET,
            "-x",
            &cols.to_string(),
            "-y",
            &rows.to_string(),
        ]);
    }

    /// Pipes everything the program writes to the terminal into `command`
    /// (run by tmux with `sh -c`), as it arrives; an empty `command` closes
    /// the pipe.
    pub fn pipe_pane(&self, command: &str) {
        if command.is_empty() {
            self.run(&["pipe-pane", "-t", TARGET]);
        } else {
            self.run(&["pipe-pane", "-o", "-t", TARGET, command]);
        }
    }

    /// A pane variable (`history_size`, `cursor_flag`, `pane_width`).
    pub fn var(&self, name: &str) -> String {
        self.run(&[
            "display-message",
            "-p",
            "-t",
            TARGET,
            &format!("#{{{name}}}"),
        ])
        .trim()
        .to_string()
    }

    /// The visible screen, one string per row, trailing blanks trimmed.
    pub fn rows(&self) -> Vec<String> {
        self.run(&["capture-pane", "-p", "-t", TARGET])
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect()
    }

    /// Only what the terminal shows now, without the scrollback, wrapped
    /// lines joined.
    pub fn visible(&self) -> String {
        self.run(&["capture-pane", "-p", "-J", "-t", TARGET])
            .trim_end()
            .to_string()
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

    fn capture(&self, ansi: bool) -> String {
        let mut args = vec!["capture-pane", "-p", "-J", "-S", "-", "-t", TARGET];
        if ansi {
            args.push("-e");
        }
        self.run(&args).trim_end().to_string()
    }

    /// Polls `ready` every 50 ms until it gives a value; past [`PATIENCE`]
    /// fails saying `what` it waited for and, from `state`, how things are.
    fn poll<T>(
        &self,
        what: &str,
        mut ready: impl FnMut() -> Option<T>,
        state: impl Fn() -> String,
    ) -> T {
        let start = Instant::now();
        loop {
            if let Some(v) = ready() {
                return v;
            }
            if start.elapsed() > PATIENCE {
                panic!("waited {PATIENCE:?} for {what}; {}", state());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the visible rows satisfy `ok`; fails with the last ones.
    pub fn wait_rows(&self, what: &str, ok: impl Fn(&[String]) -> bool) -> Vec<String> {
        self.poll(
            what,
            || Some(self.rows()).filter(|s| ok(s)),
            || format!("the last screen:\n{}", self.rows().join("\n")),
        )
    }

    /// Waits until the whole screen (see [`Tmux::screen`]) satisfies `ok`.
    pub fn wait_until(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        self.poll(
            what,
            || Some(self.screen()).filter(|s| ok(s)),
            || format!("the screen:\n{}", self.screen()),
        )
    }

    /// Waits for `text` to be on the screen.
    pub fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Waits for a file the script writes, whole (ending in a newline).
    pub fn wait_file(&self, path: &Path) -> String {
        self.poll(
            &path.display().to_string(),
            || {
                std::fs::read_to_string(path)
                    .ok()
                    .filter(|s| s.ends_with('\n'))
            },
            || format!("the screen:\n{}", self.rows().join("\n")),
        )
    }

    /// The program's exit status once it has ended ([`Tmux::program`]).
    pub fn exit_status(&self) -> Option<i32> {
        let status = self.status.as_ref().expect("started with Tmux::program");
        std::fs::read_to_string(status)
            .ok()
            .and_then(|t| t.trim().parse().ok())
    }

    /// Waits for the program to end and gives its exit status.
    pub fn wait_exit(&self) -> i32 {
        self.poll(
            "the program to end",
            || self.exit_status(),
            || format!("{}; the screen:\n{}", self.where_stuck(), self.screen()),
        )
    }

    /// The program's process id: the wrapper shell's child.
    pub fn pid(&self) -> i32 {
        let sh = self.var("pane_pid");
        children(&sh)
            .split_whitespace()
            .next()
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no program under the shell {sh}"))
    }

    /// What each thread of the program waits in, and the terminal's
    /// modes, for a failure message.
    fn where_stuck(&self) -> String {
        let pid = children(&self.var("pane_pid")).trim().to_string();
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
        let tty = self.var("pane_tty");
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
}

/// The child processes of process `pid` (its main thread's), as
/// /proc lists them.
fn children(pid: &str) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default()
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux().arg("kill-server").output();
        let _ = std::fs::remove_file(&self.socket);
    }
}
