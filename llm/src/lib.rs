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
//! - [`examiner`]: `LlmExaminer`, which phrases and assesses through the model and falls
//!   back to the embedded examiner's result on any failure, counting the reason.
//!
//! Still to come: the server's configuration and metrics, the previous topic and follow-up
//! count reaching the examiner, streaming `question.delta`, and the turn log.
#![warn(missing_docs)]

pub mod examiner;
pub mod grounding;
pub mod prompts;
pub mod provider;
pub mod rubric_check;
pub mod verdict;
