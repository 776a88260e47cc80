//! Caps on what a run may spend (`--max-requests`, `--max-tokens`): the
//! run stops before the request that would pass one, with exit code
//! [`super::exit::BUDGET`] and a `result` whose `error.type` names the cap
//! (`max_requests`, `max_tokens`). Requests and tokens are those of the
//! run's turns as the API reported them (`usageMetadata`'s total, the same
//! as `result.stats`); since the next request's size is
//! known only once it is answered, a request is not made when the tokens
//! so far plus the last request's prompt (which the next one resends, at
//! least) would pass the cap.

use super::outcome::{Failure, Stats};

/// The caps of a run; `None`: no cap.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    pub max_requests: Option<u64>,
    pub max_tokens: Option<u64>,
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
        Ok(())
    }
}
