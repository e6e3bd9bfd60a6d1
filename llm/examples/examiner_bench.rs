//! The LLM examiner's latency and fallback rate over a scripted exam, against a running
//! OpenAI-compatible server (`scripts/bench-llm` starts llama-server and runs this).
//!
//! The script walks the Private ACS oral elements in order: for each, the examiner phrases a
//! question (streamed, bridging from the previous topic), then assesses a scripted answer
//! that is full, partial or wrong in turn. Measured per step: time to the first question
//! token, the whole phrasing, and the whole assessment. The same-run baseline is a one-token
//! completion of a short prompt on the same server (its round trip and one token), sampled
//! between steps; the report gives each figure as a ratio to the baseline's median.
//!
//! Usage: `examiner_bench URL MODEL [ANSWERS] [TIMEOUT_SECS]`; prints one JSON report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)] // a bench tool

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::json;
use viva_core::exam::acs::{AcsElement, AcsLibrary, Rating};
use viva_core::exam::types::{QuestionDifficulty, QuestionKind};
use viva_core::examiner::{
    AssessRequest, Examined, Examiner, ExaminerAssessment, ExaminerCall, PreviousTurn,
    QuestionRequest, no_deltas,
};
use viva_llm::examiner::{LlmExaminer, Tally};
use viva_llm::prompts::Prompts;
use viva_llm::provider::{LlmSettings, Provider};

// The ACS catalogs, loaded as the tests load them.
use viva_testkit::acs::library;

