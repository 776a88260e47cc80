//! What a request costs: a dated table of Gemini models' prices in US
//! dollars per million tokens (input, cached input, output, thinking;
//! those with a higher price for prompts past 200,000 tokens carry both
//! tiers), overridden by the config's `[prices.MODEL]`. A model in
//! neither has no price: its cost is said unknown, never guessed, and
//! `--max-cost` refuses to run with it.
//!
//! The table holds the prices of Google's Gemini API pricing page
//! (https://ai.google.dev/gemini-api/docs/pricing, paid tier, text input;
//! Batch at half the price) as a transcription of that page read on
//! 2026-10-07 gives them (this machine cannot reach the page): Gemini 3.8
//! Flash, 3.5 Flash and Flash-Lite, 3.1 Pro Preview, 2.5 Pro's input and
//! 2.5 Flash's input and 2.5 Flash-Lite's output are those figures; 2.5
//! Pro's output tiers were checked against a published cost crate's table;
//! 2.5 Flash's output and 2.5 Flash-Lite's input are the page's figures as
//! last known here. A cached input token is a tenth of an input token (the
//! page's context-cache price for the 2.5 and later models). Gemini 3.8
//! Flash's price is an introductory one until 2026-12-31 (then 1.50 and
//! 7.50): check the page, or set `[prices."gemini-3.8-flash"]`. A
//! model is matched by its exact name (a leading `models/` left out):
//! a preview or dated variant is another model with its own price.

use crate::config::prices::Rates;
use crate::provider::Usage;

/// When the table's prices were written down.
pub const TABLE_DATE: &str = "2026-10-07";

/// Prompts past this many tokens are billed at a model's long tier.
pub const LONG_PROMPT: u64 = 200_000;

/// The Batch API's discount: its requests cost this share of the price.
pub const BATCH_SHARE: f64 = 0.5;

/// A model's prices; `long` for prompts past [`LONG_PROMPT`] tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    pub base: Rates,
    pub long: Option<Rates>,
}

const fn rates(input: f64, cached_input: f64, output: f64) -> Rates {
    // Google bills thinking tokens as output.
    Rates {
        input,
        cached_input,
        output,
        thinking: None,
    }
}

/// The dated table: (model, ≤200k prompt, >200k prompt).
const TABLE: &[(&str, Rates, Option<Rates>)] = &[
    ("gemini-3.8-flash", rates(0.75, 0.075, 3.75), None),
    ("gemini-3.5-flash", rates(1.50, 0.15, 9.00), None),
    ("gemini-3.5-flash-lite", rates(0.30, 0.03, 2.50), None),
    (
        "gemini-3.1-pro-preview",
        rates(2.00, 0.20, 12.00),
        Some(rates(4.00, 0.40, 18.00)),
    ),
    (
        "gemini-2.5-pro",
        rates(1.25, 0.125, 10.00),
        Some(rates(2.50, 0.25, 15.00)),
    ),
    ("gemini-2.5-flash", rates(0.30, 0.03, 2.50), None),
    ("gemini-2.5-flash-lite", rates(0.10, 0.01, 0.40), None),
];

/// The price of `model`: the config's entry, else the table's; `None`
/// when neither has it.
pub fn lookup(model: &str, overrides: &std::collections::BTreeMap<String, Rates>) -> Option<Price> {
    let name = model.trim();
    let name = name.strip_prefix("models/").unwrap_or(name);
    if let Some(r) = overrides.get(name).or_else(|| overrides.get(model)) {
        return Some(Price {
            base: *r,
            long: None,
        });
    }
    TABLE
        .iter()
        .find(|(m, _, _)| *m == name)
        .map(|(_, base, long)| Price {
            base: *base,
            long: *long,
        })
}

impl Price {
    /// The rates of a request whose prompt has `prompt` tokens.
    fn tier(&self, prompt: u64) -> &Rates {
        match &self.long {
            Some(long) if prompt > LONG_PROMPT => long,
            _ => &self.base,
        }
    }

    /// The same prices through the Batch API.
    pub fn batch(&self) -> Price {
        let half = |r: Rates| Rates {
            input: r.input * BATCH_SHARE,
            cached_input: r.cached_input * BATCH_SHARE,
            output: r.output * BATCH_SHARE,
            thinking: Some(r.thinking() * BATCH_SHARE),
        };
        Price {
            base: half(self.base),
            long: self.long.map(half),
        }
    }

    /// What one request cost, from its usage as the API reported it
    /// (`prompt` includes the `cached` tokens).
    pub fn cost(&self, u: &Usage) -> f64 {
        let r = self.tier(u.prompt);
        let fresh = u.prompt.saturating_sub(u.cached) as f64;
        (fresh * r.input
            + u.cached as f64 * r.cached_input
            + u.candidates as f64 * r.output
            + u.thoughts as f64 * r.thinking())
            / 1e6
    }

    /// The least a request with a `prompt`-token prompt costs: its
    /// input, none of it cached.
    pub fn input_cost(&self, prompt: u64) -> f64 {
        prompt as f64 * self.tier(prompt).input / 1e6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(prompt: u64, cached: u64, candidates: u64, thoughts: u64) -> Usage {
        Usage {
            prompt,
            cached,
            candidates,
            thoughts,
            total: prompt + candidates + thoughts,
        }
    }

    #[test]
    fn a_request_costs_its_tokens_at_their_tier() {
        let p = lookup("models/gemini-2.5-pro", &Default::default()).unwrap();
        // 100k fresh at 1.25, 50k out at 10.
        assert!((p.cost(&usage(100_000, 0, 50_000, 0)) - 0.625).abs() < 1e-9);
        // Cached input at a tenth; thinking as output.
        let c = p.cost(&usage(1_000_000 / 8, 1_000_000 / 8, 0, 100_000));
        assert!((c - (0.125 * 0.125 + 1.0)).abs() < 1e-9, "{c}");
        // Past 200k the whole prompt is at the long tier.
        assert!((p.cost(&usage(300_000, 0, 0, 0)) - 0.75).abs() < 1e-9);
        assert!((p.batch().cost(&usage(300_000, 0, 0, 0)) - 0.375).abs() < 1e-9);
    }

    #[test]
    fn an_unknown_model_has_no_price_and_the_config_overrides() {
        let mut over = std::collections::BTreeMap::new();
        assert_eq!(lookup("gemini-2.5-pro-preview-99", &over), None);
        over.insert("gemini-2.5-flash".to_string(), rates(1.0, 0.5, 2.0));
        let p = lookup("gemini-2.5-flash", &over).unwrap();
        assert_eq!(p.input_cost(1_000_000), 1.0);
        assert_eq!(p.long, None);
    }
}
