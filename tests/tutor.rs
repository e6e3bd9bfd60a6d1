//! Tutoring over the socket, one test per trigger of the design document's "Exhaustive Input
//! → Response Triggers" (A: messages, B: drill cards, C: exam cards), against a real server:
//! a blocked unit, a message off the course, stuck after two wrong drills, bronze after a
//! streak of two, refused card events, lockouts and their expiry, the progress board, the
//! evaluation rule, and a snapshot that survives a kill -9 and resumes on another node.

use serde_json::{Value, json};

use crate::harness::{
    Auth, Client, Options, RedisServer, Server, card, drill_answer, drill_key, exam_key, field_str,
    http_get, next_event_id, right_drill_answer, start_assessment, start_exam, start_tutor, token,
    tutor_send,
};

const ARITHMETIC: &str = "ARITHMETIC";

/// A server whose lockout is `lockout` (`[tutor] lockout`).
async fn server_with_lockout(lockout: &str) -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("config dir");
    let config = dir.path().join("viva.toml");
    std::fs::write(&config, format!("[tutor]\nlockout = \"{lockout}\"\n")).expect("config");
    let options = Options {
        blueprints: None,
        args: vec!["--config".into(), config.display().to_string()],
        ..Default::default()
    };
    (Server::start_with_options(options).await, dir)
}

/// Requests a drill and answers it right or wrong; returns the result turn.
async fn drill(server: &Server, client: &mut Client, session_id: &str, right: bool) -> Value {
    let turn = tutor_send(client, json!({"type": "tutor.request_drill"})).await;
    assert_eq!(turn["action"], "drill", "{turn}");
    let key = drill_key(server, session_id);
    tutor_send(client, drill_answer(&turn, key, right)).await
}

/// Two right drills, then `tutor.drill_continue`: the exam turn.
async fn to_exam(server: &Server, client: &mut Client, session_id: &str) -> Value {
    drill(server, client, session_id, true).await;
    let second = drill(server, client, session_id, true).await;
    assert!(
        field_str(&second["messages"][0], "text").contains("ready for the exam"),
        "{second}"
    );
    let exam = tutor_send(client, json!({"type": "tutor.drill_continue"})).await;
    assert_eq!(exam["action"], "exam", "{exam}");
    exam
}

async fn progress(server: &Server, user: &str, course: &str) -> Value {
    let path = format!("/v1/tutor/{course}/progress");
    let response = http_get(server, &path, Some(&token(user))).await;
    assert_eq!(response.status, 200, "{}", response.body);
    serde_json::from_str(&response.body).expect("a board")
}

/// Opening: a new student is greeted on the entry unit, with the snapshot beside the turn.
#[tokio::test]
async fn a_new_student_starts_at_the_entry_unit_with_a_socratic_question() {
    let server = Server::start().await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, turn) = start_tutor(&mut ann, ARITHMETIC).await;
    assert_eq!(started["mode"], "tutor", "{started}");
    assert_eq!(started["plan"]["queue_length"], 12);
    assert_eq!(turn["action"], "socratic_question", "{turn}");
    assert_eq!(turn["target_unit"], "add-1digit");
    assert_eq!(turn["snapshot"]["focus_tier"], "none");
    assert_eq!(turn["snapshot"]["counts"]["none"], 12);
    assert!(
        turn.get("debug").is_none(),
        "no policy view outside development mode"
    );
}

/// A1: a message about a unit whose prerequisite is untouched gets the prerequisite nudge.
#[tokio::test]
async fn a1_a_message_about_a_blocked_unit_is_nudged_to_its_prerequisite() {
    let server = Server::start().await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    start_tutor(&mut ann, ARITHMETIC).await;
    let text = "how do I add three-digit numbers, carrying into the hundreds?";
    let turn = tutor_send(&mut ann, json!({"type": "tutor.message", "text": text})).await;
    assert_eq!(turn["action"], "prerequisite_nudge", "{turn}");
    assert_eq!(turn["target_unit"], "add-3digit");
    assert_eq!(card(&turn)["prerequisite_id"], "add-2digit");
    assert_eq!(
        card(&turn)["start_id"],
        "add-1digit",
        "add-2digit needs add-1digit first"
    );
    assert_eq!(turn["snapshot"]["focus_unit"], "add-1digit");
    let drill = tutor_send(&mut ann, json!({"type": "tutor.request_drill"})).await;
    assert_eq!(
        card(&drill)["unit_id"],
        "add-1digit",
        "drills start where the nudge said"
    );
}

