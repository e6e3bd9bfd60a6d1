//! Close frames: the code a connection ends with, from what ended it (RFC 6455, 7.4.1).

use axum::extract::ws::CloseFrame;
use tokio_tungstenite::tungstenite::Error as WsError;
use tokio_tungstenite::tungstenite::error::{CapacityError, ProtocolError};

/// 1001: the server is going away (shutdown) or ends the connection for its own reasons.
pub const GOING_AWAY: u16 = 1001;
/// 1002: the client broke the WebSocket protocol.
pub const PROTOCOL_ERROR: u16 = 1002;
/// 1007: a text message was not valid UTF-8.
pub const INVALID_PAYLOAD: u16 = 1007;
/// 1009: a message was larger than the server takes.
pub const MESSAGE_TOO_BIG: u16 = 1009;

/// The close frame of an ordinary end.
pub fn going_away() -> CloseFrame {
    frame(GOING_AWAY, "closing")
}

/// The close frame that answers a read error, or `None` when the peer is gone and there is
/// no one to tell.
pub fn for_read_error(err: axum::Error) -> Option<CloseFrame> {
    let err = err.into_inner().downcast::<WsError>().ok()?;
    match *err {
        WsError::Capacity(CapacityError::MessageTooLong { .. }) => {
            Some(frame(MESSAGE_TOO_BIG, "message too big"))
        }
        WsError::Capacity(_) => Some(frame(PROTOCOL_ERROR, "protocol error")),
        WsError::Utf8(_) => Some(frame(INVALID_PAYLOAD, "text is not valid UTF-8")),
        WsError::Protocol(ProtocolError::ResetWithoutClosingHandshake) => None,
        WsError::Protocol(_) => Some(frame(PROTOCOL_ERROR, "protocol error")),
        _ => None,
    }
}

fn frame(code: u16, reason: &'static str) -> CloseFrame {
    CloseFrame {
        code,
        reason: reason.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(err: WsError, expected: Option<u16>) {
        let shown = err.to_string();
        let code = for_read_error(axum::Error::new(err)).map(|frame| frame.code);
        assert_eq!(code, expected, "{shown}");
    }

    #[test]
    fn read_errors_close_with_their_codes() {
        let too_long = CapacityError::MessageTooLong {
            size: 2 << 20,
            max_size: 1 << 20,
        };
        check(WsError::Capacity(too_long), Some(MESSAGE_TOO_BIG));
        check(WsError::Utf8("bad".into()), Some(INVALID_PAYLOAD));
        check(
            WsError::Protocol(ProtocolError::UnexpectedContinueFrame),
            Some(PROTOCOL_ERROR),
        );
        check(
            WsError::Protocol(ProtocolError::ResetWithoutClosingHandshake),
            None,
        );
        check(WsError::ConnectionClosed, None);
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionReset);
        check(WsError::Io(io), None);
    }
}
