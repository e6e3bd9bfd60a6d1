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

use std::time::{Duration, Instant};

use serde_json::json;
use viva_actors::exam::acs::{AcsElement, Rating};
use viva_actors::exam::types::{QuestionDifficulty, QuestionKind};
use viva_actors::examiner::{
    AssessRequest, Examiner, ExaminerCall, PreviousTurn, QuestionRequest, no_deltas,
};
use viva_llm::examiner::LlmExaminer;
use viva_llm::prompts::Prompts;
use viva_llm::provider::{LlmSettings, Provider};

// The ACS catalogs, loaded as the tests load them.
#[path = "../tests/common/mod.rs"]
mod common;
use common::library;

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
    let examiner = LlmExaminer::new(
        Provider::new(settings),
        Prompts::load(None).unwrap(),
        library.clone(),
    );
    let elements: Vec<AcsElement> = library
        .catalog(Rating::Private)
        .elements()
        .iter()
        .filter(|e| !e.archived && e.applicable_classes.iter().any(|c| c == "ASEL"))
        .take(answers)
        .cloned()
        .collect();

    let mut calls: Vec<ExaminerCall> = Vec::new();
    let mut pings = Vec::new();
    let mut samples = Vec::new();
    // Scripted answer kind → score → count, for the model's verdicts that were used.
    let mut agreement: std::collections::BTreeMap<String, std::collections::BTreeMap<String, u32>> =
        Default::default();
    let mut previous: Option<PreviousTurn> = None;
    let began = Instant::now();
    for (n, element) in elements.iter().enumerate() {
        pings.push(baseline_ms(&baseline).await);
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
        let pending = elements[n + 1..]
            .iter()
            .take(6)
            .map(|e| e.code.clone())
            .collect();
        let request = AssessRequest {
            rating: Rating::Private,
            element_code: element.code.clone(),
            question: phrased.value.clone(),
            answer: answer.clone(),
            other_pending: pending,
            follow_ups_left: 1,
        };
        let assessed = examiner.assess(&request).await;
        if assessed.call.as_ref().is_some_and(|c| c.outcome == "used") {
            let scores = agreement.entry(answer_kind.to_owned()).or_default();
            *scores
                .entry(assessed.value.score.as_str().to_owned())
                .or_default() += 1;
        }
        if n < 6 {
            samples.push(json!({"element": element.code, "answer": answer_kind,
                "question": phrased.value, "score": assessed.value.score.as_str(),
                "feedback": assessed.value.feedback,
                "phrase": phrased.call, "assess": assessed.call}));
        }
        calls.extend(phrased.call);
        calls.extend(assessed.call);
        previous = Some(PreviousTurn {
            element_code: element.code.clone(),
            question: phrased.value,
            answer: Some(answer),
        });
    }
    let of = |call: &'static str| calls.iter().filter(move |c| c.call == call);
    let first_token = summary(
        of("phrase")
            .filter_map(|c| c.first_token_ms)
            .map(|m| m as f64)
            .collect(),
    );
    let phrase = summary(of("phrase").map(|c| c.latency_ms as f64).collect());
    let assess = summary(of("assess").map(|c| c.latency_ms as f64).collect());
    let assess_used = summary(
        of("assess")
            .filter(|c| c.outcome == "used")
            .map(|c| c.latency_ms as f64)
            .collect(),
    );
    let ping = summary(pings);
    let base = ping["p50"].as_f64().unwrap_or(1.0).max(0.001);
    let tally = examiner.tally();
    let fallbacks: u64 = tally.fallbacks.values().sum();
    let report = json!({
        "answers": elements.len(),
        "wall_seconds": began.elapsed().as_secs_f64(),
        "baseline_one_token_ms": ping,
        "first_question_token_ms": first_token,
        "phrase_ms": phrase,
        "assess_ms": assess,
        "assess_used_ms": assess_used,
        "ratios_to_baseline_p50": {
            "first_question_token": ratio(&first_token, base),
            "phrase": ratio(&phrase, base),
            "assess": ratio(&assess, base),
        },
        "calls": calls.len(),
        "used": tally.used,
        "fallbacks": tally.fallbacks,
        "fallback_rate": fallbacks as f64 / calls.len().max(1) as f64,
        "assess_fallback_rate": of("assess").filter(|c| c.outcome == "fallback").count() as f64
            / of("assess").count().max(1) as f64,
        "phrase_fallback_rate": of("phrase").filter(|c| c.outcome == "fallback").count() as f64
            / of("phrase").count().max(1) as f64,
        "used_verdicts_by_scripted_answer": agreement,
        "samples": samples,
    });
    println!("{}", serde_json::to_string_pretty(&report).unwrap());
}
