//! gem-ask's own tools, each a [`Tool`] made in its own file: the chart,
//! chapter and plot tools ([`chart`], [`topic`], [`plot`]), the file and
//! command tools ([`files`], [`shell`]), the agent modes' [`signal`], and
//! the web tools of the Gemini provider ([`web_search`], [`web_fetch`]),
//! the memory tools ([`remember`], [`recall`], [`forget`], [`relate`];
//! what they share in [`memory`]), declared only when memory is on.
//! [`tools`] is the one list that registers them, in declaration order
//! (the order the model and `--list-tools` see); a new built-in tool is a
//! new file here and one line there. The tool names other modules need
//! (the turn loop, the task mode, the chart counts) are named here too.

mod args;
pub mod chart;
pub mod files;
pub mod forget;
pub mod memory;
mod paging;
pub mod plot;
pub mod recall;
pub mod relate;
pub mod remember;
pub mod search;
pub mod shell;
pub mod signal;
pub mod topic;
pub mod web_fetch;
pub mod web_search;

pub use chart::RENDER_VISUALIZATION;
pub use memory::MEMORY_TOOLS;
pub use plot::PLOT;
pub use signal::{NEED_INPUT, PROGRESS, SIGNAL, Signal, SignalHook, TASK_COMPLETE};
pub use topic::CREATE_NEW_TOPIC;
pub use web_fetch::WEB_FETCH;
pub use web_search::WEB_SEARCH;

/// The tools that need Gemini's own tools (googleSearch, urlContext):
/// not declared for another provider.
pub const GEMINI_ONLY: &[&str] = &[WEB_SEARCH, WEB_FETCH];

use super::Tool;

/// Every built-in tool, in declaration order; `signal` with its
/// `progress` kind or without (`--progress-reporting`).
pub fn tools(progress_reporting: bool) -> Vec<Tool> {
    let mut all = vec![chart::tool(), topic::tool(), plot::tool()];
    all.extend(files::tools());
    all.push(shell::tool());
    all.push(signal::tool(progress_reporting));
    all.push(web_search::tool());
    all.push(web_fetch::tool());
    all.extend([
        remember::tool(),
        recall::tool(),
        forget::tool(),
        relate::tool(),
    ]);
    all
}

/// Where each tool's paragraph stands in the system prompt (see
/// `Tool::with_guidance`): the prompt's order is older than the
/// declaration order and is kept as it was.
pub mod place {
    pub const CHART: u8 = 10;
    pub const PLOT: u8 = 20;
    pub const TOPIC: u8 = 30;
    pub const SIGNAL: u8 = 40;
    /// The file and command tools share one paragraph.
    pub const WORKSPACE: u8 = 50;
    /// So do the web tools.
    pub const WEB: u8 = 60;
    /// So do the memory tools.
    pub const MEMORY: u8 = 70;
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn declarations_use_only_the_openapi_subset() {
        // The v1beta `Schema` fields; anything else (additionalProperties,
        // $schema, const, ...) is the 400 of fixture 21.
        const SCHEMA_FIELDS: &[&str] = &[
            "type",
            "format",
            "title",
            "description",
            "nullable",
            "enum",
            "maxItems",
            "minItems",
            "properties",
            "required",
            "minProperties",
            "maxProperties",
            "minLength",
            "maxLength",
            "pattern",
            "example",
            "anyOf",
            "propertyOrdering",
            "default",
            "items",
            "minimum",
            "maximum",
        ];
        const TYPES: &[&str] = &[
            "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL",
        ];
        fn walk(schema: &Value, at: &str) {
            let m = schema
                .as_object()
                .unwrap_or_else(|| panic!("{at}: not an object"));
            for (k, v) in m {
                assert!(SCHEMA_FIELDS.contains(&k.as_str()), "{at}: {k}");
                match k.as_str() {
                    "type" => assert!(TYPES.contains(&v.as_str().unwrap()), "{at}: {v}"),
                    "properties" => {
                        for (name, sub) in v.as_object().unwrap() {
                            walk(sub, &format!("{at}.{name}"));
                        }
                    }
                    "items" => walk(v, &format!("{at}[]")),
                    "required" => {
                        let props = m["properties"].as_object().unwrap();
                        for r in v.as_array().unwrap() {
                            assert!(props.contains_key(r.as_str().unwrap()), "{at}: {r}");
                        }
                    }
                    _ => {}
                }
            }
        }
        // plot is declared with `parametersJsonSchema` (full JSON Schema).
        for progress in [true, false] {
            for t in tools(progress).iter().filter(|t| t.name != PLOT) {
                let d = &t.declaration;
                let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
                assert_eq!(keys, ["name", "description", "parameters"]);
                walk(&d["parameters"], &t.name);
            }
        }
    }
}
