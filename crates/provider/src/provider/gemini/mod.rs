//! Gemini's own REST API as a [`Provider`]: `streamGenerateContent` over
//! SSE, the key in `x-goog-api-key`, the request sent in the shape it was
//! built in, chunks folded by [`Turn::push_chunk`].

pub mod embed;

use serde_json::Value;

use super::{AttachmentWire, Provider, ProviderKind, StreamFold, Supports, Wiring, parse_chunk};
use crate::provider::{ApiError, Delta, GenError, Turn};

pub const WIRING: Wiring = Wiring {
    key_vars: &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
    key_required: true,
    base_url_vars: &["GEMINI_BASE_URL", "GOOGLE_GEMINI_BASE_URL"],
    default_base_url: crate::provider::DEFAULT_BASE_URL,
    model_vars: &["GEMINI_MODEL"],
    default_model: Some(crate::provider::DEFAULT_MODEL),
};

pub struct Gemini;

/// Types Gemini reads (its documentation's names).
const TYPES: &[&str] = &[
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/heic",
    "image/heif",
    "application/pdf",
    "text/plain",
    "audio/wav",
    "audio/mp3",
    "audio/aiff",
    "audio/aac",
    "audio/ogg",
    "audio/flac",
    "video/mp4",
    "video/mov",
    "video/webm",
    "video/3gpp",
];

const ATTACHMENTS: AttachmentWire = AttachmentWire {
    types: TYPES,
    who: "Gemini",
    files_api: true,
    inline_in_function_response: true,
    url_images_only: false,
    text_as_text: false,
};

const SUPPORTS: Supports = Supports {
    count_tokens: true,
    builtin_tools: true,
};

impl Provider for Gemini {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Gemini
    }

    fn attachments(&self) -> &'static AttachmentWire {
        &ATTACHMENTS
    }

    fn supports(&self) -> &'static Supports {
        &SUPPORTS
    }

    fn path(&self, model: &str) -> String {
        format!(
            "/v1beta/models/{}:streamGenerateContent?alt=sse",
            model.trim_start_matches("models/")
        )
    }

    fn auth_header(&self, key: &str) -> (&'static str, String) {
        ("x-goog-api-key", key.to_string())
    }

    /// The request as built, less what another provider kept on a part for
    /// itself (`extra_content`, an OpenAI-compatible server's extras): the
    /// API refuses fields it does not know.
    fn body(&self, request: Value, _model: &str) -> Value {
        let foreign = |c: &Value| {
            c.get("parts")
                .and_then(Value::as_array)
                .is_some_and(|ps| ps.iter().any(|p| p.get("extra_content").is_some()))
        };
        let contents = request.get("contents").and_then(Value::as_array);
        if !contents.is_some_and(|cs| cs.iter().any(foreign)) {
            return request;
        }
        let mut body = request;
        for c in body["contents"].as_array_mut().into_iter().flatten() {
            for p in c["parts"].as_array_mut().into_iter().flatten() {
                if let Some(obj) = p.as_object_mut() {
                    obj.remove("extra_content");
                }
            }
        }
        body
    }

    fn stream(&self) -> Box<dyn StreamFold> {
        Box::new(GeminiStream(Turn::default()))
    }

    fn error(&self, status: u16, body: &str, retry_after: Option<&str>) -> ApiError {
        ApiError::from_body(status, body, retry_after)
    }
}

struct GeminiStream(Turn);

impl StreamFold for GeminiStream {
    fn push(&mut self, data: &str) -> Result<Vec<Delta>, GenError> {
        self.0.push_chunk(&parse_chunk(data)?)
    }

    fn finish(self: Box<Self>) -> Result<Turn, GenError> {
        if self.0.finish_reason.is_none() {
            let m = "no finishReason before the end of the stream".to_string();
            return Err(GenError::StreamCut(m));
        }
        Ok(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn another_providers_extras_never_reach_the_api() {
        let req = json!({"contents": [{"role": "model", "parts": [
            {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "s",
             "extra_content": {"acme": {"trace": 1}}}]}]});
        let body = Gemini.body(req, "m");
        assert_eq!(
            body["contents"][0]["parts"][0],
            json!({"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "s"})
        );
        let plain = json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]});
        assert_eq!(Gemini.body(plain.clone(), "m"), plain);
    }
}
