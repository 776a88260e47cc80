//! Gemini's `models/{model}:batchEmbedContents`: a `BatchEmbedContentsRequest`
//! of one `EmbedContentRequest` a text (the model named again in each, a
//! task type, a title for documents), answered by `{"embeddings":
//! [{"values": [...]}]}` in the same order.

use serde_json::{Value, json};

/// The request path under the base URL.
pub fn path(model: &str) -> String {
    format!(
        "/v1beta/models/{}:batchEmbedContents",
        model.trim_start_matches("models/")
    )
}

/// The request body: each text with its title (documents only: a title
/// is accepted with `RETRIEVAL_DOCUMENT` alone).
pub fn body(model: &str, texts: &[(Option<&str>, String)], document: bool) -> Value {
    let name = format!("models/{}", model.trim_start_matches("models/"));
    let task_type = if document {
        "RETRIEVAL_DOCUMENT"
    } else {
        "RETRIEVAL_QUERY"
    };
    let requests: Vec<Value> = texts
        .iter()
        .map(|(title, text)| {
            let mut r = json!({
                "model": name,
                "content": {"role": "user", "parts": [{"text": text}]},
                "taskType": task_type,
            });
            if let Some(t) = title.filter(|t| document && !t.trim().is_empty()) {
                r["title"] = t.into();
            }
            r
        })
        .collect();
    json!({ "requests": requests })
}

/// The vectors of an answer, in order.
pub fn parse(body: &[u8]) -> Result<Vec<Vec<f32>>, crate::provider::AnswerShape> {
    #[derive(serde::Deserialize)]
    struct Answer {
        embeddings: Vec<Embedding>,
    }
    #[derive(serde::Deserialize)]
    struct Embedding {
        values: Vec<f32>,
    }
    let a: Answer = serde_json::from_slice(body)?;
    Ok(a.embeddings.into_iter().map(|e| e.values).collect())
}
