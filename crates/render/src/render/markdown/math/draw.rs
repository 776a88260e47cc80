//! Math nodes drawn as blocks of rows with a baseline: on one row for
//! inline math (`a/b`, `x²`, `x_{ij}`), on several in display math (a
//! stacked fraction, limits above and below `∑`, a matrix with tall
//! brackets). Atoms are spaced as TeX spaces them: a blank either side
//! of a relation and of a binary operator between two atoms, one after
//! a comma, none inside scripts.

use super::block::{Block, Style, fenced};
use super::parse::Node;
use super::symbols::{Class, scripted};
use crate::render::text::width;

/// The class a node has among its neighbours.
fn class_of(n: &Node) -> Class {
    match n {
        Node::Atom { class, .. } => *class,
        Node::Scripts { base, .. } => class_of(base),
        _ => Class::Ord,
    }
}

fn opens(b: &Block) -> bool {
    b.height() == 1 && b.rows[0].ends_with(['(', '[', '{', '⟨'])
}

/// A list of nodes, spaced.
pub fn list(nodes: &[Node], st: Style) -> Block {
    let pieces: Vec<(Block, Class)> = nodes.iter().map(|n| (node(n, st), class_of(n))).collect();
    let mut parts: Vec<Block> = Vec::new();
    let mut space_after = false;
    let mut prev: Option<(Class, bool)> = None;
    for (i, (b, c)) in pieces.iter().enumerate() {
        let next = pieces.get(i + 1);
        let before = !st.script && space_before(*c, prev, next.is_some());
        let tall = st.display && b.height() > 1 && matches!(nodes[i], Node::Frac { .. });
        let spaced = parts.last().is_some_and(|p: &Block| p.rows == [" "]);
        let words = !st.unicode && parts.last().is_some_and(|p| words_meet(p, b));
        if (before || space_after || tall || words) && !parts.is_empty() && !spaced {
            parts.push(Block::text(" "));
        }
        parts.push(b.clone());
        space_after = !st.script && next.is_some() && (tall || space_after_of(*c, before, next));
        prev = Some((*c, opens(b)));
    }
    if parts.is_empty() {
        return Block::text("");
    }
    Block::hcat(&parts)
}

/// In ASCII, whether two pieces would run two words together (`i pi`,
/// `sigma sqrt(2)`): letters meet and one side is a word of several.
fn words_meet(a: &Block, b: &Block) -> bool {
    let (Some(a), Some(b)) = (a.rows.get(a.base), b.rows.get(b.base)) else {
        return false;
    };
    let end = a
        .chars()
        .rev()
        .take_while(char::is_ascii_alphabetic)
        .count();
    let start = b.chars().take_while(char::is_ascii_alphabetic).count();
    end > 0 && start > 0 && (end > 1 || start > 1)
}

/// Whether a blank goes before an atom of class `c` after `prev`.
fn space_before(c: Class, prev: Option<(Class, bool)>, has_next: bool) -> bool {
    let Some((p, open)) = prev else {
        return false;
    };
    let after_atom = !open && !matches!(p, Class::Bin | Class::Rel | Class::Punct);
    match c {
        Class::Bin => after_atom && has_next,
        Class::Rel => !open,
        Class::Fn => after_atom,
        _ => false,
    }
}

/// Whether a blank goes after an atom of class `c` (`before`: it had one
/// before it), before `next`.
fn space_after_of(c: Class, before: bool, next: Option<&(Block, Class)>) -> bool {
    let next_class = next.map(|(_, c)| *c);
    match c {
        Class::Punct | Class::Rel => true,
        Class::Bin => before,
        Class::Big | Class::Integral => !matches!(next_class, Some(Class::Punct | Class::Rel)),
        Class::Fn => next.is_some_and(|(b, c)| {
            *c == Class::Ord && !b.rows.iter().any(|r| r.starts_with(['(', '[']))
        }),
        Class::Ord => false,
    }
}

fn node(n: &Node, st: Style) -> Block {
    match n {
        Node::Atom { uni, ascii, .. } => Block::text(if st.unicode { uni } else { ascii }),
        Node::Group(g) => list(g, st),
        Node::Scripts { base, sub, sup } => scripts(base, sub.as_deref(), sup.as_deref(), st),
        Node::Frac { num, den, bar } => frac(num, den, *bar, st),
        Node::Sqrt { index, body } => sqrt(index.as_deref(), body, st),
        Node::Accent { mark, name, body } => accent(*mark, name, body, st),
        Node::Fenced { open, close, body } => {
            let b = list(body, st);
            fenced(open, close, b, st.unicode)
        }
        Node::Table { env, rows } => super::table::draw(env, rows, st, list),
        Node::Amp | Node::Row => Block::text(""),
    }
}

/// A script as text on the row: its Unicode forms when all exist,
/// else after `^` or `_` (in braces when longer than a character).
fn script_text(s: &str, sup: bool, unicode: bool) -> String {
    if unicode && let Some(t) = scripted(s, sup) {
        return t;
    }
    let mark = if sup { '^' } else { '_' };
    if s.chars().count() == 1 {
        format!("{mark}{s}")
    } else {
        format!("{mark}{{{s}}}")
    }
}

