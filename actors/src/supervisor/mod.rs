//! `UserSupervisor`: one actor per user on each node. It keeps the user's record (refreshed
//! from the store before every decision, and written by compare-and-set, so the one-active-
//! exam rule holds across nodes), pauses the device that loses the exam (here, or by a
//! notice to the node that holds it), and claims sessions from their checkpoints on resume.
//!
//! - [`actor`]: the actor, what supervisors share, and the reply to a start or resume;
//!   every other file imports it (never this one), so the files import in one direction.
//! - [`opening`]: a new session's first state.
//! - [`messages`]: the supervisor's messages.
//! - [`record`]: reading and updating the user record.
//! - [`takeover`]: start, resume and the pausing of the previous device.
//! - [`hibernation`]: a quiet session's actor stopped, and woken again.
//!
//! A new session is opened through `viva_core::modes` alone: the supervisor asks what it
//! is ([`modes::label`]), checks the rules that span the user's sessions against it, claims
//! the side records it names ([`modes::side_holds`]) and opens it ([`modes::open`]); it
//! never knows which mode it opened.

mod actor;
mod hibernation;
mod messages;
mod opening;
mod record;
mod takeover;

pub use crate::session::SessionFinished;
pub use actor::{
    Attached, SESSION_MAILBOX, SESSIONS_PER_USER, START_EVENT_IDS, SessionLimits, SupervisorDeps,
    UserSupervisor,
};
pub use hibernation::{HibernateSession, WakeSession};
pub use messages::{
    ConnectionClosed, Delivered, ElementRecords, ListSessions, ReadElementRecords, ReadResult,
    ResultLookup, ResumeSession, Retire, RetireIfIdle, StartSession,
};
