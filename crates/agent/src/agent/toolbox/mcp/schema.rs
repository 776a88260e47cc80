//! An MCP tool's input schema as the APIs take it. It is sent as JSON
//! Schema (Gemini's `parametersJsonSchema`, OpenAI's `parameters`), reduced
//! to the subset Gemini documents for it, which OpenAI-compatible servers
//! take too: `type`, `format`, `title`, `description`, `enum` (of strings
//! and numbers), `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`,
//! `maximum`, `anyOf`, `properties`, `additionalProperties`, `required`,
//! `propertyOrdering`.
//!
//! On the way: local `$ref`s are inlined (a recursive one is cut after its
//! first expansion, an unresolvable one becomes `{}`), `oneOf` becomes
//! `anyOf`, `const` an `enum` of one, a type list (`["string", "null"]`)
//! an `anyOf` of its types, every other keyword is dropped and named, long
//! descriptions are cut, and a schema that grows past [`MAX_BYTES`] is
//! refused (the tool is left out, with a warning).

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

/// Most bytes of any description or title kept.
pub const MAX_DESCRIPTION: usize = 2048;

/// Most bytes of one tool's schema, references inlined.
pub const MAX_BYTES: usize = 64 * 1024;

/// How deep `$ref`s are followed (a chain, not a cycle: cycles stop at once).
const MAX_DEPTH: usize = 32;

/// What normalising a schema did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Normalised {
    pub schema: Value,
    /// Keywords dropped, by name.
    pub dropped: BTreeSet<String>,
    /// References that point nowhere gem-ask can follow.
    pub unresolved: BTreeSet<String>,
    /// Descriptions (or titles) cut.
    pub cut: usize,
    /// Larger than [`MAX_BYTES`] once expanded: not to be declared.
    pub too_large: bool,
}

const KEPT: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];

/// Keywords that only carry references or metadata: removed without a word.
const SILENT: &[&str] = &[
    "$schema",
    "$id",
    "$defs",
    "definitions",
    "$anchor",
    "$comment",
];

struct Walk<'a> {
    root: &'a Value,
    out: Normalised,
    /// The references being expanded, outermost first.
    stack: Vec<String>,
    /// Bytes of text produced so far, roughly.
    size: usize,
}

/// The schema of an MCP tool as it is declared.
pub fn normalise(schema: &Value) -> Normalised {
    let mut w = Walk {
        root: schema,
        out: Normalised::default(),
        stack: Vec::new(),
        size: 0,
    };
    let mut s = w.node(schema);
    // The parameters are an object, whatever the server wrote.
    if let Value::Object(m) = &mut s {
        if m.get("type") != Some(&json!("object")) {
            m.remove("anyOf");
            m.insert("type".into(), "object".into());
        }
    } else {
        s = json!({"type": "object"});
    }
    w.out.too_large |= s.to_string().len() > MAX_BYTES;
    w.out.schema = s;
    w.out
}

/// `text` cut at `max` bytes (on a character boundary), saying so.
pub fn cut_text(text: &str, max: usize) -> Option<String> {
    if text.len() <= max {
        return None;
    }
    let end = text.floor_char_boundary(max);
    Some(format!(
        "{} [cut: {} more bytes]",
        &text[..end],
        text.len() - end
    ))
}

