//! Latency samples and their percentiles, printed as report lines, optionally as ratios to a
//! baseline measured in the same run.

use std::time::Duration;

/// `value` rounded to three decimals, for reports.
pub fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

/// Nearest-rank percentile `p` (0–100) of ascending `sorted`; zero when empty.
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * (sorted.len() as f64 - 1.0)).round() as usize;
    sorted.get(rank).copied().unwrap_or_default()
}

/// `samples`, sorted.
pub fn sorted(samples: &[Duration]) -> Vec<Duration> {
    let mut sorted = samples.to_vec();
    sorted.sort();
    sorted
}

/// The load tester's line: p50, p90 and p99, each also as a ratio to the baseline's p50.
pub fn report(label: &str, samples: &[Duration], baseline: Option<&[Duration]>) {
    let sorted = sorted(samples);
    let base50 = baseline.map(|b| percentile(&self::sorted(b), 50.0));
    let line: Vec<String> = [50.0, 90.0, 99.0]
        .iter()
        .map(|&p| {
            let value = percentile(&sorted, p);
            match base50 {
                Some(base) if !base.is_zero() => format!(
                    "p{p:.0} {value:.2?} ({:.1}x)",
                    value.as_secs_f64() / base.as_secs_f64()
                ),
                _ => format!("p{p:.0} {value:.2?}"),
            }
        })
        .collect();
    println!("{label:<34} n={:<6} {}", samples.len(), line.join("  "));
}

/// The percentiles a benchmark reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Summary {
    /// Samples.
    pub n: usize,
    /// Median.
    pub p50: Duration,
    /// 90th percentile.
    pub p90: Duration,
    /// 99th percentile.
    pub p99: Duration,
    /// 99.9th percentile.
    pub p999: Duration,
    /// Slowest sample.
    pub max: Duration,
}

impl Summary {
    /// The percentiles of `samples`.
    pub fn of(samples: &[Duration]) -> Summary {
        let sorted = sorted(samples);
        Summary {
            n: sorted.len(),
            p50: percentile(&sorted, 50.0),
            p90: percentile(&sorted, 90.0),
            p99: percentile(&sorted, 99.0),
            p999: percentile(&sorted, 99.9),
            max: sorted.last().copied().unwrap_or_default(),
        }
    }

    /// One line: `label n=… p50 … p90 … p99 … p99.9 … max …`.
    pub fn line(&self, label: &str) -> String {
        format!(
            "{label:<30} n={:<6} p50 {:.2?}  p90 {:.2?}  p99 {:.2?}  p99.9 {:.2?}  max {:.2?}",
            self.n, self.p50, self.p90, self.p99, self.p999, self.max
        )
    }

    /// One line of ratios to `baseline`, percentile by percentile.
    pub fn ratios(&self, label: &str, baseline: &Summary) -> String {
        let ratio = |a: Duration, b: Duration| match b.is_zero() {
            true => "n/a".to_owned(),
            false => format!("{:.1}x", a.as_secs_f64() / b.as_secs_f64()),
        };
        format!(
            "{label:<30} p50 {}  p90 {}  p99 {}  p99.9 {}  max {}",
            ratio(self.p50, baseline.p50),
            ratio(self.p90, baseline.p90),
            ratio(self.p99, baseline.p99),
            ratio(self.p999, baseline.p999),
            ratio(self.max, baseline.max),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let samples: Vec<Duration> = (1..=100).rev().map(ms).collect();
        let summary = Summary::of(&samples);
        assert_eq!(summary.n, 100);
        assert_eq!(summary.p50, ms(51));
        assert_eq!(summary.p99, ms(99));
        assert_eq!(summary.max, ms(100));
    }

    #[test]
    fn no_samples_give_zeroes() {
        assert_eq!(Summary::of(&[]), Summary::default());
        assert!(
            Summary::default()
                .ratios("x", &Summary::default())
                .contains("n/a")
        );
    }
}
