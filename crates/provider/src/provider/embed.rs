//! Embeddings from a provider: a batch of texts in, one vector each out,
//! for a model named by the config. Gemini's `batchEmbedContents`
//! ([`super::gemini::embed`], with the task types `RETRIEVAL_DOCUMENT` and
//! `RETRIEVAL_QUERY`) or an OpenAI-compatible `/embeddings`
//! ([`super::openai::embed`]: Ollama, llama.cpp's server, text-embeddings
//! servers). E5 models were trained with `query: ` and `passage: `
//! prefixes, so their texts get them ([`e5_prefix`]), whoever serves them.
//!
//! Requests go through a [`Transport`] with the same retries as the chat
//! requests (429, 5xx, connection trouble); the vectors come back in the
//! order of the texts, or the call fails as a whole.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::transport::{Transport, TransportErrorKind};
use super::{ApiError, ProviderKind, RetryPolicy};

/// What the texts are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Texts to be found later (memories).
    Document,
    /// A text to find them with (a question).
    Query,
}

/// One text, with a title when it has one (Gemini uses it for documents).
#[derive(Debug, Clone, Copy)]
pub struct Doc<'a> {
    pub title: Option<&'a str>,
    pub text: &'a str,
}

/// Why a batch got no vectors.
#[derive(Debug, Clone, thiserror::Error)]
#[error("embedding request to {model} failed: {message}")]
pub struct EmbedError {
    pub model: String,
    pub message: String,
}

/// An embedding model at a provider.
pub struct Embedder {
    pub kind: ProviderKind,
    pub model: String,
    transport: Arc<dyn Transport>,
    retry: RetryPolicy,
}

/// The largest batch a request carries (Gemini takes 100).
pub const BATCH: usize = 100;

/// The prefix an E5 model wants before a text of this task, if the model
/// is an E5 model (a name with an `e5` word, e.g. `intfloat/e5-large-v2`,
/// `multilingual-e5-base`; not the instruction-tuned `e5-mistral`).
pub fn e5_prefix(model: &str, task: Task) -> Option<&'static str> {
    let m = model.to_ascii_lowercase();
    let e5 = m
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == "e5");
    if !e5 || m.contains("instruct") || m.contains("mistral") {
        return None;
    }
    Some(match task {
        Task::Document => "passage: ",
        Task::Query => "query: ",
    })
}

impl Embedder {
    pub fn new(
        kind: ProviderKind,
        model: &str,
        transport: Arc<dyn Transport>,
        retry: RetryPolicy,
    ) -> Embedder {
        Embedder {
            kind,
            model: model.trim().to_string(),
            transport,
            retry,
        }
    }

    /// The name vectors are stored under: provider and model, so two
    /// models' vectors are never compared.
    pub fn model_id(&self) -> String {
        format!("{}:{}", self.kind.name(), self.model)
    }