impl Walk<'_> {
    fn node(&mut self, v: &Value) -> Value {
        if self.size > MAX_BYTES {
            self.out.too_large = true;
            return json!({});
        }
        let Value::Object(m) = v else {
            // `true`/`false` schemas and garbage: anything goes.
            return json!({});
        };
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            return self.reference(r, m);
        }
        let mut out = Map::new();
        for (k, x) in m {
            self.keyword(k, x, &mut out);
        }
        self.size += 16;
        Value::Object(out)
    }

    fn keyword(&mut self, k: &str, x: &Value, out: &mut Map<String, Value>) {
        match k {
            "properties" => {
                if let Value::Object(props) = x {
                    let p: Map<String, Value> = props
                        .iter()
                        .map(|(name, s)| {
                            self.size += name.len();
                            (name.clone(), self.node(s))
                        })
                        .collect();
                    out.insert(k.into(), Value::Object(p));
                }
            }
            "items" | "additionalProperties" if x.is_object() => {
                let n = self.node(x);
                out.insert(k.into(), n);
            }
            "additionalProperties" if x.is_boolean() => {
                out.insert(k.into(), x.clone());
            }
            "anyOf" | "oneOf" | "prefixItems" => {
                if let Value::Array(a) = x {
                    let list: Vec<Value> = a.iter().map(|s| self.node(s)).collect();
                    let key = if k == "oneOf" { "anyOf" } else { k };
                    out.insert(key.into(), Value::Array(list));
                }
            }
            "type" => self.type_keyword(x, out),
            "const" if x.is_string() || x.is_number() => {
                out.insert("enum".into(), json!([x]));
            }
            "enum" => match x {
                Value::Array(a) if a.iter().all(|e| e.is_string() || e.is_number()) => {
                    self.size += x.to_string().len();
                    out.insert(k.into(), x.clone());
                }
                _ => {
                    self.out
                        .dropped
                        .insert("enum (not of strings or numbers)".into());
                }
            },
            "description" | "title" => {
                if let Some(t) = x.as_str() {
                    let text = match cut_text(t, MAX_DESCRIPTION) {
                        Some(c) => {
                            self.out.cut += 1;
                            c
                        }
                        None => t.to_string(),
                    };
                    self.size += text.len();
                    out.insert(k.into(), text.into());
                }
            }
            k if KEPT.contains(&k) => {
                self.size += x.to_string().len().min(MAX_BYTES);
                out.insert(k.into(), x.clone());
            }
            k if SILENT.contains(&k) => {}
            k => {
                self.out.dropped.insert(k.to_string());
            }
        }
    }

    /// `type`, a list of types becoming an `anyOf` of each.
    fn type_keyword(&mut self, x: &Value, out: &mut Map<String, Value>) {
        match x {
            Value::String(_) => {
                out.insert("type".into(), x.clone());
            }
            Value::Array(a) if a.len() == 1 => {
                out.insert("type".into(), a[0].clone());
            }
            Value::Array(a) => {
                let list: Vec<Value> = a.iter().map(|t| json!({"type": t})).collect();
                match out.get_mut("anyOf") {
                    // Both: keep the anyOf the server wrote; its branches say the types.
                    Some(_) => {}
                    None => {
                        out.insert("anyOf".into(), Value::Array(list));
                    }
                }
            }
            _ => {}
        }
    }

    /// A `$ref` inlined (its sibling keywords, such as a description, kept
    /// over the target's).
    fn reference(&mut self, r: &str, m: &Map<String, Value>) -> Value {
        let target = r
            .strip_prefix('#')
            .and_then(|pointer| self.root.pointer(pointer));
        let Some(target) = target else {
            self.out.unresolved.insert(r.to_string());
            return json!({});
        };
        let mut expanded = if self.stack.iter().any(|s| s == r) || self.stack.len() >= MAX_DEPTH {
            // Recursion: said, not expanded again.
            let mut stub = Map::new();
            if let Some(t) = target.get("type").filter(|t| t.is_string()) {
                stub.insert("type".into(), t.clone());
            }
            let name = r
                .rsplit('/')
                .next()
                .filter(|n| !n.is_empty())
                .unwrap_or("the whole");
            stub.insert(
                "description".into(),
                format!("(a {name} again: the same shape as the one it is in)").into(),
            );
            Value::Object(stub)
        } else {
            self.stack.push(r.to_string());
            let e = self.node(target);
            self.stack.pop();
            e
        };
        if let Value::Object(e) = &mut expanded {
            for (k, x) in m.iter().filter(|(k, _)| *k != "$ref") {
                let mut one = Map::new();
                self.keyword(k, x, &mut one);
                e.extend(one);
            }
        }
        expanded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_inlined_and_unsupported_keywords_dropped() {
        let s = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "Zone": {"type": "string", "pattern": "^[A-Z]", "default": "UTC"},
                "Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}
            },
            "properties": {
                "zone": {"$ref": "#/$defs/Zone", "description": "a zone"},
                "tree": {"$ref": "#/$defs/Node"},
                "mode": {"oneOf": [{"const": "fast"}, {"const": "slow"}]},
                "when": {"type": ["string", "null"], "format": "date-time"},
                "far": {"$ref": "https://example.com/schema.json"}
            },
            "required": ["zone"]
        });
        let n = normalise(&s);
        assert_eq!(
            n.schema,
            json!({
                "type": "object",
                "properties": {
                    "zone": {"type": "string", "description": "a zone"},
                    "tree": {"type": "object", "properties": {"child": {"type": "object",
                        "description": "(a Node again: the same shape as the one it is in)"}}},
                    "mode": {"anyOf": [{"enum": ["fast"]}, {"enum": ["slow"]}]},
                    "when": {"anyOf": [{"type": "string"}, {"type": "null"}], "format": "date-time"},
                    "far": {}
                },
                "required": ["zone"]
            })
        );
        assert_eq!(n.dropped.iter().collect::<Vec<_>>(), ["default", "pattern"]);
        assert_eq!(
            n.unresolved.iter().collect::<Vec<_>>(),
            ["https://example.com/schema.json"]
        );
        assert!(!n.too_large);
    }

    #[test]
    fn long_descriptions_are_cut_and_huge_schemas_refused() {
        let n = normalise(&json!({"type": "object", "properties": {
            "x": {"type": "string", "description": "d".repeat(3000)}}}));
        assert_eq!(n.cut, 1);
        let d = n.schema["properties"]["x"]["description"].as_str().unwrap();
        assert!(d.ends_with("[cut: 952 more bytes]"), "{d}");
        // A reference used many times over, many levels down (a "billion laughs").
        let mut defs = Map::new();
        defs.insert(
            "L0".into(),
            json!({"type": "string", "description": "x".repeat(100)}),
        );
        for i in 1..12 {
            let r = json!({"$ref": format!("#/$defs/L{}", i - 1)});
            defs.insert(
                format!("L{i}"),
                json!({"type": "object", "properties": {"a": r, "b": r, "c": r}}),
            );
        }
        let bomb =
            json!({"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/L11"}}});
        assert!(normalise(&bomb).too_large);
        assert_eq!(normalise(&json!(true)).schema, json!({"type": "object"}));
    }
}
