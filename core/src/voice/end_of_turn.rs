//! The end-of-turn boundary: the `TurnJudge` trait the session actor submits a pause's audio
//! to, to hear whether the candidate sounds finished. The Smart Turn model implements it in
//! `speech/`, so this crate never links ONNX Runtime.

/// A model's probability above this reads as "finished" (Pipecat's threshold).
pub const COMPLETE_ABOVE: f32 = 0.5;

/// What the model made of a pause, as the `speech.stopped` event reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndOfTurn {
    /// The candidate sounds finished.
    Complete,
    /// The candidate sounds mid-answer.
    Incomplete,
    /// No judgement: no model, or it was busy or failed.
    Unjudged,
}

impl EndOfTurn {
    /// The verdict for a model's probability that the turn is complete.
    pub fn from_probability(probability: f32) -> EndOfTurn {
        match probability > COMPLETE_ABOVE {
            true => EndOfTurn::Complete,
            false => EndOfTurn::Incomplete,
        }
    }
}

/// Why a judgement did not come.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// The model failed on this audio.
    #[error("end-of-turn model failed: {0}")]
    Failed(String),
}

/// The reply to one job, called on the judge's thread: the probability that the turn is
/// complete.
pub type JudgeReply = Box<dyn FnOnce(Result<f32, JudgeError>) + Send>;

/// One pause to judge.
pub struct JudgeJob {
    /// The turn's audio up to the pause, PCM16 mono 16 kHz (the judge keeps the last 8 s).
    pub audio: Vec<i16>,
    /// Called with the probability.
    pub reply: JudgeReply,
}

impl std::fmt::Debug for JudgeJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JudgeJob")
            .field("samples", &self.audio.len())
            .finish_non_exhaustive()
    }
}

/// Why a job was not queued: the judge's queue is full (the server is busy); the pause is
/// left unjudged and the turn waits out its thinking pause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{waiting} pauses are already waiting to be judged")]
pub struct JudgeBusy {
    /// How many.
    pub waiting: usize,
}

/// Judges pauses without blocking the caller.
pub trait TurnJudge: Send + Sync + 'static {
    /// Queues a job; refused at once when the queue is full.
    fn submit(&self, job: JudgeJob) -> Result<(), JudgeBusy>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn above_one_half_is_complete() {
        for (p, verdict) in [
            (0.987, EndOfTurn::Complete),
            (0.51, EndOfTurn::Complete),
            (0.5, EndOfTurn::Incomplete),
            (0.010, EndOfTurn::Incomplete),
        ] {
            assert_eq!(EndOfTurn::from_probability(p), verdict, "{p}");
        }
    }
}
