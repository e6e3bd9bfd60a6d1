//! Viva's blueprint engine: assessments generated from skill blueprints instead of an item
//! bank. Pure and IO-free: callers hand it YAML text and get items, scores and verdicts.
//!
//! Layout:
//! - [`model`]: the YAML documents, with the design document's field names.
//! - [`expr`]: the safe Python-subset expression language (compiled once, bounded cost).
//! - [`skill`], [`assessment`]: compiling and validating documents; [`library`] loads them all.
//! - [`generate`]: one item from a skill, difficulty and seed; the backend computes the answer.
//! - [`plan`]: an assessment session's item plan.
//! - [`rubric`]: what an examiner knows about each ACS element (facts, sources, misconceptions).
//! - [`course`]: tutoring courses — units, prerequisites, drill sources, tiered exam questions.
//! - [`scenario`]: flight scenarios threading ACS elements, and links between elements.
//! - [`scoring`]: weighted percent, section results, grade band, pass or fail.
//! - [`normalize`]: typed and spoken answers to canonical form ("eighty five" → 85); its
//!   [`normalize::vocab`] is the one table of number words, and [`normalize::spell`] says
//!   numbers in them (85 → "eighty five").
//! - [`rng`]: the seeded PRNG everything reproducible uses.
//! - [`vocabulary`]: a domain's words and the repair of known mis-hearings of them.
//! - [`yaml`]: the YAML parser's options, and the line and column of a node by field path.
//! - [`error`]: load errors that name file, line, column and field.
#![warn(missing_docs)]

pub mod answer_set;
pub mod assessment;
pub mod course;
pub mod error;
pub mod expr;
pub mod generate;
mod ids;
pub mod library;
pub mod model;
pub mod normalize;
pub mod plan;
pub mod rng;
pub mod rubric;
pub mod scenario;
pub mod scoring;
pub mod skill;
mod source;
pub mod vocabulary;
pub mod yaml;
