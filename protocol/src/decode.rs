//! Decoding a client text frame once, at the edge, into a `ClientMessage` or an `error`.

use crate::client::{ClientEvent, ClientMessage};
use crate::error::ErrorCode;
use crate::excerpt::{excerpt, shorten_quotes};
use crate::limits::{MAX_EVENT_ID_CHARS, MAX_TEXT_FRAME_BYTES};

/// Why a text frame was refused; becomes an `error` event with the same `event_id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// The stable code.
    pub code: ErrorCode,
    /// What was wrong, for people.
    pub message: String,
    /// The frame's `event_id`, when one could be read.
    pub event_id: Option<String>,
}

impl DecodeError {
    fn new(code: ErrorCode, message: impl Into<String>, event_id: Option<String>) -> Self {
        DecodeError {
            code,
            message: message.into(),
            event_id,
        }
    }
}

/// Decodes one client text frame.
///
/// Checks in order: size, JSON syntax, object with a string `type`, a valid `event_id`, a known
/// `type`, then the event's own fields. Each failure has its own code, and its message quotes
/// at most [`MAX_EXCERPT_CHARS`](crate::excerpt::MAX_EXCERPT_CHARS) characters of any value
/// or name the client sent.
pub fn decode_client_text(text: &str) -> Result<ClientMessage, DecodeError> {
    if text.len() > MAX_TEXT_FRAME_BYTES {
        return Err(DecodeError::new(
            ErrorCode::FrameTooLarge,
            format!(
                "text frame of {} bytes exceeds {MAX_TEXT_FRAME_BYTES}",
                text.len()
            ),
            None,
        ));
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|err| {
        DecodeError::new(ErrorCode::InvalidJson, format!("invalid JSON: {err}"), None)
    })?;
    let event_id = read_event_id(&value)?;
    let kind = read_type(&value, &event_id)?.to_owned();
    if !ClientEvent::TYPES.contains(&kind.as_str()) {
        let message = format!("unknown event type {:?}", excerpt(&kind));
        return Err(DecodeError::new(ErrorCode::UnknownType, message, event_id));
    }
    serde_json::from_value(value).map_err(|err| {
        let message = format!("invalid {kind} event: {}", shorten_quotes(&err.to_string()));
        DecodeError::new(ErrorCode::InvalidField, message, event_id)
    })
}

fn read_event_id(value: &serde_json::Value) -> Result<Option<String>, DecodeError> {
    match value.get("event_id") {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(id)) if id.chars().count() <= MAX_EVENT_ID_CHARS => {
            Ok(Some(id.clone()))
        }
        Some(_) => Err(DecodeError::new(
            ErrorCode::InvalidEventId,
            format!("event_id must be a string of at most {MAX_EVENT_ID_CHARS} characters"),
            None,
        )),
    }
}

fn read_type<'a>(
    value: &'a serde_json::Value,
    event_id: &Option<String>,
) -> Result<&'a str, DecodeError> {
    let Some(object) = value.as_object() else {
        let message = "a frame must be a JSON object";
        return Err(DecodeError::new(ErrorCode::InvalidMessage, message, None));
    };
    match object.get("type").and_then(|kind| kind.as_str()) {
        Some(kind) => Ok(kind),
        None => Err(DecodeError::new(
            ErrorCode::InvalidMessage,
            "a frame must have a string field \"type\"",
            event_id.clone(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<&str, (ErrorCode, Option<&str>)>) {
        let actual = decode_client_text(text);
        match (actual, expected) {
            (Ok(message), Ok(kind)) => {
                let json = serde_json::to_value(&message).unwrap();
                assert_eq!(json["type"], kind, "{text}");
            }
            (Err(err), Err((code, event_id))) => {
                assert_eq!(err.code, code, "{text}: {}", err.message);
                assert_eq!(err.event_id.as_deref(), event_id, "{text}");
                assert!(!err.message.is_empty());
            }
            (actual, expected) => panic!("{text}: got {actual:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn decodes_or_classifies_every_frame() {
        use ErrorCode::*;
        check(r#"{"type":"ping"}"#, Ok("ping"));
        check(
            r#"{"type":"answer.text","text":"x","event_id":"e"}"#,
            Ok("answer.text"),
        );
        check("{not json", Err((InvalidJson, None)));
        check("", Err((InvalidJson, None)));
        check("[1,2]", Err((InvalidMessage, None)));
        check(r#"{"event_id":"e1"}"#, Err((InvalidMessage, Some("e1"))));
        check(r#"{"type":7}"#, Err((InvalidMessage, None)));
        check(
            r#"{"type":"launch.missiles","event_id":"e2"}"#,
            Err((UnknownType, Some("e2"))),
        );
        check(
            r#"{"type":"answer.text","event_id":"e3"}"#,
            Err((InvalidField, Some("e3"))),
        );
        check(
            r#"{"type":"answer.choice","index":-1}"#,
            Err((InvalidField, None)),
        );
        check(
            r#"{"type":"session.start","device_id":"d","mode":"poker","config":{}}"#,
            Err((InvalidField, None)),
        );
        check(
            r#"{"type":"ping","event_id":5}"#,
            Err((InvalidEventId, None)),
        );
        let long_id = "x".repeat(MAX_EVENT_ID_CHARS + 1);
        check(
            &format!(r#"{{"type":"ping","event_id":"{long_id}"}}"#),
            Err((InvalidEventId, None)),
        );
        let huge = format!(
            r#"{{"type":"answer.text","text":"{}"}}"#,
            "a".repeat(MAX_TEXT_FRAME_BYTES)
        );
        check(&huge, Err((FrameTooLarge, None)));
    }

    /// Every refusal quotes at most a short excerpt of what the client sent.
    #[test]
    fn messages_quote_little_of_the_input() {
        let long = "x".repeat(15_000);
        let frames = [
            format!(r#"{{"type":"{long}"}}"#),
            format!(r#"{{"type":"session.start","device_id":"d","mode":"{long}","config":{{}}}}"#),
            format!(r#"{{"type":"answer.choice","index":"{long}"}}"#),
            format!(
                r#"{{"type":"session.start","device_id":"d","mode":"exam","config":{{"rating":"{long}"}}}}"#
            ),
        ];
        for frame in frames {
            let err = decode_client_text(&frame).expect_err("refused");
            assert!(err.message.len() < 400, "{:?}: {}", err.code, err.message);
            assert!(err.message.contains("xxxx…"), "{}", err.message);
        }
    }
}
