//! The session modes, and the registry that is the only place they are listed: how a
//! config opens one ([`open`], with [`label`] and [`side_holds`] before it), and how a
//! checkpoint restores one ([`restore`]). Everything else reaches a mode through
//! [`crate::session::mode::SessionMode`], so adding a mode means writing it in its own
//! module, listing it here and giving it a config, a result and a checkpoint section
//! (`viva_protocol`, [`crate::checkpoint::sections`]); nothing in the actors or the stores
//! changes.
//!
//! - [`exam`]: an ACS oral exam (`ExamCore`).
//! - [`assessment`]: a blueprint assessment (`AssessmentCore`).
//! - [`tutor`]: tutoring over the embedded brain (`TutorCore`), with the student snapshot
//!   as a side record.
//! - [`one_question`]: a one-question check.

use viva_protocol::ErrorCode;
use viva_protocol::config::{SessionConfig, THINKING_PAUSE_MS};

use crate::base::Refusal;
use crate::checkpoint::format::{SessionCheckpoint, TurnCheckpoint};
use crate::checkpoint::sections::ModeCheckpoint;
use crate::session::lifecycle::Lifecycle;
use crate::session::mode::{SessionMode, StepContext};
use crate::session::rules::SessionLabel;
use crate::session::side::SideHold;
use crate::session::snapshot::{InvalidCheckpoint, life_from_checkpoint};
use crate::session::state::SessionState;

pub use opening::Opening;

pub mod assessment;
pub mod exam;
pub mod one_question;
pub mod opening;
#[cfg(test)]
pub(crate) mod test_sessions;
pub mod tutor;

/// The reasons a mode's turn notes may give for a fallback, for `/metrics` to list them
/// before any occurs.
pub const TURN_FALLBACK_REASONS: &[&str] = crate::tutor::validate::FALLBACK_REASONS;

/// What a session started with `config` is, for its user's list and the rules that span
/// sessions.
pub fn label(config: &SessionConfig, ctx: StepContext<'_>) -> SessionLabel {
    match config {
        SessionConfig::Exam(config) => exam::mode::label(config),
        SessionConfig::Assessment(config) => assessment::mode::label(config, ctx),
        SessionConfig::Tutor(config) => tutor::mode::label(config, ctx),
        SessionConfig::OneQuestion(_) => one_question::label(),
    }
}

/// The side records a new session of `config` claims before it opens.
pub fn side_holds(config: &SessionConfig, user_id: &str, ctx: StepContext<'_>) -> Vec<SideHold> {
    match config {
        SessionConfig::Tutor(config) => tutor::mode::side_holds(config, user_id, ctx),
        SessionConfig::Exam(_) | SessionConfig::Assessment(_) | SessionConfig::OneQuestion(_) => {
            Vec::new()
        }
    }
}

/// Opens a new session of the configured mode; refuses a config it cannot run, naming what
/// is wrong.
pub fn open(
    config: SessionConfig,
    opening: Opening,
    ctx: StepContext<'_>,
) -> Result<SessionState, Refusal> {
    let thinking_pause_ms = config.thinking_pause_ms();
    if let Some(pause) = thinking_pause_ms
        && !THINKING_PAUSE_MS.contains(&pause)
    {
        let message = format!("thinking_pause_ms {pause} is outside 500 to 30000");
        return Err(Refusal::new(ErrorCode::InvalidConfig, message));
    }
    let mode: Box<dyn SessionMode> = match config {
        SessionConfig::Exam(config) => Box::new(exam::mode::open(config, &opening, ctx)?),
        SessionConfig::Assessment(config) => {
            Box::new(assessment::mode::open(&config, &opening, ctx)?)
        }
        SessionConfig::Tutor(config) => Box::new(tutor::mode::open(&config, &opening, ctx)?),
        SessionConfig::OneQuestion(config) => Box::new(one_question::open(config)?),
    };
    let mut life = Lifecycle::new(opening.session_id, opening.user_id, opening.now_ms);
    life.thinking_pause_ms = thinking_pause_ms;
    Ok(SessionState::new(life, mode))
}

/// Rebuilds a session from its checkpoint, checking every name it holds.
pub fn restore(checkpoint: SessionCheckpoint) -> Result<SessionState, InvalidCheckpoint> {
    let life = life_from_checkpoint(&checkpoint)?;
    let mode = restore_mode(&checkpoint.state, &checkpoint.transcript)
        .map_err(|reason| InvalidCheckpoint::new(&checkpoint.session_id, reason))?;
    Ok(SessionState::new(life, mode))
}

/// Rebuilds the mode of a checkpoint's section.
pub fn restore_mode(
    section: &ModeCheckpoint,
    transcript: &[TurnCheckpoint],
) -> Result<Box<dyn SessionMode>, String> {
    Ok(match section {
        ModeCheckpoint::Exam(exam) => Box::new(exam::snapshot::restore_exam(exam, transcript)?),
        ModeCheckpoint::Assessment(stored) => {
            Box::new(assessment::snapshot::restore_assessment(stored)?)
        }
        ModeCheckpoint::Tutor(stored) => {
            Box::new(tutor::snapshot::restore_tutor(stored, transcript)?)
        }
        ModeCheckpoint::OneQuestion(stored) => Box::new(one_question::restore(stored)),
    })
}
