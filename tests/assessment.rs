//! Blueprint assessments over the socket: scoring, the answer key staying on the server,
//! learning feedback, the time limit, skipping, spoken answers, and rate limits.

use serde_json::{Value, json};

use crate::harness::{
    Auth, Client, Server, answer_item, blueprints_with, field_str, field_u64, http_get,
    keyed_answer, last, next_event_id, result_path, server_with, spoken_ipv4, start_assessment,
    stored_checkpoint, token,
};

const MATH: &str = "MATH-FUNDAMENTALS-L1";

/// Answers every item correctly, alternating `answer.choice` and `answer.text`; returns all
/// frames received and the completion event.
async fn answer_all_correctly(
    server: &Server,
    client: &mut Client,
    session_id: &str,
    first: Value,
) -> (Vec<Value>, Value) {
    let mut question = first;
    let mut frames = vec![question.clone()];
    loop {
        let number = field_u64(&question, "number");
        let (answer, index) = keyed_answer(server, session_id, number);
        let frame = if number.is_multiple_of(2) {
            json!({"type": "answer.choice", "event_id": next_event_id("c"), "index": index})
        } else {
            json!({"type": "answer.text", "event_id": next_event_id("t"), "text": answer})
        };
        let events = answer_item(client, frame).await;
        frames.extend(events.iter().cloned());
        let next = last(&events);
        if next["type"] == "session.completed" {
            return (frames, next);
        }
        question = next;
    }
}

#[tokio::test]
async fn evaluation_answered_correctly_scores_100_in_the_top_band() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, first) = start_assessment(&mut client, MATH, false).await;
    assert_eq!(started["plan"]["planned_questions"], 20, "{started}");
    let session_id = field_str(&started, "session_id").to_owned();
    let (frames, completed) = answer_all_correctly(&server, &mut client, &session_id, first).await;
    let stems: std::collections::BTreeSet<&str> = frames
        .iter()
        .filter(|f| f["type"] == "question")
        .map(|f| field_str(f, "text"))
        .collect();
    assert_eq!(stems.len(), 20, "stems are unique within a session");
    let result = &completed["result"];
    assert_eq!(result["mode"], "assessment", "{result}");
    assert_eq!(
        (
            result["score_percent"].as_f64(),
            result["items_correct"].as_u64()
        ),
        (Some(100.0), Some(20))
    );
    assert_eq!(
        (result["grade_band"].as_str(), result["passed"].as_bool()),
        (Some("Excellent"), Some(true))
    );
    assert_eq!(
        result["sections"].as_array().map(Vec::len),
        Some(4),
        "{result}"
    );
    assert!(
        result.get("audit").is_none(),
        "no audit trail on the socket: {result}"
    );
    let response = http_get(&server, &result_path(&session_id), Some(&token("ann"))).await;
    assert_eq!(response.status, 200);
    let audit = response.json()["audit"]
        .as_array()
        .cloned()
        .expect("audit trail");
    assert_eq!(audit.len(), 20);
    assert!(audit.iter().all(|item| item["correct"] == true
        && item["answer"].is_string()
        && item["seed"].is_u64()));
}

#[tokio::test]
async fn evaluation_frames_never_reveal_the_answer_key() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("leo")).await;
    let (started, first) = start_assessment(&mut client, MATH, false).await;
    let session_id = field_str(&started, "session_id").to_owned();
    let (frames, _) = answer_all_correctly(&server, &mut client, &session_id, first).await;
    let before_completion = frames
        .iter()
        .take_while(|f| f["type"] != "session.completed");
    for frame in before_completion {
        let keys: Vec<&str> = frame
            .as_object()
            .expect("object")
            .keys()
            .map(String::as_str)
            .collect();
        for forbidden in [
            "answer",
            "answer_index",
            "correct",
            "correct_answer",
            "explanation",
            "score",
            "feedback",
        ] {
            assert!(!keys.contains(&forbidden), "{forbidden} leaked in {frame}");
        }
        if frame["type"] == "assessment" {
            let mut sorted: Vec<&str> = keys
                .iter()
                .copied()
                .filter(|key| *key != "understood_as")
                .collect();
            sorted.sort();
            assert_eq!(
                sorted,
                ["question_id", "recorded", "seq", "type"],
                "{frame}"
            );
            if let Some(understood) = frame.get("understood_as") {
                let understood = understood.as_str().unwrap_or_default();
                assert!(
                    !understood.is_empty() && understood.len() <= 64,
                    "understood_as is the candidate's own answer, read: {frame}"
                );
            }
        }
    }
}

