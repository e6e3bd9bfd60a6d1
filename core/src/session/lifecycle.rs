//! `Lifecycle`: the part of every session that does not depend on its mode — ids, phase,
//! `seq`, the outbox of events waiting for a durable write, applied `event_id`s, pause and
//! abandonment — and `Refusal`, the one way a command is turned down.

use std::collections::VecDeque;

use viva_protocol::result::SessionResult;
use viva_protocol::server::{
    Ack, PauseReason, PlanSummary, Progress, SessionCompleted, SessionPaused, SessionResumed,
    SessionStarted, SessionStatus,
};
use viva_protocol::{ErrorCode, Mode, ServerEvent, ServerMessage};

use super::phase::{IllegalTransition, Phase, PhaseEvent, transition};

/// How many applied `event_id`s a session remembers for idempotency.
pub const APPLIED_EVENT_IDS: usize = 256;

pub use crate::base::Refusal;

impl From<IllegalTransition> for Refusal {
    fn from(illegal: IllegalTransition) -> Refusal {
        let code = match illegal.phase {
            Phase::Completed => ErrorCode::SessionCompleted,
            Phase::Abandoned => ErrorCode::SessionAbandoned,
            Phase::Paused { .. } => ErrorCode::SessionPaused,
            _ => ErrorCode::NoOpenQuestion,
        };
        Refusal::new(code, illegal.to_string())
    }
}

/// Mode-independent session state.
#[derive(Debug, Clone)]
pub struct Lifecycle {
    /// Session id.
    pub session_id: String,
    /// Owner.
    pub user_id: String,
    /// The lifecycle phase.
    pub phase: Phase,
    /// Recently applied event ids, oldest first.
    pub applied_event_ids: VecDeque<String>,
    /// Last `seq` used.
    pub seq: u64,
    /// Creation time, ms since the epoch.
    pub created_at_ms: u64,
    /// Last change, ms since the epoch.
    pub updated_at_ms: u64,
    /// Start of the current pause.
    pub paused_at_ms: Option<u64>,
    /// The thinking pause this session asked for (spoken answers), ms.
    pub thinking_pause_ms: Option<u32>,
    /// Events to send once the state that produced them is durable. Never persisted.
    pub outbox: Vec<ServerMessage>,
    /// Turns taken since the last commit, for the trace and `/metrics` once durable. Never
    /// persisted.
    pub turn_notes: Vec<TurnNote>,
}

/// A turn a mode took, as the trace and `/metrics` report it (turns by action, fallbacks
/// by reason).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnNote {
    /// What the turn did (`drill`, `explain`, …).
    pub action: String,
    /// What it was about (a unit, an element).
    pub target: String,
    /// What the candidate said.
    pub said: String,
    /// How it went.
    pub outcome: String,
    /// Why a fallback stood in for a model, when one did.
    pub fallback: Option<String>,
}

impl Lifecycle {
    /// A new session's lifecycle, idle.
    pub fn new(session_id: String, user_id: String, now_ms: u64) -> Lifecycle {
        Lifecycle {
            session_id,
            user_id,
            phase: Phase::Idle,
            applied_event_ids: VecDeque::new(),
            seq: 0,
            created_at_ms: now_ms,
            updated_at_ms: now_ms,
            paused_at_ms: None,
            thinking_pause_ms: None,
            outbox: Vec::new(),
            turn_notes: Vec::new(),
        }
    }

    /// Whether this `event_id` was already applied in this session.
    pub fn is_applied(&self, event_id: &str) -> bool {
        self.applied_event_ids.iter().any(|id| id == event_id)
    }

    /// The session's status as clients see it.
    pub fn status(&self) -> SessionStatus {
        match self.phase {
            Phase::Paused { .. } => SessionStatus::Paused,
            Phase::Completed => SessionStatus::Completed,
            Phase::Abandoned => SessionStatus::Abandoned,
            _ => SessionStatus::Active,
        }
    }

    /// Queues an event with the next `seq`.
    pub fn emit(&mut self, event: ServerEvent) {
        self.seq += 1;
        self.outbox.push(ServerMessage {
            seq: Some(self.seq),
            event,
        });
    }

    /// Queues `session.started` with the mode's plan.
    pub fn announce(&mut self, mode: Mode, plan: PlanSummary) {
        let session_id = self.session_id.clone();
        self.emit(ServerEvent::SessionStarted(SessionStarted {
            session_id,
            mode,
            plan,
        }));
    }

