//! A streamed Markdown answer on a real terminal (tmux), issue 23: the
//! open block is drawn as it grows and redrawn in place, so each word is
//! on the screen before the next one is sent, and the last picture is the
//! one a pipe gets. The time from a delta's arrival to its bytes reaching
//! the terminal is measured and printed (not asserted: CI is a loaded
//! machine): `cargo test --test it markdown_tty:: -- --nocapture`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support;
use crate::support::answer::{delta, viz_render};
use crate::support::tmux::{self, Tmux};

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(ok.success(), "mkfifo {}", path.display());
}

/// viz-render at 40 columns, colour off, reading events from a FIFO in a
/// 40x`rows` pane; the FIFO's path.
fn viz_render_in_pane(name: &str, rows: u16) -> (Tmux, PathBuf) {
    let dir = support::temp_dir(name);
    let fifo = dir.join("in.fifo");
    mkfifo(&fifo);
    let bin = assert_cmd::cargo::cargo_bin!("viz-render");
    let t = Tmux::script(
        &dir,
        40,
        rows,
        &format!(
            "env -u NO_COLOR {} --width 40 --color never < {}; echo __DONE__$?",
            bin.display(),
            fifo.display()
        ),
    );
    (t, fifo)
}

/// The answer: a paragraph that wraps, with emphasis across a line end
/// (drawn raw until it closes, then redrawn), then a list item.
const ANSWER: &str = "Streaming answers show **their first words\nat once** and then settle into *exactly* the picture that a pipe gets, one word at a time.\n\n- and a list item to close";

#[test]
fn a_paragraph_appears_word_by_word_and_ends_as_the_pipe_draws_it() {
    if !tmux::available("a_paragraph_appears_word_by_word_and_ends_as_the_pipe_draws_it") {
        return;
    }
    let (t, fifo) = viz_render_in_pane("md-words", 20);
    // Opening blocks until viz-render opens its end.
    let mut w = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    let mut sent = String::new();
    for piece in ANSWER.split_inclusive(' ') {
        w.write_all(delta(piece).as_bytes()).unwrap();
        w.flush().unwrap();
        sent.push_str(&delta(piece));
        // The word is on the screen before the next is sent (the
        // paragraph is not complete yet).
        for word in piece.split_whitespace() {
            let word = word.trim_matches(|c| "*_-".contains(c));
            if word.is_empty() {
                continue;
            }
            t.wait_rows(&format!("{word:?} on the screen"), |rows| {
                rows.iter().any(|r| r.contains(word))
            });
        }
    }
    drop(w);
    let rows = t.wait_rows("viz-render to end", |rows| {
        rows.iter().any(|r| r.contains("__DONE__"))
    });
    let drawn: Vec<&str> = rows
        .iter()
        .take_while(|r| !r.contains("__DONE__"))
        .map(String::as_str)
        .collect();
    assert!(rows.iter().any(|r| r == "__DONE__0"), "{rows:#?}");
    let piped = viz_render(&["--width", "40", "--color", "never"], sent);
    assert_eq!(drawn.join("\n"), piped.trim_end_matches('\n'));
    // The emphasis across the line end was drawn.
    assert!(
        piped.starts_with("Streaming answers show *their first\nwords\nat once* and then"),
        "{piped}"
    );
}

/// Bytes a terminal received, with when each piece came.
#[derive(Default)]
struct Received {
    bytes: Vec<u8>,
    /// (time, length of `bytes` after the piece).
    times: Vec<(Instant, usize)>,
}

impl Received {
    /// When the first `text` after byte `from` had wholly arrived.
    fn arrival(&self, text: &str, from: usize) -> Option<(Instant, usize)> {
        let at = self.bytes[from..]
            .windows(text.len())
            .position(|w| w == text.as_bytes())?
            + from;
        let end = at + text.len();
        let (time, _) = self.times.iter().find(|(_, len)| *len >= end)?;
        Some((*time, at))
    }
}

#[test]
fn streamed_deltas_reach_the_terminal_within_a_frame() {
    if !tmux::available("streamed_deltas_reach_the_terminal_within_a_frame") {
        return;
    }
    let (t, fifo) = viz_render_in_pane("md-latency", 24);
    let out_fifo = t.dir.join("out.fifo");
    mkfifo(&out_fifo);
    let received = Arc::new(Mutex::new(Received::default()));
    let reader = {
        let received = Arc::clone(&received);
        let path = out_fifo.clone();
        std::thread::spawn(move || {
            let mut f = std::fs::File::open(&path).unwrap();
            let mut buf = [0u8; 65536];
            while let Ok(n) = f.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let now = Instant::now();
                let mut r = received.lock().unwrap();
                r.bytes.extend_from_slice(&buf[..n]);
                let len = r.bytes.len();
                r.times.push((now, len));
            }
        })
    };
    t.pipe_pane(&format!("cat > {}", out_fifo.display()));
    let mut w = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
    // Words of a model's pace: a delta each 10 ms, paragraphs of 12
    // words.
    let mut sent = Vec::new();
    for i in 0..240 {
        let word = format!("w{i:03}");
        let text = if i % 12 == 11 {
            format!("{word}.\n\n")
        } else {
            format!("{word} ")
        };
        let at = Instant::now();
        w.write_all(delta(&text).as_bytes()).unwrap();
        w.flush().unwrap();
        sent.push((word, at));
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(w);
    t.wait_rows("viz-render to end", |rows| {
        rows.iter().any(|r| r.contains("__DONE__"))
    });
    // cat ends when tmux closes the pipe (the pane's program is now a
    // sleep that writes nothing): stop piping.
    t.pipe_pane("");
    reader.join().unwrap();
    let r = received.lock().unwrap();
    let mut latencies: Vec<f64> = Vec::new();
    let mut from = 0;
    for (word, at) in &sent {
        let (seen, pos) = r
            .arrival(word, from)
            .unwrap_or_else(|| panic!("{word} never reached the terminal"));
        from = pos;
        latencies.push(seen.saturating_duration_since(*at).as_secs_f64() * 1e3);
    }
    latencies.sort_by(f64::total_cmp);
    let q = |p: f64| latencies[((latencies.len() - 1) as f64 * p).round() as usize];
    let _ = writeln!(
        std::io::stderr(),
        "a streamed delta on the terminal (tmux) after: median {:.1} ms, p99 {:.1} ms, max {:.1} ms \
         ({} deltas, one each 10 ms; target: within a frame, 16 ms)",
        q(0.5),
        q(0.99),
        latencies[latencies.len() - 1],
        latencies.len()
    );
}
