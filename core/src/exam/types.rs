//! Small value types shared by the exam planner, examiner and grader.

use crate::review::Recall;

/// How well one answer (or one element, after follow-ups) was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// The answer covered the element.
    Satisfactory,
    /// The answer covered part of the element.
    Partial,
    /// The answer missed the element.
    Unsatisfactory,
}

impl Score {
    /// The wire name: `satisfactory`, `partial` or `unsatisfactory`.
    pub fn as_str(self) -> &'static str {
        match self {
            Score::Satisfactory => "satisfactory",
            Score::Partial => "partial",
            Score::Unsatisfactory => "unsatisfactory",
        }
    }

    /// How the review schedule reads it (`crate::review`).
    pub fn recall(self) -> Recall {
        match self {
            Score::Satisfactory => Recall::Satisfactory,
            Score::Partial => Recall::Partial,
            Score::Unsatisfactory => Recall::Unsatisfactory,
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Score> {
        match s {
            "satisfactory" => Some(Score::Satisfactory),
            "partial" => Some(Score::Partial),
            "unsatisfactory" => Some(Score::Unsatisfactory),
            _ => None,
        }
    }
}

/// Why a question is being asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuestionKind {
    /// The first question on a planned element.
    Primary,
    /// A probe on the same element after a partial answer.
    FollowUp,
    /// An extra element granted after an unsatisfactory answer.
    Bonus,
}

impl QuestionKind {
    /// The wire name: `primary`, `follow_up` or `bonus`.
    pub fn as_str(self) -> &'static str {
        match self {
            QuestionKind::Primary => "primary",
            QuestionKind::FollowUp => "follow_up",
            QuestionKind::Bonus => "bonus",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<QuestionKind> {
        match s {
            "primary" => Some(QuestionKind::Primary),
            "follow_up" => Some(QuestionKind::FollowUp),
            "bonus" => Some(QuestionKind::Bonus),
            _ => None,
        }
    }
}

/// How demanding a single question is phrased.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuestionDifficulty {
    /// Recall: "what is / explain".
    Easy,
    /// Application: "how does it apply when".
    Medium,
    /// Scenario: a situation the candidate must reason through.
    Hard,
}
