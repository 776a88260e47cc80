//! An assistant's answer as a model streams it: `message` delta events of
//! a few characters each, and `viz-render` run on events (exit 0, its
//! stdout).

use assert_cmd::cargo::cargo_bin_cmd;

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
