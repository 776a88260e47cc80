//! Snapshots of what users see: every chart kind, at widths 20, 40, 80 and
//! 132, Unicode and ASCII, with long and wide (CJK, emoji) labels, drawn by
//! the real binary in a clean environment. A few with colour on. The plot
//! grammar's examples (testdata/grammar: every mark kind, layered) at 40
//! and 100.

use assert_cmd::cargo::cargo_bin_cmd;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

const WIDTHS: [usize; 4] = [20, 40, 80, 132];

fn draw(file: &str, width: usize, mode: &str, color: &str) -> String {
    draw_from("render", file, width, mode, color)
}

fn draw_from(dir: &str, file: &str, width: usize, mode: &str, color: &str) -> String {
    let input = std::fs::read(format!("testdata/{dir}/{file}")).unwrap();
    let out = cargo_bin_cmd!("viz-render")
        .env_clear()
        .env("LANG", "C.UTF-8")
        .args([mode, "--color", color, "--width", &width.to_string()])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for line in text.lines() {
        let plain = gemline::render::text::strip_ansi(line);
        let by_char: usize = plain.chars().map(|c| c.width().unwrap_or(0)).sum();
        assert!(
            by_char.max(plain.width()) <= width,
            "{file} at {width}: too wide: {plain:?}"
        );
        assert_eq!(line, line.trim_end(), "trailing blanks in {line:?}");
    }
    if mode == "--ascii" {
        assert!(text.is_ascii(), "{file} --ascii: non-ASCII output");
    }
    if color == "never" {
        assert!(!text.contains('\x1b'));
    }
    text
}

fn snapshots(file: &str, name: &str) {
    for w in WIDTHS {
        for (mode, tag) in [("--unicode", "unicode"), ("--ascii", "ascii")] {
            let out = draw(file, w, mode, "never");
            insta::assert_snapshot!(format!("{name}_{tag}_{w}"), out);
        }
    }
}

#[test]
fn bar_chart() {
    snapshots("bmw.jsonl", "bar");
}

#[test]
fn bar_chart_with_negative_values() {
    snapshots("negative.jsonl", "bar_negative");
}

#[test]
fn bar_chart_with_long_and_wide_labels() {
    snapshots("wide-labels.jsonl", "bar_wide");
}

#[test]
fn line_chart_single_series() {
    snapshots("yearly.jsonl", "line");
}

#[test]
fn line_chart_several_series() {
    snapshots("multi.jsonl", "line_multi");
}

#[test]
fn line_chart_with_wide_labels() {
    snapshots("wide-line.jsonl", "line_wide");
}

#[test]
fn table() {
    snapshots("table.jsonl", "table");
}

#[test]
fn table_with_long_and_wide_labels() {
    snapshots("wide-table.jsonl", "table_wide");
}

#[test]
fn stream_with_chapters_and_text() {
    for w in [20, 80] {
        for (mode, tag) in [("--unicode", "unicode"), ("--ascii", "ascii")] {
            insta::assert_snapshot!(
                format!("stream_{tag}_{w}"),
                draw("chapters.jsonl", w, mode, "never")
            );
        }
    }
}

#[test]
fn colour_when_asked() {
    for file in ["bmw.jsonl", "multi.jsonl", "table.jsonl", "chapters.jsonl"] {
        let out = draw(file, 60, "--unicode", "always");
        assert!(out.contains("\x1b["), "{file}: no colour");
        let name = file.trim_end_matches(".jsonl");
        insta::assert_snapshot!(format!("color_{name}_60"), out);
    }
}

/// Every example of the plot grammar: one per mark kind, and layered ones.
#[test]
fn grammar_examples() {
    let mut files: Vec<String> = std::fs::read_dir("testdata/grammar")
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|f| f.ends_with(".jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "{files:?}");
    for file in files {
        let name = file.trim_end_matches(".jsonl");
        for w in [40, 100] {
            for (mode, tag) in [("--unicode", "unicode"), ("--ascii", "ascii")] {
                let out = draw_from("grammar", &file, w, mode, "never");
                insta::assert_snapshot!(format!("grammar_{name}_{tag}_{w}"), out);
            }
        }
    }
    let out = draw_from("grammar", "pace_hr.jsonl", 60, "--unicode", "always");
    assert!(out.contains("\x1b["), "no colour");
    insta::assert_snapshot!("color_grammar_pace_hr_60", out);
}
