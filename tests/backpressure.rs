//! Backpressure: a client that stops reading is let go within seconds, freeing its slot; a
//! client that sends faster than its replies go out is slowed down, not disconnected; a
//! client that never reads gets `rate_limited` once its unread events pile up, and no more
//! turns are taken (or stored) for it until it reads.

use std::time::Duration;

use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

use crate::harness::{Auth, Client, Server, TIMEOUT, Ws, http_get, metric, start_tutor};

/// The client that never reads keeps its socket's receive buffer at this (the kernel
/// doubles it), so the server's writes stall once its own send buffer (4 MiB at most here)
/// is full.
const UNREAD_BUFFER: u32 = 4096;
/// First, frames of an unknown `type` of 1,000 characters, a few at a time, so that the
/// replies go out as fast as they are asked for until the socket is full...
const PACED_FRAMES: usize = 5_000;
const PACED_CHUNK: usize = 4;
const PACE: Duration = Duration::from_millis(1);
/// ...then two-byte audio frames as fast as the server takes them, each answered by an
/// `error` of about 100 bytes (no session): 10 MB of replies asked for in all.
const FLOOD_FRAMES: usize = 100_000;
const FLOOD_CHUNK: usize = 1_000;
/// Far beyond the server's write timeout: only a connection that is never let go takes this.
const FREED_WITHIN: Duration = Duration::from_secs(60);
/// Pings sent in one write.
const BURST: usize = 2_000;

/// The `viva_connections` gauge.
async fn open_connections(server: &Server) -> f64 {
    let text = http_get(server, "/metrics", None).await.body;
    text.lines()
        .find_map(|line| line.strip_prefix("viva_connections "))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("no viva_connections gauge in {text}"))
}

/// Asks for far more replies than the sockets can hold, never reading them; ends when the
/// server stops reading or closes.
async fn flood(mut sink: SplitSink<Ws, Message>) -> Result<(), WsError> {
    let unknown = json!({"type": "x".repeat(1_000), "event_id": "e".repeat(64)}).to_string();
    for _ in 0..PACED_FRAMES / PACED_CHUNK {
        for _ in 0..PACED_CHUNK {
            sink.feed(Message::text(unknown.clone())).await?;
        }
        sink.flush().await?;
        tokio::time::sleep(PACE).await;
    }
    for _ in 0..FLOOD_FRAMES / FLOOD_CHUNK {
        for _ in 0..FLOOD_CHUNK {
            sink.feed(Message::binary(vec![0u8; 2])).await?;
        }
        sink.flush().await?;
    }
    Ok(())
}

#[tokio::test]
async fn a_client_that_stops_reading_is_let_go() {
    let server = Server::start().await;
    let auth = Auth::bearer("sloth");
    let client = Client::connect_with_receive_buffer(&server, auth, UNREAD_BUFFER).await;
    assert_eq!(open_connections(&server).await, 1.0);
    let (sink, unread) = client.into_inner().split();
    let flood = tokio::spawn(flood(sink));
    let deadline = tokio::time::Instant::now() + FREED_WITHIN;
    while open_connections(&server).await > 0.0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "a client that stopped reading still holds its connection after {FREED_WITHIN:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    flood.abort();
    drop(unread);
    let mut again = Client::connect(&server, Auth::bearer("sloth")).await;
    again.assert_alive().await;
}

/// The type of the next server event, skipping WebSocket pings and pongs; `Err` with what
/// came instead.
async fn next_type<S>(stream: &mut S) -> Result<String, String>
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let next = tokio::time::timeout(TIMEOUT, stream.next())
            .await
            .map_err(|_| format!("nothing within {TIMEOUT:?}"))?;
        match next {
            Some(Ok(Message::Text(text))) => {
                let event: serde_json::Value =
                    serde_json::from_str(&text).map_err(|err| format!("{err}: {text}"))?;
                return Ok(event["type"].as_str().unwrap_or_default().to_owned());
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            other => return Err(format!("{other:?}")),
        }
    }
}

