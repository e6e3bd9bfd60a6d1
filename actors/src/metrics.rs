//! `SessionMetrics`: the series the session actors report — live sessions by phase,
//! checkpoint writes, takeovers, and spoken answers asked again.

use viva_core::metrics::{
    Counter, Gauge, Histogram, LabeledCounter, Series, counter, header, histogram, labeled,
};
use viva_core::session::phase::Phase;

/// Where a session stands, as the `phase` label of `viva_sessions`, in [`phase_index`]
/// order (the names are `Phase::as_str`'s).
pub const PHASES: &[&str] = &[
    "idle",
    "question_asked",
    "awaiting_answer",
    "assessed",
    "paused",
    "completed",
    "abandoned",
];

/// The position of `phase`'s label in [`PHASES`] (a paused session is `paused` whatever it
/// resumes to).
pub fn phase_index(phase: Phase) -> usize {
    match phase {
        Phase::Idle => 0,
        Phase::QuestionAsked => 1,
        Phase::AwaitingAnswer => 2,
        Phase::Assessed => 3,
        Phase::Paused { .. } => 4,
        Phase::Completed => 5,
        Phase::Abandoned => 6,
    }
}

/// What the session actors count.
#[derive(Debug)]
pub struct SessionMetrics {
    /// Live session actors by phase ([`PHASES`]).
    pub sessions: [Gauge; 7],
    /// Checkpoint writes that succeeded, by latency.
    pub checkpoint_seconds: Histogram,
    /// Checkpoint writes that failed (storage down, fenced or refused).
    pub checkpoint_failures: Counter,
    /// Waits of a commit for storage in a stall before it tried again.
    pub checkpoint_stall_waits: Counter,
    /// Another device took a user's active session.
    pub takeovers: Counter,
    /// Spoken answers to items that could not be read, so the candidate was asked again.
    pub spoken_answers_unclear: Counter,
    /// Pauses whose words read as a whole answer, so the turn was allowed to end after the
    /// short pause (adaptive end of turn).
    pub whole_answer_pauses: Counter,
    /// Pauses the end-of-turn model found complete, so the turn was allowed to end after
    /// the short end-of-turn pause.
    pub model_turn_ends: Counter,
    /// Questions phrased ahead while the candidate answered, by outcome when the next
    /// question came: `held` (asked as phrased) or `missed` (another question came).
    pub question_speculations: LabeledCounter,
    /// Sessions that hibernated (stopped while their device was idle).
    pub hibernations: Counter,
    /// How long waking a hibernated session took (claim check, checkpoint read, restore).
    pub wake_seconds: Histogram,
    /// Tutor turns and fallbacks.
    pub tutor: TutorMetrics,
}

/// What tutoring sessions count (the turn log's numbers).
#[derive(Debug)]
pub struct TutorMetrics {
    /// Tutor turns by action.
    pub turns: LabeledCounter,
    /// Proposed replies replaced by the fallback, by reason.
    pub fallbacks: LabeledCounter,
}

impl Default for TutorMetrics {
    fn default() -> TutorMetrics {
        TutorMetrics {
            turns: LabeledCounter::new(viva_protocol::tutor::TurnAction::NAMES),
            fallbacks: LabeledCounter::new(viva_core::modes::TURN_FALLBACK_REASONS),
        }
    }
}

/// The outcomes of a question phrased ahead.
pub const SPECULATION_OUTCOMES: &[&str] = &["held", "missed"];

impl Default for SessionMetrics {
    fn default() -> SessionMetrics {
        SessionMetrics {
            sessions: Default::default(),
            checkpoint_seconds: Histogram::default(),
            checkpoint_failures: Counter::default(),
            checkpoint_stall_waits: Counter::default(),
            takeovers: Counter::default(),
            spoken_answers_unclear: Counter::default(),
            whole_answer_pauses: Counter::default(),
            model_turn_ends: Counter::default(),
            question_speculations: LabeledCounter::new(SPECULATION_OUTCOMES),
            hibernations: Counter::default(),
            wake_seconds: Histogram::default(),
            tutor: TutorMetrics::default(),
        }
    }
}

impl SessionMetrics {
    /// The gauge of sessions in `phase`.
    pub fn sessions_in(&self, phase: Phase) -> &Gauge {
        &self.sessions[phase_index(phase)]
    }
}