    /// Queues `session.completed` with the graded result.
    pub fn announce_completed(&mut self, result: SessionResult) {
        let session_id = self.session_id.clone();
        self.emit(ServerEvent::SessionCompleted(SessionCompleted {
            session_id,
            result,
        }));
    }

    /// Records an applied `event_id` and queues its `ack`.
    pub fn acknowledge(&mut self, event_id: Option<String>) {
        let Some(event_id) = event_id else { return };
        if !self.is_applied(&event_id) {
            self.applied_event_ids.push_back(event_id.clone());
            while self.applied_event_ids.len() > APPLIED_EVENT_IDS {
                self.applied_event_ids.pop_front();
            }
        }
        self.emit(ServerEvent::Ack(Ack { event_id }));
    }

    /// Moves the phase through the one transition function.
    pub fn advance(&mut self, event: PhaseEvent, now_ms: u64) -> Result<(), Refusal> {
        self.phase = transition(self.phase, event)?;
        self.updated_at_ms = now_ms;
        Ok(())
    }

    /// Marks the open question delivered to a device.
    pub fn mark_delivered(&mut self, now_ms: u64) {
        if self.phase == Phase::QuestionAsked {
            // ignore: QuestionAsked always accepts QuestionDelivered.
            let _ = self.advance(PhaseEvent::QuestionDelivered, now_ms);
        }
    }

    /// Pauses the session and queues `session.paused` for the device that loses it.
    pub fn pause(&mut self, reason: PauseReason, now_ms: u64) -> Result<(), Refusal> {
        let was_paused = matches!(self.phase, Phase::Paused { .. });
        self.advance(PhaseEvent::Paused, now_ms)?;
        if !was_paused {
            self.paused_at_ms = Some(now_ms);
        }
        let session_id = self.session_id.clone();
        self.emit(ServerEvent::SessionPaused(SessionPaused {
            session_id,
            reason,
        }));
        Ok(())
    }