#[tokio::test]
async fn a_burst_of_pings_is_answered_in_full() {
    let server = Server::start().await;
    let client = Client::connect(&server, Auth::bearer("quick")).await;
    let (mut sink, mut stream) = client.into_inner().split();
    let burst = tokio::spawn(async move {
        for _ in 0..BURST {
            sink.feed(Message::text(r#"{"type":"ping"}"#)).await?;
        }
        sink.flush().await?;
        Ok::<_, tokio_tungstenite::tungstenite::Error>(sink)
    });
    for n in 0..BURST {
        let kind = next_type(&mut stream).await;
        assert_eq!(kind.as_deref(), Ok("pong"), "reply {n} of {BURST}");
    }
    let sink = tokio::time::timeout(TIMEOUT, burst)
        .await
        .expect("the burst was written")
        .expect("the burst task ran")
        .expect("the server took the whole burst");
    let mut client = sink.reunite(stream).expect("two halves of one stream");
    client
        .send(Message::text(r#"{"type":"ping"}"#))
        .await
        .expect("the connection is intact");
    assert_eq!(next_type(&mut client).await.as_deref(), Ok("pong"));
}

/// Tutor requests sent by the client that never reads.
const UNREAD_REQUESTS: usize = 3_000;
/// The server's unread limit (128 KiB) holds fewer drill turns (about 560 bytes each, with
/// their acks) than this.
const MOST_TURNS_UNREAD: usize = 300;

/// 3,000 tutor requests sent without reading a reply: once 128 KiB of events are unread,
/// the rest are refused with `rate_limited` and change nothing; once the client reads, its
/// next request is taken as usual.
#[tokio::test]
async fn a_client_that_never_reads_is_refused_once_its_unread_events_pile_up() {
    let server = Server::start().await;
    let mut client = Client::connect(&server, Auth::bearer("deaf")).await;
    start_tutor(&mut client, "ARITHMETIC").await;
    let (mut sink, mut stream) = client.into_inner().split();
    let requests = tokio::spawn(async move {
        for n in 0..UNREAD_REQUESTS {
            let frame = json!({"type": "tutor.request_drill", "event_id": format!("r{n}")});
            sink.feed(Message::text(frame.to_string())).await?;
        }
        sink.flush().await?;
        Ok::<_, WsError>(sink)
    });
    let sink = tokio::time::timeout(TIMEOUT, requests)
        .await
        .expect("the requests were written")
        .expect("the request task ran")
        .expect("the server took every request");
    let (mut acked, mut refused) = (0, 0);
    while acked + refused < UNREAD_REQUESTS {
        let event = next_event(&mut stream).await;
        match (event["type"].as_str(), event["code"].as_str()) {
            (Some("ack"), _) => acked += 1,
            (Some("error"), Some("rate_limited")) => refused += 1,
            (Some("tutor.turn"), _) => {}
            other => panic!("unexpected {other:?}: {event}"),
        }
    }
    assert!(
        acked > 0 && acked <= MOST_TURNS_UNREAD,
        "{acked} taken unread"
    );
    let text = http_get(&server, "/metrics", None).await.body;
    assert_eq!(metric(&text, "viva_unread_refusals_total"), refused as f64);
    let mut client = sink.reunite(stream).expect("two halves of one stream");
    let frame = json!({"type": "tutor.request_drill", "event_id": "after"});
    client
        .send(Message::text(frame.to_string()))
        .await
        .expect("the connection is intact");
    let ack = next_event(&mut client).await;
    assert_eq!(
        (ack["type"].as_str(), ack["event_id"].as_str()),
        (Some("ack"), Some("after")),
        "{ack}"
    );
}

/// The next server event as JSON, skipping WebSocket pings and pongs.
async fn next_event<S>(stream: &mut S) -> serde_json::Value
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let next = tokio::time::timeout(TIMEOUT, stream.next()).await;
        match next.expect("an event within the timeout") {
            Some(Ok(Message::Text(text))) => {
                return serde_json::from_str(&text).expect("a JSON event");
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            other => panic!("{other:?}"),
        }
    }
}
