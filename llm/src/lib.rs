//! Viva's LLM examiner, in progress (issue 7). What is here is the pure part, IO-free and
//! tested in place:
//!
//! - [`grounding`]: the contract appended in code to every examiner system prompt, and the
//!   fixed sentence for an assessment without sources.
//! - [`prompts`]: the minijinja templates of `prompts/`, compiled in, replaceable from a
//!   folder, and checked at load.
//! - [`verdict`]: the model's assessment checked against the exam plan (score, feedback,
//!   mention credit for pending elements only, the follow-up bound, one question at a time)
//!   and the JSON schema asked of the model.
//!
//! - [`provider`]: the model behind an OpenAI-compatible endpoint (async-openai), each call
//!   bounded by a permit and one timeout, made once.
//!
//! The examiner that falls back to the embedded one, streaming and the turn log come next.
#![warn(missing_docs)]

pub mod grounding;
pub mod prompts;
pub mod provider;
pub mod verdict;
