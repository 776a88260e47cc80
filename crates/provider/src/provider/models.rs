//! Asking the provider about itself rather than asking the model: the
//! models it offers (`gem-ask --list-models`: Gemini's `GET
//! /v1beta/models`, page by page; an OpenAI-compatible server's `GET
//! /models`) and how many tokens a request would take (`--count-tokens`:
//! Gemini's `countTokens`, which takes the whole `GenerateContentRequest`,
//! so the history, the system prompt, the tools and any attachment parts
//! count as they would be sent).

use std::io::Read;

use serde_json::{Value, json};

use super::blob::Blobs;
use super::transport::{
    Exchange, ExchangeBody, Reply, Transport, TransportError, TransportErrorKind,
};
use super::{ApiError, Client, GenError, Provider, ProviderKind};

/// One model of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    /// What `--model` takes.
    pub id: String,
    pub display_name: Option<String>,
    /// Input (context) tokens, where the server says.
    pub context: Option<u64>,
    /// Output tokens, where the server says.
    pub output: Option<u64>,
    /// Gemini's `supportedGenerationMethods`.
    pub methods: Vec<String>,
}

impl ModelInfo {
    /// As one JSON line of `--list-models` into a pipe.
    pub fn to_json(&self) -> Value {
        let mut v = json!({"id": self.id});
        if let Some(n) = &self.display_name {
            v["display_name"] = n.clone().into();
        }
        if let Some(c) = self.context {
            v["context_tokens"] = c.into();
        }
        if let Some(o) = self.output {
            v["output_tokens"] = o.into();
        }
        if !self.methods.is_empty() {
            v["methods"] = self.methods.clone().into();
        }
        v
    }
}

/// The most pages of Gemini's list read.
const MAX_PAGES: usize = 20;

/// The largest answer read (a models list is a few hundred KiB).
const MAX_BODY: u64 = 16 << 20;

fn failed(e: TransportError) -> GenError {
    match e.kind {
        TransportErrorKind::Retryable => GenError::Connection(e.message),
        TransportErrorKind::Fatal => GenError::ConnectionFatal(e.message),
        TransportErrorKind::ReplayExhausted => GenError::Replay(e.message),
    }
}

/// A whole JSON answer, or the API's error.
fn json_of(reply: Reply, provider: &dyn Provider) -> Result<Value, GenError> {
    let mut buf = Vec::new();
    reply
        .body
        .take(MAX_BODY)
        .read_to_end(&mut buf)
        .map_err(|e| GenError::StreamCut(e.to_string()))?;
    let text = String::from_utf8_lossy(&buf);
    if !(200..300).contains(&reply.status) {
        let e: ApiError = provider.error(reply.status, &text, reply.retry_after.as_deref());
        return Err(GenError::Api(e));
    }
    serde_json::from_str(&text)
        .map_err(|e| GenError::StreamCut(format!("the answer is not JSON ({e})")))
}

/// GETs `path` under the base URL (with the key, as every request).
fn get(transport: &dyn Transport, path: String) -> Result<Reply, GenError> {
    transport
        .exchange(Exchange {
            method: "GET",
            target: path,
            headers: vec![("accept", "application/json".into())],
            body: ExchangeBody::None,
        })
        .map_err(failed)
}

/// The models the provider offers, in its order.
pub fn list(transport: &dyn Transport, kind: ProviderKind) -> Result<Vec<ModelInfo>, GenError> {
    let provider = kind.provider();
    match kind {
        ProviderKind::Gemini => {
            let mut out = Vec::new();
            let mut token: Option<String> = None;
            for _ in 0..MAX_PAGES {
                let mut path = "/v1beta/models?pageSize=1000".to_string();
                if let Some(t) = &token {
                    path.push_str("&pageToken=");
                    path.push_str(&query_escape(t));
                }
                let v = json_of(get(transport, path)?, provider.as_ref())?;
                out.extend(
                    v.get("models")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(gemini_model),
                );
                token = v
                    .get("nextPageToken")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty())
                    .map(str::to_string);
                if token.is_none() {
                    break;
                }
            }
            Ok(out)
        }
        ProviderKind::Openai => {
            let v = json_of(get(transport, "/models".into())?, provider.as_ref())?;
            Ok(v.get("data")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(openai_model)
                .collect())
        }
    }
}

