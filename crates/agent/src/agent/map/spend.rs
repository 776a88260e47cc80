//! The caps of a map run (`--max-requests`, `--max-tokens`, `--max-cost`,
//! or the config's `[budget]`), shared by its workers: each request is
//! reserved before it is sent and settled with its usage when it is
//! answered. The check is `agent::budget`'s, the same as a one-shot run's,
//! over what the run has spent with the requests still in flight counted
//! as made, each at least the last answered prompt's tokens (and their
//! input price): with `-j` requests in flight the run cannot know their
//! size, so it assumes the least. Once a cap is reached it stays reached:
//! no later record is sent, each is written as not done (its line carries
//! `error` of the cap's type and `_failed_key`, so a rerun with `--output`
//! sends it), and the run's `result` names the cap with exit 11.

use std::sync::Mutex;

use crate::agent::budget::Budget;
use crate::agent::outcome::{Failure, Stats};
use crate::provider::Usage;

/// The cap that stopped a run: its `error.type` and message.
pub type Capped = (&'static str, String);

/// What a map run has spent, against its caps.
pub struct Spend {
    budget: Budget,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    stats: Stats,
    in_flight: u64,
    capped: Option<Capped>,
}

impl Spend {
    pub fn new(budget: Budget) -> Spend {
        Spend {
            budget,
            state: Mutex::new(State::default()),
        }
    }

    /// Whether one more request may be sent; `Err` names the cap (then
    /// and for every later request).
    pub fn reserve(&self) -> Result<(), Capped> {
        let mut s = self.state.lock().expect("no panics holding it");
        if let Some(c) = &s.capped {
            return Err(c.clone());
        }
        let b = &self.budget;
        if b.max_requests.is_none() && b.max_tokens.is_none() && b.max_cost.is_none() {
            return Ok(());
        }
        let last = s.stats.last_prompt;
        let flying = s.in_flight;
        let mut seen = Stats {
            requests: s.stats.requests + flying,
            last_prompt: last,
            cost_usd: s.stats.cost_usd,
            ..Stats::default()
        };
        seen.usage.total = s.stats.usage.total + flying * last;
        if let Some(p) = b.price {
            *seen.cost_usd.get_or_insert(0.0) += flying as f64 * p.input_cost(last);
        }
        match b.check(&seen) {
            Ok(()) => {
                s.in_flight += 1;
                Ok(())
            }
            Err(Failure::Budget(kind, why)) => {
                let c = (
                    kind,
                    why.replacen("stopped before request", "not sent: request", 1),
                );
                s.capped = Some(c.clone());
                Err(c)
            }
            Err(other) => unreachable!("a budget check fails only on a cap: {other:?}"),
        }
    }

    /// A reserved request answered (with its usage) or failed (none).
    pub fn settle(&self, usage: Option<Usage>) {
        let mut s = self.state.lock().expect("no panics holding it");
        s.in_flight = s.in_flight.saturating_sub(1);
        s.stats.requests += 1;
        if let Some(u) = usage {
            s.stats.usage.add(u);
            s.stats.last_prompt = s.stats.last_prompt.max(u.prompt);
            if let Some(p) = self.budget.price {
                *s.stats.cost_usd.get_or_insert(0.0) += p.cost(&u);
            }
        }
    }

    /// The cap that stopped the run, if one did.
    pub fn capped(&self) -> Option<Capped> {
        self.state
            .lock()
            .expect("no panics holding it")
            .capped
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(prompt: u64, out: u64) -> Usage {
        Usage {
            prompt,
            candidates: out,
            total: prompt + out,
            ..Usage::default()
        }
    }

    #[test]
    fn requests_in_flight_count_and_a_reached_cap_stays_reached() {
        let s = Spend::new(Budget {
            max_requests: Some(2),
            ..Budget::default()
        });
        assert!(s.reserve().is_ok());
        assert!(s.reserve().is_ok());
        // Two in flight: a third would pass the cap.
        assert_eq!(s.reserve().unwrap_err().0, "max_requests");
        s.settle(Some(usage(10, 2)));
        assert_eq!(s.reserve().unwrap_err().0, "max_requests");
        assert_eq!(s.capped().unwrap().0, "max_requests");
    }

    #[test]
    fn tokens_count_the_least_a_request_in_flight_will_take() {
        let s = Spend::new(Budget {
            max_tokens: Some(30),
            ..Budget::default()
        });
        assert!(s.reserve().is_ok());
        s.settle(Some(usage(10, 2)));
        // 12 used; one more (at least 10) fits, two in flight do not.
        assert!(s.reserve().is_ok());
        assert_eq!(s.reserve().unwrap_err().0, "max_tokens");
        let none = Spend::new(Budget::default());
        for _ in 0..100 {
            assert!(none.reserve().is_ok());
        }
        assert!(none.capped().is_none());
    }
}
