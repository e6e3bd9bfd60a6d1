//! The exam engine: pure, IO-free planning, examining and grading of ACS oral exams.
//!
//! - [`acs`]: the ACS element and task records and their natural code order.
//! - [`queue`]: scope filters, oral eligibility and the study-mode orderings.
//! - [`planner`]: the planner cursor and the next-element rule.
//! - [`adaptive`]: adaptive difficulty — the level the next questions are asked at.
//! - [`progress`]: the user's review report per ACS area (`GET /v1/progress`).
//! - [`plan`]: ExamPlanV1 — question count, coverage, bonus and follow-up budgets.
//! - [`grading`]: the outcome rule and per-area counts.
//! - [`examiner`]: the embedded examiner — question phrasing and a deterministic assessor.
//! - [`rubrics`]: how the rubrics cover a catalog's oral-eligible elements.
//! - [`scenarios`]: which scenarios fit an exam, the rule that starts one, where it stands.
//! - [`bridges`]: what the examiner says when the topic changes (links, scenario setups).
//! - [`scenario_check`]: the checks of scenarios and links against the catalogs and rubrics.
//! - [`types`]: scores, question kinds and difficulties.

pub mod acs;
pub mod adaptive;
pub mod bridges;
pub mod examiner;
pub mod grading;
pub mod plan;
pub mod planner;
pub mod progress;
pub mod queue;
pub mod rubrics;
pub mod scenario_check;
pub mod scenarios;
#[cfg(test)]
pub(crate) mod test_scenarios;
pub mod types;
