use super::*;

fn u(tex: &str) -> String {
    inline(tex, true)
}

fn a(tex: &str) -> String {
    inline(tex, false)
}

fn d(tex: &str) -> String {
    display(tex, true, 80).unwrap().join("\n")
}

fn da(tex: &str) -> String {
    display(tex, false, 80).unwrap().join("\n")
}

#[test]
fn greek_operators_and_arrows() {
    assert_eq!(u(r"\alpha^2 + \beta_1"), "α² + β₁");
    assert_eq!(a(r"\alpha^2 + \beta_1"), "alpha^2 + beta_1");
    assert_eq!(u(r"a \leq b \to c \neq d"), "a ≤ b → c ≠ d");
    assert_eq!(a(r"a \leq b \to c \neq d"), "a <= b -> c != d");
    assert_eq!(u(r"x \in \mathbb{R}"), "x ∈ ℝ");
    assert_eq!(u(r"-x + y"), "-x + y");
    assert_eq!(u(r"f(x, y)"), "f(x, y)");
}

#[test]
fn scripts_use_unicode_where_it_exists() {
    assert_eq!(u("x_{i+1}^{n}"), "xᵢ₊₁ⁿ");
    assert_eq!(u(r"e^{i\pi}"), "e^{iπ}");
    assert_eq!(u("A^T"), "Aᵀ");
    assert_eq!(u("x_{ij}"), "xᵢⱼ");
    assert_eq!(u("y_{max}"), "yₘₐₓ");
    assert_eq!(u("x_{best}"), "x_{best}");
    assert_eq!(a("x_{i+1}^{2}"), "x_{i+1}^2");
    assert_eq!(u("f'(x)"), "f′(x)");
}

#[test]
fn fractions_inline_and_stacked() {
    assert_eq!(u(r"\frac{a}{b}"), "a/b");
    assert_eq!(u(r"\frac{a+b}{2}"), "(a + b)/2");
    assert_eq!(u(r"\frac{\partial f}{\partial x}"), "∂f/∂x");
    assert_eq!(d(r"\frac{a+b}{2}"), "a + b\n─────\n  2");
    assert_eq!(da(r"x = \frac{1}{n}"), "    1\nx = -\n    n");
}

#[test]
fn roots() {
    assert_eq!(u(r"\sqrt{x}"), "√x");
    assert_eq!(u(r"\sqrt{x^2+y^2}"), "√(x² + y²)");
    assert_eq!(u(r"\sqrt[3]{8}"), "∛8");
    assert_eq!(a(r"\sqrt{2}"), "sqrt(2)");
}

#[test]
fn sums_and_integrals_with_limits() {
    assert_eq!(u(r"\sum_{i=1}^{n} i"), "∑ᵢ₌₁ⁿ i");
    assert_eq!(d(r"\sum_{i=1}^{n} i"), " n\n ∑  i\ni=1");
    assert_eq!(d(r"\int_0^1 x\,dx"), " 1\n∫  x dx\n 0");
    assert_eq!(da(r"\sum_{k=0}^{\infty} x^k"), "inf\nsum x^k\nk=0");
    assert_eq!(u(r"\lim_{x \to 0} f(x)"), "lim_{x→0} f(x)");
}

#[test]
fn matrices_and_cases() {
    let m = d(r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}");
    assert_eq!(m, "⎛a  b⎞\n⎝c  d⎠");
    assert_eq!(
        u(r"\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}"),
        "[1 0; 0 1]"
    );
    let c = d(r"|x| = \begin{cases} x & x \geq 0 \\ -x & \text{otherwise} \end{cases}");
    assert_eq!(c, "|x| = ⎧x   x ≥ 0\n      ⎩-x  otherwise");
    let ascii = da(r"\begin{pmatrix} 1 \\ 2 \\ 3 \end{pmatrix}");
    assert_eq!(ascii, "/1\\\n|2|\n\\3/");
}

#[test]
fn aligned_rows_meet_at_the_ampersand() {
    let out = d(r"\begin{aligned} f(x) &= x^2 \\ g &= 2x + 1 \end{aligned}");
    assert_eq!(out, "f(x) = x²\n   g = 2x + 1");
}

#[test]
fn unknown_commands_stay_as_written() {
    assert_eq!(u(r"\foo{x} + \alpha"), r"\foo{x} + α");
    assert_eq!(u(r"\mathbf{x} \cdot \hat{n}"), "x · n̂");
}

#[test]
fn a_wide_display_does_not_fit() {
    assert!(display(r"\frac{a+b+c+d+e+f}{2}", true, 10).is_none());
}

#[test]
fn names_of_functions_are_spaced_as_words() {
    assert_eq!(u(r"O(n \log n)"), "O(n log n)");
    assert_eq!(u(r"|a||b|\cos\theta"), "|a||b| cos θ");
    assert_eq!(u(r"\sin^2 x + \cos^2 x = 1"), "sin² x + cos² x = 1");
    assert_eq!(u(r"\{x \in \mathbb{R} : x > 0\}"), "{x ∈ ℝ : x > 0}");
}

#[test]
fn fractions_on_a_row_take_the_parentheses_they_need() {
    assert_eq!(u(r"\frac{1}{2a}"), "1/(2a)");
    assert_eq!(u(r"\frac{(x-\mu)^2}{2}"), "(x - μ)²/2");
    assert_eq!(u(r"\frac{n!}{k!}"), "n!/k!");
}

#[test]
fn ascii_keeps_words_apart() {
    assert_eq!(a(r"e^{i\pi}"), "e^{i pi}");
    assert_eq!(a(r"\eta\nabla J"), "eta nabla J");
    assert_eq!(a(r"2ac"), "2ac");
}
