//! Where an answer stands, told honestly and in order. With a slow (model) examiner the
//! device gets the answer's `ack`, then `answer.assessing`, then its `assessment`, and no
//! `question.delta` of the next question before that `assessment`; with the embedded
//! examiner the verdict comes with the `ack`, and there is no cue to send.

use std::time::Duration;

use serde_json::Value;

use crate::harness::{Auth, Client, Options, Server, answer, count, satisfactory_for, start_exam};

use viva_testkit::openai::{Behaviour, endpoint};

const QUESTION: &str = "Which documents must you carry as pilot in command, and why?";
const VERDICT: &str = r#"{"score": "satisfactory", "feedback": "Clear and complete.",
    "mentioned_elements": [], "source_summary": "14 CFR 61.3", "follow_up": null}"#;

/// A server whose model examiner takes `assess_delay` over each verdict and phrases nothing
/// ahead (so every question is phrased, and streamed, after the verdict before it), with an
/// exam of three questions and no bonus or follow-up.
async fn slow_model_server(assess_delay: Duration) -> Server {
    let behaviour = Behaviour::Examines {
        question: QUESTION,
        verdict: VERDICT,
        assess_delay,
    };
    let (url, _) = endpoint(behaviour).await;
    let dir = tempfile::tempdir().expect("config dir");
    let config = dir.path().join("viva.toml");
    let text = format!(
        "[llm]\nurl = \"{url}\"\nmodel = \"test\"\ntimeout = \"8s\"\nphrase_ahead = false\n\
         [exam]\nmin = 3\nmax = 3\nbonus_max = 0\nfollow_up_max_per_element = 0\n"
    );
    std::fs::write(&config, text).expect("write config");
    Server::start_with_options(Options {
        args: vec!["--config".into(), config.display().to_string()],
        ..Default::default()
    })
    .await
}

/// The position of the first event of `kind` about `question_id`.
fn position_of(events: &[Value], kind: &str, question_id: &Value) -> Option<usize> {
    events
        .iter()
        .position(|e| e["type"] == kind && &e["question_id"] == question_id)
}

/// One answer's events, in order: its ack first (checked by `answer`), one unsequenced
/// `answer.assessing` for the question, its `assessment`, then the next question's pieces.
fn check_order(events: &[Value], question: &Value) {
    let id = &question["question_id"];
    assert_eq!(count(events, "answer.assessing"), 1, "{events:?}");
    let assessing = position_of(events, "answer.assessing", id).expect("a cue for this answer");
    let assessed = position_of(events, "assessment", id).expect("its assessment");
    assert!(0 < assessing && assessing < assessed, "{events:?}");
    assert!(events[assessing].get("seq").is_none(), "a cue has no seq");
    let deltas: Vec<usize> = (0..events.len())
        .filter(|&at| events[at]["type"] == "question.delta")
        .collect();
    let Some(next) = events.iter().find(|e| e["type"] == "question") else {
        assert!(deltas.is_empty(), "{events:?}");
        return;
    };
    assert!(!deltas.is_empty(), "the next question streams: {events:?}");
    for at in deltas {
        assert!(at > assessed, "a delta before the verdict: {events:?}");
        assert_eq!(events[at]["question_id"], next["question_id"], "{events:?}");
    }
}

#[tokio::test]
async fn a_slow_verdict_is_announced_and_no_question_delta_overtakes_it() {
    let server = slow_model_server(Duration::from_millis(400)).await;
    let mut client = Client::connect(&server, Auth::bearer("ava")).await;
    let started = start_exam(&mut client, "d1").await;
    let mut question = started.question;
    for _ in 0..3 {
        let answered = answer(&mut client, &satisfactory_for(&question)).await;
        check_order(&answered.events, &question);
        if answered.next["type"] == "session.completed" {
            return;
        }
        question = answered.question();
    }
    panic!("a three-question exam did not complete");
}

#[tokio::test]
async fn the_embedded_examiner_judges_at_once_and_sends_no_cue() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("eli")).await;
    let started = start_exam(&mut client, "d1").await;
    let answered = answer(&mut client, &satisfactory_for(&started.question)).await;
    assert_eq!(
        count(&answered.events, "answer.assessing"),
        0,
        "{:?}",
        answered.events
    );
}
