//! Client → server events: the envelope of every client text frame.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::config::SessionConfig;

/// One client text frame: an optional `event_id` beside the event's own fields.
///
/// # Format
/// ```json
/// {"type": "answer.text", "event_id": "a-17", "text": "Ninety days."}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ClientMessage {
    /// Echoed on the `ack` or `error` answering this event; a repeat within a session is a
    /// no-op acked again. At most 64 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_id: Option<String>,
    /// The event.
    #[serde(flatten)]
    pub event: ClientEvent,
}

/// Every event a client may send, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type")]
pub enum ClientEvent {
    /// `session.start`: start a new session on this device.
    #[serde(rename = "session.start")]
    SessionStart(SessionStart),
    /// `session.resume`: attach this device to an existing session.
    #[serde(rename = "session.resume")]
    SessionResume(SessionResume),
    /// `session.pause`: pause the session attached to this connection.
    ///
    /// # Format
    /// ```json
    /// {"type": "session.pause"}
    /// ```
    #[serde(rename = "session.pause")]
    SessionPause,
    /// `session.end`: end the session now; it is graded as it stands.
    ///
    /// # Format
    /// ```json
    /// {"type": "session.end"}
    /// ```
    #[serde(rename = "session.end")]
    SessionEnd,
    /// `answer.text`: a typed answer.
    #[serde(rename = "answer.text")]
    AnswerText(AnswerText),
    /// `answer.choice`: pick an option of a multiple-choice question.
    #[serde(rename = "answer.choice")]
    AnswerChoice(AnswerChoice),
    /// `answer.skip`: skip the current item, when the assessment allows it (an extension).
    ///
    /// # Format
    /// ```json
    /// {"type": "answer.skip"}
    /// ```
    #[serde(rename = "answer.skip")]
    AnswerSkip,
    /// `audio.commit`: the spoken answer is finished.
    ///
    /// # Format
    /// ```json
    /// {"type": "audio.commit"}
    /// ```
    #[serde(rename = "audio.commit")]
    AudioCommit,
    /// `audio.clear`: discard audio since the last turn ended.
    ///
    /// # Format
    /// ```json
    /// {"type": "audio.clear"}
    /// ```
    #[serde(rename = "audio.clear")]
    AudioClear,
    /// `ping`: liveness; answered with `pong`.
    ///
    /// # Format
    /// ```json
    /// {"type": "ping"}
    /// ```
    #[serde(rename = "ping")]
    Ping,
    /// `tutor.message`: the student's words to the tutor (a tutor session).
    #[serde(rename = "tutor.message")]
    TutorMessage(crate::tutor::TutorMessage),
    /// `tutor.request_drill` (`REQUEST_DRILL`): a drill card.
    #[serde(rename = "tutor.request_drill")]
    TutorRequestDrill(crate::tutor::RequestDrill),
    /// `tutor.drill_check`: check the open drill's answer.
    #[serde(rename = "tutor.drill_check")]
    TutorDrillCheck(crate::tutor::DrillCheck),
    /// `tutor.stuck` ("I'm stuck"): help with the open drill or the focus unit.
    ///
    /// # Format
    /// ```json
    /// {"type": "tutor.stuck"}
    /// ```
    #[serde(rename = "tutor.stuck")]
    TutorStuck,
    /// `tutor.try_another` ("Try another"): a fresh drill instead of the open one.
    ///
    /// # Format
    /// ```json
    /// {"type": "tutor.try_another"}
    /// ```
    #[serde(rename = "tutor.try_another")]
    TutorTryAnother,
    /// `tutor.drill_continue` (`DRILL_CONTINUE`): go on after a drill's result.
    ///
    /// # Format
    /// ```json
    /// {"type": "tutor.drill_continue"}
    /// ```
    #[serde(rename = "tutor.drill_continue")]
    TutorDrillContinue,
    /// `tutor.exam_submit`: answer the open exam question.
    #[serde(rename = "tutor.exam_submit")]
    TutorExamSubmit(crate::tutor::ExamSubmit),
    /// `tutor.memo_viewed`: the student opened an exam question's memo.
    #[serde(rename = "tutor.memo_viewed")]
    TutorMemoViewed(crate::tutor::MemoViewed),
    /// `tutor.exam_continue` (`EXAM_CONTINUE`): go on after an exam result.
    ///
    /// # Format
    /// ```json
    /// {"type": "tutor.exam_continue"}
    /// ```
    #[serde(rename = "tutor.exam_continue")]
    TutorExamContinue,
}

