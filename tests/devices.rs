//! One active exam per user: a second device takes the session over and pauses the first.

use serde_json::{Value, json};

use crate::harness::{
    Auth, Client, PLANNED, Server, Started, answer, count, field_str, find, next_event_id, resume,
    satisfactory_for, start_exam,
};

/// The re-sent question is the open one: same id, text and number.
fn assert_same_question(resent: &Value, open: &Value) {
    for key in ["question_id", "text", "number", "element_code", "kind"] {
        assert_eq!(resent[key], open[key], "{key} differs: {resent} vs {open}");
    }
}

/// `session.paused` for `session_id` with `reason`.
async fn expect_paused(client: &mut Client, session_id: &str, reason: &str) {
    let paused = client.expect("session.paused").await;
    assert_eq!(paused["session_id"], session_id, "{paused}");
    assert_eq!(paused["reason"], reason, "{paused}");
}

/// Alice starts on device A, then connects device B (not yet attached).
async fn alice_on_two_devices(server: &Server) -> (Client, Client, Started) {
    let mut a = Client::connect(server, Auth::bearer("alice"))
        .await
        .named("device A");
    let started = start_exam(&mut a, "A").await;
    let b = Client::connect(server, Auth::bearer("alice"))
        .await
        .named("device B");
    (a, b, started)
}

/// Device B resumes the active session without naming it; A is paused.
async fn take_over_on_b(a: &mut Client, b: &mut Client, started: &Started) {
    let resumed = resume(b, "B", None).await;
    expect_paused(a, &started.session_id, "other_device").await;
    assert_eq!(resumed.resumed["session_id"], started.session_id.as_str());
    assert_same_question(&resumed.question, &started.question);
}

/// Answers the open question on `client`; the session goes on to question 2.
async fn answer_goes_through(client: &mut Client, question: &Value) {
    let answered = answer(client, &satisfactory_for(question)).await;
    assert_eq!(answered.assessment["question_id"], question["question_id"]);
    assert_eq!(answered.question()["number"], 2, "{:?}", answered.events);
}

#[tokio::test]
async fn second_device_pauses_first() {
    let server = Server::start().await;
    let (mut a, mut b, started) = alice_on_two_devices(&server).await;
    let resumed = resume(&mut b, "B", None).await;
    expect_paused(&mut a, &started.session_id, "other_device").await;
    let event = &resumed.resumed;
    assert_eq!(event["session_id"], started.session_id.as_str(), "{event}");
    assert_eq!(event["mode"], "exam", "{event}");
    let progress = &event["progress"];
    assert_eq!(
        progress["asked"], 1,
        "the open question counts as asked: {event}"
    );
    assert_eq!(progress["planned_questions"], PLANNED, "{event}");
    assert_eq!(progress["answered"], 0, "{event}");
    assert_eq!(progress["credited_by_mention"], 0, "{event}");
    assert_eq!(progress["bonus_used"], 0, "{event}");
    assert_same_question(&resumed.question, &started.question);
    answer_goes_through(&mut b, &started.question).await;
}

#[tokio::test]
async fn starting_on_second_device_pauses_first() {
    let server = Server::start().await;
    let (mut a, mut b, first) = alice_on_two_devices(&server).await;
    let second = start_exam(&mut b, "B").await;
    expect_paused(&mut a, &first.session_id, "other_device").await;
    assert_ne!(
        second.session_id, first.session_id,
        "session.start opens a new session"
    );
    answer_goes_through(&mut b, &second.question).await;
}

#[tokio::test]
async fn resume_on_first_device_resumes_same_question() {
    let server = Server::start().await;
    let (mut a, mut b, started) = alice_on_two_devices(&server).await;
    take_over_on_b(&mut a, &mut b, &started).await;
    let back = resume(&mut a, "A", Some(&started.session_id)).await;
    expect_paused(&mut b, &started.session_id, "other_device").await;
    assert_eq!(back.resumed["session_id"], started.session_id.as_str());
    assert_same_question(&back.question, &started.question);
    answer_goes_through(&mut a, &started.question).await;
}

#[tokio::test]
async fn paused_device_answers_are_refused() {
    let server = Server::start().await;
    let (mut a, mut b, started) = alice_on_two_devices(&server).await;
    take_over_on_b(&mut a, &mut b, &started).await;
    let text = satisfactory_for(&started.question);
    let frame = json!({"type": "answer.text", "event_id": "stale-1", "text": text});
    a.send_json(frame).await;
    a.expect_error("session_paused", Some("stale-1")).await;
    a.assert_alive().await;
    let back = resume(&mut a, "A", None).await;
    expect_paused(&mut b, &started.session_id, "other_device").await;
    assert_eq!(
        back.resumed["progress"]["answered"], 0,
        "the refused answer was not applied"
    );
    let frame = json!({"type": "answer.text", "event_id": "stale-2", "text": text});
    b.send_json(frame).await;
    b.expect_error("session_paused", Some("stale-2")).await;
    answer_goes_through(&mut a, &started.question).await;
}

#[tokio::test]
async fn user_pause_then_resume() {
    let server = Server::start().await;
    let mut a = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut a, "A").await;
    let event_id = next_event_id("pause");
    a.send_json(json!({"type": "session.pause", "event_id": event_id}))
        .await;
    let events = a
        .collect_until(|events| count(events, "session.paused") > 0 && count(events, "ack") > 0)
        .await;
    let paused = find(&events, "session.paused");
    assert_eq!(paused["reason"], "user", "{paused}");
    assert_eq!(
        paused["session_id"],
        started.session_id.as_str(),
        "{paused}"
    );
    let ack = find(&events, "ack");
    assert_eq!(field_str(ack, "event_id"), event_id, "{ack}");
    let text = satisfactory_for(&started.question);
    a.send_json(json!({"type": "answer.text", "event_id": "held-1", "text": text}))
        .await;
    a.expect_error("session_paused", Some("held-1")).await;
    let back = resume(&mut a, "A", Some(&started.session_id)).await;
    assert_same_question(&back.question, &started.question);
    answer_goes_through(&mut a, &started.question).await;
}
