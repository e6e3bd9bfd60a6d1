//! How much decoding time partial transcripts may take. A partial is a preview nobody waits
//! for, yet each one costs a full encoder window (as much as a final), and whisper.cpp cannot
//! abort an encoder once started: a running partial delays any final that arrives behind it.
//! So partials get a share of the pool's decoding time, kept as a token bucket of seconds:
//! credit accrues at `share × workers` seconds per second, up to one second per worker, and
//! each finished partial is charged what it actually took. A partial starts only with credit
//! in hand; the bucket may go below zero, and then partials wait until it refills.
//!
//! Pure: the caller passes the clock in.

use std::time::{Duration, Instant};

/// The default share of decoding time for partials. With two or more decoding threads it kept
/// previews live while finals' p95 stayed under a second, up to 12 sessions on 2 cores; with a
/// single thread, previews delay finals at any share, and 0 is the setting to use (both
/// measured in docs/benchmarks.md).
pub const DEFAULT_PARTIAL_SHARE: f64 = 0.25;

/// A token bucket of partial decoding time.
#[derive(Debug, Clone)]
pub struct PartialBudget {
    /// Seconds of partial decoding earned per wall-clock second.
    rate: f64,
    /// The most credit held, in seconds.
    burst: f64,
    /// Credit in seconds; below zero after an expensive partial.
    credit: f64,
    refilled: Instant,
}

impl PartialBudget {
    /// A full bucket for `workers` threads giving partials `share` (0 to 1) of their time.
    pub fn new(share: f64, workers: usize, now: Instant) -> PartialBudget {
        let share = if share.is_finite() {
            share.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let workers = workers.max(1) as f64;
        let burst = if share > 0.0 { workers } else { 0.0 };
        PartialBudget {
            rate: share * workers,
            burst,
            credit: burst,
            refilled: now,
        }
    }

    /// Partials never run (a share of zero).
    pub fn is_off(&self) -> bool {
        self.rate == 0.0
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.refilled).as_secs_f64();
        self.credit = (self.credit + elapsed * self.rate).min(self.burst);
        self.refilled = now;
    }

    /// Whether a partial may start now.
    pub fn allows(&mut self, now: Instant) -> bool {
        if self.is_off() {
            return false;
        }
        self.refill(now);
        self.credit > 0.0
    }

    /// A partial took `took` to decode (or to be aborted).
    pub fn charge(&mut self, took: Duration, now: Instant) {
        self.refill(now);
        self.credit -= took.as_secs_f64();
    }

    /// Credit held now, in seconds (for logs and tests).
    pub fn credit(&mut self, now: Instant) -> f64 {
        self.refill(now);
        self.credit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn a_full_bucket_allows_partials_until_spent() {
        let start = Instant::now();
        let mut budget = PartialBudget::new(0.25, 1, start);
        assert!(budget.allows(start));
        budget.charge(ms(600), start);
        assert!(budget.allows(start), "0.4 s of credit left");
        budget.charge(ms(600), start);
        assert!(!budget.allows(start), "overdrawn by 0.2 s");
    }

    #[test]
    fn credit_refills_at_the_share_of_each_worker_and_is_capped() {
        let start = Instant::now();
        let mut budget = PartialBudget::new(0.25, 2, start);
        budget.charge(ms(2_500), start);
        assert!(!budget.allows(start + ms(900)), "-0.5 + 0.45 s");
        assert!(budget.allows(start + ms(1_100)), "-0.5 + 0.55 s");
        let later = start + Duration::from_secs(60);
        assert!(
            (budget.credit(later) - 2.0).abs() < 1e-9,
            "one second per worker"
        );
    }

    #[test]
    fn over_time_partials_get_their_share_and_no_more() {
        let start = Instant::now();
        let mut budget = PartialBudget::new(0.25, 1, start);
        let mut decoding = Duration::ZERO;
        // Ask for a 400 ms partial every 100 ms for 100 s, as many busy sessions would.
        for tick in 0..1_000u64 {
            let now = start + ms(tick * 100);
            if budget.allows(now) {
                budget.charge(ms(400), now);
                decoding += ms(400);
            }
        }
        let share = decoding.as_secs_f64() / 100.0;
        assert!((0.24..=0.27).contains(&share), "share {share}");
    }

    #[test]
    fn a_share_of_zero_or_nonsense_turns_partials_off() {
        let now = Instant::now();
        for share in [0.0, -1.0, f64::NAN] {
            let mut budget = PartialBudget::new(share, 4, now);
            assert!(budget.is_off());
            assert!(!budget.allows(now + Duration::from_secs(10)));
        }
        assert!(!PartialBudget::new(7.0, 1, now).is_off(), "clamped to 1");
    }
}
