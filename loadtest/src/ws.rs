//! A minimal development-mode client: one WebSocket per user, JSON text frames, and a wait
//! for the next event of given types that fails on an `error` event.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::{self, Message};

/// A client connection.
pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Read buffer of each client socket (frames larger than this still arrive whole).
const CLIENT_READ_BUFFER: usize = 8 * 1024;

/// Hard limit on any single wait, so a stuck server cannot hang a run.
pub const STEP_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a client step failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WsError {
    /// The WebSocket handshake failed.
    #[error("connecting to {url}: {source}")]
    Connect {
        /// The URL dialled.
        url: String,
        /// What went wrong.
        source: Box<tungstenite::Error>,
    },
    /// Sending or receiving a frame failed.
    #[error("{0}")]
    Socket(Box<tungstenite::Error>),
    /// No awaited event within [`STEP_TIMEOUT`].
    #[error("timed out")]
    Timeout,
    /// The server closed the connection.
    #[error("connection closed")]
    Closed,
    /// The server answered with an `error` event.
    #[error("server error: {0}")]
    Server(Value),
    /// A text frame was not JSON.
    #[error("bad frame: {0}")]
    Json(#[from] serde_json::Error),
    /// Anything else a client step can fail on (an HTTP read, a bad reply).
    #[error("{0}")]
    Other(String),
}

impl From<tungstenite::Error> for WsError {
    fn from(err: tungstenite::Error) -> Self {
        WsError::Socket(Box::new(err))
    }
}

/// Connects to `{base}/v1/ws?user={user}` (development mode, no token), with Nagle off.
pub async fn connect(base: &str, user: &str) -> Result<Socket, WsError> {
    connect_url(&format!("{base}/v1/ws?user={user}")).await
}

/// Connects to a full WebSocket URL, with Nagle off, within [`STEP_TIMEOUT`].
pub async fn connect_url(url: &str) -> Result<Socket, WsError> {
    let url = url.to_owned();
    // Small read buffers: one load tester holds tens of thousands of sockets, each of which
    // would otherwise reserve 128 KiB up front.
    let config =
        tungstenite::protocol::WebSocketConfig::default().read_buffer_size(CLIENT_READ_BUFFER);
    let handshake = tokio_tungstenite::connect_async_with_config(&url, Some(config), true);
    let outcome = tokio::time::timeout(STEP_TIMEOUT, handshake)
        .await
        .map_err(|_| WsError::Timeout)?;
    match outcome {
        Ok((socket, _)) => Ok(socket),
        Err(source) => Err(WsError::Connect {
            url,
            source: Box::new(source),
        }),
    }
}

/// Sends one JSON event.
pub async fn send(socket: &mut Socket, value: Value) -> Result<(), WsError> {
    socket.send(Message::Text(value.to_string().into())).await?;
    Ok(())
}

/// The next event of one of `types` within [`STEP_TIMEOUT`] in all; other events (and the
/// server's heartbeat pings) are skipped, an `error` event fails.
pub async fn wait_for(socket: &mut Socket, types: &[&str]) -> Result<Value, WsError> {
    let deadline = tokio::time::Instant::now() + STEP_TIMEOUT;
    loop {
        let frame = tokio::time::timeout_at(deadline, socket.next())
            .await
            .map_err(|_| WsError::Timeout)?;
        let Some(frame) = frame else {
            return Err(WsError::Closed);
        };
        let Message::Text(text) = frame? else {
            continue;
        };
        let event: Value = serde_json::from_str(&text)?;
        let kind = event["type"].as_str().unwrap_or_default();
        if kind == "error" {
            return Err(WsError::Server(event));
        }
        if types.contains(&kind) {
            return Ok(event);
        }
    }
}
