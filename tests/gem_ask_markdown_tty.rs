//! gem-ask on a real terminal (tmux) draws a replayed answer as a
//! formatted document (issue 8): the recorded Gemini stream
//! (testdata/markdown/primes.replay, from ../shared/fixtures/gemini/03,
//! thought summaries and a numbered list) is drawn with the thoughts' `**`
//! subjects as dim text, not asterisks, and `--markdown off` shows them raw.

mod support;

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const PROMPT: &str = "What is the sum of the first 50 prime numbers?";

fn tmux_present() -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "tmux is missing under CI (.ci/setup-tmux.sh installs it)"
        );
        let _ = writeln!(
            std::io::stderr().lock(),
            "SKIPPED: tmux is not installed (.ci/setup-tmux.sh installs it)"
        );
    }
    ok
}

/// A private tmux server for one test; killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn new(name: &str) -> Tmux {
        Tmux {
            socket: format!("gemline-{name}-{}", std::process::id()),
        }
    }

    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket, "-f", "/dev/null"]);
        c
    }

    /// Runs `script` in a detached 80x40 pane, with a marker printed after.
    fn run(&self, script: &str) {
        let status = self
            .cmd()
            .args(["new-session", "-d", "-x", "80", "-y", "40", "-s", "t"])
            .arg(format!("{script}; echo __DONE__$?; sleep 60"))
            .env("TERM", "xterm-256color")
            .env_remove("NO_COLOR")
            .env_remove("COLUMNS")
            .status()
            .expect("tmux");
        assert!(status.success());
    }

    /// The pane with its history; `escapes` keeps the SGR sequences.
    fn capture(&self, escapes: bool) -> String {
        let mut c = self.cmd();
        c.args(["capture-pane", "-p", "-J", "-S", "-", "-t", "t"]);
        if escapes {
            c.arg("-e");
        }
        String::from_utf8_lossy(&c.output().expect("capture-pane").stdout).into_owned()
    }

    fn wait_done(&self) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let screen = self.capture(false);
            if screen.contains("__DONE__") || Instant::now() > deadline {
                return screen;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

fn gem_ask(extra: &str) -> String {
    let bin = assert_cmd::cargo::cargo_bin!("gem-ask");
    let replay = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/markdown/primes.replay");
    let home = support::temp_dir(&format!("md-tty{}", extra.len()));
    format!(
        "cd {home} && XDG_STATE_HOME={home} XDG_CONFIG_HOME={home} {bin} --replay {replay} --thoughts {extra} '{PROMPT}' 2>/dev/null",
        home = home.display(),
        bin = bin.display(),
        replay = replay.display(),
    )
}

#[test]
fn a_replayed_answer_is_drawn_formatted_on_a_terminal() {
    if !tmux_present() {
        return;
    }
    let t = Tmux::new("md");
    t.run(&gem_ask(""));
    let screen = t.wait_done();
    assert!(
        screen.contains("__DONE__0"),
        "gem-ask did not finish with 0:\n{screen}"
    );
    // The thought subjects are text, not Markdown source.
    for subject in [
        "Calculating Prime Sum",
        "Summing Prime Numbers",
        "Verifying Prime Sum",
    ] {
        assert!(
            screen.lines().any(|l| l.trim_end() == subject),
            "{subject:?} not drawn on a line of its own:\n{screen}"
        );
    }
    assert!(
        !screen.contains("**"),
        "raw Markdown on the screen:\n{screen}"
    );
    // The list and the answer's last line.
    assert!(
        screen.lines().any(|l| l.trim_end() == "50. 229"),
        "{screen}"
    );
    assert!(screen.contains("The sum of the first 50 prime numbers is 5117."));
    assert!(
        screen
            .lines()
            .all(|l| unicode_width::UnicodeWidthStr::width(l) <= 80),
        "{screen}"
    );
    // Thoughts are dim (SGR 2), the answer is not.
    let styled = t.capture(true);
    let subject = styled
        .lines()
        .find(|l| l.contains("Calculating Prime Sum"))
        .expect("subject line");
    assert!(
        subject.contains("\u{1b}[2m"),
        "thought not dim: {subject:?}"
    );
    let answer = styled
        .lines()
        .find(|l| l.contains("is 5117."))
        .expect("answer line");
    assert!(!answer.contains("\u{1b}[2m"), "answer dim: {answer:?}");
}

#[test]
fn with_markdown_off_the_same_answer_shows_its_source() {
    if !tmux_present() {
        return;
    }
    let t = Tmux::new("raw");
    t.run(&gem_ask("--markdown off"));
    let screen = t.wait_done();
    assert!(screen.contains("__DONE__0"), "{screen}");
    assert!(screen.contains("**Calculating Prime Sum**"), "{screen}");
}
