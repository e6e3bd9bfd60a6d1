//! Tutoring on the wire: the student's card events, the tutor's turn with its cards, the
//! `SnapshotLite` beside every turn, and the progress board of `GET /v1/tutor/{course_id}/progress`.
//!
//! The design document ("AI-Tutor-2.0") names the card events in upper case (`REQUEST_DRILL`,
//! `DRILL_CONTINUE`, `EXAM_CONTINUE`); on the wire they are `tutor.*` types in snake_case,
//! like every other event, and so are the document's field names.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `tutor.message`: what the student says or types to the tutor.
///
/// # Format
/// ```json
/// {"type": "tutor.message", "text": "how do I find the network address?"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TutorMessage {
    /// The student's words.
    pub text: String,
}

/// `tutor.request_drill` (`REQUEST_DRILL`): a drill on a unit, by default the focus unit.
///
/// # Format
/// ```json
/// {"type": "tutor.request_drill", "unit_id": "network-address"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct RequestDrill {
    /// The unit; the focus unit when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_id: Option<String>,
}

/// `tutor.drill_check`: the answer to the open drill card (its Check button). `answer.text`
/// and `answer.choice`, and a spoken answer, answer the open drill too.
///
/// # Format
/// ```json
/// {"type": "tutor.drill_check", "drill_id": "d3", "text": "192.168.1.64"}
/// ```
/// ```json
/// {"type": "tutor.drill_check", "drill_id": "d3", "index": 2}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DrillCheck {
    /// The open drill.
    pub drill_id: String,
    /// A typed answer (an option letter, or the value itself).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A chosen option, 0-based.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
}

/// `tutor.exam_submit`: the answer to the open exam question.
///
/// # Format
/// ```json
/// {"type": "tutor.exam_submit", "question_id": "SUB-B1", "index": 1}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ExamSubmit {
    /// The open exam question.
    pub question_id: String,
    /// The chosen option, 0-based.
    pub index: u32,
}

/// `tutor.memo_viewed`: the student opened an exam question's memo. Unless that question
/// was just answered right, it is locked for the lockout (24 h by default).
///
/// # Format
/// ```json
/// {"type": "tutor.memo_viewed", "question_id": "SUB-B1"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MemoViewed {
    /// The question.
    pub question_id: String,
}

/// `tutor.turn`: the tutor's reply, as timeline messages with their cards, and the student's
/// `SnapshotLite` after it.
///
/// # Format
/// ```json
/// {"type": "tutor.turn", "seq": 4, "turn": 2, "action": "drill",
///  "target_unit": "add-within-100",
///  "messages": [{"role": "tutor", "text": "Try this one.",
///    "card": {"kind": "drill", "drill_id": "d1", "unit_id": "add-within-100",
///             "tier": "bronze", "prompt": "What is 23 + 45?",
///             "options": ["68", "58", "78", "69"], "source": "skill"}}],
///  "snapshot": {"focus_unit": "add-within-100", "focus_title": "Adding within 100",
///    "focus_tier": "none", "revisit": [], "revisit_more": 0,
///    "counts": {"none": 12, "bronze": 0, "silver": 0, "gold": 0}, "locks": []}}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TutorTurn {
    /// The turn's number in the session, from 1.
    pub turn: u32,
    /// What the tutor did.
    pub action: TurnAction,
    /// The unit the turn is about.
    pub target_unit: String,
    /// The timeline messages of this turn, in order.
    pub messages: Vec<TimelineMessage>,
    /// The student's snapshot after the turn.
    pub snapshot: SnapshotLite,
    /// The policy and candidate scores behind the turn: only from a server in development
    /// mode (`[tutor] debug_view`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debug: Option<PolicyDebug>,
}

/// `tutor.delta`: a piece of the tutor's words while a model tutor is still writing them.
/// Sent only when a model tutor is configured, as the model writes; a reply is dropped (no
/// more deltas) as soon as it writes an action, target or exam question that the turn's
/// policy forbids.
///
/// Deltas are a preview, without `seq`, and never replayed on resume. Appending the `text`
/// of a turn's deltas in order gives the words so far. The `tutor.turn` that follows, with
/// the same `turn`, is authoritative: its messages replace whatever the deltas showed, and
/// they differ from them when the model's reply broke a rule and the embedded tutor's turn
/// is used instead.
///
/// # Format
/// ```json
/// {"type": "tutor.delta", "turn": 4, "text": " make ten first"}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TutorDelta {
    /// The turn being written; the `tutor.turn` that follows carries the same number.
    pub turn: u32,
    /// The next piece of text, to append.
    pub text: String,
}

/// What the tutor did in a turn (the policy's actions, and the results of cards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnAction {
    /// Asked a guiding question from the unit's anchor.
    SocraticQuestion,
    /// Gave a drill card.
    Drill,
    /// Gave a concept card (the student is stuck).
    ConceptCard,
    /// Pointed to the prerequisite to learn first.
    PrerequisiteNudge,
    /// Gave an exam question.
    Exam,
    /// Checked a drill answer.
    DrillResult,
    /// Checked an exam answer, or locked a question whose memo was viewed.
    ExamResult,
}