/// A2: a message off the course (typed as `answer.text`, as `viva talk` sends it) keeps the
/// focus and gets a guiding question there; in development mode the turn carries the policy.
#[tokio::test]
async fn a2_a_message_off_the_course_stays_on_the_focus_with_the_policy_in_dev_mode() {
    let server = Server::start_dev().await;
    let mut ann = Client::connect(&server, Auth::DevUser("ann".into())).await;
    start_tutor(&mut ann, ARITHMETIC).await;
    let turn = tutor_send(
        &mut ann,
        json!({"type": "answer.text", "text": "what's for lunch"}),
    )
    .await;
    assert_eq!(turn["action"], "socratic_question", "{turn}");
    assert_eq!(turn["target_unit"], "add-1digit");
    let debug = &turn["debug"];
    assert_eq!(debug["target"], "add-1digit", "{debug}");
    assert_eq!(debug["mapped"], json!([]));
    assert!(
        debug["allowed_actions"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    );
}

/// A3/B1: two wrong drills make the student stuck; "I'm stuck" gets the concept card.
#[tokio::test]
async fn a3_two_wrong_drills_then_stuck_gets_the_concept_card() {
    let server = Server::start().await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, _) = start_tutor(&mut ann, ARITHMETIC).await;
    let session_id = field_str(&started, "session_id").to_owned();
    let first = drill(&server, &mut ann, &session_id, false).await;
    assert_eq!(first["action"], "drill_result", "{first}");
    assert_eq!(card(&first)["correct"], false);
    assert_eq!(card(&first)["streak"], 0);
    let second = drill(&server, &mut ann, &session_id, false).await;
    assert!(
        field_str(&second["messages"][0], "text").contains("stuck"),
        "{second}"
    );
    let help = tutor_send(&mut ann, json!({"type": "tutor.stuck"})).await;
    assert_eq!(help["action"], "concept_card", "{help}");
    let ideas = card(&help)["key_ideas"]
        .as_array()
        .expect("key ideas")
        .len();
    assert!((1..=3).contains(&ideas), "{help}");
}

/// A4/C1: a streak of two makes the exam ready; a pass earns bronze, shown on the board.
#[tokio::test]
async fn a4_a_streak_of_two_then_a_bronze_pass_earns_bronze() {
    let server = Server::start().await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, _) = start_tutor(&mut ann, ARITHMETIC).await;
    let session_id = field_str(&started, "session_id").to_owned();
    let exam = to_exam(&server, &mut ann, &session_id).await;
    let question_id = field_str(card(&exam), "question_id").to_owned();
    assert_eq!(card(&exam)["tier"], "bronze");
    assert!(
        card(&exam).get("answer_index").is_none(),
        "the key stays on the server"
    );
    let key = exam_key("arithmetic.yaml", &question_id);
    let submit = json!({"type": "tutor.exam_submit", "question_id": question_id, "index": key});
    let result = tutor_send(&mut ann, submit).await;
    assert_eq!(card(&result)["correct"], true, "{result}");
    assert_eq!(card(&result)["tier_earned"], "bronze");
    assert_eq!(result["snapshot"]["counts"]["bronze"], 1);
    let board = progress(&server, "ann", ARITHMETIC).await;
    assert_eq!(board["units"][0]["unit_id"], "add-1digit");
    assert_eq!(board["units"][0]["tier"], "bronze", "{board}");
    let next = tutor_send(&mut ann, json!({"type": "tutor.exam_continue"})).await;
    assert_ne!(
        next["target_unit"], "add-1digit",
        "the focus moved on: {next}"
    );
}