impl Series for SessionMetrics {
    fn render(&self, out: &mut String) {
        header(
            out,
            "viva_sessions",
            "Live session actors by phase.",
            "gauge",
        );
        for (phase, gauge) in PHASES.iter().zip(self.sessions.iter()) {
            out.push_str(&format!(
                "viva_sessions{{phase=\"{phase}\"}} {}\n",
                gauge.get()
            ));
        }
        let checkpoints = &self.checkpoint_seconds;
        histogram(
            out,
            "viva_checkpoint_seconds",
            "Checkpoint write latency.",
            "",
            checkpoints,
        );
        let failures = &self.checkpoint_failures;
        counter(
            out,
            "viva_checkpoint_failures_total",
            "Checkpoint writes that failed.",
            failures,
        );
        counter(
            out,
            "viva_checkpoint_stall_waits_total",
            "Waits of a checkpoint write for storage in a stall before it was tried again.",
            &self.checkpoint_stall_waits,
        );
        let takeovers = &self.takeovers;
        counter(
            out,
            "viva_takeovers_total",
            "Sessions taken over by another device.",
            takeovers,
        );
        counter(
            out,
            "viva_spoken_answers_unclear_total",
            "Spoken item answers that could not be read; the candidate was asked again.",
            &self.spoken_answers_unclear,
        );
        counter(
            out,
            "viva_whole_answer_pauses_total",
            "Pauses whose words read as a whole answer; the turn could end after the short pause.",
            &self.whole_answer_pauses,
        );
        counter(
            out,
            "viva_model_turn_ends_total",
            "Pauses the end-of-turn model found complete; the turn could end after the short pause.",
            &self.model_turn_ends,
        );
        labeled(
            out,
            "viva_question_speculations_total",
            "Questions a model phrased ahead while the candidate answered, by outcome.",
            "outcome",
            &self.question_speculations,
        );
        counter(
            out,
            "viva_hibernations_total",
            "Sessions stopped while their device was idle, kept only as their checkpoint.",
            &self.hibernations,
        );
        histogram(
            out,
            "viva_wake_seconds",
            "Waking a hibernated session: claim check, checkpoint read and restore.",
            "",
            &self.wake_seconds,
        );
        labeled(
            out,
            "viva_tutor_turns_total",
            "Tutor turns by action.",
            "action",
            &self.tutor.turns,
        );
        labeled(
            out,
            "viva_tutor_fallbacks_total",
            "Tutor replies replaced by the policy's fallback, by reason.",
            "reason",
            &self.tutor.fallbacks,
        );
    }
}

#[cfg(test)]
mod tests {
    use viva_core::metrics::untyped_families;
    use viva_core::session::phase::LivePhase;

    use super::*;

    #[test]
    fn phase_labels_are_the_checkpoint_names_of_the_phases() {
        let paused = Phase::Paused {
            resume_to: LivePhase::Assessed,
        };
        let phases = [
            Phase::Idle,
            Phase::QuestionAsked,
            Phase::AwaitingAnswer,
            Phase::Assessed,
            paused,
            Phase::Completed,
            Phase::Abandoned,
        ];
        for phase in phases {
            assert_eq!(PHASES[phase_index(phase)], phase.as_str());
        }
        assert_eq!(phases.len(), PHASES.len());
    }

    #[test]
    fn sessions_are_counted_by_phase_and_every_series_is_typed() {
        let metrics = SessionMetrics::default();
        let awaiting = metrics.sessions_in(Phase::AwaitingAnswer);
        awaiting.inc();
        awaiting.inc();
        awaiting.dec();
        metrics.takeovers.inc();
        metrics.tutor.turns.inc("drill");
        metrics.tutor.fallbacks.inc("too_long");
        let mut text = String::new();
        metrics.render(&mut text);
        for expected in [
            "viva_sessions{phase=\"awaiting_answer\"} 1\n",
            "viva_sessions{phase=\"paused\"} 0\n",
            "viva_takeovers_total 1\n",
            "viva_checkpoint_seconds_count 0\n",
            "viva_tutor_turns_total{action=\"drill\"} 1\n",
            "viva_tutor_fallbacks_total{reason=\"too_long\"} 1\n",
        ] {
            assert!(text.contains(expected), "{expected} in\n{text}");
        }
        assert_eq!(untyped_families(&text), Vec::<String>::new());
    }
}
