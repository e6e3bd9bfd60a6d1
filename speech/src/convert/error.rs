//! Why a conversion failed.

use std::io;
use std::path::PathBuf;

/// Why a conversion failed. Every variant is terminal for the given input; only
/// [`ConvertError::Open`], [`ConvertError::Read`] and [`ConvertError::Write`] can succeed
/// on a retry, once the file system problem is fixed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// An input file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Open {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Reading `model.bin` failed part way (a truncated file, usually).
    #[error("cannot read the CTranslate2 model: {0}")]
    Read(#[from] io::Error),
    /// The output could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// `model.bin` is not a CTranslate2 model this converter can read.
    #[error("not a readable CTranslate2 model: {0}")]
    Format(String),
    /// The model is a CTranslate2 model, but not a Whisper one.
    #[error("not a Whisper model: CTranslate2 spec {0:?}")]
    NotWhisper(String),
    /// The model's weights are integers: whisper.cpp needs float weights.
    #[error(
        "{name} is stored as {dtype}: the model is quantized, and only float16 or float32 \
         CTranslate2 models can be converted (convert it again with --quantization float16)"
    )]
    Quantized {
        /// The first integer variable found.
        name: String,
        /// Its type (`i8`, `i16`, `i32`).
        dtype: String,
    },
    /// A variable the model must have is missing.
    #[error("the model has no {0}")]
    MissingVariable(String),
    /// A variable has an unexpected shape.
    #[error("{name} has shape {found:?}, expected {expected}")]
    Shape {
        /// The variable.
        name: String,
        /// Its shape.
        found: Vec<usize>,
        /// What it should have been.
        expected: String,
    },
    /// The key part of a fused attention bias is not zero, so it cannot be dropped.
    #[error("the key bias in {0} is not zero (whisper.cpp has no key bias)")]
    KeyBias(String),
    /// `vocabulary.txt` does not fit the model.
    #[error("bad vocabulary: {0}")]
    Vocabulary(String),
}
