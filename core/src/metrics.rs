//! What the server counts, for `GET /metrics`: plain atomics updated where things happen
//! (connections, events, checkpoints, resumes, takeovers, speech decodes, mailboxes) and
//! rendered as Prometheus text. No IO and no registry: every series is a field, so a name
//! cannot be misspelt at a call site, and recording is one relaxed atomic add.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use crate::examiner::{ExaminerCall, FALLBACK_REASONS};
use crate::session::phase::Phase;
use crate::voice::DecodeKind;

/// Upper bounds (seconds) of the latency histograms' buckets; `+Inf` is implied.
pub const LATENCY_BUCKETS: [f64; 16] = [
    0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
    10.0, 30.0,
];

/// A count that only grows.
#[derive(Debug, Default)]
pub struct Counter(AtomicU64);

impl Counter {
    /// Adds one.
    pub fn inc(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// The count.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A value that goes up and down.
#[derive(Debug, Default)]
pub struct Gauge(AtomicI64);

impl Gauge {
    /// Adds one.
    pub fn inc(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// Takes one away.
    pub fn dec(&self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }

    /// Sets the value.
    pub fn set(&self, value: i64) {
        self.0.store(value, Ordering::Relaxed);
    }

    /// The value.
    pub fn get(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Counters with one label whose values are known up front (event types, error codes).
#[derive(Debug)]
pub struct LabeledCounter {
    labels: &'static [&'static str],
    counts: Box<[AtomicU64]>,
    /// Counts a label outside `labels` (never expected; kept visible rather than lost).
    other: AtomicU64,
}

impl LabeledCounter {
    /// A counter for each of `labels`.
    pub fn new(labels: &'static [&'static str]) -> LabeledCounter {
        LabeledCounter {
            labels,
            counts: labels.iter().map(|_| AtomicU64::new(0)).collect(),
            other: AtomicU64::new(0),
        }
    }

    /// Adds one to `label`.
    pub fn inc(&self, label: &str) {
        match self.labels.iter().position(|known| *known == label) {
            Some(index) => self.counts[index].fetch_add(1, Ordering::Relaxed),
            None => self.other.fetch_add(1, Ordering::Relaxed),
        };
    }

    /// The count of `label`.
    pub fn get(&self, label: &str) -> u64 {
        match self.labels.iter().position(|known| *known == label) {
            Some(index) => self.counts[index].load(Ordering::Relaxed),
            None => self.other.load(Ordering::Relaxed),
        }
    }

    fn series(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        let known = self
            .labels
            .iter()
            .zip(self.counts.iter())
            .map(|(label, count)| (*label, count.load(Ordering::Relaxed)));
        known.chain(std::iter::once((
            "other",
            self.other.load(Ordering::Relaxed),
        )))
    }
}

/// A latency histogram over [`LATENCY_BUCKETS`].
#[derive(Debug)]
pub struct Histogram {
    /// Observations per bucket (not cumulative; the last is `+Inf`).
    buckets: [AtomicU64; LATENCY_BUCKETS.len() + 1],
    sum_micros: AtomicU64,
    count: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            sum_micros: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }
}

impl Histogram {
    /// Records one observation.
    pub fn observe(&self, took: Duration) {
        let seconds = took.as_secs_f64();
        let index = LATENCY_BUCKETS
            .iter()
            .position(|bound| seconds <= *bound)
            .unwrap_or(LATENCY_BUCKETS.len());
        self.buckets[index].fetch_add(1, Ordering::Relaxed);
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.sum_micros.fetch_add(micros, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    /// Observations so far.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// Cumulative counts per bucket bound, ending with `+Inf`.
    fn cumulative(&self) -> Vec<(String, u64)> {
        let bounds = LATENCY_BUCKETS
            .iter()
            .map(|bound| bound.to_string())
            .chain(std::iter::once("+Inf".to_owned()));
        let mut total = 0;
        bounds
            .zip(self.buckets.iter())
            .map(|(bound, count)| {
                total += count.load(Ordering::Relaxed);
                (bound, total)
            })
            .collect()
    }
}

/// Where a session stands, as the `phase` label of `viva_sessions`, in [`phase_index`]
/// order (the names are `Phase::as_str`'s).
pub const PHASES: &[&str] = &[
    "idle",
    "question_asked",
    "awaiting_answer",
    "assessed",
    "paused",
    "completed",
    "abandoned",
];

/// The position of `phase`'s label in [`PHASES`] (a paused session is `paused` whatever it
/// resumes to).
pub fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Idle => 0,
        Phase::QuestionAsked => 1,
        Phase::AwaitingAnswer => 2,
        Phase::Assessed => 3,
        Phase::Paused { .. } => 4,
        Phase::Completed => 5,
        Phase::Abandoned => 6,
    }
}

/// What a speech decode was, as the `kind` label, in `DecodeKind` order.
pub const DECODE_KINDS: &[&str] = &["final", "partial"];

/// Every series the server exposes.
#[derive(Debug)]
pub struct Metrics {
    /// Open WebSocket connections.
    pub connections: Gauge,
    /// Live user supervisors.
    pub supervisors: Gauge,
    /// Live session actors by phase ([`PHASES`]).
    pub sessions: [Gauge; 7],
    /// Client events decoded, by type (frames that do not decode count only as errors).
    pub events_in: LabeledCounter,
    /// Server events sent, by type.
    pub events_out: LabeledCounter,
    /// `error` events sent, by code.
    pub errors: LabeledCounter,
    /// Checkpoint writes that succeeded, by latency.
    pub checkpoint_seconds: Histogram,
    /// Checkpoint writes that failed (storage down, fenced or refused).
    pub checkpoint_failures: Counter,
    /// `session.resume` → `session.resumed`, by latency.
    pub resume_seconds: Histogram,
    /// Another device took a user's active session.
    pub takeovers: Counter,
    /// Messages refused because an actor's mailbox was full.
    pub mailbox_full: Counter,
    /// Finished turns waiting for a decoding thread.
    pub stt_finals_waiting: Gauge,
    /// Speech decodes by kind ([`DECODE_KINDS`]) and latency.
    pub stt_decode_seconds: [Histogram; 2],
    /// Partial transcripts skipped (no idle thread, a final waiting, or no budget).
    pub stt_partials_skipped: Counter,
    /// Finished turns refused because the speech queue was full.
    pub stt_overloaded: Counter,
    /// Spoken answers to items that could not be read, so the candidate was asked again.
    pub spoken_answers_unclear: Counter,
    /// Model calls by call ([`EXAMINER_CALLS`]) and outcome ([`EXAMINER_OUTCOMES`]).
    pub llm_calls: [[Counter; 2]; 2],
    /// Model replies replaced by the embedded examiner, by reason.
    pub llm_fallbacks: LabeledCounter,
    /// Model call latency by call ([`EXAMINER_CALLS`]).
    pub llm_call_seconds: [Histogram; 2],
    /// Until the first streamed token of a phrasing.
    pub llm_first_token_seconds: Histogram,
}

/// The examiner's calls, as the `call` label, in the index order of the `llm_` series.
pub const EXAMINER_CALLS: &[&str] = &["phrase", "assess"];

/// A model call's outcomes, as the `outcome` label, in index order.
pub const EXAMINER_OUTCOMES: &[&str] = &["used", "fallback"];

impl Metrics {
    /// Every series at zero; `client_types` and `server_types` label the event counters,
    /// `error_codes` the error counter.
    pub fn new(
        client_types: &'static [&'static str],
        server_types: &'static [&'static str],
        error_codes: &'static [&'static str],
    ) -> Metrics {
        Metrics {
            connections: Gauge::default(),
            supervisors: Gauge::default(),
            sessions: Default::default(),
            events_in: LabeledCounter::new(client_types),
            events_out: LabeledCounter::new(server_types),
            errors: LabeledCounter::new(error_codes),
            checkpoint_seconds: Histogram::default(),
            checkpoint_failures: Counter::default(),
            resume_seconds: Histogram::default(),
            takeovers: Counter::default(),
            mailbox_full: Counter::default(),
            stt_finals_waiting: Gauge::default(),
            stt_decode_seconds: Default::default(),
            stt_partials_skipped: Counter::default(),
            stt_overloaded: Counter::default(),
            spoken_answers_unclear: Counter::default(),
            llm_calls: Default::default(),
            llm_fallbacks: LabeledCounter::new(FALLBACK_REASONS),
            llm_call_seconds: Default::default(),
            llm_first_token_seconds: Histogram::default(),
        }
    }

    /// Counts one model call of the examiner's turn log.
    pub fn record_examiner_call(&self, call: &ExaminerCall) {
        let index = |names: &[&str], name: &str| names.iter().position(|n| *n == name);
        let (Some(which), Some(outcome)) = (
            index(EXAMINER_CALLS, &call.call),
            index(EXAMINER_OUTCOMES, &call.outcome),
        ) else {
            tracing::warn!(call = %call.call, outcome = %call.outcome, "unknown examiner call");
            return;
        };
        self.llm_calls[which][outcome].inc();
        if let Some(reason) = &call.fallback_reason {
            self.llm_fallbacks.inc(reason);
        }
        self.llm_call_seconds[which].observe(Duration::from_millis(call.latency_ms));
        if let Some(first) = call.first_token_ms {
            self.llm_first_token_seconds
                .observe(Duration::from_millis(first));
        }
    }

    /// The gauge of sessions in `phase`.
    pub fn sessions_in(&self, phase: Phase) -> &Gauge {
        &self.sessions[phase_index(phase)]
    }

    /// The histogram of decodes of `kind`.
    pub fn decodes(&self, kind: DecodeKind) -> &Histogram {
        let index = match kind {
            DecodeKind::Final => 0,
            DecodeKind::Partial => 1,
        };
        &self.stt_decode_seconds[index]
    }

    /// Everything in Prometheus text exposition format (version 0.0.4).
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(8 * 1024);
        gauge(
            &mut out,
            "viva_connections",
            "Open WebSocket connections.",
            &self.connections,
        );
        gauge(
            &mut out,
            "viva_supervisors",
            "Live user supervisors.",
            &self.supervisors,
        );
        header(
            &mut out,
            "viva_sessions",
            "Live session actors by phase.",
            "gauge",
        );
        for (phase, gauge) in PHASES.iter().zip(self.sessions.iter()) {
            let _ = writeln!(out, "viva_sessions{{phase=\"{phase}\"}} {}", gauge.get());
        }
        labeled(
            &mut out,
            "viva_events_in_total",
            "Client events by type.",
            "type",
            &self.events_in,
        );
        labeled(
            &mut out,
            "viva_events_out_total",
            "Server events by type.",
            "type",
            &self.events_out,
        );
        labeled(
            &mut out,
            "viva_errors_total",
            "Error events sent, by code.",
            "code",
            &self.errors,
        );
        histogram(
            &mut out,
            "viva_checkpoint_seconds",
            "Checkpoint write latency.",
            "",
            &self.checkpoint_seconds,
        );
        counter(
            &mut out,
            "viva_checkpoint_failures_total",
            "Checkpoint writes that failed.",
            &self.checkpoint_failures,
        );
        histogram(
            &mut out,
            "viva_resume_seconds",
            "session.resume to session.resumed.",
            "",
            &self.resume_seconds,
        );
        counter(
            &mut out,
            "viva_takeovers_total",
            "Sessions taken over by another device.",
            &self.takeovers,
        );
        counter(
            &mut out,
            "viva_mailbox_full_total",
            "Messages refused by a full actor mailbox.",
            &self.mailbox_full,
        );
        gauge(
            &mut out,
            "viva_stt_finals_waiting",
            "Finished turns waiting for a decoding thread.",
            &self.stt_finals_waiting,
        );
        histograms_by(
            &mut out,
            ("viva_stt_decode_seconds", "Speech decode latency by kind."),
            ("kind", DECODE_KINDS),
            &self.stt_decode_seconds,
        );
        counter(
            &mut out,
            "viva_stt_partials_skipped_total",
            "Partial transcripts skipped to spare the decoders.",
            &self.stt_partials_skipped,
        );
        counter(
            &mut out,
            "viva_stt_overloaded_total",
            "Finished turns refused: the speech queue was full.",
            &self.stt_overloaded,
        );
        counter(
            &mut out,
            "viva_spoken_answers_unclear_total",
            "Spoken item answers that could not be read; the candidate was asked again.",
            &self.spoken_answers_unclear,
        );
        self.render_llm(&mut out);
        out
    }

    fn render_llm(&self, out: &mut String) {
        header(
            out,
            "viva_llm_calls_total",
            "LLM examiner calls by call and outcome.",
            "counter",
        );
        for (call, by_outcome) in EXAMINER_CALLS.iter().zip(self.llm_calls.iter()) {
            for (outcome, count) in EXAMINER_OUTCOMES.iter().zip(by_outcome.iter()) {
                let labels = format!("call=\"{call}\",outcome=\"{outcome}\"");
                let _ = writeln!(out, "viva_llm_calls_total{{{labels}}} {}", count.get());
            }
        }
        labeled(
            out,
            "viva_llm_fallbacks_total",
            "LLM replies replaced by the embedded examiner, by reason.",
            "reason",
            &self.llm_fallbacks,
        );
        histograms_by(
            out,
            (
                "viva_llm_call_seconds",
                "LLM examiner call latency by call.",
            ),
            ("call", EXAMINER_CALLS),
            &self.llm_call_seconds,
        );
        histogram(
            out,
            "viva_llm_first_token_seconds",
            "Until the first streamed token of a question.",
            "",
            &self.llm_first_token_seconds,
        );
    }
}

