//! The relations between memories as a graph: all of it, or the part
//! within some steps of one memory ([`Store::graph`]); the shortest chain
//! of relations from one memory to another, whichever way each relation
//! points ([`Store::path`]); and the graph as a mermaid flowchart
//! ([`mermaid`]) for Markdown reports.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::{Value, json};

use super::store::Store;
use super::{Edge, MemoryError};

/// A graph: memories (key and a short line of content) and relations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Graph {
    /// Key and content, by key.
    pub nodes: BTreeMap<String, String>,
    pub edges: Vec<Edge>,
}

/// One step of a path: the relation taken and the memory reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub kind: String,
    /// The relation points the way the path goes.
    pub forward: bool,
    pub key: String,
}

impl Store {
    /// The relations within `depth` steps of `around` (every relation
    /// when `None`), with the memories they join. Without `around`,
    /// memories without relations are in it too.
    pub fn graph(&self, around: Option<&str>, depth: usize) -> Result<Graph, MemoryError> {
        let all = self.all_edges()?;
        let keys: BTreeSet<String> = match around {
            None => {
                let mut k: BTreeSet<String> = self
                    .list(&Default::default(), usize::MAX)?
                    .into_iter()
                    .map(|m| m.key)
                    .collect();
                k.extend(all.iter().flat_map(|e| [e.from.clone(), e.to.clone()]));
                k
            }
            Some(key) => {
                let start = self
                    .get(key)?
                    .ok_or_else(|| MemoryError::NotFound(key.trim().to_string()))?;
                reach(&all, &start.key, depth)
            }
        };
        let edges: Vec<Edge> = all
            .into_iter()
            .filter(|e| keys.contains(&e.from) && keys.contains(&e.to))
            .collect();
        let mut nodes = BTreeMap::new();
        for k in keys {
            if let Some(m) = self.get(&k)? {
                nodes.insert(m.key, m.content);
            }
        }
        Ok(Graph { nodes, edges })
    }

    /// The shortest chain of relations from `from` to `to` (either
    /// direction each); `None` when they are not connected.
    pub fn path_between(&self, from: &str, to: &str) -> Result<Option<Vec<Step>>, MemoryError> {
        let find = |k: &str| {
            self.get(k)?
                .ok_or_else(|| MemoryError::NotFound(k.trim().to_string()))
        };
        let (a, b) = (find(from)?, find(to)?);
        Ok(shortest(&self.all_edges()?, &a.key, &b.key))
    }
}

/// The keys within `depth` steps of `start`.
fn reach(edges: &[Edge], start: &str, depth: usize) -> BTreeSet<String> {
    let mut seen = BTreeSet::from([start.to_string()]);
    let mut frontier = vec![start.to_string()];
    for _ in 0..depth {
        let mut next = Vec::new();
        for e in edges {
            for (a, b) in [(&e.from, &e.to), (&e.to, &e.from)] {
                if frontier.contains(a) && seen.insert(b.clone()) {
                    next.push(b.clone());
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    seen
}

/// Breadth-first search over relations taken either way; among paths of
/// one length, the first found in key order.
pub fn shortest(edges: &[Edge], from: &str, to: &str) -> Option<Vec<Step>> {
    let mut next: BTreeMap<&str, Vec<(&str, &str, bool)>> = BTreeMap::new();
    for e in edges {
        next.entry(&e.from)
            .or_default()
            .push((&e.to, &e.kind, true));
        next.entry(&e.to)
            .or_default()
            .push((&e.from, &e.kind, false));
    }
    let mut came: BTreeMap<&str, (&str, &str, bool)> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    let mut seen = BTreeSet::from([from]);
    while let Some(at) = queue.pop_front() {
        if at == to {
            let mut steps = Vec::new();
            let mut k = to;
            while k != from {
                let (prev, kind, forward) = came[k];
                steps.push(Step {
                    kind: kind.to_string(),
                    forward,
                    key: k.to_string(),
                });
                k = prev;
            }
            steps.reverse();
            return Some(steps);
        }
        let mut out = next.get(at).cloned().unwrap_or_default();
        out.sort();
        for (n, kind, forward) in out {
            if seen.insert(n) {
                came.insert(n, (at, kind, forward));
                queue.push_back(n);
            }
        }
    }
    None
}

impl Graph {
    /// `{"type":"memory_graph","nodes":[{key, content}],"edges":[{from, to, relation}]}`.
    pub fn to_json(&self) -> Value {
        json!({
            "type": "memory_graph",
            "nodes": self.nodes.iter().map(|(k, c)| json!({"key": k, "content": c})).collect::<Vec<_>>(),
            "edges": self.edges.iter().map(|e| json!({"from": e.from, "to": e.to, "relation": e.kind})).collect::<Vec<_>>(),
        })
    }

    /// The graph from its JSON form (what [`Graph::to_json`] writes);
    /// malformed members are left out.
    pub fn from_json(v: &Value) -> Graph {
        let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
        let nodes = v
            .get("nodes")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|n| Some((s(n, "key")?, s(n, "content").unwrap_or_default())))
            .collect();
        let edges = v
            .get("edges")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| {
                Some(Edge {
                    from: s(e, "from")?,
                    to: s(e, "to")?,
                    kind: s(e, "relation").unwrap_or_else(|| super::store::RELATED_TO.into()),
                })
            })
            .collect();
        Graph { nodes, edges }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(a: &str, b: &str, k: &str) -> Edge {
        Edge {
            from: a.into(),
            to: b.into(),
            kind: k.into(),
        }
    }

    #[test]
    fn paths_take_relations_either_way() {
        let edges = [
            e("a", "b", "part_of"),
            e("c", "b", "uses"),
            e("c", "d", "x"),
            e("a", "d", "y"),
        ];
        let p = shortest(&edges, "a", "c").unwrap();
        let keys: Vec<&str> = p.iter().map(|s| s.key.as_str()).collect();
        assert_eq!(keys, ["b", "c"]);
        assert!(p[0].forward && !p[1].forward);
        assert_eq!(shortest(&edges, "a", "a").unwrap(), vec![]);
        assert!(shortest(&edges, "a", "zz").is_none());
    }

    #[test]
    fn the_json_form_round_trips() {
        let g = Graph {
            nodes: BTreeMap::from([("a".to_string(), "x".to_string())]),
            edges: vec![e("a", "b|c", "uses")],
        };
        assert_eq!(Graph::from_json(&g.to_json()), g);
    }
}