/// Each shipped course, from its entry unit to bronze by text: skill drills answered with
/// their keys, the pilot course's rubric drills in full sentences, then the exam.
#[tokio::test]
async fn each_shipped_course_goes_from_its_entry_unit_to_bronze_by_text() {
    let server = Server::start().await;
    let courses = [
        ("ARITHMETIC", "arithmetic.yaml"),
        ("IPV4-SUBNETTING", "ipv4-subnetting.yaml"),
        ("PPL-GROUND", "private-pilot-ground.yaml"),
    ];
    for (course, file) in courses {
        let mut student = Client::connect(&server, Auth::bearer(&format!("s-{course}"))).await;
        let (started, opening) = start_tutor(&mut student, course).await;
        let session_id = field_str(&started, "session_id").to_owned();
        let entry = opening["target_unit"].clone();
        for _ in 0..2 {
            let drill = tutor_send(&mut student, json!({"type": "tutor.request_drill"})).await;
            let answer = right_drill_answer(&server, &session_id, &drill);
            let result = tutor_send(&mut student, answer).await;
            assert_eq!(
                card(&result)["correct"],
                true,
                "{course}: {drill} → {result}"
            );
        }
        let exam = tutor_send(&mut student, json!({"type": "tutor.drill_continue"})).await;
        assert_eq!(exam["action"], "exam", "{course}: {exam}");
        let question_id = field_str(card(&exam), "question_id").to_owned();
        let index = exam_key(file, &question_id);
        let submit =
            json!({"type": "tutor.exam_submit", "question_id": question_id, "index": index});
        let result = tutor_send(&mut student, submit).await;
        assert_eq!(card(&result)["tier_earned"], "bronze", "{course}: {result}");
        let board = progress(&server, &format!("s-{course}"), course).await;
        let unit = board["units"]
            .as_array()
            .and_then(|units| units.iter().find(|u| u["unit_id"] == entry).cloned());
        assert_eq!(
            unit.map(|u| u["tier"].clone()),
            Some(json!("bronze")),
            "{board}"
        );
        student
            .send_json(json!({"type": "session.end", "event_id": "end"}))
            .await;
        student.expect("session.completed").await;
    }
}

/// A5: card events out of place are refused with a clear code and change nothing.
#[tokio::test]
async fn a5_card_events_out_of_place_are_refused_and_change_nothing() {
    let server = Server::start().await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    start_tutor(&mut ann, ARITHMETIC).await;
    let cases = [
        (
            json!({"type": "tutor.drill_check", "drill_id": "d9", "index": 0}),
            "no_open_question",
        ),
        (
            json!({"type": "tutor.drill_check", "drill_id": "d1"}),
            "invalid_field",
        ),
        (
            json!({"type": "tutor.exam_submit", "question_id": "nope", "index": 0}),
            "no_open_question",
        ),
        (
            json!({"type": "tutor.memo_viewed", "question_id": "nope"}),
            "no_open_question",
        ),
        (
            json!({"type": "tutor.memo_viewed", "question_id": "add-1digit-bronze-1"}),
            "no_open_question",
        ),
        (
            json!({"type": "tutor.request_drill", "unit_id": "nope"}),
            "invalid_field",
        ),
        (
            json!({"type": "answer.choice", "index": 0}),
            "no_open_question",
        ),
    ];
    for (frame, code) in cases {
        send_refused(&mut ann, frame, code).await;
    }
    let turn = tutor_send(&mut ann, json!({"type": "tutor.request_drill"})).await;
    assert_eq!(
        card(&turn)["drill_id"],
        "d1",
        "nothing was drawn by the refusals"
    );
    let mut bob = Client::connect(&server, Auth::bearer("bob")).await;
    start_exam(&mut bob, "B").await;
    let id = next_event_id("wrong");
    bob.send_json(json!({"type": "tutor.stuck", "event_id": id}))
        .await;
    bob.expect_error("wrong_mode", Some(&id)).await;
    let mut cat = Client::connect(&server, Auth::bearer("cat")).await;
    let start = json!({"type": "session.start", "device_id": "d", "mode": "tutor",
        "config": {"course_id": "NOPE"}});
    cat.send_json(start).await;
    let refused = cat.expect_error("invalid_config", None).await;
    assert!(
        field_str(&refused, "message").contains(ARITHMETIC),
        "{refused}"
    );
}

