//! `ModeCheckpoint`: each mode's section of a session checkpoint, tagged with its mode: the
//! one place a mode's stored form is named (with the layout in `format`'s `WireOut` and
//! `WireIn`). Stores encode a `SessionCheckpoint` whole and never look inside its section.

use serde::{Deserialize, Serialize};
use viva_protocol::Mode;

use super::mode_format::{AssessmentCheckpoint, ExamCheckpoint};
use super::tutor_format::TutorCheckpoint;

/// A mode's own section of its session's checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub enum ModeCheckpoint {
    /// An ACS oral exam.
    Exam(Box<ExamCheckpoint>),
    /// A blueprint assessment.
    Assessment(Box<AssessmentCheckpoint>),
    /// A tutoring session.
    Tutor(Box<TutorCheckpoint>),
    /// A one-question check.
    OneQuestion(OneQuestionCheckpoint),
}

impl ModeCheckpoint {
    /// The mode this section belongs to.
    pub fn mode(&self) -> Mode {
        match self {
            ModeCheckpoint::Exam(_) => Mode::Exam,
            ModeCheckpoint::Assessment(_) => Mode::Assessment,
            ModeCheckpoint::Tutor(_) => Mode::Tutor,
            ModeCheckpoint::OneQuestion(_) => Mode::OneQuestion,
        }
    }
}

/// The one-question check's section.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OneQuestionCheckpoint {
    /// The words asked.
    pub question: String,
    /// Whether the question is asked.
    pub asked: bool,
    /// The answer, once given.
    pub answer: Option<String>,
    /// Whether the check completed.
    #[serde(default)]
    pub completed: bool,
}
