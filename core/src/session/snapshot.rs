//! A session ⇄ its checkpoint, for the parts every mode shares: the lifecycle is written
//! and read here, the mode's section by the mode itself ([`super::mode::SessionMode::checkpoint`]
//! and the registry's restore in `crate::modes`).

use super::lifecycle::Lifecycle;
use super::phase::Phase;
use super::state::SessionState;
use crate::checkpoint::format::{CHECKPOINT_FORMAT, PhaseName, SessionCheckpoint};

/// A checkpoint that does not describe a valid session.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("checkpoint of session {session_id} is invalid: {reason}")]
pub struct InvalidCheckpoint {
    /// The session.
    pub session_id: String,
    /// What was wrong.
    pub reason: String,
}

impl InvalidCheckpoint {
    /// The checkpoint of `session_id` is invalid for `reason`.
    pub fn new(session_id: &str, reason: impl Into<String>) -> InvalidCheckpoint {
        InvalidCheckpoint {
            session_id: session_id.to_owned(),
            reason: reason.into(),
        }
    }
}

/// The checkpoint of a session as it stands: the lifecycle, then the mode's own section
/// and transcript.
pub fn checkpoint_of(state: &SessionState) -> SessionCheckpoint {
    let life = state.life();
    let resume_to = match life.phase {
        Phase::Paused { resume_to } => Some(Phase::from(resume_to).name()),
        _ => None,
    };
    let mode = state.mode_state();
    SessionCheckpoint {
        format: CHECKPOINT_FORMAT,
        session_id: life.session_id.clone(),
        user_id: life.user_id.clone(),
        version: 0,
        created_at_ms: life.created_at_ms,
        updated_at_ms: life.updated_at_ms,
        paused_at_ms: life.paused_at_ms,
        thinking_pause_ms: life.thinking_pause_ms,
        seq: life.seq,
        phase: life.phase.name(),
        resume_to,
        state: mode.checkpoint(),
        transcript: mode.transcript(),
        applied_event_ids: life.applied_event_ids.iter().cloned().collect(),
    }
}

/// The lifecycle a checkpoint holds, its format and phase checked.
pub fn life_from_checkpoint(
    checkpoint: &SessionCheckpoint,
) -> Result<Lifecycle, InvalidCheckpoint> {
    let fail = |reason: String| InvalidCheckpoint::new(&checkpoint.session_id, reason);
    if checkpoint.format != CHECKPOINT_FORMAT {
        return Err(fail(format!("unknown format {}", checkpoint.format)));
    }
    let phase = parse_phase(checkpoint.phase, checkpoint.resume_to).map_err(fail)?;
    Ok(Lifecycle {
        session_id: checkpoint.session_id.clone(),
        user_id: checkpoint.user_id.clone(),
        phase,
        applied_event_ids: checkpoint.applied_event_ids.iter().cloned().collect(),
        seq: checkpoint.seq,
        created_at_ms: checkpoint.created_at_ms,
        updated_at_ms: checkpoint.updated_at_ms,
        paused_at_ms: checkpoint.paused_at_ms,
        thinking_pause_ms: checkpoint.thinking_pause_ms,
        outbox: Vec::new(),
        turn_notes: Vec::new(),
    })
}

fn parse_phase(name: PhaseName, resume_to: Option<PhaseName>) -> Result<Phase, String> {
    let live = |name: PhaseName| {
        Phase::from_name(name)
            .live()
            .ok_or(format!("a session cannot resume to {name:?}"))
    };
    match name {
        PhaseName::Paused => Ok(Phase::Paused {
            resume_to: live(resume_to.unwrap_or(PhaseName::Idle))?,
        }),
        other => Ok(Phase::from_name(other)),
    }
}