/// B2: "Try another" draws a fresh drill without counting an attempt; a typed value answers
/// a drill as well as an option does.
#[tokio::test]
async fn b2_try_another_and_a_typed_value_answer_the_drill() {
    let server = Server::start().await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, _) = start_tutor(&mut ann, ARITHMETIC).await;
    let session_id = field_str(&started, "session_id").to_owned();
    tutor_send(&mut ann, json!({"type": "tutor.request_drill"})).await;
    let another = tutor_send(&mut ann, json!({"type": "tutor.try_another"})).await;
    assert_eq!(card(&another)["drill_id"], "d2", "{another}");
    let key = drill_key(&server, &session_id) as usize;
    let value = card(&another)["options"][key].clone();
    let typed = json!({"type": "answer.text", "text": value});
    let result = tutor_send(&mut ann, typed).await;
    assert_eq!(card(&result)["correct"], true, "{result}");
    assert_eq!(card(&result)["streak"], 1);
    let next = tutor_send(&mut ann, json!({"type": "tutor.drill_continue"})).await;
    assert_eq!(
        next["action"], "drill",
        "one right is not yet exam-ready: {next}"
    );
}

/// C2: a wrong exam answer locks the question with its countdown; a viewed memo locks too;
/// after the lockout the question is offered again.
#[tokio::test]
async fn c2_wrong_answers_and_memos_lock_questions_until_the_lockout_ends() {
    let (server, _config) = server_with_lockout("2s").await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, _) = start_tutor(&mut ann, ARITHMETIC).await;
    let session_id = field_str(&started, "session_id").to_owned();
    let exam = to_exam(&server, &mut ann, &session_id).await;
    let question_id = field_str(card(&exam), "question_id").to_owned();
    let key = exam_key("arithmetic.yaml", &question_id);
    let options = card(&exam)["options"].as_array().expect("options").len() as u64;
    let wrong = json!({"type": "tutor.exam_submit", "question_id": question_id,
        "index": (key + 1) % options});
    let result = tutor_send(&mut ann, wrong).await;
    assert_eq!(card(&result)["correct"], false, "{result}");
    assert_eq!(card(&result)["locked_seconds"], 2);
    assert_eq!(
        result["snapshot"]["locks"][0]["question_id"],
        json!(question_id)
    );
    assert_eq!(result["snapshot"]["revisit"], json!(["add-1digit"]));
    let next = tutor_send(&mut ann, json!({"type": "tutor.exam_continue"})).await;
    let other = field_str(card(&next), "question_id").to_owned();
    assert_ne!(
        other, question_id,
        "the locked question is not offered: {next}"
    );
    let memo = json!({"type": "tutor.memo_viewed", "question_id": other});
    let viewed = tutor_send(&mut ann, memo).await;
    assert!(
        card(&viewed)["locked_seconds"].as_u64().is_some(),
        "{viewed}"
    );
    assert_eq!(
        viewed["snapshot"]["locks"].as_array().map(Vec::len),
        Some(2)
    );
    tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    drill(&server, &mut ann, &session_id, true).await;
    drill(&server, &mut ann, &session_id, true).await;
    let again = tutor_send(&mut ann, json!({"type": "tutor.drill_continue"})).await;
    assert_eq!(again["action"], "exam", "{again}");
    assert_eq!(again["snapshot"]["locks"], json!([]), "both locks ran out");
}

/// Out-of-range options are refused with `invalid_answer` and change nothing: no grade, no
/// lock, no attempt counted, no streak reset; a memo is shown only for the open card.
#[tokio::test]
async fn options_that_do_not_exist_and_memos_of_other_questions_are_refused() {
    let server = Server::start().await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, _) = start_tutor(&mut ann, ARITHMETIC).await;
    let session_id = field_str(&started, "session_id").to_owned();
    drill(&server, &mut ann, &session_id, true).await;
    let open = tutor_send(&mut ann, json!({"type": "tutor.request_drill"})).await;
    let drill_id = card(&open)["drill_id"].clone();
    let refused = [
        json!({"type": "tutor.drill_check", "drill_id": drill_id, "index": 11}),
        json!({"type": "answer.choice", "index": 4}),
    ];
    for frame in refused {
        send_refused(&mut ann, frame, "invalid_answer").await;
    }
    let key = drill_key(&server, &session_id);
    let right = json!({"type": "tutor.drill_check", "drill_id": drill_id, "index": key});
    let result = tutor_send(&mut ann, right).await;
    assert_eq!(
        card(&result)["streak"],
        2,
        "no attempt was counted: {result}"
    );
    let exam = tutor_send(&mut ann, json!({"type": "tutor.drill_continue"})).await;
    let question_id = field_str(card(&exam), "question_id").to_owned();
    let options = card(&exam)["options"].as_array().expect("options").len();
    let refused = [
        (
            json!({"type": "tutor.exam_submit", "question_id": question_id, "index": 11}),
            "invalid_answer",
        ),
        (
            json!({"type": "tutor.exam_submit", "question_id": question_id, "index": options}),
            "invalid_answer",
        ),
        (
            json!({"type": "tutor.memo_viewed", "question_id": "add-2digit-bronze-1"}),
            "no_open_question",
        ),
    ];
    for (frame, code) in refused {
        send_refused(&mut ann, frame, code).await;
    }
    let board = progress(&server, "ann", ARITHMETIC).await;
    assert_eq!(board["locks"], json!([]), "nothing locked: {board}");
    let key = exam_key("arithmetic.yaml", &question_id);
    let submit = json!({"type": "tutor.exam_submit", "question_id": question_id, "index": key});
    let passed = tutor_send(&mut ann, submit).await;
    assert_eq!(card(&passed)["tier_earned"], "bronze", "{passed}");
}

