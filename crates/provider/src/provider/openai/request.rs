//! A Gemini-shaped `GenerateContentRequest` as a chat-completions body.
//!
//! - `systemInstruction` becomes the `system` message.
//! - A user `Content` of text parts becomes one `user` message (parts
//!   joined by a blank line: context, then prompt); its `functionResponse`
//!   parts become `tool` messages answering their calls' ids.
//! - A model `Content` becomes one `assistant` message: its text, and its
//!   `functionCall`s as `tool_calls` (arguments as a JSON string). What the
//!   server attached to a call comes back with it: `extra_content` as it
//!   came, and Gemini's `thoughtSignature` as
//!   `extra_content.google.thought_signature`, the form Gemini's
//!   compatibility endpoint reads (and requires on Gemini 3).
//! - An image (`inlineData`, `fileData` with an image URL) becomes an
//!   `image_url` part of its user message (a `data:` URL, or the URL);
//!   the message's content is then a list of text and image parts.
//! - `functionDeclarations` become `tools`; Gemini's OpenAPI-style
//!   UPPERCASE types are JSON Schema's lowercase ones. Gemini's own tools
//!   (`googleSearch`, `urlContext`) have no equivalent and are not sent.
//! - `generationConfig.responseJsonSchema` becomes `response_format`
//!   `{"type": "json_schema", ...}`; `temperature` is the same word;
//!   `thinkingConfig`'s level (`--thinking`) is `reasoning_effort`.
//!
//! Calls recorded without an id (Gemini 2.5 gives none) get `call_N` ids,
//! matched in order by the responses that follow, as the API requires.

use std::collections::VecDeque;

use serde_json::{Map, Value, json};

