//! One exam session: its lifecycle, its pure core, its checkpoint form, and its actor.
//!
//! - [`phase`]: the closed `Phase` enum and the one transition function.
//! - [`core`]: `ExamCore`, the session state, and `pending_work`, the rule of what to do next.
//! - [`transitions`]: the commands that change an `ExamCore`.
//! - [`snapshot`]: `ExamCore` ⇄ `SessionCheckpoint`.
//! - [`actor`]: `ExamSession`, the thin actor around an `ExamCore`.

pub mod actor;
pub mod core;
pub mod phase;
pub mod snapshot;
pub mod transitions;
