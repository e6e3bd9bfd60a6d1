//! The tutor's stored forms: its section of a session checkpoint, and the student snapshot
//! kept per user and course beyond any session (a side record, `SideStore`). Explicit serde types, like
//! the rest of the format; tiers are stored by name.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use viva_protocol::result::TutorResult;
use viva_protocol::tutor::TutorTurn;

use super::mode_format::GeneratedCheckpoint;

/// A student's snapshot of one course.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotRecord {
    /// The student.
    pub user_id: String,
    /// The course.
    pub course_id: String,
    /// The focus unit.
    pub focus_unit: String,
    /// Touched units.
    pub units: BTreeMap<String, UnitRecord>,
    /// Locked exam questions and when each unlocks, ms since the epoch.
    pub locks: BTreeMap<String, u64>,
    /// Units to revisit, oldest first.
    pub revisit: Vec<String>,
}

/// One unit's progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitRecord {
    /// `none`, `bronze`, `silver` or `gold`.
    pub tier: String,
    /// Drills tried at this tier.
    pub drill_attempts: u32,
    /// Drills right in a row.
    pub drill_streak: u32,
    /// When last worked on.
    pub last_touched_ms: Option<u64>,
    /// An exam question of the unit was answered or its memo opened.
    pub exam_touched: bool,
}

/// The tutor's section of a session checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TutorCheckpoint {
    /// The course.
    pub course_id: String,
    /// The session's seed (drills are generated from it).
    pub seed: u64,
    /// The student's snapshot as this session has it.
    pub snapshot: SnapshotRecord,
    /// This session's claim on the stored snapshot.
    pub fence: u64,
    /// Bumped at every change of the snapshot.
    pub revision: u64,
    /// The revision last written to the snapshot store.
    pub stored_revision: u64,
    /// The card waiting for the student.
    pub open: Option<OpenCardCheckpoint>,
    /// Drills drawn so far.
    pub drills_drawn: u32,
    /// The last exam question answered right.
    pub last_passed: Option<String>,
    /// The last exam question answered or whose memo closed its card (absent in checkpoints
    /// written before it was kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_answered: Option<String>,
    /// Counts for the result.
    pub tally: TallyCheckpoint,
    /// The last turn sent, resent to a resuming device.
    pub last_turn: Option<TutorTurn>,
    /// The result, once ended.
    pub result: Option<TutorResult>,
    /// A message acked and waiting for the model tutor (absent in checkpoints written before
    /// the model tutor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<String>,
    /// A rubric drill's answer acked and waiting for the examiner's verdict (absent in
    /// checkpoints written before model-judged drills).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_answer: Option<PendingAnswerCheckpoint>,
}

/// A rubric drill's answer waiting for the examiner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingAnswerCheckpoint {
    /// The student's words.
    pub text: String,
    /// `private` or `commercial`.
    pub rating: String,
    /// The drill's ACS element.
    pub element: String,
    /// The drill's question.
    pub ask: String,
}

/// A card waiting for the student.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OpenCardCheckpoint {
    /// A generated skill drill, with its key.
    SkillDrill {
        /// `d<n>`.
        drill_id: String,
        /// The unit.
        unit: String,
        /// The tier drilled.
        tier: String,
        /// The skill.
        skill_id: String,
        /// `easy`, `medium` or `hard`.
        difficulty: String,
        /// The item.
        item: GeneratedCheckpoint,
    },
    /// A rubric drill.
    RubricDrill {
        /// `d<n>`.
        drill_id: String,
        /// The unit.
        unit: String,
        /// The tier drilled.
        tier: String,
        /// The ACS element.
        element: String,
        /// The question asked.
        ask: String,
    },
    /// An exam question.
    Exam {
        /// The question.
        question_id: String,
    },
}

/// Counts for a tutoring session's result.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyCheckpoint {
    /// Drills checked.
    pub drills_checked: u32,
    /// Drills right.
    pub drills_right: u32,
    /// Exam answers submitted.
    pub exams_taken: u32,
    /// Exam answers that earned a tier.
    pub exams_passed: u32,
    /// Tiers earned: unit and tier name.
    pub tiers_earned: Vec<(String, String)>,
}
