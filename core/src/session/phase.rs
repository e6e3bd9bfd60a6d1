//! The session lifecycle: a closed `Phase` enum and the one function that moves it.

use crate::checkpoint::format::PhaseName;

/// A phase a session can be resumed into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LivePhase {
    /// Created; no question asked yet.
    Idle,
    /// A question is committed but not yet delivered to a device.
    QuestionAsked,
    /// A question is delivered; the candidate is answering.
    AwaitingAnswer,
    /// The last answer is assessed; the next question is not asked yet.
    Assessed,
}

/// Where a session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Created; no question asked yet.
    Idle,
    /// A question is committed but not yet delivered to a device.
    QuestionAsked,
    /// A question is delivered; the candidate is answering.
    AwaitingAnswer,
    /// The last answer is assessed; the next question is not asked yet.
    Assessed,
    /// No device drives the session; `resume_to` is where it goes back.
    Paused {
        /// The phase before the pause.
        resume_to: LivePhase,
    },
    /// Graded. Terminal.
    Completed,
    /// Paused for too long. Terminal.
    Abandoned,
}

/// What happened to the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhaseEvent {
    /// A question was committed.
    QuestionCommitted,
    /// The open question reached a device.
    QuestionDelivered,
    /// The answer to the open question was assessed.
    AnswerAssessed,
    /// No device drives the session any more.
    Paused,
    /// A device took the session back.
    Resumed,
    /// The exam ended and was graded.
    Completed,
    /// The pause outlasted the abandonment timeout.
    Abandoned,
}

/// A transition the lifecycle does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{event:?} is not allowed in phase {phase:?}")]
pub struct IllegalTransition {
    /// The phase the session was in.
    pub phase: Phase,
    /// The event refused.
    pub event: PhaseEvent,
}

impl Phase {
    /// The live phase this phase is, if it is one.
    pub fn live(self) -> Option<LivePhase> {
        match self {
            Phase::Idle => Some(LivePhase::Idle),
            Phase::QuestionAsked => Some(LivePhase::QuestionAsked),
            Phase::AwaitingAnswer => Some(LivePhase::AwaitingAnswer),
            Phase::Assessed => Some(LivePhase::Assessed),
            Phase::Paused { .. } | Phase::Completed | Phase::Abandoned => None,
        }
    }

    /// Whether the session has ended for good.
    pub fn is_terminal(self) -> bool {
        matches!(self, Phase::Completed | Phase::Abandoned)
    }

    /// The checkpoint name of the phase.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::QuestionAsked => "question_asked",
            Phase::AwaitingAnswer => "awaiting_answer",
            Phase::Assessed => "assessed",
            Phase::Paused { .. } => "paused",
            Phase::Completed => "completed",
            Phase::Abandoned => "abandoned",
        }
    }
}

impl Phase {
    /// The phase's name as a checkpoint stores it.
    pub fn name(self) -> PhaseName {
        match self {
            Phase::Idle => PhaseName::Idle,
            Phase::QuestionAsked => PhaseName::QuestionAsked,
            Phase::AwaitingAnswer => PhaseName::AwaitingAnswer,
            Phase::Assessed => PhaseName::Assessed,
            Phase::Paused { .. } => PhaseName::Paused,
            Phase::Completed => PhaseName::Completed,
            Phase::Abandoned => PhaseName::Abandoned,
        }
    }

    /// The phase a stored name stands for; `paused` resumes to idle (the checkpoint's
    /// `resume_to` says where a paused session goes back).
    pub fn from_name(name: PhaseName) -> Phase {
        match name {
            PhaseName::Idle => Phase::Idle,
            PhaseName::QuestionAsked => Phase::QuestionAsked,
            PhaseName::AwaitingAnswer => Phase::AwaitingAnswer,
            PhaseName::Assessed => Phase::Assessed,
            PhaseName::Paused => Phase::Paused {
                resume_to: LivePhase::Idle,
            },
            PhaseName::Completed => Phase::Completed,
            PhaseName::Abandoned => Phase::Abandoned,
        }
    }
}

