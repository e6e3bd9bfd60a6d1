//! Flight scenarios over the socket: an exam started with `"scenarios": true` asks through a
//! scenario, reads its setup once, keeps its place across a resume on another device, and
//! names the scenario in the question, the result and the owner's transcript.

use serde_json::{Value, json};

use crate::harness::{
    Auth, Client, Server, answer, code, count, end_session, field_str, find, http_get,
    next_event_id, result_path, resume, satisfactory_for, token,
};

const NIGHT: &str = "night-passengers-lancaster";
const OPENING: &str = "Let's set up a flight.";

/// Starts a linear Private exam over tasks I.A, XI.A and XII.A with scenarios on; returns
/// the session id and the first question.
async fn start_scenario_exam(client: &mut Client) -> (String, Value) {
    let event_id = next_event_id("start");
    let config = json!({"rating": "private", "study_mode": "linear",
        "tasks": ["PA.I.A", "PA.XI.A", "PA.XII.A"], "scenarios": true});
    client
        .send_json(
            json!({"type": "session.start", "event_id": event_id, "device_id": "A",
            "mode": "exam", "config": config}),
        )
        .await;
    let events = client
        .collect_until(|events| {
            let acked = events
                .iter()
                .any(|event| event["type"] == "ack" && event["event_id"] == event_id);
            count(events, "session.started") > 0 && count(events, "question") > 0 && acked
        })
        .await;
    let started = find(&events, "session.started");
    let session_id = field_str(started, "session_id").to_owned();
    (session_id, find(&events, "question").clone())
}

#[tokio::test]
async fn a_scenario_exam_reads_its_setup_once_resumes_in_place_and_names_the_scenario() {
    let server = Server::start().await;
    let mut laptop = Client::connect(&server, Auth::bearer("alice")).await;
    let (session_id, first) = start_scenario_exam(&mut laptop).await;
    assert_eq!(code(&first), "PA.I.A.K1", "{first}");
    assert_eq!(first["scenario"], NIGHT, "{first}");
    assert!(field_str(&first, "text").starts_with(OPENING), "{first}");

    let second = answer(&mut laptop, &satisfactory_for(&first))
        .await
        .question();
    assert_eq!(second["scenario"], NIGHT, "{second}");
    assert!(
        !field_str(&second, "text").contains(OPENING),
        "setup once: {second}"
    );

    let mut phone = Client::connect(&server, Auth::bearer("alice")).await;
    let resumed = resume(&mut phone, "B", Some(&session_id)).await;
    for key in ["question_id", "text", "scenario", "element_code"] {
        assert_eq!(
            resumed.question[key], second[key],
            "the same open question: {key}"
        );
    }
    let third = answer(&mut phone, &satisfactory_for(&second))
        .await
        .question();
    assert_eq!(third["scenario"], NIGHT, "{third}");
    assert!(!field_str(&third, "text").contains(OPENING), "{third}");

    end_session(&mut phone).await;
    let owners = http_get(&server, &result_path(&session_id), Some(&token("alice"))).await;
    assert_eq!(owners.status, 200, "{owners:?}");
    let result = owners.json();
    let first_element = result["elements"]
        .as_array()
        .and_then(|elements| elements.iter().find(|e| e["code"] == "PA.I.A.K1"))
        .unwrap_or_else(|| panic!("PA.I.A.K1 in {result}"));
    assert_eq!(first_element["scenario"], NIGHT, "{first_element}");
    let turns = result["transcript"].as_array().expect("a transcript");
    assert_eq!(turns.len(), 3, "{result}");
    assert!(
        turns.iter().all(|turn| turn["scenario"] == NIGHT),
        "{result}"
    );
}
