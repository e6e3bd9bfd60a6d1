//! Several `viva serve` nodes sharing one real Redis: crash recovery on another node,
//! cross-node takeover, racing starts, a stale owner, a Redis restart, and Redis Cluster.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{
    Auth, Client, RedisCluster, RedisServer, Server, answer, answer_until_acked, count, field_str,
    field_u64, http_get, next_event_id, result_path, resume, run_to_completion, satisfactory_for,
    start_exam, token,
};

/// Reads events until one is `session.paused`, returning it and how long that took.
async fn until_paused(client: &mut Client) -> (Value, Duration) {
    let begun = Instant::now();
    loop {
        let event = client.next_event().await;
        if event["type"] == "session.paused" {
            return (event, begun.elapsed());
        }
    }
}

/// Every event that arrives before `quiet` passes with none.
async fn drain(client: &mut Client, quiet: Duration) -> Vec<Value> {
    let mut events = Vec::new();
    while let Ok(event) = tokio::time::timeout(quiet, client.next_event()).await {
        events.push(event);
    }
    events
}

fn redis_urls(redis: &RedisServer) -> Vec<String> {
    vec![redis.url()]
}

#[tokio::test]
async fn an_answer_acked_before_a_node_kill_is_resumed_on_another_node_exactly_once() {
    let redis = RedisServer::start();
    let mut one = Server::node(&redis_urls(&redis), false, "one", &[]).await;
    let two = Server::node(&redis_urls(&redis), false, "two", &[]).await;
    let mut alice = Client::connect(&one, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    let first = answer(&mut alice, &satisfactory_for(&started.question)).await;
    let second = first.question();
    answer_until_acked(&mut alice, &second).await;
    one.kill().await;
    drop(alice);
    let mut alice = Client::connect(&two, Auth::bearer("alice")).await;
    let resumed = resume(&mut alice, "A", Some(&started.session_id)).await;
    assert_eq!(
        resumed.resumed["progress"]["answered"], 2,
        "{}",
        resumed.resumed
    );
    assert_eq!(
        field_u64(&resumed.question, "number"),
        3,
        "{}",
        resumed.question
    );
    let run = run_to_completion(&mut alice, resumed.question, satisfactory_for).await;
    let answered_codes: Vec<&str> = run
        .questions
        .iter()
        .map(|q| field_str(q, "element_code"))
        .collect();
    assert!(
        !answered_codes.contains(&field_str(&second, "element_code")),
        "{answered_codes:?}"
    );
    let path = result_path(&started.session_id);
    let response = http_get(&two, &path, Some(&token("alice"))).await;
    assert_eq!(response.status, 200, "{}", response.body);
}

#[tokio::test]
async fn a_start_on_another_node_pauses_the_first_device_and_a_resume_pauses_back() {
    let redis = RedisServer::start();
    let one = Server::node(&redis_urls(&redis), false, "one", &[]).await;
    let two = Server::node(&redis_urls(&redis), false, "two", &[]).await;
    let mut a = Client::connect(&one, Auth::bearer("bob"))
        .await
        .named("A@one");
    let mut b = Client::connect(&two, Auth::bearer("bob"))
        .await
        .named("B@two");
    let first = start_exam(&mut a, "A").await;
    start_exam(&mut b, "B").await;
    let (paused, waited) = until_paused(&mut a).await;
    assert_eq!(paused["reason"], "other_device", "{paused}");
    assert_eq!(paused["session_id"], first.session_id.as_str(), "{paused}");
    assert!(waited < Duration::from_secs(1), "A paused after {waited:?}");
    resume(&mut a, "A", Some(&first.session_id)).await;
    let (paused, waited) = until_paused(&mut b).await;
    assert_eq!(paused["reason"], "other_device", "{paused}");
    assert!(waited < Duration::from_secs(1), "B paused after {waited:?}");
    let next = answer(&mut a, &satisfactory_for(&first.question)).await;
    assert_eq!(
        next.assessment["score"], "satisfactory",
        "{}",
        next.assessment
    );
}

/// A config file allowing many open sessions, so racing starts are not rate limited.
fn roomy_config() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("config dir");
    let path = dir.path().join("viva.toml");
    let limits = "[limits]\nopen_sessions = 50\nstarts_per_minute = 50\n";
    std::fs::write(&path, limits).expect("write config");
    let path = path.display().to_string();
    (dir, path)
}