impl ClientEvent {
    /// Every `type` a client may send.
    pub const TYPES: &'static [&'static str] = &[
        "session.start",
        "session.resume",
        "session.pause",
        "session.end",
        "answer.text",
        "answer.choice",
        "answer.skip",
        "audio.commit",
        "audio.clear",
        "ping",
        "tutor.message",
        "tutor.request_drill",
        "tutor.drill_check",
        "tutor.stuck",
        "tutor.try_another",
        "tutor.drill_continue",
        "tutor.exam_submit",
        "tutor.memo_viewed",
        "tutor.exam_continue",
    ];

    /// This event's `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            ClientEvent::SessionStart(_) => "session.start",
            ClientEvent::SessionResume(_) => "session.resume",
            ClientEvent::SessionPause => "session.pause",
            ClientEvent::SessionEnd => "session.end",
            ClientEvent::AnswerText(_) => "answer.text",
            ClientEvent::AnswerChoice(_) => "answer.choice",
            ClientEvent::AnswerSkip => "answer.skip",
            ClientEvent::AudioCommit => "audio.commit",
            ClientEvent::AudioClear => "audio.clear",
            ClientEvent::Ping => "ping",
            ClientEvent::TutorMessage(_) => "tutor.message",
            ClientEvent::TutorRequestDrill(_) => "tutor.request_drill",
            ClientEvent::TutorDrillCheck(_) => "tutor.drill_check",
            ClientEvent::TutorStuck => "tutor.stuck",
            ClientEvent::TutorTryAnother => "tutor.try_another",
            ClientEvent::TutorDrillContinue => "tutor.drill_continue",
            ClientEvent::TutorExamSubmit(_) => "tutor.exam_submit",
            ClientEvent::TutorMemoViewed(_) => "tutor.memo_viewed",
            ClientEvent::TutorExamContinue => "tutor.exam_continue",
        }
    }
}

/// `session.start`.
///
/// # Format
/// ```json
/// {"type": "session.start", "device_id": "laptop",
///  "mode": "exam", "config": {"rating": "private", "tasks": ["PA.I.A"]}}
/// ```
/// A start resent with the same `event_id` (after a lost connection, say) gets the session
/// that id started, while that session is open (active or paused); once it has completed or
/// been abandoned, the same id starts a new session.
///
/// With `"speak": true` this connection also hears the examiner: each question and tutor's
/// message is spoken as `examiner.voice.*` events and binary audio frames (see
/// [`crate::voice`]). It is the device's choice, not the session's: a resume asks again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SessionStart {
    /// A client-chosen id for this device, stable across reconnects.
    pub device_id: String,
    /// `mode` and `config`.
    #[serde(flatten)]
    pub config: SessionConfig,
    /// Whether this connection hears the examiner's voice (default false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub speak: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

/// `session.resume`.
///
/// # Format
/// ```json
/// {"type": "session.resume", "device_id": "phone", "session_id": "9b1c…"}
/// ```
/// Without `session_id`, the user's active or most recently paused session is resumed.
/// `"speak": true` asks for the examiner's voice, as on `session.start`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SessionResume {
    /// A client-chosen id for this device.
    pub device_id: String,
    /// The session to resume.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Whether this connection hears the examiner's voice (default false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub speak: bool,
}

/// `answer.text`.
///
/// # Format
/// ```json
/// {"type": "answer.text", "text": "You need a current medical certificate."}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AnswerText {
    /// The candidate's answer.
    pub text: String,
}

