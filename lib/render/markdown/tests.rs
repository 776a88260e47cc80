use super::*;

fn opts(width: usize, unicode: bool, color: bool) -> RenderOptions {
    RenderOptions {
        width,
        unicode,
        color,
        markdown: true,
        ..RenderOptions::default()
    }
}

fn draw(text: &str, o: &RenderOptions) -> String {
    let mut md = Markdown::new(o.clone());
    let mut out = String::new();
    md.push(text, &mut out);
    md.finish(&mut out);
    out
}

#[test]
fn blocks_are_drawn() {
    let out = draw(
        "# Results\n\nThe **fastest** is `M5 CS`, see [BMW](https://bmw.com).\n\n- one\n  - two\n- [x] done\n\n> quoted\n\n---\n",
        &opts(40, true, false),
    );
    assert_eq!(
        out,
        "Results\n━━━━━━━\n\nThe fastest is `M5 CS`, see BMW\n(https://bmw.com).\n\n• one\n  ◦ two\n• ☑ done\n\n│ quoted\n\n────────────────────────────────────────\n"
    );
}

#[test]
fn ascii_mode_uses_ascii_glyphs() {
    let out = draw(
        "## Two\n\n- [ ] task\n1. first\n\n> q\n",
        &opts(40, false, false),
    );
    assert_eq!(out, "Two\n---\n\n- [ ] task\n1. first\n\n| q\n");
    assert!(out.is_ascii());
}

#[test]
fn code_keeps_its_lines_and_tables_fit() {
    let out = draw(
        "```rust\nfn main() {\n    let x = 1;\n}\n```\n| a | b |\n|---|--:|\n| x | 12 |\n",
        &opts(30, true, false),
    );
    assert!(
        out.starts_with("  fn main() {\n      let x = 1;\n  }\n"),
        "{out}"
    );
    assert!(out.contains("│ x ┆") || out.contains("│ x │"), "{out}");
}

#[test]
fn cutting_the_text_anywhere_draws_the_same() {
    let text = "# T\n\nSome *text* that wraps around the width here.\n- a\n- b\n\n| h | v |\n|---|---|\n| a | 1 |\n```\ncode\n```\ntail";
    let o = opts(20, true, true);
    let whole = draw(text, &o);
    for step in 1..7 {
        let mut md = Markdown::new(o.clone());
        let mut out = String::new();
        let chars: Vec<char> = text.chars().collect();
        for c in chars.chunks(step) {
            md.push(&c.iter().collect::<String>(), &mut out);
        }
        md.finish(&mut out);
        assert_eq!(out, whole);
    }
}

#[test]
fn colour_off_writes_no_escape() {
    let out = draw(
        "**b** _i_ ~~s~~ `c` [l](http://x)\n```rust\nlet a = 1;\n```\n",
        &opts(80, true, false),
    );
    assert!(!out.contains('\x1b'), "{out:?}");
    assert!(out.contains("~~s~~"));
}

#[test]
fn hyperlinks_are_osc8_with_colour() {
    let mut o = opts(80, true, true);
    o.hyperlinks = true;
    let out = draw("[site](https://example.com)\n", &o);
    assert!(out.contains("\x1b]8;;https://example.com\x1b\\"), "{out:?}");
    assert!(!out.contains("(https://example.com)"));
}

#[test]
fn chart_tables_adds_a_bar_chart() {
    let mut o = opts(60, true, false);
    o.chart_tables = true;
    let out = draw(
        "| Model | 0-60 (s) |\n|---|---|\n| M5 | 2.9 |\n| M8 | 3.0 |\n",
        &o,
    );
    assert!(out.contains('█') || out.contains('▉'), "{out}");
}

#[test]
fn long_plain_lines_stream_row_by_row() {
    let o = opts(20, true, false);
    let mut md = Markdown::new(o.clone());
    let mut out = String::new();
    md.push("- The quick brown fox jumps", &mut out);
    assert_eq!(out, "• The quick brown\n");
    md.push(" over the lazy", &mut out);
    assert_eq!(out, "• The quick brown\n  fox jumps over the\n");
    md.push(" dog\nnext **b", &mut out);
    md.push("old** and more words here\n", &mut out);
    md.finish(&mut out);
    assert_eq!(
        out,
        draw(
            "- The quick brown fox jumps over the lazy dog\nnext **bold** and more words here\n",
            &o
        )
    );
}
