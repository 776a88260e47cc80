//! `--calculate NAME=EXPR`: a new column computed from a row's numbers,
//! as Vega-Lite's `calculate`. EXPR holds numbers, column names (a name
//! with spaces or signs in "double quotes" or `backquotes`), `+ - * /`,
//! parentheses and a few functions (`abs ceil exp floor log log10 round
//! sqrt`, `min max pow` of two). A missing cell, a cell that is not a
//! number, a division by zero or any other result that is not a finite
//! number makes the new cell missing. The same computation is written as
//! a Vega expression that turns each of those into `null` alike.

use serde_json::Value;

/// What `--calculate` accepts, for its errors.
const ACCEPTED: &str = "write NAME=EXPR with numbers, column names (\"quoted\" when they hold \
                        spaces or signs), + - * /, parentheses and abs ceil exp floor log log10 \
                        round sqrt, min max pow of two (e.g. rate=Made/Trials)";

/// A `--calculate` that cannot be read: a usage error naming where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--calculate {text:?}: {why}; {ACCEPTED}")]
pub struct CalculateError {
    pub text: String,
    pub why: String,
}

/// A function of the expression language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Abs,
    Ceil,
    Exp,
    Floor,
    Log,
    Log10,
    Round,
    Sqrt,
    Min,
    Max,
    Pow,
}

const FUNCS: [(&str, Func, usize); 11] = [
    ("abs", Func::Abs, 1),
    ("ceil", Func::Ceil, 1),
    ("exp", Func::Exp, 1),
    ("floor", Func::Floor, 1),
    ("log", Func::Log, 1),
    ("log10", Func::Log10, 1),
    ("round", Func::Round, 1),
    ("sqrt", Func::Sqrt, 1),
    ("min", Func::Min, 2),
    ("max", Func::Max, 2),
    ("pow", Func::Pow, 2),
];

/// An expression; a column is its name as written until resolved to a
/// place in the row (`at`).
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Num(f64),
    Field { name: String, at: usize },
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
    Call(Func, Vec<Expr>),
}

/// One `--calculate`: the new column's name and its expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Calculate {
    pub name: String,
    pub expr: Expr,
    /// As written, for messages.
    pub text: String,
}

impl Calculate {
    /// Reads `NAME=EXPR`.
    pub fn parse(text: &str) -> Result<Calculate, CalculateError> {
        let bad = |why: String| CalculateError {
            text: text.to_string(),
            why,
        };
        let Some(eq) = text.find('=') else {
            return Err(bad(
                "no '=' between the new column's name and its expression".into(),
            ));
        };
        let name = unquote(text[..eq].trim());
        if name.is_empty() {
            return Err(bad("no name before '='".into()));
        }
        let start = text[..=eq].chars().count();
        let mut p = Parser {
            toks: tokens(&text[eq + 1..], start).map_err(bad)?,
            at: 0,
            end: text.chars().count() + 1,
        };
        let expr = p.expr().map_err(bad)?;
        if let Some((_, pos)) = p.toks.get(p.at) {
            return Err(bad(format!(
                "at character {pos}: expected an operator or the end, found {}",
                p.toks[p.at].0.shown()
            )));
        }
        Ok(Calculate {
            name: name.to_string(),
            expr,
            text: text.to_string(),
        })
    }
}

