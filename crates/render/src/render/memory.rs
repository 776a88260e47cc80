//! Drawing memory's events (docs/events.md): a write (`memory`) as one
//! line, a memory found or listed (`memory_item`) as one line and its
//! relations under it, a path as one line, the relation graph as its
//! edges in the terminal and as a mermaid flowchart in Markdown reports.
//! The memories a turn used (`memory` with action `recalled`) are a line
//! only with `--verbose`; the caller decides. (The Markdown report's
//! drawing is `gfm/memory.rs`, from the same pieces.)
//!
//! Everything here is data: cleaned of control characters, fitted to the
//! width in the terminal, escaped in Markdown.

use serde_json::Value;

use super::text::{Style, clean_line, paint};
use super::wrap::truncate;
use crate::events::Event;

/// Whether the event is one of memory's.
pub fn is_memory(kind: &str) -> bool {
    matches!(
        kind,
        "memory" | "memory_item" | "memory_graph" | "memory_path"
    )
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

fn strings(v: &Value, k: &str) -> Vec<String> {
    v.get(k)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect()
}

fn num(v: &Value, k: &str) -> u64 {
    v.get(k).and_then(Value::as_u64).unwrap_or(0)
}

/// An arrow of a relation, either way.
fn arrow(kind: &str, forward: bool, unicode: bool) -> String {
    match (forward, unicode) {
        (true, true) => format!("─{kind}→"),
        (false, true) => format!("←{kind}─"),
        (true, false) => format!("-{kind}->"),
        (false, false) => format!("<-{kind}-"),
    }
}

/// What a `memory` event says, in words (without the `memory:` label).
pub fn summary(e: &Value, unicode: bool) -> String {
    let tags = strings(e, "tags");
    let tagged = |key: &str| {
        if tags.is_empty() {
            key.to_string()
        } else {
            format!("{key} [{}]", tags.join(", "))
        }
    };
    let by = if s(e, "by") == "model" {
        ""
    } else {
        " (by you)"
    };
    match s(e, "action") {
        a @ ("remembered" | "updated") => {
            format!("{a} {}{by}: {}", tagged(s(e, "key")), s(e, "content"))
        }
        "forgot" => format!("forgot {}{by}", s(e, "key")),
        "related" => format!(
            "related {} {} {}{by}",
            s(e, "from"),
            arrow(s(e, "relation"), true, unicode),
            s(e, "to")
        ),
        "unrelated" => format!(
            "unrelated {} and {} ({} removed){by}",
            s(e, "from"),
            s(e, "to"),
            num(e, "removed")
        ),
        "recalled" => format!(
            "used {} ({} tokens{})",
            strings(e, "keys").join(", "),
            num(e, "tokens"),
            if e.get("summarized").and_then(Value::as_bool) == Some(true) {
                ", condensed"
            } else {
                ""
            }
        ),
        "imported" => format!(
            "imported {} new, {} updated, {} relations, {} vectors, {} lines skipped",
            num(e, "added"),
            num(e, "updated"),
            num(e, "relations"),
            num(e, "vectors"),
            num(e, "skipped")
        ),
        "reindexed" => format!("embedded {} with {}", num(e, "embedded"), s(e, "model")),
        other => other.to_string(),
    }
}

/// A `memory_item`'s line: key, tags, day updated, content.
pub fn item_line(e: &Value) -> String {
    let tags = strings(e, "tags");
    let day: String = s(e, "updated").chars().take(10).collect();
    let mut head = s(e, "key").to_string();
    if !tags.is_empty() {
        head.push_str(&format!(" [{}]", tags.join(", ")));
    }
    if !day.is_empty() {
        head.push_str(&format!(" ({day})"));
    }
    format!("{head}: {}", s(e, "content"))
}

/// A `memory_item`'s relations (a `shown` memory), one a line.
pub fn relation_lines(e: &Value, unicode: bool) -> Vec<String> {
    e.get("relations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|r| match r.get("to") {
            Some(_) => format!(
                "  {} {}",
                arrow(s(r, "relation"), true, unicode),
                s(r, "to")
            ),
            None => format!(
                "  {} {}",
                arrow(s(r, "relation"), false, unicode),
                s(r, "from")
            ),
        })
        .collect()
}

/// A `memory_path` in one line.
pub fn path_line(e: &Value, unicode: bool) -> String {
    if e.get("found").and_then(Value::as_bool) == Some(false) {
        return format!("no path from {} to {}", s(e, "from"), s(e, "to"));
    }
    let mut line = s(e, "from").to_string();
    for step in e
        .get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let forward = step.get("forward").and_then(Value::as_bool) != Some(false);
        line.push_str(&format!(
            " {} {}",
            arrow(s(step, "relation"), forward, unicode),
            s(step, "key")
        ));
    }
    line
}

