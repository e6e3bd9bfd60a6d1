//! The one-question check through a real server: the smallest whole mode, added after the
//! mode seam without an edit under `actors/` or `redis-store/`. Started over the socket,
//! asked, answered, completed; its checkpoint survives SIGKILL and resumes on the file
//! store, and a second device takes it over like any session.

use serde_json::{Value, json};

use crate::harness::{Auth, Client, Server, count, find, next_event_id, resume};

/// Starts a check asking `question`; returns its session id and the question event.
async fn start_check(client: &mut Client, question: &str) -> (String, Value) {
    let event_id = next_event_id("start");
    let frame = json!({"type": "session.start", "event_id": event_id, "device_id": "A",
        "mode": "one_question", "config": {"question": question}});
    client.send_json(frame).await;
    let events = client
        .collect_until(|events| count(events, "question") > 0)
        .await;
    let started = find(&events, "session.started");
    assert_eq!(started["mode"], "one_question", "{started}");
    assert_eq!(started["plan"]["planned_questions"], 1, "{started}");
    let session_id = started["session_id"].as_str().expect("an id").to_owned();
    (session_id, find(&events, "question").clone())
}

/// Answers `text`; returns `session.completed`.
async fn answer(client: &mut Client, text: &str) -> Value {
    let event_id = next_event_id("answer");
    let frame = json!({"type": "answer.text", "event_id": event_id, "text": text});
    client.send_json(frame).await;
    let events = client
        .collect_until(|events| count(events, "session.completed") > 0)
        .await;
    let acked = events
        .iter()
        .any(|e| e["type"] == "ack" && e["event_id"] == event_id);
    assert!(acked, "the answer is acked: {events:?}");
    find(&events, "session.completed").clone()
}

#[tokio::test]
async fn a_check_asks_once_and_completes_with_what_it_heard() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let (_, question) = start_check(&mut alice, "Say the phonetic alphabet's first word.").await;
    assert_eq!(question["text"], "Say the phonetic alphabet's first word.");
    assert_eq!(question["question_id"], "q1", "{question}");
    let choice = json!({"type": "answer.choice", "event_id": "c1", "index": 0});
    alice.send_json(choice).await;
    alice.expect_error("invalid_answer", Some("c1")).await;
    let stuck = json!({"type": "tutor.stuck", "event_id": "t1"});
    alice.send_json(stuck).await;
    alice.expect_error("wrong_mode", Some("t1")).await;
    let completed = answer(&mut alice, "Alpha").await;
    let result = &completed["result"];
    assert_eq!(result["mode"], "one_question", "{completed}");
    assert_eq!(result["answer"], "Alpha", "{completed}");
}

#[tokio::test]
async fn a_bad_question_is_refused_with_invalid_config() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let frame = json!({"type": "session.start", "event_id": "s1", "device_id": "A",
        "mode": "one_question", "config": {"question": " "}});
    alice.send_json(frame).await;
    alice.expect_error("invalid_config", Some("s1")).await;
}

#[tokio::test]
async fn a_check_survives_a_kill_and_resumes_where_it_stood() {
    let mut server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let (session_id, _) = start_check(&mut alice, "Say your call sign.").await;
    server.kill().await;
    drop(alice);
    let server = server.restart().await;
    let mut phone = Client::connect(&server, Auth::bearer("alice")).await;
    let resumed = resume(&mut phone, "B", Some(&session_id)).await;
    assert_eq!(
        resumed.resumed["mode"], "one_question",
        "{}",
        resumed.resumed
    );
    assert_eq!(resumed.question["text"], "Say your call sign.");
    let completed = answer(&mut phone, "November one two three").await;
    assert_eq!(completed["result"]["answer"], "November one two three");
}