fn scripts(base: &Node, sub: Option<&[Node]>, sup: Option<&[Node]>, st: Style) -> Block {
    let b = node(base, st);
    let inner = Style {
        display: false,
        script: true,
        ..st
    };
    let sub_b = sub.map(|s| list(s, inner).line());
    let sup_b = sup.map(|s| list(s, inner).line());
    let class = class_of(base);
    if st.display && class == Class::Big && b.height() == 1 {
        // Limits above and below, centred.
        let mut parts = Vec::new();
        if let Some(s) = &sup_b {
            parts.push(Block::text(s.clone()));
        }
        let at = parts.len();
        parts.push(b);
        if let Some(s) = &sub_b {
            parts.push(Block::text(s.clone()));
        }
        return Block::vstack(&parts, at, true);
    }
    let flat = |s: &Option<String>, sup| {
        s.as_ref()
            .is_none_or(|s| st.unicode && scripted(s, sup).is_some())
    };
    let raise = st.display
        && (class == Class::Integral
            || b.height() > 1
            || (st.unicode && !(flat(&sub_b, false) && flat(&sup_b, true))));
    if !raise {
        let mut row = b.line();
        if let Some(s) = &sub_b {
            row.push_str(&script_text(s, false, st.unicode));
        }
        if let Some(s) = &sup_b {
            row.push_str(&script_text(s, true, st.unicode));
        }
        return Block::text(row);
    }
    // Raised and lowered beside the base.
    let bw = b.width();
    let mut rows = Vec::new();
    let pad = " ".repeat(bw);
    if let Some(s) = &sup_b {
        rows.push(format!("{pad}{s}"));
    }
    let base_row = rows.len() + b.base;
    rows.extend(b.rows.iter().cloned());
    if let Some(s) = &sub_b {
        rows.push(format!("{pad}{s}"));
    }
    let w = rows.iter().map(|r| width(r)).max().unwrap_or(0);
    for r in &mut rows {
        let n = w - width(r);
        r.push_str(&" ".repeat(n));
    }
    Block {
        rows,
        base: base_row,
    }
}

/// Whether text on a row needs parentheses to stand as one operand: it
/// has a blank or an operator outside the parentheses it holds.
fn compound(s: &str) -> bool {
    let mut depth = 0usize;
    for (i, c) in s.chars().enumerate() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            c if depth == 0 && i > 0 && (c == ' ' || "+-−=<>/±×·,".contains(c)) => {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// A denominator also takes parentheses when a number multiplies what
/// follows it (`1/(2a)`, not `1/2a`).
fn coefficient(s: &str) -> bool {
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() && chars.peek().is_some_and(|n| !n.is_ascii_digit()) {
            return true;
        }
    }
    false
}

fn paren(s: String, den: bool) -> String {
    if compound(&s) || den && coefficient(&s) {
        format!("({s})")
    } else {
        s
    }
}

fn frac(num: &[Node], den: &[Node], bar: bool, st: Style) -> Block {
    let n = list(num, st);
    let d = list(den, st);
    if !st.display {
        let (n, d) = (n.line(), d.line());
        return Block::text(if bar {
            format!("{}/{}", paren(n, false), paren(d, true))
        } else {
            format!("C({n}, {d})")
        });
    }
    let w = n.width().max(d.width());
    let line = if !bar {
        Block::text(" ".repeat(w))
    } else if st.unicode {
        Block::text("─".repeat(w))
    } else {
        Block::text("-".repeat(w))
    };
    let stacked = Block::vstack(&[n.clone(), line, d], 1, true);
    let stacked = Block {
        base: n.height(),
        ..stacked
    };
    if bar {
        stacked
    } else {
        fenced("(", ")", stacked, st.unicode)
    }
}

fn sqrt(index: Option<&[Node]>, body: &[Node], st: Style) -> Block {
    let b = list(body, st);
    let idx = index.map(|i| {
        list(
            i,
            Style {
                script: true,
                display: false,
                ..st
            },
        )
        .line()
    });
    if !st.unicode {
        let head = match idx {
            Some(i) => format!("root[{i}]"),
            None => "sqrt".into(),
        };
        if b.height() == 1 {
            return Block::text(format!("{head}({})", b.line()));
        }
        return Block::hcat(&[Block::text(head), fenced("(", ")", b, false)]);
    }
    let sign = match idx.as_deref() {
        None => "√".to_string(),
        Some("3") => "∛".to_string(),
        Some("4") => "∜".to_string(),
        Some(i) => script_text(i, true, true) + "√",
    };
    if b.height() == 1 {
        let body = b.line();
        let simple = body.chars().count() == 1 || !compound(&body) && !body.contains(' ');
        return Block::text(if simple {
            format!("{sign}{body}")
        } else {
            format!("{sign}({body})")
        });
    }
    // A tall body: the sign at its foot, a bar up its side and over it.
    let w = b.width();
    let mut rows = vec![format!(
        "{} {}",
        " ".repeat(width(&sign) - 1),
        "_".repeat(w)
    )];
    let last = b.height() - 1;
    for (i, r) in b.rows.iter().enumerate() {
        let lead = if i == last {
            sign.clone()
        } else {
            format!("{}│", " ".repeat(width(&sign) - 1))
        };
        rows.push(format!("{lead}{r}"));
    }
    Block {
        rows,
        base: b.base + 1,
    }
}

fn accent(mark: char, name: &str, body: &[Node], st: Style) -> Block {
    let b = list(body, Style { script: true, ..st });
    if b.height() > 1 {
        return b;
    }
    let t = b.line();
    if !st.unicode {
        return Block::text(format!("{name}({t})"));
    }
    let over_all = mark == '\u{305}';
    let n = t.chars().count();
    let mut out = String::new();
    for (i, c) in t.chars().enumerate() {
        out.push(c);
        if over_all || i + 1 == n {
            out.push(mark);
        }
    }
    Block::text(out)
}
