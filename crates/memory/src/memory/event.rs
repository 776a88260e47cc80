//! The events memory writes into the stream (docs/events.md): a `memory`
//! event for every write (who made it: the model's tool or the user) and
//! for the memories a turn used; `memory_item` for a memory listed,
//! found, shown or exported; `memory_graph` and `memory_path` for the
//! relations.

use serde_json::{Map, Value, json};

use super::graph::{Graph, Step};
use super::search::Hit;
use super::{Edge, Memory, rfc3339};
use crate::events::Event;

/// Who wrote a memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// The model, through a tool (with the user's consent).
    Model,
    /// The user: `/memory`, `gem-ask memory`.
    User,
}

impl By {
    fn as_str(self) -> &'static str {
        match self {
            By::Model => "model",
            By::User => "user",
        }
    }
}

fn event(v: Value) -> Event {
    let Value::Object(map) = v else {
        unreachable!("built from an object")
    };
    Event(map)
}

/// A memory added (`remembered`) or changed (`updated`).
pub fn written(m: &Memory, created: bool, by: By) -> Event {
    event(json!({
        "type": "memory",
        "action": if created { "remembered" } else { "updated" },
        "key": m.key,
        "content": m.content,
        "tags": m.tags,
        "by": by.as_str(),
    }))
}

/// A memory deleted.
pub fn forgot(m: &Memory, by: By) -> Event {
    event(json!({"type": "memory", "action": "forgot", "key": m.key, "by": by.as_str()}))
}

/// Two memories related.
pub fn related(e: &Edge, by: By) -> Event {
    event(
        json!({"type": "memory", "action": "related", "from": e.from, "to": e.to,
                 "relation": e.kind, "by": by.as_str()}),
    )
}

/// Relations between two memories removed.
pub fn unrelated(from: &str, to: &str, removed: usize, by: By) -> Event {
    event(
        json!({"type": "memory", "action": "unrelated", "from": from, "to": to,
                 "removed": removed, "by": by.as_str()}),
    )
}

/// Memories embedded by `reindex`, or imported.
pub fn counted(action: &str, counts: Value) -> Event {
    let mut e = event(json!({"type": "memory", "action": action}));
    if let Value::Object(m) = counts {
        e.0.extend(m);
    }
    e
}

/// The memories a turn's prompt carries.
pub fn recalled(keys: &[String], tokens: u64, summarized: bool) -> Event {
    event(json!({"type": "memory", "action": "recalled", "keys": keys,
                 "tokens": tokens, "summarized": summarized}))
}

/// A memory as a `memory_item`: its fields, times in RFC 3339.
pub fn item(m: &Memory) -> Event {
    let mut map = Map::new();
    map.insert("type".into(), "memory_item".into());
    map.insert("key".into(), m.key.clone().into());
    map.insert("content".into(), m.content.clone().into());
    map.insert("tags".into(), m.tags.clone().into());
    map.insert("created".into(), rfc3339(m.created).into());
    map.insert("updated".into(), rfc3339(m.updated).into());
    if let Some(s) = &m.session {
        map.insert("session".into(), s.clone().into());
    }
    map.insert("confidence".into(), m.confidence.into());
    Event(map)
}

/// A memory found by a search: its item with its score and ranks.
pub fn hit(h: &Hit) -> Event {
    let mut e = item(&h.memory);
    if h.keyword.is_some() || h.vector.is_some() {
        e.set("score", h.score);
        let mut ranks = Map::new();
        if let Some((r, s)) = h.keyword {
            ranks.insert("keywords".into(), json!({"rank": r, "bm25": s}));
        }
        if let Some((r, c)) = h.vector {
            ranks.insert("vector".into(), json!({"rank": r, "cosine": c}));
        }
        e.set("ranks", Value::Object(ranks));
    }
    e
}

/// A memory shown with its relations, both ways: `{"to", "relation"}`
/// for those it starts, `{"from", "relation"}` for those that end at it.
pub fn shown(m: &Memory, edges: &[Edge]) -> Event {
    let mut e = item(m);
    let rels: Vec<Value> = edges
        .iter()
        .map(|x| {
            if x.from == m.key {
                json!({"to": x.to, "relation": x.kind})
            } else {
                json!({"from": x.from, "relation": x.kind})
            }
        })
        .collect();
    e.set("relations", rels);
    e
}

pub fn graph(g: &Graph) -> Event {
    event(g.to_json())
}

/// A path between two memories (`steps` empty when they are one;
/// `found` false when they are not connected).
pub fn path(from: &str, to: &str, steps: Option<&[Step]>) -> Event {
    let list: Vec<Value> = steps
        .unwrap_or_default()
        .iter()
        .map(|s| json!({"relation": s.kind, "forward": s.forward, "key": s.key}))
        .collect();
    event(json!({"type": "memory_path", "from": from, "to": to,
                 "found": steps.is_some(), "steps": list}))
}
