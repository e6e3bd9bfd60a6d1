//! The model tutor's seam: what a model is asked for one turn, what it may propose, and the
//! port a model adapter implements (`viva-llm`'s `LlmTutor`). The brain decides; a proposal
//! is used only if it holds to the turn's policy, checked by the brain again whatever the
//! adapter checked, and the brain's own turn is used otherwise, with no retry.

use super::grounding::Grounding;
use super::lite::SnapshotLite;
use super::policy::{Action, Policy};
use super::scope::Mapped;
use crate::examiner::{Examined, ExaminerFuture, TextDeltas};

/// What a model is asked for one turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelTurnRequest {
    /// The number the turn will have in the session (what its streamed text is tagged with).
    pub turn: u32,
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
    /// The units the model mapped the message to; the policy reads them only through
    /// [`super::scope::merge_mapping`], where retrieval left the mapping unsure.
    pub mapped: Vec<Mapped>,
}

/// What a model adapter answered: a proposal, or why there is none (a fallback reason).
pub type ModelAnswer = Examined<Result<ModelProposal, &'static str>>;

/// The fallback reason of a model that gave no usable proposal, as the tutor's metrics
/// name it (`model_<reason>`); an adapter's reason outside the list is `model_other`.
pub fn model_fault(reason: &str) -> &'static str {
    MODEL_FAULTS
        .iter()
        .find(|(adapter, _)| *adapter == reason)
        .map_or("model_other", |(_, label)| label)
}

/// An adapter's reasons and the tutor's labels for them.
const MODEL_FAULTS: &[(&str, &str)] = &[
    ("timeout", "model_timeout"),
    ("endpoint", "model_endpoint"),
    ("empty", "model_empty"),
    ("prompt", "model_prompt"),
    ("truncated", "model_truncated"),
    ("unparseable", "model_unparseable"),
    ("unknown_action", "model_unknown_action"),
    ("recites_prompt", "model_recites_prompt"),
    ("empty_text", "model_empty_text"),
    ("card_on_plain_reply", "model_card_on_plain_reply"),
    ("key_idea_too_long", "model_key_idea_too_long"),
    ("action_not_allowed", "model_action_not_allowed"),
    ("target_out_of_scope", "model_target_out_of_scope"),
    (
        "exam_question_not_available",
        "model_exam_question_not_available",
    ),
    ("card_not_allowed", "model_card_not_allowed"),
    ("too_many_key_ideas", "model_too_many_key_ideas"),
    ("too_many_worked_examples", "model_too_many_worked_examples"),
    ("too_many_drill_steps", "model_too_many_drill_steps"),
    ("too_long", "model_too_long"),
    ("several_questions", "model_several_questions"),
    ("no_model", "model_none"),
];

/// A model that proposes tutor turns. Infallible by contract: a failure is an `Err` reason.
pub trait TutorModel: Send + Sync + 'static {
    /// A proposal for the turn `request` describes. The proposal's text goes to `deltas`
    /// while it is written, and only once its action and target are known to be allowed;
    /// the turn the brain then commits replaces it.
    fn propose<'a>(
        &'a self,
        request: &'a ModelTurnRequest,
        deltas: TextDeltas<'a>,
    ) -> ExaminerFuture<'a, ModelAnswer>;
}
