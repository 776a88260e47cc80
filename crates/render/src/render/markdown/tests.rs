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
        "Results\n━━━━━━━\n\nThe *fastest* is `M5 CS`, see BMW\n(https://bmw.com).\n\n• one\n  ◦ two\n• ☑ done\n\n│ quoted\n\n────────────────────────────────────────\n"
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
    draw_any_cut(text, &opts(20, true, true));
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
    o.chart_tables = Some(gemline_parse::parse::markdown_table_chart);
    let out = draw(
        "| Model | 0-60 (s) |\n|---|---|\n| M5 | 2.9 |\n| M8 | 3.0 |\n",
        &o,
    );
    assert!(out.contains('█') || out.contains('▉'), "{out}");
}

/// In a pipe a block is written once, when it is complete; on a
/// terminal it is previewed as it grows.
#[test]
fn a_paragraph_is_committed_when_complete_and_previewed_before() {
    let o = opts(20, true, false);
    let mut md = Markdown::new(o.clone());
    let mut out = String::new();
    md.push("The quick brown fox jumps", &mut out);
    assert_eq!(out, "");
    assert_eq!(md.preview(24), ["The quick brown fox", "jumps"]);
    md.push(" over the *lazy\ndog* and", &mut out);
    assert_eq!(out, "");
    assert_eq!(
        md.preview(24),
        ["The quick brown fox", "jumps over the _lazy", "dog_ and"]
    );
    md.push(" away.\n\n", &mut out);
    assert_eq!(
        out,
        "The quick brown fox\njumps over the _lazy\ndog_ and away.\n"
    );
    assert!(md.preview(24).is_empty());
    md.push("- item", &mut out);
    md.finish(&mut out);
    assert_eq!(
        out,
        draw(
            "The quick brown fox jumps over the *lazy\ndog* and away.\n\n- item",
            &o
        )
    );
}

/// A block taller than the room a terminal leaves shows its last rows
/// (those being written); it is committed whole once complete.
#[test]
fn a_preview_taller_than_the_screen_shows_its_last_rows() {
    let o = opts(10, true, false);
    let text = "one two three four five six seven eight nine ten\n";
    let mut md = Markdown::new(o.clone());
    let mut out = String::new();
    md.push(&text[..text.len() - 1], &mut out);
    assert_eq!(md.preview(2), ["eight nine", "ten"]);
    assert_eq!(out, "");
    md.push("\n", &mut out);
    md.finish(&mut out);
    assert_eq!(out, draw(text, &o));
}

/// A fenced code block at the top level is drawn a line at a time.
#[test]
fn top_level_code_streams_by_line() {
    let o = opts(40, true, false);
    let mut md = Markdown::new(o.clone());
    let mut out = String::new();
    md.push("Run:\n\n```sh\nls -l\ncd /", &mut out);
    assert_eq!(out, "Run:\n\n  ls -l\n");
    assert_eq!(md.preview(24), ["  cd /"]);
    md.push("tmp\n```\nDone.", &mut out);
    md.finish(&mut out);
    assert_eq!(out, "Run:\n\n  ls -l\n  cd /tmp\nDone.\n");
}

/// A reference is a link wherever its definition stands (the block
/// waits for it), and the definitions are not drawn.
#[test]
fn references_before_and_after_their_definitions() {
    let out = draw(
        "See [the docs][1].\n\n[1]: https://x.y/docs\n[2]: https://x.y/other\n\nAgain [the docs][1], [two][2].\n",
        &opts(80, true, false),
    );
    assert_eq!(
        out,
        "See the docs (https://x.y/docs).\n\nAgain the docs (https://x.y/docs), two (https://x.y/other).\n"
    );
}

