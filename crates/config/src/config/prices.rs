//! `[budget]`, a run's caps, and `[prices.MODEL]`: what a model costs, in US dollars per million
//! tokens, when the agent's own dated table (`agent::price`) lacks the
//! model or is out of date. Each key is required but `thinking` (the
//! output price when left out), so a half-written entry is an error
//! rather than a guess.

use serde::Deserialize;

/// `[budget]`: the caps of every run, as `--max-requests`,
/// `--max-tokens` and `--max-cost` (a flag wins over its key).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Budget {
    pub max_requests: Option<u64>,
    pub max_tokens: Option<u64>,
    pub max_cost: Option<f64>,
}

/// A model's prices, USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rates {
    /// Prompt tokens not served from the cache.
    pub input: f64,
    /// Prompt tokens served from the API's cache.
    pub cached_input: f64,
    /// Answer tokens.
    pub output: f64,
    /// Thinking tokens; [`Rates::thinking`] is `output` when left out.
    #[serde(default)]
    pub thinking: Option<f64>,
}

impl Rates {
    /// The price of a thinking token.
    pub fn thinking(&self) -> f64 {
        self.thinking.unwrap_or(self.output)
    }

    /// Whether every price is a finite number, not negative.
    pub fn is_valid(&self) -> bool {
        [self.input, self.cached_input, self.output, self.thinking()]
            .iter()
            .all(|p| p.is_finite() && *p >= 0.0)
    }
}
