//! Viva's actors and the pure exam logic they own.
//!
//! Layout:
//! - [`exam`]: the IO-free exam engine — ACS data, queue building, planner, plan, grading,
//!   and the embedded examiner's text rules.
//! - [`examiner`]: the `Examiner` trait (phrase, assess) and its embedded implementation.
//! - [`session`]: one exam session — lifecycle phases, the pure `ExamCore`, its checkpoint
//!   conversion, and the `ExamSession` actor.
//! - [`supervisor`]: `UserSupervisor`, one per user: one active exam, device takeover, resume.
//! - [`directory`]: user id → supervisor, with reaping and shutdown.
//! - [`new_sessions`]: the operator's switch that stops new sessions (running ones go on).
//! - [`checkpoint`]: the versioned checkpoint format and the `CheckpointStore` trait, with the
//!   embedded file store.
//! - [`link`]: the bounded outbound queue of one connection.
//! - [`clock`]: wall-clock time behind a trait.
//! - [`voice`]: the speech-to-text boundary, voice activity and turn-taking.
//! - [`metrics`]: the counters, gauges and histograms behind `GET /metrics`.
//! - [`audit`]: the plan audit — one row per exam plan, computed from its checkpoint.
//!
//! Invariant: this crate never imports axum or a Redis client; IO reaches it only through
//! `CheckpointStore`, `Examiner`, `Clock` and `DeviceLink`.
#![warn(missing_docs)]

pub mod audit;
pub mod checkpoint;
pub mod clock;
pub mod directory;
pub mod exam;
pub mod examiner;
pub mod link;
pub mod metrics;
pub mod new_sessions;
pub mod session;
pub mod supervisor;
pub mod voice;
