//! A whisper model loaded once, and the decoding states made from it: what the pool's
//! threads and the load tester's in-process decoders start from.

use std::ffi::c_int;
use std::path::Path;

use whisper_rs::{WhisperContext, WhisperContextParameters};

pub use whisper_rs::WhisperState;

/// Why the model could not be loaded, or a decoding state not made from it.
#[derive(Debug, thiserror::Error)]
#[error("cannot load the whisper model {path}: {reason}")]
pub struct LoadError {
    /// The model file.
    pub path: String,
    /// What whisper said.
    pub reason: String,
}

/// One whisper model: the weights, shared by every state made from it.
pub struct Model {
    context: WhisperContext,
    path: String,
}

impl Model {
    /// Loads the model file, with whisper.cpp's log routed to `tracing`.
    pub fn load(path: &Path) -> Result<Model, LoadError> {
        whisper_rs::install_logging_hooks();
        let loaded = WhisperContext::new_with_params(path, WhisperContextParameters::default());
        let path = path.display().to_string();
        match loaded {
            Ok(context) => Ok(Model { context, path }),
            Err(err) => Err(LoadError {
                path,
                reason: err.to_string(),
            }),
        }
    }

    /// A new decoding state: one per thread that decodes with this model.
    pub fn state(&self) -> Result<WhisperState, LoadError> {
        self.context.create_state().map_err(|err| LoadError {
            path: self.path.clone(),
            reason: err.to_string(),
        })
    }

    /// `count` decoding states (at least one).
    pub fn states(&self, count: usize) -> Result<Vec<WhisperState>, LoadError> {
        (0..count.max(1)).map(|_| self.state()).collect()
    }

    /// A hint as this model's prompt tokens ([`prompt_tokens`]).
    pub fn prompt_tokens(&self, hint: &str) -> Vec<c_int> {
        prompt_tokens(&self.context, hint)
    }
}

/// The most prompt tokens a hint may take (whisper keeps at most half its 448-token text
/// context for the prompt).
pub const MAX_PROMPT_TOKENS: usize = 128;

/// A hint as whisper's prompt tokens, at most [`MAX_PROMPT_TOKENS`]; none when it cannot be
/// tokenised (the decode then runs without context, as before hints existed).
pub fn prompt_tokens(context: &WhisperContext, hint: &str) -> Vec<std::ffi::c_int> {
    // A leading space: whisper's tokens for words that follow other text.
    let text = format!(" {}", hint.trim());
    // whisper refuses a text longer than the cap it is given: tokenise all, then keep the start.
    match context.tokenize(&text, 4 * MAX_PROMPT_TOKENS + text.len()) {
        Ok(mut tokens) => {
            tokens.truncate(MAX_PROMPT_TOKENS);
            tokens
        }
        Err(err) => {
            tracing::debug!(%err, "a hint could not be tokenised; decoding without it");
            Vec::new()
        }
    }
}
