//! The config file's `[memory]` table: whether memory is on in every
//! run, its token budget, and the embedding model (its provider and base
//! URL when they are not the chat's). Flags win over it.

use serde::Deserialize;

use crate::provider::ProviderKind;

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryConfig {
    /// As `--memory`.
    #[serde(default)]
    pub enabled: bool,
    /// As `--memory-budget`.
    pub budget: Option<u64>,
    /// The model embeddings come from; none: keyword search only.
    pub embedding_model: Option<String>,
    /// Its provider; the chat's when not set.
    pub embedding_provider: Option<ProviderKind>,
    /// Its base URL; the provider's when not set.
    pub embedding_base_url: Option<String>,
}

impl MemoryConfig {
    /// What in the table cannot be used: (key, why).
    pub fn problem(&self) -> Option<(&'static str, String)> {
        if self
            .embedding_model
            .as_deref()
            .is_some_and(|m| m.trim().is_empty())
        {
            return Some(("embedding_model", "must not be empty".into()));
        }
        if let Some(url) = &self.embedding_base_url
            && let Err(e) = crate::provider::transport::BaseUrl::parse(url)
        {
            return Some(("embedding_base_url", e.to_string()));
        }
        None
    }
}
