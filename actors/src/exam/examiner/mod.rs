//! The embedded (no-LLM) examiner: deterministic question phrasing and answer assessment.
//!
//! - `text`: tokens, stems, stopwords and synonyms down to canonical content terms.
//! - `stemmer`: the Porter2 (Snowball English) stemmer.
//! - `vocabulary`: the stopword list and the small aviation synonym table.
//! - `phrasing`: questions from an ACS element, by kind and difficulty.
//! - `assessor`: scores an answer by key-term coverage; credits other elements it covers.
//! - `judge`: an answer judged against the element's rubric: facts, values, negations, misconceptions, feedback.
//! - `coverage`: an element's key terms, and which of them an answer contains.
//! - `sources`: what to study for an element, from its task's references.

pub mod assessor;
pub mod coverage;
#[cfg(test)]
mod fixtures;
pub mod judge;
pub mod phrasing;
pub mod rubric_exam;
pub mod sources;
pub mod stemmer;
pub mod text;
pub mod vocabulary;

pub use assessor::{EmbeddedAssessment, KeyTerm, assess_answer, key_terms, source_summary};
pub use phrasing::phrase_question;
pub use text::content_terms;
