//! Users are isolated: another user cannot see, resume, end, answer or read a session.

use serde_json::json;

use crate::harness::{
    Auth, Client, Server, answer, end_session, field_str, http_get, random_uuid, result_path,
    satisfactory_for, start_exam, token,
};

#[tokio::test]
async fn other_user_cannot_resume_or_learn_session_exists() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    let mut bob = Client::connect(&server, Auth::bearer("bob")).await;
    let theirs = json!({"type": "session.resume", "event_id": "steal-1", "device_id": "B",
        "session_id": started.session_id});
    bob.send_json(theirs).await;
    let theirs = bob.expect_error("session_not_found", Some("steal-1")).await;
    let unknown = json!({"type": "session.resume", "event_id": "steal-2", "device_id": "B",
        "session_id": random_uuid()});
    bob.send_json(unknown).await;
    let unknown = bob.expect_error("session_not_found", Some("steal-2")).await;
    assert_eq!(
        field_str(&theirs, "message"),
        field_str(&unknown, "message"),
        "the refusal must not reveal that the session exists"
    );
    let answered = answer(&mut alice, &satisfactory_for(&started.question)).await;
    assert_eq!(
        answered.assessment["question_id"],
        started.question["question_id"]
    );
    assert_eq!(
        answered.question()["number"],
        2,
        "alice's session is unaffected"
    );
}

#[tokio::test]
async fn other_user_cannot_read_result() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    let completed = end_session(&mut alice).await;
    let path = result_path(&started.session_id);
    let theirs = http_get(&server, &path, Some(&token("bob"))).await;
    let unknown = http_get(&server, &result_path(&random_uuid()), Some(&token("bob"))).await;
    assert_eq!(theirs.status, 404, "{theirs:?}");
    assert_eq!(unknown.status, 404, "{unknown:?}");
    assert_eq!(
        theirs.body, unknown.body,
        "another user's session looks like an unknown one"
    );
    let own = http_get(&server, &path, Some(&token("alice"))).await;
    assert_eq!(own.status, 200, "{own:?}");
    let mut own = own.json();
    let transcript = own["transcript"].take();
    own.as_object_mut().expect("an object").remove("transcript");
    assert_eq!(own, completed["result"], "alice still reads her own result");
    assert_eq!(
        transcript,
        json!([{"question_id": started.question["question_id"],
                "element_code": started.question["element_code"],
                "kind": "primary",
                "question": started.question["text"]}]),
        "her transcript: the one question, unanswered"
    );
}

#[tokio::test]
async fn other_user_cannot_end_or_answer() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    let mut bob = Client::connect(&server, Auth::bearer("bob")).await;
    bob.send_json(json!({"type": "session.end", "event_id": "end-1"}))
        .await;
    bob.expect_error("no_active_session", Some("end-1")).await;
    let text = satisfactory_for(&started.question);
    bob.send_json(json!({"type": "answer.text", "event_id": "ans-1", "text": text}))
        .await;
    bob.expect_error("no_active_session", Some("ans-1")).await;
    let answered = answer(&mut alice, &text).await;
    assert_eq!(
        answered.assessment["question_id"],
        started.question["question_id"]
    );
    assert_eq!(
        answered.assessment["score"], "satisfactory",
        "{}",
        answered.assessment
    );
    assert_eq!(
        answered.question()["number"],
        2,
        "alice's session was neither ended nor answered"
    );
}