// ignore (every `let _ = writeln!` below): writing to a String cannot fail.

fn header(out: &mut String, name: &str, help: &str, kind: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

fn gauge(out: &mut String, name: &str, help: &str, gauge: &Gauge) {
    header(out, name, help, "gauge");
    let _ = writeln!(out, "{name} {}", gauge.get());
}

fn counter(out: &mut String, name: &str, help: &str, counter: &Counter) {
    header(out, name, help, "counter");
    let _ = writeln!(out, "{name} {}", counter.get());
}

fn labeled(out: &mut String, name: &str, help: &str, label: &str, counter: &LabeledCounter) {
    header(out, name, help, "counter");
    for (value, count) in counter.series() {
        let _ = writeln!(out, "{name}{{{label}=\"{value}\"}} {count}");
    }
}

fn histogram(out: &mut String, name: &str, help: &str, labels: &str, histogram: &Histogram) {
    header(out, name, help, "histogram");
    buckets(out, name, labels, histogram);
}

/// One histogram family, a series per value of `label` (in `values` order).
fn histograms_by(
    out: &mut String,
    (name, help): (&str, &str),
    (label, values): (&str, &[&str]),
    histograms: &[Histogram],
) {
    header(out, name, help, "histogram");
    for (value, histogram) in values.iter().zip(histograms) {
        buckets(out, name, &format!("{label}=\"{value}\""), histogram);
    }
}

fn buckets(out: &mut String, name: &str, labels: &str, histogram: &Histogram) {
    let sep = if labels.is_empty() { "" } else { "," };
    for (bound, count) in histogram.cumulative() {
        let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"{bound}\"}} {count}");
    }
    let sum = histogram.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
    let braces = if labels.is_empty() {
        String::new()
    } else {
        format!("{{{labels}}}")
    };
    let _ = writeln!(out, "{name}_sum{braces} {sum}");
    let _ = writeln!(out, "{name}_count{braces} {}", histogram.count());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::phase::LivePhase;

    fn metrics() -> Metrics {
        Metrics::new(
            &["session.start", "ping"],
            &["ack", "error"],
            &["invalid_json"],
        )
    }

    fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
        text.lines()
            .find(|line| line.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line {prefix} in\n{text}"))
    }

    #[test]
    fn histogram_buckets_are_cumulative_with_sum_and_count() {
        let m = metrics();
        for ms in [0, 3, 3, 700, 60_000] {
            m.checkpoint_seconds.observe(Duration::from_millis(ms));
        }
        let text = m.render();
        let check = |le: &str, expected: u64| {
            let prefix = format!("viva_checkpoint_seconds_bucket{{le=\"{le}\"}} ");
            assert_eq!(line(&text, &prefix), format!("{prefix}{expected}"));
        };
        check("0.00025", 1);
        check("0.0025", 1);
        check("0.005", 3);
        check("1", 4);
        check("30", 4);
        check("+Inf", 5);
        assert_eq!(
            line(&text, "viva_checkpoint_seconds_count"),
            "viva_checkpoint_seconds_count 5"
        );
        assert_eq!(
            line(&text, "viva_checkpoint_seconds_sum"),
            "viva_checkpoint_seconds_sum 60.706"
        );
    }

    #[test]
    fn labeled_counters_keep_unknown_labels_visible() {
        let m = metrics();
        m.events_in.inc("ping");
        m.events_in.inc("ping");
        m.events_in.inc("no.such.type");
        let text = m.render();
        assert!(
            text.contains("viva_events_in_total{type=\"ping\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("viva_events_in_total{type=\"session.start\"} 0\n"),
            "{text}"
        );
        assert!(
            text.contains("viva_events_in_total{type=\"other\"} 1\n"),
            "{text}"
        );
    }

    #[test]
    fn gauges_by_phase_and_kind_labels() {
        let m = metrics();
        m.sessions_in(Phase::AwaitingAnswer).inc();
        m.sessions_in(Phase::AwaitingAnswer).inc();
        m.sessions_in(Phase::AwaitingAnswer).dec();
        m.decodes(DecodeKind::Partial)
            .observe(Duration::from_millis(400));
        let text = m.render();
        assert!(
            text.contains("viva_sessions{phase=\"awaiting_answer\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("viva_sessions{phase=\"paused\"} 0\n"),
            "{text}"
        );
        assert!(
            text.contains("viva_stt_decode_seconds_bucket{kind=\"partial\",le=\"0.5\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("viva_stt_decode_seconds_count{kind=\"final\"} 0\n"),
            "{text}"
        );
    }

    fn model_call(call: &str, outcome: &str, reason: Option<&str>) -> ExaminerCall {
        ExaminerCall {
            call: call.into(),
            model: "m".into(),
            prompt_hash: "00".into(),
            latency_ms: 1_500,
            first_token_ms: (call == "phrase").then_some(40),
            prompt_tokens: 10,
            completion_tokens: 5,
            outcome: outcome.into(),
            fallback_reason: reason.map(str::to_owned),
        }
    }

    #[test]
    fn examiner_calls_count_by_call_outcome_and_reason_with_latency() {
        let m = metrics();
        m.record_examiner_call(&model_call("phrase", "used", None));
        m.record_examiner_call(&model_call("assess", "fallback", Some("timeout")));
        m.record_examiner_call(&model_call("assess", "fallback", Some("made_up")));
        m.record_examiner_call(&model_call("nonsense", "used", None));
        let text = m.render();
        for expected in [
            "viva_llm_calls_total{call=\"phrase\",outcome=\"used\"} 1\n",
            "viva_llm_calls_total{call=\"assess\",outcome=\"fallback\"} 2\n",
            "viva_llm_calls_total{call=\"assess\",outcome=\"used\"} 0\n",
            "viva_llm_fallbacks_total{reason=\"timeout\"} 1\n",
            "viva_llm_fallbacks_total{reason=\"other\"} 1\n",
            "viva_llm_call_seconds_bucket{call=\"assess\",le=\"2.5\"} 2\n",
            "viva_llm_call_seconds_bucket{call=\"assess\",le=\"1\"} 0\n",
            "viva_llm_first_token_seconds_bucket{le=\"0.05\"} 1\n",
            "viva_llm_first_token_seconds_count 1\n",
        ] {
            assert!(text.contains(expected), "{expected} missing in\n{text}");
        }
    }

    #[test]
    fn phase_labels_are_the_checkpoint_names_of_the_phases() {
        let paused = Phase::Paused {
            resume_to: LivePhase::Assessed,
        };
        let phases = [
            Phase::Idle,
            Phase::QuestionAsked,
            Phase::AwaitingAnswer,
            Phase::Assessed,
            paused,
            Phase::Completed,
            Phase::Abandoned,
        ];
        for phase in phases {
            assert_eq!(PHASES[phase_index(phase)], phase.as_str());
        }
        assert_eq!(phases.len(), PHASES.len());
    }

    #[test]
    fn every_series_has_help_and_type() {
        let text = metrics().render();
        for name in text
            .lines()
            .filter(|line| !line.starts_with('#'))
            .map(|line| line.split(['{', ' ']).next().unwrap_or_default())
        {
            let family = ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|suffix| name.strip_suffix(suffix))
                .unwrap_or(name);
            assert!(text.contains(&format!("# TYPE {family} ")), "{family}");
        }
    }
}
