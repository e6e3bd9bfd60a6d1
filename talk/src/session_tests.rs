//! Tests of the session loop against a scripted in-process WebSocket server.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

use super::super::connect::{Credentials, connect};
use super::super::pcm::silent_frame;
use super::super::script::{self, Answer, TurnEnd};
use super::*;

/// No test may take longer than this.
const TEST_LIMIT: Duration = Duration::from_secs(20);

/// What the fake server saw: client text events and the audio bytes received.
#[derive(Debug, Default)]
struct Seen {
    events: Vec<Value>,
    audio_bytes: usize,
}

/// A one-connection server: `reply` answers each client text event with server events; the
/// first binary frame is answered with `on_audio`.
async fn fake_server(
    reply: fn(&Value) -> Vec<Value>,
    on_audio: Vec<Value>,
) -> (String, tokio::task::JoinHandle<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}", listener.local_addr().unwrap());
    let server = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
        let mut seen = Seen::default();
        let mut on_audio = Some(on_audio);
        while let Some(Ok(frame)) = ws.next().await {
            let replies = match frame {
                Message::Text(text) => {
                    let event: Value = serde_json::from_str(&text).unwrap();
                    seen.events.push(event.clone());
                    reply(&event)
                }
                Message::Binary(bytes) => {
                    assert!(bytes.len() <= viva_protocol::MAX_AUDIO_FRAME_BYTES);
                    assert_eq!(bytes.len() % 2, 0);
                    seen.audio_bytes += bytes.len();
                    on_audio.take().unwrap_or_default()
                }
                _ => Vec::new(),
            };
            for event in replies {
                if event == close_marker() {
                    // ignore: the test checks how the client takes the close.
                    let _ = ws.close(None).await;
                    return seen;
                }
                if ws.send(Message::text(event.to_string())).await.is_err() {
                    return seen;
                }
            }
        }
        seen
    });
    (url, server)
}

/// In a reply list: close the connection here.
fn close_marker() -> Value {
    json!({"close": true})
}

fn started() -> Value {
    let plan = json!({"planned_questions": 2, "queue_length": 2, "bonus_max": 0,
                      "follow_up_max_per_element": 0});
    json!({"type": "session.started", "seq": 1, "session_id": "s1", "mode": "exam", "plan": plan})
}

fn question(number: u32) -> Value {
    json!({"type": "question", "question_id": format!("q{number}"), "number": number,
           "text": "Explain."})
}

fn completed() -> Value {
    let result = json!({"mode": "exam", "outcome": "satisfactory", "trigger": "user_ended",
        "planned_questions": 2, "asked": 1, "credited_by_mention": 0, "bonus_used": 0,
        "areas": [], "elements": []});
    json!({"type": "session.completed", "session_id": "s1", "result": result})
}

/// Starts, asks, and answers every `audio.commit` with a transcript and an assessment.
fn examiner(event: &Value) -> Vec<Value> {
    match event["type"].as_str() {
        Some("session.start") => vec![started(), question(1)],
        Some("audio.commit") => vec![
            json!({"type": "transcript.final", "text": "ninety days"}),
            json!({"type": "assessment", "question_id": "q1", "score": "satisfactory",
                   "feedback": "Good."}),
            question(2),
        ],
        Some("session.end") => vec![completed()],
        _ => Vec::new(),
    }
}

fn setup(feed: mpsc::Receiver<Feed>, cues: Option<mpsc::Sender<Cue>>) -> Setup {
    let start = json!({"type": "session.start", "device_id": "t", "mode": "exam",
                       "config": {"rating": "private", "input": "voice"}});
    Setup {
        opening: serde_json::from_value::<ClientMessage>(start)
            .unwrap()
            .event,
        feed,
        cues,
        lines: None,
        speaker: Speaker::new(false).0,
        player: None,
        push_to_talk: true,
        mic_dropped: None,
    }
}

async fn talk_to(url: &str, setup: Setup) -> anyhow::Result<()> {
    let socket = connect(url, &Credentials::DevUser("tester".into())).await?;
    tokio::time::timeout(TEST_LIMIT, run(socket, setup)).await?
}

#[tokio::test]
async fn a_wav_answer_is_streamed_committed_and_the_session_ends_cleanly() {
    let (url, server) = fake_server(examiner, Vec::new()).await;
    let (feed_sender, feed) = mpsc::channel(8);
    let (cue_sender, cues) = mpsc::channel(8);
    let setup = setup(feed, Some(cue_sender));
    let answer = Answer {
        name: "a.wav".into(),
        samples: vec![1000; 8_000],
    };
    let quiet = setup.speaker.watch();
    let play = script::play(vec![answer], cues, feed_sender, quiet, TurnEnd::Commit);
    tokio::spawn(play);
    talk_to(&url, setup).await.unwrap();
    let seen = server.await.unwrap();
    assert_eq!(seen.events[0]["type"], "session.start");
    assert_eq!(seen.events[0]["event_id"], START_ID);
    assert!(
        seen.events.iter().any(|e| e["type"] == "audio.commit"),
        "{seen:?}"
    );
    assert!(seen.audio_bytes >= 16_000, "{seen:?}");
}

#[tokio::test]
async fn end_typed_on_the_keyboard_completes_the_session() {
    let (url, server) = fake_server(examiner, Vec::new()).await;
    let (_feed_sender, feed) = mpsc::channel(8);
    let (typed, lines) = mpsc::channel(8);
    let mut setup = setup(feed, None);
    setup.lines = Some(lines);
    let talking = tokio::spawn(talk_to_owned(url, setup));
    typed.send("/end".to_owned()).await.unwrap();
    talking.await.unwrap().unwrap();
    let seen = server.await.unwrap();
    assert!(
        seen.events.iter().any(|e| e["type"] == "session.end"),
        "{seen:?}"
    );
}

async fn talk_to_owned(url: String, setup: Setup) -> anyhow::Result<()> {
    talk_to(&url, setup).await
}

#[tokio::test]
async fn voice_unavailable_ends_the_session_with_an_error() {
    let refusal = json!({"type": "error", "code": "voice_unavailable", "message": "text only"});
    let (url, _server) = fake_server(examiner, vec![refusal]).await;
    let (feed_sender, feed) = mpsc::channel(8);
    let talking = tokio::spawn(talk_to_owned(url, setup(feed, None)));
    for _ in 0..100 {
        if feed_sender.send(Feed::Audio(silent_frame())).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    let err = talking.await.unwrap().unwrap_err();
    assert!(err.to_string().contains("voice_unavailable"), "{err}");
}

#[tokio::test]
async fn a_refused_start_fails_at_once() {
    fn refuse(_: &Value) -> Vec<Value> {
        vec![
            json!({"type": "error", "code": "invalid_config", "message": "no such exam",
                    "event_id": START_ID}),
        ]
    }
    let (url, _server) = fake_server(refuse, Vec::new()).await;
    let (_feed_sender, feed) = mpsc::channel(8);
    let err = talk_to(&url, setup(feed, None)).await.unwrap_err();
    assert!(err.to_string().contains("did not start"), "{err}");
}

#[tokio::test]
async fn the_server_closing_mid_session_is_an_error() {
    fn start_then_leave(_: &Value) -> Vec<Value> {
        vec![started(), close_marker()]
    }
    let (url, _server) = fake_server(start_then_leave, Vec::new()).await;
    let (_feed_sender, feed) = mpsc::channel(8);
    let err = talk_to(&url, setup(feed, None)).await.unwrap_err();
    assert!(err.to_string().contains("closed the connection"), "{err}");
}
