//! MCP declarations within bounds. A server's tools are chosen by its
//! config (`include_tools`, `exclude_tools`, by the server's own names, as
//! gemini-cli's `includeTools`/`excludeTools`), their schemas normalised
//! ([`schema`]) and their descriptions cut at [`schema::MAX_DESCRIPTION`]
//! bytes; a tool whose schema is too large is left out. Then, over every
//! declared tool, [`cap`] keeps at most [`MAX_TOOLS`] and [`MAX_TOTAL`]
//! bytes of MCP declarations. Each thing left out or changed is said in a
//! warning naming it.

use std::collections::BTreeMap;

use serde_json::Value;

use super::ServerSpec;
use super::schema::{self, MAX_DESCRIPTION, Normalised};

/// Most tools declared in one request: OpenAI's API takes no more, and
/// every declaration is sent (and paid for) with every request.
pub const MAX_TOOLS: usize = 128;

/// Most bytes of MCP declarations in one request.
pub const MAX_TOTAL: usize = 512 * 1024;

/// How many names a warning lists before it counts the rest.
const NAMES_SHOWN: usize = 12;

/// One tool of a server as it will be declared.
pub struct Chosen {
    pub tool: rmcp::model::Tool,
    pub schema: Value,
    pub description: Option<String>,
}

/// `names` for a message: the first few, then how many more.
pub fn listed(names: &[String]) -> String {
    if names.len() <= NAMES_SHOWN {
        return names.join(", ");
    }
    format!(
        "{} and {} more",
        names[..NAMES_SHOWN].join(", "),
        names.len() - NAMES_SHOWN
    )
}

/// The tools of `spec`'s server to declare, with the warnings to give.
pub fn choose(spec: &ServerSpec, tools: Vec<rmcp::model::Tool>) -> (Vec<Chosen>, Vec<String>) {
    let mut warnings = Vec::new();
    let server = &spec.name;
    let has = |n: &String| tools.iter().any(|t| t.name.as_ref() == n.as_str());
    let named = spec
        .include_tools
        .iter()
        .flatten()
        .chain(&spec.exclude_tools);
    for n in named.filter(|n| !has(n)) {
        warnings.push(format!(
            "MCP server {server}: its config names the tool {n:?}, which the server does not have"
        ));
    }
    let wanted = |t: &rmcp::model::Tool| {
        let n = t.name.to_string();
        spec.include_tools.as_ref().is_none_or(|i| i.contains(&n))
            && !spec.exclude_tools.contains(&n)
    };
    let mut chosen = Vec::new();
    let mut trimmed = Trimmed::default();
    for tool in tools.into_iter().filter(wanted) {
        let name = tool.name.to_string();
        let n: Normalised = schema::normalise(&Value::Object((*tool.input_schema).clone()));
        if n.too_large {
            trimmed.too_large.push(name);
            continue;
        }
        for k in n.dropped {
            *trimmed.dropped.entry(k).or_default() += 1;
        }
        trimmed.unresolved.extend(n.unresolved);
        let text = tool.description.as_deref().filter(|d| !d.trim().is_empty());
        let description = text.map(|d| match schema::cut_text(d, MAX_DESCRIPTION) {
            Some(c) => {
                trimmed.cut.push(name.clone());
                c
            }
            None => d.to_string(),
        });
        if n.cut > 0 && !trimmed.cut.contains(&name) {
            trimmed.cut.push(name.clone());
        }
        chosen.push(Chosen {
            tool,
            schema: n.schema,
            description,
        });
    }
    trimmed.warn(server, &mut warnings);
    (chosen, warnings)
}

/// What [`choose`] took out of a server's declarations, by kind: tools
/// left out whole, keywords dropped (with how many tools had each),
/// references left open, descriptions or schemas cut.
#[derive(Default)]
struct Trimmed {
    too_large: Vec<String>,
    dropped: BTreeMap<String, usize>,
    unresolved: Vec<String>,
    cut: Vec<String>,
}

