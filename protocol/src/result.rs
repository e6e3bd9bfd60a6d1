//! The graded result carried by `session.completed` and `GET /v1/sessions/{id}/result`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A session's result, tagged by `mode`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum SessionResult {
    /// The result of an ACS oral exam.
    Exam(ExamResult),
}

/// The graded result of an ACS oral exam.
///
/// # Format
/// ```json
/// {"mode": "exam", "outcome": "unsatisfactory", "trigger": "all_tasks_covered",
///  "planned_questions": 7, "asked": 6, "credited_by_mention": 1, "bonus_used": 1,
///  "areas": [{"area": "I", "title": "Preflight Preparation", "satisfactory": 4,
///             "partial": 1, "unsatisfactory": 1, "credited_by_mention": 1, "not_covered": 0}],
///  "elements": [{"code": "PA.I.A.K1", "area": "I", "score": "partial", "status": "asked"}]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ExamResult {
    /// `satisfactory`, `unsatisfactory` or `incomplete`.
    pub outcome: Outcome,
    /// What ended the exam.
    pub trigger: Trigger,
    /// Questions planned at the start.
    pub planned_questions: u32,
    /// Elements asked (follow-ups not counted).
    pub asked: u32,
    /// Elements credited by mention.
    pub credited_by_mention: u32,
    /// Bonus questions granted.
    pub bonus_used: u32,
    /// Counts per area of operation, in area order.
    pub areas: Vec<AreaResult>,
    /// Every element in scope, in plan order.
    pub elements: Vec<ElementResult>,
}

/// The overall outcome of an exam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every examined element was satisfactory.
    Satisfactory,
    /// At least one element was unsatisfactory or partial.
    Unsatisfactory,
    /// Fewer elements were examined than planned.
    Incomplete,
}

/// What ended an exam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// The plan ran out: all planned questions asked, or nothing left to ask.
    AllTasksCovered,
    /// The user sent `session.end`.
    UserEnded,
}

/// Counts for one area of operation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AreaResult {
    /// Roman numeral.
    pub area: String,
    /// Area title.
    pub title: String,
    /// Elements scored satisfactory.
    pub satisfactory: u32,
    /// Elements scored partial.
    pub partial: u32,
    /// Elements scored unsatisfactory.
    pub unsatisfactory: u32,
    /// Elements credited by mention.
    pub credited_by_mention: u32,
    /// Elements in scope but neither asked nor credited.
    pub not_covered: u32,
}

/// One element's standing at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ElementResult {
    /// The ACS element code.
    pub code: String,
    /// Roman numeral of its area.
    pub area: String,
    /// Its final score, if it was asked and answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    /// `pending`, `asked`, `credited_by_mention` or `skipped`.
    pub status: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_example_round_trips() {
        let example = r#"{"mode":"exam","outcome":"unsatisfactory","trigger":"all_tasks_covered",
            "planned_questions":7,"asked":6,"credited_by_mention":1,"bonus_used":1,
            "areas":[{"area":"I","title":"Preflight Preparation","satisfactory":4,"partial":1,
            "unsatisfactory":1,"credited_by_mention":1,"not_covered":0}],
            "elements":[{"code":"PA.I.A.K1","area":"I","score":"partial","status":"asked"}]}"#;
        let expected: serde_json::Value = serde_json::from_str(example).unwrap();
        let result: SessionResult = serde_json::from_value(expected.clone()).unwrap();
        assert_eq!(serde_json::to_value(&result).unwrap(), expected);
    }
}
