//! Adaptive difficulty on the wire: the level a question is asked at, the starting level an
//! adaptive exam's plan announces, and the levels its result reports.
//!
//! An exam started with `"difficulty": "adaptive"` moves its level by the scores of the last
//! elements it assessed (the rule and its numbers: docs/adaptive-difficulty.md). Exams with a
//! fixed difficulty carry none of these fields.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How demanding one question is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Recall questions.
    Easy,
    /// Application questions.
    Medium,
    /// Scenario questions.
    Hard,
}

impl Level {
    /// The level's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// Parses a wire name.
    pub fn parse(name: &str) -> Option<Level> {
        match name {
            "easy" => Some(Level::Easy),
            "medium" => Some(Level::Medium),
            "hard" => Some(Level::Hard),
            _ => None,
        }
    }
}

/// An adaptive exam's plan, in `session.started`'s `plan`: the level its first question is
/// asked at, and the rule's bounds.
///
/// # Format
/// ```json
/// {"start": "medium", "window": 4, "min_elements_between_changes": 3}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AdaptivePlan {
    /// The level of the first question.
    pub start: Level,
    /// How many of the latest elements assessed at the level in force decide a change.
    pub window: u32,
    /// Elements assessed at a level before it may change again.
    pub min_elements_between_changes: u32,
}

/// The levels an adaptive exam went through, in its result.
///
/// # Format
/// ```json
/// {"start": "medium", "end": "hard",
///  "levels": [{"level": "medium", "from_question": 1}, {"level": "hard", "from_question": 5}]}
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AdaptiveResult {
    /// The level of the first question.
    pub start: Level,
    /// The level in force when the exam ended.
    pub end: Level,
    /// Each level in force, in order, from the question it was first asked at.
    pub levels: Vec<LevelSpan>,
}

/// A level and the question number from which it was in force.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LevelSpan {
    /// The level.
    pub level: Level,
    /// The number of the first question asked at it.
    pub from_question: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_examples_round_trip() {
        let plan = r#"{"start":"medium","window":4,"min_elements_between_changes":3}"#;
        let result = r#"{"start":"medium","end":"hard","levels":[{"level":"medium","from_question":1},{"level":"hard","from_question":5}]}"#;
        let value: serde_json::Value = serde_json::from_str(plan).unwrap();
        let decoded: AdaptivePlan = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(decoded).unwrap(), value);
        let value: serde_json::Value = serde_json::from_str(result).unwrap();
        let decoded: AdaptiveResult = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(serde_json::to_value(decoded).unwrap(), value);
    }

    #[test]
    fn each_level_parses_its_own_name_and_nothing_else() {
        for level in [Level::Easy, Level::Medium, Level::Hard] {
            assert_eq!(Level::parse(level.as_str()), Some(level));
            let json = serde_json::to_value(level).unwrap();
            assert_eq!(json, level.as_str());
        }
        assert_eq!(Level::parse("mixed"), None);
        assert_eq!(Level::parse("Hard"), None);
    }
}
