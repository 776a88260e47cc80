//! An MCP tool's answer (a `CallToolResult`) as gem-ask's result: the
//! text of its content blocks (other kinds described), its structured
//! content, `isError` as an error result, the text capped at [`MAX_TEXT`];
//! its images (and image or PDF resources) under [`MEDIA_KEY`], for the
//! agent to send the model as parts.

use serde_json::{Map, Value, json};

use crate::agent::toolbox::{Done, Failed, MEDIA_KEY, ToolResult, media_for_model, secrets};

/// A `CallToolResult` (as JSON, so every content kind reads the same way)
/// as the model's answer: the text of its content, its structured content,
/// and `isError` as an error result.
pub fn from_result(r: &Value) -> ToolResult {
    let blocks = r["content"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let text: Vec<String> = blocks.iter().map(block_text).collect();
    let text = capped(text.join("\n"));
    if r["isError"].as_bool() == Some(true) {
        return Err(Failed::new(
            "tool_error",
            if text.is_empty() {
                "the tool reported an error".into()
            } else {
                text
            },
        ));
    }
    let mut response = Map::new();
    response.insert("output".into(), text.clone().into());
    if let Some(s) = r.get("structuredContent").filter(|s| !s.is_null()) {
        response.insert("structuredContent".into(), s.clone());
    }
    let media: Vec<Value> = blocks.iter().filter_map(media_of).collect();
    if !media.is_empty() {
        response.insert(MEDIA_KEY.into(), media.into());
    }
    let output = match (text.is_empty(), r.get("structuredContent")) {
        (true, Some(s)) if !s.is_null() => s.to_string(),
        _ => text,
    };
    Ok(Done {
        output,
        response: Value::Object(response),
    })
}

/// Most bytes of an MCP tool's text passed to the model.
pub const MAX_TEXT: usize = 256 * 1024;

/// `text` cut at [`MAX_TEXT`] (on a character boundary), saying so.
fn capped(mut text: String) -> String {
    if text.len() <= MAX_TEXT {
        return text;
    }
    let total = text.len();
    text.truncate(text.floor_char_boundary(MAX_TEXT));
    secrets::cut_tail(&mut text);
    text.push_str(&format!(
        "\n[the tool's answer was {total} bytes; the first {} KiB are shown]",
        MAX_TEXT / 1024
    ));
    text
}

/// An image block, or an embedded resource that is an image or a PDF, as
/// inline data for the model (`{mimeType, data}`).
fn media_of(b: &Value) -> Option<Value> {
    let (mime, data) = match b["type"].as_str()? {
        "image" => (b["mimeType"].as_str()?, b["data"].as_str()?),
        "resource" => (
            b["resource"]["mimeType"].as_str()?,
            b["resource"]["blob"].as_str()?,
        ),
        _ => return None,
    };
    media_for_model(mime).then(|| json!({"mimeType": mime, "data": data}))
}

/// One content block as text: text as is, anything else described.
fn block_text(b: &Value) -> String {
    let s = |k: &str| b[k].as_str().unwrap_or_default();
    match s("type") {
        "text" => s("text").to_string(),
        "image" | "audio" => format!(
            "[{} {}, {} bytes base64]",
            s("type"),
            s("mimeType"),
            s("data").len()
        ),
        "resource" => match b["resource"]["text"].as_str() {
            Some(t) => t.to_string(),
            None => format!(
                "[resource {}]",
                b["resource"]["uri"].as_str().unwrap_or("?")
            ),
        },
        "resource_link" => format!("[resource link {}]", s("uri")),
        other => json!({"type": other}).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_carry_text_structure_and_errors() {
        let ok = from_result(&json!({"content":[{"type":"text","text":"12:00"}],
            "structuredContent":{"time":"12:00"}}))
        .unwrap();
        assert_eq!(ok.output, "12:00");
        assert_eq!(ok.response["structuredContent"]["time"], "12:00");
        let err =
            from_result(&json!({"content":[{"type":"text","text":"bad zone"}],"isError":true}))
                .unwrap_err();
        assert_eq!((err.kind, err.message.as_str()), ("tool_error", "bad zone"));
        let img = from_result(
            &json!({"content":[{"type":"image","mimeType":"image/png","data":"AAAA"}]}),
        )
        .unwrap();
        assert_eq!(img.output, "[image image/png, 4 bytes base64]");
        assert_eq!(
            img.response[MEDIA_KEY],
            json!([{"mimeType": "image/png", "data": "AAAA"}])
        );
        let big = from_result(&json!({"content":[{"type":"text","text": "é".repeat(MAX_TEXT)}]}))
            .unwrap();
        assert!(big.output.len() < MAX_TEXT + 100);
        assert!(big.output.ends_with("the first 256 KiB are shown]"));
    }
}
