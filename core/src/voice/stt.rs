//! The speech-to-text boundary: the `SpeechToText` trait the session actor submits decoding
//! jobs to. The whisper pool implements it in `speech/`, so this crate never links
//! whisper.cpp.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A finished utterance, or a preview of one still being spoken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecodeKind {
    /// The turn ended: this text becomes the answer.
    Final,
    /// The candidate is still speaking: a preview, dropped when the pool is busy.
    Partial,
    /// The candidate paused: the turn's audio as it would end, decoded during the pause in
    /// the preview lane (below every final, dropped when the pool is busy); its text is the
    /// final when the turn ends with the same audio.
    Speculative,
}

/// Why a decode produced no text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The job was aborted (its turn was cleared or superseded).
    #[error("aborted")]
    Aborted,
    /// The decoder failed.
    #[error("speech decoding failed: {0}")]
    Failed(String),
}

/// The reply to one job, called on the decoding thread.
pub type Reply = Box<dyn FnOnce(Result<String, DecodeError>) + Send>;

/// One decoding job.
pub struct DecodeJob {
    /// PCM16 mono 16 kHz.
    pub audio: Vec<i16>,
    /// Final or partial.
    pub kind: DecodeKind,
    /// What the open question leads the recogniser to expect (see [`super::hint`]), given
    /// to whisper as the text before the turn; `None` decodes without context.
    pub hint: Option<Arc<str>>,
    /// Set to abort the job (before or while it runs).
    pub abort: Arc<AtomicBool>,
    /// Called with the text.
    pub reply: Reply,
}

impl std::fmt::Debug for DecodeJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DecodeJob")
            .field("samples", &self.audio.len())
            .field("kind", &self.kind)
            .field("hint", &self.hint)
            .finish_non_exhaustive()
    }
}

/// Why a job was not queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SubmitError {
    /// As many finished turns are waiting as the pool holds: the server is overloaded.
    #[error("{waiting} finished turns are already waiting to be transcribed")]
    Overloaded {
        /// How many.
        waiting: usize,
    },
    /// The preview lane is full; this partial is skipped (the next one will come).
    #[error("partial transcripts are full")]
    PartialsFull,
}

/// Decodes speech without blocking the caller.
pub trait SpeechToText: Send + Sync + 'static {
    /// Queues a job; refused at once when the pool is full.
    fn submit(&self, job: DecodeJob) -> Result<(), SubmitError>;
    /// Jobs waiting: finished turns and previews.
    fn depth(&self) -> (usize, usize);
}
