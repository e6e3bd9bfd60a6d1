//! `LlmExaminer` against a loopback endpoint: a valid verdict is used (with mention credit
//! only for pending elements), and garbage, a hang, a server error or a question that asks
//! two things fall back to exactly what the embedded examiner says, each counted by reason.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::time::{Duration, Instant};

use std::sync::Mutex;

use viva_core::exam::acs::Rating;
use viva_core::exam::types::{QuestionDifficulty, QuestionKind, Score};
use viva_core::examiner::{
    AssessRequest, EmbeddedExaminer, Examiner, PreviousTurn, QuestionRequest, no_deltas,
};
use viva_llm::examiner::LlmExaminer;
use viva_llm::prompts::Prompts;
use viva_llm::provider::{LlmSettings, Provider};
use viva_testkit::acs::library;
use viva_testkit::openai::{Behaviour, Requests, endpoint, user_prompt};

const TIMEOUT: Duration = Duration::from_secs(2);

async fn examiner_on(behaviour: Behaviour) -> LlmExaminer {
    recording_examiner(behaviour).await.0
}

async fn recording_examiner(behaviour: Behaviour) -> (LlmExaminer, Requests) {
    let (base_url, requests) = endpoint(behaviour).await;
    let provider = Provider::new(LlmSettings {
        base_url,
        model: "test".into(),
        api_key: None,
        timeout: TIMEOUT,
        max_in_flight: 2,
        max_tokens: 128,
    });
    let examiner = LlmExaminer::new(provider, Prompts::load(None).unwrap(), library());
    (examiner, requests)
}

fn assess_request() -> AssessRequest {
    AssessRequest {
        rating: Rating::Private,
        element_code: "PA.I.A.K1".into(),
        question: "What documents must you have with you to act as pilot in command?".into(),
        answer: "My pilot certificate and photo ID.".into(),
        follow_ups_left: 1,
        missing_terms: Vec::new(),
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
        previous: None,
    }
}

/// An element's text and all its sub-elements' texts: every key term said.
fn full_answer(code: &str) -> String {
    let library = library();
    let element = library.catalog(Rating::Private).element(code).unwrap();
    let mut answer = element.text.clone();
    for sub in &element.sub_elements {
        answer.push(' ');
        answer.push_str(&sub.text);
    }
    answer
}

#[tokio::test]
async fn mention_credit_needs_the_answers_own_words() {
    let examiner = examiner_on(Behaviour::Says(VERDICT, "stop")).await;
    let assessed = examiner.assess(&assess_request()).await;
    assert_eq!(
        assessed.value.feedback,
        "You forgot the medical certificate."
    );
    assert!(
        assessed.value.mentioned_elements.is_empty(),
        "a certificate and an ID say nothing of privileges: {:?}",
        assessed.value
    );
}

const VERDICT: &str = r#"{"score": "partial", "feedback": "You forgot the medical certificate.",
    "mentioned_elements": ["PA.I.A.K2", "PA.IX.A.K1"], "source_summary": "14 CFR 61.3",
    "follow_up": null}"#;

#[tokio::test]
async fn a_valid_verdict_is_used_and_mention_credit_stays_within_the_plan() {
    let examiner = examiner_on(Behaviour::Says(VERDICT, "stop")).await;
    // The answer also covers PA.I.A.K2 in its own words (not PA.I.A.K3, which the model
    // does not claim, nor PA.IX.A.K1, which is outside the plan).
    let request = AssessRequest {
        answer: format!(
            "My pilot certificate and photo ID. {}",
            full_answer("PA.I.A.K2")
        ),
        ..assess_request()
    };
    let assessed = examiner.assess(&request).await;
    let verdict = assessed.value;
    assert_eq!(verdict.score, Score::Partial);
    assert_eq!(verdict.feedback, "You forgot the medical certificate.");
    assert_eq!(verdict.mentioned_elements, ["PA.I.A.K2"]);
    assert_eq!(verdict.source_summary, "14 CFR 61.3");
    assert_eq!(examiner.tally().used, 1);
    let log = assessed.call.unwrap();
    assert_eq!((log.call.as_str(), log.model.as_str()), ("assess", "test"));
    assert_eq!((log.outcome.as_str(), log.fallback_reason), ("used", None));
    assert_eq!((log.prompt_tokens, log.completion_tokens), (12, 5));
    assert_eq!(log.prompt_hash.len(), 16);
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
        let assessed = examiner.assess(&assess_request()).await;
        assert!(
            began.elapsed() < TIMEOUT + Duration::from_secs(1),
            "{reason}: never stalls"
        );
        assert_eq!(
            assessed.value, embedded,
            "{reason}: the deterministic result"
        );
        let log = assessed.call.unwrap();
        assert_eq!(log.outcome, "fallback");
        assert_eq!(
            Some(format!("assess/{}", log.fallback_reason.unwrap())).as_deref(),
            Some(reason)
        );
        let tally = examiner.tally();
        assert_eq!(
            (tally.used, tally.fallbacks.get(reason)),
            (0, Some(&1)),
            "{reason}"
        );
    }
}

