//! The examiner's voice: the `ExaminerVoice` port a session hands text to be spoken, the
//! `SpeechSynth` engine trait one synthesis thread drives, and the pure plan of an utterance
//! (sentences, PCM16 frames, alignment marks) that [`speak`] runs. Engines live in `speech/`.

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The largest binary audio frame sent to a client, in bytes (PCM16LE mono).
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// One synthesis engine, owned and driven by one thread: a sentence in, its audio out.
pub trait SpeechSynth: Send {
    /// The engine's name, for logs and metrics (`piper`, `festival`).
    fn name(&self) -> &'static str;
    /// The sample rate of the audio it makes, in Hz.
    fn sample_rate(&self) -> u32;
    /// Speaks one sentence: PCM16 mono at [`sample_rate`](Self::sample_rate).
    fn synthesize(&mut self, sentence: &str) -> Result<Vec<i16>, SynthError>;
}

/// Why an engine made no audio. Retryable per sentence: the next one may succeed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SynthError {
    /// The engine failed on this text.
    #[error("speech synthesis failed: {0}")]
    Failed(String),
}

/// What an utterance sends, in order: `Started`, then `Audio` and `Mark`s, then `Ended`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VoiceChunk {
    /// The utterance begins; its audio is at `sample_rate`.
    Started {
        /// Hz.
        sample_rate: u32,
        /// The engine speaking.
        engine: &'static str,
    },
    /// PCM16LE mono bytes, at most [`MAX_FRAME_BYTES`].
    Audio(Vec<u8>),
    /// The text `text` (byte range of the utterance's text) is spoken over `audio_ms`.
    Mark {
        /// Byte offsets into the text.
        text: Range<usize>,
        /// Milliseconds from the utterance's first sample.
        audio_ms: Range<u64>,
    },
    /// The utterance is over: all of it was sent (`completed`) or it stopped early.
    Ended {
        /// Whether every sentence was sent.
        completed: bool,
    },
}

/// Where an utterance's chunks go; `false` means the client is gone or behind: stop.
pub trait VoiceSink: Send {
    /// Sends one chunk without waiting.
    fn send(&mut self, chunk: VoiceChunk) -> bool;
}

/// One utterance to speak.
pub struct SpeakJob {
    /// The text.
    pub text: String,
    /// Set to stop it (barge-in, a new question, the device leaving).
    pub abort: Arc<AtomicBool>,
    /// Where its chunks go.
    pub sink: Box<dyn VoiceSink>,
}

impl std::fmt::Debug for SpeakJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SpeakJob")
            .field("text", &self.text)
            .finish_non_exhaustive()
    }
}

/// Why an utterance was not queued (the voice is busy or stopped): the text still goes out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the examiner's voice is busy")]
pub struct SpeakRefused;

/// The port a session speaks through; implemented by `viva_speech::voice::VoicePool`.
pub trait ExaminerVoice: Send + Sync {
    /// Queues an utterance without waiting.
    fn speak(&self, job: SpeakJob) -> Result<(), SpeakRefused>;
}

/// How an utterance ended, with what it cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Spoken {
    /// Whether every sentence was sent.
    pub completed: bool,
    /// Samples sent.
    pub samples: u64,
    /// Sentences the engine failed on (skipped).
    pub failed: u32,
}

/// Speaks `job` with `engine`, sentence by sentence, so the first plays while the rest is
/// made. Stops between sentences and frames once `abort` is set or the sink refuses.
pub fn speak(engine: &mut dyn SpeechSynth, job: SpeakJob) -> Spoken {
    let SpeakJob {
        text,
        abort,
        mut sink,
    } = job;
    let rate = engine.sample_rate();
    let mut spoken = Spoken::default();
    let live =
        |sink: &mut Box<dyn VoiceSink>, chunk| !abort.load(Ordering::Relaxed) && sink.send(chunk);
    let started = VoiceChunk::Started {
        sample_rate: rate,
        engine: engine.name(),
    };
    if !live(&mut sink, started) {
        sink.send(VoiceChunk::Ended { completed: false });
        return spoken;
    }
    for range in sentences(&text) {
        let audio = match engine.synthesize(&text[range.clone()]) {
            Ok(audio) => audio,
            Err(err) => {
                tracing::warn!(%err, engine = engine.name(), "sentence not spoken");
                spoken.failed += 1;
                continue;
            }
        };
        let start = samples_to_ms(spoken.samples, rate);
        spoken.samples += audio.len() as u64;
        let audio_ms = start..samples_to_ms(spoken.samples, rate);
        let mark = VoiceChunk::Mark {
            text: range,
            audio_ms,
        };
        let frames = pcm16_frames(&audio).map(VoiceChunk::Audio);
        if !std::iter::once(mark)
            .chain(frames)
            .all(|c| live(&mut sink, c))
        {
            sink.send(VoiceChunk::Ended { completed: false });
            return spoken;
        }
    }
    spoken.completed = true;
    sink.send(VoiceChunk::Ended { completed: true });
    spoken
}

/// Milliseconds of `samples` at `rate` Hz.
pub fn samples_to_ms(samples: u64, rate: u32) -> u64 {
    samples * 1000 / u64::from(rate.max(1))
}

/// The byte ranges of `text`'s sentences, trimmed: each ends after a run of `.`, `?` or `!`
/// followed by white space (or at the end of the text). Blank text has none.
pub fn sentences(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let ends = matches!(c, '.' | '?' | '!')
            && chars.peek().is_none_or(|&(_, next)| next.is_whitespace());
        if ends {
            push_trimmed(text, start..i + c.len_utf8(), &mut out);
            start = i + c.len_utf8();
        }
    }
    push_trimmed(text, start..text.len(), &mut out);
    out
}

