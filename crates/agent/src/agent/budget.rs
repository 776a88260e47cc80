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

use super::outcome::{Failure, Stats};

/// The caps of a run; `None`: no cap.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Budget {
    pub max_requests: Option<u64>,
    pub max_tokens: Option<u64>,
    /// `--max-cost`, in US dollars; the front refuses it without a price.
    pub max_cost: Option<f64>,
    /// The model's price (`super::price`), whatever the caps: the run's
    /// cost in `result.stats` and `--verbose`.
    pub price: Option<super::price::Price>,
}

impl Budget {
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
        let (Some(max), Some(price)) = (self.max_cost, self.price) else {
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
