//! The API key in the environment: read for the provider a run talks
//! to, and blanked out of every message that might quote it back (a proxy
//! echoing it, an HTTP library quoting the URL). A leaf: setup, the turn
//! loop and the closing `result` all use it.

use crate::provider::ProviderKind;

/// The provider's key from the first of its variables that is set.
pub fn api_key(kind: ProviderKind) -> Option<String> {
    kind.wiring()
        .key_vars
        .iter()
        .filter_map(|k| std::env::var(k).ok())
        .map(|v| v.trim().to_string())
        .find(|v| !v.is_empty())
}

/// `text` with the API key, wherever it appears, replaced by `[REDACTED]`.
pub fn redact_key(text: &str) -> String {
    [ProviderKind::Gemini, ProviderKind::Openai]
        .iter()
        .flat_map(|k| k.wiring().key_vars)
        .filter_map(|k| std::env::var(k).ok())
        .map(|v| v.trim().to_string())
        // A one-letter "key" would blank out half the message.
        .filter(|v| v.len() >= 8)
        .fold(text.to_string(), |t, key| t.replace(&key, "[REDACTED]"))
}
