//! Pieces of the report: p50/p95 of latency samples, failure counts, and their JSON and
//! summary-line forms.

use std::fmt::Display;
use std::time::Duration;

use serde_json::{Value, json};

use crate::stats::{percentile, sorted};

/// The percentiles the voice report gives.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Percentiles {
    /// Samples.
    pub n: usize,
    /// Median.
    pub p50: Duration,
    /// 95th percentile.
    pub p95: Duration,
    /// Slowest.
    pub max: Duration,
}

impl Percentiles {
    /// The percentiles of `samples` (nearest rank).
    pub fn of(samples: &[Duration]) -> Percentiles {
        let sorted = sorted(samples);
        Percentiles {
            n: sorted.len(),
            p50: percentile(&sorted, 50.0),
            p95: percentile(&sorted, 95.0),
            max: sorted.last().copied().unwrap_or_default(),
        }
    }

    /// As JSON, in milliseconds.
    pub fn to_json(&self) -> Value {
        json!({"n": self.n, "p50_ms": ms(self.p50), "p95_ms": ms(self.p95), "max_ms": ms(self.max)})
    }

    /// `n=… p50 … p95 … max …`.
    pub fn line(&self) -> String {
        format!(
            "n={:<4} p50 {:>7.0} ms  p95 {:>7.0} ms  max {:>7.0} ms",
            self.n,
            ms(self.p50),
            ms(self.p95),
            ms(self.max)
        )
    }
}

/// Milliseconds, with a fraction.
pub fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// `samples` each less `by` (never below zero).
pub fn minus(samples: &[Duration], by: Duration) -> Vec<Duration> {
    samples.iter().map(|s| s.saturating_sub(by)).collect()
}

/// Failed steps: how many, and the first one's message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Failures {
    /// How many.
    pub count: usize,
    /// The first.
    pub first: Option<String>,
}

impl Failures {
    /// Counts one.
    pub fn record(&mut self, err: impl Display) {
        self.count += 1;
        self.first.get_or_insert_with(|| err.to_string());
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: Failures) {
        self.count += other.count;
        if self.first.is_none() {
            self.first = other.first;
        }
    }

    /// As JSON.
    pub fn to_json(&self) -> Value {
        json!({"count": self.count, "first": self.first})
    }
}

/// `a / b`, or `None` when `b` is zero.
pub fn ratio(a: f64, b: f64) -> Option<f64> {
    (b > 0.0).then(|| a / b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms_of(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let samples: Vec<Duration> = (1..=20).map(ms_of).collect();
        let p = Percentiles::of(&samples);
        assert_eq!(
            (p.n, p.p50, p.p95, p.max),
            (20, ms_of(11), ms_of(19), ms_of(20))
        );
        assert_eq!(Percentiles::of(&[]), Percentiles::default());
    }

    #[test]
    fn failures_keep_the_first_message() {
        let mut failures = Failures::default();
        failures.record("one");
        failures.record("two");
        let mut more = Failures::default();
        more.record("three");
        failures.merge(more);
        assert_eq!(failures.count, 3);
        assert_eq!(failures.first.as_deref(), Some("one"));
    }

    #[test]
    fn subtraction_and_ratios_stay_defined() {
        assert_eq!(
            minus(&[ms_of(100), ms_of(5000)], ms_of(3000)),
            vec![ms_of(0), ms_of(2000)]
        );
        assert_eq!(ratio(1.0, 0.0), None);
        assert_eq!(ratio(1.0, 2.0), Some(0.5));
    }
}
