//! One voice session over a development-mode WebSocket: start an exam or an assessment, wait
//! for a question, send a clip (as fast as the socket takes it, or at a microphone's pace),
//! commit it, and wait for its `transcript.final` and the next question. A completed session
//! is replaced by a new one on a fresh connection. `transcript.partial` events are counted.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::time::sleep_until;
use tokio_tungstenite::tungstenite::Message;

use super::wav::RATE;
use crate::ws::{self, STEP_TIMEOUT, Socket, WsError};

/// Samples per frame at a microphone's pace: 100 ms.
pub const LIVE_FRAME: usize = RATE / 10;
/// Samples per frame when sending as fast as possible: 1 s (the server takes up to 64 KiB).
pub const FAST_FRAME: usize = RATE;
/// The most events one wait reads before it gives up (each within [`STEP_TIMEOUT`]).
const MAX_EVENTS: usize = 1_000;

/// What kind of session to start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Mode {
    /// A full-scope Private Pilot exam (75 planned questions).
    Exam,
    /// MATH-FUNDAMENTALS-L1 (20 items) in learning mode with seed 1, so every run hears the
    /// same numbers (an evaluation would draw its own seed).
    Assessment,
}

/// The session each client starts.
#[derive(Debug, Clone, Copy)]
pub struct SessionSpec {
    /// Exam or assessment.
    pub mode: Mode,
    /// `thinking_pause_ms`, or the server's default pause (3 s) when `None`.
    pub thinking_pause_ms: Option<u32>,
    /// Samples per frame at a microphone's pace ([`LIVE_FRAME`] unless the bench says).
    pub live_frame: usize,
}

impl SessionSpec {
    /// The `session.start` frame.
    pub fn start_frame(&self) -> Value {
        let (mode, mut config) = match self.mode {
            Mode::Exam => ("exam", json!({"rating": "private", "input": "voice"})),
            Mode::Assessment => (
                "assessment",
                json!({"assessment_id": "MATH-FUNDAMENTALS-L1", "learning": true, "seed": 1}),
            ),
        };
        if let Some(pause) = self.thinking_pause_ms {
            config["thinking_pause_ms"] = json!(pause);
        }
        json!({"type": "session.start", "device_id": "voice-bench", "mode": mode, "config": config})
    }
}

/// A final transcript and when it arrived.
#[derive(Debug, Clone)]
pub struct Heard {
    /// When it was read off the socket.
    pub at: Instant,
    /// Its text.
    pub text: String,
}

/// One client's session.
pub struct VoiceSession {
    socket: Socket,
    url: String,
    user: String,
    spec: SessionSpec,
    sessions: usize,
    commits: usize,
    /// `transcript.partial` events seen.
    pub partials: usize,
}

impl VoiceSession {
    /// Connects as `user`, starts a session and waits for its first question.
    pub async fn open(url: &str, user: &str, spec: SessionSpec) -> Result<VoiceSession, WsError> {
        let socket = ws::connect(url, user).await?;
        let mut session = VoiceSession {
            socket,
            url: url.to_owned(),
            user: user.to_owned(),
            spec,
            sessions: 1,
            commits: 0,
            partials: 0,
        };
        session.start().await?;
        Ok(session)
    }

    /// A new session on a new connection (after a completion or a failure), as a new user.
    pub async fn reopen(&mut self) -> Result<(), WsError> {
        self.sessions += 1;
        let user = format!("{}-{}", self.user, self.sessions);
        self.socket = ws::connect(&self.url, &user).await?;
        self.start().await
    }

    async fn start(&mut self) -> Result<(), WsError> {
        ws::send(&mut self.socket, self.spec.start_frame()).await?;
        self.wait_question().await
    }

    /// Waits for the next question; a completed session is replaced by a new one.
    pub async fn wait_question(&mut self) -> Result<(), WsError> {
        for _ in 0..MAX_EVENTS {
            let event = self.next_event().await?;
            match event["type"].as_str() {
                Some("question") => return Ok(()),
                Some("session.completed") => return Box::pin(self.reopen()).await,
                _ => {}
            }
        }
        Err(WsError::Timeout)
    }

    /// Sends `samples` in 1 s frames, back to back.
    pub async fn send_fast(&mut self, samples: &[i16]) -> Result<(), WsError> {
        for frame in samples.chunks(FAST_FRAME) {
            self.send_audio(frame).await?;
        }
        Ok(())
    }

