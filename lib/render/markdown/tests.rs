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

/// The shortcut for plain paragraphs and list items draws what
/// pulldown-cmark's events draw, at any width, in a list or not.
#[test]
fn plain_lines_match_the_parser() {
    let lines = [
        "plain words",
        "  two  blanks   inside, and around  ",
        "Ends in two blanks  ",
        "a.b, c: d (e) \"f\" 'g' #h =i +j -k 1. 2) {x} @y %z ^w ?",
        "http://example.com/path?q=1 and foo@bar.baz",
        "word-with-dashes -- and --- and === and + + +",
        "At 20 °C — café 日本語 👍",
        "\u{a0}nbsp around\u{a0}",
        "x",
        "- plain item",
        "* star item that is long enough to wrap at the narrow widths",
        "+  plus",
        "12) twelve",
        "007. seven",
        "0. zero",
        "-    four blanks",
    ];
    for o in [
        opts(12, true, true),
        opts(80, false, false),
        opts(3, true, false),
    ] {
        for text in lines {
            for nested in [false, true] {
                let draw_as = |plain| {
                    let mut md = Markdown::new(o.clone());
                    if nested {
                        md.items.push(Item { src: 2, screen: 2 });
                    }
                    let lines = md.draw_block_as(text, 2 * usize::from(nested), None, plain);
                    (lines, md.in_paragraph)
                };
                let shortcut = plain_block(text);
                assert!(shortcut.is_some(), "{text:?}");
                assert_eq!(draw_as(shortcut), draw_as(None), "{text:?} {o:?}");
            }
        }
    }
    for text in [
        "    indented code",
        "-     five blanks",
        "# h",
        "a *b*",
        "a `b`",
        "- [ ] task",
        "a\tb",
        "1.x",
        "---",
    ] {
        assert!(plain_block(text).is_none(), "{text:?}");
    }
}

#[test]
fn once_the_highlighting_budget_is_spent_later_blocks_are_plain() {
    // A block of long lines spends the budget (its last line does not
    // fit); a short block after it is drawn plain, though its line would
    // fit in what the first block left.
    let line = format!("let x = \"{}\";\n", "a".repeat(1000));
    let lines = code::HIGHLIGHT_BUDGET / line.len() + 1;
    let text = format!(
        "```rust\n{}```\n\n```rust\nfn main() {{}}\n```\n",
        line.repeat(lines)
    );
    let out = draw(&text, &opts(2000, true, true));
    let last = out.lines().rev().find(|l| l.contains("fn main")).unwrap();
    assert_eq!(last, "  fn main() {}", "{last:?}");
    assert!(out.lines().next().unwrap().contains("\x1b[38;2;"));
}
