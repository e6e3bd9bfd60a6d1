//! `GET /v1/progress`: the signed-in user's spaced review across exams, per ACS area: each
//! element's history (when it was last asked, the outcome, the streak of satisfactory
//! answers, the interval and when it comes due) and what is due now. The schedule is
//! docs/review.md; times are ms since the Unix epoch.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `GET /v1/progress`: the user's review history and what is due, per ACS area.
///
/// # Format
/// ```json
/// {"now_ms": 1765600000000,
///  "due": ["PA.I.A.K2", "PA.I.B.K1"],
///  "areas": [{"rating": "private", "area": "I", "title": "Preflight Preparation",
///             "due": ["PA.I.A.K2", "PA.I.B.K1"],
///             "elements": [{"code": "PA.I.A.K1", "task_code": "PA.I.A",
///                           "last_asked_ms": 1765000000000, "last_outcome": "satisfactory",
///                           "streak": 2, "interval_ms": 518400000,
///                           "due_ms": 1765518400000, "due_now": false},
///                          {"code": "PA.I.A.K2", "task_code": "PA.I.A",
///                           "last_asked_ms": 1765000000000, "last_outcome": "partial",
///                           "streak": 0, "interval_ms": 0,
///                           "due_ms": 1765000000000, "due_now": true},
///                          {"code": "PA.I.B.K1", "task_code": "PA.I.B",
///                           "last_outcome": "unsatisfactory", "streak": 0,
///                           "interval_ms": 0, "due_now": true}]}]}
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProgressReport {
    /// The server's time the report was made at.
    pub now_ms: u64,
    /// Every element due now, in the order a `weak_areas` exam asks them: weakest first,
    /// then most overdue (ties in ACS order).
    pub due: Vec<String>,
    /// The areas the user has been examined in, in ACS order (Private, then Commercial).
    pub areas: Vec<AreaProgress>,
}

/// One ACS area's review history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AreaProgress {
    /// `private` or `commercial`.
    pub rating: String,
    /// Its Roman numeral.
    pub area: String,
    /// Its title.
    pub title: String,
    /// Its elements due now, most urgent first (as in [`ProgressReport::due`]).
    pub due: Vec<String>,
    /// Its elements the user has been examined on, in ACS order.
    pub elements: Vec<ElementProgress>,
}

/// One element's review history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ElementProgress {
    /// The ACS element code.
    pub code: String,
    /// Its task's code.
    pub task_code: String,
    /// When it was last asked and assessed; absent for an outcome recorded before the
    /// server kept the history.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_asked_ms: Option<u64>,
    /// `satisfactory`, `partial` or `unsatisfactory`.
    pub last_outcome: String,
    /// Satisfactory answers in a row, up to the last one.
    pub streak: u32,
    /// The interval the last outcome set (0: due at once).
    pub interval_ms: u64,
    /// When it comes due; absent like `last_asked_ms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_ms: Option<u64>,
    /// Whether it is due now (from a few hours before `due_ms`: docs/review.md).
    pub due_now: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"{"now_ms": 1765600000000,
        "due": ["PA.I.A.K2", "PA.I.B.K1"],
        "areas": [{"rating": "private", "area": "I", "title": "Preflight Preparation",
            "due": ["PA.I.A.K2", "PA.I.B.K1"],
            "elements": [{"code": "PA.I.A.K1", "task_code": "PA.I.A",
                          "last_asked_ms": 1765000000000, "last_outcome": "satisfactory",
                          "streak": 2, "interval_ms": 518400000,
                          "due_ms": 1765518400000, "due_now": false},
                         {"code": "PA.I.A.K2", "task_code": "PA.I.A",
                          "last_asked_ms": 1765000000000, "last_outcome": "partial",
                          "streak": 0, "interval_ms": 0,
                          "due_ms": 1765000000000, "due_now": true},
                         {"code": "PA.I.B.K1", "task_code": "PA.I.B",
                          "last_outcome": "unsatisfactory", "streak": 0,
                          "interval_ms": 0, "due_now": true}]}]}"#;

    #[test]
    fn the_documented_example_round_trips() {
        let report: ProgressReport = serde_json::from_str(EXAMPLE).unwrap();
        let area = &report.areas[0];
        assert_eq!(area.elements.len(), 3);
        assert_eq!(area.elements[0].due_ms, Some(1_765_518_400_000));
        assert_eq!(
            area.elements[2].last_asked_ms, None,
            "recorded before the history"
        );
        let written = serde_json::to_value(&report).unwrap();
        let expected: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
        assert_eq!(written, expected);
    }
}
