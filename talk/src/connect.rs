//! The WebSocket: the server URL, credentials (a bearer token, or `?user=` in the server's
//! development mode), a bounded handshake, and the writer task that owns the sending half.

use std::time::Duration;

use anyhow::{Context, bail};
use futures_util::SinkExt;
use futures_util::stream::SplitSink;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::{
    HeaderValue, Request, StatusCode, header::AUTHORIZATION,
};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The open connection.
pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long the TCP connect and WebSocket handshake may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// A send the socket has not taken within this is a dead connection.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// The endpoint's path, added when the URL names only the server.
const ENDPOINT: &str = "/v1/ws";

/// Who the client is to the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credentials {
    /// `Authorization: Bearer TOKEN`.
    Token(String),
    /// `?user=ID`: accepted only by a server in development mode.
    DevUser(String),
}

/// Connects and upgrades, within [`CONNECT_TIMEOUT`].
pub async fn connect(server: &str, credentials: &Credentials) -> anyhow::Result<Socket> {
    let request = request(server, credentials)?;
    let handshake = tokio_tungstenite::connect_async(request);
    let (socket, _response) = tokio::time::timeout(CONNECT_TIMEOUT, handshake)
        .await
        .with_context(|| format!("no answer from {server} within {CONNECT_TIMEOUT:?}"))?
        .map_err(|err| anyhow::anyhow!("cannot connect to {server}: {}", refusal(&err)))?;
    Ok(socket)
}

/// Why the handshake failed, in one line, with a hint when the credentials were refused.
fn refusal(err: &WsError) -> String {
    match err {
        WsError::Http(response) if response.status() == StatusCode::UNAUTHORIZED => {
            "the server refused the credentials (401); check --token, or use --user with a \
             server in development mode"
                .to_owned()
        }
        WsError::Http(response) => format!("the server answered HTTP {}", response.status()),
        WsError::Io(io) => io.to_string(),
        other => other.to_string(),
    }
}

/// Sends what the queue holds until it closes, then closes the socket; stops at the first
/// send that fails or stalls past [`SEND_TIMEOUT`].
pub async fn write_loop(mut sink: SplitSink<Socket, Message>, mut queue: mpsc::Receiver<Message>) {
    while let Some(message) = queue.recv().await {
        match tokio::time::timeout(SEND_TIMEOUT, sink.send(message)).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) | Err(_) => return,
        }
    }
    // ignore: the server may already be gone.
    let _ = tokio::time::timeout(SEND_TIMEOUT, sink.close()).await;
}

fn request(server: &str, credentials: &Credentials) -> anyhow::Result<Request<()>> {
    let mut url = endpoint_url(server)?;
    if let Credentials::DevUser(user) = credentials {
        let separator = if url.contains('?') { '&' } else { '?' };
        url = format!("{url}{separator}user={}", percent_encode(user));
    }
    let mut request = url
        .as_str()
        .into_client_request()
        .with_context(|| format!("{server} is not a WebSocket URL"))?;
    if let Credentials::Token(token) = credentials {
        let value = HeaderValue::from_str(&format!("Bearer {token}"))
            .context("the token has characters a header cannot carry")?;
        request.headers_mut().insert(AUTHORIZATION, value);
    }
    Ok(request)
}

/// `ws://` or `wss://` (an `http(s)://` URL is accepted too), with `/v1/ws` when the URL has
/// no path.
fn endpoint_url(server: &str) -> anyhow::Result<String> {
    let server = server.trim();
    let (scheme, rest) = match server.split_once("://") {
        Some(("ws" | "http", rest)) => ("ws", rest),
        Some(("wss" | "https", rest)) => ("wss", rest),
        Some((other, _)) => bail!("{server}: the scheme must be ws:// or wss://, not {other}://"),
        None => ("ws", server),
    };
    let (authority, path) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    if authority.is_empty() {
        bail!("{server}: no host in the server URL");
    }
    let path = if path.is_empty() || path == "/" {
        ENDPOINT
    } else {
        path
    };
    Ok(format!("{scheme}://{authority}{path}"))
}

/// Query-string encoding of a user id: unreserved characters stay, the rest are `%XX`.
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|byte| match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(byte).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_urls_get_the_endpoint_when_they_lack_a_path() {
        let check = |server, expected: &str| {
            assert_eq!(endpoint_url(server).unwrap(), expected, "{server}");
        };
        check("ws://127.0.0.1:8080/v1/ws", "ws://127.0.0.1:8080/v1/ws");
        check("ws://127.0.0.1:8080", "ws://127.0.0.1:8080/v1/ws");
        check("ws://127.0.0.1:8080/", "ws://127.0.0.1:8080/v1/ws");
        check("127.0.0.1:9000", "ws://127.0.0.1:9000/v1/ws");
        check("https://viva.example/v1/ws", "wss://viva.example/v1/ws");
        check("wss://proxy.example/viva/", "wss://proxy.example/viva/");
        assert!(endpoint_url("ftp://x").is_err());
        assert!(endpoint_url("ws://").is_err());
    }

    #[test]
    fn a_dev_user_goes_in_the_query_and_a_token_in_a_header() {
        let dev = request("ws://h:1", &Credentials::DevUser("ann lee".into())).unwrap();
        assert_eq!(dev.uri().to_string(), "ws://h:1/v1/ws?user=ann%20lee");
        assert!(dev.headers().get(AUTHORIZATION).is_none());
        let token = request("ws://h:1/v1/ws", &Credentials::Token("abc".into())).unwrap();
        assert_eq!(token.uri().to_string(), "ws://h:1/v1/ws");
        assert_eq!(token.headers()[AUTHORIZATION], "Bearer abc");
    }

    #[test]
    fn user_ids_are_percent_encoded() {
        assert_eq!(percent_encode("a-b_c.d~9"), "a-b_c.d~9");
        assert_eq!(percent_encode("x&y=z"), "x%26y%3Dz");
        assert_eq!(percent_encode("é"), "%C3%A9");
    }
}