impl Trimmed {
    /// One warning per kind of change, naming the tools or keywords.
    fn warn(mut self, server: &str, warnings: &mut Vec<String>) {
        if !self.too_large.is_empty() {
            warnings.push(format!(
                "MCP server {server}: not declared, their schemas being over {} KiB with references inlined: {}",
                schema::MAX_BYTES / 1024,
                listed(&self.too_large)
            ));
        }
        if !self.dropped.is_empty() {
            let kw: Vec<String> = self
                .dropped
                .iter()
                .map(|(k, n)| format!("{k} ({n} tool{})", if *n == 1 { "" } else { "s" }))
                .collect();
            warnings.push(format!(
                "MCP server {server}: schema keywords the APIs do not take were dropped: {}",
                kw.join(", ")
            ));
        }
        if !self.unresolved.is_empty() {
            self.unresolved.sort();
            self.unresolved.dedup();
            warnings.push(format!(
                "MCP server {server}: references that cannot be followed were left open: {}",
                listed(&self.unresolved)
            ));
        }
        if !self.cut.is_empty() {
            warnings.push(format!(
                "MCP server {server}: descriptions over {MAX_DESCRIPTION} bytes were cut: {}",
                listed(&self.cut)
            ));
        }
    }
}

/// Of the declared names (in order), those kept within [`MAX_TOOLS`]
/// tools and [`MAX_TOTAL`] bytes of MCP declarations (`size` gives a
/// tool's declaration size when it is an MCP tool), and a warning naming
/// those left out.
pub fn cap(
    declared: Vec<String>,
    size: impl Fn(&str) -> Option<usize>,
) -> (Vec<String>, Option<String>) {
    let mut kept = Vec::new();
    let mut left = Vec::new();
    let mut total = 0;
    for name in declared {
        let bytes = size(&name);
        let over_bytes = bytes.is_some_and(|b| total + b > MAX_TOTAL);
        if kept.len() >= MAX_TOOLS || over_bytes {
            left.push(name);
            continue;
        }
        total += bytes.unwrap_or(0);
        kept.push(name);
    }
    let warning = (!left.is_empty()).then(|| {
        format!(
            "{} tools are not declared (at most {MAX_TOOLS} tools and {} KiB of MCP declarations go in a \
             request): {}; choose with --tools, --exclude-tools or include_tools/exclude_tools in the \
             server's [mcp.NAME] table",
            left.len(),
            MAX_TOTAL / 1024,
            listed(&left)
        )
    });
    (kept, warning)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str, description: &str) -> rmcp::model::Tool {
        serde_json::from_value(json!({"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": {"x": {"type": "string", "pattern": "a"}}}}))
        .unwrap()
    }

    #[test]
    fn the_config_chooses_and_what_is_changed_is_said() {
        let mut spec = ServerSpec::from_command_line("big=srv").unwrap();
        spec.exclude_tools = vec!["b".into(), "nope".into()];
        let (chosen, warnings) = choose(
            &spec,
            vec![tool("a", &"d".repeat(5000)), tool("b", "x"), tool("c", "y")],
        );
        let names: Vec<String> = chosen.iter().map(|c| c.tool.name.to_string()).collect();
        assert_eq!(names, ["a", "c"]);
        assert!(chosen[0].description.as_ref().unwrap().len() < 2100);
        assert_eq!(
            warnings,
            [
                "MCP server big: its config names the tool \"nope\", which the server does not have",
                "MCP server big: schema keywords the APIs do not take were dropped: pattern (2 tools)",
                "MCP server big: descriptions over 2048 bytes were cut: a",
            ]
        );
        spec.include_tools = Some(vec!["c".into()]);
        let (chosen, _) = choose(&spec, vec![tool("a", ""), tool("c", "")]);
        assert_eq!(chosen.len(), 1);
    }

    #[test]
    fn the_cap_keeps_the_first_and_names_the_rest() {
        let names: Vec<String> = (0..200).map(|i| format!("t{i}")).collect();
        let (kept, warning) = cap(names, |_| Some(10));
        assert_eq!(kept.len(), MAX_TOOLS);
        let w = warning.unwrap();
        assert!(w.starts_with("72 tools are not declared"), "{w}");
        assert!(
            w.contains("t128, t129,") && w.contains("and 60 more"),
            "{w}"
        );
        let (kept, warning) = cap(vec!["a".into(), "b".into()], |n| {
            (n == "b").then_some(MAX_TOTAL + 1)
        });
        assert_eq!(kept, ["a"]);
        assert!(warning.unwrap().contains(": b;"));
    }
}