fn unquote(s: &str) -> &str {
    for q in ['"', '`', '\''] {
        if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    s
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Name(String),
    Quoted(String),
    Sym(char),
}

impl Tok {
    fn shown(&self) -> String {
        match self {
            Tok::Num(n) => format!("the number {n}"),
            Tok::Name(n) => format!("the name {n:?}"),
            Tok::Quoted(n) => format!("the column {n:?}"),
            Tok::Sym(c) => format!("'{c}'"),
        }
    }
}

/// The tokens of `s`, each with its 1-based character position in the
/// whole flag (`start` characters come before `s`).
fn tokens(s: &str, start: usize) -> Result<Vec<(Tok, usize)>, String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let pos = start + i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if "+-*/(),".contains(c) {
            out.push((Tok::Sym(c), pos));
            i += 1;
        } else if c == '"' || c == '`' {
            let close = chars[i + 1..]
                .iter()
                .position(|&d| d == c)
                .ok_or_else(|| format!("at character {pos}: {c} opens a name it never closes"))?;
            let name: String = chars[i + 1..i + 1 + close].iter().collect();
            if name.is_empty() {
                return Err(format!("at character {pos}: an empty quoted name"));
            }
            out.push((Tok::Quoted(name), pos));
            i += close + 2;
        } else if c.is_ascii_digit() || c == '.' {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_alphanumeric()
                    || chars[j] == '.'
                    || ((chars[j] == '+' || chars[j] == '-')
                        && matches!(chars[j - 1], 'e' | 'E')
                        && chars[i].is_ascii_digit()))
            {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            let n = word
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .ok_or_else(|| format!("at character {pos}: {word:?} is not a number"))?;
            out.push((Tok::Num(n), pos));
            i = j;
        } else if c.is_alphabetic() || c == '_' {
            let mut j = i;
            while j < chars.len() && (chars[j].is_alphanumeric() || "_.".contains(chars[j])) {
                j += 1;
            }
            out.push((Tok::Name(chars[i..j].iter().collect()), pos));
            i = j;
        } else {
            return Err(format!("at character {pos}: {c:?} is not accepted"));
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    at: usize,
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|(t, _)| t)
    }

    fn sym(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Sym(c)) {
            self.at += 1;
            return true;
        }
        false
    }

    fn found(&self) -> String {
        match self.toks.get(self.at) {
            Some((t, pos)) => format!("at character {pos}: found {}", t.shown()),
            None => format!("at character {}: found the end", self.end),
        }
    }

    fn expr(&mut self) -> Result<Expr, String> {
        let mut left = self.term()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Sym(c @ ('+' | '-'))) => *c,
                _ => return Ok(left),
            };
            self.at += 1;
            left = Expr::Bin(op, Box::new(left), Box::new(self.term()?));
        }
    }

    fn term(&mut self) -> Result<Expr, String> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Sym(c @ ('*' | '/'))) => *c,
                _ => return Ok(left),
            };
            self.at += 1;
            left = Expr::Bin(op, Box::new(left), Box::new(self.unary()?));
        }
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.sym('-') {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        if self.sym('+') {
            return self.unary();
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let Some((tok, _)) = self.toks.get(self.at).cloned() else {
            return Err(format!(
                "{}, expected a number, a column or '('",
                self.found()
            ));
        };
        match tok {
            Tok::Num(n) => {
                self.at += 1;
                Ok(Expr::Num(n))
            }
            Tok::Quoted(name) => {
                self.at += 1;
                Ok(Expr::Field { name, at: 0 })
            }
            Tok::Name(name) => {
                self.at += 1;
                if self.peek() == Some(&Tok::Sym('(')) {
                    return self.call(&name);
                }
                Ok(Expr::Field { name, at: 0 })
            }
            Tok::Sym('(') => {
                self.at += 1;
                let e = self.expr()?;
                if !self.sym(')') {
                    return Err(format!("{}, expected ')'", self.found()));
                }
                Ok(e)
            }
            Tok::Sym(_) => Err(format!(
                "{}, expected a number, a column or '('",
                self.found()
            )),
        }
    }

    fn call(&mut self, name: &str) -> Result<Expr, String> {
        let pos = self.toks[self.at - 1].1;
        let Some(&(_, f, arity)) = FUNCS.iter().find(|(n, _, _)| n.eq_ignore_ascii_case(name))
        else {
            return Err(format!(
                "at character {pos}: no function {name:?} (a column with that name is \"{name}\" without '(')"
            ));
        };
        self.at += 1; // '('
        let mut args = vec![self.expr()?];
        while self.sym(',') {
            args.push(self.expr()?);
        }
        if !self.sym(')') {
            return Err(format!("{}, expected ')' or ','", self.found()));
        }
        if args.len() != arity {
            return Err(format!(
                "at character {pos}: {name} takes {arity} argument{}, got {}",
                if arity == 1 { "" } else { "s" },
                args.len()
            ));
        }
        Ok(Expr::Call(f, args))
    }
}