fn gemini_model(m: &Value) -> Option<ModelInfo> {
    let name = m.get("name")?.as_str()?;
    Some(ModelInfo {
        id: name.trim_start_matches("models/").to_string(),
        display_name: m
            .get("displayName")
            .and_then(Value::as_str)
            .map(str::to_string),
        context: m.get("inputTokenLimit").and_then(Value::as_u64),
        output: m.get("outputTokenLimit").and_then(Value::as_u64),
        methods: m
            .get("supportedGenerationMethods")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
    })
}

/// An OpenAI-style entry; servers put the context size in different
/// places (OpenRouter `context_length`, vLLM `max_model_len`, llama.cpp
/// `meta.n_ctx_train`), Ollama and OpenAI nowhere.
fn openai_model(m: &Value) -> Option<ModelInfo> {
    let id = m.get("id")?.as_str()?;
    let context = ["context_length", "max_model_len", "context_window"]
        .iter()
        .find_map(|k| m.get(*k).and_then(Value::as_u64))
        .or_else(|| m.pointer("/meta/n_ctx_train").and_then(Value::as_u64));
    Some(ModelInfo {
        id: id.to_string(),
        display_name: m.get("name").and_then(Value::as_str).map(str::to_string),
        context,
        output: None,
        methods: Vec::new(),
    })
}

/// A page token as a query value: what is not unreserved, percent-encoded.
fn query_escape(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// What `countTokens` said.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenCount {
    pub total: u64,
    pub cached: Option<u64>,
    /// `promptTokensDetails`: tokens by modality (TEXT, IMAGE, ...).
    pub details: Vec<(String, u64)>,
}

/// The `CountTokensRequest` for a request built as it would be sent.
pub fn count_body(request: Value, model: &str) -> Value {
    let mut inner = request;
    inner["model"] = format!("models/{}", model.trim_start_matches("models/")).into();
    json!({ "generateContentRequest": inner })
}

/// How many tokens `request` (as `request::build` makes it, shaped for
/// the wire as a turn's request is) would take, the attachments' bytes
/// of `blobs` spliced in where their placeholders are; Gemini only (the
/// caller says so for another provider).
pub fn count_tokens(
    client: &Client,
    request: Value,
    blobs: &Blobs,
) -> Result<TokenCount, GenError> {
    let provider = client.provider();
    let path = format!(
        "/v1beta/models/{}:countTokens",
        client.model().trim_start_matches("models/")
    );
    let request = provider.body(request, client.model());
    let json = serde_json::to_vec(&count_body(request, client.model()))
        .expect("a JSON value always serializes");
    let body = blobs
        .splice(json)
        .map_err(|e| GenError::Attachment(e.to_string()))?;
    let v = json_of(
        client.transport().post(&path, &body).map_err(failed)?,
        provider,
    )?;
    let total = v
        .get("totalTokens")
        .and_then(Value::as_u64)
        .ok_or_else(|| GenError::StreamCut("countTokens answered without totalTokens".into()))?;
    Ok(TokenCount {
        total,
        cached: v.get("cachedContentTokenCount").and_then(Value::as_u64),
        details: v
            .get("promptTokensDetails")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|d| {
                Some((
                    d.get("modality")?.as_str()?.to_string(),
                    d.get("tokenCount").and_then(Value::as_u64).unwrap_or(0),
                ))
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_models_list_is_read_with_its_limits() {
        let v: Value = serde_json::from_str(include_str!(
            "../../../../testdata/gemini/24-models-list.response.json"
        ))
        .unwrap();
        let models: Vec<ModelInfo> = v["models"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(gemini_model)
            .collect();
        assert_eq!(models[0].id, "gemini-2.5-flash");
        assert_eq!(
            (models[0].context, models[0].output),
            (Some(1_048_576), Some(65_536))
        );
        assert!(models[1].methods.contains(&"countTokens".to_string()));
    }

    #[test]
    fn openai_servers_say_context_sizes_in_their_own_words() {
        let m = |v: Value| openai_model(&v).unwrap().context;
        assert_eq!(m(json!({"id": "a", "max_model_len": 32768})), Some(32768));
        assert_eq!(
            m(json!({"id": "b", "meta": {"n_ctx_train": 4096}})),
            Some(4096)
        );
        assert_eq!(m(json!({"id": "c", "object": "model"})), None);
        assert_eq!(query_escape("a b/c=="), "a%20b%2Fc%3D%3D");
    }
}
