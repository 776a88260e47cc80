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

#[test]
fn backslash_delimiters_are_math_outside_code() {
    let text = "The roots are \\(x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}\\) for \\( a \\neq 0 \\).\n\n\
                \\[\n\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\n\\]\n\n\
                > In a quote, \\(\\alpha \\to \\beta\\).\n\n\
                - an item: \\[ \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix} \\]\n\n\
                Escaped: \\\\(not math\\\\), in code `\\(x\\)`:\n\n\
                ```tex\n\\(y^2\\)\n```\n";
    let out = draw(text, 80, true);
    assert!(
        out.contains("The roots are x = (-b ± √(b² - 4ac))/(2a) for a ≠ 0."),
        "{out}"
    );
    assert!(has_line(&out, "│ In a quote, α → β."), "{out}");
    assert!(out.contains("n(n + 1)"), "{out}");
    assert!(
        has_line(&out, "Escaped: \\(not math\\), in code `\\(x\\)`:"),
        "{out}"
    );
    assert!(has_line(&out, "  \\(y^2\\)"), "{out}");
    assert!(!out.contains("\\frac") && !out.contains("\\alpha"), "{out}");
    insta::assert_snapshot!("math_backslash_delimiters_80_unicode", out.clone());
    // The same bytes however the answer is cut.
    for size in [1, 2, 5, 7, 11] {
        let cut = viz_render(
            &["--unicode", "--color", "never", "--width", "80"],
            deltas(text, size),
        );
        assert_eq!(cut, out, "cut every {size} characters");
    }
}