impl Expr {
    /// The columns it reads, as written.
    pub fn fields(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.walk(&mut |e| {
            if let Expr::Field { name, .. } = e {
                out.push(name.as_str());
            }
        });
        out
    }

    fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        match self {
            Expr::Neg(e) => e.walk(f),
            Expr::Bin(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.walk(f)),
            _ => {}
        }
    }

    /// Each column given its place by `place` (the first error stops).
    pub fn resolve<E>(&mut self, place: &mut dyn FnMut(&str) -> Result<usize, E>) -> Result<(), E> {
        match self {
            Expr::Field { name, at } => *at = place(name)?,
            Expr::Neg(e) => e.resolve(place)?,
            Expr::Bin(_, a, b) => {
                a.resolve(place)?;
                b.resolve(place)?;
            }
            Expr::Call(_, args) => {
                for a in args {
                    a.resolve(place)?;
                }
            }
            Expr::Num(_) => {}
        }
        Ok(())
    }

    /// The places of the columns it reads (resolved).
    pub fn places(&self) -> Vec<usize> {
        let mut out = Vec::new();
        self.walk(&mut |e| {
            if let Expr::Field { at, .. } = e {
                out.push(*at);
            }
        });
        out
    }

    /// Its value on a row whose numbers `get` gives (`None`: missing or
    /// not a number); `None` unless a finite number.
    pub fn eval(&self, get: &dyn Fn(usize) -> Option<f64>) -> Option<f64> {
        Some(self.raw(get)).filter(|v| v.is_finite())
    }

    /// NaN carries a missing value through, as in the Vega expression.
    fn raw(&self, get: &dyn Fn(usize) -> Option<f64>) -> f64 {
        match self {
            Expr::Num(n) => *n,
            Expr::Field { at, .. } => get(*at).filter(|v| v.is_finite()).unwrap_or(f64::NAN),
            Expr::Neg(e) => -e.raw(get),
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.raw(get), b.raw(get));
                match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    _ => a / b,
                }
            }
            Expr::Call(f, args) => {
                let x = args[0].raw(get);
                let y = args.get(1).map_or(f64::NAN, |b| b.raw(get));
                match f {
                    Func::Abs => x.abs(),
                    Func::Ceil => x.ceil(),
                    Func::Exp => x.exp(),
                    Func::Floor => x.floor(),
                    Func::Log => x.ln(),
                    Func::Log10 => x.ln() / std::f64::consts::LN_10,
                    // JavaScript's Math.round, mirrored for negatives
                    // (Rust's and the Vega expression's agree).
                    Func::Round => x.abs().round().copysign(x),
                    Func::Sqrt => x.sqrt(),
                    // NaN in, NaN out, as JavaScript's Math.min/max.
                    Func::Min if x.is_nan() || y.is_nan() => f64::NAN,
                    Func::Max if x.is_nan() || y.is_nan() => f64::NAN,
                    Func::Min => x.min(y),
                    Func::Max => x.max(y),
                    Func::Pow => x.powf(y),
                }
            }
        }
    }

    /// The same computation as a Vega expression over `datum`: a column
    /// that is not a finite number is NaN, and a result that is not a
    /// finite number `null`.
    pub fn vega(&self) -> String {
        let e = self.vega_raw();
        format!("isFinite({e}) ? {e} : null")
    }

    fn vega_raw(&self) -> String {
        match self {
            Expr::Num(n) => Value::from(*n).to_string(),
            Expr::Field { name, .. } => {
                let d = format!("datum[{}]", Value::from(name.as_str()));
                format!("(isFinite({d}) ? {d} : NaN)")
            }
            Expr::Neg(e) => format!("(-{})", e.vega_raw()),
            Expr::Bin(op, a, b) => format!("({} {op} {})", a.vega_raw(), b.vega_raw()),
            Expr::Call(f, args) => {
                let x = args[0].vega_raw();
                let y = args.get(1).map(|a| a.vega_raw()).unwrap_or_default();
                match f {
                    Func::Log10 => format!("(log({x}) / LN10)"),
                    Func::Round => format!("({x} < 0 ? -round(-{x}) : round({x}))"),
                    Func::Min | Func::Max | Func::Pow => {
                        let name = FUNCS.iter().find(|(_, g, _)| g == f).map_or("", |t| t.0);
                        format!("{name}({x}, {y})")
                    }
                    _ => {
                        let name = FUNCS.iter().find(|(_, g, _)| g == f).map_or("", |t| t.0);
                        format!("{name}({x})")
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str, cells: &[Option<f64>]) -> Option<f64> {
        let mut c = Calculate::parse(text).unwrap();
        let mut names: Vec<String> = Vec::new();
        c.expr
            .resolve(&mut |n| {
                let at = names.iter().position(|m| m == n).unwrap_or(names.len());
                if at == names.len() {
                    names.push(n.to_string());
                }
                Ok::<_, ()>(at)
            })
            .unwrap();
        c.expr.eval(&|i| cells[i])
    }

    #[test]
    fn arithmetic_in_order_with_missing_and_zero() {
        assert_eq!(value("r=a/b", &[Some(3.0), Some(4.0)]), Some(0.75));
        assert_eq!(value("r=a+b*2", &[Some(1.0), Some(4.0)]), Some(9.0));
        assert_eq!(value("r=(a+b)*2", &[Some(1.0), Some(4.0)]), Some(10.0));
        assert_eq!(value("r=a-b-1", &[Some(1.0), Some(4.0)]), Some(-4.0));
        assert_eq!(value("r=a/b", &[Some(3.0), Some(0.0)]), None);
        assert_eq!(value("r=a/b", &[None, Some(2.0)]), None);
        assert_eq!(value("r=-a", &[Some(2.5)]), Some(-2.5));
        assert_eq!(value("r=round(a)", &[Some(-2.5)]), Some(-3.0));
        assert_eq!(
            value("r=log10(a)", &[Some(1000.0)]),
            Some(2.9999999999999996)
        );
        assert_eq!(value("r=max(a, 1e2)", &[Some(3.0)]), Some(100.0));
        assert_eq!(value("r=\"Made Shots\"/2", &[Some(3.0)]), Some(1.5));
    }

    #[test]
    fn errors_name_the_place() {
        let e = Calculate::parse("rate=Made/").unwrap_err();
        assert!(
            e.why.contains("character 11") && e.why.contains("the end"),
            "{e}"
        );
        let e = Calculate::parse("rate=Made//2").unwrap_err();
        assert!(e.why.contains("character 11"), "{e}");
        let e = Calculate::parse("rate=foo(1)").unwrap_err();
        assert!(e.why.contains("no function"), "{e}");
        assert!(Calculate::parse("Made/Trials").is_err());
        assert!(Calculate::parse("r=(a").is_err());
        assert!(Calculate::parse("r=a b").is_err());
    }

    #[test]
    fn vega_turns_missing_into_null() {
        let c = Calculate::parse("r=a/b").unwrap();
        assert_eq!(
            c.expr.vega(),
            "isFinite(((isFinite(datum[\"a\"]) ? datum[\"a\"] : NaN) / (isFinite(datum[\"b\"]) ? datum[\"b\"] : NaN))) ? ((isFinite(datum[\"a\"]) ? datum[\"a\"] : NaN) / (isFinite(datum[\"b\"]) ? datum[\"b\"] : NaN)) : null"
        );
    }
}
