//! gem-ask on a real terminal (tmux) draws a replayed answer as a
//! formatted document (issue 8): the recorded Gemini stream
//! (testdata/markdown/primes.replay, from ../shared/fixtures/gemini/03,
//! thought summaries and a numbered list) is drawn with the thoughts' `**`
//! subjects as dim text, not asterisks, and `--markdown off` shows them raw.

use crate::support;
use crate::support::tmux;

use std::path::Path;

use tmux::Tmux;

const PROMPT: &str = "What is the sum of the first 50 prime numbers?";

/// Runs gem-ask with `extra` flags in an 80x40 pane until it exits; the
/// pane, with its history, stays to be read.
fn run_in_pane(name: &str, extra: &str) -> Tmux {
    let pane = Tmux::script(
        &support::temp_dir(name),
        80,
        40,
        &format!("{}; echo __DONE__$?", gem_ask(extra)),
    );
    pane.wait_rows("gem-ask to exit", |rows| {
        rows.iter().any(|r| r.contains("__DONE__"))
    });
    pane
}

fn gem_ask(extra: &str) -> String {
    let bin = assert_cmd::cargo::cargo_bin!("gem-ask");
    let replay = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/markdown/primes.replay");
    let home = support::temp_dir(&format!("md-tty{}", extra.len()));
    format!(
        "cd {home} && env -u NO_COLOR -u COLUMNS XDG_STATE_HOME={home} XDG_CONFIG_HOME={home} {bin} --replay {replay} -m gemini-2.5-flash --thoughts {extra} '{PROMPT}' 2>/dev/null",
        home = home.display(),
        bin = bin.display(),
        replay = replay.display(),
    )
}

#[test]
fn a_replayed_answer_is_drawn_formatted_on_a_terminal() {
    if !tmux::available("a_replayed_answer_is_drawn_formatted_on_a_terminal") {
        return;
    }
    let t = run_in_pane("md", "");
    let screen = t.screen();
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
    let styled = t.screen_ansi();
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
    if !tmux::available("with_markdown_off_the_same_answer_shows_its_source") {
        return;
    }
    let t = run_in_pane("raw", "--markdown off");
    let screen = t.screen();
    assert!(screen.contains("__DONE__0"), "{screen}");
    assert!(screen.contains("**Calculating Prime Sum**"), "{screen}");
}
