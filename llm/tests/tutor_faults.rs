//! `LlmTutor` against a real OpenAI-compatible endpoint on loopback that misbehaves on
//! purpose. A reply within the policy is proposed; garbage, a forbidden action, a unit out of
//! scope, an exam question that is not a candidate, card content on a plain reply, a hang, a
//! failure and a truncation each come back as their reason (the brain's turn is then used),
//! each after exactly one request (no retry), with the call in the turn log. The reply's
//! text streams to the deltas as it comes, and a reply is dropped as soon as it writes a
//! forbidden action or target: one that writes it before its text shows nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::sync::Mutex;
use std::time::Duration;

use viva_core::examiner::no_deltas;
use viva_core::tutor::grounding::{Anchor, Candidate, Grounding, UnitTitle};
use viva_core::tutor::lite::{SnapshotLite, TierCounts};
use viva_core::tutor::model::{ModelTurnRequest, TutorModel};
use viva_core::tutor::policy::{Action, CONSTRAINTS, Policy};
use viva_core::tutor::snapshot::Tier;
use viva_llm::prompts::Prompts;
use viva_llm::provider::{LlmSettings, Provider};
use viva_llm::tutor::LlmTutor;
use viva_testkit::openai::{Behaviour, endpoint, user_prompt};

/// Each call's limit: generous, since this machine may be busy building.
const TIMEOUT: Duration = Duration::from_secs(3);

fn tutor(base_url: String) -> LlmTutor {
    let provider = Provider::new(LlmSettings {
        base_url,
        model: "test".into(),
        api_key: None,
        timeout: TIMEOUT,
        max_in_flight: 2,
        max_tokens: 256,
    });
    LlmTutor::new(provider, Prompts::load(None).unwrap())
}

fn request() -> ModelTurnRequest {
    let policy = Policy {
        target: "add-1digit".into(),
        blocker: None,
        stuck: false,
        desired_exam_tier: Some(Tier::Bronze),
        exam_ready: true,
        allowed_actions: vec![Action::SocraticQuestion, Action::Drill, Action::Exam],
        scoped_units: vec!["add-1digit".into()],
        constraints: CONSTRAINTS,
    };
    let title = |unit_id: &str, title: &str| UnitTitle {
        unit_id: unit_id.into(),
        title: title.into(),
    };
    let grounding = Grounding {
        course_units: vec![
            title("add-1digit", "Adding one-digit numbers"),
            title("add-2digit", "Adding two-digit numbers"),
        ],
        anchors: vec![Anchor {
            unit_id: "add-1digit".into(),
            title: "Adding one-digit numbers".into(),
            anchor: "The addition facts up to 18.".into(),
        }],
        chunks: Vec::new(),
        candidates: vec![Candidate {
            question_id: "add-1digit-bronze-1".into(),
            unit_id: "add-1digit".into(),
            tier: "bronze".into(),
            stem: "What is 4 + 3?".into(),
            options: vec!["7".into(), "6".into()],
        }],
    };
    ModelTurnRequest {
        turn: 3,
        course_title: "Arithmetic".into(),
        policy,
        grounding,
        lite: SnapshotLite {
            focus_unit: "add-1digit".into(),
            focus_tier: Tier::None,
            prerequisite_nudge: None,
            revisit: Vec::new(),
            revisit_more: 0,
            counts: TierCounts::default(),
            locks: Vec::new(),
        },
        event: "tutor.message".into(),
        input: "how do I add 8 and 5?".into(),
        available: vec!["add-1digit-bronze-1".into()],
    }
}

const GOOD: &str = r#"{"action": "socratic_question", "target_unit": "add-1digit", "text": "What number do you need to add to 8 to make ten?", "exam_question_id": null, "key_ideas": [], "worked_example": null, "mapped_units": [{"unit_id": "add-1digit", "confidence": 0.9}]}"#;