impl From<LivePhase> for Phase {
    fn from(live: LivePhase) -> Phase {
        match live {
            LivePhase::Idle => Phase::Idle,
            LivePhase::QuestionAsked => Phase::QuestionAsked,
            LivePhase::AwaitingAnswer => Phase::AwaitingAnswer,
            LivePhase::Assessed => Phase::Assessed,
        }
    }
}

/// The one transition function of the session lifecycle.
pub fn transition(phase: Phase, event: PhaseEvent) -> Result<Phase, IllegalTransition> {
    use PhaseEvent as E;
    let next = match (phase, event) {
        (Phase::Idle | Phase::Assessed, E::QuestionCommitted) => Phase::QuestionAsked,
        (Phase::QuestionAsked | Phase::AwaitingAnswer, E::QuestionDelivered) => {
            Phase::AwaitingAnswer
        }
        (Phase::QuestionAsked | Phase::AwaitingAnswer, E::AnswerAssessed) => Phase::Assessed,
        (Phase::Paused { resume_to }, E::Resumed) => Phase::from(resume_to),
        (Phase::Paused { .. }, E::Paused) => phase,
        (Phase::Paused { .. }, E::Abandoned) => Phase::Abandoned,
        (live, E::Paused) if live.live().is_some() => Phase::Paused {
            resume_to: pause_target(live),
        },
        (live, E::Completed) if live.live().is_some() => Phase::Completed,
        _ => return Err(IllegalTransition { phase, event }),
    };
    Ok(next)
}

/// A delivered question must be delivered again after a pause.
fn pause_target(live: Phase) -> LivePhase {
    match live.live() {
        Some(LivePhase::AwaitingAnswer) => LivePhase::QuestionAsked,
        Some(other) => other,
        None => LivePhase::Idle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PhaseEvent as E;

    fn check(phase: Phase, event: PhaseEvent, expected: Option<Phase>) {
        assert_eq!(
            transition(phase, event).ok(),
            expected,
            "{phase:?} + {event:?}"
        );
    }

    #[test]
    fn the_happy_path() {
        check(
            Phase::Idle,
            E::QuestionCommitted,
            Some(Phase::QuestionAsked),
        );
        check(
            Phase::QuestionAsked,
            E::QuestionDelivered,
            Some(Phase::AwaitingAnswer),
        );
        check(
            Phase::AwaitingAnswer,
            E::AnswerAssessed,
            Some(Phase::Assessed),
        );
        check(
            Phase::Assessed,
            E::QuestionCommitted,
            Some(Phase::QuestionAsked),
        );
        check(Phase::Assessed, E::Completed, Some(Phase::Completed));
    }

    #[test]
    fn exactly_one_open_question() {
        check(Phase::QuestionAsked, E::QuestionCommitted, None);
        check(Phase::AwaitingAnswer, E::QuestionCommitted, None);
        check(Phase::Idle, E::AnswerAssessed, None);
        check(Phase::Assessed, E::AnswerAssessed, None);
    }

    #[test]
    fn pause_and_resume_return_to_the_same_place() {
        let paused = transition(Phase::AwaitingAnswer, E::Paused).unwrap();
        assert_eq!(
            paused,
            Phase::Paused {
                resume_to: LivePhase::QuestionAsked
            }
        );
        check(paused, E::Resumed, Some(Phase::QuestionAsked));
        check(paused, E::Paused, Some(paused));
        check(paused, E::QuestionCommitted, None);
        check(paused, E::Completed, None);
        let assessed = transition(Phase::Assessed, E::Paused).unwrap();
        check(assessed, E::Resumed, Some(Phase::Assessed));
    }

    #[test]
    fn only_a_paused_session_is_abandoned() {
        check(
            Phase::Paused {
                resume_to: LivePhase::Idle,
            },
            E::Abandoned,
            Some(Phase::Abandoned),
        );
        check(Phase::AwaitingAnswer, E::Abandoned, None);
    }

    #[test]
    fn terminal_phases_accept_nothing() {
        let events = [
            E::QuestionCommitted,
            E::QuestionDelivered,
            E::AnswerAssessed,
            E::Paused,
            E::Resumed,
            E::Completed,
            E::Abandoned,
        ];
        for phase in [Phase::Completed, Phase::Abandoned] {
            assert!(phase.is_terminal());
            for event in events {
                check(phase, event, None);
            }
        }
    }
}
