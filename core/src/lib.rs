//! Viva's pure session logic: everything a session is and decides, with no runtime, no actors
//! and no filesystem. The actors (`viva-actors`) drive it; the edges (`viva-speech`,
//! `viva-llm`, `viva-redis-store`, the server) implement its port traits.
//!
//! Layout:
//! - [`exam`]: the IO-free exam engine — ACS data, queue building, planner, plan, grading,
//!   and the embedded examiner's text rules.
//! - [`examiner`]: the `Examiner` port (phrase, assess) and its embedded implementation.
//! - [`base`]: the words every layer shares: `Refusal`, `AnswerInput`, `ModeInput`,
//!   `Listening`.
//! - [`session`]: the session seam — lifecycle and phases shared by every mode, the
//!   `SessionMode` trait, side records and the rules that span sessions. Names no mode.
//! - [`modes`]: each mode (exam, assessment, tutor, one-question check) and the registry
//!   that opens and restores them.
//! - [`services`]: the libraries and models the modes read (`ModeServices`).
//! - [`checkpoint`]: the versioned checkpoint format and the `CheckpointStore`, `SwitchStore`
//!   and `NodeBus` ports, with an in-memory store.
//! - [`clock`]: the `Clock` port.
//! - [`review`]: spaced review across sessions: each element's history, the SM-2-like rule
//!   that schedules it, and how urgent an element is now (mode-free).
//! - [`voice`]: the `SpeechToText` port, voice activity and turn-taking, the decoding hint
//!   and the reading of spoken item answers.
//! - [`metrics`]: counters, gauges and histograms, rendered as Prometheus text.
//! - [`audit`]: the plan audit — one row per exam plan, computed from its checkpoint.
//! - [`tutor`]: the tutor's deterministic brain (in progress): student snapshot,
//!   prerequisite graph, priority, scoped units and the turn's policy.
//!
//! Invariant: nothing here awaits a runtime, spawns, sleeps or touches the filesystem; IO
//! reaches a session only through the port traits.
#![warn(missing_docs)]

pub mod audit;
pub mod base;
pub mod checkpoint;
pub mod clock;
pub mod exam;
pub mod examiner;
pub mod metrics;
pub mod modes;
pub mod review;
pub mod services;
pub mod session;
pub mod tutor;
pub mod voice;
