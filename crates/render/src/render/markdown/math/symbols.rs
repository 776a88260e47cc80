//! The TeX commands math knows, by name: each one's Unicode character and
//! the ASCII it is written as in ASCII mode (a Greek letter by its name,
//! `<=` for `\leq`), its class (a relation or a binary operator is spaced,
//! a large operator takes limits), and the characters that have a
//! Unicode superscript or subscript form.

/// How a symbol sits among the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A letter, a digit, a name: an ordinary atom.
    Ord,
    /// `+`, `×`, `±`: a blank either side between two atoms.
    Bin,
    /// `=`, `≤`, `→`: a blank either side.
    Rel,
    /// `∑`, `lim`: a large operator, its scripts drawn as limits in
    /// display math.
    Big,
    /// `∫`: a large operator whose limits stay at its side.
    Integral,
    /// `,`, `;`: a blank after.
    Punct,
    /// `sin`, `log`: a name, a blank before it after an atom and after it
    /// before an atom.
    Fn,
}

/// A known command: `(name, unicode, ascii, class)`.
type Entry = (&'static str, &'static str, &'static str, Class);

use Class::{Big, Bin, Fn, Integral, Ord, Punct, Rel};

const SYMBOLS: &[Entry] = &[
    ("alpha", "α", "alpha", Ord),
    ("beta", "β", "beta", Ord),
    ("gamma", "γ", "gamma", Ord),
    ("delta", "δ", "delta", Ord),
    ("epsilon", "ϵ", "epsilon", Ord),
    ("varepsilon", "ε", "epsilon", Ord),
    ("zeta", "ζ", "zeta", Ord),
    ("eta", "η", "eta", Ord),
    ("theta", "θ", "theta", Ord),
    ("vartheta", "ϑ", "theta", Ord),
    ("iota", "ι", "iota", Ord),
    ("kappa", "κ", "kappa", Ord),
    ("lambda", "λ", "lambda", Ord),
    ("mu", "μ", "mu", Ord),
    ("nu", "ν", "nu", Ord),
    ("xi", "ξ", "xi", Ord),
    ("omicron", "ο", "omicron", Ord),
    ("pi", "π", "pi", Ord),
    ("varpi", "ϖ", "pi", Ord),
    ("rho", "ρ", "rho", Ord),
    ("varrho", "ϱ", "rho", Ord),
    ("sigma", "σ", "sigma", Ord),
    ("varsigma", "ς", "sigma", Ord),
    ("tau", "τ", "tau", Ord),
    ("upsilon", "υ", "upsilon", Ord),
    ("phi", "ϕ", "phi", Ord),
    ("varphi", "φ", "phi", Ord),
    ("chi", "χ", "chi", Ord),
    ("psi", "ψ", "psi", Ord),
    ("omega", "ω", "omega", Ord),
    ("Gamma", "Γ", "Gamma", Ord),
    ("Delta", "Δ", "Delta", Ord),
    ("Theta", "Θ", "Theta", Ord),
    ("Lambda", "Λ", "Lambda", Ord),
    ("Xi", "Ξ", "Xi", Ord),
    ("Pi", "Π", "Pi", Ord),
    ("Sigma", "Σ", "Sigma", Ord),
    ("Upsilon", "Υ", "Upsilon", Ord),
    ("Phi", "Φ", "Phi", Ord),
    ("Psi", "Ψ", "Psi", Ord),
    ("Omega", "Ω", "Omega", Ord),
    ("infty", "∞", "inf", Ord),
    ("partial", "∂", "d", Ord),
    ("nabla", "∇", "nabla", Ord),
    ("hbar", "ℏ", "hbar", Ord),
    ("ell", "ℓ", "l", Ord),
    ("emptyset", "∅", "{}", Ord),
    ("varnothing", "∅", "{}", Ord),
    ("forall", "∀", "forall ", Ord),
    ("exists", "∃", "exists ", Ord),
    ("neg", "¬", "not ", Ord),
    ("lnot", "¬", "not ", Ord),
    ("prime", "′", "'", Ord),
    ("degree", "°", " deg", Ord),
    ("circ", "∘", "o", Bin),
    ("angle", "∠", "angle ", Ord),
    ("triangle", "△", "triangle ", Ord),
    ("ldots", "…", "...", Ord),
    ("dots", "…", "...", Ord),
    ("cdots", "⋯", "...", Ord),
    ("vdots", "⋮", ":", Ord),
    ("ddots", "⋱", "...", Ord),
    ("langle", "⟨", "<", Ord),
    ("rangle", "⟩", ">", Ord),
    ("lfloor", "⌊", "floor(", Ord),
    ("rfloor", "⌋", ")", Ord),
    ("lceil", "⌈", "ceil(", Ord),
    ("rceil", "⌉", ")", Ord),
    ("lbrace", "{", "{", Ord),
    ("rbrace", "}", "}", Ord),
    ("vert", "|", "|", Ord),
    ("Vert", "‖", "||", Ord),
    ("|", "‖", "||", Ord),
    ("{", "{", "{", Ord),
    ("}", "}", "}", Ord),
    ("%", "%", "%", Ord),
    ("$", "$", "$", Ord),
    ("#", "#", "#", Ord),
    ("&", "&", "&", Ord),
    ("_", "_", "_", Ord),
    ("backslash", "\\", "\\", Ord),
    ("pm", "±", "+-", Bin),
    ("mp", "∓", "-+", Bin),
    ("times", "×", "x", Bin),
    ("div", "÷", "/", Bin),
    ("cdot", "·", "*", Bin),
    ("ast", "∗", "*", Bin),
    ("star", "⋆", "*", Bin),
    ("bullet", "∙", "*", Bin),
    ("oplus", "⊕", "(+)", Bin),
    ("otimes", "⊗", "(x)", Bin),
    ("cup", "∪", "U", Bin),
    ("cap", "∩", "n", Bin),
    ("setminus", "∖", "\\", Bin),
    ("land", "∧", "and", Bin),
    ("wedge", "∧", "and", Bin),
    ("lor", "∨", "or", Bin),
    ("vee", "∨", "or", Bin),
    ("mod", "mod", "mod", Bin),
    ("bmod", "mod", "mod", Bin),
    ("leq", "≤", "<=", Rel),
    ("le", "≤", "<=", Rel),
    ("geq", "≥", ">=", Rel),
    ("ge", "≥", ">=", Rel),
    ("neq", "≠", "!=", Rel),
    ("ne", "≠", "!=", Rel),
    ("ll", "≪", "<<", Rel),
    ("gg", "≫", ">>", Rel),
    ("approx", "≈", "~=", Rel),
    ("sim", "∼", "~", Rel),
    ("simeq", "≃", "~=", Rel),
    ("cong", "≅", "~=", Rel),
    ("equiv", "≡", "==", Rel),
    ("propto", "∝", "~", Rel),
    ("in", "∈", "in", Rel),
    ("notin", "∉", "not in", Rel),
    ("ni", "∋", "contains", Rel),
    ("subset", "⊂", "subset", Rel),
    ("subseteq", "⊆", "subseteq", Rel),
    ("supset", "⊃", "supset", Rel),
    ("supseteq", "⊇", "supseteq", Rel),
    ("mid", "∣", "|", Rel),
    ("parallel", "∥", "||", Rel),
    ("perp", "⊥", "_|_", Rel),
    ("to", "→", "->", Rel),
    ("rightarrow", "→", "->", Rel),
    ("leftarrow", "←", "<-", Rel),
    ("gets", "←", "<-", Rel),
    ("leftrightarrow", "↔", "<->", Rel),
    ("Rightarrow", "⇒", "=>", Rel),
    ("Leftarrow", "⇐", "<=", Rel),
    ("Leftrightarrow", "⇔", "<=>", Rel),
    ("implies", "⟹", "=>", Rel),
    ("impliedby", "⟸", "<=", Rel),
    ("iff", "⟺", "<=>", Rel),
    ("mapsto", "↦", "|->", Rel),
    ("longrightarrow", "⟶", "-->", Rel),
    ("longmapsto", "⟼", "|-->", Rel),
    ("uparrow", "↑", "^", Rel),
    ("downarrow", "↓", "v", Rel),
    ("rightleftharpoons", "⇌", "<=>", Rel),
    ("sum", "∑", "sum", Big),
    ("prod", "∏", "prod", Big),
    ("coprod", "∐", "coprod", Big),
    ("bigcup", "⋃", "U", Big),
    ("bigcap", "⋂", "n", Big),
    ("bigoplus", "⨁", "(+)", Big),
    ("lim", "lim", "lim", Big),
    ("max", "max", "max", Big),
    ("min", "min", "min", Big),
    ("sup", "sup", "sup", Big),
    ("inf", "inf", "inf", Big),
    ("argmax", "argmax", "argmax", Big),
    ("argmin", "argmin", "argmin", Big),
    ("limsup", "lim sup", "lim sup", Big),
    ("liminf", "lim inf", "lim inf", Big),
    ("int", "∫", "int", Integral),
    ("iint", "∬", "iint", Integral),
    ("iiint", "∭", "iiint", Integral),
    ("oint", "∮", "oint", Integral),
    ("sin", "sin", "sin", Fn),
    ("cos", "cos", "cos", Fn),
    ("tan", "tan", "tan", Fn),
    ("cot", "cot", "cot", Fn),
    ("sec", "sec", "sec", Fn),
    ("csc", "csc", "csc", Fn),
    ("arcsin", "arcsin", "arcsin", Fn),
    ("arccos", "arccos", "arccos", Fn),
    ("arctan", "arctan", "arctan", Fn),
    ("sinh", "sinh", "sinh", Fn),
    ("cosh", "cosh", "cosh", Fn),
    ("tanh", "tanh", "tanh", Fn),
    ("log", "log", "log", Fn),
    ("ln", "ln", "ln", Fn),
    ("lg", "lg", "lg", Fn),
    ("exp", "exp", "exp", Fn),
    ("det", "det", "det", Fn),
    ("dim", "dim", "dim", Fn),
    ("ker", "ker", "ker", Fn),
    ("deg", "deg", "deg", Fn),
    ("gcd", "gcd", "gcd", Fn),
    ("Pr", "Pr", "Pr", Fn),
    (",", " ", " ", Ord),
    (":", " ", " ", Ord),
    (">", " ", " ", Ord),
    (";", " ", " ", Ord),
    (" ", " ", " ", Ord),
    ("!", "", "", Ord),
    ("quad", "  ", "  ", Ord),
    ("qquad", "    ", "    ", Ord),
    ("colon", ":", ":", Punct),
];

/// A known command's entry, by name (without the backslash).
pub fn symbol(name: &str) -> Option<(&'static str, &'static str, Class)> {
    SYMBOLS
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|&(_, u, a, c)| (u, a, c))
}

