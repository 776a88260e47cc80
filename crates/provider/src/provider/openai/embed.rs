//! An OpenAI-compatible `POST {base}/embeddings`: `{"model", "input": [...],
//! "encoding_format": "float"}`, answered by `{"data": [{"index",
//! "embedding"}], ...}`; the vectors are put back in `index` order.

use serde_json::{Value, json};

use crate::provider::AnswerShape;

/// The request body.
pub fn body(model: &str, texts: Vec<String>) -> Value {
    json!({"model": model, "input": texts, "encoding_format": "float"})
}

/// The vectors of an answer, in input order.
pub fn parse(body: &[u8]) -> Result<Vec<Vec<f32>>, AnswerShape> {
    #[derive(serde::Deserialize)]
    struct Answer {
        data: Vec<Item>,
    }
    #[derive(serde::Deserialize)]
    struct Item {
        #[serde(default)]
        index: Option<usize>,
        embedding: Vec<f32>,
    }
    let a: Answer = serde_json::from_slice(body)?;
    let n = a.data.len();
    let mut out: Vec<Option<Vec<f32>>> = vec![None; n];
    for (i, item) in a.data.into_iter().enumerate() {
        let at = item.index.unwrap_or(i);
        match out.get_mut(at) {
            Some(slot @ None) => *slot = Some(item.embedding),
            _ => return Err(AnswerShape::OutOfPlace { at: i, index: at }),
        }
    }
    Ok(out.into_iter().flatten().collect())
}
