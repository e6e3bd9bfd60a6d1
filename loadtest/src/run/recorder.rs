//! What a run measures: one latency histogram per step (hdrhistogram, microseconds, three
//! significant digits), and the errors the server sent, by code. Each simulated user records
//! into its own `Recorder`, which keeps its latest samples as a short list (histograms are
//! made only when one fills, and at the merge); they are merged at the end, so recording
//! takes no lock.

use crate::stats::round3;
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
    /// An answer sent → the first `question.delta` of the next question, or the first
    /// `tutor.delta` of the next tutor turn (a model streaming its words; not measured
    /// otherwise).
    AnswerToFirstWord,
    /// An answer's `assessment` → the first word of the next primary question (its first
    /// `question.delta`, or the `question` when it came whole).
    AssessmentToPrimary,
    /// `session.resume` → `session.resumed`.
    Resume,
    /// The baseline: a protocol-level `ping` → `pong` on a connection of its own.
    Ping,
    /// Losing a node (a dead socket noticed) → the session resumed on another.
    Failover,
    /// The end of a spoken answer (`audio.commit` sent) → its `transcript.final`.
    SpeechToFinal,
}

impl Step {
    /// Every step, in report order.
    pub const ALL: [Step; 9] = [
        Step::Ping,
        Step::Connect,
        Step::SessionStart,
        Step::AnswerToFirstWord,
        Step::AssessmentToPrimary,
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
            Step::AnswerToFirstWord => "answer_to_first_question_word",
            Step::AssessmentToPrimary => "assessment_to_first_primary_word",
            Step::Resume => "resume",
            Step::Ping => "baseline_ping",
            Step::Failover => "failover_resume",
            Step::SpeechToFinal => "end_of_speech_to_final",
        }
    }
}

/// Latencies above this (one hour) are clamped; nothing in a run waits that long.
const HIGHEST_MICROS: u64 = 3_600_000_000;

/// A user's latest samples of a step wait in a short list, folded into a histogram when it
/// fills: a histogram of this range is about half a megabyte, too much to give each of tens
/// of thousands of users one per step.
const PENDING_MAX: usize = 1024;

/// Latencies and error counts of one user, or of a whole run once merged.
#[derive(Debug, Clone, Default)]
pub struct Recorder {
    histograms: BTreeMap<Step, Histogram<u64>>,
    pending: BTreeMap<Step, Vec<u32>>,
    errors: BTreeMap<String, u64>,
}

/// An empty latency histogram, in microseconds (the bounds are valid constants, so this is
/// always `Some`). The timeline's windows use it too.
pub(super) fn histogram() -> Option<Histogram<u64>> {
    Histogram::new_with_bounds(1, HIGHEST_MICROS, 3).ok()
}

/// `took` in microseconds, clamped to what a histogram holds.
pub(super) fn micros_of(took: Duration) -> u32 {
    let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
    u32::try_from(micros.clamp(1, HIGHEST_MICROS)).unwrap_or(u32::MAX)
}

impl Recorder {
    /// An empty recorder.
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// Records one latency of `step`.
    pub fn record(&mut self, step: Step, took: Duration) {
        let pending = self.pending.entry(step).or_default();
        pending.push(micros_of(took));
        if pending.len() >= PENDING_MAX {
            self.flush(step);
        }
    }

    fn flush(&mut self, step: Step) {
        let Some(pending) = self.pending.get_mut(&step) else {
            return;
        };
        let histogram = match self.histograms.entry(step) {
            std::collections::btree_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::btree_map::Entry::Vacant(entry) => match histogram() {
                Some(empty) => entry.insert(empty),
                None => return,
            },
        };
        for micros in pending.drain(..) {
            histogram.saturating_record(u64::from(micros));
        }
    }

    /// Everything recorded for `step`, as one histogram.
    fn view(&self, step: Step) -> Option<std::borrow::Cow<'_, Histogram<u64>>> {
        let pending = self.pending.get(&step).filter(|p| !p.is_empty());
        let Some(pending) = pending else {
            return self.histograms.get(&step).map(std::borrow::Cow::Borrowed);
        };
        let mut all = match self.histograms.get(&step) {
            Some(histogram) => histogram.clone(),
            None => histogram()?,
        };
        for micros in pending {
            all.saturating_record(u64::from(*micros));
        }
        Some(std::borrow::Cow::Owned(all))
    }

    /// Counts one error event (or client-side failure) with `code`.
    pub fn error(&mut self, code: &str) {
        *self.errors.entry(code.to_owned()).or_default() += 1;
    }

    /// Adds `other`'s samples and errors to this recorder.
    pub fn merge(&mut self, other: &Recorder) {
        for (step, theirs) in &other.histograms {
            match self.histograms.get_mut(step) {
                // ignore: both histograms have the same bounds, so adding cannot fail.
                Some(ours) => {
                    let _ = ours.add(theirs);
                }
                None => {
                    self.histograms.insert(*step, theirs.clone());
                }
            }
        }
        for (step, theirs) in &other.pending {
            self.pending
                .entry(*step)
                .or_default()
                .extend_from_slice(theirs);
            self.flush(*step);
        }
        for (code, count) in &other.errors {
            *self.errors.entry(code.clone()).or_default() += count;
        }
    }

    /// Samples recorded for `step`.
    pub fn count(&self, step: Step) -> u64 {
        let pending = self.pending.get(&step).map_or(0, Vec::len) as u64;
        self.histograms.get(&step).map_or(0, Histogram::len) + pending
    }

    /// The `quantile` (0 to 1) of `step`, in milliseconds; 0 when empty.
    pub fn quantile_ms(&self, step: Step, quantile: f64) -> f64 {
        self.view(step)
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
    fn samples_beyond_the_short_list_are_folded_in_and_kept() {
        let mut user = Recorder::new();
        for millis in 1..=(PENDING_MAX as u64 * 2 + 10) {
            user.record(Step::AnswerToNext, ms(millis));
        }
        assert_eq!(user.count(Step::AnswerToNext), PENDING_MAX as u64 * 2 + 10);
        assert!(user.pending.get(&Step::AnswerToNext).map_or(0, Vec::len) < PENDING_MAX);
        let mut total = Recorder::new();
        total.merge(&user);
        total.merge(&user);
        assert_eq!(
            total.count(Step::AnswerToNext),
            2 * user.count(Step::AnswerToNext)
        );
        let max = total.quantile_ms(Step::AnswerToNext, 1.0);
        assert!((max - user.quantile_ms(Step::AnswerToNext, 1.0)).abs() < 0.01);
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
