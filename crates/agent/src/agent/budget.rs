//! Caps on what a run may spend (`--max-requests`, `--max-tokens`,
//! `--max-cost`): the
//! run stops before the request that would pass one, with exit code
//! [`super::exit::BUDGET`] and a `result` whose `error.type` names the cap
//! (`max_requests`, `max_tokens`). Requests and tokens are those of the
//! run's turns as the API reported them (`usageMetadata`'s total, the same
//! as `result.stats`); since the next request's size is
//! known only once it is answered, a request is not made when the tokens
//! so far plus the last request's prompt (which the next one resends, at
//! least) would pass the cap. Cost is the same with prices
//! (`super::price`): what the answered requests cost, plus the last
//! prompt's tokens at the input price.
//!
//! A request is priced by the model that answered it (`modelVersion`, in
//! [`Stats::model_version`]) when the table or the config knows that
//! model, else by the model asked for, else not at all: a server may answer
//! with another version than the one named, and its price is the one billed.

use super::outcome::{Failure, Stats};

/// The caps of a run; `None`: no cap.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Budget {
    pub max_requests: Option<u64>,
    pub max_tokens: Option<u64>,
    /// `--max-cost`, in US dollars; the front refuses it without a price.
    pub max_cost: Option<f64>,
    /// The model's price (`super::price`), whatever the caps: the run's
    /// cost in `result.stats` and `--verbose`.
    pub price: Option<super::price::Price>,
    /// The config's `[prices.MODEL]`, to price the model that answered
    /// when it is not the one asked for.
    pub overrides: std::sync::Arc<std::collections::BTreeMap<String, crate::config::prices::Rates>>,
}

impl Budget {
    /// The price of a request that `version` answered: that model's when
    /// it has one, else the requested model's; `None`: unknown.
    pub fn price_for(&self, version: Option<&str>) -> Option<super::price::Price> {
        version
            .and_then(|v| super::price::lookup(v, &self.overrides))
            .or(self.price)
    }

    /// Whether the next request may be made, given what the run has
    /// spent (and its last request's prompt tokens).
    pub fn check(&self, stats: &Stats) -> Result<(), Failure> {
        let last_prompt = stats.last_prompt;
        if let Some(max) = self.max_requests
            && stats.requests >= max
        {
            return Err(Failure::Budget(
                "max_requests",
                format!(
                    "stopped before request {}: --max-requests {max} reached",
                    stats.requests + 1
                ),
            ));
        }
        if let Some(max) = self.max_tokens {
            let used = stats.usage.total;
            if used.saturating_add(last_prompt) > max || used >= max {
                return Err(Failure::Budget(
                    "max_tokens",
                    format!(
                        "stopped before request {}: {used} tokens used, and the next request \
                         (at least {last_prompt} more) would pass --max-tokens {max}",
                        stats.requests + 1
                    ),
                ));
            }
        }
        self.check_cost(stats)
    }

    /// `--max-cost`: the cost so far plus the next request's input, at
    /// least the last one's prompt.
    fn check_cost(&self, stats: &Stats) -> Result<(), Failure> {
        let price = self.price_for(stats.model_version.as_deref());
        let (Some(max), Some(price)) = (self.max_cost, price) else {
            return Ok(());
        };
        let spent = stats.cost_usd.unwrap_or(0.0);
        let next = price.input_cost(stats.last_prompt);
        if spent >= max || spent + next > max {
            return Err(Failure::Budget(
                "max_cost",
                format!(
                    "stopped before request {}: ${spent:.6} spent, and the next request \
                     (at least ${next:.6} more) would pass --max-cost {max}",
                    stats.requests + 1
                ),
            ));
        }
        Ok(())
    }
}