#[tokio::test]
async fn learning_mode_gives_correctness_and_explanation_after_each_answer() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("liz")).await;
    let (started, question) = start_assessment(&mut client, MATH, true).await;
    let session_id = field_str(&started, "session_id").to_owned();
    let (answer, index) = keyed_answer(&server, &session_id, 1);
    let wrong = (index + 1) % question["options"].as_array().map_or(4, Vec::len) as u64;
    let events = answer_item(
        &mut client,
        json!({"type": "answer.choice", "index": wrong}),
    )
    .await;
    let assessment = events
        .iter()
        .find(|e| e["type"] == "assessment")
        .expect("assessment");
    assert_eq!(assessment["score"], "unsatisfactory", "{assessment}");
    assert_eq!(
        assessment["correct_answer"],
        answer.as_str(),
        "{assessment}"
    );
    assert!(!field_str(assessment, "feedback").is_empty());
    let (answer, _) = keyed_answer(&server, &session_id, 2);
    let events = answer_item(&mut client, json!({"type": "answer.text", "text": answer})).await;
    let assessment = events
        .iter()
        .find(|e| e["type"] == "assessment")
        .expect("assessment");
    assert_eq!(assessment["score"], "satisfactory", "{assessment}");
}

const SHORT: &str = r#"
assessment_id: "TEST-SHORT"
metadata: {title: "Two quick sums"}
configuration: {total_items: 3, time_limit_minutes: 0.03, passing_score_percent: 50, shuffle_items: false,
                allow_skip: false}
sections:
  - section_id: add
    title: Addition
    item_count: 3
    skill_blueprints: [{skill_id: "MATH.ARITH.ADD.1DIGIT", weight: 1}]
    difficulty_distribution: {easy: 3}
scoring: {grade_bands: [{label: Pass, min_percent: 50}, {label: Fail, min_percent: 0}]}
"#;

#[tokio::test]
async fn the_time_limit_completes_the_session_and_unanswered_items_count_wrong() {
    let blueprints = blueprints_with(&[("short.yaml", SHORT)]);
    let server = server_with(blueprints.path(), &[]).await;
    let mut client = Client::connect(&server, Auth::bearer("tim")).await;
    let (started, _) = start_assessment(&mut client, "TEST-SHORT", false).await;
    let session_id = field_str(&started, "session_id").to_owned();
    let (answer, _) = keyed_answer(&server, &session_id, 1);
    answer_item(&mut client, json!({"type": "answer.text", "text": answer})).await;
    let completed = client.expect("session.completed").await;
    let result = &completed["result"];
    assert_eq!(result["trigger"], "time_limit", "{result}");
    assert_eq!(
        (
            result["items_correct"].as_u64(),
            result["items_attempted"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(result["score_percent"].as_f64(), Some(33.33), "{result}");
    client
        .send_json(json!({"type": "answer.text", "event_id": "late", "text": "4"}))
        .await;
    client.expect_error("session_completed", Some("late")).await;
}

#[tokio::test]
async fn skipping_follows_the_blueprint() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("sam")).await;
    start_assessment(&mut client, MATH, false).await;
    let events = answer_item(
        &mut client,
        json!({"type": "answer.skip", "event_id": "s1"}),
    )
    .await;
    assert_eq!(last(&events)["number"], 2, "{events:?}");
    client
        .send_json(json!({"type": "session.end", "event_id": "end"}))
        .await;
    let completed = client.expect("session.completed").await;
    assert_eq!(completed["result"]["items_skipped"], 1, "{completed}");
    let blueprints = blueprints_with(&[("short.yaml", SHORT)]);
    let strict = server_with(blueprints.path(), &[]).await;
    let mut client = Client::connect(&strict, Auth::bearer("sam")).await;
    start_assessment(&mut client, "TEST-SHORT", false).await;
    client
        .send_json(json!({"type": "answer.skip", "event_id": "s2"}))
        .await;
    client.expect_error("skip_not_allowed", Some("s2")).await;
}

#[tokio::test]
async fn spoken_answers_are_normalised_before_judging() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("ned")).await;
    let (started, mut question) = start_assessment(&mut client, "NETWORKING-BASICS-L1", true).await;
    let session_id = field_str(&started, "session_id").to_owned();
    let mut spoken = 0;
    while question["type"] == "question" {
        let (answer, _) = keyed_answer(&server, &session_id, field_u64(&question, "number"));
        let text = if answer.split('.').count() == 4 {
            spoken += 1;
            spoken_ipv4(&answer)
        } else {
            answer
        };
        let events = answer_item(&mut client, json!({"type": "answer.text", "text": text})).await;
        let assessment = events
            .iter()
            .find(|e| e["type"] == "assessment")
            .expect("assessment");
        assert_eq!(
            assessment["score"], "satisfactory",
            "{text:?} for {question}: {assessment}"
        );
        question = last(&events);
    }
    assert!(
        spoken > 0,
        "the networking assessment asked for at least one address"
    );
}