/// The class of a character written as itself.
pub fn char_class(c: char) -> Class {
    match c {
        '+' | '-' | '*' | '−' | '±' | '×' | '·' => Class::Bin,
        '=' | '<' | '>' | ':' | '≤' | '≥' | '≠' | '→' | '≈' | '∈' => Class::Rel,
        ',' | ';' => Class::Punct,
        _ => Class::Ord,
    }
}

/// Characters and their superscript forms, in pairs.
const SUP: &str = "0⁰1¹2²3³4⁴5⁵6⁶7⁷8⁸9⁹+⁺-⁻−⁻=⁼(⁽)⁾aᵃbᵇcᶜdᵈeᵉfᶠgᵍhʰiⁱjʲkᵏlˡmᵐnⁿoᵒpᵖrʳsˢtᵗuᵘvᵛwʷxˣyʸzᶻAᴬBᴮDᴰEᴱGᴳHᴴIᴵJᴶKᴷLᴸMᴹNᴺOᴼPᴾRᴿTᵀUᵁVⱽWᵂαᵅβᵝγᵞδᵟεᵋθᶿφᵠχᵡ′′*﹡";

/// Characters and their subscript forms, in pairs.
const SUB: &str = "0₀1₁2₂3₃4₄5₅6₆7₇8₈9₉+₊-₋−₋=₌(₍)₎aₐeₑhₕiᵢjⱼkₖlₗmₘnₙoₒpₚrᵣsₛtₜuᵤvᵥxₓβᵦγᵧρᵨφᵩχᵪ";

