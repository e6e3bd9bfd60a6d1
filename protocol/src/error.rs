//! The stable error codes carried by the `error` server event.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A stable, snake_case error code. Clients match on it; the message is for people.
///
/// Every code leaves the connection open unless its doc says it closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The text frame is not valid JSON.
    InvalidJson,
    /// The frame is JSON but not an object with a string `type`.
    InvalidMessage,
    /// The `type` is not one the server knows.
    UnknownType,
    /// A field is missing or has the wrong type or value.
    InvalidField,
    /// The `event_id` is longer than 64 characters or not a string.
    InvalidEventId,
    /// The frame is larger than the server accepts.
    FrameTooLarge,
    /// The event needs a session attached to this connection, and there is none.
    NoActiveSession,
    /// No session of this user has that id (also answered for other users' sessions).
    SessionNotFound,
    /// The session on this connection was paused (by the user or another device); resume it first.
    SessionPaused,
    /// The session has completed; only its result can be read.
    SessionCompleted,
    /// The session was abandoned after staying paused too long.
    SessionAbandoned,
    /// There is no open question to answer.
    NoOpenQuestion,
    /// The answer does not fit the open question (for example a choice on an open question).
    InvalidAnswer,
    /// This assessment does not allow skipping items.
    SkipNotAllowed,
    /// Too many sessions started recently, or too many open at once; retry later. Also sent
    /// for each event of a client that has left more than 128 KiB of events unread: read
    /// them, then send again (nothing was applied).
    RateLimited,
    /// The session `config` cannot build a session (for example filters that match nothing).
    InvalidConfig,
    /// This mode or feature is not available on this server yet.
    Unsupported,
    /// Storage is unreachable, so the event is not durable yet. For the event that was
    /// applied, the `ack` (and what follows it) is held and sent once storage recovers; any
    /// later event is not applied and can be resent with the same `event_id`.
    StorageUnavailable,
    /// Speech input is not available on this server (it runs without a speech model), or not
    /// for this session; answer with `answer.text`.
    VoiceUnavailable,
    /// An audio frame is not PCM16 (an odd number of bytes).
    InvalidAudio,
    /// The turn had no speech to transcribe (silence or noise); nothing was answered.
    NoSpeech,
    /// The spoken answer could not be read as what the item expects; nothing was answered
    /// (an `answer.unclear` says what was heard). Say it again.
    AnswerUnclear,
    /// Another device or server node took the session over; this connection no longer holds
    /// it, and the event was not applied. Resume the session to continue.
    SessionMoved,
    /// The server is busy; retry later.
    Overloaded,
    /// The server is shutting down; reconnect and resume.
    ServerShuttingDown,
    /// An operator has stopped new sessions (exams and assessments) on this deployment for
    /// now; nothing was started. Sessions already started run on: resume a paused one, and
    /// read results as usual. Retry a start later.
    NewSessionsDisabled,
    /// A tutor session cannot start while an evaluation-mode assessment of the user is open
    /// (active or paused): finish or end the assessment first.
    EvaluationInProgress,
    /// The event belongs to another kind of session (a `tutor.*` event in an exam, say).
    WrongMode,
    /// Something went wrong inside the server; details are in its log.
    Internal,
}

impl ErrorCode {
    /// Every code as it appears on the wire.
    pub const NAMES: &'static [&'static str] = &[
        "invalid_json",
        "invalid_message",
        "unknown_type",
        "invalid_field",
        "invalid_event_id",
        "frame_too_large",
        "no_active_session",
        "session_not_found",
        "session_paused",
        "session_completed",
        "session_abandoned",
        "no_open_question",
        "invalid_answer",
        "skip_not_allowed",
        "rate_limited",
        "invalid_config",
        "unsupported",
        "storage_unavailable",
        "session_moved",
        "voice_unavailable",
        "no_speech",
        "answer_unclear",
        "invalid_audio",
        "overloaded",
        "server_shutting_down",
        "new_sessions_disabled",
        "evaluation_in_progress",
        "wrong_mode",
        "internal",
    ];

    /// The code as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::InvalidMessage => "invalid_message",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::InvalidField => "invalid_field",
            ErrorCode::InvalidEventId => "invalid_event_id",
            ErrorCode::FrameTooLarge => "frame_too_large",
            ErrorCode::NoActiveSession => "no_active_session",
            ErrorCode::SessionNotFound => "session_not_found",
            ErrorCode::SessionPaused => "session_paused",
            ErrorCode::SessionCompleted => "session_completed",
            ErrorCode::SessionAbandoned => "session_abandoned",
            ErrorCode::NoOpenQuestion => "no_open_question",
            ErrorCode::InvalidAnswer => "invalid_answer",
            ErrorCode::SkipNotAllowed => "skip_not_allowed",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::InvalidConfig => "invalid_config",
            ErrorCode::Unsupported => "unsupported",
            ErrorCode::StorageUnavailable => "storage_unavailable",
            ErrorCode::SessionMoved => "session_moved",
            ErrorCode::VoiceUnavailable => "voice_unavailable",
            ErrorCode::NoSpeech => "no_speech",
            ErrorCode::AnswerUnclear => "answer_unclear",
            ErrorCode::InvalidAudio => "invalid_audio",
            ErrorCode::Overloaded => "overloaded",
            ErrorCode::ServerShuttingDown => "server_shutting_down",
            ErrorCode::NewSessionsDisabled => "new_sessions_disabled",
            ErrorCode::EvaluationInProgress => "evaluation_in_progress",
            ErrorCode::WrongMode => "wrong_mode",
            ErrorCode::Internal => "internal",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_match_as_str() {
        let codes = [
            ErrorCode::InvalidJson,
            ErrorCode::InvalidMessage,
            ErrorCode::UnknownType,
            ErrorCode::InvalidField,
            ErrorCode::InvalidEventId,
            ErrorCode::FrameTooLarge,
            ErrorCode::NoActiveSession,
            ErrorCode::SessionNotFound,
            ErrorCode::SessionPaused,
            ErrorCode::SessionCompleted,
            ErrorCode::SessionAbandoned,
            ErrorCode::NoOpenQuestion,
            ErrorCode::InvalidAnswer,
            ErrorCode::SkipNotAllowed,
            ErrorCode::RateLimited,
            ErrorCode::InvalidConfig,
            ErrorCode::Unsupported,
            ErrorCode::StorageUnavailable,
            ErrorCode::SessionMoved,
            ErrorCode::VoiceUnavailable,
            ErrorCode::NoSpeech,
            ErrorCode::AnswerUnclear,
            ErrorCode::InvalidAudio,
            ErrorCode::Overloaded,
            ErrorCode::ServerShuttingDown,
            ErrorCode::NewSessionsDisabled,
            ErrorCode::EvaluationInProgress,
            ErrorCode::WrongMode,
            ErrorCode::Internal,
        ];
        for code in codes {
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, serde_json::json!(code.as_str()));
        }
        let names: Vec<&str> = codes.iter().map(|code| code.as_str()).collect();
        assert_eq!(names, ErrorCode::NAMES, "NAMES lists every code, in order");
    }
}
