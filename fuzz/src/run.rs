//! The runner: feeds a target `inputs` generated inputs, each under `catch_unwind`, timing
//! each one; counts panics and inputs over the target's time bound, and keeps the slowest
//! input (its number reproduces it: the generators are seeded).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use crate::draw::Draw;

/// Microsecond buckets of the latency histogram, the last one open-ended.
const BUCKETS_US: usize = 100_000;
/// Runs of an input that took longer than the bound once; its fastest counts.
const RERUNS: usize = 5;

/// What a run found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The target's name.
    pub target: &'static str,
    /// Inputs run.
    pub inputs: u64,
    /// Inputs that panicked: their numbers (the first 20) and their count.
    pub panics: Vec<u64>,
    /// Panics in all.
    pub panic_count: u64,
    /// Inputs whose fastest run took longer than the bound.
    pub over_bound: u64,
    /// Inputs run again because their first run took longer than the bound.
    pub rerun: u64,
    /// The bound.
    pub bound: Duration,
    /// The slowest input: its time, number and a short excerpt.
    pub slowest: (Duration, u64, String),
    /// Median and 99th percentile, to the microsecond.
    pub p50: Duration,
    /// The 99th percentile.
    pub p99: Duration,
    /// Wall time of the whole run.
    pub elapsed: Duration,
}

impl Report {
    /// Whether the run found nothing: no panic and no input over the bound.
    pub fn clean(&self) -> bool {
        self.panic_count == 0 && self.over_bound == 0
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (took, index, excerpt) = &self.slowest;
        write!(
            f,
            "{}: {} inputs in {:.1?} ({:.0}/s); panics {}; over {:?}: {} (run again: {}); \
             p50 {:?} p99 {:?}; slowest #{index} {took:.2?}: {excerpt}",
            self.target,
            self.inputs,
            self.elapsed,
            self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9),
            self.panic_count,
            self.bound,
            self.over_bound,
            self.rerun,
            self.p50,
            self.p99,
        )
    }
}

/// A fuzz target: how input `draw` is made, and what is done with it.
pub trait Target {
    /// One input.
    type Input;
    /// The target's name.
    fn name(&self) -> &'static str;
    /// The longest any one input may take.
    fn bound(&self) -> Duration;
    /// Input number `index`'s input.
    fn input(&self, draw: &mut Draw) -> Self::Input;
    /// Runs the code under test on `input`.
    fn run(&self, input: &Self::Input);
    /// A short view of `input`, for the report.
    fn describe(&self, input: &Self::Input) -> String;
}

/// Runs `inputs` inputs of `target` under `seed`, panics caught and hidden.
pub fn run<T: Target>(target: &T, seed: u64, inputs: u64) -> Report {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut histogram = vec![0u64; BUCKETS_US + 1];
    let mut report = Report {
        target: target.name(),
        inputs,
        panics: Vec::new(),
        panic_count: 0,
        over_bound: 0,
        rerun: 0,
        bound: target.bound(),
        slowest: (Duration::ZERO, 0, String::new()),
        p50: Duration::ZERO,
        p99: Duration::ZERO,
        elapsed: Duration::ZERO,
    };
    let began = Instant::now();
    for index in 0..inputs {
        let input = target.input(&mut Draw::new(seed, index));
        let start = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| target.run(&input)));
        let mut took = start.elapsed();
        if took > report.bound && outcome.is_ok() {
            // Over the bound once: the fastest of a few more runs says whether the input is
            // slow or the machine was busy (which only ever adds time).
            report.rerun += 1;
            took = took.min(fastest_of(target, &input, RERUNS));
        }
        histogram[(took.as_micros() as usize).min(BUCKETS_US)] += 1;
        record(&mut report, target, (index, &input, took), outcome.is_err());
    }
    report.elapsed = began.elapsed();
    std::panic::set_hook(hook);
    report.p50 = percentile(&histogram, inputs, 0.5);
    report.p99 = percentile(&histogram, inputs, 0.99);
    report
}

fn record<T: Target>(
    report: &mut Report,
    target: &T,
    (index, input, took): (u64, &T::Input, Duration),
    panicked: bool,
) {
    if panicked {
        report.panic_count += 1;
        if report.panics.len() < 20 {
            report.panics.push(index);
        }
    }
    if took > report.bound {
        report.over_bound += 1;
    }
    if took > report.slowest.0 {
        report.slowest = (took, index, target.describe(input));
    }
}

/// How long one run of `input` takes.
fn timed<T: Target>(target: &T, input: &T::Input) -> Duration {
    let start = Instant::now();
    target.run(input);
    start.elapsed()
}

fn fastest_of<T: Target>(target: &T, input: &T::Input, times: usize) -> Duration {
    (0..times)
        .map(|_| timed(target, input))
        .min()
        .unwrap_or_default()
}

/// Input `index` of `seed` run `times` times: its fastest and slowest time, to tell a slow
/// input from a busy machine.
pub fn replay<T: Target>(target: &T, seed: u64, index: u64, times: usize) -> (Duration, Duration) {
    let input = target.input(&mut Draw::new(seed, index));
    let took: Vec<Duration> = (0..times.max(1)).map(|_| timed(target, &input)).collect();
    let fastest = took.iter().min().copied().unwrap_or_default();
    let slowest = took.iter().max().copied().unwrap_or_default();
    (fastest, slowest)
}

/// The `q` quantile of a microsecond histogram of `count` samples.
fn percentile(histogram: &[u64], count: u64, q: f64) -> Duration {
    let wanted = ((count as f64) * q).ceil().max(1.0) as u64;
    let mut seen = 0;
    for (micros, n) in histogram.iter().enumerate() {
        seen += n;
        if seen >= wanted {
            return Duration::from_micros(micros as u64);
        }
    }
    Duration::from_micros(BUCKETS_US as u64)
}

/// `text` cut to 80 characters, for a report.
pub fn excerpt(text: &str) -> String {
    let cut: String = text.chars().take(80).collect();
    format!("{cut:?} ({} bytes)", text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Panicky;

    impl Target for Panicky {
        type Input = u64;
        fn name(&self) -> &'static str {
            "panicky"
        }
        fn bound(&self) -> Duration {
            Duration::from_secs(1)
        }
        fn input(&self, draw: &mut Draw) -> u64 {
            draw.bits() % 10
        }
        fn run(&self, input: &u64) {
            assert!(*input != 3, "three");
        }
        fn describe(&self, input: &u64) -> String {
            input.to_string()
        }
    }

    #[test]
    fn panics_are_caught_counted_and_numbered() {
        let report = run(&Panicky, 1, 1_000);
        assert!(
            report.panic_count > 50 && report.panic_count < 150,
            "{report}"
        );
        let first = report.panics[0];
        assert_eq!(
            Panicky.input(&mut Draw::new(1, first)),
            3,
            "reproduced by number"
        );
        assert!(!report.clean());
    }

    #[test]
    fn percentiles_read_the_histogram() {
        let mut histogram = vec![0u64; 10];
        histogram[1] = 50;
        histogram[7] = 49;
        histogram[9] = 1;
        let us = Duration::from_micros;
        assert_eq!(percentile(&histogram, 100, 0.5), us(1));
        assert_eq!(percentile(&histogram, 100, 0.99), us(7));
        assert_eq!(percentile(&histogram, 100, 1.0), us(9));
    }
}
