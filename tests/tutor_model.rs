//! The model tutor through a real server and a real OpenAI-compatible endpoint on loopback:
//! a proposal within the policy streams its words as `tutor.delta` previews and is spoken
//! with the brain's card; a proposal that breaks a rule (shown nothing), and a model that
//! hangs, give the embedded brain's turn, with the reason in the turn log's metrics; a card
//! event never waits for the model. A free-form answer to a rubric drill is judged by the
//! model examiner (its quotes checked in code): "I don't know" stays wrong, a complete
//! answer is right, and the device is told (`answer.assessing`) while the model judges.

use std::time::Duration;

use serde_json::json;
use viva_testkit::openai::{Behaviour, endpoint};

use crate::harness::{
    Auth, Client, Server, card, http_get, next_event_id, satisfactory_answer, start_tutor,
    stored_checkpoint, tutor_send, tutor_send_streamed,
};

const SAYS: &str = r#"{"action": "socratic_question", "target_unit": "add-1digit", "text": "What do you add to 8 to make ten?", "exam_question_id": null, "key_ideas": [], "worked_example": null, "mapped_units": []}"#;

const FORBIDDEN: &str = r#"{"action": "concept_card", "target_unit": "add-1digit", "text": "Key ideas.", "exam_question_id": null, "key_ideas": ["Count on."], "worked_example": null, "mapped_units": []}"#;

async fn tutored(behaviour: Behaviour, timeout: &str) -> (Server, Client) {
    let (url, _requests) = endpoint(behaviour).await;
    let server = Server::start_with_llm(&url, "test", timeout).await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    start_tutor(&mut ann, "ARITHMETIC").await;
    (server, ann)
}

#[tokio::test]
async fn a_proposal_within_the_policy_is_spoken_with_the_brains_card() {
    let (server, mut ann) = tutored(Behaviour::Says(SAYS, "stop"), "8s").await;
    let message = json!({"type": "tutor.message", "text": "how do I add 8 and 5"});
    let (deltas, turn) = tutor_send_streamed(&mut ann, message).await;
    assert_eq!(turn["action"], "socratic_question", "{turn}");
    assert_eq!(
        turn["messages"][0]["text"],
        "What do you add to 8 to make ten?"
    );
    assert!(deltas.len() > 1, "the words stream in pieces: {deltas:?}");
    for delta in &deltas {
        assert_eq!(delta["turn"], turn["turn"], "{delta}");
        assert!(delta.get("seq").is_none(), "a preview has no seq: {delta}");
    }
    let streamed: String = deltas.iter().filter_map(|d| d["text"].as_str()).collect();
    assert_eq!(streamed, "What do you add to 8 to make ten?");
    assert_eq!(card(&turn)["kind"], "socratic_question");
    let drill = tutor_send(&mut ann, json!({"type": "tutor.request_drill"})).await;
    assert_eq!(
        drill["action"], "drill",
        "card events are the brain's: {drill}"
    );
    let metrics = http_get(&server, "/metrics", None).await.body;
    let used = "viva_llm_calls_total{call=\"tutor\",outcome=\"used\"} 1";
    assert!(metrics.contains(used), "{metrics}");
}

#[tokio::test]
async fn a_proposal_breaking_a_rule_gives_the_brains_turn_and_counts_why() {
    let (server, mut ann) = tutored(Behaviour::Says(FORBIDDEN, "stop"), "8s").await;
    let message = json!({"type": "tutor.message", "text": "what's for lunch"});
    let (deltas, turn) = tutor_send_streamed(&mut ann, message).await;
    assert_eq!(
        deltas,
        Vec::<serde_json::Value>::new(),
        "a forbidden opening shows nothing"
    );
    assert_eq!(turn["action"], "socratic_question", "{turn}");
    assert_ne!(turn["messages"][0]["text"], "Key ideas.");
    let metrics = http_get(&server, "/metrics", None).await.body;
    let counted = "viva_tutor_fallbacks_total{reason=\"model_action_not_allowed\"} 1";
    assert!(metrics.contains(counted), "{metrics}");
}

#[tokio::test]
async fn a_model_that_hangs_gives_the_brains_turn_after_its_timeout() {
    let (server, mut ann) = tutored(Behaviour::Hangs, "1s").await;
    let message = json!({"type": "tutor.message", "text": "how do I add 8 and 5"});
    let turn = tutor_send(&mut ann, message).await;
    assert_eq!(turn["action"], "socratic_question", "{turn}");
    assert_eq!(turn["target_unit"], "add-1digit");
    let metrics = http_get(&server, "/metrics", None).await.body;
    let counted = "viva_tutor_fallbacks_total{reason=\"model_timeout\"} 1";
    assert!(metrics.contains(counted), "{metrics}");
}

#[tokio::test]
async fn a_rubric_drill_answer_is_judged_by_the_model_examiner_on_evidence() {
    let behaviour = Behaviour::Examines {
        question: "Unused?",
        verdict: r#"{"score": "satisfactory", "feedback": "Fine.", "mentioned_elements": [],
            "source_summary": "x", "follow_up": null}"#,
        assess_delay: Duration::ZERO,
    };
    let (url, requests) = endpoint(behaviour).await;
    let server = Server::start_with_llm(&url, "test", "8s").await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, _) = start_tutor(&mut ann, "PPL-GROUND").await;
    let session_id = started["session_id"].as_str().unwrap().to_owned();
    for (answer, right) in [("I don't know", false), ("", true)] {
        let drill = tutor_send(&mut ann, json!({"type": "tutor.request_drill"})).await;
        let open = &stored_checkpoint(&server, &session_id)["tutor"]["open"];
        assert_eq!(open["kind"], "rubric_drill", "{drill}");
        let element = open["element"].as_str().unwrap().to_owned();
        let text = if right {
            satisfactory_answer(&element)
        } else {
            answer.to_owned()
        };
        let before = requests.count();
        let frame = json!({"type": "answer.text", "event_id": next_event_id("d"), "text": text});
        ann.send_json(frame).await;
        let events = ann
            .collect_until(|events| events.iter().any(|e| e["type"] == "tutor.turn"))
            .await;
        let result = events[events.len() - 1].clone();
        let assessing = events.iter().find(|e| e["type"] == "answer.assessing");
        let assessing = assessing.unwrap_or_else(|| panic!("no cue: {events:?}"));
        assert_eq!(
            assessing["question_id"],
            card(&drill)["drill_id"],
            "{assessing}"
        );
        assert_eq!(result["action"], "drill_result", "{result}");
        assert_eq!(card(&result)["correct"], right, "{text}: {result}");
        assert!(requests.count() > before, "the model examiner was asked");
    }
    let metrics = http_get(&server, "/metrics", None).await.body;
    assert!(
        metrics.contains("viva_llm_calls_total{call=\"assess\""),
        "{metrics}"
    );
}
