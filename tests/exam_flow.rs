//! A whole exam over text answers: grading, bonus, mention credit, ending, idempotency, result.

use serde_json::{Value, json};
use viva_protocol::result::SessionResult;

use crate::harness::{
    Auth, Client, PLANNED, Server, TASK, UNSATISFACTORY_ANSWER, answer, code, count, end_session,
    field_str, field_u64, find, http_get, index_of, mention_target, oral_elements, result_path,
    resume, run_to_completion, satisfactory_answer, satisfactory_for, start_exam, token,
};

/// The per-area counts of `area` in an exam result.
fn area<'a>(result: &'a Value, area: &str) -> &'a Value {
    result["areas"]
        .as_array()
        .and_then(|areas| areas.iter().find(|entry| entry["area"] == area))
        .unwrap_or_else(|| panic!("no area {area} in {result}"))
}

/// The entry of element `code` in an exam result.
fn element<'a>(result: &'a Value, code: &str) -> &'a Value {
    result["elements"]
        .as_array()
        .and_then(|elements| elements.iter().find(|entry| entry["code"] == code))
        .unwrap_or_else(|| panic!("no element {code} in {result}"))
}

async fn alice_exam(server: &Server) -> (Client, crate::harness::Started) {
    let mut alice = Client::connect(server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    (alice, started)
}

/// Questions 1..=n, all primary, each a different element of the scope.
fn assert_distinct_primary_questions(questions: &[Value], in_scope: &[&str]) {
    for (index, question) in questions.iter().enumerate() {
        assert_eq!(
            field_u64(question, "number"),
            index as u64 + 1,
            "{question}"
        );
        assert_eq!(question["kind"], "primary", "{question}");
        assert!(in_scope.contains(&code(question)), "{question}");
        let asked_before = &questions[..index];
        assert!(
            asked_before.iter().all(|q| code(q) != code(question)),
            "{question}"
        );
    }
}

/// The result of an exam whose every answer was satisfactory and nothing was credited.
fn assert_all_satisfactory_result(result: &Value, in_scope: &[&str]) {
    assert_eq!(result["mode"], "exam", "{result}");
    assert_eq!(result["outcome"], "satisfactory", "{result}");
    assert_eq!(result["trigger"], "all_tasks_covered", "{result}");
    assert_eq!(result["planned_questions"], PLANNED, "{result}");
    assert_eq!(result["asked"], PLANNED, "{result}");
    assert_eq!(result["bonus_used"], 0, "{result}");
    let area_i = area(result, "I");
    assert_eq!(area_i["satisfactory"], PLANNED, "{area_i}");
    assert_eq!(area_i["partial"], 0, "{area_i}");
    assert_eq!(area_i["unsatisfactory"], 0, "{area_i}");
    let covered = ["satisfactory", "credited_by_mention", "not_covered"];
    let total: u64 = covered.iter().map(|key| field_u64(area_i, key)).sum();
    assert_eq!(
        total,
        in_scope.len() as u64,
        "each element of area I counted once: {area_i}"
    );
    let elements = result["elements"].as_array().expect("elements");
    assert_eq!(
        elements.len(),
        in_scope.len(),
        "every element in scope: {result}"
    );
}

#[tokio::test]
async fn narrow_scope_exam_completes_with_graded_result() {
    let server = Server::start().await;
    let (mut alice, started) = alice_exam(&server).await;
    assert_eq!(started.started["plan"]["planned_questions"], PLANNED);
    let run = run_to_completion(&mut alice, started.question, satisfactory_for).await;
    assert_eq!(run.questions.len() as u64, PLANNED, "{:?}", run.questions);
    let in_scope = oral_elements(TASK);
    assert_distinct_primary_questions(&run.questions, &in_scope);
    for assessment in &run.assessments {
        assert_eq!(assessment["score"], "satisfactory", "{assessment}");
        assert!(
            !field_str(assessment, "feedback").is_empty(),
            "{assessment}"
        );
        assert!(
            !field_str(assessment, "source_summary").is_empty(),
            "{assessment}"
        );
    }
    assert_eq!(run.completed["session_id"], started.session_id.as_str());
    let result = &run.completed["result"];
    assert_all_satisfactory_result(result, &in_scope);
    let path = result_path(&started.session_id);
    let over_http = http_get(&server, &path, Some(&token("alice"))).await;
    assert_eq!(over_http.status, 200, "{over_http:?}");
    let mut owners = over_http.json();
    let transcript = owners["transcript"].take();
    owners
        .as_object_mut()
        .expect("an object")
        .remove("transcript");
    assert_eq!(
        owners, *result,
        "HTTP result equals the completed event's result, plus the transcript"
    );
    assert_transcript_matches(&transcript, &run.questions, &run.assessments);
    let typed: SessionResult = serde_json::from_value(over_http.json()).expect("a SessionResult");
    assert!(matches!(typed, SessionResult::Exam(_)));
}

/// The owner's transcript has every question asked, in order, in the words asked, with its
/// answer and score.
fn assert_transcript_matches(transcript: &Value, questions: &[Value], assessments: &[Value]) {
    let turns = transcript.as_array().expect("a transcript");
    assert_eq!(turns.len(), questions.len(), "{transcript}");
    for ((turn, question), assessment) in turns.iter().zip(questions).zip(assessments) {
        assert_eq!(turn["question_id"], question["question_id"], "{turn}");
        assert_eq!(turn["element_code"], question["element_code"], "{turn}");
        assert_eq!(turn["kind"], question["kind"], "{turn}");
        assert_eq!(
            turn["question"], question["text"],
            "the words asked: {turn}"
        );
        assert_eq!(
            turn["answer"],
            satisfactory_for(question).as_str(),
            "{turn}"
        );
        assert_eq!(turn["score"], assessment["score"], "{turn}");
    }
}

#[tokio::test]
async fn unsatisfactory_answer_earns_bonus_question() {
    let server = Server::start().await;
    let (mut alice, started) = alice_exam(&server).await;
    let missed = code(&started.question).to_owned();
    let first = answer(&mut alice, UNSATISFACTORY_ANSWER).await;
    assert_eq!(
        first.assessment["score"], "unsatisfactory",
        "{}",
        first.assessment
    );
    let bonus = first.question();
    assert_eq!(bonus["kind"], "bonus", "{bonus}");
    assert_eq!(field_u64(&bonus, "number"), 2, "{bonus}");
    assert_ne!(
        code(&bonus),
        missed,
        "a bonus question asks another element: {bonus}"
    );
    let run = run_to_completion(&mut alice, bonus, satisfactory_for).await;
    let result = &run.completed["result"];
    let bonus_used = field_u64(result, "bonus_used");
    assert!(bonus_used >= 1, "{result}");
    assert_eq!(result["outcome"], "unsatisfactory", "{result}");
    assert_eq!(
        field_u64(result, "asked"),
        PLANNED + bonus_used,
        "bonus adds to the total: {result}"
    );
    assert_eq!(
        element(result, &missed)["score"],
        "unsatisfactory",
        "{result}"
    );
    assert!(
        field_u64(area(result, "I"), "unsatisfactory") >= 1,
        "{result}"
    );
}

#[tokio::test]
async fn mention_credit_is_reported_and_element_not_asked_again() {
    let server = Server::start().await;
    let (mut alice, started) = alice_exam(&server).await;
    let asked = code(&started.question).to_owned();
    let mentioned = mention_target(TASK, &[asked.as_str()]);
    let text = format!(
        "{} {}",
        satisfactory_answer(&asked),
        satisfactory_answer(mentioned)
    );
    let first = answer(&mut alice, &text).await;
    let credited = first.assessment["credited_elements"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        credited.contains(&json!(mentioned)),
        "{mentioned} credited: {}",
        first.assessment
    );
    let run = run_to_completion(&mut alice, first.question(), satisfactory_for).await;
    for question in &run.questions {
        assert_ne!(
            code(question),
            mentioned,
            "credited element asked again: {question}"
        );
    }
    let result = &run.completed["result"];
    assert!(field_u64(result, "credited_by_mention") >= 1, "{result}");
    assert_eq!(
        element(result, mentioned)["status"],
        "credited_by_mention",
        "{result}"
    );
    assert!(
        field_u64(area(result, "I"), "credited_by_mention") >= 1,
        "{result}"
    );
    assert_eq!(result["outcome"], "satisfactory", "{result}");
}

#[tokio::test]
async fn user_end_grades_as_it_stands() {
    let server = Server::start().await;
    let (mut alice, started) = alice_exam(&server).await;
    let first_code = code(&started.question).to_owned();
    let first = answer(&mut alice, &satisfactory_for(&started.question)).await;
    first.question();
    let completed = end_session(&mut alice).await;
    assert_eq!(
        completed["session_id"],
        started.session_id.as_str(),
        "{completed}"
    );
    let result = &completed["result"];
    assert_eq!(result["trigger"], "user_ended", "{result}");
    assert_eq!(result["outcome"], "incomplete", "{result}");
    assert_eq!(
        element(result, &first_code)["score"],
        "satisfactory",
        "{result}"
    );
    assert_eq!(area(result, "I")["satisfactory"], 1, "{result}");
    let scored = result["elements"].as_array().expect("elements");
    let scored = scored
        .iter()
        .filter(|entry| entry.get("score").is_some())
        .count();
    assert_eq!(scored, 1, "only the answered element has a score: {result}");
}

#[tokio::test]
async fn answers_after_completion_are_refused() {
    let server = Server::start().await;
    let (mut alice, started) = alice_exam(&server).await;
    run_to_completion(&mut alice, started.question, satisfactory_for).await;
    let frame = json!({"type": "answer.text", "event_id": "late-1", "text": "One more thing."});
    alice.send_json(frame).await;
    let error = alice.expect("error").await;
    let refused = ["session_completed", "no_open_question"];
    assert!(refused.iter().any(|c| error["code"] == *c), "{error}");
    assert_eq!(error["event_id"], "late-1", "{error}");
    alice.assert_alive().await;
}

#[tokio::test]
async fn result_of_unfinished_session_is_409() {
    let server = Server::start().await;
    let (_alice, started) = alice_exam(&server).await;
    let path = result_path(&started.session_id);
    let response = http_get(&server, &path, Some(&token("alice"))).await;
    assert_eq!(response.status, 409, "{response:?}");
}

#[tokio::test]
async fn events_arrive_in_protocol_order_with_rising_seq() {
    let server = Server::start().await;
    let (mut alice, started) = alice_exam(&server).await;
    let answered = answer(&mut alice, &satisfactory_for(&started.question)).await;
    let events = &answered.events;
    assert!(
        index_of(events, "ack") < index_of(events, "assessment"),
        "{events:?}"
    );
    assert!(
        index_of(events, "assessment") < index_of(events, "question"),
        "{events:?}"
    );
    let seqs: Vec<u64> = events.iter().map(|event| field_u64(event, "seq")).collect();
    let first = seqs[0];
    let expected: Vec<u64> = (first..first + seqs.len() as u64).collect();
    assert_eq!(
        seqs, expected,
        "seq rises by one per session event: {events:?}"
    );
    let started_seq = field_u64(&started.started, "seq");
    assert!(
        started_seq < first,
        "seq keeps rising after session.started"
    );
}

#[tokio::test]
async fn repeated_event_id_is_applied_once() {
    let server = Server::start().await;
    let (mut alice, started) = alice_exam(&server).await;
    let text = satisfactory_for(&started.question);
    let frame = json!({"type": "answer.text", "event_id": "dup-1", "text": text});
    alice.send_json(frame.clone()).await;
    alice.send_json(frame).await;
    let events = alice
        .collect_until(|events| {
            let acks = events
                .iter()
                .filter(|e| e["type"] == "ack" && e["event_id"] == "dup-1");
            acks.count() == 2 && count(events, "question") > 0
        })
        .await;
    assert_eq!(
        count(&events, "assessment"),
        1,
        "one assessment for a repeated id: {events:?}"
    );
    let second = find(&events, "question").clone();
    assert_eq!(field_u64(&second, "number"), 2, "{second}");
    let next = answer(&mut alice, &satisfactory_for(&second)).await;
    assert_eq!(
        next.assessment["question_id"], second["question_id"],
        "{:?}",
        next.events
    );
    assert_eq!(
        field_u64(&next.question(), "number"),
        3,
        "{:?}",
        next.events
    );
    let mut phone = Client::connect(&server, Auth::bearer("alice")).await;
    let resumed = resume(&mut phone, "B", None).await;
    assert_eq!(
        resumed.resumed["progress"]["answered"], 2,
        "{}",
        resumed.resumed
    );
}
