//! The window of a map run's requests in flight (AIMD): `jobs` at most,
//! halved once a window on a retry the server asked for (429/503), grown
//! by one a window of successes, `--rate N` spacing the starts; and the
//! call observer that tells the window of each retry.

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::provider::{client::Observer, turn::Delta};

/// How many requests may be in flight: `jobs` at most, halved on a retry
/// the server asked for (429/503), grown by one a window of successes. A
/// request waiting between its attempts is not in flight. One halving a
/// window: the requests already in flight when the window was halved
/// were sent into the old one, so their refusals say nothing new (as TCP
/// halves once a round trip); without this a storm halved it to one at
/// once and the run crawled long after the storm.
pub(super) struct Gate {
    /// In flight, the window, and how many times it was halved.
    state: Mutex<(usize, f64, u64)>,
    open: Condvar,
    max: usize,
    /// With `--rate N`: the gap between two starts (60/N s), and when the
    /// next may start.
    pace: Option<(Duration, Mutex<Instant>)>,
}

impl Gate {
    pub(super) fn new(max: usize, per_minute: Option<u32>) -> Gate {
        let pace = per_minute
            .filter(|n| *n > 0)
            .map(|n| (Duration::from_secs(60) / n, Mutex::new(Instant::now())));
        Gate {
            state: Mutex::new((0, max as f64, 0)),
            open: Condvar::new(),
            max,
            pace,
        }
    }

    /// Takes a place, waiting for one; returns the window's halvings so
    /// far, which a refusal of this request then names.
    pub(super) fn enter(&self) -> u64 {
        let mut s = self.state.lock().expect("no panics holding it");
        while s.0 as f64 >= s.1.floor().max(1.0) {
            s = self.open.wait(s).expect("no panics holding it");
        }
        s.0 += 1;
        let since = s.2;
        drop(s);
        if let Some((gap, next)) = &self.pace {
            let wait = {
                let mut next = next.lock().expect("no panics holding it");
                let now = Instant::now();
                let start = (*next).max(now);
                *next = start + *gap;
                start - now
            };
            std::thread::sleep(wait);
        }
        since
    }

    pub(super) fn leave(&self, ok: bool) {
        let mut s = self.state.lock().expect("no panics holding it");
        s.0 -= 1;
        if ok {
            s.1 = (s.1 + 1.0 / s.1.max(1.0)).min(self.max as f64);
        }
        self.open.notify_all();
    }

    /// Halves the window for a request refused that entered after its
    /// last halving (`since`, what [`Gate::enter`] returned).
    fn slow_down(&self, since: u64) {
        let mut s = self.state.lock().expect("no panics holding it");
        if s.2 == since {
            s.1 = (s.1 / 2.0).max(1.0);
            s.2 += 1;
        }
    }

    /// A request waiting out a retry's delay gives its place back: held,
    /// the halved window was filled by sleepers, so after a 429 storm
    /// nothing new started until their (growing) delays ran out.
    fn pause(&self) {
        let mut s = self.state.lock().expect("no panics holding it");
        s.0 -= 1;
        self.open.notify_all();
    }
}

/// A call's observer: nothing shown; a retry slows the run down.
pub(super) struct Quiet<'a> {
    pub(super) gate: &'a Gate,
    /// Waiting out a retry's delay, its place given back.
    pub(super) away: bool,
    /// The window's halvings when this request (or its last attempt)
    /// entered.
    pub(super) since: u64,
}

impl Observer for Quiet<'_> {
    fn delta(&mut self, _d: &Delta) -> std::io::Result<()> {
        Ok(())
    }

    fn retry(&mut self, _attempt: u32, _delay: Duration, reason: &str) -> std::io::Result<()> {
        if reason.contains("429") || reason.contains("503") {
            self.gate.slow_down(self.since);
        }
        self.gate.pause();
        self.away = true;
        Ok(())
    }

    /// The retry's delay is over: its next attempt waits for a place.
    fn resume(&mut self) {
        self.since = self.gate.enter();
        self.away = false;
    }

    fn interrupted(&self) -> bool {
        crate::agent::signals::received().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_flight(g: &Gate) -> usize {
        g.state.lock().unwrap().0
    }

    #[test]
    fn a_request_waiting_to_retry_gives_its_place_back_until_it_tries_again() {
        let gate = Gate::new(2, None);
        gate.enter();
        let since = gate.enter();
        let mut obs = Quiet {
            gate: &gate,
            away: false,
            since,
        };
        obs.retry(1, Duration::ZERO, "HTTP 429 Too Many Requests")
            .unwrap();
        assert_eq!(in_flight(&gate), 1, "the waiting request is not in flight");
        assert!(obs.away);
        // The window was halved to one: the other request holds it.
        assert_eq!(gate.state.lock().unwrap().1, 1.0);
        gate.leave(true);
        // A new request takes a place; the retry then takes one back.
        gate.enter();
        gate.leave(true);
        obs.resume();
        assert!(!obs.away);
        assert_eq!(in_flight(&gate), 1);
        gate.leave(true);
        assert_eq!(in_flight(&gate), 0);
    }

    /// Request `since` refused for `reason`: the window after it.
    fn refused(gate: &Gate, since: u64, reason: &str) -> f64 {
        let mut obs = Quiet {
            gate,
            away: false,
            since,
        };
        obs.retry(1, Duration::ZERO, reason).unwrap();
        gate.state.lock().unwrap().1
    }

    #[test]
    fn a_window_is_halved_once_for_the_refusals_of_what_was_already_in_flight() {
        let gate = Gate::new(8, None);
        let sent: Vec<u64> = (0..8).map(|_| gate.enter()).collect();
        // All eight refused in one burst: one halving, not three.
        for (i, &since) in sent.iter().enumerate() {
            assert_eq!(
                refused(&gate, since, "HTTP 429 Too Many Requests"),
                4.0,
                "refusal {i}"
            );
        }
        // A request sent into the halved window and refused halves it again.
        let since = gate.enter();
        assert_eq!(refused(&gate, since, "HTTP 503 Service Unavailable"), 2.0);
        // A failure the server did not ask to slow for (a 500) halves nothing.
        let since = gate.enter();
        assert_eq!(refused(&gate, since, "HTTP 500 Internal Server Error"), 2.0);
    }
}
