//! Viva's actors: one `LiveSession` per live session and one `UserSupervisor` per user, the
//! directory that finds them. The session logic they drive is
//! `viva-core`'s; these modules hold only mailboxes, timers, tasks and the wiring.
//!
//! Layout:
//! - [`session`]: `LiveSession`, the thin actor around a `viva_core::session::state::SessionState`.
//! - [`supervisor`]: `UserSupervisor`, one per user: one active exam, device takeover, resume.
//! - [`directory`]: user id → supervisor, with reaping and shutdown.
//! - [`hibernation`]: what a node keeps of a session stopped while its device was idle.
//! - [`new_sessions`]: the operator's switch that stops new sessions (running ones go on).
//! - [`link`]: the bounded outbound queue of one connection.
//! - [`voice_lane`]: the examiner's voice on one connection: its queue and open utterance.
//! - [`stall`]: riding out a storage stall with bounded waits before an error is reported.
//! - [`metrics`]: `SessionMetrics`, the series the session actors report.
//! - [`timer`]: the one timer idiom — tell an actor a message later, or every period.
//!
//! Invariant: this crate never imports axum or a Redis client; IO reaches it only through
//! `viva-core`'s ports (`CheckpointStore`, `Examiner`, `Clock`, `SpeechToText`) and
//! `DeviceLink`.
#![warn(missing_docs)]

pub mod directory;
pub mod hibernation;
pub mod link;
pub mod metrics;
pub mod new_sessions;
pub mod session;
pub mod stall;
pub mod supervisor;
pub mod timer;
pub mod voice_lane;
