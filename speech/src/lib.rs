//! Viva's speech side, apart from the actors so that whisper.cpp and its build stay at the
//! edge: the decoding pool implementing the actors' `SpeechToText` trait, the bounded job queue, voice
//! activity detection and turn-taking (pure), and the model set-up (download, convert,
//! verify).
//!
//! - [`stt`]: `WhisperPool`, one model shared by a bounded set of decoding threads.
//! - [`queue`]: the two-lane (finals before partials) bounded job queue.
#![warn(missing_docs)]

pub mod queue;
pub mod stt;

pub use stt::WhisperPool;
