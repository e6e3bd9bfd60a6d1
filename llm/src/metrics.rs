//! `LlmMetrics`: the series the LLM examiner and tutor report — calls by call and outcome, fallbacks
//! by reason, call latency, and the first streamed token of a question.

use std::time::Duration;

use viva_core::examiner::{ExaminerCall, FALLBACK_REASONS};
use viva_core::metrics::{
    Counter, Histogram, LabeledCounter, Series, header, histogram, histograms_by, labeled,
};

/// The examiner's calls, as the `call` label, in the index order of the series.
pub const EXAMINER_CALLS: &[&str] = &["phrase", "assess", "tutor"];

/// A model call's outcomes, as the `outcome` label, in index order.
pub const EXAMINER_OUTCOMES: &[&str] = &["used", "fallback"];

/// What the LLM examiner counts. A server without a model renders them at zero.
#[derive(Debug)]
pub struct LlmMetrics {
    /// Model calls by call ([`EXAMINER_CALLS`]) and outcome ([`EXAMINER_OUTCOMES`]).
    pub calls: [[Counter; 2]; 3],
    /// Model replies replaced by the embedded examiner, by reason.
    pub fallbacks: LabeledCounter,
    /// Model call latency by call ([`EXAMINER_CALLS`]).
    pub call_seconds: [Histogram; 3],
    /// Until the first streamed token of a phrasing.
    pub first_token_seconds: Histogram,
}

impl Default for LlmMetrics {
    fn default() -> LlmMetrics {
        LlmMetrics {
            calls: Default::default(),
            fallbacks: LabeledCounter::new(FALLBACK_REASONS),
            call_seconds: Default::default(),
            first_token_seconds: Histogram::default(),
        }
    }
}

impl LlmMetrics {
    /// Counts one model call of the examiner's turn log.
    pub fn record(&self, call: &ExaminerCall) {
        let index = |names: &[&str], name: &str| names.iter().position(|n| *n == name);
        let (Some(which), Some(outcome)) = (
            index(EXAMINER_CALLS, &call.call),
            index(EXAMINER_OUTCOMES, &call.outcome),
        ) else {
            tracing::warn!(call = %call.call, outcome = %call.outcome, "unknown examiner call");
            return;
        };
        self.calls[which][outcome].inc();
        if let Some(reason) = &call.fallback_reason {
            self.fallbacks.inc(reason);
        }
        self.call_seconds[which].observe(Duration::from_millis(call.latency_ms));
        if let Some(first) = call.first_token_ms {
            self.first_token_seconds
                .observe(Duration::from_millis(first));
        }
    }
}

impl Series for LlmMetrics {
    fn render(&self, out: &mut String) {
        let help = "LLM examiner calls by call and outcome.";
        header(out, "viva_llm_calls_total", help, "counter");
        for (call, by_outcome) in EXAMINER_CALLS.iter().zip(self.calls.iter()) {
            for (outcome, count) in EXAMINER_OUTCOMES.iter().zip(by_outcome.iter()) {
                let labels = format!("call=\"{call}\",outcome=\"{outcome}\"");
                out.push_str(&format!(
                    "viva_llm_calls_total{{{labels}}} {}\n",
                    count.get()
                ));
            }
        }
        labeled(
            out,
            "viva_llm_fallbacks_total",
            "LLM replies replaced by the embedded examiner, by reason.",
            "reason",
            &self.fallbacks,
        );
        histograms_by(
            out,
            (
                "viva_llm_call_seconds",
                "LLM examiner call latency by call.",
            ),
            ("call", EXAMINER_CALLS),
            &self.call_seconds,
        );
        histogram(
            out,
            "viva_llm_first_token_seconds",
            "Until the first streamed token of a question.",
            "",
            &self.first_token_seconds,
        );
    }
}

#[cfg(test)]
mod tests {
    use viva_core::metrics::untyped_families;

    use super::*;

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
    fn calls_count_by_call_outcome_and_reason_with_latency() {
        let metrics = LlmMetrics::default();
        metrics.record(&model_call("phrase", "used", None));
        metrics.record(&model_call("assess", "fallback", Some("timeout")));
        metrics.record(&model_call("assess", "fallback", Some("made_up")));
        metrics.record(&model_call("nonsense", "used", None));
        let mut text = String::new();
        metrics.render(&mut text);
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
        assert_eq!(untyped_families(&text), Vec::<String>::new());
    }
}
