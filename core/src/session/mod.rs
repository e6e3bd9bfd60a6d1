//! The session seam: what every session is (lifecycle, phase, outbox), the trait a mode
//! implements, and the rules that span sessions. Nothing here names a mode; the modes and
//! their registry live in [`crate::modes`], and the `viva-actors` crate drives both through
//! [`state::SessionState`].
//!
//! - [`ahead`]: `QuestionAhead`, the question a slow examiner phrases while the candidate
//!   answers, and what it offers the question asked next.
//! - [`admission`]: the durability state machine and `admit`, the one rule every arriving
//!   event passes.
//! - [`phase`]: the closed `Phase` enum and the one transition function.
//! - [`lifecycle`]: ids, phase, `seq`, outbox and turn notes, pause and abandonment.
//! - [`mode`]: `SessionMode`, the trait a mode implements, and the work it asks for.
//! - [`state`]: `SessionState`, a lifecycle plus one mode, as the actor drives it.
//! - [`snapshot`]: a session ⇄ its checkpoint, for the shared part.
//! - [`side`]: side records (a student's snapshot), held, claimed and written generically.
//! - [`rules`]: rules that span a user's sessions, as data (no tutoring beside an
//!   evaluation).

pub mod admission;
pub mod ahead;
pub mod lifecycle;
pub mod mode;
pub mod phase;
pub mod rules;
pub mod side;
pub mod snapshot;
pub mod state;
