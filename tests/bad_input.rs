//! Bad frames get a precise error code and leave the connection (and session) usable.

use serde_json::json;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame as WsFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use viva_protocol::{MAX_AUDIO_FRAME_BYTES, MAX_TEXT_FRAME_BYTES};

use crate::harness::{
    Auth, Client, Server, answer, next_event_id, satisfactory_for, start_exam, start_tutor,
};

/// A frame a client can send.
enum Frame {
    Text(String),
    Binary(Vec<u8>),
}

impl Frame {
    async fn send(self, client: &mut Client) {
        match self {
            Frame::Text(text) => client.send_text(text).await,
            Frame::Binary(bytes) => client.send_binary(bytes).await,
        }
    }
}

/// On a fresh connection without a session: `frame` is refused with `code` (echoing
/// `event_id`), and `ping` still gets `pong` afterwards.
async fn assert_refused(frame: Frame, code: &str, event_id: Option<&str>) {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("alice")).await;
    frame.send(&mut client).await;
    client.expect_error(code, event_id).await;
    client.assert_alive().await;
}

/// An `answer.text` frame padded past the text limit: valid JSON, just too big.
fn oversized_text() -> String {
    let text = "a".repeat(MAX_TEXT_FRAME_BYTES + 4 * 1024);
    json!({"type": "answer.text", "event_id": "big-1", "text": text}).to_string()
}

#[tokio::test]
async fn malformed_json_is_invalid_json() {
    assert_refused(Frame::Text("{not json".into()), "invalid_json", None).await;
}

#[tokio::test]
async fn unknown_type_is_refused() {
    let frame = r#"{"type":"launch","event_id":"u1"}"#;
    assert_refused(Frame::Text(frame.into()), "unknown_type", Some("u1")).await;
}

#[tokio::test]
async fn unknown_type_without_event_id_is_refused() {
    let frame = r#"{"type":"launch"}"#;
    assert_refused(Frame::Text(frame.into()), "unknown_type", None).await;
}

#[tokio::test]
async fn missing_field_is_invalid_field() {
    let frame = r#"{"type":"answer.text","event_id":"m1"}"#;
    assert_refused(Frame::Text(frame.into()), "invalid_field", Some("m1")).await;
}

#[tokio::test]
async fn non_object_json_is_invalid_message() {
    assert_refused(Frame::Text("[1,2]".into()), "invalid_message", None).await;
}

#[tokio::test]
async fn non_string_event_id_is_invalid_event_id() {
    let frame = r#"{"type":"ping","event_id":5}"#;
    assert_refused(Frame::Text(frame.into()), "invalid_event_id", None).await;
}

#[tokio::test]
async fn oversized_text_frame_is_frame_too_large() {
    assert_refused(Frame::Text(oversized_text()), "frame_too_large", None).await;
}

#[tokio::test]
async fn oversized_binary_frame_is_frame_too_large() {
    let audio = vec![0u8; MAX_AUDIO_FRAME_BYTES + 6 * 1024];
    assert_refused(Frame::Binary(audio), "frame_too_large", None).await;
}

#[tokio::test]
async fn binary_frame_without_session_is_no_active_session() {
    let audio = vec![0u8; 3200];
    assert_refused(Frame::Binary(audio), "no_active_session", None).await;
}

#[tokio::test]
async fn answer_without_session_is_no_active_session() {
    let frame = r#"{"type":"answer.text","event_id":"n1","text":"Ninety days."}"#;
    assert_refused(Frame::Text(frame.into()), "no_active_session", Some("n1")).await;
}

#[tokio::test]
async fn bad_frames_leave_the_open_session_intact() {
    let server = Server::start().await;
    let mut alice = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut alice, "A").await;
    let frames = [
        (Frame::Text("{not json".into()), "invalid_json"),
        (Frame::Text(r#"{"type":"launch"}"#.into()), "unknown_type"),
        (Frame::Text(oversized_text()), "frame_too_large"),
        (
            Frame::Binary(vec![0u8; MAX_AUDIO_FRAME_BYTES + 1]),
            "frame_too_large",
        ),
    ];
    for (frame, code) in frames {
        frame.send(&mut alice).await;
        let error = alice.expect("error").await;
        assert_eq!(error["code"], code, "{error}");
    }
    alice.assert_alive().await;
    let answered = answer(&mut alice, &satisfactory_for(&started.question)).await;
    assert_eq!(
        answered.assessment["question_id"],
        started.question["question_id"]
    );
    assert_eq!(answered.question()["number"], 2, "{:?}", answered.events);
}

#[tokio::test]
async fn audio_on_a_text_only_server_is_voice_unavailable_and_the_exam_goes_on() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("alice")).await;
    let started = start_exam(&mut client, "A").await;
    client.send_binary(vec![0u8; 3200]).await;
    client.expect_error("voice_unavailable", None).await;
    client
        .send_json(json!({"type": "audio.commit", "event_id": "c1"}))
        .await;
    client.expect_error("voice_unavailable", Some("c1")).await;
    let next = answer(&mut client, &satisfactory_for(&started.question)).await;
    assert_eq!(
        next.assessment["score"], "satisfactory",
        "{}",
        next.assessment
    );
}

