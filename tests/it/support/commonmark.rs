//! The CommonMark spec examples and the GFM table, strikethrough and
//! task-list examples, as pulldown-cmark's crate ships them (its generated
//! `tests/suite/*.rs`: each example's Markdown and the HTML the spec
//! expects), found in the registry's copy of the crate this repository
//! builds with (the version Cargo.lock pins); and what the Markdown test reads
//! out of an expected HTML: its visible words, the characters a reader
//! sees (text, link and image addresses), the kinds of markup it holds.

use std::path::PathBuf;
use std::process::Command;

/// The suites read, as pulldown-cmark names its files: the CommonMark
/// spec (652 examples), 57 GFM examples, 18 of alerts, 26 of footnotes
/// and 47 of math.
pub const SUITES: [&str; 9] = [
    "spec",
    "gfm_table",
    "gfm_strikethrough",
    "gfm_tasklist",
    "table",
    "strikethrough",
    "blockquotes_tags",
    "footnotes",
    "math",
];

/// One example: `spec 281` names the spec's example 281.
#[derive(Debug, Clone)]
pub struct Example {
    pub suite: &'static str,
    pub n: usize,
    pub markdown: String,
    pub html: String,
}

impl Example {
    pub fn name(&self) -> String {
        format!("{} {}", self.suite, self.n)
    }
}

/// Where the crate's sources are: the version the lock file pins, in
/// cargo's registry (`$CARGO_HOME`, else `~/.cargo`); else wherever
/// `cargo metadata` says (a vendored tree).
fn crate_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).ok()?;
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"pulldown-cmark\"\n"))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = ")))
        .map(|v| v.trim_matches('"').to_string())?;
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    let in_registry = std::fs::read_dir(home.join("registry/src"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|d| d.path().join(format!("pulldown-cmark-{version}")))
        .find(|d| d.join("tests/suite/spec.rs").is_file());
    in_registry.or_else(|| from_metadata(&root))
}

fn from_metadata(root: &std::path::Path) -> Option<PathBuf> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(root)
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    v["packages"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == "pulldown-cmark")
        .and_then(|p| p["manifest_path"].as_str())
        .map(|m| PathBuf::from(m).parent().unwrap().to_path_buf())
}

/// Every example of [`SUITES`], in order; `None` when the crate's test
/// suite cannot be found.
pub fn examples() -> Option<Vec<Example>> {
    let dir = crate_dir()?.join("tests/suite");
    let mut all = Vec::new();
    for suite in SUITES {
        let src = std::fs::read_to_string(dir.join(format!("{suite}.rs"))).ok()?;
        all.extend(parse_suite(suite, &src));
    }
    Some(all)
}

/// The `original` and `expected` raw strings of each test function.
fn parse_suite(suite: &'static str, src: &str) -> Vec<Example> {
    const OPEN: &str = "r##\"";
    const CLOSE: &str = "\"##;";
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(at) = rest.find("let original = ") {
        let after = &rest[at..];
        let take = |s: &str| -> (String, usize) {
            let o = s.find(OPEN).unwrap() + OPEN.len();
            let c = s[o..].find(CLOSE).unwrap();
            (s[o..o + c].to_string(), o + c + CLOSE.len())
        };
        let (markdown, used) = take(after);
        let e = after[used..].find("let expected = ").unwrap() + used;
        let (html, used2) = take(&after[e..]);
        out.push(Example {
            suite,
            n: out.len() + 1,
            markdown,
            html,
        });
        rest = &after[e + used2..];
    }
    out
}

/// What a reader of the expected HTML sees: its text (entities decoded,
/// tags dropped, an image's alt text kept), and apart from it the
/// addresses of its links and images (a terminal shows them).
pub struct Html {
    pub text: String,
    pub urls: String,
    /// Element names, lowercase, in order (`em`, `pre`, `h2`, ...).
    pub tags: Vec<String>,
}

pub fn read_html(html: &str) -> Html {
    let mut text = String::new();
    let mut urls = String::new();
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        text.push_str(&decode(&rest[..lt]));
        // Comments, CDATA, declarations and processing instructions of raw
        // HTML: nothing a reader sees.
        let raw_end = [
            ("<!--", "-->"),
            ("<![CDATA[", "]]>"),
            ("<?", "?>"),
            ("<!", ">"),
        ]
        .iter()
        .find(|(open, _)| rest[lt..].starts_with(open))
        .map(|(open, close)| {
            rest[lt + open.len()..]
                .find(close)
                .map_or(rest.len(), |e| lt + open.len() + e + close.len())
        });
        if let Some(end) = raw_end {
            text.push(' ');
            rest = &rest[end..];
            continue;
        }
        let Some(gt) = tag_end(&rest[lt..]) else {
            text.push_str(&decode(&rest[lt..]));
            rest = "";
            break;
        };
        let tag = &rest[lt + 1..lt + gt];
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if !tag.starts_with('/') {
            tags.push(name.clone());
        }
        for attr in ["href", "src"] {
            if let Some(v) = attribute(tag, attr) {
                urls.push_str(&percent_decode(&decode(&v)));
                urls.push(' ');
            }
        }
        if name == "img"
            && let Some(alt) = attribute(tag, "alt")
        {
            text.push_str(&decode(&alt));
        }
        // Block ends are line ends; a tag of raw HTML (which a terminal
        // shows as written) parts words too.
        let inline = matches!(
            name.as_str(),
            "em" | "strong" | "code" | "a" | "img" | "del" | "s"
        );
        if !inline {
            text.push(' ');
        }
        rest = &rest[lt + gt + 1..];
    }
    text.push_str(&decode(rest));
    Html { text, urls, tags }
}

