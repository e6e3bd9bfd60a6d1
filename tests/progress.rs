//! Spaced review across exams: a finished exam's outcomes land in the user's element
//! history, `GET /v1/progress` reports it per ACS area with what is due, and the next
//! `weak_areas` exam asks what is due first; on the file store and on Redis (503 while
//! Redis is down).

use std::collections::BTreeSet;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use viva_protocol::progress::ProgressReport;

use crate::harness::{
    Auth, Client, RedisServer, Server, TASK, UNSATISFACTORY_ANSWER, answer, code, count,
    end_session, field_u64, find, http_get, http_get_with, next_event_id, oral_elements,
    run_to_completion, satisfactory_for, start_exam, token,
};

const DAY_MS: u64 = 24 * 60 * 60 * 1000;
const PROGRESS: &str = "/v1/progress";

fn wall_ms() -> u64 {
    let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH);
    since_epoch.expect("after 1970").as_millis() as u64
}

/// A finished exam on [`TASK`]: the first question answered wrong, every other one right.
struct Finished {
    /// The element missed.
    missed: String,
    /// The elements answered satisfactorily.
    satisfactory: BTreeSet<String>,
}

async fn exam_missing_the_first_question(client: &mut Client) -> Finished {
    let started = start_exam(client, "A").await;
    let missed = code(&started.question).to_owned();
    let first = answer(client, UNSATISFACTORY_ANSWER).await;
    assert_eq!(
        first.assessment["score"], "unsatisfactory",
        "{}",
        first.assessment
    );
    let run = run_to_completion(client, first.question(), satisfactory_for).await;
    for assessment in &run.assessments {
        assert_eq!(assessment["score"], "satisfactory", "{assessment}");
    }
    let satisfactory = run.questions.iter().map(|q| code(q).to_owned()).collect();
    Finished {
        missed,
        satisfactory,
    }
}

/// `GET /v1/progress` as `user`: 200 and the typed report.
async fn progress_of(server: &Server, user: &str) -> ProgressReport {
    let response = http_get(server, PROGRESS, Some(&token(user))).await;
    assert_eq!(response.status, 200, "{response:?}");
    serde_json::from_value(response.json()).expect("a ProgressReport")
}

/// The report's entry of `element_code`, from its area.
fn element(report: &ProgressReport, element_code: &str) -> Value {
    let found = report
        .areas
        .iter()
        .flat_map(|area| &area.elements)
        .find(|e| e.code == element_code)
        .unwrap_or_else(|| panic!("no {element_code} in {report:?}"));
    serde_json::to_value(found).expect("an element serializes")
}

/// The report after the exam: one area (Private I), every element asked with its outcome,
/// the miss due at once, the rest due in a day; `due` names only the miss.
fn assert_scheduled(report: &ProgressReport, finished: &Finished, window: (u64, u64)) {
    assert_eq!(report.areas.len(), 1, "{report:?}");
    let area = &report.areas[0];
    assert_eq!((area.rating.as_str(), area.area.as_str()), ("private", "I"));
    assert_eq!(area.title, "Preflight Preparation");
    assert_eq!(
        area.elements.len(),
        finished.satisfactory.len() + 1,
        "{area:?}"
    );
    assert_eq!(report.due, std::slice::from_ref(&finished.missed));
    assert_eq!(area.due, report.due);
    let missed = element(report, &finished.missed);
    assert_eq!(missed["last_outcome"], "unsatisfactory", "{missed}");
    assert_eq!(
        (missed["streak"].clone(), missed["interval_ms"].clone()),
        (json!(0), json!(0))
    );
    assert_eq!(
        missed["due_ms"], missed["last_asked_ms"],
        "due at once: {missed}"
    );
    assert_eq!(missed["due_now"], true, "{missed}");
    for code in &finished.satisfactory {
        let entry = element(report, code);
        assert_eq!(entry["last_outcome"], "satisfactory", "{entry}");
        assert_eq!(entry["streak"], 1, "{entry}");
        assert_eq!(field_u64(&entry, "interval_ms"), DAY_MS, "{entry}");
        let asked = field_u64(&entry, "last_asked_ms");
        assert!(
            window.0 <= asked && asked <= window.1,
            "asked during the exam: {entry}"
        );
        assert_eq!(field_u64(&entry, "due_ms"), asked + DAY_MS, "{entry}");
        assert_eq!(entry["due_now"], false, "{entry}");
    }
}

