//! Each built-in mode's section of a checkpoint, as stored: the exam's plan, planner, next
//! step and open question; the assessment's items, responses and generated items (which
//! tutoring's drills reuse). Explicit serde types, like the rest of the format.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use viva_protocol::config::ExamConfig;
use viva_protocol::difficulty::{Level, LevelSpan};
use viva_protocol::result::{AssessmentResult, ExamResult};

/// The exam part of a checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExamCheckpoint {
    /// The `session.start` config.
    pub config: ExamConfig,
    /// The seed used for ordering.
    pub seed: u64,
    /// The plan.
    pub plan: PlanCheckpoint,
    /// The planner.
    pub planner: PlannerCheckpoint,
    /// What follows the last assessment, until it is done.
    pub next_step: Option<NextStepCheckpoint>,
    /// Questions asked so far, follow-ups included.
    pub questions_asked: u32,
    /// Answers committed so far.
    pub answered: u32,
    /// The open question.
    pub open_question: Option<OpenQuestionCheckpoint>,
    /// The graded result, once completed.
    pub result: Option<ExamResult>,
    /// When each answered element was last assessed (the session clock); absent in
    /// checkpoints written before the review history.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub assessed_at_ms: BTreeMap<String, u64>,
    /// A checkride's elements left unsatisfactory, to come back to once before the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub come_back: Vec<String>,
    /// A checkride's elements already come back to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub came_back: Vec<String>,
    /// The level in force, when the difficulty is adaptive (absent otherwise, and in
    /// checkpoints written before adaptive difficulty existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adaptive: Option<AdaptiveCheckpoint>,
    /// The exam's scenarios, when its config turns them on (absent otherwise, and in
    /// checkpoints written before scenarios existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenarios: Option<ScenarioPlanCheckpoint>,
}

/// An adaptive exam's level as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdaptiveCheckpoint {
    /// The level the next new question is asked at.
    pub level: Level,
    /// Final scores of the elements settled at that level since it came into force, oldest
    /// first.
    #[serde(default)]
    pub at_level: Vec<String>,
    /// Each level questions were asked at, with the number of the first asked at it.
    #[serde(default)]
    pub asked: Vec<LevelSpan>,
}

/// `ScenarioPlan` as stored: the scenarios that fit, the one running, those done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioPlanCheckpoint {
    /// Each fitting scenario's id and its elements in scope, in order.
    pub outlines: Vec<ScenarioOutlineCheckpoint>,
    /// The scenario under way.
    #[serde(default)]
    pub running: Option<RunningScenarioCheckpoint>,
    /// Scenarios that ran, in order.
    #[serde(default)]
    pub finished: Vec<String>,
}

/// One fitting scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioOutlineCheckpoint {
    /// Its id.
    pub id: String,
    /// Its elements in scope, in order.
    pub elements: Vec<String>,
}

/// The scenario under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunningScenarioCheckpoint {
    /// Its id.
    pub id: String,
    /// Where the next scan of its elements starts.
    pub next: usize,
    /// Its questions asked so far.
    pub asked: u32,
}

/// ExamPlanV1 as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlanCheckpoint {
    /// Plan layout version.
    pub version: u32,
    /// Questions planned.
    pub planned_question_count: u32,
    /// Elements asked.
    pub asked_count: u32,
    /// Bonus questions granted.
    pub bonus_used: u32,
    /// Bonus budget.
    pub bonus_max: u32,
    /// Follow-up budget per element.
    pub follow_up_max_per_element: u32,
    /// Whether the next new element is a bonus question.
    pub bonus_pending: bool,
    /// Follow-ups per element.
    pub follow_ups: BTreeMap<String, u32>,
    /// Coverage per element.
    pub coverage: BTreeMap<String, String>,
    /// Latest score per element.
    pub scores: BTreeMap<String, String>,
}

/// PlannerState as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannerCheckpoint {
    /// Planner layout version.
    pub version: u32,
    /// Element codes in order.
    pub queue: Vec<String>,
    /// Next scan position.
    pub cursor: usize,
    /// Recent window, oldest first.
    pub recent: Vec<String>,
    /// Questions per element.
    pub attempts: BTreeMap<String, u32>,
}

/// What follows an assessment, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextStepCheckpoint {
    /// `follow_up`, `primary`, `bonus` or `finish`.
    pub step: String,
    /// The element of a follow-up.
    pub element_code: Option<String>,
    /// Readable terms a follow-up asks about.
    #[serde(default)]
    pub missing_terms: Vec<String>,
}

/// The open question as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenQuestionCheckpoint {
    /// Question id.
    pub question_id: String,
    /// The element asked about.
    pub element_code: String,
    /// `primary`, `follow_up` or `bonus`.
    pub kind: String,
    /// 1-based number.
    pub number: u32,
    /// The words asked.
    pub text: String,
    /// A committed answer not yet assessed.
    pub pending_answer: Option<String>,
    /// The scenario it comes from, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// A follow-up's missing terms, which its answer is judged on (absent in checkpoints
    /// written before issue 36, and for any other question).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_terms: Vec<String>,
}

/// The assessment part of a checkpoint, answer keys included (checkpoints never leave the
/// server).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AssessmentCheckpoint {
    /// The assessment blueprint.
    pub assessment_id: String,
    /// Learning or evaluation.
    pub learning: bool,
    /// The session seed.
    pub seed: u64,
    /// When the time limit runs out; `None` (written as `null`) for an untimed assessment.
    /// Checkpoints written before untimed assessments existed hold a number, read as `Some`.
    #[serde(default)]
    pub deadline_ms: Option<u64>,
    /// The open item.
    pub current: Option<usize>,
    /// A committed, unjudged answer.
    pub pending: Option<PendingCheckpoint>,
    /// Every slot.
    pub items: Vec<ItemCheckpoint>,
    /// The result, once completed.
    pub result: Option<AssessmentResult>,
}

/// A committed, unjudged answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingCheckpoint {
    /// `text`, `choice` or `skip`.
    pub kind: String,
    /// The text of a text answer.
    pub text: Option<String>,
    /// The index of a choice.
    pub index: Option<u32>,
    /// When it was committed.
    pub at_ms: u64,
}

/// One slot of an assessment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemCheckpoint {
    /// Section.
    pub section_id: String,
    /// Skill.
    pub skill_id: String,
    /// Difficulty.
    pub difficulty: String,
    /// The plan's seed for the slot.
    pub plan_seed: u64,
    /// The generated item, once asked.
    pub item: Option<GeneratedCheckpoint>,
    /// When it was shown.
    pub asked_at_ms: Option<u64>,
    /// The response, once judged.
    pub response: Option<ResponseCheckpoint>,
}

/// A generated item, with its key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneratedCheckpoint {
    /// The seed that generated it.
    pub seed: u64,
    /// Parameters and computed values.
    pub parameters: Vec<(String, String)>,
    /// Stem.
    pub stem: String,
    /// Options.
    pub options: Vec<String>,
    /// The key's index.
    pub answer_index: usize,
    /// The key.
    pub answer: String,
    /// The explanation.
    pub explanation: Option<String>,
    /// The mistake beside each option (absent in checkpoints written before they were
    /// kept: then unknown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub option_mistakes: Vec<Option<String>>,
}

/// A judged response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResponseCheckpoint {
    /// What was given.
    pub given: Option<String>,
    /// Correct or not.
    pub correct: bool,
    /// Skipped or not.
    pub skipped: bool,
    /// When.
    pub answered_at_ms: u64,
}