/// A thought is painted dim as a whole: no colour of its own, and no
/// marks written for it when the whole has colour.
#[test]
fn plain_markdown_writes_no_marks_under_colour() {
    let mut md = Markdown::plain(opts(40, true, true));
    let mut out = String::new();
    md.push("**Subject**\n\nSome *text* and `code`.\n", &mut out);
    md.finish(&mut out);
    assert_eq!(out, "Subject\n\nSome text and code.\n");
    let mut md = Markdown::plain(opts(40, true, false));
    let mut out = String::new();
    md.push("**Subject**\n", &mut out);
    md.finish(&mut out);
    assert_eq!(out, "*Subject*\n");
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

#[test]
fn alerts_of_any_kind_are_callouts() {
    let o = opts(40, true, false);
    let known = draw("> [!NOTE]\n> Read this.\n", &o);
    assert_eq!(known, "│ Note\n│ Read this.\n");
    let other = draw("> [!STRATEGY]\n> Go wide first.\n", &o);
    assert_eq!(other, "│ Strategy\n│ Go wide first.\n");
    let alone = draw("> [!STRATEGY]\n>\n> Go wide first.\n", &o);
    assert_eq!(alone, "│ Strategy\n│\n│ Go wide first.\n");
    // Not a marker: words after it, or not on the first line.
    let text = draw("> [!STRATEGY] now\n", &o);
    assert_eq!(text, "│ [!STRATEGY] now\n");
}

#[test]
fn an_unknown_alert_draws_the_same_however_it_is_cut() {
    let text = "Intro.\n\n> [!STRATEGY]\n> Go wide first,\n> then deep.\n\nAfter.\n";
    let o = opts(20, true, true);
    let whole = draw(text, &o);
    for cut in 1..text.len() {
        let mut md = Markdown::new(o.clone());
        let mut out = String::new();
        md.push(&text[..cut], &mut out);
        md.push(&text[cut..], &mut out);
        md.finish(&mut out);
        assert_eq!(out, whole, "cut at {cut}");
    }
}

#[test]
fn math_is_drawn_and_money_stays_money() {
    let o = opts(40, true, false);
    let out = draw(
        "Costs $5 and $10 today.\n\nEnergy $E = mc^2$ and $\\alpha_1$.\n\n$$\n\\frac{a+b}{2}\n$$\n\nafter\n",
        &o,
    );
    assert_eq!(
        out,
        "Costs $5 and $10 today.\n\nEnergy E = mc² and α₁.\n\n  a + b\n  ─────\n    2\n\nafter\n"
    );
    let money = draw(
        "From $5-$10, $20 to $30 or $1,$2.\n",
        &opts(40, true, false),
    );
    assert_eq!(money, "From $5-$10, $20 to $30 or $1,$2.\n");
    let ascii = draw("$\\alpha \\leq \\beta$\n", &opts(40, false, false));
    assert_eq!(ascii, "alpha <= beta\n");
}

/// Draws `text` cut into pieces of `step` characters.
fn draw_cut(text: &str, o: &RenderOptions, step: usize) -> String {
    let mut md = Markdown::new(o.clone());
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    for c in chars.chunks(step) {
        md.push(&c.iter().collect::<String>(), &mut out);
    }
    md.finish(&mut out);
    out
}

/// `text` drawn whole, after checking every cut into pieces of 1 to 8
/// characters draws the same.
fn draw_any_cut(text: &str, o: &RenderOptions) -> String {
    let whole = draw(text, o);
    for step in 1..9 {
        assert_eq!(draw_cut(text, o, step), whole, "cut {step}");
    }
    whole
}

#[test]
fn a_reference_defined_after_its_use_is_resolved() {
    let text = "Read [the guide][g] first.\n\nThen more text.\n\n[g]: https://example.com/guide\n";
    assert_eq!(
        draw_any_cut(text, &opts(60, true, false)),
        "Read the guide (https://example.com/guide) first.\n\nThen more text.\n"
    );
}

#[test]
fn a_block_waits_for_its_definition_in_a_pipe_and_is_previewed_on_a_terminal() {
    let o = opts(60, true, false);
    let mut md = Markdown::new(o.clone());
    let mut out = String::new();
    md.push("See [docs].\n\nNext paragraph.\n\n", &mut out);
    assert_eq!(out, "", "the block using [docs] waits");
    assert_eq!(md.preview(24), ["See [docs].", "", "Next paragraph."]);
    md.push("[docs]: https://d.example\n\nLast.\n", &mut out);
    assert_eq!(out, "See docs (https://d.example).\n\nNext paragraph.\n");
    md.finish(&mut out);
    assert!(out.ends_with("\nLast.\n"), "{out}");
}

#[test]
fn a_reference_never_defined_is_drawn_as_written_at_the_end() {
    let out = draw("Array [i] here.\n\nMore.\n", &opts(40, true, false));
    assert_eq!(out, "Array [i] here.\n\nMore.\n");
}

#[test]
fn a_block_waits_no_further_than_the_limit() {
    let mut text = String::from("See [far].\n\n");
    while text.len() < blocks::WAIT_LIMIT + 100 {
        text.push_str("Some filler paragraph of words.\n\n");
    }
    text.push_str("[far]: https://far.example\n");
    let o = opts(60, true, false);
    let mut md = Markdown::new(o.clone());
    let mut out = String::new();
    md.push(&text, &mut out);
    assert!(out.starts_with("See [far].\n"), "{}", &out[..40]);
    md.finish(&mut out);
    assert!(
        out.ends_with("[far]: https://far.example\n"),
        "the definition drawn where it stands"
    );
    for step in [3, 7] {
        assert_eq!(draw_cut(&text, &o, step), out, "cut {step}");
    }
}

#[test]
fn footnotes_are_numbered_and_drawn_after_the_answer() {
    let text = "Water boils[^b] and freezes[^f].\n\n[^f]: At 0 °C.\n\nAgain[^b].\n\n[^b]: At 100 °C\n    at sea level.\n\nEnd [^none].\n";
    assert_eq!(
        draw_any_cut(text, &opts(40, true, false)),
        "Water boils¹ and freezes².\n\nAgain¹.\n\nEnd [^none].\n\n────────────────────────────────────────\n\n1. At 100 °C\n   at sea level.\n2. At 0 °C.\n"
    );
    let ascii = draw(text, &opts(40, false, false));
    assert!(
        ascii.starts_with("Water boils[1] and freezes[2]."),
        "{ascii}"
    );
}

/// A long answer held for a definition that never comes is previewed
/// from the rows kept (only the text after them is parsed at a redraw),
/// and the preview still ends with the text being written.
#[test]
fn a_long_held_answer_previews_its_last_rows() {
    let o = opts(60, true, false);
    let mut md = Markdown::new(o.clone());
    let mut out = String::new();
    md.push("See [x] here.\n\n", &mut out);
    for i in 0..60 {
        md.push(&format!("Paragraph {i} of the held text.\n\n"), &mut out);
        let rows = md.preview(5);
        assert_eq!(
            rows.last().map(String::as_str),
            Some(format!("Paragraph {i} of the held text.").as_str())
        );
    }
    assert_eq!(out, "", "held for the definition");
    md.push("Last words", &mut out);
    assert_eq!(
        md.preview(3),
        ["Paragraph 59 of the held text.", "", "Last words"]
    );
}

#[test]
fn math_in_cells_headings_and_narrow_rooms() {
    let o = opts(24, true, false);
    let out = draw(
        "# Rate $\\lambda$\n\n| x | $x^2$ |\n|---|---|\n| $\\alpha$ | $\\frac{1}{2}$ |\n\n- $$\\frac{a+b+c+d+e+f+g+h+i}{2}$$\n",
        &o,
    );
    assert!(out.starts_with("Rate λ\n"), "{out}");
    assert!(out.contains("│ α │ 1/2 │"), "{out}");
    assert!(
        out.contains("(a + b + c"),
        "too wide to stack: on a row\n{out}"
    );
    for l in out.lines() {
        assert!(crate::render::text::width(l) <= 24, "{l:?}");
    }
}
