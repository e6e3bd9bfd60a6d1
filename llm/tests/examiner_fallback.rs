//! `LlmExaminer` against a loopback endpoint: a valid verdict is used (with mention credit
//! only for pending elements), and garbage, a hang, a server error or a question that asks
//! two things fall back to exactly what the embedded examiner says, each counted by reason.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::time::{Duration, Instant};

use common::{Behaviour, endpoint, library};
use viva_actors::exam::acs::Rating;
use viva_actors::exam::types::{QuestionDifficulty, QuestionKind, Score};
use viva_actors::examiner::{AssessRequest, EmbeddedExaminer, Examiner, QuestionRequest};
use viva_llm::examiner::LlmExaminer;
use viva_llm::prompts::Prompts;
use viva_llm::provider::{LlmSettings, Provider};

mod common;

const TIMEOUT: Duration = Duration::from_secs(2);

async fn examiner_on(behaviour: Behaviour) -> LlmExaminer {
    let (base_url, _) = endpoint(behaviour).await;
    let provider = Provider::new(LlmSettings {
        base_url,
        model: "test".into(),
        api_key: None,
        timeout: TIMEOUT,
        max_in_flight: 2,
        max_tokens: 128,
    });
    LlmExaminer::new(provider, Prompts::load(None).unwrap(), library())
}

fn assess_request() -> AssessRequest {
    AssessRequest {
        rating: Rating::Private,
        element_code: "PA.I.A.K1".into(),
        question: "What documents must you have with you to act as pilot in command?".into(),
        answer: "My pilot certificate and photo ID.".into(),
        follow_ups_left: 1,
        other_pending: vec!["PA.I.A.K2".into(), "PA.I.A.K3".into()],
    }
}

fn question_request() -> QuestionRequest {
    QuestionRequest {
        rating: Rating::Private,
        element_code: "PA.I.A.K1".into(),
        kind: QuestionKind::Primary,
        difficulty: QuestionDifficulty::Medium,
        missing_terms: Vec::new(),
    }
}

const VERDICT: &str = r#"{"score": "partial", "feedback": "You forgot the medical certificate.",
    "mentioned_elements": ["PA.I.A.K2", "PA.IX.A.K1"], "source_summary": "14 CFR 61.3",
    "follow_up": null}"#;

#[tokio::test]
async fn a_valid_verdict_is_used_and_mention_credit_stays_within_the_plan() {
    let examiner = examiner_on(Behaviour::Says(VERDICT, "stop")).await;
    let verdict = examiner.assess(&assess_request()).await;
    assert_eq!(verdict.score, Score::Partial);
    assert_eq!(verdict.feedback, "You forgot the medical certificate.");
    assert_eq!(verdict.mentioned_elements, ["PA.I.A.K2"]);
    assert_eq!(verdict.source_summary, "14 CFR 61.3");
    assert_eq!(examiner.tally().used, 1);
}

#[tokio::test]
async fn every_failure_falls_back_to_the_embedded_verdict_and_is_counted() {
    let embedded = EmbeddedExaminer::new(library()).assess_now(&assess_request());
    let cases = [
        (Behaviour::Garbage, "assess/endpoint"),
        (Behaviour::Fails, "assess/endpoint"),
        (Behaviour::Says("not json", "stop"), "assess/unparseable"),
        (Behaviour::Says(VERDICT, "length"), "assess/truncated"),
        (Behaviour::Hangs, "assess/timeout"),
    ];
    for (behaviour, reason) in cases {
        let examiner = examiner_on(behaviour).await;
        let began = Instant::now();
        let verdict = examiner.assess(&assess_request()).await;
        assert!(
            began.elapsed() < TIMEOUT + Duration::from_secs(1),
            "{reason}: never stalls"
        );
        assert_eq!(verdict, embedded, "{reason}: the deterministic result");
        let tally = examiner.tally();
        assert_eq!(
            (tally.used, tally.fallbacks.get(reason)),
            (0, Some(&1)),
            "{reason}"
        );
    }
}

#[tokio::test]
async fn a_phrasing_that_asks_two_questions_is_replaced() {
    let embedded = EmbeddedExaminer::new(library()).phrase_now(&question_request());
    let examiner = examiner_on(Behaviour::Says("What is a METAR? And a TAF?", "stop")).await;
    assert_eq!(examiner.phrase(&question_request()).await, embedded);
    assert_eq!(
        examiner.tally().fallbacks.get("phrase/several_questions"),
        Some(&1)
    );
    let examiner = examiner_on(Behaviour::Says(
        "Which documents do you carry as PIC?",
        "stop",
    ))
    .await;
    assert_eq!(
        examiner.phrase(&question_request()).await,
        "Which documents do you carry as PIC?"
    );
}

#[tokio::test]
async fn a_model_follow_up_is_refused_once_the_plan_allows_no_more() {
    const WITH_FOLLOW_UP: &str = r#"{"score": "partial", "feedback": "Half of it.",
        "mentioned_elements": [], "source_summary": "14 CFR 61.3",
        "follow_up": "Which medical certificate do you hold?"}"#;
    let examiner = examiner_on(Behaviour::Says(WITH_FOLLOW_UP, "stop")).await;
    let allowed = examiner.assess(&assess_request()).await;
    assert_eq!(allowed.feedback, "Half of it.");
    let spent = AssessRequest {
        follow_ups_left: 0,
        ..assess_request()
    };
    let embedded = EmbeddedExaminer::new(library()).assess_now(&spent);
    assert_eq!(examiner.assess(&spent).await, embedded);
    let tally = examiner.tally();
    assert_eq!(tally.used, 1);
    assert_eq!(tally.fallbacks.get("assess/follow_up_over_cap"), Some(&1));
}
