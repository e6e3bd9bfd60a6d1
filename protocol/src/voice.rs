//! The examiner's voice: an utterance announced, its text aligned with its audio, and its
//! end. The audio itself travels between `examiner.voice.started` and `examiner.voice.ended`
//! as binary frames of PCM16 little-endian mono at the announced `sample_rate` (at most
//! 64 KiB each). Sent only to a device that asked with `"speak": true`; never sequenced
//! (`seq` absent), never replayed on resume.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `examiner.voice.started`: the examiner begins to say `text`; the binary frames that follow,
/// up to `examiner.voice.ended` with the same `utterance_id`, are its audio. One utterance
/// plays at a time per connection: a new one starts only after the last one's end event.
///
/// # Format
/// ```json
/// {"type": "examiner.voice.started", "utterance_id": "u3", "question_id": "q3",
///  "text": "What is a stall? Describe it.", "sample_rate": 22050, "format": "pcm16",
///  "engine": "piper"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VoiceStarted {
    /// Unique on the connection.
    pub utterance_id: String,
    /// The question spoken, when it is one (a tutor's message has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question_id: Option<String>,
    /// The text spoken: the question's text, or the tutor's.
    pub text: String,
    /// Samples per second of the audio frames.
    pub sample_rate: u32,
    /// Always `pcm16`: signed 16-bit little-endian, mono.
    pub format: String,
    /// The engine speaking: `piper` or `festival`.
    pub engine: String,
}

/// `examiner.voice.mark`: the `text` bytes `text_start..text_end` (UTF-8 offsets into the
/// started event's `text`, one sentence) are spoken from `audio_start_ms` to `audio_end_ms`
/// of the utterance's audio. Sent before that sentence's audio frames.
///
/// # Format
/// ```json
/// {"type": "examiner.voice.mark", "utterance_id": "u3", "text_start": 0, "text_end": 16,
///  "audio_start_ms": 0, "audio_end_ms": 1250}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VoiceMark {
    /// The utterance.
    pub utterance_id: String,
    /// First byte of the sentence in the text.
    pub text_start: u32,
    /// Byte after its last.
    pub text_end: u32,
    /// Where its audio starts, in ms from the utterance's first sample.
    pub audio_start_ms: u64,
    /// Where it ends.
    pub audio_end_ms: u64,
}

/// `examiner.voice.ended`: no more audio comes for the utterance. `cancelled` when it was
/// cut short (the candidate started speaking, a new utterance began, the client fell behind):
/// the client stops playing at once.
///
/// # Format
/// ```json
/// {"type": "examiner.voice.ended", "utterance_id": "u3", "status": "cancelled"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VoiceEnded {
    /// The utterance.
    pub utterance_id: String,
    /// How it ended.
    pub status: VoiceEndStatus,
}

/// How an utterance ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VoiceEndStatus {
    /// All of it was sent.
    Completed,
    /// It stopped early; the client stops playing.
    Cancelled,
}

#[cfg(test)]
mod tests {
    use crate::server::{ServerEvent, ServerMessage};

    #[test]
    fn documented_examples_round_trip() {
        let examples = [
            r#"{"type":"examiner.voice.started","utterance_id":"u3","question_id":"q3","text":"What is a stall? Describe it.","sample_rate":22050,"format":"pcm16","engine":"piper"}"#,
            r#"{"type":"examiner.voice.mark","utterance_id":"u3","text_start":0,"text_end":16,"audio_start_ms":0,"audio_end_ms":1250}"#,
            r#"{"type":"examiner.voice.ended","utterance_id":"u3","status":"cancelled"}"#,
            r#"{"type":"examiner.voice.ended","utterance_id":"u3","status":"completed"}"#,
        ];
        for example in examples {
            let expected: serde_json::Value = serde_json::from_str(example).unwrap();
            let message: ServerMessage = serde_json::from_value(expected.clone()).unwrap();
            assert_eq!(serde_json::to_value(&message).unwrap(), expected);
            assert!(ServerEvent::TYPES.contains(&message.event.type_name()));
        }
    }
}
