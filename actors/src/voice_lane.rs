//! The examiner's voice on one connection: a bounded queue of its own beside the events, and
//! the one utterance open on it. A synthesis thread sends through an [`UtteranceSink`]; the
//! session cancels from its actor. Both go through one lock, so an utterance's frames never
//! follow its end event, and a cancelled utterance's thread is refused from then on.
//!
//! Synthesis runs far ahead of playback, so an utterance stays open until its audio has had
//! time to play (from its first frame): a candidate who speaks over it before then cancels
//! it (barge-in), and the client stops playing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use viva_core::voice::synth::{VoiceChunk, VoiceSink};
use viva_protocol::voice::{VoiceEndStatus, VoiceEnded, VoiceMark, VoiceStarted};
use viva_protocol::{ServerEvent, ServerMessage};

/// Capacity of a connection's voice queue (events and audio frames of at most 64 KiB): about
/// a minute of audio ahead. Frames that would leave no room for the end event cancel the
/// utterance instead: the client is that far behind, and its text has gone out anyway.
pub const VOICE_QUEUE: usize = 64;

/// What the voice queue carries, in order.
#[derive(Debug)]
pub enum VoiceFrame {
    /// An `examiner.voice.*` event.
    Event(Box<ServerMessage>),
    /// PCM16LE mono audio.
    Audio(Vec<u8>),
}

/// One connection's voice: cloned with its `DeviceLink`.
#[derive(Debug, Clone)]
pub struct VoiceLane {
    inner: Arc<Mutex<Lane>>,
}

#[derive(Debug)]
struct Lane {
    sender: mpsc::Sender<VoiceFrame>,
    open: Option<Open>,
    count: u64,
}

#[derive(Debug)]
struct Open {
    utterance: u64,
    abort: Arc<AtomicBool>,
    /// The audio's rate, once started.
    rate: u32,
    /// When its first frame was queued.
    first_audio: Option<Instant>,
    /// Samples queued.
    samples: u64,
}

impl Open {
    /// How long until its audio has played, once all of it is queued.
    fn playing_for(&self) -> Duration {
        let Some(first) = self.first_audio else {
            return Duration::ZERO;
        };
        let ms = viva_core::voice::synth::samples_to_ms(self.samples, self.rate);
        (first + Duration::from_millis(ms)).saturating_duration_since(Instant::now())
    }
}

/// What an utterance says about itself in its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Utterance {
    /// The question spoken, if one.
    pub question_id: Option<String>,
    /// The text.
    pub text: String,
}

impl VoiceLane {
    /// A lane and the receiving end the connection's writer drains.
    pub fn new() -> (VoiceLane, mpsc::Receiver<VoiceFrame>) {
        let (sender, receiver) = mpsc::channel(VOICE_QUEUE);
        let lane = Lane {
            sender,
            open: None,
            count: 0,
        };
        let inner = Arc::new(Mutex::new(lane));
        (VoiceLane { inner }, receiver)
    }

    /// Opens an utterance, cancelling the one open; returns its sink and abort flag (the
    /// flag stops its synthesis; the sink refuses once it is cancelled).
    pub fn begin(&self, utterance: Utterance) -> Option<(UtteranceSink, Arc<AtomicBool>)> {
        let mut lane = self.inner.lock().ok()?;
        lane.cancel();
        lane.count += 1;
        let abort = Arc::new(AtomicBool::new(false));
        let number = lane.count;
        lane.open = Some(Open {
            utterance: number,
            abort: abort.clone(),
            rate: 1,
            first_audio: None,
            samples: 0,
        });
        let sink = UtteranceSink {
            lane: self.inner.clone(),
            number,
            utterance,
            runtime: tokio::runtime::Handle::try_current().ok(),
        };
        Some((sink, abort))
    }

    /// Cancels the open utterance, if one: its end event (`cancelled`) is queued now and
    /// its synthesis stopped. Returns whether one was open.
    pub fn cancel(&self) -> bool {
        self.inner.lock().is_ok_and(|mut lane| lane.cancel())
    }
}