async fn send_refused(client: &mut Client, mut frame: Value, code: &str) {
    let event_id = next_event_id("bad");
    frame["event_id"] = json!(event_id);
    client.send_json(frame.clone()).await;
    let error = client.expect_error(code, Some(&event_id)).await;
    assert!(!field_str(&error, "message").is_empty(), "{frame}");
}

/// The 24-hour lockout holds across sessions: a second session of the course (another
/// device) views the memo of the question open on the first; when the first device resumes,
/// its card is closed with the reason, and the question cannot be answered there.
#[tokio::test]
async fn a_memo_viewed_in_a_second_session_closes_the_first_sessions_card() {
    let server = Server::start().await;
    let mut one = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, _) = start_tutor(&mut one, ARITHMETIC).await;
    let first_session = field_str(&started, "session_id").to_owned();
    let exam = to_exam(&server, &mut one, &first_session).await;
    let question_id = field_str(card(&exam), "question_id").to_owned();
    let mut two = Client::connect(&server, Auth::bearer("ann")).await;
    start_tutor(&mut two, ARITHMETIC).await;
    one.expect("session.paused").await;
    let second = tutor_send(&mut two, json!({"type": "tutor.drill_continue"})).await;
    assert_eq!(
        field_str(card(&second), "question_id"),
        question_id,
        "{second}"
    );
    let memo = json!({"type": "tutor.memo_viewed", "question_id": question_id});
    let viewed = tutor_send(&mut two, memo).await;
    assert!(card(&viewed)["memo"].is_string(), "{viewed}");

    let resume = json!({"type": "session.resume", "event_id": "back", "device_id": "one",
        "session_id": first_session});
    one.send_json(resume).await;
    let events = one
        .collect_until(|events| {
            events.iter().any(|e| e["type"] == "tutor.turn")
                && events.iter().any(|e| e["event_id"] == "back")
        })
        .await;
    let turn = events
        .iter()
        .find(|e| e["type"] == "tutor.turn")
        .expect("a turn");
    let text = field_str(&turn["messages"][0], "text");
    assert!(text.contains("is locked for 24 h"), "{turn}");
    assert_ne!(card(turn)["question_id"], json!(question_id), "{turn}");
    let key = exam_key("arithmetic.yaml", &question_id);
    let submit = json!({"type": "tutor.exam_submit", "question_id": question_id, "index": key});
    send_refused(&mut one, submit, "no_open_question").await;
    let board = progress(&server, "ann", ARITHMETIC).await;
    assert_eq!(board["units"][0]["tier"], "none", "nothing earned: {board}");
}

/// A tutor session can neither start nor be resumed while an evaluation-mode assessment is
/// open, paused included.
#[tokio::test]
async fn a_tutor_cannot_start_or_resume_while_an_evaluation_is_open() {
    let server = Server::start().await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (tutoring, _) = start_tutor(&mut ann, ARITHMETIC).await;
    start_assessment(&mut ann, "MATH-FUNDAMENTALS-L1", false).await;
    let resume = json!({"type": "session.resume", "event_id": "back", "device_id": "d",
        "session_id": tutoring["session_id"]});
    ann.send_json(resume).await;
    ann.expect_error("evaluation_in_progress", Some("back"))
        .await;
    ann.send_json(json!({"type": "session.pause", "event_id": "p"}))
        .await;
    ann.expect("session.paused").await;
    ann.expect("ack").await;
    let start = json!({"type": "session.start", "event_id": "tut", "device_id": "d",
        "mode": "tutor", "config": {"course_id": ARITHMETIC}});
    ann.send_json(start).await;
    ann.expect_error("evaluation_in_progress", Some("tut"))
        .await;
    let mut bob = Client::connect(&server, Auth::bearer("bob")).await;
    start_assessment(&mut bob, "MATH-FUNDAMENTALS-L1", true).await;
    start_tutor(&mut bob, ARITHMETIC).await;
}

