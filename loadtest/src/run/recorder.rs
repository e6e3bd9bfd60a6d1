//! What a run measures: one latency histogram per step (hdrhistogram, microseconds, three
//! significant digits, so p99.9 of millions of samples costs a few kilobytes), and the
//! errors the server sent, by code. Each simulated user records into its own `Recorder`;
//! they are merged at the end, so recording takes no lock.

use std::collections::BTreeMap;
use std::time::Duration;

use hdrhistogram::Histogram;
use serde_json::{Value, json};

/// A measured step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    /// WebSocket handshake.
    Connect,
    /// `session.start` → the first `question`.
    SessionStart,
    /// An answer sent → the next `question` (or `session.completed`).
    AnswerToNext,
    /// `session.resume` → `session.resumed`.
    Resume,
    /// Losing a node (a dead socket noticed) → the session resumed on another.
    Failover,
    /// The end of a spoken answer (`audio.commit` sent) → its `transcript.final`.
    SpeechToFinal,
}

impl Step {
    /// Every step, in report order.
    pub const ALL: [Step; 6] = [
        Step::Connect,
        Step::SessionStart,
        Step::AnswerToNext,
        Step::Resume,
        Step::Failover,
        Step::SpeechToFinal,
    ];

    /// The step's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Step::Connect => "connect",
            Step::SessionStart => "session_start",
            Step::AnswerToNext => "answer_to_next_question",
            Step::Resume => "resume",
            Step::Failover => "failover_resume",
            Step::SpeechToFinal => "end_of_speech_to_final",
        }
    }
}

/// Latencies above this (one hour) are clamped; nothing in a run waits that long.
const HIGHEST_MICROS: u64 = 3_600_000_000;

/// Histograms and error counts of one user, or of a whole run once merged.
#[derive(Debug, Clone)]
pub struct Recorder {
    histograms: BTreeMap<Step, Histogram<u64>>,
    errors: BTreeMap<String, u64>,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder::new()
    }
}

impl Recorder {
    /// Empty histograms for every step.
    pub fn new() -> Recorder {
        let histograms = Step::ALL
            .iter()
            .filter_map(|step| {
                // These bounds are valid constants, so this never returns an error.
                let histogram = Histogram::new_with_bounds(1, HIGHEST_MICROS, 3).ok()?;
                Some((*step, histogram))
            })
            .collect();
        Recorder {
            histograms,
            errors: BTreeMap::new(),
        }
    }

    /// Records one latency of `step`.
    pub fn record(&mut self, step: Step, took: Duration) {
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        if let Some(histogram) = self.histograms.get_mut(&step) {
            histogram.saturating_record(micros.clamp(1, HIGHEST_MICROS));
        }
    }

    /// Counts one error event (or client-side failure) with `code`.
    pub fn error(&mut self, code: &str) {
        *self.errors.entry(code.to_owned()).or_default() += 1;
    }

    /// Adds `other`'s samples and errors to this recorder.
    pub fn merge(&mut self, other: &Recorder) {
        for (step, theirs) in &other.histograms {
            if let Some(ours) = self.histograms.get_mut(step) {
                // ignore: both histograms have the same bounds, so adding cannot fail.
                let _ = ours.add(theirs);
            }
        }
        for (code, count) in &other.errors {
            *self.errors.entry(code.clone()).or_default() += count;
        }
    }

    /// Samples recorded for `step`.
    pub fn count(&self, step: Step) -> u64 {
        self.histograms.get(&step).map_or(0, Histogram::len)
    }

    /// The `quantile` (0 to 1) of `step`, in milliseconds; 0 when empty.
    pub fn quantile_ms(&self, step: Step, quantile: f64) -> f64 {
        self.histograms
            .get(&step)
            .filter(|histogram| !histogram.is_empty())
            .map_or(0.0, |h| h.value_at_quantile(quantile) as f64 / 1000.0)
    }

    /// Errors by code.
    pub fn errors(&self) -> &BTreeMap<String, u64> {
        &self.errors
    }

    /// Every step's count and p50, p90, p99, p99.9 and max in ms, and the errors.
    pub fn to_json(&self) -> Value {
        let steps: serde_json::Map<String, Value> = Step::ALL
            .iter()
            .map(|step| {
                let q = |quantile| round3(self.quantile_ms(*step, quantile));
                let summary = json!({"n": self.count(*step), "p50_ms": q(0.5), "p90_ms": q(0.9),
                                     "p95_ms": q(0.95), "p99_ms": q(0.99), "p999_ms": q(0.999),
                                     "max_ms": q(1.0)});
                (step.name().to_owned(), summary)
            })
            .collect();
        json!({"latency": steps, "errors": self.errors})
    }

    /// One line per step with samples, for the terminal.
    pub fn lines(&self) -> Vec<String> {
        Step::ALL
            .iter()
            .filter(|step| self.count(**step) > 0)
            .map(|step| {
                let q = |quantile| self.quantile_ms(*step, quantile);
                format!(
                    "{:<24} n={:<8} p50 {:>8.2} ms  p90 {:>8.2}  p99 {:>8.2}  p99.9 {:>8.2}  max {:>8.2}",
                    step.name(),
                    self.count(*step),
                    q(0.5),
                    q(0.9),
                    q(0.99),
                    q(0.999),
                    q(1.0)
                )
            })
            .collect()
    }
}

fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(millis: u64) -> Duration {
        Duration::from_millis(millis)
    }

    #[test]
    fn percentiles_come_from_every_sample() {
        let mut recorder = Recorder::new();
        for millis in 1..=1000 {
            recorder.record(Step::AnswerToNext, ms(millis));
        }
        assert_eq!(recorder.count(Step::AnswerToNext), 1000);
        let near = |quantile: f64, expected: f64| {
            let got = recorder.quantile_ms(Step::AnswerToNext, quantile);
            assert!(
                (got - expected).abs() <= expected * 0.002,
                "{quantile}: {got}"
            );
        };
        near(0.5, 500.0);
        near(0.99, 990.0);
        near(1.0, 1000.0);
        assert_eq!(recorder.quantile_ms(Step::Resume, 0.99), 0.0, "empty");
    }

    #[test]
    fn merging_adds_samples_and_errors() {
        let mut total = Recorder::new();
        for user in 0..3 {
            let mut one = Recorder::new();
            one.record(Step::Connect, ms(10 * (user + 1)));
            one.error("session_paused");
            total.merge(&one);
        }
        assert_eq!(total.count(Step::Connect), 3);
        assert_eq!(total.errors().get("session_paused"), Some(&3));
        let report = total.to_json();
        assert_eq!(report["latency"]["connect"]["n"], 3);
        assert_eq!(report["errors"]["session_paused"], 3);
        assert!(
            (report["latency"]["connect"]["max_ms"]
                .as_f64()
                .unwrap_or(0.0)
                - 30.0)
                .abs()
                < 0.1
        );
    }

    #[test]
    fn absurd_latencies_are_clamped_not_lost() {
        let mut recorder = Recorder::new();
        recorder.record(Step::Resume, Duration::from_secs(100_000));
        recorder.record(Step::Resume, Duration::ZERO);
        assert_eq!(recorder.count(Step::Resume), 2);
        assert_eq!(recorder.lines().len(), 1);
    }
}