#[tokio::test]
async fn starting_too_many_sessions_is_rate_limited() {
    let config = tempfile::NamedTempFile::new().expect("config");
    std::fs::write(
        config.path(),
        "[limits]\nstarts_per_minute = 2\nopen_sessions = 10\n",
    )
    .expect("write config");
    let path = config.path().to_str().expect("utf-8 path").to_owned();
    let blueprints = blueprints_with(&[]);
    let server = server_with(blueprints.path(), &["--config", &path]).await;
    let mut client = Client::connect(&server, Auth::bearer("rae")).await;
    start_assessment(&mut client, MATH, false).await;
    start_assessment(&mut client, MATH, false).await;
    let frame = json!({"type": "session.start", "event_id": "third", "device_id": "d", "mode": "assessment",
                       "config": {"assessment_id": MATH}});
    client.send_json(frame).await;
    client.expect_error("rate_limited", Some("third")).await;
}

#[tokio::test]
async fn an_assessment_resumes_after_a_kill_with_its_answers_and_open_item() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("kit")).await;
    let (started, first) = start_assessment(&mut client, MATH, false).await;
    let session_id = field_str(&started, "session_id").to_owned();
    let (answer, _) = keyed_answer(&server, &session_id, 1);
    let events = answer_item(
        &mut client,
        json!({"type": "answer.text", "event_id": "k1", "text": answer}),
    )
    .await;
    let second = last(&events);
    let mut server = server;
    server.kill().await;
    let server = server.restart().await;
    let mut client = Client::connect(&server, Auth::bearer("kit")).await;
    let frame = json!({"type": "session.resume", "device_id": "d", "session_id": session_id});
    client.send_json(frame).await;
    let events = client
        .collect_until(|events| events.iter().any(|e| e["type"] == "question"))
        .await;
    let resumed = events
        .iter()
        .find(|e| e["type"] == "session.resumed")
        .expect("resumed");
    assert_eq!(resumed["progress"]["answered"], 1, "{resumed}");
    let question = events
        .iter()
        .find(|e| e["type"] == "question")
        .expect("question");
    assert_eq!(
        (&question["question_id"], &question["text"]),
        (&second["question_id"], &second["text"])
    );
    assert_eq!(
        question["options"], second["options"],
        "the same item, options in the same order"
    );
    assert_ne!(first["text"], question["text"]);
}

/// Starts MATH with a client seed as `user` and returns the first question and the session's
/// stored seed.
async fn start_seeded(server: &Server, user: &str, learning: bool) -> (Value, u64) {
    let mut client = Client::connect(server, Auth::bearer(user)).await;
    let config = json!({"assessment_id": MATH, "learning": learning, "seed": 7});
    let frame = json!({"type": "session.start", "event_id": next_event_id("start"),
                       "device_id": "d", "mode": "assessment", "config": config});
    client.send_json(frame).await;
    let events = client
        .collect_until(|events| events.iter().any(|e| e["type"] == "question"))
        .await;
    let question = last(&events);
    let started = events.iter().find(|e| e["type"] == "session.started");
    let session_id = field_str(started.expect("session.started"), "session_id").to_owned();
    let checkpoint = stored_checkpoint(server, &session_id);
    let seed = checkpoint["assessment"]["seed"].as_u64().expect("seed");
    (question, seed)
}

#[tokio::test]
async fn evaluation_ignores_a_client_seed_so_no_run_replays_another() {
    let server = Server::start().await;
    let (first, first_seed) = start_seeded(&server, "eve", false).await;
    let (second, second_seed) = start_seeded(&server, "mallory", false).await;
    assert_ne!(first_seed, 7, "the client's seed is not used");
    assert_ne!(
        first_seed, second_seed,
        "each evaluation draws its own seed"
    );
    assert!(
        first["text"] != second["text"] || first["options"] != second["options"],
        "same seed, different items: {first} / {second}"
    );
}

#[tokio::test]
async fn learning_honours_a_client_seed() {
    let server = Server::start().await;
    let (first, first_seed) = start_seeded(&server, "lin", true).await;
    let (second, second_seed) = start_seeded(&server, "lou", true).await;
    assert_eq!((first_seed, second_seed), (7, 7));
    assert_eq!(first["text"], second["text"]);
    assert_eq!(first["options"], second["options"]);
}
