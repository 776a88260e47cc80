//! How long to wait before another attempt: the server's own hint
//! (`RetryInfo.retryDelay`, `Retry-After`) when it gives one, else
//! exponential backoff with jitter; bounded by a number of retries and a
//! total waiting budget (`--retries`, `--max-wait`).

use std::time::Duration;

#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub retries: u32,
    /// First backoff step; doubles per attempt.
    pub base: Duration,
    /// No single backoff step is longer (server hints may be).
    pub max_step: Duration,
    /// Total waiting allowed over all retries of one call.
    pub max_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            retries: 5,
            base: Duration::from_secs(1),
            max_step: Duration::from_secs(30),
            max_wait: Duration::from_secs(120),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `attempt` (1-based), or `None` to give
    /// up: out of retries, or the wait would overrun the budget.
    pub fn delay(
        &self,
        attempt: u32,
        hint: Option<Duration>,
        waited: Duration,
    ) -> Option<Duration> {
        if attempt > self.retries {
            return None;
        }
        let d = match hint {
            Some(h) => h,
            None => {
                let exp = self
                    .base
                    .saturating_mul(1u32 << attempt.saturating_sub(1).min(20))
                    .min(self.max_step);
                // Full jitter on the upper half: spreads clients that failed
                // together without ever waiting less than half the step.
                let half = exp / 2;
                half + half.mul_f64(jitter())
            }
        };
        let total = waited.checked_add(d)?;
        (total <= self.max_wait).then_some(d)
    }
}

/// A number in [0, 1) that differs between processes and calls; no RNG
/// crate for one coin toss.
fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos(),
    );
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_win_and_budget_bounds() {
        let p = RetryPolicy::default();
        let s = Duration::from_secs;
        assert_eq!(p.delay(1, Some(s(26)), s(0)), Some(s(26)));
        assert_eq!(p.delay(1, Some(s(200)), s(0)), None);
        assert_eq!(p.delay(6, Some(s(1)), s(0)), None);
        assert_eq!(p.delay(2, Some(s(10)), s(115)), None);
    }

    #[test]
    fn huge_hints_and_attempt_zero_do_not_overflow() {
        let p = RetryPolicy::default();
        let max = Duration::from_secs(u64::MAX);
        assert_eq!(p.delay(1, Some(max), Duration::from_secs(1)), None);
        assert_eq!(p.delay(1, Some(Duration::from_secs(1)), max), None);
        assert!(p.delay(0, None, Duration::ZERO).is_some());
    }

    #[test]
    fn backoff_doubles_with_jitter() {
        let p = RetryPolicy::default();
        for attempt in 1..=5 {
            let d = p.delay(attempt, None, Duration::ZERO).unwrap();
            let step = Duration::from_secs(1 << (attempt - 1)).min(p.max_step);
            assert!(d >= step / 2 && d <= step, "{attempt}: {d:?}");
        }
    }

    #[test]
    fn jitter_spreads_the_waits() {
        let p = RetryPolicy::default();
        let waits: std::collections::BTreeSet<Duration> = (0..20)
            .map(|_| p.delay(3, None, Duration::ZERO).unwrap())
            .collect();
        // Without jitter every wait would be the same 4 s step.
        assert!(waits.len() > 10, "{waits:?}");
    }
}