impl TurnAction {
    /// The name on the wire and in metrics.
    pub fn as_str(self) -> &'static str {
        match self {
            TurnAction::SocraticQuestion => "socratic_question",
            TurnAction::Drill => "drill",
            TurnAction::ConceptCard => "concept_card",
            TurnAction::PrerequisiteNudge => "prerequisite_nudge",
            TurnAction::Exam => "exam",
            TurnAction::DrillResult => "drill_result",
            TurnAction::ExamResult => "exam_result",
        }
    }

    /// Every action's name, for metrics.
    pub const NAMES: &'static [&'static str] = &[
        "socratic_question",
        "drill",
        "concept_card",
        "prerequisite_nudge",
        "exam",
        "drill_result",
        "exam_result",
    ];

    /// Every action, for metrics.
    pub const ALL: [TurnAction; 7] = [
        TurnAction::SocraticQuestion,
        TurnAction::Drill,
        TurnAction::ConceptCard,
        TurnAction::PrerequisiteNudge,
        TurnAction::Exam,
        TurnAction::DrillResult,
        TurnAction::ExamResult,
    ];
}

/// One message of the tutor's timeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TimelineMessage {
    /// Always `tutor` from the server.
    pub role: String,
    /// What the tutor says (at most 170 words).
    pub text: String,
    /// The card shown under the message, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<Card>,
}

/// A card of the tutor's timeline, tagged by `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Card {
    /// A guiding question on a unit.
    SocraticQuestion {
        /// The unit.
        unit_id: String,
        /// Its title.
        unit_title: String,
    },
    /// The unit's key ideas (at most 3) and at most one worked example.
    ConceptCard {
        /// The unit.
        unit_id: String,
        /// Its title.
        title: String,
        /// Key ideas.
        key_ideas: Vec<String>,
        /// A worked example.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        worked_example: Option<String>,
    },
    /// Learn this prerequisite first.
    PrerequisiteNudge {
        /// The unit asked about.
        unit_id: String,
        /// The first prerequisite still at tier none.
        prerequisite_id: String,
        /// Its title.
        prerequisite_title: String,
        /// Where to start: the first unit down that prerequisite's own chain that needs
        /// nothing else first (the student's new focus).
        start_id: String,
    },
    /// A generated drill; its key stays on the server.
    Drill {
        /// `d1`, `d2`, … in the session.
        drill_id: String,
        /// The unit.
        unit_id: String,
        /// The tier it is drilled at.
        tier: String,
        /// The question.
        prompt: String,
        /// Options to choose from; empty for a free answer (a rubric drill).
        options: Vec<String>,
        /// `skill` (graded exactly) or `rubric` (assessed against the element's rubric).
        source: String,
    },
    /// A drill answer, checked.
    DrillResult {
        /// The drill.
        drill_id: String,
        /// Right or not.
        correct: bool,
        /// What the tutor says about it: the key and its explanation, or what was missing.
        feedback: String,
        /// The mistake behind a wrong answer, from grading only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        confusion: Option<String>,
        /// The unit's drill streak now.
        streak: u32,
    },
    /// A multiple-choice exam question of a tier.
    Exam {
        /// The question.
        question_id: String,
        /// The unit.
        unit_id: String,
        /// `bronze`, `silver` or `gold`.
        tier: String,
        /// The question.
        stem: String,
        /// Its options.
        options: Vec<String>,
        /// The unit's other questions of this tier that are locked, with their countdowns.
        locked: Vec<LockShown>,
    },
    /// An exam answer, checked (or a memo viewed).
    ExamResult {
        /// The question.
        question_id: String,
        /// Right or not (`false` when only the memo was viewed).
        correct: bool,
        /// The question's support material.
        memo: String,
        /// Seconds until the question may be taken again, when it is now locked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        locked_seconds: Option<u64>,
        /// The tier the unit reached with this answer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tier_earned: Option<String>,
    },
}

/// What the tutor screen shows of the student's snapshot (PV-AI-019).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SnapshotLite {
    /// The focus unit.
    pub focus_unit: String,
    /// Its title.
    pub focus_title: String,
    /// Its tier badge: `none`, `bronze`, `silver` or `gold`.
    pub focus_tier: String,
    /// The focus unit's first prerequisite at tier none, to learn first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prerequisite_nudge: Option<String>,
    /// Units to come back to, oldest first (at most 3).
    pub revisit: Vec<String>,
    /// How many more are on the revisit list.
    pub revisit_more: u32,
    /// Units at each tier.
    pub counts: TierCounts,
    /// Locked exam questions, soonest to unlock first.
    pub locks: Vec<LockShown>,
    /// The focus unit's streak of right drills.
    #[serde(default)]
    pub focus_drill_streak: u32,
    /// This session's drills so far (in a session's turns; absent elsewhere), so any device
    /// that resumes shows the same count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drills: Option<DrillTally>,
}