/// The terminal's lines of a memory event, each fitted to `width`.
pub fn lines(e: &Event, width: usize, unicode: bool, color: bool) -> Vec<String> {
    let v = Value::Object(e.0.clone());
    let ascii = !unicode;
    let fit = |t: &str| truncate(&clean_line(t, ascii), width.max(1), ascii);
    let label = |t: &str| {
        let label = "memory: ";
        // Too narrow for the label and a character after it: the line cut
        // whole, unpainted.
        if width <= label.len() {
            return fit(&format!("{label}{t}"));
        }
        let rest = truncate(
            &clean_line(t, ascii),
            width.saturating_sub(label.len()).max(1),
            ascii,
        );
        format!("{}{rest}", paint(label, Style::Fg(35), color))
    };
    match e.kind() {
        "memory" => vec![label(&summary(&v, unicode))],
        "memory_item" => {
            let mut out = vec![fit(&item_line(&v))];
            out.extend(relation_lines(&v, unicode).iter().map(|l| fit(l)));
            out
        }
        "memory_path" => vec![fit(&path_line(&v, unicode))],
        "memory_graph" => {
            let edges: Vec<&Value> = v
                .get("edges")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .collect();
            let nodes = v.get("nodes").and_then(Value::as_array).map_or(0, Vec::len);
            let mut out = vec![label(&format!(
                "{nodes} memories, {} relations",
                edges.len()
            ))];
            for x in edges {
                out.push(fit(&format!(
                    "  {} {} {}",
                    s(x, "from"),
                    arrow(s(x, "relation"), true, unicode),
                    s(x, "to")
                )));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// A `memory_graph` as a fenced mermaid block, for `--mermaid`.
pub fn mermaid_block(graph: &Value) -> String {
    format!("```mermaid\n{}```", flowchart(graph))
}

/// A `memory_graph` as a mermaid flowchart (`flowchart LR`): nodes `n1`,
/// `n2`, ... labelled with their keys, relation kinds on the arrows.
/// Labels are quoted, with quotes and markup as mermaid entity codes, so
/// no key can break out of its label.
pub fn flowchart(graph: &Value) -> String {
    let id = |k: &str, keys: &mut Vec<String>| -> usize {
        match keys.iter().position(|x| x == k) {
            Some(i) => i + 1,
            None => {
                keys.push(k.to_string());
                keys.len()
            }
        }
    };
    let mut names: Vec<String> = Vec::new();
    for n in graph
        .get("nodes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        id(s(n, "key"), &mut names);
    }
    let mut arrows = String::new();
    for x in graph
        .get("edges")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (a, b) = (id(s(x, "from"), &mut names), id(s(x, "to"), &mut names));
        arrows.push_str(&format!(
            "  n{a} -->|\"{}\"| n{b}\n",
            label(s(x, "relation"))
        ));
    }
    let mut out = String::from("flowchart LR\n");
    for (i, k) in names.iter().enumerate() {
        out.push_str(&format!("  n{}[\"{}\"]\n", i + 1, label(k)));
    }
    out.push_str(&arrows);
    out
}

/// Text safe inside a quoted mermaid label: one line, quotes and markup
/// characters as entity codes.
fn label(t: &str) -> String {
    let mut out = String::new();
    for c in clean_line(t, false).chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '#' => out.push_str("#35;"),
            '&' => out.push_str("#amp;"),
            '|' => out.push_str("#124;"),
            '`' => out.push_str("#96;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ev(v: Value) -> Event {
        match v {
            Value::Object(m) => Event(m),
            _ => unreachable!(),
        }
    }

    #[test]
    fn writes_are_one_line_of_the_width() {
        let e = ev(
            json!({"type":"memory","action":"remembered","key":"deploy-host","tags":["infra"],
            "content":"The deploy host is build-7\u{1b}[2J and it runs Debian","by":"model"}),
        );
        let l = lines(&e, 40, false, false);
        assert_eq!(l, ["memory: remembered deploy-host [infra..."]);
        assert!(lines(&e, 200, false, false)[0].contains("build-7^[[2J and"));
        let r = ev(
            json!({"type":"memory","action":"related","from":"api","to":"db","relation":"uses","by":"user"}),
        );
        assert_eq!(
            lines(&r, 80, true, false),
            ["memory: related api ─uses→ db (by you)"]
        );
    }

    #[test]
    fn items_paths_and_graphs() {
        let item = ev(
            json!({"type":"memory_item","key":"db","content":"port 5433","tags":[],
            "updated":"2026-03-01T10:00:00.000Z","relations":[{"from":"api","relation":"uses"}]}),
        );
        assert_eq!(
            lines(&item, 80, false, false),
            ["db (2026-03-01): port 5433", "  <-uses- api"]
        );
        let p = ev(
            json!({"type":"memory_path","from":"a","to":"c","found":true,
            "steps":[{"relation":"x","forward":true,"key":"b"},{"relation":"y","forward":false,"key":"c"}]}),
        );
        assert_eq!(lines(&p, 80, false, false), ["a -x-> b <-y- c"]);
        let g = json!({"type":"memory_graph","nodes":[{"key":"x\"]; click","content":""}],
            "edges":[{"from":"x\"]; click","to":"b|c","relation":"uses"}]});
        assert_eq!(
            flowchart(&g),
            "flowchart LR\n  n1[\"x#quot;]; click\"]\n  n2[\"b#124;c\"]\n  n1 -->|\"uses\"| n2\n"
        );
    }
}