/// The scripted answer to the `n`th element: full, partial or wrong, in turn.
fn scripted_answer(element: &AcsElement, n: usize) -> (&'static str, String) {
    let mut full = element.text.clone();
    for sub in &element.sub_elements {
        full.push(' ');
        full.push_str(&sub.text);
    }
    match n % 3 {
        0 => ("full", full),
        1 => {
            let words: Vec<&str> = full.split_whitespace().collect();
            ("partial", words[..words.len().div_ceil(3)].join(" "))
        }
        _ => (
            "wrong",
            "I'm not sure. I would just check the weather and go.".to_owned(),
        ),
    }
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// p50, p95 and max of `values`.
fn summary(mut values: Vec<f64>) -> serde_json::Value {
    if values.is_empty() {
        return json!(null);
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    json!({"n": values.len(), "p50": at(0.5), "p95": at(0.95), "max": at(1.0)})
}

fn ratio(summary: &serde_json::Value, baseline: f64) -> serde_json::Value {
    let r = |key: &str| {
        summary[key]
            .as_f64()
            .map(|v| (v / baseline * 10.0).round() / 10.0)
    };
    json!({"p50": r("p50"), "p95": r("p95")})
}

async fn baseline_ms(provider: &Provider) -> f64 {
    let began = Instant::now();
    let reply = provider
        .complete("You answer with one word.", "Say yes.", None)
        .await;
    if let Err(err) = reply {
        eprintln!("baseline call failed: {err}");
    }
    millis(began.elapsed())
}

/// What the scripted exam collected.
#[derive(Default)]
struct Collected {
    calls: Vec<ExaminerCall>,
    pings: Vec<f64>,
    samples: Vec<serde_json::Value>,
    /// Scripted answer kind → score → count, for the model's verdicts that were used.
    agreement: BTreeMap<String, BTreeMap<String, u32>>,
}

/// The elements the script walks: the Private ASEL ones, in ACS order.
fn script_elements(library: &AcsLibrary, answers: usize) -> Vec<AcsElement> {
    library
        .catalog(Rating::Private)
        .elements()
        .iter()
        .filter(|e| !e.archived && e.applicable_classes.iter().any(|c| c == "ASEL"))
        .take(answers)
        .cloned()
        .collect()
}

/// Phrases, then assesses, each element in turn, bridging from the previous one.
async fn run_script(
    examiner: &LlmExaminer,
    baseline: &Provider,
    elements: &[AcsElement],
) -> Collected {
    let mut collected = Collected::default();
    let mut previous: Option<PreviousTurn> = None;
    for (n, element) in elements.iter().enumerate() {
        collected.pings.push(baseline_ms(baseline).await);
        let question = QuestionRequest {
            rating: Rating::Private,
            element_code: element.code.clone(),
            kind: QuestionKind::Primary,
            difficulty: QuestionDifficulty::Medium,
            missing_terms: Vec::new(),
            previous: previous.take(),
        };
        let phrased = examiner.phrase(&question, &no_deltas).await;
        let (answer_kind, answer) = scripted_answer(element, n);
        let request = AssessRequest {
            rating: Rating::Private,
            element_code: element.code.clone(),
            question: phrased.value.clone(),
            answer: answer.clone(),
            other_pending: elements[n + 1..]
                .iter()
                .take(6)
                .map(|e| e.code.clone())
                .collect(),
            follow_ups_left: 1,
            missing_terms: Vec::new(),
        };
        let assessed = examiner.assess(&request).await;
        collected.note(n, element, answer_kind, &phrased, &assessed);
        previous = Some(PreviousTurn {
            element_code: element.code.clone(),
            question: phrased.value,
            answer: Some(answer),
        });
    }
    collected
}

impl Collected {
    fn note(
        &mut self,
        n: usize,
        element: &AcsElement,
        answer_kind: &str,
        phrased: &Examined<String>,
        assessed: &Examined<ExaminerAssessment>,
    ) {
        let score = assessed.value.score.as_str();
        if assessed.call.as_ref().is_some_and(|c| c.outcome == "used") {
            let scores = self.agreement.entry(answer_kind.to_owned()).or_default();
            *scores.entry(score.to_owned()).or_default() += 1;
        }
        if n < 6 {
            self.samples
                .push(json!({"element": element.code, "answer": answer_kind,
                "question": phrased.value, "score": score,
                "feedback": assessed.value.feedback,
                "phrase": phrased.call, "assess": assessed.call}));
        }
        self.calls.extend(phrased.call.clone());
        self.calls.extend(assessed.call.clone());
    }

    fn latencies(&self, call: &str, used_only: bool, first_token: bool) -> serde_json::Value {
        let values = self
            .calls
            .iter()
            .filter(|c| c.call == call && (!used_only || c.outcome == "used"))
            .filter_map(|c| {
                if first_token {
                    c.first_token_ms
                } else {
                    Some(c.latency_ms)
                }
            })
            .map(|ms| ms as f64)
            .collect();
        summary(values)
    }

    fn fallback_rate(&self, call: Option<&str>) -> f64 {
        let of_call = || {
            self.calls
                .iter()
                .filter(|c| call.is_none_or(|name| c.call == name))
        };
        let fallbacks = of_call().filter(|c| c.outcome == "fallback").count();
        fallbacks as f64 / of_call().count().max(1) as f64
    }

    fn report(self, tally: Tally, wall: Duration) -> serde_json::Value {
        let first_token = self.latencies("phrase", false, true);
        let phrase = self.latencies("phrase", false, false);
        let assess = self.latencies("assess", false, false);
        let ping = summary(self.pings.clone());
        let base = ping["p50"].as_f64().unwrap_or(1.0).max(0.001);
        json!({
            "answers": self.calls.iter().filter(|c| c.call == "assess").count(),
            "wall_seconds": wall.as_secs_f64(),
            "baseline_one_token_ms": ping,
            "first_question_token_ms": first_token,
            "phrase_ms": phrase,
            "assess_ms": assess,
            "assess_used_ms": self.latencies("assess", true, false),
            "ratios_to_baseline_p50": {
                "first_question_token": ratio(&first_token, base),
                "phrase": ratio(&phrase, base),
                "assess": ratio(&assess, base),
            },
            "calls": self.calls.len(),
            "used": tally.used,
            "fallbacks": tally.fallbacks,
            "fallback_rate": self.fallback_rate(None),
            "assess_fallback_rate": self.fallback_rate(Some("assess")),
            "phrase_fallback_rate": self.fallback_rate(Some("phrase")),
            "used_verdicts_by_scripted_answer": self.agreement,
            "samples": self.samples,
        })
    }
}

#[tokio::main]
async fn main() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let args: Vec<String> = std::env::args().collect();
    let url = args
        .get(1)
        .cloned()
        .expect("usage: examiner_bench URL MODEL [ANSWERS]");
    let model = args.get(2).cloned().unwrap_or_else(|| "local".into());
    let answers: usize = args.get(3).map_or(50, |n| n.parse().unwrap());
    let timeout = Duration::from_secs(args.get(4).map_or(30, |n| n.parse().unwrap()));
    let settings = LlmSettings {
        base_url: url,
        model,
        api_key: None,
        timeout,
        max_in_flight: 1,
        max_tokens: 256,
    };
    let baseline = Provider::new(LlmSettings {
        max_tokens: 1,
        ..settings.clone()
    });
    let library = library();
    let prompts = Prompts::load(None).unwrap();
    let examiner = LlmExaminer::new(Provider::new(settings), prompts, library.clone());
    let elements = script_elements(&library, answers);
    let began = Instant::now();
    let collected = run_script(&examiner, &baseline, &elements).await;
    let report = collected.report(examiner.tally(), began.elapsed());
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
}
