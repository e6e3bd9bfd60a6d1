//! Voice: what a session needs to take spoken answers — the speech-to-text boundary, voice
//! activity detection and turn-taking (pure, fed with samples, no clocks).
//!
//! - [`stt`]: the `SpeechToText` trait and its job types.
//! - [`listener`]: voice activity (earshot) and turn-taking, pure over samples.
//! - [`end_of_turn`]: the `TurnJudge` trait: whether a pause sounds like the answer's end.
//! - [`complete`]: whether the turn so far reads as a whole answer (adaptive end of turn).
//! - [`synth`]: the examiner's voice: the `ExaminerVoice` port, engines, an utterance's plan.
//! - [`turn`]: a session's spoken turns as a state machine: events in, actions out.
//! - [`vocabulary`]: an exam answer's words with the aviation vocabulary's repairs.

pub mod complete;
pub mod end_of_turn;
pub mod hint;
pub mod listener;
pub mod spoken;
pub mod stt;
pub mod synth;
pub mod turn;
pub mod vocabulary;

pub use stt::{DecodeError, DecodeJob, DecodeKind, Reply, SpeechToText, SubmitError};

use std::collections::BTreeMap;
use std::time::Duration;

/// The default pause after a whole answer: long enough for a breath between sentences.
pub const COMPLETE_ANSWER_PAUSE: Duration = Duration::from_millis(1200);
/// The pause that ends a turn the end-of-turn model finds complete, when turned on (off by
/// default: on the think-aloud set the model cut off answers paused mid-sentence,
/// docs/benchmarks.md).
pub const END_OF_TURN_PAUSE: Duration = Duration::from_millis(400);

/// How long a candidate may pause to think before the turn ends, by default and per question
/// kind (`primary`, `follow_up`, `bonus`, or an assessment's `item`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnSettings {
    /// The pause allowed when no kind overrides it.
    pub thinking_pause: Duration,
    /// Overrides by question kind.
    pub thinking_pause_by_kind: BTreeMap<String, Duration>,
    /// The pause that ends a turn answering an item once its words read as a whole answer
    /// ([`complete`]); `None` always waits for the thinking pause.
    pub complete_answer_pause: Option<Duration>,
    /// The same for an exam question, off by default: on the think-aloud set the assessor
    /// found answers satisfactory before candidates had finished (docs/benchmarks.md).
    pub complete_exam_answer_pause: Option<Duration>,
    /// The pause, from the end of speech, that ends a turn the end-of-turn model
    /// (`end_of_turn`) finds complete; only with a model. `None` (the default): the model's
    /// verdict is told to the client but the turn waits out the thinking pause.
    pub end_of_turn_pause: Option<Duration>,
}

impl Default for TurnSettings {
    fn default() -> Self {
        TurnSettings {
            thinking_pause: Duration::from_secs(3),
            thinking_pause_by_kind: BTreeMap::new(),
            complete_answer_pause: Some(COMPLETE_ANSWER_PAUSE),
            complete_exam_answer_pause: None,
            end_of_turn_pause: None,
        }
    }
}

impl TurnSettings {
    /// The pause allowed for a question of `kind`.
    pub fn pause_for(&self, kind: Option<&str>) -> Duration {
        kind.and_then(|kind| self.thinking_pause_by_kind.get(kind))
            .copied()
            .unwrap_or(self.thinking_pause)
    }

    /// The pause that ends a turn whose words read as a whole answer, for an exam question
    /// or an item; `None`: wait out the thinking pause.
    pub fn complete_answer_pause_for(&self, exam: bool) -> Option<Duration> {
        match exam {
            true => self.complete_exam_answer_pause,
            false => self.complete_answer_pause,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_override_wins_over_the_default_pause() {
        let mut settings = TurnSettings::default();
        settings
            .thinking_pause_by_kind
            .insert("follow_up".into(), Duration::from_secs(5));
        assert_eq!(
            settings.pause_for(Some("follow_up")),
            Duration::from_secs(5)
        );
        assert_eq!(settings.pause_for(Some("primary")), Duration::from_secs(3));
        assert_eq!(settings.pause_for(None), Duration::from_secs(3));
    }
}
