//! An assistant's answer as a model streams it: `message` delta events of
//! a few characters each, `viz-render` run on events (exit 0, its
//! stdout), and generated Markdown for property tests.

use assert_cmd::cargo::cargo_bin_cmd;
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
/// marks, block markers, tables, code, links, escapes and CR LF.
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
            Just("\\\n")
        ].prop_map(String::from),
    ];
    prop::collection::vec(token, 0..60).prop_map(|t| t.concat())
}