/// The snapshot outlives the session: a second tutor session of the course starts where the
/// first left off, and the board reads it.
#[tokio::test]
async fn the_snapshot_outlives_the_session() {
    let server = Server::start().await;
    let mut ann = Client::connect(&server, Auth::bearer("ann")).await;
    let (started, _) = start_tutor(&mut ann, ARITHMETIC).await;
    let session_id = field_str(&started, "session_id").to_owned();
    drill(&server, &mut ann, &session_id, true).await;
    ann.send_json(json!({"type": "session.end", "event_id": "end"}))
        .await;
    let completed = ann.expect("session.completed").await;
    assert_eq!(completed["result"]["mode"], "tutor", "{completed}");
    assert_eq!(completed["result"]["drills_right"], 1);
    let (_, opening) = start_tutor(&mut ann, ARITHMETIC).await;
    let board = progress(&server, "ann", ARITHMETIC).await;
    assert_eq!(board["units"][0]["drill_streak"], 1, "{board}");
    assert_eq!(opening["snapshot"]["focus_unit"], "add-1digit");
    let other = board_of_nobody(&server).await;
    assert_eq!(
        other["units"][0]["drill_streak"], 0,
        "another user sees only their own"
    );
}

async fn board_of_nobody(server: &Server) -> Value {
    progress(server, "zed", ARITHMETIC).await
}

/// A snapshot and an open drill survive a kill -9; the session resumes on another node
/// sharing Redis, with the same drill open and the earlier drill counted.
#[tokio::test]
async fn a_tutor_session_survives_a_kill_and_resumes_on_another_node() {
    let redis = RedisServer::start();
    let urls = vec![redis.url()];
    let mut one = Server::node(&urls, false, "one", &[]).await;
    let two = Server::node(&urls, false, "two", &[]).await;
    let mut ann = Client::connect(&one, Auth::bearer("ann")).await;
    let (started, _) = start_tutor(&mut ann, "IPV4-SUBNETTING").await;
    let session_id = field_str(&started, "session_id").to_owned();
    let first = tutor_send(&mut ann, json!({"type": "tutor.request_drill"})).await;
    let check =
        json!({"type": "tutor.drill_check", "drill_id": card(&first)["drill_id"], "index": 0});
    tutor_send(&mut ann, check).await;
    let open = tutor_send(&mut ann, json!({"type": "tutor.request_drill"})).await;
    one.kill().await;
    drop(ann);
    let mut ann = Client::connect(&two, Auth::bearer("ann")).await;
    let resume = json!({"type": "session.resume", "event_id": "r", "device_id": "phone",
        "session_id": session_id});
    ann.send_json(resume).await;
    let resumed = ann.expect("session.resumed").await;
    assert_eq!(resumed["mode"], "tutor", "{resumed}");
    let again = ann.expect("tutor.turn").await;
    assert_eq!(card(&again), card(&open), "the same drill card is open");
    assert_eq!(
        again["snapshot"]["drills"]["checked"], 1,
        "counted: {again}"
    );
    assert_eq!(ann.expect("ack").await["event_id"], "r");
    let board = progress(&two, "ann", "IPV4-SUBNETTING").await;
    assert_eq!(board["units"][0]["drill_attempts"], 1, "{board}");
    let check =
        json!({"type": "tutor.drill_check", "drill_id": card(&open)["drill_id"], "index": 0});
    let result = tutor_send(&mut ann, check).await;
    assert_eq!(result["action"], "drill_result", "{result}");
    let drills = &result["snapshot"]["drills"];
    assert_eq!(drills["checked"], 2, "{result}");
    assert!(drills["right"].as_u64() <= Some(2), "{result}");
    let board = progress(&two, "ann", "IPV4-SUBNETTING").await;
    assert_eq!(board["units"][0]["drill_attempts"], 2, "{board}");
}
