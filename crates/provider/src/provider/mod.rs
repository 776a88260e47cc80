//! The model providers gem-ask can talk to, behind one trait: Gemini's own
//! REST API (`--provider gemini`, the default) and any OpenAI-compatible
//! chat-completions server (`--provider openai`: Ollama, llama.cpp's
//! server, vLLM, Gemini's `/v1beta/openai/`).
//!
//! The conversation is kept in one shape whatever the provider: Gemini's
//! `Content` (the shape sessions store), and requests are built in
//! Gemini's `GenerateContentRequest` shape ([`request`]). A
//! [`Provider`] turns such a request into its own wire body, names the
//! path and the key header, folds its streamed answer back into a
//! [`Turn`] of Gemini-shaped parts, and reads its error bodies.
//!
//! The client core is the same for every provider: [`Client`] streams a
//! request over a transport (live HTTP with ureq, recorded, replayed:
//! [`transport`]), reads the SSE stream ([`sse`]), assembles turns from
//! chunks ([`turn`]), spools long answers ([`spool`]), retries
//! ([`retry`]) and reads error envelopes ([`error`]). Embedding requests
//! ([`embed`]) share the transport and retries. It knows nothing of
//! tools, sessions or output formats; the agent drives it. A new provider
//! is one folder beside [`gemini`] and [`openai`] and one arm of
//! [`ProviderKind`].

pub mod batch;
pub mod blob;
pub mod client;
pub mod embed;
pub mod error;
pub mod files;
pub mod gemini;
pub mod grounding;
pub mod models;
pub mod openai;
pub mod request;
pub mod retry;
pub mod spool;
pub mod sse;
pub mod thinking;
pub mod transport;
pub mod turn;

pub use client::{Client, Observer};
pub use error::{AnswerShape, ApiError, GenError, ModelGone};
pub use retry::RetryPolicy;
pub use thinking::Thinking;
pub use turn::{Delta, FunctionCall, Part, Turn, Usage};

pub const DEFAULT_BASE_URL: &str = "https://generativelanguage.googleapis.com";
/// Gemini 3.5 Flash: generally available since May 2026 with no shutdown
/// date announced, the base Flash model of gemini-cli 0.61. A pinned
/// name, not the moving `gemini-flash-latest` alias, so a run's model
/// (and the thinking levels it takes) changes only with gem-ask.
pub const DEFAULT_MODEL: &str = "gemini-3.5-flash";

use std::sync::Arc;

use serde_json::Value;

/// `--provider`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    clap::ValueEnum,
    serde::Deserialize,
    serde::Serialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// Google's Gemini API (generativelanguage.googleapis.com).
    #[default]
    Gemini,
    /// Any OpenAI-compatible /chat/completions server.
    Openai,
}

impl ProviderKind {
    pub fn name(self) -> &'static str {
        match self {
            ProviderKind::Gemini => "gemini",
            ProviderKind::Openai => "openai",
        }
    }

    /// Where this provider's settings come from besides flags and config.
    pub fn wiring(self) -> &'static Wiring {
        match self {
            ProviderKind::Gemini => &gemini::WIRING,
            ProviderKind::Openai => &openai::WIRING,
        }
    }

    /// Every provider, as registered.
    pub const ALL: &[ProviderKind] = &[ProviderKind::Gemini, ProviderKind::Openai];

    /// The wire format, borrowed (for what it says about itself).
    pub fn wire(self) -> &'static dyn Provider {
        match self {
            ProviderKind::Gemini => &gemini::Gemini,
            ProviderKind::Openai => &openai::OpenAi,
        }
    }

    /// The wire format.
    pub fn provider(self) -> Arc<dyn Provider> {
        match self {
            ProviderKind::Gemini => Arc::new(gemini::Gemini),
            ProviderKind::Openai => Arc::new(openai::OpenAi),
        }
    }
}

/// A provider's settings outside the config file: environment variables
/// (first set wins) and defaults.
#[derive(Debug)]
pub struct Wiring {
    pub key_vars: &'static [&'static str],
    /// Without a key the run ends before any request (exit 3); a local
    /// OpenAI-compatible server needs none.
    pub key_required: bool,
    pub base_url_vars: &'static [&'static str],
    pub default_base_url: &'static str,
    pub model_vars: &'static [&'static str],
    /// `None`: every server names its own models, so one must be chosen.
    pub default_model: Option<&'static str>,
}

/// How a provider's wire carries attachments.
#[derive(Debug)]
pub struct AttachmentWire {
    /// The media types it takes.
    pub types: &'static [&'static str],
    /// Its name in a message (`Gemini`, `the openai provider`).
    pub who: &'static str,
    /// A file too large for inline goes through a Files API and is then
    /// referred to by its URI (`fileData`); without, everything is inline.
    pub files_api: bool,
    /// Inline data may stay inside a function response (else it is moved
    /// beside it).
    pub inline_in_function_response: bool,
    /// The URLs it takes are image URLs only.
    pub url_images_only: bool,
    /// A text attachment is sent as a text part.
    pub text_as_text: bool,
}

/// What a provider's models support beyond generating.
#[derive(Debug)]
pub struct Supports {
    /// `countTokens` (`--count-tokens`).
    pub count_tokens: bool,
    /// Gemini's own `googleSearch` and `urlContext` tools.
    pub builtin_tools: bool,
}

/// One provider's wire format.
pub trait Provider: Send + Sync {
    fn kind(&self) -> ProviderKind;

    /// How attachments go on the wire.
    fn attachments(&self) -> &'static AttachmentWire;

    /// What its models support.
    fn supports(&self) -> &'static Supports;

    /// The request path under the base URL, query included.
    fn path(&self, model: &str) -> String;

    /// The header that carries the API key, and its value.
    fn auth_header(&self, key: &str) -> (&'static str, String);

    /// The wire body for a request built in Gemini's shape. It is taken
    /// whole: a history of a long answer is not copied once more.
    fn body(&self, request: Value, model: &str) -> Value;

    /// A fresh fold for one streamed answer.
    fn stream(&self) -> Box<dyn StreamFold>;

    /// A non-2xx answer's body as an error.
    fn error(&self, status: u16, body: &str, retry_after: Option<&str>) -> ApiError;
}

/// Folds the `data:` payloads of one streamed answer into a [`Turn`].
pub trait StreamFold: Send {
    /// One payload; what to show right away.
    fn push(&mut self, data: &str) -> Result<Vec<Delta>, GenError>;

    /// The stream ended: the whole turn, or [`GenError::StreamCut`] when the
    /// answer never said it was complete.
    fn finish(self: Box<Self>) -> Result<Turn, GenError>;
}

/// A stream payload as JSON; anything else means the stream is broken.
pub(crate) fn parse_chunk(data: &str) -> Result<Value, GenError> {
    serde_json::from_str(data)
        .map_err(|e| GenError::StreamCut(format!("a stream event is not JSON ({e})")))
}