#[tokio::test]
async fn a_phrasing_that_is_not_one_question_is_replaced() {
    let embedded = EmbeddedExaminer::new(library()).phrase_now(&question_request());
    let cases = [
        (
            r#"{"question": "What is a METAR? And a TAF?"}"#,
            "phrase/several_questions",
        ),
        (
            r#"{"question": "Sure! Here is a question about documents."}"#,
            "phrase/not_a_question",
        ),
        (
            r#"{"question": "What does PA.I.A.K1 require of you?"}"#,
            "phrase/names_the_code",
        ),
        ("What documents do you carry?", "phrase/unparseable"),
    ];
    for (said, reason) in cases {
        let examiner = examiner_on(Behaviour::Says(said, "stop")).await;
        let phrased = examiner.phrase(&question_request(), &no_deltas).await;
        assert_eq!(phrased.value, embedded, "{said}");
        assert_eq!(examiner.tally().fallbacks.get(reason), Some(&1), "{said}");
    }
}

#[tokio::test]
async fn a_good_phrasing_is_streamed_piece_by_piece_and_used() {
    let said = "Which documents do you carry as pilot in command?";
    let reply = r#"{"question": "Which documents do you carry as pilot in command?"}"#;
    let examiner = examiner_on(Behaviour::Says(reply, "stop")).await;
    let pieces = Mutex::new(Vec::new());
    let deltas = |piece: &str| pieces.lock().unwrap().push(piece.to_owned());
    let phrased = examiner.phrase(&question_request(), &deltas).await;
    assert_eq!(phrased.value, said);
    let pieces = pieces.into_inner().unwrap();
    assert!(pieces.len() > 1, "{pieces:?}");
    assert_eq!(pieces.concat(), said);
    let log = phrased.call.unwrap();
    assert_eq!(
        (log.call.as_str(), log.outcome.as_str()),
        ("phrase", "used")
    );
    assert!(
        log.first_token_ms
            .is_some_and(|first| first <= log.latency_ms)
    );
}

#[tokio::test]
async fn the_previous_topic_and_the_last_answer_reach_the_prompts() {
    let said = r#"{"question": "Good. Now, what does a weather briefing include?"}"#;
    let (examiner, requests) = recording_examiner(Behaviour::Says(said, "stop")).await;
    let previous = PreviousTurn {
        element_code: "PA.I.A.K1".into(),
        question: "What documents must you carry?".into(),
        answer: Some("My certificate and a photo ID.".into()),
    };
    let next_topic = QuestionRequest {
        element_code: "PA.I.A.K2".into(),
        previous: Some(previous.clone()),
        ..question_request()
    };
    examiner.phrase(&next_topic, &no_deltas).await;
    let follow_up = QuestionRequest {
        kind: QuestionKind::FollowUp,
        missing_terms: vec!["medical certificate".into()],
        previous: Some(previous),
        ..question_request()
    };
    examiner.phrase(&follow_up, &no_deltas).await;
    let prompts: Vec<String> = requests.all().iter().map(user_prompt).collect();
    let first_topic = library()
        .catalog(Rating::Private)
        .element("PA.I.A.K1")
        .unwrap()
        .text
        .clone();
    assert!(
        prompts[0].contains(&format!("The last question was about: {first_topic}")),
        "{}",
        prompts[0]
    );
    assert!(
        prompts[1].contains("answered: \"My certificate and a photo ID.\""),
        "{}",
        prompts[1]
    );
    // The missing facts' words never reach the model: it is asked to draw them out.
    assert!(
        !prompts[1].contains("medical certificate"),
        "{}",
        prompts[1]
    );
    assert!(prompts[1].contains("say more"), "{}", prompts[1]);
}