/// Starts a `weak_areas` exam on [`TASK`]; returns its first question.
async fn start_weak_areas_exam(client: &mut Client) -> Value {
    let event_id = next_event_id("start");
    let config = json!({"rating": "private", "study_mode": "weak_areas", "tasks": [TASK]});
    let frame = json!({"type": "session.start", "event_id": event_id, "device_id": "A",
        "mode": "exam", "config": config});
    client.send_json(frame).await;
    let acked = |events: &[Value]| {
        let own_ack = |e: &Value| e["type"] == "ack" && e["event_id"] == event_id.as_str();
        events.iter().any(own_ack)
    };
    let events = client
        .collect_until(|events| count(events, "question") > 0 && acked(events))
        .await;
    find(&events, "question").clone()
}

#[tokio::test]
async fn a_finished_exam_is_scheduled_for_review_and_asked_again_when_due() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let before = wall_ms();
    let finished = exam_missing_the_first_question(&mut alice).await;
    let report = progress_of(&server, "alice").await;
    assert_scheduled(&report, &finished, (before, wall_ms()));
    assert!(before <= report.now_ms, "{report:?}");

    // Only alice's own history: bob has none, and no token gets nothing.
    let bob = progress_of(&server, "bob").await;
    assert!(bob.areas.is_empty() && bob.due.is_empty(), "{bob:?}");
    let by_query = format!("{PROGRESS}?access_token={}", token("alice"));
    let by_query = http_get_with(&server, &by_query, &[]).await;
    assert_eq!(by_query.status, 200, "{by_query:?}");
    let by_query: ProgressReport = serde_json::from_value(by_query.json()).expect("a report");
    assert_eq!(
        (&by_query.areas, &by_query.due),
        (&report.areas, &report.due)
    );
    let anonymous = http_get(&server, PROGRESS, None).await;
    assert_eq!(anonymous.status, 401, "{anonymous:?}");
    assert_eq!(anonymous.json()["code"], "unauthorized");

    // The next weak-areas exam asks the due element first; answered right, it is due in a
    // day, and nothing is due any more.
    let first = start_weak_areas_exam(&mut alice).await;
    assert_eq!(
        code(&first),
        finished.missed,
        "the due element first: {first}"
    );
    assert_eq!(first["kind"], "primary", "{first}");
    let retest = answer(&mut alice, &satisfactory_for(&first)).await;
    assert_eq!(retest.assessment["score"], "satisfactory");
    let second = retest.question();
    let credited: Vec<&str> = retest.assessment["credited_elements"]
        .as_array()
        .map(|codes| codes.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let untouched: Vec<&str> = oral_elements(TASK)
        .into_iter()
        .filter(|c| *c != finished.missed && !finished.satisfactory.contains(*c))
        .filter(|c| !credited.contains(c))
        .collect();
    if !untouched.is_empty() {
        let asked = code(&second);
        assert!(
            untouched.contains(&asked),
            "untouched before not due: {second}"
        );
    }
    end_session(&mut alice).await;
    let after = progress_of(&server, "alice").await;
    assert!(after.due.is_empty(), "{after:?}");
    let missed = element(&after, &finished.missed);
    assert_eq!(missed["last_outcome"], "satisfactory", "{missed}");
    assert_eq!(
        (missed["streak"].clone(), missed["due_now"].clone()),
        (json!(1), json!(false))
    );
    assert_eq!(field_u64(&missed, "interval_ms"), DAY_MS, "{missed}");
}

#[tokio::test]
async fn progress_reads_the_history_from_redis_and_is_unavailable_while_redis_is_down() {
    let mut redis = RedisServer::start();
    let node = Server::node(&[redis.url()], false, "one", &[]).await;
    let mut erin = Client::connect(&node, Auth::bearer("erin")).await;
    let before = wall_ms();
    let finished = exam_missing_the_first_question(&mut erin).await;
    drop(erin);
    // Another node reads the record Redis holds.
    let other = Server::node(&[redis.url()], false, "two", &[]).await;
    let report = progress_of(&other, "erin").await;
    assert_scheduled(&report, &finished, (before, wall_ms()));

    redis.stop();
    let down = http_get(&other, PROGRESS, Some(&token("erin"))).await;
    assert_eq!(down.status, 503, "{down:?}");
    assert_eq!(down.json()["code"], "storage_unavailable");
    redis.restart();
    let mut again = http_get(&other, PROGRESS, Some(&token("erin"))).await;
    for _ in 0..20 {
        if again.status == 200 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        again = http_get(&other, PROGRESS, Some(&token("erin"))).await;
    }
    assert_eq!(again.status, 200, "{again:?}");
    let recovered: ProgressReport = serde_json::from_value(again.json()).expect("a report");
    assert_eq!(recovered.due, report.due);
    assert_eq!(recovered.areas, report.areas);
}
