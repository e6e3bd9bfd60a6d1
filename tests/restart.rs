//! Durability: acked answers survive SIGKILL; SIGTERM pauses clients; resume after restart.

use crate::harness::{
    Auth, Client, Server, answer, answer_until_acked, code, field_u64, resume, satisfactory_for,
    start_exam,
};

#[tokio::test]
async fn resume_after_kill_loses_no_acked_answer() {
    let mut server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    let first = answer(&mut alice, &satisfactory_for(&started.question)).await;
    let second = first.question();
    answer_until_acked(&mut alice, &second).await;
    server.kill().await;
    drop(alice);
    let server = server.restart().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let resumed = resume(&mut alice, "A", Some(&started.session_id)).await;
    let (event, question) = (&resumed.resumed, &resumed.question);
    assert_eq!(event["session_id"], started.session_id.as_str(), "{event}");
    assert_eq!(
        event["progress"]["answered"], 2,
        "both acked answers kept: {event}"
    );
    assert_eq!(field_u64(question, "number"), 3, "{question}");
    assert_ne!(code(question), code(&second), "{question}");
    assert_ne!(code(question), code(&started.question), "{question}");
    let third = answer(&mut alice, &satisfactory_for(question)).await;
    assert_eq!(third.assessment["question_id"], question["question_id"]);
    assert_eq!(
        third.assessment["score"], "satisfactory",
        "{}",
        third.assessment
    );
}

#[tokio::test]
async fn graceful_shutdown_pauses_clients_and_resumes_after_restart() {
    let data_dir = tempfile::tempdir().expect("data dir");
    let mut server = Server::start_with_dir(data_dir.path()).await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    let session_id = started.session_id.as_str();
    let first = answer(&mut alice, &satisfactory_for(&started.question)).await;
    let second = first.question();
    let client_side = async {
        let paused = alice.expect("session.paused").await;
        assert_eq!(paused["reason"], "server_shutdown", "{paused}");
        assert_eq!(paused["session_id"], session_id, "{paused}");
        alice.expect_closed().await;
    };
    tokio::join!(server.stop(), client_side);
    drop(server);
    let server = Server::start_with_dir(data_dir.path()).await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let resumed = resume(&mut alice, "A", Some(session_id)).await;
    let (event, question) = (&resumed.resumed, &resumed.question);
    assert_eq!(event["progress"]["answered"], 1, "{event}");
    assert_eq!(question["number"], second["number"], "{question}");
    assert_eq!(code(question), code(&second), "{question}");
    let answered = answer(&mut alice, &satisfactory_for(question)).await;
    assert_eq!(answered.question()["number"], 3, "{:?}", answered.events);
}
