//! Adaptive difficulty through a real server: `"difficulty": "adaptive"` announces its
//! starting level in the plan, asks each question at the level in force (its `difficulty`),
//! rises after three satisfactory elements, keeps its level and the scores that may move it
//! across a kill and restart, and reports the levels in the result.

use serde_json::{Value, json};

use crate::harness::{
    Auth, Client, Server, answer, count, find, next_event_id, resume, run_to_completion,
    satisfactory_for,
};

/// Three tasks of area I: more elements than the five planned questions, so answers that
/// credit others by mention leave enough to ask.
const TASKS: [&str; 3] = ["PA.I.A", "PA.I.B", "PA.I.C"];

/// Starts an adaptive exam; the `session.started` and the first `question`.
async fn start_adaptive(client: &mut Client) -> (Value, Value) {
    let event_id = next_event_id("start");
    let config = json!({"rating": "private", "study_mode": "linear", "tasks": TASKS,
        "difficulty": "adaptive"});
    let frame = json!({"type": "session.start", "event_id": event_id, "device_id": "A",
        "mode": "exam", "config": config});
    client.send_json(frame).await;
    let acked = |events: &[Value]| {
        let ack = |e: &Value| e["type"] == "ack" && e["event_id"] == event_id.as_str();
        events.iter().any(ack)
    };
    let events = client
        .collect_until(|events| {
            count(events, "session.started") > 0 && count(events, "question") > 0 && acked(events)
        })
        .await;
    (
        find(&events, "session.started").clone(),
        find(&events, "question").clone(),
    )
}

/// Answers `question` satisfactorily (checked) and returns the next question.
async fn answer_well(client: &mut Client, question: &Value) -> Value {
    let answered = answer(client, &satisfactory_for(question)).await;
    assert_eq!(
        answered.assessment["score"], "satisfactory",
        "{}",
        answered.assessment
    );
    answered.question()
}

#[tokio::test]
async fn an_adaptive_exam_rises_after_three_good_elements_and_keeps_its_level_across_a_restart() {
    let mut server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let (started, first) = start_adaptive(&mut alice).await;
    assert_eq!(
        started["plan"]["adaptive_difficulty"],
        json!({"start": "medium", "window": 4, "min_elements_between_changes": 3}),
        "{started}"
    );
    assert_eq!(first["difficulty"], "medium", "{first}");
    let second = answer_well(&mut alice, &first).await;
    assert_eq!(second["difficulty"], "medium", "{second}");
    let third = answer_well(&mut alice, &second).await;
    assert_eq!(third["difficulty"], "medium", "{third}");

    // Killed with two good elements counted: the restored exam still counts them.
    server.kill().await;
    drop(alice);
    let server = server.restart().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let session_id = started["session_id"].as_str().unwrap_or_default();
    let resumed = resume(&mut alice, "A", Some(session_id)).await;
    assert_eq!(resumed.question["question_id"], third["question_id"]);
    assert_eq!(
        resumed.question["difficulty"], "medium",
        "{}",
        resumed.question
    );
    let fourth = answer_well(&mut alice, &resumed.question).await;
    assert_eq!(
        fourth["difficulty"], "hard",
        "the third good element raised it: {fourth}"
    );

    let run = run_to_completion(&mut alice, fourth, satisfactory_for).await;
    assert!(
        run.questions.iter().all(|q| q["difficulty"] == "hard"),
        "{:?}",
        run.questions
    );
    let result = &run.completed["result"];
    assert_eq!(
        result["adaptive_difficulty"],
        json!({"start": "medium", "end": "hard", "levels": [
            {"level": "medium", "from_question": 1}, {"level": "hard", "from_question": 4}]}),
        "{result}"
    );
}

#[tokio::test]
async fn an_exam_of_fixed_difficulty_says_nothing_of_levels() {
    let server = Server::start().await;
    let mut bob = Client::connect(&server, Auth::bearer("bob")).await;
    let started = crate::harness::start_exam(&mut bob, "B").await;
    assert!(
        started.started["plan"].get("adaptive_difficulty").is_none(),
        "{}",
        started.started
    );
    assert!(
        started.question.get("difficulty").is_none(),
        "{}",
        started.question
    );
    let run = run_to_completion(&mut bob, started.question, satisfactory_for).await;
    assert!(run.completed["result"].get("adaptive_difficulty").is_none());
}
