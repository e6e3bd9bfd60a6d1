//! The session core: what every session is (lifecycle, phase, outbox) and what each mode adds
//! (an exam, an assessment), with their checkpoint forms. The `viva-actors` crate drives it.
//!
//! - [`admission`]: the durability state machine and `admit`, the one rule every arriving
//!   event passes.
//! - [`phase`]: the closed `Phase` enum and the one transition function.
//! - [`lifecycle`]: ids, phase, `seq`, outbox, pause and abandonment — shared by every mode.
//! - [`core`]: `ExamCore`, the session state, and `pending_work`, the rule of what to do next.
//! - [`transitions`]: the commands that change an `ExamCore`.
//! - [`snapshot`]: `ExamCore` ⇄ `SessionCheckpoint`.
//! - [`assessment`], [`assessment_flow`], [`assessment_snapshot`]: `AssessmentCore`, a
//!   blueprint assessment session, its commands and its checkpoint form.
//! - [`mode`]: `SessionMode`, the trait a mode implements, and `restore_mode`, the one place
//!   a mode's checkpoint form is registered; [`exam_mode`] and [`assessment_mode`] implement it.
//! - [`tutor_mode`], [`tutor_snapshot`]: `TutorCore`, a tutoring session over the embedded
//!   brain, and its checkpoint form (the student snapshot travels in it).
//! - [`state`]: `SessionState`, a lifecycle plus one mode, as the actor drives it.

pub mod admission;
pub mod assessment;
pub mod assessment_flow;
pub mod assessment_mode;
pub mod assessment_snapshot;
pub mod core;
pub mod exam_mode;
pub mod lifecycle;
pub mod mode;
pub mod phase;
pub mod snapshot;
pub mod state;
#[cfg(test)]
pub(crate) mod test_sessions;
pub mod transitions;
pub mod tutor_mode;
pub mod tutor_snapshot;
