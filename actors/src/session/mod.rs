//! `LiveSession`: the actor that owns one live session (exam, assessment or tutoring). Handlers are
//! thin: each feeds the `SessionState`, writes a checkpoint at every committed boundary, and
//! only then sends what the state queued (so every `ack` follows a durable write).
//!
//! The actor holds its session by a claim (a fencing token, see `checkpoint`); each write
//! extends its node's lease, and it stops as soon as a write or a notice shows a newer claim.
//!
//! Files import in one direction: every file imports [`actor`] (the actor, what sessions
//! share, its start and stop) and the leaf files its fields hold ([`in_flight`],
//! [`phrasing_ahead`], [`voice_state`]); none imports this `mod.rs`, which only re-exports.
//! - [`drive`]: the work loop (assess, phrase, a mode's call, a step) and its commits.
//! - [`messages`], [`hibernate`], [`ownership`]: the messages a device and the supervisor send.
//! - [`commit`], [`side_records`]: checkpoint and side-record writes, with their retries.
//! - [`examining`], [`question_speculation`]: a slow examiner's calls off the mailbox.
//! - [`voice`], [`voice_final`]: spoken answers, fed to `SpokenTurns` and answered.
//! - [`speaking`]: the examiner's voice for a device that hears it, and barge-in.
//! - [`admission`], [`timers`]: who may act now, and the abandon and time-limit timers.

mod actor;
mod admission;
mod commit;
mod drive;
mod examining;
mod hibernate;
mod in_flight;
mod messages;
mod ownership;
mod phrasing_ahead;
mod question_speculation;
mod side_records;
mod speaking;
mod timers;
mod voice;
mod voice_final;
mod voice_judge;
mod voice_state;

pub use actor::{LiveSession, Ownership, SessionDeps, SessionFinished};
pub use examining::ExaminerReturned;
pub use hibernate::{Hibernate, Rejoin};
pub use messages::{
    AbandonCheck, Attach, Begin, Command, CommandOutcome, Detach, Inspect, SessionCommand,
    SessionView, Shutdown, TimeLimitCheck, Yield,
};
pub use ownership::{Evict, RetryCommit};
pub use question_speculation::QuestionSpeculated;
pub use voice::{Audio, AudioControl, Transcribed, VoiceTick};
