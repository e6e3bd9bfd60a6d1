//! The primitives every edge counts with, and the Prometheus text they render to. Each edge
//! owns the series it reports as fields of its own struct (`SessionMetrics` in the actors,
//! `SpeechMetrics` in the speech crate, `LlmMetrics` in the LLM crate, `ServerMetrics` in
//! the binary) and implements [`Series`]; `GET /metrics` concatenates them. No IO and no
//! registry: a name cannot be misspelt at a call site, and recording is one relaxed atomic
//! add.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

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

    /// Sets a count (saturating at `i64::MAX`).
    pub fn set_count(&self, count: usize) {
        self.set(i64::try_from(count).unwrap_or(i64::MAX));
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

/// A set of series one edge owns, rendered into the `GET /metrics` text.
pub trait Series: Send + Sync {
    /// Appends the series in Prometheus text exposition format (version 0.0.4).
    fn render(&self, out: &mut String);
}

/// The families of `text` with a series but no `# TYPE` line (a rendering defect; edges'
/// tests check that this is empty).
pub fn untyped_families(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split(['{', ' ']).next().unwrap_or_default())
        .map(|name| {
            ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|suffix| name.strip_suffix(suffix))
                .unwrap_or(name)
        })
        .filter(|family| !text.contains(&format!("# TYPE {family} ")))
        .map(str::to_owned)
        .collect()
}

/// The text of several edges' series, in order.
pub fn render_all(series: &[&dyn Series]) -> String {
    let mut out = String::with_capacity(8 * 1024);
    for one in series {
        one.render(&mut out);
    }
    out
}

// ignore (every `let _ = writeln!` below): writing to a String cannot fail.

/// Writes a family's `# HELP` and `# TYPE` lines.
pub fn header(out: &mut String, name: &str, help: &str, kind: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

/// Writes one gauge.
pub fn gauge(out: &mut String, name: &str, help: &str, gauge: &Gauge) {
    header(out, name, help, "gauge");
    let _ = writeln!(out, "{name} {}", gauge.get());
}

/// Writes one counter.
pub fn counter(out: &mut String, name: &str, help: &str, counter: &Counter) {
    header(out, name, help, "counter");
    let _ = writeln!(out, "{name} {}", counter.get());
}

/// Writes a counter family with one `label`, a series per known value and `other`.
pub fn labeled(out: &mut String, name: &str, help: &str, label: &str, counter: &LabeledCounter) {
    header(out, name, help, "counter");
    for (value, count) in counter.series() {
        let _ = writeln!(out, "{name}{{{label}=\"{value}\"}} {count}");
    }
}

/// Writes one histogram; `labels` is empty or `name="value"` pairs.
pub fn histogram(out: &mut String, name: &str, help: &str, labels: &str, histogram: &Histogram) {
    header(out, name, help, "histogram");
    buckets(out, name, labels, histogram);
}

/// One histogram family, a series per value of `label` (in `values` order).
pub fn histograms_by(
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

    /// The line of `text` that starts with `prefix`.
    pub fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
        text.lines()
            .find(|line| line.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line {prefix} in\n{text}"))
    }

    #[derive(Default)]
    struct Sample {
        latency: Histogram,
        events: Option<LabeledCounter>,
        open: Gauge,
        done: Counter,
    }

    impl Series for Sample {
        fn render(&self, out: &mut String) {
            histogram(out, "t_seconds", "Latency.", "", &self.latency);
            if let Some(events) = &self.events {
                labeled(out, "t_events_total", "Events.", "type", events);
            }
            gauge(out, "t_open", "Open.", &self.open);
            counter(out, "t_done_total", "Done.", &self.done);
        }
    }

    #[test]
    fn histogram_buckets_are_cumulative_with_sum_and_count() {
        let sample = Sample::default();
        for ms in [0, 3, 3, 700, 60_000] {
            sample.latency.observe(Duration::from_millis(ms));
        }
        let text = render_all(&[&sample]);
        let cases = [
            ("0.00025", 1),
            ("0.0025", 1),
            ("0.005", 3),
            ("1", 4),
            ("30", 4),
            ("+Inf", 5),
        ];
        for (le, expected) in cases {
            let prefix = format!("t_seconds_bucket{{le=\"{le}\"}} ");
            assert_eq!(line(&text, &prefix), format!("{prefix}{expected}"));
        }
        assert_eq!(line(&text, "t_seconds_count"), "t_seconds_count 5");
        assert_eq!(line(&text, "t_seconds_sum"), "t_seconds_sum 60.706");
    }

    #[test]
    fn labeled_counters_keep_unknown_labels_visible() {
        let sample = Sample {
            events: Some(LabeledCounter::new(&["session.start", "ping"])),
            ..Sample::default()
        };
        let events = sample.events.as_ref().unwrap();
        for label in ["ping", "ping", "no.such.type"] {
            events.inc(label);
        }
        let text = render_all(&[&sample]);
        let cases = [("ping", 2), ("session.start", 0), ("other", 1)];
        for (label, count) in cases {
            let expected = format!("t_events_total{{type=\"{label}\"}} {count}\n");
            assert!(text.contains(&expected), "{expected} in\n{text}");
        }
        assert_eq!(untyped_families(&text), Vec::<String>::new());
    }

    #[test]
    fn several_edges_render_one_after_another() {
        let (first, second) = (Sample::default(), Sample::default());
        first.open.set(3);
        second.done.inc();
        let text = render_all(&[&first, &second]);
        assert_eq!(text.matches("# TYPE t_open gauge").count(), 2);
        assert!(text.find("t_open 3").unwrap() < text.find("t_done_total 1").unwrap());
    }
}
