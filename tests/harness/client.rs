//! A WebSocket client of `/v1/ws` that checks every server frame against viva-protocol.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::{self, HeaderValue, Request, header::AUTHORIZATION};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use viva_protocol::ServerMessage;

use super::TIMEOUT;
use super::server::Server;
use super::token::token;

/// A server frame: an event, or binary audio.
#[derive(Debug, Clone)]
pub enum Frame {
    /// A JSON event.
    Event(Value),
    /// PCM16LE audio bytes.
    Audio(Vec<u8>),
}

/// A raw client WebSocket stream.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How a connection authenticates.
pub enum Auth {
    /// `Authorization: Bearer TOKEN`.
    Bearer(String),
    /// `?access_token=TOKEN`.
    Query(String),
    /// `?user=ID` (dev mode only).
    DevUser(String),
    /// No credentials at all.
    Nothing,
}

impl Auth {
    /// A bearer header with a fresh valid token for `user`.
    pub fn bearer(user: &str) -> Auth {
        Auth::Bearer(token(user))
    }
}

fn request(server: &Server, auth: &Auth) -> Request<()> {
    let base = server.ws_url();
    let url = match auth {
        Auth::Query(token) => format!("{base}?access_token={token}"),
        Auth::DevUser(user) => format!("{base}?user={user}"),
        Auth::Bearer(_) | Auth::Nothing => base,
    };
    let mut request = url.into_client_request().expect("a valid ws URL");
    if let Auth::Bearer(token) = auth {
        let value = HeaderValue::from_str(&format!("Bearer {token}")).expect("header value");
        request.headers_mut().insert(AUTHORIZATION, value);
    }
    request
}

async fn try_connect(server: &Server, auth: &Auth) -> Result<Ws, WsError> {
    try_connect_with(server, auth, &[]).await
}

async fn try_connect_with(
    server: &Server,
    auth: &Auth,
    headers: &[(&str, &str)],
) -> Result<Ws, WsError> {
    let mut request = request(server, auth);
    for (name, value) in headers {
        let value = HeaderValue::from_str(value).expect("header value");
        let name = http::HeaderName::from_bytes(name.as_bytes()).expect("header name");
        request.headers_mut().insert(name, value);
    }
    let connect = tokio_tungstenite::connect_async(request);
    let (ws, _response) = tokio::time::timeout(TIMEOUT, connect)
        .await
        .unwrap_or_else(|_| panic!("no WebSocket handshake within {TIMEOUT:?}"))?;
    Ok(ws)
}

/// The HTTP status of a handshake the server must refuse; panics if it upgrades.
pub async fn refused_status(server: &Server, auth: Auth) -> u16 {
    match connect_or_refusal(server, auth).await {
        Err(refusal) => refusal.status,
        Ok(_) => panic!("the server upgraded a connection it should have refused"),
    }
}

/// A handshake the server refused: its HTTP status and body.
#[derive(Debug)]
pub struct Refusal {
    /// The status code.
    pub status: u16,
    /// The body, as text.
    pub body: String,
    /// Every header, names in lower case.
    pub headers: Vec<(String, String)>,
}

impl Refusal {
    /// The problem body's `code` (RFC 9457, `crate::problem` in the server).
    pub fn code(&self) -> String {
        let body: Value = serde_json::from_str(&self.body)
            .unwrap_or_else(|err| panic!("refusal body is not JSON ({err}): {:?}", self.body));
        field_str(&body, "code").to_owned()
    }

    /// The first header named `name` (lower case), if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        let found = self.headers.iter().find(|(seen, _)| seen == name);
        found.map(|(_, value)| value.as_str())
    }
}

/// Connects, or returns the server's HTTP refusal; panics on any other failure.
pub async fn connect_or_refusal(server: &Server, auth: Auth) -> Result<Client, Refusal> {
    connect_with_headers(server, auth, &[]).await
}

/// Like [`connect_or_refusal`], with these headers (such as `Origin` or `Host`) on the
/// upgrade request.
pub async fn connect_with_headers(
    server: &Server,
    auth: Auth,
    headers: &[(&str, &str)],
) -> Result<Client, Refusal> {
    match try_connect_with(server, &auth, headers).await {
        Ok(ws) => Ok(Client::new(ws, "client")),
        Err(WsError::Http(response)) => {
            let status = response.status().as_u16();
            let headers = response
                .headers()
                .iter()
                .map(|(name, value)| {
                    let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
                    (name.as_str().to_owned(), value)
                })
                .collect();
            let body = (*response).into_body().unwrap_or_default();
            let body = String::from_utf8_lossy(&body).into_owned();
            Err(Refusal {
                status,
                body,
                headers,
            })
        }
        Err(other) => panic!("expected an upgrade or an HTTP refusal, got {other}"),
    }
}