/// The server's hard WebSocket message limit (1 MiB); beyond it the connection closes.
const HARD_LIMIT: usize = 1024 * 1024;
/// The most characters of client input an error message may quote.
const QUOTED_AT_MOST: usize = 64;

/// Sends `frame` (the server may close before it has all of it) and returns the close code.
async fn close_code_after(frame: Message) -> u16 {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("alice")).await;
    // ignore: a server that closes early may refuse the rest of the frame.
    let _ = client.try_send(frame).await;
    client.expect_close_code().await
}

#[tokio::test]
async fn a_message_over_the_hard_limit_closes_with_1009() {
    let text = "a".repeat(HARD_LIMIT + 1);
    assert_eq!(close_code_after(Message::text(text)).await, 1009);
}

#[tokio::test]
async fn invalid_utf8_text_closes_with_1007() {
    let frame = WsFrame::message(vec![b'{', 0xff, 0xfe, b'}'], OpCode::Data(Data::Text), true);
    assert_eq!(close_code_after(Message::Frame(frame)).await, 1007);
}

#[tokio::test]
async fn a_protocol_violation_closes_with_1002() {
    let stray = WsFrame::message(b"x".to_vec(), OpCode::Data(Data::Continue), true);
    assert_eq!(close_code_after(Message::Frame(stray)).await, 1002);
}

/// Every error path a client can reach with a string of its own, walked with a 15,000
/// character value: no message quotes more than 64 characters of it, or runs past 400.
#[tokio::test]
async fn every_error_quotes_at_most_64_characters_of_the_input() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("alice")).await;
    let long = "x".repeat(15_000);
    let start = |config: serde_json::Value| json!({"type": "session.start", "device_id": "d", "mode": "exam", "config": config});
    let without_session = [
        (json!({"type": long}), "unknown_type"),
        (
            json!({"type": "answer.choice", "index": long}),
            "invalid_field",
        ),
        (json!({"type": "answer.text", "text": 5}), "invalid_field"),
        (
            json!({"type": "session.start", "device_id": "d", "mode": long, "config": {}}),
            "invalid_field",
        ),
        (start(json!({"rating": long})), "invalid_field"),
        (
            start(json!({"rating": "private", "study_mode": long})),
            "invalid_field",
        ),
        (
            start(json!({"rating": "private", "tasks": [long]})),
            "invalid_config",
        ),
        (
            start(json!({"rating": "private", "areas": [long]})),
            "invalid_config",
        ),
        (
            json!({"type": "session.start", "device_id": "d", "mode": "assessment",
            "config": {"assessment_id": long}}),
            "invalid_config",
        ),
        (
            json!({"type": "session.start", "device_id": "d", "mode": "tutor",
            "config": {"course_id": long}}),
            "invalid_config",
        ),
        (
            json!({"type": "session.resume", "device_id": "d", "session_id": long}),
            "session_not_found",
        ),
        (
            json!({"type": "tutor.request_drill", "unit_id": long}),
            "no_active_session",
        ),
    ];
    for (frame, code) in without_session {
        refused_quoting_little(&mut client, frame, code).await;
    }
    start_tutor(&mut client, "ARITHMETIC").await;
    let in_a_tutor_session = [
        (
            json!({"type": "tutor.request_drill", "unit_id": long}),
            "invalid_field",
        ),
        (
            json!({"type": "tutor.drill_check", "drill_id": long, "index": 0}),
            "no_open_question",
        ),
        (
            json!({"type": "tutor.exam_submit", "question_id": long, "index": 0}),
            "no_open_question",
        ),
        (
            json!({"type": "tutor.memo_viewed", "question_id": long}),
            "no_open_question",
        ),
        (
            json!({"type": "tutor.message", "text": long}),
            "invalid_field",
        ),
        (
            json!({"type": "answer.text", "text": long}),
            "invalid_field",
        ),
        (
            json!({"type": "session.resume", "device_id": long, "session_id": "s"}),
            "session_not_found",
        ),
    ];
    for (frame, code) in in_a_tutor_session {
        refused_quoting_little(&mut client, frame, code).await;
    }
    client.assert_alive().await;
}

/// Sends `frame` with an event id; it is refused with `code`, quoting little of it.
async fn refused_quoting_little(client: &mut Client, mut frame: serde_json::Value, code: &str) {
    let event_id = next_event_id("long");
    frame["event_id"] = json!(event_id);
    client.send_json(frame.clone()).await;
    let error = client.expect_error(code, Some(&event_id)).await;
    let message = error["message"].as_str().unwrap_or_default();
    let quoted = message.split(|c| c != 'x').map(str::len).max().unwrap_or(0);
    let shown: String = frame.to_string().chars().take(80).collect();
    assert!(
        quoted <= QUOTED_AT_MOST,
        "{quoted} characters quoted for {shown}: {message}"
    );
    assert!(
        message.chars().count() <= 401,
        "{} characters for {shown}",
        message.len()
    );
}
