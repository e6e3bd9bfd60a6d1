//! Idle-session hibernation: a session whose device sends nothing for `--hibernate-after`
//! stops its actor and is woken from its checkpoint by the next event, with no difference the
//! client can see — the next answer goes on from the same question and `seq`, another device
//! still pauses it at once, its device leaving still pauses it, a claim on another node
//! still moves it, and a shutdown still tells its device.

use serde_json::{Value, json};

use crate::harness::{
    Auth, Client, Options, RedisServer, Server, TIMEOUT, answer, card, count, field_u64, http_get,
    metric, next_event_id, resume, satisfactory_for, start_exam, start_tutor, stored_checkpoint,
    tutor_send,
};

const AFTER: &str = "300ms";

async fn server(extra: &[&str]) -> Server {
    let mut args = vec!["--hibernate-after".to_owned(), AFTER.to_owned()];
    args.extend(extra.iter().map(|arg| (*arg).to_owned()));
    Server::start_with_options(Options {
        args,
        ..Default::default()
    })
    .await
}

async fn metrics_text(server: &Server) -> String {
    http_get(server, "/metrics", None).await.body
}

/// Waits until `series` reads `value` (a hang, not a slow machine, runs out of time).
async fn until_metric(server: &Server, series: &str, value: f64) {
    let waited = async {
        while metric(&metrics_text(server).await, series) != value {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    };
    if tokio::time::timeout(TIMEOUT, waited).await.is_err() {
        let text = metrics_text(server).await;
        panic!("{series} never read {value}:\n{text}");
    }
}

async fn until_hibernated(server: &Server, sessions: f64) {
    until_metric(server, "viva_sessions_hibernated", sessions).await;
}

/// Every event up to `session.paused`, errors included.
async fn until_paused(client: &mut Client) -> Vec<Value> {
    let mut events = Vec::new();
    while events
        .last()
        .is_none_or(|e: &Value| e["type"] != "session.paused")
    {
        events.push(client.next_event().await);
    }
    events
}

/// The `seq` of the last sequenced event in `events`.
fn last_seq(events: &[Value]) -> u64 {
    events
        .iter()
        .filter_map(|event| event["seq"].as_u64())
        .max()
        .expect("a sequenced event")
}

#[tokio::test]
async fn an_idle_exam_hibernates_and_its_next_answer_goes_on_as_if_it_never_stopped() {
    let server = server(&[]).await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    let seq_before = last_seq(&[started.started.clone(), started.question.clone()]);
    until_hibernated(&server, 1.0).await;
    let text = metrics_text(&server).await;
    assert_eq!(
        metric(&text, "viva_sessions{phase=\"awaiting_answer\"}"),
        0.0,
        "{text}"
    );
    assert_eq!(metric(&text, "viva_hibernations_total"), 1.0, "{text}");

    let answered = answer(&mut alice, &satisfactory_for(&started.question)).await;
    assert_eq!(
        answered.assessment["question_id"],
        started.question["question_id"]
    );
    let next = answered.question();
    assert_eq!(field_u64(&next, "number"), 2, "{next}");
    assert_eq!(
        count(&answered.events, "session.resumed"),
        0,
        "{:?}",
        answered.events
    );
    let seqs: Vec<u64> = answered
        .events
        .iter()
        .filter_map(|e| e["seq"].as_u64())
        .collect();
    assert_eq!(
        seqs.first(),
        Some(&(seq_before + 1)),
        "{:?}",
        answered.events
    );
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
    let text = metrics_text(&server).await;
    assert_eq!(metric(&text, "viva_wake_seconds_count"), 1.0, "{text}");

    // Asleep again, and woken by a pause as well as by an answer.
    until_hibernated(&server, 1.0).await;
    let event_id = next_event_id("pause");
    alice
        .send_json(json!({"type": "session.pause", "event_id": event_id}))
        .await;
    let events = alice
        .collect_until(|events| count(events, "session.paused") > 0 && count(events, "ack") > 0)
        .await;
    let first = events.iter().filter_map(|e| e["seq"].as_u64()).min();
    assert_eq!(first, Some(last_seq(&answered.events) + 1), "{events:?}");
}

/// A tutor session wakes as invisibly as an exam: after hibernating, its next inputs are
/// answered at once, with no `session.resume` and no error.
#[tokio::test]
async fn an_idle_tutor_session_hibernates_and_its_next_input_is_answered() {
    let server = server(&[]).await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (_, opening) = start_tutor(&mut ann, "ARITHMETIC").await;
    until_hibernated(&server, 1.0).await;
    let drill = tutor_send(&mut ann, json!({"type": "tutor.request_drill"})).await;
    assert_eq!(drill["action"], "drill", "{drill}");
    assert_eq!(field_u64(&drill, "turn"), field_u64(&opening, "turn") + 1);
    until_hibernated(&server, 1.0).await;
    let check = json!({"type": "tutor.drill_check", "drill_id": card(&drill)["drill_id"],
        "index": 0});
    let result = tutor_send(&mut ann, check).await;
    assert_eq!(result["action"], "drill_result", "{result}");
    let text = metrics_text(&server).await;
    assert_eq!(metric(&text, "viva_wake_seconds_count"), 2.0, "{text}");
}

#[tokio::test]
async fn a_second_device_pauses_a_hibernated_one_at_once() {
    let server = server(&[]).await;
    let mut a = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut a, "A").await;
    until_hibernated(&server, 1.0).await;
    let mut b = Client::connect(&server, Auth::bearer("alice")).await;
    let resumed = resume(&mut b, "B", None).await;
    let paused = a.expect("session.paused").await;
    assert_eq!(paused["reason"], "other_device", "{paused}");
    assert_eq!(paused["session_id"], started.session_id.as_str());
    assert_eq!(
        resumed.question["question_id"],
        started.question["question_id"]
    );
    let answered = answer(&mut b, &satisfactory_for(&started.question)).await;
    assert_eq!(field_u64(&answered.question(), "number"), 2);
    // The paused device's answer is refused, as it would be had the session stayed awake.
    a.send_json(json!({"type": "answer.text", "event_id": "late", "text": "x"}))
        .await;
    a.expect_error("session_paused", Some("late")).await;
}

