//! `DeviceLink`: how actors reach one connected device — a bounded outbound queue, a token
//! that closes the connection when the client cannot keep up, and the room its reader waits
//! for before it reads the client's next frame.

use std::sync::Arc;

use tokio::sync::{Notify, mpsc};
use tokio_util::sync::CancellationToken;
use viva_protocol::ServerMessage;

use crate::voice_lane::{VoiceFrame, VoiceLane};

/// Capacity of each connection's outbound queue. An actor that finds it full closes the
/// connection: the client is that far behind.
pub const OUTBOUND_QUEUE: usize = 256;
/// Free slots the connection's reader waits for before it reads the client's next frame:
/// room for every reply one frame causes (a streamed question's pieces included), so a
/// client that writes faster than it reads is slowed down, never overflows its own queue.
pub const REPLY_ROOM: usize = 64;

/// The receiving end of a connection's outbound queue, drained by the connection's writer.
/// Messages are boxed: tokio allocates a queue's slots 32 at a time, and a `ServerMessage`
/// is about 185 bytes, so boxing makes an idle connection's queue 256 bytes instead of
/// about 6 KiB.
#[derive(Debug)]
pub struct Outbound {
    receiver: mpsc::Receiver<Box<ServerMessage>>,
    voice: mpsc::Receiver<VoiceFrame>,
    drained: Arc<Notify>,
}

/// What a connection's writer sends next.
#[derive(Debug)]
pub enum Outgoing {
    /// A server event.
    Event(Box<ServerMessage>),
    /// The examiner's voice: its events and audio.
    Voice(VoiceFrame),
}

impl Outbound {
    /// The next event, else the next voice frame (events first); `None` once every link is
    /// gone.
    pub async fn recv_any(&mut self) -> Option<Outgoing> {
        let next = tokio::select! {
            biased;
            message = self.receiver.recv() => message.map(Outgoing::Event),
            Some(frame) = self.voice.recv() => Some(Outgoing::Voice(frame)),
        };
        if matches!(next, Some(Outgoing::Event(_))) {
            self.drained.notify_waiters();
        }
        next
    }

    /// The next message; `None` once every link is gone.
    pub async fn recv(&mut self) -> Option<Box<ServerMessage>> {
        let message = self.receiver.recv().await;
        self.drained.notify_waiters();
        message
    }

    /// The next message if one is queued.
    pub fn try_recv(&mut self) -> Result<Box<ServerMessage>, mpsc::error::TryRecvError> {
        let message = self.receiver.try_recv();
        if message.is_ok() {
            self.drained.notify_waiters();
        }
        message
    }
}

impl Drop for Outbound {
    /// Closes the queue first, so a reader woken here sees the connection gone.
    fn drop(&mut self) {
        self.receiver.close();
        self.drained.notify_waiters();
    }
}

/// The sending half of one WebSocket connection.
#[derive(Debug, Clone)]
pub struct DeviceLink {
    /// Unique per connection within this process.
    pub connection_id: u64,
    /// The client's device id.
    pub device_id: String,
    sender: mpsc::Sender<Box<ServerMessage>>,
    /// Notified each time the writer takes a message off the queue.
    drained: Arc<Notify>,
    close: CancellationToken,
    /// The examiner's voice on this connection.
    pub voice: VoiceLane,
    /// Whether the device asked to hear it (`"speak": true`).
    pub speaks: bool,
}

impl DeviceLink {
    /// A link and the receiving end the connection's writer drains.
    pub fn new(
        connection_id: u64,
        device_id: String,
        close: CancellationToken,
    ) -> (DeviceLink, Outbound) {
        let (sender, receiver) = mpsc::channel(OUTBOUND_QUEUE);
        let (voice, voice_receiver) = VoiceLane::new();
        let drained = Arc::new(Notify::new());
        let link = DeviceLink {
            connection_id,
            device_id,
            sender,
            drained: drained.clone(),
            close,
            voice,
            speaks: false,
        };
        let outbound = Outbound {
            receiver,
            voice: voice_receiver,
            drained,
        };
        (link, outbound)
    }

    /// The same connection under another device id.
    pub fn with_device(&self, device_id: String) -> DeviceLink {
        DeviceLink {
            device_id,
            ..self.clone()
        }
    }

    /// The same, hearing the examiner's voice or not.
    pub fn speaking(self, speaks: bool) -> DeviceLink {
        DeviceLink { speaks, ..self }
    }

    /// Queues a message without waiting, as actors must. A full queue closes the connection
    /// (the client is too slow); a closed one means the connection is gone. Returns whether
    /// it was queued.
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

    /// Waits until the queue has [`REPLY_ROOM`] free slots, or the connection is gone. Only
    /// the connection's reader waits here, before it reads a frame; nothing is reserved, so
    /// actors' `send`s are never held up.
    pub async fn room_for_replies(&self) {
        while !self.has_room() {
            let drained = self.drained.notified();
            let mut drained = std::pin::pin!(drained);
            // Registered before the second look, so a message taken in between still wakes us.
            drained.as_mut().enable();
            if self.has_room() {
                return;
            }
            drained.await;
        }
    }

    fn has_room(&self) -> bool {
        self.sender.capacity() >= REPLY_ROOM || self.sender.is_closed()
    }

    /// Whether the connection has gone or is closing.
    pub fn is_closed(&self) -> bool {
        self.sender.is_closed() || self.close.is_cancelled()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn pong() -> ServerMessage {
        ServerMessage::unsequenced(viva_protocol::ServerEvent::Pong)
    }

    #[test]
    fn a_full_queue_closes_the_connection() {
        let close = CancellationToken::new();
        let (link, _receiver) = DeviceLink::new(1, "d".into(), close.clone());
        for _ in 0..OUTBOUND_QUEUE {
            assert!(link.send(pong()));
        }
        assert!(!close.is_cancelled());
        assert!(!link.send(pong()));
        assert!(close.is_cancelled());
        assert!(link.is_closed());
    }

    #[tokio::test(start_paused = true)]
    async fn the_reader_waits_for_room_until_the_writer_drains() {
        let (link, mut outbound) = DeviceLink::new(1, "d".into(), CancellationToken::new());
        let busy = OUTBOUND_QUEUE - REPLY_ROOM + 1;
        for _ in 0..busy {
            assert!(link.send(pong()));
        }
        let waiting = tokio::time::timeout(Duration::from_secs(60), link.room_for_replies());
        assert!(waiting.await.is_err(), "no room while the writer is stuck");
        let reader = tokio::spawn({
            let link = link.clone();
            async move { link.room_for_replies().await }
        });
        tokio::task::yield_now().await;
        assert!(!reader.is_finished());
        assert!(outbound.recv().await.is_some());
        tokio::time::timeout(Duration::from_secs(1), reader)
            .await
            .expect("one message taken makes room")
            .expect("the reader ran");
        assert!(link.send(pong()), "the reader never reserved a slot");
    }

    #[tokio::test(start_paused = true)]
    async fn a_closed_connection_ends_the_wait() {
        let (link, outbound) = DeviceLink::new(1, "d".into(), CancellationToken::new());
        for _ in 0..OUTBOUND_QUEUE {
            link.send(pong());
        }
        let reader = tokio::spawn({
            let link = link.clone();
            async move { link.room_for_replies().await }
        });
        tokio::task::yield_now().await;
        assert!(!reader.is_finished());
        drop(outbound);
        tokio::time::timeout(Duration::from_secs(1), reader)
            .await
            .expect("a gone connection has nothing to wait for")
            .expect("the reader ran");
    }
}