fn push_trimmed(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let piece = &text[range.clone()];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    if !piece.trim().is_empty() {
        out.push(range.start + lead..range.end - trail);
    }
}

/// PCM16LE bytes of `samples`, in frames of at most [`MAX_FRAME_BYTES`].
pub fn pcm16_frames(samples: &[i16]) -> impl Iterator<Item = Vec<u8>> + '_ {
    samples
        .chunks(MAX_FRAME_BYTES / 2)
        .map(|chunk| chunk.iter().flat_map(|s| s.to_le_bytes()).collect())
}

/// Float samples (nominally -1..1) to PCM16: as they are, or scaled down to full scale when
/// they would clip.
pub fn to_pcm16(audio: &[f32]) -> Vec<i16> {
    let loudest = audio.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    let gain = if loudest > 1.0 { 1.0 / loudest } else { 1.0 };
    audio
        .iter()
        .map(|s| (s * gain * f32::from(i16::MAX)) as i16)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: &[&str]) {
        let got: Vec<&str> = sentences(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(got, expected, "sentences of {text:?}");
    }

    #[test]
    fn splits_sentences_at_terminal_punctuation() {
        check("", &[]);
        check("   ", &[]);
        check("What is VFR?", &["What is VFR?"]);
        check(
            "Good. Now, what is 3.5 times two?  Say it!",
            &["Good.", "Now, what is 3.5 times two?", "Say it!"],
        );
        check("No end", &["No end"]);
        check("Wait... what?", &["Wait...", "what?"]);
        check("Über. Élan", &["Über.", "Élan"]);
    }

    #[test]
    fn frames_are_bounded_and_little_endian() {
        let samples: Vec<i16> = (0..70_000).map(|i| i as i16).collect();
        let frames: Vec<Vec<u8>> = pcm16_frames(&samples).collect();
        assert_eq!(frames.len(), 3);
        assert!(frames.iter().all(|f| f.len() <= MAX_FRAME_BYTES));
        assert_eq!(frames.iter().map(Vec::len).sum::<usize>(), 140_000);
        assert_eq!(&frames[0][2..4], &1i16.to_le_bytes());
    }

    #[test]
    fn float_audio_is_scaled_only_when_it_clips() {
        assert_eq!(to_pcm16(&[0.5, -0.5]), vec![16383, -16383]);
        assert_eq!(to_pcm16(&[2.0, -1.0]), vec![32767, -16383]);
        assert_eq!(samples_to_ms(22_050, 22_050), 1000);
        assert_eq!(samples_to_ms(11_025, 22_050), 500);
    }

    /// Counts sentences and makes 10 ms of silence per character: the plan, not a voice.
    struct Ticks;
    impl SpeechSynth for Ticks {
        fn name(&self) -> &'static str {
            "ticks"
        }
        fn sample_rate(&self) -> u32 {
            1000
        }
        fn synthesize(&mut self, sentence: &str) -> Result<Vec<i16>, SynthError> {
            match sentence.contains("fail") {
                true => Err(SynthError::Failed("asked to".into())),
                false => Ok(vec![0; sentence.len() * 10]),
            }
        }
    }

    #[derive(Clone, Default)]
    struct Collect(Arc<std::sync::Mutex<Vec<VoiceChunk>>>, Option<usize>);
    impl VoiceSink for Collect {
        fn send(&mut self, chunk: VoiceChunk) -> bool {
            let Ok(mut got) = self.0.lock() else {
                return false;
            };
            got.push(chunk);
            self.1.is_none_or(|limit| got.len() < limit)
        }
    }

    #[test]
    fn an_utterance_marks_each_sentence_and_ends_completed() {
        let sink = Collect::default();
        let job = SpeakJob {
            text: "One two. Please fail. Three.".into(),
            abort: Arc::default(),
            sink: Box::new(sink.clone()),
        };
        let spoken = speak(&mut Ticks, job);
        assert_eq!(
            (spoken.completed, spoken.failed, spoken.samples),
            (true, 1, 140)
        );
        let got = sink.0.lock().unwrap().clone();
        let started = VoiceChunk::Started {
            sample_rate: 1000,
            engine: "ticks",
        };
        assert_eq!(got[0], started);
        let marks: Vec<_> = got
            .iter()
            .filter_map(|c| match c {
                VoiceChunk::Mark { text, audio_ms } => Some((text.clone(), audio_ms.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(marks, vec![(0..8, 0..80), (22..28, 80..140)]);
        assert_eq!(got.last(), Some(&VoiceChunk::Ended { completed: true }));
    }

    #[test]
    fn an_aborted_or_refused_utterance_ends_cancelled() {
        let sink = Collect::default();
        let abort = Arc::new(AtomicBool::new(true));
        let job = SpeakJob {
            text: "Never heard.".into(),
            abort,
            sink: Box::new(sink.clone()),
        };
        assert!(!speak(&mut Ticks, job).completed);
        let got = sink.0.lock().unwrap().clone();
        assert_eq!(got, vec![VoiceChunk::Ended { completed: false }]);

        let full = Collect(Arc::default(), Some(2));
        let job = SpeakJob {
            text: "First. Second.".into(),
            abort: Arc::default(),
            sink: Box::new(full.clone()),
        };
        assert!(!speak(&mut Ticks, job).completed);
        let got = full.0.lock().unwrap().clone();
        assert_eq!(got.last(), Some(&VoiceChunk::Ended { completed: false }));
        assert_eq!(got.len(), 3);
    }
}
