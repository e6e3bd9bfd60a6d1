//! `LlmExaminer` against a real model: llama.cpp's `llama-server` with Qwen2.5-Coder-0.5B on
//! a loopback port (see `viva_testkit::llama`). The phrasing streams, and each call ends within
//! its timeout with either a validated reply or the embedded examiner's result; a forced
//! timeout falls back deterministically.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::sync::Mutex;
use std::time::{Duration, Instant};

use viva_core::exam::acs::Rating;
use viva_core::exam::types::{QuestionDifficulty, QuestionKind};
use viva_core::examiner::{
    AssessRequest, EmbeddedExaminer, Examiner, FALLBACK_REASONS, QuestionRequest, no_deltas,
};
use viva_llm::examiner::LlmExaminer;
use viva_llm::prompts::Prompts;
use viva_llm::provider::{LlmSettings, Provider};
use viva_testkit::acs::library;
use viva_testkit::llama::LlamaServer;

fn examiner_at(base_url: String, timeout: Duration) -> LlmExaminer {
    let provider = Provider::new(LlmSettings {
        base_url,
        model: "qwen2.5-coder-0.5b".into(),
        api_key: None,
        timeout,
        max_in_flight: 2,
        max_tokens: 256,
    });
    LlmExaminer::new(provider, Prompts::load(None).unwrap(), library())
}

fn assess_request() -> AssessRequest {
    AssessRequest {
        rating: Rating::Private,
        element_code: "PA.I.A.K1".into(),
        question: "What documents must you have with you to act as pilot in command?".into(),
        answer: "My pilot certificate, a medical certificate and a photo ID.".into(),
        follow_ups_left: 1,
        missing_terms: Vec::new(),
        other_pending: vec!["PA.I.A.K2".into()],
    }
}

fn question_request() -> QuestionRequest {
    QuestionRequest {
        rating: Rating::Private,
        element_code: "PA.I.A.K1".into(),
        kind: QuestionKind::Primary,
        difficulty: QuestionDifficulty::Easy,
        missing_terms: Vec::new(),
        previous: None,
    }
}

#[test]
fn a_real_model_is_used_or_replaced_within_its_timeout_and_a_forced_timeout_is_deterministic() {
    let Some(llama) = LlamaServer::start(2) else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let timeout = Duration::from_secs(60);
        let examiner = examiner_at(llama.base_url(), timeout);
        let began = Instant::now();
        let pieces = Mutex::new(Vec::new());
        let deltas = |piece: &str| pieces.lock().unwrap().push(piece.to_owned());
        let asked = examiner.phrase(&question_request(), &deltas).await;
        let assessed = examiner.assess(&assess_request()).await;
        assert!(began.elapsed() < 2 * timeout, "{:?}", began.elapsed());
        eprintln!("real model: asked {asked:?}; assessed {assessed:?}");

        let text = &asked.value;
        assert!(
            !text.trim().is_empty() && text.matches('?').count() <= 1,
            "{text}"
        );
        let verdict = &assessed.value;
        assert!(!verdict.feedback.is_empty() && !verdict.source_summary.is_empty());
        let credited_within_plan = verdict.mentioned_elements.iter().all(|c| c == "PA.I.A.K2");
        assert!(credited_within_plan, "{verdict:?}");
        let calls = [asked.call.unwrap(), assessed.call.unwrap()];
        for call in &calls {
            assert_eq!(call.model, "qwen2.5-coder-0.5b");
            match call.fallback_reason.as_deref() {
                None => assert_eq!(call.outcome, "used"),
                Some(reason) => assert!(FALLBACK_REASONS.contains(&reason), "{call:?}"),
            }
        }
        // The streamed phrasing: its pieces are the question's words, and what the model
        // wrote is used (the schema's pattern holds it to one question).
        if calls[0].outcome == "used" {
            assert_eq!(pieces.lock().unwrap().concat().trim(), text.as_str());
            assert!(calls[0].first_token_ms.is_some());
        }
        assert!(
            calls.iter().any(|call| call.outcome == "used"),
            "the model's own words reach the candidate at least once: {calls:?}"
        );

        let hurried = examiner_at(llama.base_url(), Duration::from_millis(1));
        let embedded = EmbeddedExaminer::new(library());
        let timed_out = hurried.assess(&assess_request()).await;
        assert_eq!(timed_out.value, embedded.assess_now(&assess_request()));
        assert_eq!(
            timed_out.call.unwrap().fallback_reason.as_deref(),
            Some("timeout")
        );
        let phrased = hurried.phrase(&question_request(), &no_deltas).await;
        assert_eq!(phrased.value, embedded.phrase_now(&question_request()));
    });
}
