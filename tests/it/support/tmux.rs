//! A real terminal for tests: a detached tmux session on a private server
//! (its own socket, no config), running one shell script, read back
//! screen by screen with `capture-pane`. The script ends in a long sleep
//! so its last screen stays to be read (not `remain-on-exit`: its "Pane is
//! dead" line scrolls the screen by one row).
//!
//! Without tmux the tests that need it skip with a note on stderr, except
//! under `CI=true`, where that is a failure (`.ci/setup-tmux.sh` installs it).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long a screen may take to become what a test waits for. Not a
/// timing assertion: a generous bound so a broken program fails instead
/// of hanging.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub struct Pane {
    socket: String,
    pub dir: PathBuf,
}

/// Whether tmux can be used; `false` (with a note) only outside CI.
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
            "SKIPPED {test}: tmux is not installed (.ci/setup-tmux.sh installs it)"
        );
    }
    ok
}

impl Pane {
    /// The test's own directory, made empty.
    pub fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gemline-tmux-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A `cols` x `rows` pane running `script` (bash); `dir` is
    /// [`Pane::dir`] of the same name (removed when the pane goes).
    pub fn start(name: &str, dir: PathBuf, cols: u16, rows: u16, script: &str) -> Pane {
        let conf = dir.join("tmux.conf");
        std::fs::write(&conf, "set -g history-limit 2000\nset -g status off\n").unwrap();
        std::fs::write(
            dir.join("script.sh"),
            format!("{script}\nexec sleep 3600\n"),
        )
        .unwrap();
        let pane = Pane {
            socket: format!("gemline-{}-{name}", std::process::id()),
            dir,
        };
        let cmd = format!("bash {}", pane.dir.join("script.sh").display());
        pane.tmux(&[
            "-f",
            conf.to_str().unwrap(),
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            &cols.to_string(),
            "-y",
            &rows.to_string(),
            "-e",
            "LC_ALL=C.UTF-8",
            "-e",
            "TERM=tmux-256color",
            &cmd,
        ]);
        // Not in the config file: tmux 3.3a's server dies reading it there.
        // Detached, the size given stays (resize-window sets it too).
        pane.tmux(&["set-option", "-w", "-t", "t", "window-size", "manual"]);
        pane
    }

    pub fn tmux(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env("LC_ALL", "C.UTF-8")
            .output()
            .expect("tmux runs");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The visible screen, one string per row, trailing blanks trimmed.
    pub fn screen(&self) -> Vec<String> {
        self.tmux(&["capture-pane", "-p", "-t", "t"])
            .lines()
            .map(|l| l.trim_end().to_string())
            .collect()
    }

    /// A pane variable (`history_size`, `cursor_flag`, `pane_width`).
    pub fn var(&self, name: &str) -> String {
        self.tmux(&["display-message", "-p", "-t", "t", &format!("#{{{name}}}")])
            .trim()
            .to_string()
    }

    pub fn keys(&self, keys: &str) {
        self.tmux(&["send-keys", "-t", "t", keys]);
    }

    pub fn resize(&self, cols: u16, rows: u16) {
        self.tmux(&[
            "resize-window",
            "-t",
            "t",
            "-x",
            &cols.to_string(),
            "-y",
            &rows.to_string(),
        ]);
    }

    /// Waits until the screen satisfies `ok`; panics with the last screen.
    pub fn wait_for(&self, what: &str, ok: impl Fn(&[String]) -> bool) -> Vec<String> {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if ok(&s) {
                return s;
            }
            if start.elapsed() > PATIENCE {
                panic!(
                    "the screen never showed {what}; last screen:\n{}",
                    s.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for a file the script writes.
    pub fn wait_file(&self, path: &Path) -> String {
        let start = Instant::now();
        loop {
            if let Ok(s) = std::fs::read_to_string(path)
                && s.ends_with('\n')
            {
                return s;
            }
            if start.elapsed() > PATIENCE {
                panic!(
                    "{} never came; screen:\n{}",
                    path.display(),
                    self.screen().join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Pane {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .arg("kill-server")
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
