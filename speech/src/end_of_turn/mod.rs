//! Smart Turn v3.2, Pipecat's end-of-turn model.
//!
//! - [`features`]: the model's input, Whisper-style log-mel features of the last 8 s.

pub mod features;