    /// One vector a text, in order.
    pub fn embed(&self, docs: &[Doc<'_>], task: Task) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut out = Vec::with_capacity(docs.len());
        for batch in docs.chunks(BATCH) {
            out.extend(self.batch(batch, task)?);
        }
        Ok(out)
    }

    fn fail(&self, message: String) -> EmbedError {
        EmbedError {
            model: self.model_id(),
            message,
        }
    }

    fn batch(&self, docs: &[Doc<'_>], task: Task) -> Result<Vec<Vec<f32>>, EmbedError> {
        let prefix = e5_prefix(&self.model, task).unwrap_or("");
        let texts: Vec<(Option<&str>, String)> = docs
            .iter()
            .map(|d| (d.title, format!("{prefix}{}", d.text)))
            .collect();
        let (path, body) = match self.kind {
            ProviderKind::Gemini => (
                super::gemini::embed::path(&self.model),
                super::gemini::embed::body(&self.model, &texts, task == Task::Document),
            ),
            ProviderKind::Openai => (
                "/embeddings".to_string(),
                super::openai::embed::body(
                    &self.model,
                    texts.into_iter().map(|(_, t)| t).collect(),
                ),
            ),
        };
        let body = body.to_string().into_bytes();
        let started = Instant::now();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (err, hint) = match self.transport.post(&path, &body) {
                Ok(mut reply) => {
                    let mut bytes = Vec::new();
                    let read = std::io::Read::read_to_end(&mut reply.body, &mut bytes);
                    match (reply.status, read) {
                        (200..=299, Ok(_)) => return self.parse(&bytes, docs.len()),
                        (_, Err(e)) => (format!("cannot read the answer: {e}"), None),
                        (status, Ok(_)) => {
                            let e = ApiError::from_body(
                                status,
                                &String::from_utf8_lossy(&bytes),
                                reply.retry_after.as_deref(),
                            );
                            if !e.retryable() {
                                return Err(self.fail(e.to_string()));
                            }
                            (e.to_string(), e.retry_after)
                        }
                    }
                }
                Err(e) if e.kind == TransportErrorKind::Retryable => (e.message, None),
                Err(e) => return Err(self.fail(e.message)),
            };
            match self.retry.delay(attempt, hint, started.elapsed()) {
                Some(d) => std::thread::sleep(d.min(Duration::from_secs(30))),
                None => return Err(self.fail(err)),
            }
        }
    }

    fn parse(&self, body: &[u8], n: usize) -> Result<Vec<Vec<f32>>, EmbedError> {
        let vectors = match self.kind {
            ProviderKind::Gemini => super::gemini::embed::parse(body),
            ProviderKind::Openai => super::openai::embed::parse(body),
        }
        .map_err(|m| self.fail(format!("the answer is not the expected shape: {m}")))?;
        if vectors.len() != n {
            return Err(self.fail(format!("{} vectors came back for {n} texts", vectors.len())));
        }
        let dim = vectors.first().map_or(0, Vec::len);
        if dim == 0 || vectors.iter().any(|v| v.len() != dim) {
            return Err(self.fail("the vectors are empty or of different lengths".into()));
        }
        Ok(vectors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_answers_parse() {
        let g = super::super::gemini::embed::parse(include_bytes!(
            "../../../../testdata/embeddings/gemini-batchEmbedContents.response.json"
        ))
        .unwrap();
        assert_eq!(g.len(), 1);
        assert_eq!(g[0][..2], [-0.013262188, 0.0021674777]);
        let o = super::super::openai::embed::parse(include_bytes!(
            "../../../../testdata/embeddings/openai-embeddings.response.json"
        ))
        .unwrap();
        assert_eq!((o.len(), o[0].len()), (1, 8));
        assert!(
            super::super::openai::embed::parse(br#"{"data":[{"index":3,"embedding":[1]}]}"#)
                .is_err()
        );
    }

    #[test]
    fn requests_name_the_model_and_task_and_titles_only_documents() {
        let texts = [(Some("deploy-host"), "passage: x".to_string())];
        let doc = super::super::gemini::embed::body("gemini-embedding-001", &texts, true);
        assert_eq!(doc["requests"][0]["model"], "models/gemini-embedding-001");
        assert_eq!(doc["requests"][0]["taskType"], "RETRIEVAL_DOCUMENT");
        assert_eq!(doc["requests"][0]["title"], "deploy-host");
        let q = super::super::gemini::embed::body("models/gemini-embedding-001", &texts, false);
        assert_eq!(q["requests"][0]["taskType"], "RETRIEVAL_QUERY");
        assert!(q["requests"][0].get("title").is_none());
        assert_eq!(
            super::super::gemini::embed::path("models/x"),
            "/v1beta/models/x:batchEmbedContents"
        );
    }

    #[test]
    fn e5_models_get_their_prefixes() {
        for m in [
            "intfloat/e5-large-v2",
            "multilingual-e5-base",
            "E5-small",
            "e5",
        ] {
            assert_eq!(e5_prefix(m, Task::Query), Some("query: "), "{m}");
            assert_eq!(e5_prefix(m, Task::Document), Some("passage: "), "{m}");
        }
        for m in [
            "gemini-embedding-001",
            "text-embedding-3-small",
            "nomic-embed-text",
            "e5-mistral-7b-instruct",
            "be5t",
        ] {
            assert_eq!(e5_prefix(m, Task::Query), None, "{m}");
        }
    }
}
