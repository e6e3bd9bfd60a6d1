//! `DeviceLink`: how actors reach one connected device — a bounded outbound queue, and a
//! token that closes the connection when the client cannot keep up.

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use viva_protocol::ServerMessage;

/// Capacity of each connection's outbound queue. A client this far behind is closed.
pub const OUTBOUND_QUEUE: usize = 256;

/// The receiving end of a connection's outbound queue. Messages are boxed: tokio allocates
/// a queue's slots 32 at a time, and a `ServerMessage` is about 185 bytes, so boxing makes
/// an idle connection's queue 256 bytes instead of about 6 KiB.
pub type Outbound = mpsc::Receiver<Box<ServerMessage>>;

/// The sending half of one WebSocket connection.
#[derive(Debug, Clone)]
pub struct DeviceLink {
    /// Unique per connection within this process.
    pub connection_id: u64,
    /// The client's device id.
    pub device_id: String,
    sender: mpsc::Sender<Box<ServerMessage>>,
    close: CancellationToken,
}

impl DeviceLink {
    /// A link and the receiving end the connection's writer drains.
    pub fn new(
        connection_id: u64,
        device_id: String,
        close: CancellationToken,
    ) -> (DeviceLink, Outbound) {
        let (sender, receiver) = mpsc::channel(OUTBOUND_QUEUE);
        (
            DeviceLink {
                connection_id,
                device_id,
                sender,
                close,
            },
            receiver,
        )
    }

    /// The same connection under another device id.
    pub fn with_device(&self, device_id: String) -> DeviceLink {
        DeviceLink {
            device_id,
            ..self.clone()
        }
    }

    /// Queues a message without waiting. A full queue closes the connection (the client is
    /// too slow); a closed one means the connection is gone. Returns whether it was queued.
    pub fn send(&self, message: ServerMessage) -> bool {
        match self.sender.try_send(Box::new(message)) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::warn!(
                    connection = self.connection_id,
                    "outbound queue full; closing slow client"
                );
                self.close.cancel();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Whether the connection has gone or is closing.
    pub fn is_closed(&self) -> bool {
        self.sender.is_closed() || self.close.is_cancelled()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_closes_the_connection() {
        let close = CancellationToken::new();
        let (link, _receiver) = DeviceLink::new(1, "d".into(), close.clone());
        for _ in 0..OUTBOUND_QUEUE {
            assert!(link.send(ServerMessage::unsequenced(viva_protocol::ServerEvent::Pong)));
        }
        assert!(!close.is_cancelled());
        assert!(!link.send(ServerMessage::unsequenced(viva_protocol::ServerEvent::Pong)));
        assert!(close.is_cancelled());
        assert!(link.is_closed());
    }
}