    /// Leaves a pause (a live or completed session stays as it is).
    pub fn unpause(&mut self, now_ms: u64) -> Result<(), Refusal> {
        match self.phase {
            Phase::Abandoned => Err(Refusal::new(
                ErrorCode::SessionAbandoned,
                "the session was abandoned",
            )),
            Phase::Paused { .. } => {
                self.advance(PhaseEvent::Resumed, now_ms)?;
                self.paused_at_ms = None;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Leaves a pause (if paused) and queues `session.resumed`; returns the status after it.
    pub fn resume(
        &mut self,
        mode: Mode,
        progress: Progress,
        now_ms: u64,
    ) -> Result<SessionStatus, Refusal> {
        self.unpause(now_ms)?;
        let status = self.status();
        let session_id = self.session_id.clone();
        self.emit(ServerEvent::SessionResumed(SessionResumed {
            session_id,
            mode,
            status,
            progress,
        }));
        Ok(status)
    }

    /// Abandons the session if it has been paused for at least `after_ms`.
    pub fn abandon_if_stale(&mut self, after_ms: u64, now_ms: u64) -> bool {
        let stale = self
            .paused_at_ms
            .is_some_and(|since| now_ms.saturating_sub(since) >= after_ms);
        stale && self.advance(PhaseEvent::Abandoned, now_ms).is_ok()
    }

    /// Refuses commands unless a device drives the session.
    pub fn require_live(&self) -> Result<(), Refusal> {
        match self.phase {
            Phase::Completed => Err(Refusal::new(
                ErrorCode::SessionCompleted,
                "the session has completed",
            )),
            Phase::Abandoned => Err(Refusal::new(
                ErrorCode::SessionAbandoned,
                "the session was abandoned",
            )),
            Phase::Paused { .. } => Err(Refusal::new(
                ErrorCode::SessionPaused,
                "the session is paused; resume it first",
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::phase::LivePhase;

    fn life_in(phase: Phase) -> Lifecycle {
        let mut life = Lifecycle::new("s".into(), "u".into(), 1_000);
        life.phase = phase;
        life
    }

    fn no_progress() -> Progress {
        Progress {
            asked: 0,
            planned_questions: 0,
            answered: 0,
            credited_by_mention: 0,
            bonus_used: 0,
        }
    }

    /// Paused while a question was open: it is delivered again on resume.
    const PAUSED: Phase = Phase::Paused {
        resume_to: LivePhase::QuestionAsked,
    };

    #[test]
    fn commands_are_refused_with_the_code_of_the_phase() {
        let cases = [
            (Phase::Idle, None, SessionStatus::Active),
            (Phase::AwaitingAnswer, None, SessionStatus::Active),
            (Phase::Assessed, None, SessionStatus::Active),
            (
                PAUSED,
                Some(ErrorCode::SessionPaused),
                SessionStatus::Paused,
            ),
            (
                Phase::Completed,
                Some(ErrorCode::SessionCompleted),
                SessionStatus::Completed,
            ),
            (
                Phase::Abandoned,
                Some(ErrorCode::SessionAbandoned),
                SessionStatus::Abandoned,
            ),
        ];
        for (phase, refused, status) in cases {
            let life = life_in(phase);
            assert_eq!(
                life.require_live().err().map(|r| r.code),
                refused,
                "{phase:?}"
            );
            assert_eq!(life.status(), status, "{phase:?}");
        }
    }

    #[test]
    fn an_event_id_is_remembered_once_and_the_oldest_forgotten_past_the_bound() {
        let mut life = life_in(Phase::Idle);
        life.acknowledge(Some("a".into()));
        life.acknowledge(Some("a".into()));
        life.acknowledge(None);
        assert_eq!(life.applied_event_ids, ["a"]);
        assert_eq!(life.seq, 2, "both acks are sent; no event id, no ack");
        for n in 0..APPLIED_EVENT_IDS {
            life.acknowledge(Some(format!("e{n}")));
        }
        assert_eq!(life.applied_event_ids.len(), APPLIED_EVENT_IDS);
        assert!(!life.is_applied("a") && life.is_applied("e0"));
        let seqs: Vec<_> = life.outbox.iter().filter_map(|m| m.seq).collect();
        assert!(
            seqs.windows(2).all(|w| w[1] == w[0] + 1),
            "seq counts every event"
        );
    }

    #[test]
    fn pausing_keeps_the_first_pause_time_and_resuming_returns_to_the_phase() {
        let mut life = life_in(Phase::AwaitingAnswer);
        life.pause(PauseReason::OtherDevice, 2_000).unwrap();
        life.pause(PauseReason::User, 3_000).unwrap();
        assert_eq!(life.phase, PAUSED);
        assert_eq!(
            life.paused_at_ms,
            Some(2_000),
            "a second pause keeps the first time"
        );
        let status = life.resume(Mode::Exam, no_progress(), 4_000).unwrap();
        assert_eq!(
            (status, life.phase, life.paused_at_ms),
            (SessionStatus::Active, Phase::QuestionAsked, None)
        );
    }

    #[test]
    fn a_pause_is_abandoned_only_once_it_is_stale() {
        let cases = [
            (PAUSED, Some(1_000), 1_999, false),
            (PAUSED, Some(1_000), 2_000, true),
            (Phase::AwaitingAnswer, None, 9_999, false),
            (Phase::Completed, Some(1_000), 9_999, false),
        ];
        for (phase, paused_at, now, abandoned) in cases {
            let mut life = life_in(phase);
            life.paused_at_ms = paused_at;
            assert_eq!(
                life.abandon_if_stale(1_000, now),
                abandoned,
                "{phase:?} at {now}"
            );
            assert_eq!(
                life.phase == Phase::Abandoned,
                abandoned,
                "{phase:?} at {now}"
            );
        }
        let mut abandoned = life_in(Phase::Abandoned);
        let refusal = abandoned.unpause(1).unwrap_err();
        assert_eq!(refusal.code, ErrorCode::SessionAbandoned);
    }

    #[test]
    fn an_illegal_transition_becomes_the_refusal_of_its_phase() {
        let cases = [
            (
                Phase::Completed,
                PhaseEvent::QuestionCommitted,
                ErrorCode::SessionCompleted,
            ),
            (
                Phase::Abandoned,
                PhaseEvent::AnswerAssessed,
                ErrorCode::SessionAbandoned,
            ),
            (
                PAUSED,
                PhaseEvent::QuestionCommitted,
                ErrorCode::SessionPaused,
            ),
            (
                Phase::Idle,
                PhaseEvent::AnswerAssessed,
                ErrorCode::NoOpenQuestion,
            ),
        ];
        for (phase, event, code) in cases {
            let mut life = life_in(phase);
            assert_eq!(
                life.advance(event, 5).unwrap_err().code,
                code,
                "{phase:?} {event:?}"
            );
            assert_eq!(life.phase, phase, "a refused event changes nothing");
        }
    }
}