/// One WebSocket connection to the server.
pub struct Client {
    ws: Ws,
    name: String,
    /// How long the client waits for the next event before the test fails.
    wait: std::time::Duration,
}

impl Client {
    /// Connects and upgrades; panics if the server refuses.
    pub async fn connect(server: &Server, auth: Auth) -> Client {
        let name = match &auth {
            Auth::Bearer(_) => "bearer client",
            Auth::Query(_) => "query-token client",
            Auth::DevUser(_) => "dev-user client",
            Auth::Nothing => "anonymous client",
        };
        let ws = try_connect(server, &auth)
            .await
            .unwrap_or_else(|err| panic!("{name}: handshake failed: {err}"));
        Client::new(ws, name)
    }

    fn new(ws: Ws, name: &str) -> Client {
        Client {
            ws,
            name: name.to_owned(),
            wait: TIMEOUT,
        }
    }

    /// Waits up to `wait` for each event instead of the harness's usual limit (for a server
    /// whose steps call a real model on a machine that may be busy).
    #[allow(dead_code)] // only tests/real_model.rs waits longer
    pub fn waiting(mut self, wait: std::time::Duration) -> Client {
        self.wait = wait;
        self
    }

    /// Connects with a socket receive buffer fixed at `bytes`. Linux grows an unread
    /// socket's buffer up to `tcp_rmem`'s maximum (32 MiB here) unless it is set: a fixed
    /// one makes a client that stops reading stall the server's writes after a few MB.
    pub async fn connect_with_receive_buffer(server: &Server, auth: Auth, bytes: u32) -> Client {
        let handshake = async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.set_recv_buffer_size(bytes)?;
            let stream = socket.connect(server.addr()).await?;
            let stream = MaybeTlsStream::Plain(stream);
            let (ws, _) = tokio_tungstenite::client_async(request(server, &auth), stream)
                .await
                .map_err(std::io::Error::other)?;
            Ok::<_, std::io::Error>(ws)
        };
        let ws = tokio::time::timeout(TIMEOUT, handshake)
            .await
            .unwrap_or_else(|_| panic!("no WebSocket handshake within {TIMEOUT:?}"))
            .unwrap_or_else(|err| panic!("small-buffer client: handshake failed: {err}"));
        Client::new(ws, "small-buffer client")
    }

    /// Names this client in panic messages (e.g. "device A").
    pub fn named(mut self, name: &str) -> Client {
        self.name = name.to_owned();
        self
    }

    async fn send(&mut self, message: Message) {
        tokio::time::timeout(TIMEOUT, self.ws.send(message))
            .await
            .unwrap_or_else(|_| panic!("{}: send blocked for {TIMEOUT:?}", self.name))
            .unwrap_or_else(|err| panic!("{}: send failed: {err}", self.name));
    }

    /// Sends a JSON value as a text frame.
    pub async fn send_json(&mut self, value: Value) {
        self.send(Message::text(value.to_string())).await;
    }

    /// Sends raw text as a text frame.
    pub async fn send_text(&mut self, text: String) {
        self.send(Message::text(text)).await;
    }

    /// Sends a binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) {
        self.send(Message::binary(bytes)).await;
    }

    /// Sends any frame (a raw one too), returning the error of a server that has already
    /// closed instead of panicking.
    pub async fn try_send(&mut self, message: Message) -> Result<(), WsError> {
        tokio::time::timeout(TIMEOUT, self.ws.send(message))
            .await
            .unwrap_or_else(|_| panic!("{}: send blocked for {TIMEOUT:?}", self.name))
    }

    /// The next server event, skipping WebSocket ping/pong frames.
    pub async fn next_event(&mut self) -> Value {
        loop {
            let next = tokio::time::timeout(self.wait, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no event within {:?}", self.name, self.wait));
            match next {
                Some(Ok(Message::Text(text))) => return decode_frame(&self.name, &text),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(other)) => panic!("{}: expected a text frame, got {other:?}", self.name),
                Some(Err(err)) => panic!("{}: connection failed: {err}", self.name),
                None => panic!(
                    "{}: connection closed while waiting for an event",
                    self.name
                ),
            }
        }
    }

    /// The next server frame, an event or a binary frame (the examiner's audio), skipping
    /// WebSocket ping/pong frames.
    pub async fn next_frame(&mut self) -> Frame {
        loop {
            let next = tokio::time::timeout(self.wait, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: no frame within {:?}", self.name, self.wait));
            match next {
                Some(Ok(Message::Text(text))) => {
                    return Frame::Event(decode_frame(&self.name, &text));
                }
                Some(Ok(Message::Binary(bytes))) => return Frame::Audio(bytes.to_vec()),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(other)) => panic!("{}: unexpected frame {other:?}", self.name),
                Some(Err(err)) => panic!("{}: connection failed: {err}", self.name),
                None => panic!("{}: connection closed while waiting", self.name),
            }
        }
    }

    /// The next event, which must be of type `kind`.
    pub async fn expect(&mut self, kind: &str) -> Value {
        let event = self.next_event().await;
        assert_eq!(
            event["type"], kind,
            "{}: expected {kind}, got {event}",
            self.name
        );
        event
    }

    /// Reads events until `done` holds for all of them; panics on an unexpected `error`.
    pub async fn collect_until(&mut self, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let mut events = Vec::new();
        while !done(&events) {
            let event = self.next_event().await;
            if event["type"] == "error" {
                panic!("{}: unexpected {event} after {events:?}", self.name);
            }
            events.push(event);
        }
        events
    }

    /// The next event must be an `error` with this code and `event_id` (or none).
    pub async fn expect_error(&mut self, code: &str, event_id: Option<&str>) -> Value {
        let event = self.expect("error").await;
        assert_eq!(
            event["code"], code,
            "{}: wrong error code in {event}",
            self.name
        );
        assert_eq!(
            event["event_id"].as_str(),
            event_id,
            "{}: wrong event_id in {event}",
            self.name
        );
        assert!(
            !field_str(&event, "message").is_empty(),
            "error without a message: {event}"
        );
        event
    }

    /// Proves the connection is open and in step: `ping` gets `pong` as the next event.
    pub async fn assert_alive(&mut self) {
        self.send_json(json!({"type": "ping"})).await;
        self.expect("pong").await;
    }

    /// The code of the server's close frame, which must come before any further event.
    pub async fn expect_close_code(&mut self) -> u16 {
        loop {
            let next = tokio::time::timeout(TIMEOUT, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: still open after {TIMEOUT:?}", self.name));
            match next {
                Some(Ok(Message::Close(Some(frame)))) => return frame.code.into(),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                other => panic!("{}: expected a close frame, got {other:?}", self.name),
            }
        }
    }

    /// The raw stream, for a test that reads and writes in its own way (or never reads).
    pub fn into_inner(self) -> Ws {
        self.ws
    }

    /// Waits for the server to close the connection; no further event may arrive first.
    pub async fn expect_closed(&mut self) {
        loop {
            let next = tokio::time::timeout(TIMEOUT, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("{}: still open after {TIMEOUT:?}", self.name));
            match next {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(other)) => panic!("{}: expected the close, got {other:?}", self.name),
            }
        }
    }
}

