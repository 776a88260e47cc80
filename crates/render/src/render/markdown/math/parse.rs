//! TeX math read into a tree of [`Node`]s: atoms (characters and known
//! symbols), groups, scripts, fractions, roots, accents, delimiters
//! grown with `\left`/`\right`, and the environments models write
//! (`matrix` and its bracketed kinds, `cases`, `aligned`). A command it
//! does not know stays as it was written, with the braced arguments
//! right after it.

use super::symbols::{self, Class};

/// One piece of math.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// Drawn as `uni` (Unicode) or `ascii`, of a class.
    Atom {
        uni: String,
        ascii: String,
        class: Class,
    },
    Group(Vec<Node>),
    Scripts {
        base: Box<Node>,
        sub: Option<Vec<Node>>,
        sup: Option<Vec<Node>>,
    },
    /// A fraction (`bar`), or a binomial (no bar, in parentheses).
    Frac {
        num: Vec<Node>,
        den: Vec<Node>,
        bar: bool,
    },
    Sqrt {
        index: Option<Vec<Node>>,
        body: Vec<Node>,
    },
    /// An accent on its argument: the combining mark, the command's name.
    Accent {
        mark: char,
        name: String,
        body: Vec<Node>,
    },
    /// `\left( … \right)`: the delimiters as written (`.` is none).
    Fenced {
        open: String,
        close: String,
        body: Vec<Node>,
    },
    /// An environment's cells: rows of cells.
    Table {
        env: String,
        rows: Vec<Vec<Vec<Node>>>,
    },
    /// `&` and `\\`, before a table takes them.
    Amp,
    Row,
}

impl Node {
    pub fn atom(text: &str, class: Class) -> Node {
        Node::Atom {
            uni: text.to_string(),
            ascii: text.to_string(),
            class,
        }
    }
}

/// Reads `tex` whole.
pub fn parse(tex: &str) -> Vec<Node> {
    let mut p = Parser {
        s: tex.chars().collect(),
        at: 0,
    };
    let nodes = p.list(&Stop::End);
    as_table(nodes, "gathered")
}

/// A list of nodes holding `&` or `\\` at its top is a table of `env`.
fn as_table(nodes: Vec<Node>, env: &str) -> Vec<Node> {
    if !nodes.iter().any(|n| matches!(n, Node::Amp | Node::Row)) {
        return nodes;
    }
    let env = if nodes.iter().any(|n| matches!(n, Node::Amp)) && env == "gathered" {
        "aligned"
    } else {
        env
    };
    vec![table(env.to_string(), nodes)]
}

/// Splits a list at its `\\` and `&` into rows of cells.
fn table(env: String, nodes: Vec<Node>) -> Node {
    let mut rows = vec![vec![Vec::new()]];
    for n in nodes {
        match n {
            Node::Row => rows.push(vec![Vec::new()]),
            Node::Amp => rows.last_mut().unwrap().push(Vec::new()),
            n => rows.last_mut().unwrap().last_mut().unwrap().push(n),
        }
    }
    // A `\\` ending the last row makes no row.
    if rows.len() > 1 && rows.last().is_some_and(|r| r.len() == 1 && r[0].is_empty()) {
        rows.pop();
    }
    Node::Table { env, rows }
}

/// Where a list ends.
enum Stop {
    End,
    Brace,
    Right,
    EndEnv,
}

