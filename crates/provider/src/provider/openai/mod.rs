//! OpenAI-compatible chat completions as a [`Provider`]: `POST
//! {base}/chat/completions` with `"stream": true`, the key (when there is
//! one) as `Authorization: Bearer`, answers as SSE `chat.completion.chunk`s
//! ending with `data: [DONE]`. Ollama, llama.cpp's server, vLLM and
//! Gemini's `/v1beta/openai/` all speak it; `OPENAI_BASE_URL` includes the
//! version segment (`http://localhost:11434/v1`), as for OpenAI's own SDKs.
//!
//! [`request`] turns the Gemini-shaped request into `messages` and
//! `tools`; [`stream`] folds the chunks back into Gemini-shaped parts.

pub mod embed;
pub mod request;
pub mod stream;

use serde_json::Value;

use super::{AttachmentWire, Provider, ProviderKind, StreamFold, Supports, Wiring};
use crate::provider::ApiError;

pub const WIRING: Wiring = Wiring {
    key_vars: &["OPENAI_API_KEY"],
    key_required: false,
    base_url_vars: &["OPENAI_BASE_URL"],
    default_base_url: "https://api.openai.com/v1",
    model_vars: &["OPENAI_MODEL"],
    default_model: None,
};

pub struct OpenAi;

/// What an OpenAI-compatible chat-completions server can be sent: images
/// as `image_url` data URLs, text as text.
const TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/gif",
    "text/plain",
];

const ATTACHMENTS: AttachmentWire = AttachmentWire {
    types: TYPES,
    who: "the openai provider",
    files_api: false,
    inline_in_function_response: false,
    url_images_only: true,
    text_as_text: true,
};

const SUPPORTS: Supports = Supports {
    count_tokens: false,
    builtin_tools: false,
};

impl Provider for OpenAi {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Openai
    }

    fn attachments(&self) -> &'static AttachmentWire {
        &ATTACHMENTS
    }

    fn supports(&self) -> &'static Supports {
        &SUPPORTS
    }

    fn path(&self, _model: &str) -> String {
        "/chat/completions".to_string()
    }

    fn auth_header(&self, key: &str) -> (&'static str, String) {
        ("authorization", format!("Bearer {key}"))
    }

    fn body(&self, request: Value, model: &str) -> Value {
        request::body(&request, model)
    }

    fn stream(&self) -> Box<dyn StreamFold> {
        Box::new(stream::OpenAiStream::default())
    }

    fn error(&self, status: u16, body: &str, retry_after: Option<&str>) -> ApiError {
        let mut e = ApiError::from_body(status, body, retry_after);
        if let Ok(v) = serde_json::from_str::<Value>(body) {
            let inner = match &v {
                Value::Array(a) => a.first().and_then(|x| x.get("error")),
                other => other.get("error"),
            };
            if let Some(inner) = inner {
                adopt_envelope(&mut e, inner);
            }
        }
        e
    }
}

/// What OpenAI-style servers put under `"error"` that Google's envelope
/// reader does not read: a string code or a `type` as the status
/// (`invalid_api_key`, `invalid_request_error`), or the whole error as a
/// string (Ollama: `{"error":"model \"x\" not found"}`).
pub(crate) fn adopt_envelope(e: &mut ApiError, inner: &Value) {
    match inner {
        Value::String(s) => e.message = s.clone(),
        Value::Object(o) if e.status.is_empty() => {
            let word = |k: &str| o.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
            if let Some(s) = word("code").or_else(|| word("type")) {
                e.status = s.to_string();
            }
        }
        _ => {}
    }
}

/// An in-stream `{"error": ...}` object as an API error.
pub(crate) fn stream_error(inner: &Value) -> ApiError {
    let mut e = ApiError::from_envelope(inner);
    adopt_envelope(&mut e, inner);
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_bodies_of_every_dialect_are_read() {
        let openai = r#"{"error":{"message":"Incorrect API key provided: sk-abc.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#;
        let e = OpenAi.error(401, openai, None);
        assert_eq!(
            e.to_string(),
            "HTTP 401 invalid_api_key: Incorrect API key provided: sk-abc."
        );
        let ollama = r#"{"error":"model \"llama9\" not found, try pulling it first"}"#;
        let e = OpenAi.error(404, ollama, None);
        assert_eq!(
            e.to_string(),
            "HTTP 404: model \"llama9\" not found, try pulling it first"
        );
        // Gemini's compatibility endpoint answers with Google's envelope.
        let google =
            r#"[{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}]"#;
        let e = OpenAi.error(429, google, Some("7"));
        assert_eq!(e.to_string(), "HTTP 429 RESOURCE_EXHAUSTED: Quota exceeded");
        assert_eq!(e.retry_after, Some(std::time::Duration::from_secs(7)));
        assert!(e.retryable());
        let e = OpenAi.error(502, "<html>Bad Gateway</html>", None);
        assert_eq!(e.to_string(), "HTTP 502: <html>Bad Gateway</html>");
    }
}