impl Lane {
    fn cancel(&mut self) -> bool {
        let Some(open) = self.open.take() else {
            return false;
        };
        open.abort.store(true, Ordering::Relaxed);
        self.end(open.utterance, VoiceEndStatus::Cancelled);
        true
    }

    /// Queues the end event; there is always room, as nothing else may take the last slot.
    fn end(&mut self, utterance: u64, status: VoiceEndStatus) {
        let ended = ServerEvent::VoiceEnded(VoiceEnded {
            utterance_id: utterance_id(utterance),
            status,
        });
        // ignore: only a gone connection has no room for it.
        let _ = self
            .sender
            .try_send(VoiceFrame::Event(Box::new(ServerMessage::unsequenced(
                ended,
            ))));
    }

    /// Queues a frame while it leaves room for the end event.
    fn push(&mut self, frame: VoiceFrame) -> bool {
        let bytes = match &frame {
            VoiceFrame::Audio(bytes) => bytes.len() as u64,
            VoiceFrame::Event(_) => 0,
        };
        if self.sender.capacity() <= 1 || self.sender.try_send(frame).is_err() {
            return false;
        }
        if let Some(open) = &mut self.open
            && bytes > 0
        {
            open.first_audio.get_or_insert_with(Instant::now);
            open.samples += bytes / 2;
        }
        true
    }

    /// Ends `utterance` as completed, if it is still the one open.
    fn finish(&mut self, utterance: u64) {
        if self.open.as_ref().is_some_and(|o| o.utterance == utterance) {
            self.open = None;
            self.end(utterance, VoiceEndStatus::Completed);
        }
    }
}

fn utterance_id(number: u64) -> String {
    format!("u{number}")
}

/// Where one utterance's chunks go: its connection's voice queue, while it is the one open.
#[derive(Debug)]
pub struct UtteranceSink {
    lane: Arc<Mutex<Lane>>,
    number: u64,
    utterance: Utterance,
    /// Where the end waits for the audio to have played; without one it is sent at once.
    runtime: Option<tokio::runtime::Handle>,
}

impl UtteranceSink {
    fn event(&self, chunk: VoiceChunk) -> Option<VoiceFrame> {
        let utterance_id = utterance_id(self.number);
        let event = match chunk {
            VoiceChunk::Audio(bytes) => return Some(VoiceFrame::Audio(bytes)),
            VoiceChunk::Ended { .. } => return None,
            VoiceChunk::Started {
                sample_rate,
                engine,
            } => ServerEvent::VoiceStarted(VoiceStarted {
                utterance_id,
                question_id: self.utterance.question_id.clone(),
                text: self.utterance.text.clone(),
                sample_rate,
                format: "pcm16".to_owned(),
                engine: engine.to_owned(),
            }),
            VoiceChunk::Mark { text, audio_ms } => ServerEvent::VoiceMark(VoiceMark {
                utterance_id,
                text_start: u32::try_from(text.start).unwrap_or(u32::MAX),
                text_end: u32::try_from(text.end).unwrap_or(u32::MAX),
                audio_start_ms: audio_ms.start,
                audio_end_ms: audio_ms.end,
            }),
        };
        Some(VoiceFrame::Event(Box::new(ServerMessage::unsequenced(
            event,
        ))))
    }
}