#[tokio::test]
async fn a_new_exam_on_another_device_pauses_a_hibernated_one() {
    let server = server(&[]).await;
    let mut a = Client::connect(&server, Auth::bearer("alice")).await;
    let first = start_exam(&mut a, "A").await;
    until_hibernated(&server, 1.0).await;
    let mut b = Client::connect(&server, Auth::bearer("alice")).await;
    let second = start_exam(&mut b, "B").await;
    let paused = a.expect("session.paused").await;
    assert_eq!(paused["reason"], "other_device", "{paused}");
    assert_eq!(paused["session_id"], first.session_id.as_str());
    assert_ne!(second.session_id, first.session_id);
}

#[tokio::test]
async fn a_hibernated_session_whose_device_leaves_is_paused() {
    let server = server(&[]).await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    until_hibernated(&server, 1.0).await;
    drop(alice);
    until_hibernated(&server, 0.0).await;
    let waited = async {
        while stored_checkpoint(&server, &started.session_id)["phase"] != "paused" {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    };
    if tokio::time::timeout(TIMEOUT, waited).await.is_err() {
        let checkpoint = stored_checkpoint(&server, &started.session_id);
        panic!("the checkpoint never read paused: {checkpoint}");
    }
    let mut again = Client::connect(&server, Auth::bearer("alice")).await;
    let resumed = resume(&mut again, "A", Some(&started.session_id)).await;
    assert_eq!(
        resumed.question["question_id"],
        started.question["question_id"]
    );
}

#[tokio::test]
async fn a_claim_on_another_node_moves_a_hibernated_session() {
    let redis = RedisServer::start();
    let urls = [redis.url()];
    let flags = ["--hibernate-after", AFTER];
    let one = Server::node(&urls, false, "one", &flags).await;
    let two = Server::node(&urls, false, "two", &flags).await;
    let mut a = Client::connect(&one, Auth::bearer("alice")).await;
    let started = start_exam(&mut a, "A").await;
    until_hibernated(&one, 1.0).await;
    let mut b = Client::connect(&two, Auth::bearer("alice")).await;
    let resumed = resume(&mut b, "B", Some(&started.session_id)).await;
    assert_eq!(
        resumed.question["question_id"],
        started.question["question_id"]
    );
    let events = until_paused(&mut a).await;
    let moved = events
        .iter()
        .find(|e| e["type"] == "error")
        .expect("an error");
    assert_eq!(moved["code"], "session_moved", "{events:?}");
    let paused = events
        .iter()
        .find(|e| e["type"] == "session.paused")
        .unwrap();
    assert_eq!(paused["reason"], "other_device", "{paused}");
    answer(&mut b, &satisfactory_for(&started.question)).await;
}

#[tokio::test]
async fn a_hibernated_session_on_a_redis_node_wakes_under_its_claim() {
    let redis = RedisServer::start();
    let node = Server::node(&[redis.url()], false, "one", &["--hibernate-after", AFTER]).await;
    let mut alice = Client::connect(&node, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    let mut question = started.question;
    for number in 2..=3 {
        until_hibernated(&node, 1.0).await;
        let answered = answer(&mut alice, &satisfactory_for(&question)).await;
        question = answered.question();
        assert_eq!(field_u64(&question, "number"), number, "{question}");
    }
}

#[tokio::test]
async fn a_shutdown_tells_the_device_of_a_hibernated_session() {
    let mut server = server(&[]).await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    until_hibernated(&server, 1.0).await;
    let client_side = async {
        let paused = alice.expect("session.paused").await;
        assert_eq!(paused["reason"], "server_shutdown", "{paused}");
        assert_eq!(
            paused["session_id"],
            started.session_id.as_str(),
            "{paused}"
        );
        alice.expect_closed().await;
    };
    tokio::join!(server.stop(), client_side);
    let server = server.restart().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let resumed = resume(&mut alice, "A", Some(&started.session_id)).await;
    assert_eq!(
        resumed.question["question_id"],
        started.question["question_id"]
    );
}
