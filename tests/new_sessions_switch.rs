//! The operator's switch for new sessions: `viva exams stop-new` refuses new exams and
//! assessments with `new_sessions_disabled` on every node, at once and without a restart,
//! while running exams go on to their end, paused ones resume and results stay readable.

use serde_json::json;

use crate::harness::{
    Auth, Client, RedisServer, Server, answer, count, data_dir_of, exams, http_get, next_event_id,
    result_path, resume, run_to_completion, satisfactory_for, start_exam, start_refused, token,
};

/// Pauses the session on `client` (`session.pause`) and waits for the pause and its ack.
async fn pause(client: &mut Client) {
    let event_id = next_event_id("pause");
    client
        .send_json(json!({"type": "session.pause", "event_id": event_id}))
        .await;
    client
        .collect_until(|events| count(events, "session.paused") > 0 && count(events, "ack") > 0)
        .await;
}

#[tokio::test]
async fn stopped_starts_are_refused_while_a_running_exam_finishes_and_a_paused_one_resumes() {
    let server = Server::start().await;
    let storage = data_dir_of(&server);
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let running = start_exam(&mut alice, "A").await;
    let mut bob = Client::connect(&server, Auth::bearer("bob")).await;
    let paused = start_exam(&mut bob, "B").await;
    pause(&mut bob).await;
    let said = exams("stop-new", &storage).await;
    assert!(said.contains("REFUSED"), "{said}");
    let mut carol = Client::connect(&server, Auth::bearer("carol")).await;
    start_refused(&mut carol, "exam").await;
    start_refused(&mut carol, "assessment").await;
    carol.assert_alive().await;
    let run = run_to_completion(&mut alice, running.question, satisfactory_for).await;
    assert_eq!(
        run.completed["result"]["outcome"], "satisfactory",
        "{}",
        run.completed
    );
    let result = http_get(
        &server,
        &result_path(&running.session_id),
        Some(&token("alice")),
    )
    .await;
    assert_eq!(result.status, 200, "{result:?}");
    let resumed = resume(&mut bob, "B", Some(&paused.session_id)).await;
    assert_eq!(
        resumed.question["question_id"],
        paused.question["question_id"]
    );
    let answered = answer(&mut bob, &satisfactory_for(&resumed.question)).await;
    assert_eq!(answered.question()["number"], 2, "{:?}", answered.events);
    let said = exams("allow-new", &storage).await;
    assert!(said.contains("accepted"), "{said}");
    start_exam(&mut carol, "C").await;
}

#[tokio::test]
async fn a_config_that_refuses_starts_is_overridden_by_the_switch_until_it_is_removed() {
    let config_dir = tempfile::tempdir().expect("config dir");
    let config = config_dir.path().join("viva.toml");
    std::fs::write(&config, "[server]\naccept_new_sessions = false\n").expect("write config");
    let config = config.display().to_string();
    let server = Server::start_with_options(crate::harness::Options {
        blueprints: None,
        args: vec!["--config".into(), config.clone()],
        ..Default::default()
    })
    .await;
    let mut storage = data_dir_of(&server);
    storage.extend(["--config".to_owned(), config]);
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    start_refused(&mut alice, "exam").await;
    let said = exams("status", &storage).await;
    assert!(
        said.contains("REFUSED") && said.contains("this config: false"),
        "{said}"
    );
    exams("allow-new", &storage).await;
    start_exam(&mut alice, "A").await;
    exams("use-config", &storage).await;
    let mut bob = Client::connect(&server, Auth::bearer("bob")).await;
    start_refused(&mut bob, "assessment").await;
}

#[tokio::test]
async fn the_switch_in_redis_stops_starts_on_every_node_while_their_exams_go_on() {
    let redis = RedisServer::start();
    let urls = vec![redis.url()];
    let one = Server::node(&urls, false, "one", &[]).await;
    let two = Server::node(&urls, false, "two", &[]).await;
    let storage = vec!["--redis".to_owned(), redis.url()];
    let mut alice = Client::connect(&one, Auth::bearer("alice")).await;
    let running = start_exam(&mut alice, "A").await;
    exams("stop-new", &storage).await;
    for node in [&one, &two] {
        let mut carol = Client::connect(node, Auth::bearer("carol")).await;
        start_refused(&mut carol, "exam").await;
    }
    drop(alice);
    let mut alice = Client::connect(&two, Auth::bearer("alice")).await;
    let resumed = resume(&mut alice, "A2", Some(&running.session_id)).await;
    let run = run_to_completion(&mut alice, resumed.question, satisfactory_for).await;
    assert_eq!(run.completed["session_id"], running.session_id.as_str());
    exams("allow-new", &storage).await;
    let mut carol = Client::connect(&one, Auth::bearer("carol")).await;
    start_exam(&mut carol, "C").await;
}