impl VoiceSink for UtteranceSink {
    fn send(&mut self, chunk: VoiceChunk) -> bool {
        let Ok(mut lane) = self.lane.lock() else {
            return false;
        };
        if lane
            .open
            .as_ref()
            .is_none_or(|o| o.utterance != self.number)
        {
            return false;
        }
        if let VoiceChunk::Ended { completed } = chunk {
            if !completed {
                lane.cancel();
                return false;
            }
            let playing = lane.open.as_ref().map_or(Duration::ZERO, Open::playing_for);
            match &self.runtime {
                Some(runtime) if !playing.is_zero() => {
                    let (inner, number) = (self.lane.clone(), self.number);
                    runtime.spawn(async move {
                        tokio::time::sleep(playing).await;
                        if let Ok(mut lane) = inner.lock() {
                            lane.finish(number);
                        }
                    });
                }
                _ => lane.finish(self.number),
            }
            return false;
        }
        if let VoiceChunk::Started { sample_rate, .. } = chunk
            && let Some(open) = &mut lane.open
        {
            open.rate = sample_rate.max(1);
        }
        let Some(frame) = self.event(chunk) else {
            return false;
        };
        if lane.push(frame) {
            return true;
        }
        tracing::debug!("voice queue full; utterance cancelled");
        lane.cancel();
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utterance() -> Utterance {
        Utterance {
            question_id: Some("q1".into()),
            text: "Hi.".into(),
        }
    }

    fn kinds(receiver: &mut mpsc::Receiver<VoiceFrame>) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(frame) = receiver.try_recv() {
            out.push(match frame {
                VoiceFrame::Audio(bytes) => format!("audio {}", bytes.len()),
                VoiceFrame::Event(m) => match m.event {
                    ServerEvent::VoiceEnded(e) => {
                        format!("ended {} {:?}", e.utterance_id, e.status)
                    }
                    other => format!("{} ", other.type_name()),
                },
            });
        }
        out
    }

    #[test]
    fn a_cancelled_utterance_ends_once_and_sends_nothing_after() {
        let (lane, mut receiver) = VoiceLane::new();
        let (mut sink, abort) = lane.begin(utterance()).unwrap();
        assert!(sink.send(VoiceChunk::Started {
            sample_rate: 22_050,
            engine: "piper",
        }));
        assert!(sink.send(VoiceChunk::Audio(vec![0; 4])));
        assert!(lane.cancel());
        assert!(abort.load(Ordering::Relaxed));
        assert!(!sink.send(VoiceChunk::Audio(vec![0; 4])));
        assert!(!sink.send(VoiceChunk::Ended { completed: false }));
        assert!(!lane.cancel(), "nothing is open");
        assert_eq!(
            kinds(&mut receiver),
            ["examiner.voice.started ", "audio 4", "ended u1 Cancelled"]
        );
    }

    #[test]
    fn a_new_utterance_cancels_the_open_one_first() {
        let (lane, mut receiver) = VoiceLane::new();
        let (mut first, _) = lane.begin(utterance()).unwrap();
        assert!(first.send(VoiceChunk::Started {
            sample_rate: 22_050,
            engine: "piper",
        }));
        let (mut second, _) = lane.begin(utterance()).unwrap();
        assert!(!first.send(VoiceChunk::Audio(vec![0; 2])));
        assert!(second.send(VoiceChunk::Started {
            sample_rate: 22_050,
            engine: "piper",
        }));
        assert!(!second.send(VoiceChunk::Ended { completed: true }));
        assert_eq!(
            kinds(&mut receiver),
            [
                "examiner.voice.started ",
                "ended u1 Cancelled",
                "examiner.voice.started ",
                "ended u2 Completed"
            ]
        );
    }

    #[test]
    fn a_full_queue_cancels_the_utterance_with_room_for_its_end() {
        let (lane, mut receiver) = VoiceLane::new();
        let (mut sink, abort) = lane.begin(utterance()).unwrap();
        let mut sent = 0;
        while sink.send(VoiceChunk::Audio(vec![0; 2])) {
            sent += 1;
        }
        assert_eq!(sent, VOICE_QUEUE - 1);
        assert!(abort.load(Ordering::Relaxed));
        let got = kinds(&mut receiver);
        assert_eq!(got.len(), VOICE_QUEUE);
        assert_eq!(got.last().map(String::as_str), Some("ended u1 Cancelled"));
    }
}
