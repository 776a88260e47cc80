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
        .filter_map(|k| crate::agent::environ::get().var(k))
        .map(|v| v.trim().to_string())
        .find(|v| !v.is_empty())
}

/// Every provider's API key that is set (trimmed), whichever provider
/// this run talks to: a child process or a tool's output must not carry
/// any of them.
pub fn known_keys() -> Vec<String> {
    ProviderKind::ALL
        .iter()
        .flat_map(|k| k.wiring().key_vars)
        .filter_map(|k| crate::agent::environ::get().var(k))
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect()
}

/// `text` with the API key, wherever it appears, replaced by `[REDACTED]`.
pub fn redact_key(text: &str) -> String {
    known_keys()
        .into_iter()
        // A one-letter "key" would blank out half the message.
        .filter(|v| v.len() >= 8)
        .fold(text.to_string(), |t, key| t.replace(&key, "[REDACTED]"))
}