#[tokio::test]
async fn ten_devices_racing_session_start_on_three_nodes_leave_one_active_exam() {
    let redis = RedisServer::start();
    let (_dir, config) = roomy_config();
    let extra = ["--config", config.as_str()];
    let mut nodes = Vec::new();
    for name in ["one", "two", "three"] {
        nodes.push(Server::node(&redis_urls(&redis), false, name, &extra).await);
    }
    let mut devices = Vec::new();
    for n in 0..10 {
        let node = &nodes[n % 3];
        devices.push(
            Client::connect(node, Auth::bearer("carol"))
                .await
                .named(&format!("D{n}")),
        );
    }
    for (n, device) in devices.iter_mut().enumerate() {
        let frame = json!({"type": "session.start", "event_id": format!("start-{n}"),
            "device_id": format!("D{n}"), "mode": "exam",
            "config": {"rating": "private", "study_mode": "linear", "tasks": ["PA.I.A"]}});
        device.send_json(frame).await;
    }
    let mut active = Vec::new();
    for device in &mut devices {
        let events = drain(device, Duration::from_millis(1500)).await;
        assert_eq!(count(&events, "session.started"), 1, "{events:?}");
        if count(&events, "session.paused") == 0 {
            active.push(field_str(&events[0], "session_id").to_owned());
        }
    }
    assert_eq!(
        active.len(),
        1,
        "exactly one device keeps its exam: {active:?}"
    );
    let stored = redis.cli(&[
        "HGET",
        &format!("viva:{{u:{}}}:user", hex("carol")),
        "active",
    ]);
    assert_eq!(stored, active[0]);
}