    /// Sends `samples` in live frames, each once its audio would have been captured;
    /// returns when the last is sent (the end of the speech).
    pub async fn stream(&mut self, samples: &[i16]) -> Result<Instant, WsError> {
        let start = Instant::now();
        let mut sent = 0;
        for frame in samples.chunks(self.spec.live_frame.max(1)) {
            sent += frame.len();
            sleep_until((start + audio_time(sent)).into()).await;
            self.send_audio(frame).await?;
        }
        Ok(Instant::now())
    }

    /// `audio.commit`; returns when it was sent.
    pub async fn commit(&mut self) -> Result<Instant, WsError> {
        self.commits += 1;
        let commit =
            json!({"type": "audio.commit", "event_id": format!("commit-{}", self.commits)});
        ws::send(&mut self.socket, commit).await?;
        Ok(Instant::now())
    }

    /// The next `transcript.final`.
    pub async fn wait_final(&mut self) -> Result<Heard, WsError> {
        for _ in 0..MAX_EVENTS {
            let event = self.next_event().await?;
            if let Some(heard) = final_of(&event) {
                return Ok(heard);
            }
        }
        Err(WsError::Timeout)
    }

    /// Streams silence at a microphone's pace until a `transcript.final` arrives, for at
    /// most `limit`.
    pub async fn silence_until_final(&mut self, limit: Duration) -> Result<Heard, WsError> {
        let start = Instant::now();
        let frame = self.spec.live_frame.max(1);
        let silence = vec![0_i16; frame];
        let mut sent = 0;
        while start.elapsed() < limit {
            let due = start + audio_time(sent + frame);
            tokio::select! {
                _ = sleep_until(due.into()) => {
                    self.send_audio(&silence).await?;
                    sent += frame;
                }
                event = self.next_event() => {
                    if let Some(heard) = final_of(&event?) {
                        return Ok(heard);
                    }
                }
            }
        }
        Err(WsError::Timeout)
    }

    async fn send_audio(&mut self, samples: &[i16]) -> Result<(), WsError> {
        let frame = Message::Binary(pcm_bytes(samples).into());
        self.socket.send(frame).await?;
        Ok(())
    }

    /// The next event; partials are counted, an `error` event fails.
    async fn next_event(&mut self) -> Result<Value, WsError> {
        for _ in 0..MAX_EVENTS {
            let frame = tokio::time::timeout(STEP_TIMEOUT, self.socket.next())
                .await
                .map_err(|_| WsError::Timeout)?
                .ok_or(WsError::Closed)??;
            let Message::Text(text) = frame else {
                continue;
            };
            let event: Value = serde_json::from_str(&text)?;
            match event["type"].as_str() {
                Some("error") => return Err(WsError::Server(event)),
                Some("transcript.partial") => self.partials += 1,
                _ => {}
            }
            return Ok(event);
        }
        Err(WsError::Timeout)
    }
}

fn final_of(event: &Value) -> Option<Heard> {
    (event["type"] == "transcript.final").then(|| Heard {
        at: Instant::now(),
        text: event["text"].as_str().unwrap_or_default().to_owned(),
    })
}

/// How long `samples` last at 16 kHz.
pub fn audio_time(samples: usize) -> Duration {
    Duration::from_micros(samples as u64 * 1_000_000 / RATE as u64)
}

/// PCM16 little-endian bytes.
pub fn pcm_bytes(samples: &[i16]) -> Vec<u8> {
    samples.iter().flat_map(|s| s.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_become_little_endian_bytes() {
        assert_eq!(pcm_bytes(&[1, -2]), vec![1, 0, 0xfe, 0xff]);
        assert_eq!(audio_time(RATE / 10), Duration::from_millis(100));
    }

    #[test]
    fn start_frames_carry_the_mode_and_pause() {
        let exam = SessionSpec {
            mode: Mode::Exam,
            thinking_pause_ms: Some(30_000),
            live_frame: LIVE_FRAME,
        };
        let frame = exam.start_frame();
        assert_eq!(frame["mode"], "exam");
        assert_eq!(frame["config"]["thinking_pause_ms"], 30_000);
        let assessment = SessionSpec {
            mode: Mode::Assessment,
            thinking_pause_ms: None,
            live_frame: LIVE_FRAME,
        };
        let frame = assessment.start_frame();
        assert_eq!(frame["config"]["assessment_id"], "MATH-FUNDAMENTALS-L1");
        assert!(frame["config"].get("thinking_pause_ms").is_none());
    }
}
