//! The voice benchmark (`viva-voice-bench`): speech-to-text accuracy and throughput, in
//! process and through a real `viva serve`, how spoken item answers are taken with hints and
//! repairs, end-of-speech latency, and the sessions one core can carry.
//!
//! - [`corpus`]: exam-like spoken answers, synthesised by festival and cached.
//! - [`voices`]: the speakers (festival, espeak-ng) and the clip cache; [`wav`]: reading clips.
//! - [`words`]: transcript normalisation and word error rate (pure).
//! - [`raw`]: whisper states decoding the corpus on threads — accuracy and the raw baseline.
//! - [`listening`]: spoken answers to generated items ([`items`], said per [`say`]), decoded
//!   with each hint variant ([`hinted`]), taken the old way and with repairs ([`verdict`]);
//!   free answers with the exam hint ([`exam_hints`]); summed in [`listening_report`]; the
//!   skills and rubrics read by [`blueprints`].
//! - [`aviation`]: the aviation phrase set and the free answers, word error raw, normalised
//!   and repaired by the aviation vocabulary, with and without the terms hint.
//! - [`server`]: a `viva serve` child, optionally pinned to a core.
//! - [`decode_log`]: the server's per-decode log lines, summed by kind (pure).
//! - [`client`]: one voice session over a WebSocket.
//! - [`throughput`]: clients sending clips as fast as the socket takes them.
//! - [`latency`]: end of speech → final at real-time pace, push-to-talk and end of turn.
//! - [`capacity`]: sessions at a fixed speaking duty cycle on one core, stepped up.
//! - [`think_aloud`]: whole answers with a pause inside, against adaptive end of turn.
//! - [`turn_rules`]: the end-of-turn rules it compares (the words, the model, both).
//! - [`cpu`]: how busy the machine, the bench and the server were, from `/proc` (pure parts).
//! - [`options`] and [`bench`](mod@bench): the command line and the run of the phases it asks for,
//!   with what every phase needs in [`setup`];
//!   [`live`]: the phases at a microphone's pace (latency, capacity).
//! - [`report`]: the JSON report and the human summary.

pub mod aviation;
pub mod bench;
pub mod blueprints;
pub mod capacity;
pub mod client;
pub mod corpus;
pub mod cpu;
pub mod decode_log;
pub mod exam_hints;
pub mod hinted;
pub mod items;
pub mod latency;
pub mod listening;
pub mod listening_report;
pub mod live;
pub mod options;
pub mod raw;
pub mod report;
pub mod say;
pub mod server;
pub mod setup;
pub mod think_aloud;
pub mod throughput;
pub mod turn_rules;
pub mod verdict;
pub mod voices;
pub mod wav;
pub mod words;

use crate::ws::WsError;

/// Why the benchmark could not go on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BenchError {
    /// A file or process operation failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The error.
        source: std::io::Error,
    },
    /// The corpus could not be made or read.
    #[error("corpus: {0}")]
    Corpus(String),
    /// whisper could not load a model or make a state.
    #[error("whisper: {0}")]
    Whisper(String),
    /// The server did not start, or misbehaved.
    #[error("server: {0}")]
    Server(String),
    /// A WebSocket step failed.
    #[error("websocket: {0}")]
    Ws(#[from] WsError),
}

impl From<viva_speech::model::LoadError> for BenchError {
    fn from(err: viva_speech::model::LoadError) -> BenchError {
        BenchError::Whisper(format!("{}: {}", err.path, err.reason))
    }
}

impl BenchError {
    /// Wraps an I/O error with what was being done.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> BenchError {
        let what = what.into();
        move |source| BenchError::Io { what, source }
    }
}