struct Parser {
    s: Vec<char>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.s.get(self.at).copied()
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    /// A command's name after its backslash: letters, or one other
    /// character.
    fn name(&mut self) -> String {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            self.at += 1;
        }
        if self.at == start && self.at < self.s.len() {
            self.at += 1;
        }
        self.s[start..self.at].iter().collect()
    }

    /// Whether the next command is `\word` (not taken).
    fn next_command_is(&self, word: &str) -> bool {
        let rest: String = self.s[self.at..].iter().take(word.len() + 2).collect();
        rest.strip_prefix('\\')
            .and_then(|r| r.strip_prefix(word))
            .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphabetic()))
    }

    fn list(&mut self, stop: &Stop) -> Vec<Node> {
        let mut out: Vec<Node> = Vec::new();
        while let Some(c) = self.peek() {
            match c {
                '}' if matches!(stop, Stop::Brace) => {
                    self.at += 1;
                    return out;
                }
                '}' => self.at += 1,
                '\\' if matches!(stop, Stop::Right) && self.next_command_is("right") => {
                    return out;
                }
                '\\' if matches!(stop, Stop::EndEnv) && self.next_command_is("end") => {
                    return out;
                }
                '^' | '_' => {
                    self.at += 1;
                    let arg = self.argument();
                    let base = out.pop().unwrap_or(Node::Group(Vec::new()));
                    out.push(attach(base, c == '^', arg));
                }
                '\'' => {
                    self.at += 1;
                    let base = out.pop().unwrap_or(Node::Group(Vec::new()));
                    let prime = Node::Atom {
                        uni: "′".into(),
                        ascii: "'".into(),
                        class: Class::Ord,
                    };
                    out.push(match base {
                        // x' is x with a prime after, drawn close.
                        Node::Atom { uni, ascii, class } if class == Class::Ord => Node::Atom {
                            uni: uni + "′",
                            ascii: ascii + "'",
                            class,
                        },
                        b => Node::Group(vec![b, prime]),
                    });
                }
                c if c.is_whitespace() => self.at += 1,
                _ => {
                    if let Some(n) = self.item() {
                        out.push(n);
                    }
                }
            }
        }
        out
    }

    /// One argument: a braced group, a command or a character.
    fn argument(&mut self) -> Vec<Node> {
        self.skip_blanks();
        match self.peek() {
            Some('{') => {
                self.at += 1;
                self.list(&Stop::Brace)
            }
            Some(_) => self.item().into_iter().collect(),
            None => Vec::new(),
        }
    }

    /// The text of a braced argument as written (`\text{…}`, `\begin{…}`).
    fn raw_argument(&mut self) -> String {
        self.skip_blanks();
        if self.peek() != Some('{') {
            return self
                .peek()
                .map(|c| {
                    self.at += 1;
                    c.to_string()
                })
                .unwrap_or_default();
        }
        let start = self.at;
        self.skip_group();
        let end = self.at.saturating_sub(1).max(start + 1);
        self.s[start + 1..end].iter().collect()
    }

    /// Past a balanced `{…}` (or to the end).
    fn skip_group(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            self.at += 1;
            match c {
                '\\' => self.at += 1,
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    /// One item at the cursor (not a script or a blank).
    fn item(&mut self) -> Option<Node> {
        let c = self.peek()?;
        self.at += 1;
        Some(match c {
            '{' => Node::Group(self.list(&Stop::Brace)),
            '&' => Node::Amp,
            '~' => Node::atom(" ", Class::Ord),
            '\\' => return self.command(),
            c => Node::atom(&c.to_string(), symbols::char_class(c)),
        })
    }

    fn command(&mut self) -> Option<Node> {
        let start = self.at - 1;
        let name = self.name();
        let n = match name.as_str() {
            "\\" | "cr" | "newline" => Node::Row,
            "frac" | "dfrac" | "tfrac" | "cfrac" | "binom" | "dbinom" | "tbinom" => {
                let num = self.argument();
                let den = self.argument();
                let bar = !name.ends_with("binom");
                Node::Frac { num, den, bar }
            }
            "sqrt" => {
                self.skip_blanks();
                let index = (self.peek() == Some('[')).then(|| self.bracketed());
                Node::Sqrt {
                    index,
                    body: self.argument(),
                }
            }
            "text" | "textrm" | "textit" | "textbf" | "textsf" | "texttt" | "mbox" | "hbox"
            | "textnormal" | "emph" => {
                let t = self.raw_argument();
                Node::atom(&t, Class::Ord)
            }
            "mathrm" | "mathbf" | "mathit" | "mathsf" | "mathtt" | "boldsymbol" | "bm"
            | "mathnormal" | "operatorname" | "mathbb" | "mathcal" | "mathscr" | "mathfrak"
            | "pmb" => {
                let body = self.argument();
                Node::Group(body.into_iter().map(|n| in_font(&name, n)).collect())
            }
            "left" | "right" | "big" | "Big" | "bigg" | "Bigg" | "bigl" | "bigr" | "Bigl"
            | "Bigr" | "biggl" | "biggr" | "middle" => {
                let d = self.delimiter();
                if name == "left" {
                    self.fenced(d)
                } else {
                    Node::atom(&d, Class::Ord)
                }
            }
            "begin" => self.environment(),
            "limits" | "nolimits" | "displaystyle" | "textstyle" | "scriptstyle" | "nonumber"
            | "notag" | "label" => {
                if name == "label" {
                    self.raw_argument();
                }
                return None;
            }
            _ => {
                if let Some(mark) = symbols::accent(&name) {
                    let body = self.argument();
                    return Some(Node::Accent { mark, name, body });
                }
                match symbols::symbol(&name) {
                    Some((uni, ascii, class)) => Node::Atom {
                        uni: uni.into(),
                        ascii: ascii.into(),
                        class,
                    },
                    None => self.unknown(start),
                }
            }
        };
        Some(n)
    }

    /// `\\left` and its delimiter read: the body up to `\\right`.
    fn fenced(&mut self, open: String) -> Node {
        let body = self.list(&Stop::Right);
        let close = if self.next_command_is("right") {
            self.at += "\\right".len();
            self.delimiter()
        } else {
            String::new()
        };
        Node::Fenced { open, close, body }
    }

    /// `\\begin` read: the environment's name, its cells, `\\end{…}`.
    fn environment(&mut self) -> Node {
        let env = self.raw_argument();
        if env == "array" || env == "alignedat" {
            self.raw_argument();
        }
        let body = self.list(&Stop::EndEnv);
        if self.next_command_is("end") {
            self.at += "\\end".len();
            self.raw_argument();
        }
        table(env.trim_end_matches('*').to_string(), body)
    }

    /// A command it does not know: as written, with the braced arguments
    /// right after it.
    fn unknown(&mut self, start: usize) -> Node {
        while self.peek() == Some('{') {
            self.skip_group();
        }
        let written: String = self.s[start..self.at].iter().collect();
        Node::atom(&written, Class::Ord)
    }

    /// `[…]` after `\sqrt`.
    fn bracketed(&mut self) -> Vec<Node> {
        self.at += 1;
        let start = self.at;
        while self.peek().is_some_and(|c| c != ']') {
            self.at += 1;
        }
        let inner: String = self.s[start..self.at].iter().collect();
        self.at = (self.at + 1).min(self.s.len());
        parse(&inner)
    }

    /// The delimiter after `\left`, `\big` and the like, as drawn.
    fn delimiter(&mut self) -> String {
        self.skip_blanks();
        let Some(c) = self.peek() else {
            return String::new();
        };
        self.at += 1;
        if c == '.' {
            return String::new();
        }
        if c != '\\' {
            return c.to_string();
        }
        let name = self.name();
        match symbols::symbol(&name) {
            Some((uni, _, _)) => uni.to_string(),
            None => format!("\\{name}"),
        }
    }
}

/// A script put on a base: a second script of the other kind joins the
/// first (`x_i^2`).
fn attach(base: Node, sup: bool, arg: Vec<Node>) -> Node {
    match base {
        Node::Scripts {
            base,
            sub,
            sup: None,
        } if sup => Node::Scripts {
            base,
            sub,
            sup: Some(arg),
        },
        Node::Scripts {
            base,
            sub: None,
            sup: s,
        } if !sup => Node::Scripts {
            base,
            sub: Some(arg),
            sup: s,
        },
        base => Node::Scripts {
            base: Box::new(base),
            sub: (!sup).then(|| arg.clone()),
            sup: sup.then_some(arg),
        },
    }
}

/// A node in a font: `\mathbb`'s letters double-struck, the others as
/// they are; `\operatorname` a name.
fn in_font(font: &str, n: Node) -> Node {
    match n {
        Node::Atom { uni, ascii, class } => Node::Atom {
            uni: uni.chars().map(|c| symbols::font_char(font, c)).collect(),
            ascii,
            class,
        },
        Node::Group(g) => Node::Group(g.into_iter().map(|n| in_font(font, n)).collect()),
        other => other,
    }
}