fn hex(text: &str) -> String {
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

#[tokio::test]
async fn a_stale_owner_stopped_past_its_lease_cannot_overwrite_and_stops() {
    let redis = RedisServer::start();
    let lease = ["--lease", "1s"];
    let one = Server::node(&redis_urls(&redis), false, "one", &lease).await;
    let two = Server::node(&redis_urls(&redis), false, "two", &lease).await;
    let mut a = Client::connect(&one, Auth::bearer("dave"))
        .await
        .named("A@one");
    let started = start_exam(&mut a, "A").await;
    let second = answer(&mut a, &satisfactory_for(&started.question))
        .await
        .question();
    one.signal("STOP");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut b = Client::connect(&two, Auth::bearer("dave"))
        .await
        .named("B@two");
    let resumed = resume(&mut b, "B", Some(&started.session_id)).await;
    assert_eq!(
        resumed.resumed["progress"]["answered"], 1,
        "{}",
        resumed.resumed
    );
    one.signal("CONT");
    let stale = next_event_id("stale");
    let text = satisfactory_for(&second);
    a.send_json(json!({"type": "answer.text", "event_id": stale, "text": text}))
        .await;
    let events = drain(&mut a, Duration::from_millis(1500)).await;
    let moved = events
        .iter()
        .any(|e| e["type"] == "error" && e["code"] == "session_moved");
    assert!(moved, "the stale owner reports session_moved: {events:?}");
    assert!(events.iter().all(|e| e["type"] != "ack"), "{events:?}");
    a.send_json(json!({"type": "answer.text", "event_id": "again", "text": "x"}))
        .await;
    let refused = a.expect("error").await;
    assert_ne!(refused["code"], "ok", "{refused}");
    let again = resume(&mut b, "B", Some(&started.session_id)).await;
    assert_eq!(
        again.resumed["progress"]["answered"], 1,
        "{}",
        again.resumed
    );
    assert_eq!(again.question["question_id"], second["question_id"]);
}

#[tokio::test]
async fn a_redis_restart_mid_session_holds_acks_then_recovers_with_no_acked_answer_lost() {
    let mut redis = RedisServer::start();
    let mut node = Server::node(&redis_urls(&redis), false, "one", &[]).await;
    let mut erin = Client::connect(&node, Auth::bearer("erin")).await;
    let started = start_exam(&mut erin, "A").await;
    let second = answer(&mut erin, &satisfactory_for(&started.question))
        .await
        .question();
    redis.stop();
    let held = next_event_id("held");
    let text = satisfactory_for(&second);
    erin.send_json(json!({"type": "answer.text", "event_id": held, "text": text}))
        .await;
    erin.expect_error("storage_unavailable", Some(&held)).await;
    let mut frank = Client::connect(&node, Auth::bearer("frank")).await;
    frank
        .send_json(
            json!({"type": "session.start", "event_id": "s", "device_id": "F", "mode": "exam",
            "config": {"rating": "private", "tasks": ["PA.I.A"]}}),
        )
        .await;
    frank.expect_error("storage_unavailable", Some("s")).await;
    redis.restart();
    let events = erin
        .collect_until(|events| count(events, "question") > 0)
        .await;
    assert!(
        events[0]["type"] == "ack" && events[0]["event_id"] == held.as_str(),
        "{events:?}"
    );
    node.kill().await;
    let node = Server::node(&redis_urls(&redis), false, "two", &[]).await;
    let mut erin = Client::connect(&node, Auth::bearer("erin")).await;
    let resumed = resume(&mut erin, "A", Some(&started.session_id)).await;
    assert_eq!(
        resumed.resumed["progress"]["answered"], 2,
        "{}",
        resumed.resumed
    );
}

#[tokio::test]
async fn a_full_exam_runs_on_a_redis_cluster_across_a_node_kill() {
    let cluster = RedisCluster::start();
    let mut one = Server::node(&cluster.urls(), true, "one", &[]).await;
    let two = Server::node(&cluster.urls(), true, "two", &[]).await;
    let mut gail = Client::connect(&one, Auth::bearer("gail")).await;
    let started = start_exam(&mut gail, "A").await;
    let first = answer(&mut gail, &satisfactory_for(&started.question)).await;
    one.kill().await;
    let mut gail = Client::connect(&two, Auth::bearer("gail")).await;
    let resumed = resume(&mut gail, "A", Some(&started.session_id)).await;
    assert_eq!(
        resumed.question["question_id"],
        first.question()["question_id"]
    );
    let run = run_to_completion(&mut gail, resumed.question, satisfactory_for).await;
    assert_eq!(run.completed["type"], "session.completed");
    let path = result_path(&started.session_id);
    let response = http_get(&two, &path, Some(&token("gail"))).await;
    assert_eq!(response.status, 200, "{}", response.body);
}

#[tokio::test]
async fn a_session_taken_to_another_node_pauses_the_old_device_whose_events_are_refused() {
    let redis = RedisServer::start();
    let one = Server::node(&redis_urls(&redis), false, "one", &[]).await;
    let two = Server::node(&redis_urls(&redis), false, "two", &[]).await;
    let mut a = Client::connect(&one, Auth::bearer("hana"))
        .await
        .named("A@one");
    let started = start_exam(&mut a, "A").await;
    let mut b = Client::connect(&two, Auth::bearer("hana"))
        .await
        .named("B@two");
    let resumed = resume(&mut b, "B", Some(&started.session_id)).await;
    let (paused, waited) = until_paused(&mut a).await;
    assert_eq!(paused["reason"], "other_device", "{paused}");
    assert!(waited < Duration::from_secs(1), "A paused after {waited:?}");
    let late = next_event_id("late");
    let text = satisfactory_for(&started.question);
    a.send_json(json!({"type": "answer.text", "event_id": late, "text": text}))
        .await;
    let refused = a.expect("error").await;
    assert_eq!(refused["event_id"], late.as_str(), "{refused}");
    assert!(
        ["session_moved", "session_paused"].contains(&field_str(&refused, "code")),
        "{refused}"
    );
    let answered = answer(&mut b, &satisfactory_for(&resumed.question)).await;
    assert_eq!(answered.assessment["score"], "satisfactory");
    let again = resume(&mut b, "B", Some(&started.session_id)).await;
    assert_eq!(
        again.resumed["progress"]["answered"], 1,
        "{}",
        again.resumed
    );
}
