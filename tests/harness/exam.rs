//! Exam-flow helpers: start, answer, resume, end, and run an exam to completion.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

use super::acs::satisfactory_answer;
use super::client::{Client, count, field_str, field_u64, find, index_of};

/// The narrow scope every exam test uses: 7 oral elements, 5 planned questions.
pub const TASK: &str = "PA.I.A";
/// `clamp(ceil(75 * 7 / 292), 5, 120)` capped at the 7 elements in scope.
pub const PLANNED: u64 = 5;
/// More answers than any exam in [`TASK`] can need (7 elements, 1 follow-up each).
const MAX_ANSWERS: usize = 20;

/// A fresh `event_id`, unique in this test binary (a repeated id is a no-op by design).
pub fn next_event_id(prefix: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The element a `question` asks about.
pub fn code(question: &Value) -> &str {
    field_str(question, "element_code")
}

/// A satisfactory answer to `question`.
pub fn satisfactory_for(question: &Value) -> String {
    satisfactory_answer(code(question))
}

fn has_ack(events: &[Value], event_id: &str) -> bool {
    events
        .iter()
        .any(|event| event["type"] == "ack" && event["event_id"] == event_id)
}

/// What `session.start` produced.
pub struct Started {
    /// The `session.started` event.
    pub started: Value,
    /// Its `session_id`.
    pub session_id: String,
    /// The first `question`.
    pub question: Value,
}

/// Starts a linear private exam on [`TASK`] from `device`; waits for started, question and ack.
pub async fn start_exam(client: &mut Client, device: &str) -> Started {
    let config = json!({"rating": "private", "study_mode": "linear", "tasks": [TASK]});
    start_exam_with(client, device, config).await
}

/// Starts an exam of `config` from `device`; waits for started, question and ack.
pub async fn start_exam_with(client: &mut Client, device: &str, config: Value) -> Started {
    let event_id = next_event_id("start");
    let frame = json!({"type": "session.start", "event_id": event_id, "device_id": device,
        "mode": "exam", "config": config});
    client.send_json(frame).await;
    let events = client
        .collect_until(|events| {
            count(events, "session.started") > 0
                && count(events, "question") > 0
                && has_ack(events, &event_id)
        })
        .await;
    assert!(
        index_of(&events, "session.started") < index_of(&events, "question"),
        "{events:?}"
    );
    let started = find(&events, "session.started").clone();
    assert_eq!(started["mode"], "exam", "{started}");
    let question = find(&events, "question").clone();
    assert_eq!(field_u64(&question, "number"), 1, "{question}");
    assert_eq!(question["kind"], "primary", "{question}");
    let session_id = field_str(&started, "session_id").to_owned();
    Started {
        started,
        session_id,
        question,
    }
}

/// What an answer produced: its `assessment`, then the next `question` or `session.completed`.
pub struct Answered {
    /// The `assessment`.
    pub assessment: Value,
    /// The `question` or `session.completed` after it.
    pub next: Value,
    /// Every event received, in order.
    pub events: Vec<Value>,
}

impl Answered {
    /// The next question; panics if the exam completed instead.
    pub fn question(&self) -> Value {
        assert_eq!(
            self.next["type"], "question",
            "expected a next question: {}",
            self.next
        );
        self.next.clone()
    }
}

/// Sends `answer.text`; waits for its ack, the assessment and what follows.
pub async fn answer(client: &mut Client, text: &str) -> Answered {
    let event_id = next_event_id("answer");
    let frame = json!({"type": "answer.text", "event_id": event_id, "text": text});
    client.send_json(frame).await;
    let is_next =
        |event: &Value| event["type"] == "question" || event["type"] == "session.completed";
    let events = client
        .collect_until(|events| {
            has_ack(events, &event_id)
                && count(events, "assessment") > 0
                && events.iter().any(is_next)
        })
        .await;
    // The spec orders ack, assessment, next: anything before the ack is stale.
    let own_ack = &events[0];
    assert!(
        own_ack["type"] == "ack" && own_ack["event_id"] == event_id,
        "ack first: {events:?}"
    );
    assert_eq!(
        count(&events, "assessment"),
        1,
        "one assessment: {events:?}"
    );
    let next_at = events.iter().position(is_next).expect("a next event");
    assert!(
        index_of(&events, "assessment") < next_at,
        "assessment comes first: {events:?}"
    );
    let assessment = find(&events, "assessment").clone();
    let next = events[next_at].clone();
    Answered {
        assessment,
        next,
        events,
    }
}

/// What `session.resume` produced.
pub struct Resumed {
    /// The `session.resumed` event.
    pub resumed: Value,
    /// The open `question`, re-sent.
    pub question: Value,
}

/// Sends `session.resume` (with `session_id` if given); waits for resumed, question and ack.
pub async fn resume(client: &mut Client, device: &str, session_id: Option<&str>) -> Resumed {
    let event_id = next_event_id("resume");
    let mut frame = json!({"type": "session.resume", "event_id": event_id, "device_id": device});
    if let Some(session_id) = session_id {
        frame["session_id"] = json!(session_id);
    }
    client.send_json(frame).await;
    let events = client
        .collect_until(|events| {
            count(events, "session.resumed") > 0
                && count(events, "question") > 0
                && has_ack(events, &event_id)
        })
        .await;
    assert!(
        index_of(&events, "session.resumed") < index_of(&events, "question"),
        "{events:?}"
    );
    let resumed = find(&events, "session.resumed").clone();
    assert_eq!(resumed["status"], "active", "{resumed}");
    let question = find(&events, "question").clone();
    Resumed { resumed, question }
}

/// Sends `session.end`; waits for its ack and returns `session.completed`.
pub async fn end_session(client: &mut Client) -> Value {
    let event_id = next_event_id("end");
    client
        .send_json(json!({"type": "session.end", "event_id": event_id}))
        .await;
    let events = client
        .collect_until(|events| {
            count(events, "session.completed") > 0 && has_ack(events, &event_id)
        })
        .await;
    find(&events, "session.completed").clone()
}

/// The questions asked, their assessments, and the final `session.completed`.
pub struct Run {
    /// Every question answered, in order.
    pub questions: Vec<Value>,
    /// The assessment of each, in the same order.
    pub assessments: Vec<Value>,
    /// The `session.completed` event.
    pub completed: Value,
}

/// Answers from `first` on with `answer_for(question)` until the exam completes.
pub async fn run_to_completion(
    client: &mut Client,
    first: Value,
    mut answer_for: impl FnMut(&Value) -> String,
) -> Run {
    let (mut questions, mut assessments) = (Vec::new(), Vec::new());
    let mut question = first;
    for _ in 0..MAX_ANSWERS {
        let answered = answer(client, &answer_for(&question)).await;
        let assessment = answered.assessment;
        assert_eq!(
            assessment["question_id"], question["question_id"],
            "{assessment}"
        );
        questions.push(question);
        assessments.push(assessment);
        if answered.next["type"] == "session.completed" {
            let completed = answered.next;
            return Run {
                questions,
                assessments,
                completed,
            };
        }
        question = answered.next;
    }
    panic!("no session.completed after {MAX_ANSWERS} answers: {questions:?}");
}

/// Answers `question` satisfactorily and returns as soon as the ack (which comes first) says
/// the answer is durable, before its assessment is read.
pub async fn answer_until_acked(client: &mut Client, question: &Value) {
    let event_id = next_event_id("answer");
    let text = satisfactory_for(question);
    client
        .send_json(json!({"type": "answer.text", "event_id": event_id, "text": text}))
        .await;
    let ack = client.expect("ack").await;
    assert_eq!(ack["event_id"], event_id.as_str(), "{ack}");
}
