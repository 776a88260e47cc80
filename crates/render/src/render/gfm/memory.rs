//! Memory's events in a Markdown report: a write as a `**Memory:**`
//! line, a memory as a list item (its relations under it), a path as a
//! line, the relation graph as a mermaid flowchart.

use serde_json::Value;

use super::super::memory::{flowchart, item_line, path_line, relation_lines, summary};
use super::text::inline;
use crate::events::Event;

/// A memory event as Markdown for a report (a line, a list item, a
/// mermaid flowchart), ending with a newline.
pub fn markdown(e: &Event) -> String {
    let v = Value::Object(e.0.clone());
    match e.kind() {
        "memory" => format!("> **Memory:** {}\n", inline(&summary(&v, false))),
        "memory_item" => {
            let mut s = format!("- {}\n", inline(&item_line(&v)));
            for r in relation_lines(&v, false) {
                s.push_str(&format!("  - {}\n", inline(r.trim())));
            }
            s
        }
        "memory_path" => format!("{}\n", inline(&path_line(&v, false))),
        "memory_graph" => format!("```mermaid\n{}```\n", flowchart(&v)),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lines_items_and_graphs() {
        let ev = |v: Value| match v {
            Value::Object(m) => Event(m),
            _ => unreachable!(),
        };
        let r = ev(
            json!({"type":"memory","action":"related","from":"api","to":"db","relation":"uses","by":"user"}),
        );
        assert_eq!(
            markdown(&r),
            "> **Memory:** related api -uses-\\> db (by you)\n"
        );
        let item = ev(
            json!({"type":"memory_item","key":"db*","content":"port","tags":["x"],
            "relations":[{"to":"api","relation":"uses"}]}),
        );
        assert_eq!(
            markdown(&item),
            "- db\\* \\[x\\]: port\n  - -uses-\\> api\n"
        );
        let g = ev(json!({"type":"memory_graph","nodes":[{"key":"a"}],"edges":[]}));
        assert_eq!(markdown(&g), "```mermaid\nflowchart LR\n  n1[\"a\"]\n```\n");
    }
}