pub fn body(request: &Value, model: &str) -> Value {
    let mut messages = Vec::new();
    let system: Vec<&str> = request
        .get("systemInstruction")
        .and_then(|s| s.get("parts"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    if !system.is_empty() {
        messages.push(json!({"role": "system", "content": system.join("\n")}));
    }
    let mut ids = Ids::default();
    for content in request
        .get("contents")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        messages.extend(messages_of(content, &mut ids));
    }
    let mut body = Map::new();
    body.insert("model".into(), model.into());
    body.insert("messages".into(), messages.into());
    body.insert("stream".into(), true.into());
    // Token counts arrive in a last chunk only when asked for.
    body.insert("stream_options".into(), json!({"include_usage": true}));
    let tools = tools(request);
    if !tools.is_empty() {
        body.insert("tools".into(), tools.into());
    }
    let config = request.get("generationConfig");
    if let Some(schema) = config.and_then(|c| c.get("responseJsonSchema")) {
        body.insert(
            "response_format".into(),
            json!({"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}),
        );
    }
    if let Some(t) = config.and_then(|c| c.get("temperature")) {
        body.insert("temperature".into(), t.clone());
    }
    if let Some(e) = config
        .and_then(|c| c.get("thinkingConfig"))
        .and_then(crate::provider::thinking::reasoning_effort)
    {
        body.insert("reasoning_effort".into(), e.into());
    }
    Value::Object(body)
}

/// Ids for calls that had none, handed to their responses in order.
#[derive(Default)]
struct Ids {
    next: usize,
    open: VecDeque<String>,
}

impl Ids {
    fn for_call(&mut self, id: Option<&str>) -> String {
        match id {
            Some(id) => id.to_string(),
            None => {
                self.next += 1;
                let id = format!("call_{}", self.next);
                self.open.push_back(id.clone());
                id
            }
        }
    }

    fn for_response(&mut self, id: Option<&str>) -> String {
        match id {
            Some(id) => id.to_string(),
            None => self.open.pop_front().unwrap_or_else(|| {
                self.next += 1;
                format!("call_{}", self.next)
            }),
        }
    }
}

fn parts(content: &Value) -> impl Iterator<Item = &Value> {
    content
        .get("parts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn text_of(content: &Value) -> String {
    parts(content)
        .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn messages_of(content: &Value, ids: &mut Ids) -> Vec<Value> {
    let text = text_of(content);
    if content.get("role").and_then(Value::as_str) == Some("model") {
        let calls: Vec<Value> = parts(content)
            .filter_map(|p| p.get("functionCall").map(|fc| tool_call(p, fc, ids)))
            .collect();
        if text.is_empty() && calls.is_empty() {
            // Only signatures of thoughts: nothing this API can carry.
            return Vec::new();
        }
        let mut m = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { text.into() }});
        if !calls.is_empty() {
            m["tool_calls"] = calls.into();
        }
        return vec![m];
    }
    let mut out: Vec<Value> = parts(content)
        .filter_map(|p| p.get("functionResponse"))
        .map(|fr| {
            let id = ids.for_response(fr.get("id").and_then(Value::as_str));
            let response = fr.get("response").cloned().unwrap_or(Value::Null);
            json!({"role": "tool", "tool_call_id": id, "content": response.to_string()})
        })
        .collect();
    let images: Vec<Value> = parts(content)
        .filter_map(|p| p.get("inlineData"))
        .filter_map(|d| {
            let mime = d.get("mimeType").and_then(Value::as_str)?;
            let data = d.get("data").and_then(Value::as_str)?;
            mime.starts_with("image/").then(|| {
                json!({"type": "image_url", "image_url": {"url": format!("data:{mime};base64,{data}")}})
            })
        })
        .chain(
            parts(content)
                .filter_map(|p| p.get("fileData"))
                .filter_map(|d| d.get("fileUri").and_then(Value::as_str))
                .map(|url| json!({"type": "image_url", "image_url": {"url": url}})),
        )
        .collect();
    if !images.is_empty() {
        // Text and images in one message: the content as a list of parts.
        let mut list = Vec::new();
        if !text.is_empty() {
            list.push(json!({"type": "text", "text": text}));
        }
        list.extend(images);
        out.push(json!({"role": "user", "content": list}));
    } else if !text.is_empty() {
        out.push(json!({"role": "user", "content": text}));
    }
    out
}

fn tool_call(part: &Value, fc: &Value, ids: &mut Ids) -> Value {
    let id = ids.for_call(fc.get("id").and_then(Value::as_str));
    let args = fc.get("args").cloned().unwrap_or_else(|| json!({}));
    let mut call = json!({
        "id": id,
        "type": "function",
        "function": {
            "name": fc.get("name").and_then(Value::as_str).unwrap_or(""),
            "arguments": args.to_string(),
        },
    });
    let mut extra = part
        .get("extra_content")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(sig) = part.get("thoughtSignature") {
        let google = extra.entry("google").or_insert_with(|| json!({}));
        if let Some(g) = google.as_object_mut() {
            g.insert("thought_signature".into(), sig.clone());
        }
    }
    if !extra.is_empty() {
        call["extra_content"] = Value::Object(extra);
    }
    call
}

fn tools(request: &Value) -> Vec<Value> {
    request
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("functionDeclarations").and_then(Value::as_array))
        .flatten()
        .map(|d| {
            let params = d
                .get("parametersJsonSchema")
                .cloned()
                .or_else(|| d.get("parameters").map(lowercase_types))
                .unwrap_or_else(|| json!({"type": "object", "properties": {}}));
            let mut f =
                json!({"name": d.get("name").cloned().unwrap_or_default(), "parameters": params});
            if let Some(desc) = d.get("description") {
                f["description"] = desc.clone();
            }
            json!({"type": "function", "function": f})
        })
        .collect()
}

/// Gemini's OpenAPI subset writes `"type": "OBJECT"`; JSON Schema wants
/// `"object"`. Only schema keywords are touched: a property that happens to
/// be called `type` is a schema (an object), never a string.
fn lowercase_types(schema: &Value) -> Value {
    match schema {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let v = match (k.as_str(), v) {
                        ("type", Value::String(s)) => Value::String(s.to_ascii_lowercase()),
                        ("type", Value::Array(a)) => Value::Array(
                            a.iter()
                                .map(|t| match t {
                                    Value::String(s) => Value::String(s.to_ascii_lowercase()),
                                    o => o.clone(),
                                })
                                .collect(),
                        ),
                        // Enum values and defaults are data, not schema.
                        ("enum" | "default" | "example", v) => v.clone(),
                        (_, v) => lowercase_types(v),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(lowercase_types).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_with_tool_rounds_becomes_messages() {
        let req = json!({
            "systemInstruction": {"parts": [{"text": "be brief"}]},
            "contents": [
                {"role": "user", "parts": [{"text": "ctx"}, {"text": "list files"}]},
                {"role": "model", "parts": [
                    {"thoughtSignature": "only-a-signature"},
                    {"text": "Looking."},
                    {"functionCall": {"id": "c1", "name": "ls", "args": {"dir": "."}}, "thoughtSignature": "sig1"},
                    {"functionCall": {"name": "ls", "args": {"dir": "/"}}, "extra_content": {"acme": {"n": 1}}},
                ]},
                {"role": "user", "parts": [
                    {"functionResponse": {"id": "c1", "name": "ls", "response": {"output": "a"}}},
                    {"functionResponse": {"name": "ls", "response": {"output": "b"}}},
                ]},
                {"role": "model", "parts": [{"thoughtSignature": "x"}]},
            ],
            "tools": [{"functionDeclarations": [
                {"name": "ls", "description": "list", "parameters": {"type": "OBJECT", "properties": {
                    "dir": {"type": "STRING", "enum": ["OBJECT"]},
                    "type": {"type": "STRING"}}, "required": ["dir"]}},
                {"name": "plot", "parametersJsonSchema": {"type": "object"}},
            ]}],
        });
        let b = body(&req, "qwen");
        assert_eq!(b["model"], "qwen");
        assert_eq!(b["stream"], true);
        let m = b["messages"].as_array().unwrap();
        assert_eq!(m.len(), 5, "{m:#?}");
        assert_eq!(m[0], json!({"role": "system", "content": "be brief"}));
        assert_eq!(
            m[1],
            json!({"role": "user", "content": "ctx\n\nlist files"})
        );
        assert_eq!(m[2]["content"], "Looking.");
        let calls = m[2]["tool_calls"].as_array().unwrap();
        assert_eq!(calls[0]["id"], "c1");
        assert_eq!(calls[0]["function"]["arguments"], r#"{"dir":"."}"#);
        assert_eq!(
            calls[0]["extra_content"],
            json!({"google": {"thought_signature": "sig1"}})
        );
        assert_eq!(calls[1]["id"], "call_1");
        assert_eq!(calls[1]["extra_content"], json!({"acme": {"n": 1}}));
        assert_eq!(
            m[3],
            json!({"role": "tool", "tool_call_id": "c1", "content": r#"{"output":"a"}"#})
        );
        assert_eq!(m[4]["tool_call_id"], "call_1");
        let tools = b["tools"].as_array().unwrap();
        assert_eq!(
            tools[0]["function"]["parameters"],
            json!({"type": "object", "properties": {"dir": {"type": "string", "enum": ["OBJECT"]},
                   "type": {"type": "string"}}, "required": ["dir"]})
        );
        assert_eq!(tools[0]["function"]["description"], "list");
        assert_eq!(
            tools[1]["function"]["parameters"],
            json!({"type": "object"})
        );
        assert!(b.get("response_format").is_none() && b.get("temperature").is_none());
    }

    #[test]
    fn a_schema_is_a_response_format_and_gemini_tools_stay_home() {
        let req = json!({
            "contents": [{"role": "user", "parts": [{"text": "cars"}]}],
            "tools": [{"googleSearch": {}}],
            "generationConfig": {"responseMimeType": "application/json",
                                 "responseJsonSchema": {"type": "object"}, "temperature": 0.5},
        });
        let b = body(&req, "m");
        assert_eq!(
            b["response_format"],
            json!({"type": "json_schema", "json_schema": {"name": "answer", "schema": {"type": "object"}}})
        );
        assert_eq!(b["temperature"], 0.5);
        assert!(b.get("tools").is_none());
    }
}
