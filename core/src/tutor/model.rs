//! The model tutor's seam: what a model is asked for one turn, what it may propose, and the
//! port a model adapter implements (`viva-llm`'s `LlmTutor`). The brain decides; a proposal
//! is used only if it holds to the turn's policy, checked by the brain again whatever the
//! adapter checked, and the brain's own turn is used otherwise, with no retry.

use super::grounding::Grounding;
use super::lite::SnapshotLite;
use super::policy::{Action, Policy};
use super::scope::Mapped;
use crate::examiner::{Examined, ExaminerFuture};

/// What a model is asked for one turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelTurnRequest {
    /// The course's title.
    pub course_title: String,
    /// The turn's policy.
    pub policy: Policy,
    /// The retrieved anchors, chunks and exam candidates.
    pub grounding: Grounding,
    /// The student, in short.
    pub lite: SnapshotLite,
    /// The client event (`tutor.message`, `tutor.stuck`, …).
    pub event: String,
    /// What the student said or did.
    pub input: String,
    /// Every unit of the course.
    pub course_units: Vec<String>,
    /// The exam questions available at the desired tier.
    pub available: Vec<String>,
}

/// A model's proposal for one turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelProposal {
    /// The action.
    pub action: Action,
    /// The unit.
    pub target: String,
    /// What the tutor says.
    pub text: String,
    /// The exam question offered, for an exam.
    pub exam_question: Option<String>,
    /// The units the model mapped the message to (logged; the policy reads the brain's).
    pub mapped: Vec<Mapped>,
}

/// What a model adapter answered: a proposal, or why there is none (a fallback reason).
pub type ModelAnswer = Examined<Result<ModelProposal, &'static str>>;

/// A model that proposes tutor turns. Infallible by contract: a failure is an `Err` reason.
pub trait TutorModel: Send + Sync + 'static {
    /// A proposal for the turn `request` describes.
    fn propose<'a>(&'a self, request: &'a ModelTurnRequest) -> ExaminerFuture<'a, ModelAnswer>;
}
