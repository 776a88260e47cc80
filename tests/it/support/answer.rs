//! An assistant's answer as a model streams it: `message` delta events of
//! a few characters each, `viz-render` run on events (exit 0, its
//! stdout), the library's renderer run on deltas, and generated Markdown
//! and cuts for property tests.

use assert_cmd::cargo::cargo_bin_cmd;
use gemline::events::Event;
use gemline::render::{RenderOptions, Renderer};
use proptest::prelude::*;

/// `text` as JSON lines of assistant deltas of `size` characters.
pub fn deltas(text: &str, size: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(size.max(1))
        .map(|c| delta(&c.iter().collect::<String>()))
        .collect()
}

/// One assistant delta as a JSON line.
pub fn delta(text: &str) -> String {
    serde_json::json!({"type": "message", "role": "assistant", "content": text, "delta": true})
        .to_string()
        + "\n"
}

/// `viz-render ARGS` on `input` (C.UTF-8, nothing else in its
/// environment): its stdout, once it exited 0.
pub fn viz_render(args: &[&str], input: String) -> String {
    let out = cargo_bin_cmd!("viz-render")
        .env_clear()
        .env("LANG", "C.UTF-8")
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Markdown as models write it, and worse: words in several scripts,
/// marks, block markers, tables, code, links, escapes and CR LF,
/// references and footnotes defined anywhere, math.
pub fn markdown_text() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        4 => "[a-zA-Z,.]{1,12}",
        1 => "[日本語한국어😀é…\u{301}]{1,6}",
        3 => Just(" ".to_string()),
        1 => Just("\n".to_string()),
        1 => Just("\n\n".to_string()),
        1 => prop_oneof![Just("**"), Just("*"), Just("_"), Just("~~"), Just("`")].prop_map(String::from),
        1 => prop_oneof![
            Just("\n# "), Just("\n## "), Just("\n- "), Just("\n  - "), Just("\n1. "),
            Just("\n> "), Just("\n- [ ] "), Just("\n---\n"), Just("\n```rust\n"), Just("\n```\n"),
            Just("\n    "), Just("\t"), Just("\n| a | b |\n|---|--:|\n| "), Just(" | "),
            Just("[link](http://x.y/z)"), Just("\u{1b}[2J"), Just("\r\n"),
            Just("<br>"), Just("<b>"), Just("</b>"), Just("<sup>"), Just("\n<details>\n"),
            Just("<div>"), Just("[r]"), Just("\n[r]: http://r.s\n"), Just("\n===\n"),
            Just("\\\n"),
        ].prop_map(String::from),
        // Issue 37: references and footnotes defined before or after their
        // use (or never), math, money.
        1 => prop_oneof![
            Just("[t][f]"), Just("\n[f]: http://f.g\n"), Just("[^n]"), Just("\n[^n]: a note\n"),
            Just("[^m]"), Just("$x^2 + \\alpha_1$"), Just("\n$$\n\\frac{a}{b}\n$$\n"),
            Just("$5 and $10"), Just("\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}"),
        ].prop_map(String::from),
    ];
    prop::collection::vec(token, 0..60).prop_map(|t| t.concat())
}

/// The renderer's output for assistant deltas; `screen` fixes the
/// terminal's (columns, rows) for a drawing in place.
pub fn draw_answer(
    deltas: &[String],
    opts: &RenderOptions,
    screen: Option<(usize, usize)>,
) -> String {
    let mut r = Renderer::new(opts.clone());
    if let Some((cols, rows)) = screen {
        r.fix_screen_size(cols, rows);
    }
    let mut out = Vec::new();
    for d in deltas {
        r.event(&Event::message("assistant", d, true), &mut out)
            .unwrap();
    }
    r.finish(&mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// `text` cut at the characters `cuts` pick.
pub fn cut_at(text: &str, cuts: &[prop::sample::Index]) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut at: Vec<usize> = cuts.iter().map(|i| i.index(chars.len() + 1)).collect();
    at.sort_unstable();
    at.dedup();
    let mut out = Vec::new();
    let mut from = 0;
    for &to in at.iter().chain(std::iter::once(&chars.len())) {
        out.push(chars[from..to].iter().collect::<String>());
        from = to;
    }
    out
}