/// A follow-up on PA.I.A.K1 (with its rubric) after a long answer that left the flight
/// review out.
fn flight_review_follow_up() -> QuestionRequest {
    QuestionRequest {
        kind: QuestionKind::FollowUp,
        missing_terms: vec!["flight review".into()],
        previous: Some(PreviousTurn {
            element_code: "PA.I.A.K1".into(),
            question: "What do you need to act as pilot in command?".into(),
            answer: Some(
                "Three takeoffs and three landings in the last ninety days before I carry \
                 passengers, all logged in my logbook, with the right category and class."
                    .into(),
            ),
        }),
        ..question_request()
    }
}

async fn examiner_with_rubrics(behaviour: Behaviour) -> (LlmExaminer, Requests) {
    let (base_url, requests) = endpoint(behaviour).await;
    let provider = Provider::new(LlmSettings {
        base_url,
        model: "test".into(),
        api_key: None,
        timeout: TIMEOUT,
        max_in_flight: 2,
        max_tokens: 128,
    });
    let acs = viva_testkit::courses::load(Default::default()).acs;
    (
        LlmExaminer::new(provider, Prompts::load(None).unwrap(), acs),
        requests,
    )
}

#[tokio::test]
async fn a_model_follow_up_that_gives_a_missing_fact_away_falls_back_and_none_of_it_streams() {
    let request = flight_review_follow_up();
    let acs = viva_testkit::courses::load(Default::default()).acs;
    let embedded = EmbeddedExaminer::new(acs).phrase_now(&request);
    let cases = [
        (
            r#"{"question": "How often do you need a flight review?"}"#,
            Some(embedded.as_str()),
        ),
        (
            r#"{"question": "Is it every two years?"}"#,
            Some(embedded.as_str()),
        ),
        (
            r#"{"question": "What else keeps you legal to fly, beyond those landings?"}"#,
            None,
        ),
    ];
    for (said, fallback) in cases {
        let (examiner, requests) = examiner_with_rubrics(Behaviour::Says(said, "stop")).await;
        let pieces = Mutex::new(Vec::<String>::new());
        let deltas = |piece: &str| pieces.lock().unwrap().push(piece.to_owned());
        let phrased = examiner.phrase(&request, &deltas).await;
        assert!(
            pieces.lock().unwrap().is_empty(),
            "{said}: a follow-up never streams"
        );
        let prompt = user_prompt(&requests.all()[0]);
        assert!(
            !prompt.contains("flight review"),
            "no missing words: {prompt}"
        );
        assert!(
            prompt.contains(&embedded),
            "the probe to rephrase: {prompt}"
        );
        let tally = examiner.tally();
        match fallback {
            Some(embedded) => {
                assert_eq!(phrased.value, embedded, "{said}");
                assert_eq!(tally.fallbacks.get("phrase/gives_away"), Some(&1), "{said}");
            }
            None => {
                assert_ne!(phrased.value, embedded, "{said}");
                assert_eq!(tally.used, 1, "{said}");
            }
        }
    }
}

#[tokio::test]
async fn a_model_follow_up_is_refused_once_the_plan_allows_no_more() {
    const WITH_FOLLOW_UP: &str = r#"{"score": "partial", "feedback": "Half of it.",
        "mentioned_elements": [], "source_summary": "14 CFR 61.3",
        "follow_up": "Which medical certificate do you hold?"}"#;
    let examiner = examiner_on(Behaviour::Says(WITH_FOLLOW_UP, "stop")).await;
    let allowed = examiner.assess(&assess_request()).await;
    assert_eq!(allowed.value.feedback, "Half of it.");
    let spent = AssessRequest {
        follow_ups_left: 0,
        ..assess_request()
    };
    let embedded = EmbeddedExaminer::new(library()).assess_now(&spent);
    assert_eq!(examiner.assess(&spent).await.value, embedded);
    let tally = examiner.tally();
    assert_eq!(tally.used, 1);
    assert_eq!(tally.fallbacks.get("assess/follow_up_over_cap"), Some(&1));
}
