//! The tutor's deterministic brain, pure : what a student knows of a
//! course, the course's prerequisite graph, which units a turn may touch and how they rank,
//! and the policy a tutor's reply is held to. No IO; every number is table-tested.
//!
//! - [`snapshot`]: `StudentSnapshot` — per user and course, sparse, cold start at the entry
//!   unit; mastery tiers and drill streaks per unit.
//! - [`graph`]: `LearningPathGraph` — units and prerequisites, checked for unknown units
//!   and cycles; `is_blocked` and the first blocker.
//! - [`priority`]: the priority score of a candidate unit.
//! - [`scope`]: candidate units and the scoped units of a turn.
//! - [`drill`]: a skill drill graded exactly, and the confusion tag from grading alone.
//! - [`mastery`]: drills and exam answers moving streaks and tiers.
//! - [`exams`]: lockouts and the exam questions available to a student.
//! - [`policy`]: the turn's policy: target, blocker, stuck, desired exam tier, exam ready,
//!   allowed actions and the reply's constraints.
//! - [`lite`]: `SnapshotLite`, what the tutor screen shows of the snapshot.
//! - [`validate`]: a reply held to the policy, and the fallback when it breaks a rule.
//! - [`bm25`]: a small BM25 over weighted fields, with a coverage score.
//! - [`retrieval`]: the embedded brain's mapping of a message to units, with a confidence.
//! - [`tiebreak`]: units a message names alike, ordered by specificity, focus and
//!   prerequisite order, and reported unsure.
//! - [`drawn`]: drills drawn for a session (skill items, rubric questions) and checked.
//! - [`brain`]: the embedded brain: one input in, one validated turn out.
//! - [`cards`]: each action's message and card, in the course's own words.
//! - [`library`]: the courses with their indexes, and the tutor settings.
//! - [`board`]: the progress board of a student's snapshot.
//! - [`grounding`]: what a model tutor is grounded in: anchors, content chunks, exam
//!   candidates, retrieved by the backend (PF-3.5).
//! - [`model`]: the model tutor's seam: its request, its proposal, the `TutorModel` port.
//! - [`wire`]: a client's `tutor.*` event read as the brain's input.

pub mod bm25;
pub mod board;
pub mod brain;
pub mod cards;
pub mod drawn;
pub mod drill;
pub mod exams;
pub mod graph;
pub mod grounding;
pub mod library;
pub mod lite;
pub mod mastery;
pub mod model;
pub mod policy;
pub mod priority;
pub mod retrieval;
pub mod scope;
pub mod snapshot;
#[cfg(test)]
pub(crate) mod test_courses;
pub mod tiebreak;
pub mod validate;
pub mod wire;