/// A tutoring session's drills so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct DrillTally {
    /// Drills checked.
    pub checked: u32,
    /// Drills right.
    pub right: u32,
}

/// Units at each tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct TierCounts {
    /// At none (untouched included).
    pub none: u32,
    /// At bronze.
    pub bronze: u32,
    /// At silver.
    pub silver: u32,
    /// At gold.
    pub gold: u32,
}

/// A locked exam question and its countdown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LockShown {
    /// The question.
    pub question_id: String,
    /// Whole seconds until it unlocks, rounded up.
    pub seconds_left: u64,
}

/// The policy behind a turn (PV-AI-025), for developers only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PolicyDebug {
    /// Units the student's message mapped to, with the retrieval's confidence.
    pub mapped: Vec<ScoredUnit>,
    /// Scoped units with their priority scores, highest first.
    pub candidates: Vec<ScoredUnit>,
    /// The policy's target unit.
    pub target: String,
    /// The first prerequisite of the target still at tier none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocker: Option<String>,
    /// Drill attempts ≥ 2 with a streak of 0.
    pub stuck: bool,
    /// The tier an exam would be at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired_exam_tier: Option<String>,
    /// Whether an exam may be given.
    pub exam_ready: bool,
    /// Allowed actions.
    pub allowed_actions: Vec<String>,
    /// Why the proposed reply was replaced, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
}

/// A unit with a number (a confidence or a priority score).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScoredUnit {
    /// The unit.
    pub unit_id: String,
    /// The number, in [0, 1].
    pub score: f64,
}

/// `GET /v1/tutor/{course_id}/progress`: the user's progress board.
///
/// # Format
/// ```json
/// {"course_id": "ARITHMETIC", "title": "Arithmetic", "focus_unit": "add-within-100",
///  "units": [{"unit_id": "add-within-100", "title": "Adding within 100", "tier": "bronze",
///             "drill_streak": 0, "drill_attempts": 0, "blocked_by": null}],
///  "revisit": [], "counts": {"none": 11, "bronze": 1, "silver": 0, "gold": 0}, "locks": []}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProgressBoard {
    /// The course.
    pub course_id: String,
    /// Its title.
    pub title: String,
    /// The student's focus unit.
    pub focus_unit: String,
    /// Every unit, in course order.
    pub units: Vec<UnitBoard>,
    /// Units to revisit, oldest first.
    pub revisit: Vec<String>,
    /// Units at each tier.
    pub counts: TierCounts,
    /// Locked exam questions.
    pub locks: Vec<LockShown>,
}

/// One unit on the progress board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnitBoard {
    /// The unit.
    pub unit_id: String,
    /// Its title.
    pub title: String,
    /// Its tier.
    pub tier: String,
    /// Drills right in a row.
    pub drill_streak: u32,
    /// Drills tried at this tier.
    pub drill_attempts: u32,
    /// The first prerequisite still at tier none.
    pub blocked_by: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_name_themselves_on_the_wire() {
        for (action, name) in TurnAction::ALL.into_iter().zip(TurnAction::NAMES) {
            let json = serde_json::to_value(action).unwrap();
            assert_eq!(json, action.as_str());
            assert_eq!(action.as_str(), *name);
        }
    }

    #[test]
    fn the_documented_turn_and_board_decode() {
        let turn = r#"{"turn": 2, "action": "drill", "target_unit": "a",
            "messages": [{"role": "tutor", "text": "Try this one.",
              "card": {"kind": "drill", "drill_id": "d1", "unit_id": "a", "tier": "bronze",
                       "prompt": "What is 23 + 45?", "options": ["68", "58"], "source": "skill"}}],
            "snapshot": {"focus_unit": "a", "focus_title": "A", "focus_tier": "none",
              "revisit": [], "revisit_more": 0,
              "counts": {"none": 12, "bronze": 0, "silver": 0, "gold": 0}, "locks": []}}"#;
        let turn: TutorTurn = serde_json::from_str(turn).unwrap();
        assert_eq!(turn.action, TurnAction::Drill);
        assert!(matches!(turn.messages[0].card, Some(Card::Drill { .. })));
        let board = r#"{"course_id": "C", "title": "T", "focus_unit": "a",
            "units": [{"unit_id": "a", "title": "A", "tier": "bronze", "drill_streak": 0,
                       "drill_attempts": 0, "blocked_by": null}],
            "revisit": [], "counts": {"none": 0, "bronze": 1, "silver": 0, "gold": 0},
            "locks": []}"#;
        let board: ProgressBoard = serde_json::from_str(board).unwrap();
        assert_eq!(board.units[0].tier, "bronze");
    }
}