fn lookup(table: &str, c: char) -> Option<char> {
    let mut it = table.chars();
    while let (Some(k), Some(v)) = (it.next(), it.next()) {
        if k == c {
            return Some(v);
        }
    }
    None
}

/// `text` in superscript (`sup`) or subscript characters, when every one
/// of its characters has that form.
pub fn scripted(text: &str, sup: bool) -> Option<String> {
    let table = if sup { SUP } else { SUB };
    text.chars().map(|c| lookup(table, c)).collect()
}

/// A letter in a font alphabet (`\mathbb{R}` is `ℝ`); other characters as
/// they are.
pub fn font_char(font: &str, c: char) -> char {
    let special = match (font, c) {
        ("mathbb", 'C') => Some('ℂ'),
        ("mathbb", 'H') => Some('ℍ'),
        ("mathbb", 'N') => Some('ℕ'),
        ("mathbb", 'P') => Some('ℙ'),
        ("mathbb", 'Q') => Some('ℚ'),
        ("mathbb", 'R') => Some('ℝ'),
        ("mathbb", 'Z') => Some('ℤ'),
        ("mathcal", 'B') => Some('ℬ'),
        ("mathcal", 'E') => Some('ℰ'),
        ("mathcal", 'F') => Some('ℱ'),
        ("mathcal", 'H') => Some('ℋ'),
        ("mathcal", 'I') => Some('ℐ'),
        ("mathcal", 'L') => Some('ℒ'),
        ("mathcal", 'M') => Some('ℳ'),
        ("mathcal", 'R') => Some('ℛ'),
        _ => None,
    };
    if let Some(s) = special {
        return s;
    }
    let base = match font {
        "mathbb" => 0x1D538,
        "mathcal" => 0x1D49C,
        _ => return c,
    };
    if c.is_ascii_uppercase() {
        char::from_u32(base + (c as u32 - 'A' as u32)).unwrap_or(c)
    } else if c.is_ascii_digit() && font == "mathbb" {
        char::from_u32(0x1D7D8 + (c as u32 - '0' as u32)).unwrap_or(c)
    } else {
        c
    }
}

/// The combining mark an accent command puts over one character.
pub fn accent(name: &str) -> Option<char> {
    Some(match name {
        "hat" | "widehat" => '\u{302}',
        "bar" | "overline" => '\u{305}',
        "vec" => '\u{20D7}',
        "dot" => '\u{307}',
        "ddot" => '\u{308}',
        "tilde" | "widetilde" => '\u{303}',
        _ => return None,
    })
}
