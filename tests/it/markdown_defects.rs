//! The defects issue 23 lists, each drawn by the real binary as the
//! spec means it: snapshots at 40 and 80 columns, Unicode and ASCII, and
//! the point of each checked in words. Each answer is streamed in
//! 3-character deltas and must draw the same bytes whole.

use crate::support::answer::{deltas, viz_render};

/// `text` drawn at `width`, Unicode or ASCII, with or without colour
/// (the same bytes in 3-character deltas as whole).
pub(crate) fn draw(text: &str, width: usize, unicode: bool, color: bool) -> String {
    let w = width.to_string();
    let args = [
        if unicode { "--unicode" } else { "--ascii" },
        "--color",
        if color { "always" } else { "never" },
        "--width",
        &w,
    ];
    let out = viz_render(&args, deltas(text, 3));
    assert_eq!(
        out,
        viz_render(&args, deltas(text, usize::MAX)),
        "{text:?} depends on the deltas"
    );
    out
}

/// Snapshots of `text` at 40 and 80 columns, Unicode and ASCII, colour
/// off; returns the Unicode drawing at 80 for the test's own checks.
fn snapshots(name: &str, text: &str) -> String {
    for width in [40, 80] {
        for unicode in [true, false] {
            let out = draw(text, width, unicode, false);
            let mode = if unicode { "unicode" } else { "ascii" };
            insta::assert_snapshot!(format!("{name}_{width}_{mode}"), out);
        }
    }
    draw(text, 80, true, false)
}

fn has_line(out: &str, line: &str) -> bool {
    out.lines().any(|l| l.trim_end() == line)
}

#[test]
fn a_fence_in_a_nested_list_item_closes() {
    let text = "* Step one\n    * Sub step:\n        ```python\n        print(1)\n        ```\n* Step two\n\nDone. **Enjoy**.\n";
    let out = snapshots("nested_fence", text);
    assert!(has_line(&out, "• Step two"), "{out}");
    assert!(has_line(&out, "Done. *Enjoy*."), "{out}");
    assert!(has_line(&out, "      print(1)"), "{out}");
    let styled = draw(text, 80, true, true);
    assert!(styled.contains("\x1b[1mEnjoy"), "{styled:?}");
}

#[test]
fn rows_of_pipes_that_are_no_table_stay_as_text() {
    let text = "Results:\n| a | b |\n| 1 | 2 |\n\nafter\n\n| just a line with a pipe\n\n| a | b | c |\n|---|---|\n| 1 | 2 | 3 |\n";
    let out = snapshots("pipe_rows", text);
    for line in [
        "Results:",
        "| a | b |",
        "| 1 | 2 |",
        "after",
        "| just a line with a pipe",
        "| a | b | c |",
        "|---|---|",
        "| 1 | 2 | 3 |",
    ] {
        assert!(has_line(&out, line), "{line:?} not drawn:\n{out}");
    }
}

#[test]
fn a_table_without_outer_pipes_keeps_its_header() {
    let text = "Left | Right\n:-: | -----------:\nx | 1\ny | 22\n";
    let out = snapshots("table_no_pipes", text);
    assert!(out.contains("│ Left │"), "{out}");
    assert!(
        out.contains("│    1 │") || out.contains("│     1 │"),
        "{out}"
    );
    assert!(!out.contains("-----------:"), "{out}");
}

#[test]
fn constructs_across_lines_are_drawn() {
    let text = "Setext title\n=====\n\nA **bold\nclaim** and *soft\nbreak* here.\n\nfoo\\\nbar  \nbaz\n\nSee [the docs][1] and [site].\n\n[1]: https://example.com/docs\n[site]: https://example.com\n\nAgain [the docs][1].\n";
    let out = snapshots("across_lines", text);
    assert!(has_line(&out, "Setext title"), "{out}");
    assert!(has_line(&out, "━━━━━━━━━━━━"), "{out}");
    assert!(!out.contains("====="), "{out}");
    // A line end inside a paragraph stays one; the marks span it.
    for l in ["A *bold", "claim* and _soft", "break_ here."] {
        assert!(has_line(&out, l), "{l:?} not on a row of its own:\n{out}");
    }
    for l in ["foo", "bar", "baz"] {
        assert!(has_line(&out, l), "{l} not on a row of its own:\n{out}");
    }
    // Before its definition: a link too (the block waits for it, issue
    // 37), and the definitions are not drawn.
    assert!(
        has_line(
            &out,
            "See the docs (https://example.com/docs) and site (https://example.com)."
        ),
        "{out}"
    );
    assert!(!out.contains("[1]:") && !out.contains("[site]"), "{out}");
    // After it: a link.
    assert!(
        has_line(&out, "Again the docs (https://example.com/docs)."),
        "{out}"
    );
    let styled = draw(text, 80, true, true);
    assert!(styled.contains("\x1b[1mclaim"), "{styled:?}");
}

