//! The embedded (no-LLM) examiner: deterministic questions and answer assessment, from the
//! element's rubric where it has one.
//!
//! - `words`: text split into lowercase words with their spans.
//! - `text`: tokens, stems, stopwords and synonyms down to canonical content terms.
//! - `stemmer`: the Porter2 (Snowball English) stemmer.
//! - `vocabulary`: the stopword list and the small aviation synonym table.
//! - `phrasing`: questions from an ACS element, by kind and difficulty.
//! - `probe`: follow-ups that ask about what an answer left out without stating it, each
//!   checked by the judge (`judge::give_away`).
//! - `assessor`: scores an answer by key-term coverage (elements without a rubric).
//! - `judge`: an answer judged against the element's rubric: facts, values, negations,
//!   misconceptions, non-answers, feedback.
//! - `rubric_exam`: which rubric question to ask, which one an answer responds to, and the
//!   verdict with feedback.
//! - `coverage`: an element's key terms, and which of them an answer contains.
//! - `sources`: what to study for an element, from its task's references.

pub mod assessor;
pub mod coverage;
#[cfg(test)]
pub(crate) mod fixtures;
#[cfg(test)]
mod follow_up_audit;
pub mod judge;
pub mod phrasing;
pub mod probe;
pub mod rubric_exam;
pub mod sources;
pub mod stemmer;
pub mod text;
pub mod vocabulary;
mod words;

pub use assessor::{EmbeddedAssessment, KeyTerm, assess_answer, key_terms, source_summary};
pub use phrasing::phrase_question;
pub use text::content_terms;
