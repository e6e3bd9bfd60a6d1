//! The writing half of one connection: server events from the bounded queue (then the
//! examiner's voice from its own), the heartbeat, and the close frame, each write bounded by [`WRITE_TIMEOUT`].

use std::sync::Arc;
use std::time::Duration;

use crate::metrics::ServerMetrics;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::SinkExt;
use futures_util::stream::SplitSink;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use viva_actors::link::{Outbound, Outgoing};
use viva_actors::voice_lane::VoiceFrame;
use viva_protocol::{ServerEvent, ServerMessage};

use super::close;
use super::unread::{self, Unread};

/// How often the server pings an idle client.
pub const HEARTBEAT_INTERVAL: Duration = Duration::from_secs(15);
/// The longest one write may wait for the client to take it. A client that stops reading
/// fills its socket's buffers and then this; its connection is closed and its slots freed.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a connection closed for the client's own protocol error stays open, unread,
/// after its close frame. The client may still be sending (the rest of an oversized
/// message), and a socket dropped with unread input is reset: the reset can overtake the
/// close frame, and the client then sees a reset instead of the code.
pub const CLOSE_LINGER: Duration = Duration::from_secs(1);

type Sink = SplitSink<WebSocket, Message>;

/// Writes until the connection closes. A write that fails or times out cancels `close`, so
/// the reader stops too. Once `close` is cancelled, what is still queued is flushed and the
/// close frame sent (`farewell`'s, then [`CLOSE_LINGER`], else 1001), all within one
/// [`WRITE_TIMEOUT`].
pub async fn write_loop(
    connection: u64,
    sink: Sink,
    mut outbound: Outbound,
    close: CancellationToken,
    mut farewell: oneshot::Receiver<CloseFrame>,
    (metrics, unread): (Arc<ServerMetrics>, Arc<Unread>),
) {
    let mut writer = Writer {
        connection,
        sink,
        metrics,
        unread,
        last_ping_at: 0,
    };
    let mut heartbeat = tokio::time::interval(HEARTBEAT_INTERVAL);
    loop {
        let frame = tokio::select! {
            next = outbound.recv_any() => match next {
                Some(Outgoing::Event(message)) => writer.encode(&message),
                Some(Outgoing::Voice(VoiceFrame::Event(message))) => writer.encode(&message),
                Some(Outgoing::Voice(VoiceFrame::Audio(audio))) => Message::Binary(audio.into()),
                None => break,
            },
            _ = heartbeat.tick() => writer.ping(),
            _ = close.cancelled() => break,
        };
        if !writer.write(frame).await || !writer.confirm_if_due().await {
            close.cancel();
            return;
        }
    }
    let flush = async {
        while let Ok(message) = outbound.try_recv() {
            let frame = writer.encode(&message);
            if !writer.write(frame).await {
                return;
            }
        }
        // The reader sends its farewell before it cancels `close`; any other closing (shutdown,
        // a full queue) has none.
        let (goodbye, linger) = match farewell.try_recv() {
            Ok(farewell) => (farewell, true),
            Err(_) => (close::going_away(), false),
        };
        // ignore: the peer may already be gone.
        let _ = writer.sink.send(Message::Close(Some(goodbye))).await;
        if linger {
            tokio::time::sleep(CLOSE_LINGER).await;
        }
    };
    // ignore: a client that takes nothing more within the timeout is simply dropped.
    let _ = tokio::time::timeout(WRITE_TIMEOUT, flush).await;
}

struct Writer {
    connection: u64,
    sink: Sink,
    metrics: Arc<ServerMetrics>,
    /// Bytes written, and confirmed read by the client's pongs.
    unread: Arc<Unread>,
    /// The byte count the last ping carried.
    last_ping_at: u64,
}

impl Writer {
    /// A ping carrying the bytes written so far; the client's pong confirms it read them.
    fn ping(&mut self) -> Message {
        self.last_ping_at = self.unread.written();
        Message::Ping(self.unread.ping_payload(self.last_ping_at).into())
    }

    /// Sends a ping when [`unread::CONFIRM_EVERY_BYTES`] went out since the last one; false
    /// when the peer is gone or did not take it in time.
    async fn confirm_if_due(&mut self) -> bool {
        if !unread::ping_due(self.unread.written(), self.last_ping_at) {
            return true;
        }
        let ping = self.ping();
        self.write(ping).await
    }

    /// Sends one frame; false when the peer is gone or did not take it in time.
    async fn write(&mut self, frame: Message) -> bool {
        // Events only: the examiner's audio has its own bound (the voice queue, which
        // cancels an utterance a client falls behind on), and must not make the client's
        // answers wait as unread.
        if let Message::Text(text) = &frame {
            self.unread.wrote(text.len());
        }
        match tokio::time::timeout(WRITE_TIMEOUT, self.sink.send(frame)).await {
            Ok(Ok(())) => true,
            Ok(Err(_)) => false,
            Err(_) => {
                let connection = self.connection;
                tracing::warn!(connection, timeout = ?WRITE_TIMEOUT, "client stopped reading; closing");
                false
            }
        }
    }

    fn encode(&self, message: &ServerMessage) -> Message {
        count_out(&self.metrics, &message.event);
        encode(message)
    }
}

fn count_out(metrics: &ServerMetrics, event: &ServerEvent) {
    metrics.events_out.inc(event.type_name());
    if let ServerEvent::Error(error) = event {
        metrics.errors.inc(error.code.as_str());
    }
}

fn encode(message: &ServerMessage) -> Message {
    match serde_json::to_string(message) {
        Ok(text) => Message::Text(text.into()),
        Err(err) => {
            tracing::error!(%err, "server event did not encode");
            Message::Text(r#"{"type":"error","code":"internal","message":"internal error"}"#.into())
        }
    }
}
