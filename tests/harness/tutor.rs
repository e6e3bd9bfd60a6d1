//! Tutoring over the socket: starting a tutor session, sending the card events, reading the
//! turns back, and the keys a test needs (a drill's from the stored checkpoint, an exam
//! question's from the course file).

use serde_json::{Value, json};
use viva_blueprint::course::CourseDoc;
use viva_blueprint::library::{Source, parse};

use super::client::Client;
use super::exam::next_event_id;
use super::server::Server;

const COURSES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/blueprints/courses");

/// Starts a tutor session on `course_id`; returns `session.started` and the opening turn.
pub async fn start_tutor(client: &mut Client, course_id: &str) -> (Value, Value) {
    let config = json!({"course_id": course_id});
    super::assessment::start_session(client, "tutor", config, "tutor.turn").await
}

/// Sends a frame (with a fresh `event_id`) and returns the `tutor.turn` that answers it,
/// after checking the `ack` came first (a model tutor's `tutor.delta` previews skipped).
pub async fn tutor_send(client: &mut Client, frame: Value) -> Value {
    tutor_send_streamed(client, frame).await.1
}

/// Sends a frame (with a fresh `event_id`); returns the `tutor.delta` previews that came
/// after its `ack` and the `tutor.turn` that followed them.
pub async fn tutor_send_streamed(client: &mut Client, mut frame: Value) -> (Vec<Value>, Value) {
    let event_id = next_event_id("t");
    frame["event_id"] = json!(event_id);
    client.send_json(frame).await;
    let ack = client.expect("ack").await;
    assert_eq!(ack["event_id"], event_id, "{ack}");
    let mut deltas = Vec::new();
    loop {
        let event = client.next_event().await;
        match event["type"].as_str() {
            Some("tutor.delta") => deltas.push(event),
            // A model examiner judging a drill's answer says so first.
            Some("answer.assessing") => continue,
            Some("tutor.turn") => return (deltas, event),
            _ => panic!("expected tutor.delta or tutor.turn, got {event}"),
        }
    }
}

/// The card of a turn's first message.
pub fn card(turn: &Value) -> &Value {
    &turn["messages"][0]["card"]
}

/// The open drill's key index, read from the session's checkpoint file.
pub fn drill_key(server: &Server, session_id: &str) -> u64 {
    let checkpoint = super::assessment::stored_checkpoint(server, session_id);
    let open = &checkpoint["tutor"]["open"];
    open["item"]["answer_index"]
        .as_u64()
        .unwrap_or_else(|| panic!("no skill drill open: {open}"))
}

/// A drill answer: the key, or the next option when `right` is false.
pub fn drill_answer(turn: &Value, key: u64, right: bool) -> Value {
    let options = card(turn)["options"].as_array().map_or(0, Vec::len) as u64;
    let index = if right { key } else { (key + 1) % options };
    json!({"type": "tutor.drill_check", "drill_id": card(turn)["drill_id"], "index": index})
}

/// A right answer to the open drill, from the checkpoint file: a skill drill's key, or a
/// rubric drill's element answered with every fact of its rubric.
pub fn right_drill_answer(server: &Server, session_id: &str, turn: &Value) -> Value {
    let checkpoint = super::assessment::stored_checkpoint(server, session_id);
    let open = &checkpoint["tutor"]["open"];
    match open["kind"].as_str() {
        Some("skill_drill") => drill_answer(turn, drill_key(server, session_id), true),
        Some("rubric_drill") => {
            let element = open["element"].as_str().expect("the drill's element");
            json!({"type": "answer.text", "text": super::acs::satisfactory_answer(element)})
        }
        _ => panic!("no drill open: {open}"),
    }
}

/// The key of an exam question, from the shipped course file.
pub fn exam_key(course_file: &str, question_id: &str) -> u64 {
    let path = format!("{COURSES}/{course_file}");
    let text = std::fs::read_to_string(&path).expect("read the course file");
    let doc: CourseDoc = parse(&Source { path, text }).expect("the course parses");
    doc.exam_questions
        .iter()
        .find(|q| q.question_id == question_id)
        .map(|q| q.answer_index as u64)
        .expect("the question is in the course")
}
