//! Assistant answers drawn as Markdown (`--markdown on`, the default):
//! snapshots of real-shaped answers at widths 40, 80 and 120, Unicode and
//! ASCII, colour on and off, drawn by the real binary from a stream of
//! small deltas; property tests that the output does not depend on how the
//! text was cut and that no input breaks the width, ASCII or escape rules.

use crate::support::answer::{cut_at, deltas, draw_answer, markdown_text, viz_render};
use gemline::render::{RenderOptions, text::strip_ansi};
use proptest::prelude::*;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

fn terminal_width(line: &str) -> usize {
    let plain = strip_ansi(line);
    let by_char: usize = plain.chars().map(|c| c.width().unwrap_or(0)).sum();
    by_char.max(plain.width())
}

fn draw(file: &str, width: usize, mode: &str, color: &str) -> String {
    let text = std::fs::read_to_string(format!("testdata/markdown/{file}")).unwrap();
    let w = width.to_string();
    let out = viz_render(&[mode, "--color", color, "--width", &w], deltas(&text, 7));
    for line in out.lines() {
        assert!(
            terminal_width(line) <= width,
            "too wide at {width}: {line:?}"
        );
    }
    if color == "never" {
        assert!(!out.contains('\x1b'), "an escape with colour off");
    }
    if mode == "--ascii" {
        assert!(out.is_ascii(), "a byte above 0x7F in ASCII mode");
    }
    // The same text in one delta draws the same bytes.
    assert_eq!(
        out,
        viz_render(
            &[mode, "--color", color, "--width", &w],
            deltas(&text, usize::MAX)
        ),
        "{file} at {width} depends on the deltas"
    );
    out
}

#[test]
fn a_long_answer_at_three_widths() {
    for file in ["answer.md", "wide_table.md", "code_answer.md"] {
        for width in [40, 80, 120] {
            for (mode, m) in [("--unicode", "unicode"), ("--ascii", "ascii")] {
                for color in ["never", "always"] {
                    let name = format!("{}_{width}_{m}_{color}", file.trim_end_matches(".md"));
                    insta::assert_snapshot!(name, draw(file, width, mode, color));
                }
            }
        }
    }
}

#[test]
fn markdown_off_passes_the_text_as_it_comes() {
    let out = viz_render(
        &["--markdown", "off", "--width", "80"],
        deltas("# Title\n**bold**\n", 3),
    );
    assert_eq!(out, "# Title\n**bold**\n");
    let on = viz_render(&["--width", "80"], deltas("# Title\n**bold**\n", 3));
    // With colour off, bold is marked as plain text marks it (issue 23).
    assert_eq!(on, "Title\n━━━━━\n*bold*\n");
}

#[test]
fn chart_tables_draws_the_numbers_as_bars() {
    let table = "| Model | 0-60 (s) |\n|---|---|\n| M5 CS | 2.9 |\n| M8 Competition | 3.0 |\n";
    let out = viz_render(&["--chart-tables", "--width", "60"], deltas(table, 5));
    assert!(out.contains("│ M5 CS"), "{out}");
    let bars = out.lines().filter(|l| l.contains('█')).count();
    assert_eq!(bars, 2, "{out}");
    let plain = viz_render(&["--width", "60"], deltas(table, 5));
    assert!(!plain.contains('█'));
}

#[test]
fn code_and_tables_left_open_are_drawn_at_the_end() {
    let out = viz_render(
        &["--width", "40"],
        deltas("```\nlet x = 1;\n| a | b |\n", 4),
    );
    assert_eq!(out, "  let x = 1;\n  | a | b |\n");
    let out = viz_render(
        &["--width", "40"],
        deltas("| a | b |\n|---|---|\n| 1 | 2 |", 4),
    );
    assert!(
        out.contains("│ 1 ┆ 2 │") || out.contains("│ 1 │ 2 │"),
        "{out}"
    );
}

fn render(deltas: &[String], opts: &RenderOptions) -> String {
    draw_answer(deltas, opts, None)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_markdown_keeps_the_rules_however_it_is_cut(
        text in markdown_text(),
        width in 1usize..=140,
        unicode in any::<bool>(),
        color in any::<bool>(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..12),
    ) {
        let opts = RenderOptions { width, unicode, color, markdown: true, ..RenderOptions::default() };
        let whole = render(std::slice::from_ref(&text), &opts);
        for line in whole.lines() {
            prop_assert!(terminal_width(line) <= width, "{line:?} wider than {width}");
            let plain = strip_ansi(line);
            prop_assert!(!plain.chars().any(|c| c.is_control() && c != '\t'), "control in {line:?}");
        }
        if !color {
            prop_assert!(!whole.contains('\x1b'));
        }
        if !unicode {
            prop_assert!(whole.is_ascii());
        }
        let pieces = cut_at(&text, &cuts);
        prop_assert_eq!(render(&pieces, &opts), whole.clone());
        let singles: Vec<String> = text.chars().map(|c| c.to_string()).collect();
        prop_assert_eq!(render(&singles, &opts), whole);
    }
}

/// Found by the property above (width 1, ASCII, a line ending in CR LF):
/// a delta that ends between the CR and the LF drew the CR's `^M` early.
#[test]
fn a_cr_lf_cut_between_deltas_is_a_line_end() {
    for unicode in [false, true] {
        let opts = RenderOptions {
            width: 1,
            unicode,
            markdown: true,
            ..RenderOptions::default()
        };
        let whole = render(&["ab c\r\n".to_string()], &opts);
        let cut = render(&["ab c\r".to_string(), "\n".to_string()], &opts);
        assert_eq!(cut, whole);
        assert!(!whole.contains('^'), "{whole:?}");
    }
}

/// Found by the same property: an open line of `-` drew rows as text
/// before the line ended as a rule; a number before it ended as a list
/// marker.
#[test]
fn an_open_line_is_not_drawn_before_its_block_kind_is_known() {
    for text in ["\n---\n", "x\n- - -\n", "12. item text\n", "***\n"] {
        for width in [1, 2, 40] {
            let opts = RenderOptions {
                width,
                unicode: true,
                markdown: true,
                ..RenderOptions::default()
            };
            let whole = render(&[text.to_string()], &opts);
            let singles: Vec<String> = text.chars().map(|c| c.to_string()).collect();
            assert_eq!(render(&singles, &opts), whole, "{text:?} at {width}");
        }
    }
}
