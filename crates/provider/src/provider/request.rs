//! The `GenerateContentRequest` body, in the shape the v1beta schema
//! accepts (checked by `tests/validate_requests.sh`): the system prompt in
//! `systemInstruction` (the API has no `system` role), history `contents`
//! passed through verbatim, tools as `functionDeclarations` (and Gemini's
//! own tools, `googleSearch` or `urlContext`, as their own entries), the
//! answer's JSON Schema as `responseJsonSchema` with `responseMimeType`
//! `application/json`, the temperature in `generationConfig`.

use serde_json::{Map, Value, json};

#[derive(Debug, Clone, Default)]
pub struct RequestSpec<'a> {
    pub contents: &'a [Value],
    pub system: Option<&'a str>,
    /// `FunctionDeclaration` objects; none means no `tools` field.
    pub functions: &'a [Value],
    /// Ask for thought summaries (`thinkingConfig.includeThoughts`).
    pub thoughts: bool,
    /// The JSON Schema the answer must match (`--schema`).
    pub json_schema: Option<&'a Value>,
    pub temperature: Option<f64>,
    /// Gemini's built-in tools, each a `Tool` object such as
    /// `{"googleSearch": {}}`, after the function declarations.
    pub builtin_tools: &'a [Value],
}

pub fn build(spec: &RequestSpec<'_>) -> Value {
    let mut body = Map::new();
    body.insert("contents".into(), Value::Array(spec.contents.to_vec()));
    if let Some(s) = spec.system {
        body.insert("systemInstruction".into(), json!({"parts": [{"text": s}]}));
    }
    let mut tools = Vec::new();
    if !spec.functions.is_empty() {
        tools.push(json!({"functionDeclarations": spec.functions}));
    }
    tools.extend(spec.builtin_tools.iter().cloned());
    if !tools.is_empty() {
        body.insert("tools".into(), tools.into());
    }
    let mut config = Map::new();
    if spec.thoughts {
        config.insert("thinkingConfig".into(), json!({"includeThoughts": true}));
    }
    if let Some(schema) = spec.json_schema {
        config.insert("responseMimeType".into(), "application/json".into());
        config.insert("responseJsonSchema".into(), schema.clone());
    }
    if let Some(t) = spec.temperature {
        config.insert("temperature".into(), t.into());
    }
    if !config.is_empty() {
        body.insert("generationConfig".into(), config.into());
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

    #[test]
    fn schema_temperature_and_builtin_tools_have_their_places() {
        let contents = [user_text(&["hi"])];
        let schema = json!({"type": "object"});
        let b = build(&RequestSpec {
            contents: &contents,
            json_schema: Some(&schema),
            temperature: Some(0.25),
            builtin_tools: &[json!({"googleSearch": {}})],
            ..Default::default()
        });
        assert_eq!(
            b["generationConfig"],
            json!({"responseMimeType": "application/json", "responseJsonSchema": {"type": "object"},
                   "temperature": 0.25})
        );
        assert_eq!(b["tools"], json!([{"googleSearch": {}}]));
    }
}
