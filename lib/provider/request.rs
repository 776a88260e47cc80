//! The `GenerateContentRequest` body, in the shape the v1beta schema
//! accepts (checked by `tests/validate_requests.sh`): the system prompt in
//! `systemInstruction` (the API has no `system` role), history `contents`
//! passed through verbatim, tools as `functionDeclarations`.

use serde_json::{Map, Value, json};

#[derive(Debug, Clone, Default)]
pub struct RequestSpec<'a> {
    pub contents: &'a [Value],
    pub system: Option<&'a str>,
    /// `FunctionDeclaration` objects; none means no `tools` field.
    pub functions: &'a [Value],
    /// Ask for thought summaries (`thinkingConfig.includeThoughts`).
    pub thoughts: bool,
}

pub fn build(spec: &RequestSpec<'_>) -> Value {
    let mut body = Map::new();
    body.insert("contents".into(), Value::Array(spec.contents.to_vec()));
    if let Some(s) = spec.system {
        body.insert("systemInstruction".into(), json!({"parts": [{"text": s}]}));
    }
    if !spec.functions.is_empty() {
        body.insert(
            "tools".into(),
            json!([{"functionDeclarations": spec.functions}]),
        );
    }
    if spec.thoughts {
        body.insert(
            "generationConfig".into(),
            json!({"thinkingConfig": {"includeThoughts": true}}),
        );
    }
    Value::Object(body)
}

/// Adds `extra` (`responseModalities`, `speechConfig`) to the body's
/// `generationConfig`, next to what is there.
pub fn merge_generation(body: &mut Value, extra: &Value) {
    let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) else {
        return;
    };
    let g = b
        .entry("generationConfig")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Some(g) = g.as_object_mut() {
        for (k, v) in e {
            g.insert(k.clone(), v.clone());
        }
    }
}

/// A user turn of text parts.
pub fn user_text(texts: &[&str]) -> Value {
    json!({"role": "user", "parts": texts.iter().map(|t| json!({"text": t})).collect::<Vec<_>>()})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_body_has_no_empty_fields() {
        let contents = [user_text(&["hi"])];
        let b = build(&RequestSpec {
            contents: &contents,
            ..Default::default()
        });
        assert_eq!(
            b.to_string(),
            r#"{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}"#
        );
    }
}