/// Where the tag starting `s` ends (after its `>`), quoted attribute
/// values skipped.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(i),
            (None, '<') => return None,
            _ => {}
        }
    }
    None
}

/// An address as written in Markdown: `%5C` is `\\`.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = (b[i] == b'%')
            .then(|| s.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(v) => {
                out.push(v);
                i += 3;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let end = tag[at..].find('"')?;
    Some(tag[at..at + end].to_string())
}

/// The entities pulldown-cmark's HTML writer produces.
fn decode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail.find(';').filter(|&e| e < 12);
        let decoded = end.and_then(|e| match &tail[1..e] {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            n if n.starts_with("#x") || n.starts_with("#X") => u32::from_str_radix(&n[2..], 16)
                .ok()
                .and_then(char::from_u32),
            n if n.starts_with('#') => n[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        });
        match (decoded, end) {
            (Some(c), Some(e)) => {
                out.push(c);
                rest = &tail[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The characters that write Markdown's markup. One of them drawn more
/// often than the expected HTML shows it (as text or in an address) is
/// markup shown raw.
pub const MARKUP: &str = "*_`#[]<>|~\\=+-&";

/// The markup characters `drawn` (plain text, colour and escapes taken
/// off) shows more often than `html` does, with the two counts.
pub fn raw_markup(drawn: &str, html: &Html) -> Vec<(char, usize, usize)> {
    let count = |s: &str, c: char| s.chars().filter(|&x| x == c).count();
    MARKUP
        .chars()
        .filter_map(|c| {
            let (d, e) = (count(drawn, c), count(&html.text, c) + count(&html.urls, c));
            (d > e).then_some((c, d, e))
        })
        .collect()
}

/// The visible words of `html` that `drawn` does not hold (blanks taken
/// off both, so a word cut by wrapping still counts).
pub fn lost_words(drawn: &str, html: &Html) -> Vec<String> {
    // A link's address is drawn after its text: not part of a word.
    let mut drawn = drawn.to_string();
    for url in html.urls.split(' ').filter(|u| !u.is_empty()) {
        drawn = drawn.replace(&format!(" ({url})"), "");
    }
    let flat: String = drawn.chars().filter(|c| !c.is_whitespace()).collect();
    html.text
        .split(char::is_whitespace)
        .filter(|w| !w.is_empty() && !flat.contains(*w))
        .map(String::from)
        .collect()
}

/// The SGR parameters used in `styled` (24-bit colours skipped).
fn sgr_params(styled: &str) -> Vec<u32> {
    let mut params = Vec::new();
    let mut rest = styled;
    while let Some(at) = rest.find("\x1b[") {
        let body = &rest[at + 2..];
        let end = body.find(|c: char| !(c.is_ascii_digit() || c == ';'));
        let Some(end) = end else { break };
        if body[end..].starts_with('m') {
            let nums: Vec<u32> = body[..end]
                .split(';')
                .filter_map(|p| p.parse().ok())
                .collect();
            let mut i = 0;
            while i < nums.len() {
                if nums[i] == 38 || nums[i] == 48 {
                    i += if nums.get(i + 1) == Some(&2) { 5 } else { 3 };
                    continue;
                }
                params.push(nums[i]);
                i += 1;
            }
        }
        rest = &body[end..];
    }
    params
}

/// The kinds of markup the expected HTML holds that `styled` (drawn with
/// colour, Unicode) does not show: emphasis (italic), strong (bold),
/// inline code (its colour), strikethrough, links and images (underlined),
/// headings (bold), quotes (a bar), list items (a bullet or a number),
/// rules, tables (a border).
pub fn lost_markup(styled: &str, html: &Html) -> Vec<&'static str> {
    let sgr = sgr_params(styled);
    let plain = gemline::render::text::strip_ansi(styled);
    let has = |p: u32| sgr.contains(&p);
    let mut lost = Vec::new();
    let tags = &html.tags;
    let any = |names: &[&str]| tags.iter().any(|t| names.contains(&t.as_str()));
    let inline_code = {
        // `code` not directly inside `pre`.
        tags.windows(2).any(|w| w[1] == "code" && w[0] != "pre")
            || tags.first().is_some_and(|t| t == "code")
    };
    let checks: [(&str, bool, bool); 11] = [
        ("emphasis", any(&["em"]), has(3)),
        ("strong", any(&["strong"]), has(1)),
        ("code", inline_code, has(36)),
        ("strikethrough", any(&["del", "s"]), has(9)),
        (
            "link",
            any(&["a", "img"]),
            has(4) || styled.contains("\x1b]8;"),
        ),
        (
            "heading",
            any(&["h1", "h2", "h3", "h4", "h5", "h6"]),
            has(1),
        ),
        ("quote", any(&["blockquote"]), plain.contains('│')),
        (
            "bullet",
            any(&["ul"]),
            plain.contains(['•', '◦', '▪', '☐', '☑']),
        ),
        ("number", any(&["ol"]), plain.lines().any(numbered)),
        ("rule", any(&["hr"]), plain.contains("───")),
        ("table", any(&["table"]), plain.contains(['╭', '│', '┆'])),
    ];
    for (name, expected, shown) in checks {
        if expected && !shown {
            lost.push(name);
        }
    }
    lost
}

/// A drawn row that starts with an item number (`3.`).
fn numbered(row: &str) -> bool {
    let t = row.trim_start_matches([' ', '│']);
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && t[digits..].starts_with(['.', ')'])
}
