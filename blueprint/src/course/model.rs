//! The course YAML documents, with the design document's field names (snake_case).

use serde::Deserialize;

/// A course file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CourseDoc {
    /// `ARITHMETIC`, `PPL-GROUND`.
    pub course_id: String,
    /// Shown to students.
    pub title: String,
    /// Where a new student starts.
    pub entry_unit: String,
    /// The units, in the course's order.
    pub units: Vec<Unit>,
    /// Prerequisite edges.
    #[serde(default)]
    pub prerequisites: Vec<Edge>,
    /// Drill sources.
    #[serde(default)]
    pub drills: Vec<Drill>,
    /// Tiered exam questions.
    #[serde(default)]
    pub exam_questions: Vec<ExamQuestion>,
}

/// One unit of a course.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Kebab-case, unique in the course.
    pub unit_id: String,
    /// Shown to students.
    pub title: String,
    /// What the unit is about: retrieval and Socratic questions start from it.
    pub anchor: String,
    /// Search words.
    #[serde(default)]
    pub tags: Vec<String>,
    /// What students typically get wrong.
    #[serde(default)]
    pub misconceptions: Vec<String>,
    /// Ideas for a concept card (1–3).
    pub key_ideas: Vec<String>,
    /// At most one worked example.
    #[serde(default)]
    pub worked_example: Option<String>,
}

/// `before` is learned before `unit`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edge {
    /// The unit that needs it.
    pub unit: String,
    /// The unit to learn first.
    pub before: String,
}

/// Where a unit's drills come from: a skill blueprint, or an element rubric's questions.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Drill {
    /// The unit.
    pub unit: String,
    /// A skill blueprint, generated at the tier's difficulty.
    #[serde(default)]
    pub skill_id: Option<String>,
    /// An ACS element whose rubric's questions are asked and assessed.
    #[serde(default)]
    pub rubric_element: Option<String>,
}

/// An exam tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExamTier {
    /// The first tier.
    Bronze,
    /// The second.
    Silver,
    /// The top tier.
    Gold,
}

impl ExamTier {
    /// Every tier, in order.
    pub const ALL: [ExamTier; 3] = [ExamTier::Bronze, ExamTier::Silver, ExamTier::Gold];

    /// The name in course files.
    pub fn as_str(self) -> &'static str {
        match self {
            ExamTier::Bronze => "bronze",
            ExamTier::Silver => "silver",
            ExamTier::Gold => "gold",
        }
    }
}

/// A multiple-choice exam question with its key and memo.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExamQuestion {
    /// Unique in the course.
    pub question_id: String,
    /// The unit.
    pub unit: String,
    /// The tier.
    pub tier: ExamTier,
    /// The question.
    pub stem: String,
    /// 2–6 options.
    pub options: Vec<String>,
    /// The key's 0-based index (never sent to a client before an answer).
    pub answer_index: usize,
    /// Support material shown after an answer.
    pub memo: String,
}
