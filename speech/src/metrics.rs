//! `SpeechMetrics`: the series the speech pool reports — finished turns waiting, decodes by
//! kind and latency, skipped partials, refused turns.

use viva_core::metrics::{Counter, Gauge, Histogram, Series, counter, gauge, histograms_by};
use viva_core::voice::DecodeKind;

/// What a speech decode was, as the `kind` label, in [`SpeechMetrics::decodes`] order.
pub const DECODE_KINDS: &[&str] = &["final", "partial", "speculative"];

/// What the speech pool counts. A text-only server renders them at zero.
#[derive(Debug, Default)]
pub struct SpeechMetrics {
    /// Finished turns waiting for a decoding thread.
    pub finals_waiting: Gauge,
    /// Speech decodes by kind ([`DECODE_KINDS`]) and latency.
    pub decode_seconds: [Histogram; 3],
    /// Partial transcripts skipped (no idle thread, a final waiting, or no budget).
    pub partials_skipped: Counter,
    /// Finished turns refused because the speech queue was full.
    pub overloaded: Counter,
}

impl SpeechMetrics {
    /// The histogram of decodes of `kind`.
    pub fn decodes(&self, kind: DecodeKind) -> &Histogram {
        let index = match kind {
            DecodeKind::Final => 0,
            DecodeKind::Partial => 1,
            DecodeKind::Speculative => 2,
        };
        &self.decode_seconds[index]
    }
}

impl Series for SpeechMetrics {
    fn render(&self, out: &mut String) {
        gauge(
            out,
            "viva_stt_finals_waiting",
            "Finished turns waiting for a decoding thread.",
            &self.finals_waiting,
        );
        histograms_by(
            out,
            ("viva_stt_decode_seconds", "Speech decode latency by kind."),
            ("kind", DECODE_KINDS),
            &self.decode_seconds,
        );
        counter(
            out,
            "viva_stt_partials_skipped_total",
            "Partial transcripts skipped to spare the decoders.",
            &self.partials_skipped,
        );
        counter(
            out,
            "viva_stt_overloaded_total",
            "Finished turns refused: the speech queue was full.",
            &self.overloaded,
        );
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use viva_core::metrics::untyped_families;

    use super::*;

    #[test]
    fn decodes_are_counted_by_kind() {
        let metrics = SpeechMetrics::default();
        metrics
            .decodes(DecodeKind::Partial)
            .observe(Duration::from_millis(400));
        metrics.overloaded.inc();
        let mut text = String::new();
        metrics.render(&mut text);
        for expected in [
            "viva_stt_decode_seconds_bucket{kind=\"partial\",le=\"0.5\"} 1\n",
            "viva_stt_decode_seconds_bucket{kind=\"partial\",le=\"0.25\"} 0\n",
            "viva_stt_decode_seconds_count{kind=\"final\"} 0\n",
            "viva_stt_overloaded_total 1\n",
        ] {
            assert!(text.contains(expected), "{expected} in\n{text}");
        }
        assert_eq!(untyped_families(&text), Vec::<String>::new());
    }
}
