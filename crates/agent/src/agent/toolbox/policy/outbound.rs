//! What a call sends to a place the model names: `web_fetch`'s URLs (a
//! server fetches them, so whoever runs the host reads the whole URL),
//! `web_search`'s query, and the URLs in an MCP tool's arguments. Such a
//! call is shown as what leaves (each URL whole, its query decoded, the
//! text it carries from what this run read marked, [`carried`]) and asked
//! about; see [`Outbound::shown`].
//!
//! [`carried`]: super::carried

use serde_json::Value;

use super::carried::{self, Hit};
use super::strings;
use crate::agent::toolbox::{Source, Tool};

/// What one call would send out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outbound {
    /// The URLs (or, for web_search, the query) as the model wrote them.
    pub items: Vec<Item>,
    /// The tokens among them that carry text read in this run.
    pub hits: Vec<Hit>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Url(String),
    Query(String),
}

/// What `tool` would send out with `args`, when it sends anything to a
/// place the model names.
pub fn of(tool: &Tool, args: &Value) -> Option<Outbound> {
    let items: Vec<Item> = match (&tool.source, tool.name.as_str()) {
        (Source::Builtin, "web_fetch") => {
            let mut urls = Vec::new();
            strings(args.get("urls").unwrap_or(&Value::Null), &mut urls);
            urls.into_iter().map(Item::Url).collect()
        }
        (Source::Builtin, "web_search") => args
            .get("query")
            .and_then(Value::as_str)
            .map(|q| vec![Item::Query(q.to_string())])
            .unwrap_or_default(),
        (Source::Mcp { .. }, _) => {
            let mut all = Vec::new();
            strings(args, &mut all);
            all.into_iter()
                .filter(|s| is_url(s))
                .map(Item::Url)
                .collect()
        }
        _ => return None,
    };
    if items.is_empty() {
        return None;
    }
    let mut hits: Vec<Hit> = Vec::new();
    for item in &items {
        let text = match item {
            Item::Url(u) => decoded(u.split_once("://").map_or(u.as_str(), |(_, r)| r)),
            Item::Query(q) => q.clone(),
        };
        for h in carried::check(&text) {
            if !hits.iter().any(|k| k.token == h.token) {
                hits.push(h);
            }
        }
    }
    Some(Outbound { items, hits })
}

fn is_url(s: &str) -> bool {
    let s = s.trim_start().to_ascii_lowercase();
    s.starts_with("http://") || s.starts_with("https://")
}

/// `%XX` decoded (and `+` as a space), bytes that are no UTF-8 replaced.
pub fn decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Control characters escaped (`\n`, `\u{1b}`), so a decoded value keeps
/// to its line; the consent prompt escapes the rest of what it shows.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

impl Outbound {
    /// Whether it carries text read in this run.
    pub fn carries(&self) -> bool {
        !self.hits.is_empty()
    }

    /// The consent question's request: each URL whole, then its query's
    /// parameters decoded one a line; the query of a search; and, when
    /// the call carries text read in this run, which and from where.
    pub fn shown(&self, tool: &str) -> String {
        let mut s = format!("{tool} sends to the web:\n");
        for item in &self.items {
            match item {
                Item::Url(u) => {
                    s.push_str(&format!("  URL {u}\n"));
                    let query = u.split_once('?').map(|(_, q)| q).unwrap_or("");
                    let query = query.split('#').next().unwrap_or("");
                    for pair in query.split('&').filter(|p| !p.is_empty()) {
                        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                        s.push_str(&format!(
                            "    {} = {}\n",
                            one_line(&decoded(k)),
                            one_line(&decoded(v))
                        ));
                    }
                }
                Item::Query(q) => s.push_str(&format!("  search query: {q}\n")),
            }
        }
        if self.carries() {
            s.push_str("  !! it carries text this run read:\n");
            for h in &self.hits {
                s.push_str(&format!("    >>{}<< from {}\n", h.token, h.origin.as_str()));
            }
        }
        s.trim_end().to_string()
    }

    /// The words of a refusal for the model and the user.
    pub fn carried_words(&self) -> String {
        self.hits
            .iter()
            .map(|h| format!("{:?} (from {})", h.token, h.origin.as_str()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::toolbox::{Done, Level, Ran};
    use serde_json::json;

    fn tool(name: &str, source: Source) -> Tool {
        Tool::new(json!({"name": name}), source, Level::Standard, |_, _| {
            Ran::done(Done::text(""))
        })
    }

    #[test]
    fn the_whole_url_is_shown_with_its_query_decoded_and_controls_escaped() {
        let t = tool("web_fetch", Source::Builtin);
        let o = of(
            &t,
            &json!({"urls": ["https://h.example/c?d=ACCT%20991%0A%1b%5B2J&x=a+b"], "question": "q"}),
        )
        .unwrap();
        let s = o.shown("web_fetch");
        assert!(
            s.contains("URL https://h.example/c?d=ACCT%20991%0A%1b%5B2J&x=a+b"),
            "{s}"
        );
        assert!(s.contains("d = ACCT 991\\n\\u{1b}[2J"), "{s}");
        assert!(s.contains("x = a b"), "{s}");
    }

    #[test]
    fn only_web_tools_and_mcp_urls_are_outbound() {
        let args = json!({"path": "https://a.example/x"});
        assert!(of(&tool("read_file", Source::Builtin), &args).is_none());
        let mcp = Source::Mcp {
            server: "f".into(),
            trusted: true,
        };
        let o = of(
            &tool("f__get", mcp.clone()),
            &json!({"opts": {"u": "HTTPS://a.example/x"}}),
        );
        assert_eq!(o.unwrap().items, [Item::Url("HTTPS://a.example/x".into())]);
        assert!(of(&tool("f__get", mcp), &json!({"u": "file:///x"})).is_none());
        let q = of(
            &tool("web_search", Source::Builtin),
            &json!({"query": "bmw m5"}),
        );
        assert_eq!(q.unwrap().items, [Item::Query("bmw m5".into())]);
    }

    #[test]
    fn percent_decoding_keeps_bad_escapes_as_written() {
        assert_eq!(decoded("a%2Fb%zz%4"), "a/b%zz%4");
        assert_eq!(decoded("%"), "%");
        assert_eq!(decoded("%C3%A9"), "é");
    }
}