fn decode_frame(name: &str, text: &str) -> Value {
    let value: Value = serde_json::from_str(text)
        .unwrap_or_else(|err| panic!("{name}: server frame is not JSON ({err}): {text}"));
    if let Err(err) = serde_json::from_value::<ServerMessage>(value.clone()) {
        panic!("{name}: server frame does not follow viva-protocol ({err}): {text}");
    }
    value
}

/// `event[key]` as a string; panics showing the event if it is missing.
pub fn field_str<'a>(event: &'a Value, key: &str) -> &'a str {
    event[key]
        .as_str()
        .unwrap_or_else(|| panic!("no string {key:?} in {event}"))
}

/// `event[key]` as an integer; panics showing the event if it is missing.
pub fn field_u64(event: &Value, key: &str) -> u64 {
    event[key]
        .as_u64()
        .unwrap_or_else(|| panic!("no integer {key:?} in {event}"))
}

/// How many events have type `kind`.
pub fn count(events: &[Value], kind: &str) -> usize {
    events.iter().filter(|event| event["type"] == kind).count()
}

/// Position of the first event of type `kind`.
pub fn index_of(events: &[Value], kind: &str) -> usize {
    events
        .iter()
        .position(|event| event["type"] == kind)
        .unwrap_or_else(|| panic!("no {kind} among {events:?}"))
}

/// The first event of type `kind`.
pub fn find<'a>(events: &'a [Value], kind: &str) -> &'a Value {
    &events[index_of(events, kind)]
}
