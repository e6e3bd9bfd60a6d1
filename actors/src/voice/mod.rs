//! Voice: what a session needs to take spoken answers — the speech-to-text boundary, voice
//! activity detection and turn-taking (pure, fed with samples, no clocks).
//!
//! - [`stt`]: the `SpeechToText` trait and its job types.

pub mod stt;

pub use stt::{DecodeError, DecodeJob, DecodeKind, Reply, SpeechToText, SubmitError};
