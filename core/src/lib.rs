//! Viva's pure session logic: everything a session is and decides, with no runtime, no actors
//! and no filesystem. The actors (`viva-actors`) drive it; the edges (`viva-speech`,
//! `viva-llm`, `viva-redis-store`, the server) implement its port traits.
//!
//! Layout:
//! - [`exam`]: the IO-free exam engine — ACS data, queue building, planner, plan, grading,
//!   and the embedded examiner's text rules.
//! - [`examiner`]: the `Examiner` port (phrase, assess) and its embedded implementation.
//! - [`session`]: the session core — lifecycle and phases shared by every mode, each mode's
//!   state and commands, and their checkpoint conversion.
//! - [`checkpoint`]: the versioned checkpoint format and the `CheckpointStore`, `SwitchStore`
//!   and `NodeBus` ports, with an in-memory store.
//! - [`clock`]: the `Clock` port.
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
pub mod checkpoint;
pub mod clock;
pub mod exam;
pub mod examiner;
pub mod metrics;
pub mod session;
pub mod tutor;
pub mod voice;
