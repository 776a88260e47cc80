//! gemline-provider: the model servers' wire formats (Gemini, any
//! OpenAI-compatible server) over HTTP: requests, streams, retries,
//! uploads, embeddings. Below it only gemline-core.

pub mod provider;

pub(crate) use gemline_core::{events, session, term};