/// `answer.choice`.
///
/// # Format
/// ```json
/// {"type": "answer.choice", "index": 2}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AnswerChoice {
    /// 0-based index into the question's `options`.
    pub index: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each documented `# Format` example decodes and re-encodes to the same JSON.
    #[test]
    fn documented_examples_round_trip() {
        let examples = [
            r#"{"type":"answer.text","event_id":"a-17","text":"Ninety days."}"#,
            r#"{"type":"session.pause"}"#,
            r#"{"type":"session.end"}"#,
            r#"{"type":"audio.commit"}"#,
            r#"{"type":"audio.clear"}"#,
            r#"{"type":"ping"}"#,
            r#"{"type":"session.start","device_id":"laptop","mode":"exam","config":{"rating":"private","study_mode":"linear","difficulty":"mixed","aircraft_class":"ASEL","tasks":["PA.I.A"],"input":"text"}}"#,
            r#"{"type":"session.start","device_id":"d","mode":"assessment","config":{"assessment_id":"MATH-FUNDAMENTALS-L1","learning":false}}"#,
            r#"{"type":"session.start","device_id":"d","mode":"tutor","config":{"course_id":"networking-basics"}}"#,
            r#"{"type":"session.resume","device_id":"phone","session_id":"s1"}"#,
            r#"{"type":"session.resume","device_id":"phone"}"#,
            r#"{"type":"answer.choice","index":2}"#,
            r#"{"type":"answer.skip"}"#,
            r#"{"type":"tutor.message","text":"how do I find the network address?"}"#,
            r#"{"type":"tutor.request_drill","unit_id":"network-address"}"#,
            r#"{"type":"tutor.request_drill"}"#,
            r#"{"type":"tutor.drill_check","drill_id":"d3","text":"192.168.1.64"}"#,
            r#"{"type":"tutor.drill_check","drill_id":"d3","index":2}"#,
            r#"{"type":"tutor.stuck"}"#,
            r#"{"type":"tutor.try_another"}"#,
            r#"{"type":"tutor.drill_continue"}"#,
            r#"{"type":"tutor.exam_submit","question_id":"SUB-B1","index":1}"#,
            r#"{"type":"tutor.memo_viewed","question_id":"SUB-B1"}"#,
            r#"{"type":"tutor.exam_continue"}"#,
        ];
        for example in examples {
            let expected: serde_json::Value = serde_json::from_str(example).unwrap();
            let message: ClientMessage = serde_json::from_value(expected.clone()).unwrap();
            assert_eq!(
                serde_json::to_value(&message).unwrap(),
                expected,
                "{example}"
            );
        }
    }

    #[test]
    fn exam_config_defaults() {
        let json = r#"{"type":"session.start","device_id":"d","mode":"exam","config":{"rating":"commercial"}}"#;
        let message: ClientMessage = serde_json::from_str(json).unwrap();
        let ClientEvent::SessionStart(start) = message.event else {
            panic!("not a start: {message:?}");
        };
        let crate::config::SessionConfig::Exam(config) = start.config else {
            panic!("not an exam");
        };
        assert_eq!(config.study_mode, crate::config::StudyMode::Linear);
        assert_eq!(config.difficulty, crate::config::Difficulty::Mixed);
        assert_eq!(config.aircraft_class, crate::config::AircraftClass::ASEL);
        assert_eq!(config.input, crate::config::InputMode::Text);
    }

    #[test]
    fn every_type_is_listed() {
        for json in [
            r#"{"type":"session.pause"}"#,
            r#"{"type":"ping"}"#,
            r#"{"type":"answer.choice","index":0}"#,
        ] {
            let message: ClientMessage = serde_json::from_str(json).unwrap();
            let encoded = serde_json::to_value(&message).unwrap();
            let kind = encoded["type"].as_str().unwrap().to_owned();
            assert!(ClientEvent::TYPES.contains(&kind.as_str()), "{kind}");
            assert_eq!(message.event.type_name(), kind);
        }
    }
}
