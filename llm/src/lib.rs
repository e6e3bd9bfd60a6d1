//! Viva's LLM examiner: a model behind an OpenAI-compatible endpoint phrases questions and
//! assesses answers as strict JSON, held to the plan in code, with the embedded examiner's
//! result taking over on any failure (no retry).
//!
//! - [`grounding`]: the contract appended in code to every examiner system prompt, and the
//!   fixed sentence for an assessment without sources.
//! - [`json_stream`]: a JSON reply read while it streams in (one string field's words, and
//!   the complete value of a field written before it).
//! - [`prompts`]: the minijinja templates of `prompts/`, compiled in, replaceable from a
//!   folder, and checked at load.
//! - [`verdict`]: the model's assessment checked against the exam plan (score, feedback,
//!   mention credit for pending elements only, the follow-up bound, one question at a time)
//!   and the JSON schema asked of the model.
//! - [`rubric_check`]: the model's fact-by-fact findings, every quote checked in code.
//! - [`provider`]: the model behind an OpenAI-compatible endpoint (async-openai), each call
//!   bounded by a permit and one timeout, made once.
//! - [`examiner`]: `LlmExaminer`, which phrases and assesses through the model and falls
//!   back to the embedded examiner's result on any failure, counting the reason.
//! - [`tutor`]: `LlmTutor`, the model tutor: one call per turn, held to the policy, the
//!   brain's own turn on any failure.
//! - [`tutor_prompt`]: the model tutor's prompt bundle: fixed rules first, then the POLICY
//!   and CONTEXT JSON built in code and the student's input.
//! - [`tutor_reply`]: the model tutor's reply held to the turn's policy in code, and the
//!   JSON schema built from that policy.
//! - [`metrics`]: `LlmMetrics`, the series the examiner reports for every call it makes.
#![warn(missing_docs)]

mod call_log;
pub mod examiner;
pub mod grounding;
pub mod json_stream;
pub mod metrics;
pub mod prompts;
pub mod provider;
pub mod rubric_check;
pub mod tutor;
pub mod tutor_prompt;
pub mod tutor_reply;
pub mod verdict;