#[test]
fn a_line_that_only_looks_like_a_definition_is_text() {
    let out = snapshots("not_a_definition", "Foo\n[bar]: /baz\n\n[bar]\n");
    assert!(has_line(&out, "Foo"), "{out}");
    assert!(has_line(&out, "[bar]: /baz"), "{out}");
    assert!(has_line(&out, "[bar]"), "{out}");
}

#[test]
fn html_is_drawn_as_it_means_or_shown_as_written() {
    let text = "Line one<br>line two, <b>bold</b>, <i>italic</i>, <code>x = 1</code>, \
                H<sub>2</sub>O, x<sup>2</sup>, <kbd>Ctrl</kbd>+<kbd>C</kbd>.\n\n\
                <details>\n<summary>More *detail*</summary>\n\nHidden **text**.\n\n</details>\n\n\
                <div align=\"center\">\n*not emphasis* and 2 * 3 * 4\n</div>\n\n\
                A <span>*span*</span> stays.\n";
    let out = snapshots("html", text);
    assert!(has_line(&out, "Line one"), "{out}");
    assert!(
        has_line(
            &out,
            "line two, *bold*, _italic_, `x = 1`, H₂O, x², [Ctrl]+[C]."
        ),
        "{out}"
    );
    assert!(has_line(&out, "▸ More *detail*"), "{out}");
    assert!(has_line(&out, "Hidden *text*."), "{out}");
    assert!(has_line(&out, "<div align=\"center\">"), "{out}");
    assert!(has_line(&out, "*not emphasis* and 2 * 3 * 4"), "{out}");
    assert!(has_line(&out, "A <span>_span_</span> stays."), "{out}");
    assert!(!out.contains("<br>") && !out.contains("<b>") && !out.contains("details>"));
    let styled = draw(text, 80, true, true);
    assert!(styled.contains("\x1b[1mbold"), "{styled:?}");
    assert!(styled.contains("\x1b[7mCtrl"), "{styled:?}");
}

#[test]
fn without_colour_structure_still_reads() {
    let text = "# One\n\n## Two\n\n### Three\n\n#### Four\n\n**strong**, *emphasis*, `code`, ~~struck~~.\n\n| `key` | **value** |\n|---|---|\n| a | _b_ |\n";
    let out = snapshots("colour_off", text);
    assert!(
        has_line(&out, "*strong*, _emphasis_, `code`, ~~struck~~."),
        "{out}"
    );
    for (heading, rule) in [
        ("One", "━━━"),
        ("Two", "───"),
        ("Three", "┄┄┄┄┄"),
        ("Four", "┄┄┄┄"),
    ] {
        let at = out
            .lines()
            .position(|l| l == heading)
            .unwrap_or_else(|| panic!("{out}"));
        assert_eq!(out.lines().nth(at + 1), Some(rule), "{out}");
    }
    // A table's cells are plain text: marked too.
    assert!(out.contains("│ `key` │ *value* │"), "{out}");
    assert!(out.contains("│ a     │ _b_     │"), "{out}");
    let ascii = draw(text, 80, false, false);
    assert!(has_line(&ascii, "~~~~~"), "{ascii}");
    assert!(!ascii.contains('\x1b') && !out.contains('\x1b'));
}

#[test]
fn a_link_in_a_table_cell_keeps_its_address() {
    let text = "| Tool | Where |\n|---|---|\n| gem | see [the docs](https://x.y/d) |\n| bare | <https://a.b> |\n| empty | [](https://e.f) |\n";
    for color in [false, true] {
        let out = draw(text, 80, true, color);
        assert!(out.contains("see the docs (https://x.y/d)"), "{out}");
        assert!(out.contains(" https://a.b "), "{out}");
        assert!(!out.contains("(https://a.b)"), "{out}");
        assert!(out.contains(" https://e.f "), "{out}");
    }
}
