//! The model client: `streamGenerateContent?alt=sse` over ureq, the SSE
//! reader, retries, error envelopes, turns assembled from chunks, and the
//! transports (live, recorded, replayed). [`Client`] runs any
//! `crate::provider::Provider` (Gemini's wire format is the default; an
//! OpenAI-compatible one is the other) with the same retries and
//! interruption. It knows nothing of tools, sessions or output formats;
//! the agent drives it through [`Client`].

pub mod client;
pub mod error;
pub mod request;
pub mod retry;
pub mod spool;
pub mod sse;
pub mod transport;
pub mod turn;

pub use client::{Client, Observer};
pub use error::{ApiError, GenError};
pub use retry::RetryPolicy;
pub use turn::{Delta, FunctionCall, Part, Turn, Usage};

/// The public endpoint; `--base-url` and the environment override it.
pub const DEFAULT_BASE_URL: &str = "https://generativelanguage.googleapis.com";
pub const DEFAULT_MODEL: &str = "gemini-2.5-flash";