#[tokio::test]
async fn a_reply_within_the_policy_is_proposed_and_the_prompt_carries_the_turn() {
    let (url, requests) = endpoint(Behaviour::Says(GOOD, "stop")).await;
    let shown = Mutex::new(Vec::new());
    let deltas = |piece: &str| shown.lock().unwrap().push(piece.to_owned());
    let answer = tutor(url).propose(&request(), &deltas).await;
    let proposal = answer.value.expect("used");
    assert_eq!(proposal.action, Action::SocraticQuestion);
    assert!(proposal.text.contains("make ten"));
    let shown = shown.into_inner().unwrap();
    assert!(shown.len() > 1, "streamed in pieces: {shown:?}");
    assert_eq!(shown.concat(), proposal.text, "the words, not the JSON");
    let call = answer.call.expect("logged");
    assert_eq!(
        (call.call.as_str(), call.outcome.as_str()),
        ("tutor", "used")
    );
    let sent = requests.all();
    assert_eq!(sent.len(), 1);
    let user = user_prompt(&sent[0]);
    assert!(
        user.contains("POLICY") && user.contains("add-1digit-bronze-1"),
        "{user}"
    );
    assert_eq!(sent[0]["stream"], true);
    let schema = &sent[0]["response_format"]["json_schema"]["schema"];
    let actions: Vec<&serde_json::Value> = schema["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|branch| &branch["properties"]["action"]["const"])
        .collect();
    assert_eq!(actions, ["socratic_question", "drill", "exam"]);
}

#[tokio::test]
async fn every_fault_is_named_and_made_once() {
    let cases: [(Behaviour, &str); 9] = [
        (Behaviour::Garbage, "endpoint"),
        (Behaviour::Fails, "endpoint"),
        (Behaviour::Says("not json at all", "stop"), "unparseable"),
        (Behaviour::Says(GOOD, "length"), "truncated"),
        (
            Behaviour::Says(
                r#"{"action": "concept_card", "target_unit": "add-1digit", "text": "Ideas.", "exam_question_id": null, "key_ideas": ["x"], "worked_example": null, "mapped_units": []}"#,
                "stop",
            ),
            "action_not_allowed",
        ),
        (
            Behaviour::Says(
                r#"{"action": "socratic_question", "target_unit": "add-2digit", "text": "Why?", "exam_question_id": null, "key_ideas": [], "worked_example": null, "mapped_units": []}"#,
                "stop",
            ),
            "target_out_of_scope",
        ),
        (
            Behaviour::Says(
                r#"{"action": "exam", "target_unit": "add-1digit", "text": "Ready.", "exam_question_id": "add-1digit-gold-9", "key_ideas": [], "worked_example": null, "mapped_units": []}"#,
                "stop",
            ),
            "exam_question_not_available",
        ),
        (
            Behaviour::Says(
                r#"{"action": "socratic_question", "target_unit": "add-1digit", "text": "Think.", "exam_question_id": null, "key_ideas": ["a"], "worked_example": null, "mapped_units": []}"#,
                "stop",
            ),
            "card_on_plain_reply",
        ),
        (
            Behaviour::Says(
                r#"{"text": "Here are my rules: 1. Choose exactly one action from POLICY.allowed_actions. 2. Teach the unit.", "action": "socratic_question", "mapped_units": []}"#,
                "stop",
            ),
            "recites_prompt",
        ),
    ];
    for (behaviour, reason) in cases {
        let (url, requests) = endpoint(behaviour).await;
        let shown = Mutex::new(Vec::new());
        let deltas = |piece: &str| shown.lock().unwrap().push(piece.to_owned());
        let answer = tutor(url).propose(&request(), &deltas).await;
        assert_eq!(answer.value.clone().unwrap_err(), reason);
        // These replies write the offending field before their text: dropped before a word.
        let opened_badly = ["action_not_allowed", "target_out_of_scope"];
        if opened_badly.contains(&reason) {
            assert!(shown.lock().unwrap().is_empty(), "{reason}: nothing shown");
        }
        if reason == "recites_prompt" {
            let shown = shown.lock().unwrap().concat();
            assert!(
                !shown.contains("POLICY"),
                "cut before the prompt's words: {shown}"
            );
        }
        let call = answer.call.expect("logged");
        assert_eq!(call.fallback_reason.as_deref(), Some(reason));
        assert_eq!(requests.count(), 1, "{reason}: no retry");
    }
}

#[tokio::test]
async fn a_hang_ends_at_the_timeout() {
    let (url, requests) = endpoint(Behaviour::Hangs).await;
    let began = std::time::Instant::now();
    let answer = tutor(url).propose(&request(), &no_deltas).await;
    assert_eq!(answer.value.unwrap_err(), "timeout");
    assert!(
        began.elapsed() < TIMEOUT * 4,
        "bounded by the call's timeout"
    );
    assert_eq!(requests.count(), 1);
}
