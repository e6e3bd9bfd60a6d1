//! `SessionMode`: what a mode adds to the lifecycle every session shares. A session is a
//! [`Lifecycle`] plus one mode behind this trait ([`super::state::SessionState`]); adding a
//! mode means adding a type that implements it, registering its checkpoint form in
//! [`restore_mode`], and nothing else in the session core or the actors.
//!
//! A mode never owns the lifecycle: every call that changes the session gets it, so the
//! phase, `seq`, outbox and acknowledged `event_id`s stay in one place for every mode.

use std::collections::HashMap;
use std::fmt;

use viva_blueprint::library::BlueprintLibrary;
use viva_protocol::result::SessionResult;
use viva_protocol::{ErrorCode, Mode};

use super::assessment::{AnswerInput, AssessmentCore};
use super::assessment_snapshot::restore_assessment;
use super::core::{ExamCore, QuestionDraft};
use super::lifecycle::{Lifecycle, Refusal};
use super::snapshot::restore_exam;
use crate::checkpoint::format::SessionCheckpoint;
use crate::exam::acs::AcsLibrary;
use crate::exam::types::Score;
use crate::examiner::{AssessRequest, Examined, ExaminerAssessment};

/// The data the pure steps read.
#[derive(Clone, Copy)]
pub struct StepContext<'a> {
    /// ACS catalogs (exams).
    pub acs: &'a AcsLibrary,
    /// Skill and assessment blueprints (assessments).
    pub blueprints: &'a BlueprintLibrary,
}

/// What the actor must do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    /// Ask the examiner to assess an answer; the verdict comes back as
    /// [`ExaminerReply::Assessed`].
    Assess(AssessRequest),
    /// Ask the examiner to phrase a question; the words come back as
    /// [`ExaminerReply::Phrased`].
    Phrase(QuestionDraft),
    /// A pure step the mode does itself ([`SessionMode::step`]).
    Step,
    /// Nothing: waiting for the candidate, paused, or ended.
    Nothing,
}

/// What the examiner gave for a [`Work::Assess`] or [`Work::Phrase`].
#[derive(Debug, Clone)]
pub enum ExaminerReply {
    /// The verdict on the committed answer.
    Assessed(Examined<ExaminerAssessment>),
    /// The words of the drafted question.
    Phrased(QuestionDraft, Examined<String>),
}

/// The open question, as the listener needs it.
#[derive(Debug, Clone)]
pub enum Listening<'a> {
    /// An exam question.
    Exam {
        /// `q<number>`.
        question_id: &'a str,
        /// The words asked.
        question: &'a str,
        /// The element asked about.
        element_code: &'a str,
    },
    /// An assessment item.
    Item {
        /// `i<number>`.
        question_id: String,
        /// The generated item (its key never leaves the server).
        item: &'a viva_blueprint::generate::Item,
    },
}

impl Listening<'_> {
    /// The question's id.
    pub fn question_id(&self) -> String {
        match self {
            Listening::Exam { question_id, .. } => (*question_id).to_owned(),
            Listening::Item { question_id, .. } => question_id.clone(),
        }
    }
}

/// The question a mode has open, asked and not yet assessed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenQuestionRef {
    /// `q3`, `i7`.
    pub question_id: String,
    /// `primary`, `follow_up`, `bonus`, or `item`: the key of the operator's per-kind
    /// thinking pause.
    pub kind: &'static str,
}

/// One session mode: its state, its rules, and its checkpoint form.
pub trait SessionMode: fmt::Debug + Send + Sync {
    /// The mode, as clients see it.
    fn kind(&self) -> Mode;

    /// Queues `session.started` with the mode's plan.
    fn announce_start(&mut self, life: &mut Lifecycle, ctx: StepContext<'_>);

    /// What to do next; pure.
    fn work(&self, life: &Lifecycle) -> Work;

    /// Does the pure step [`SessionMode::work`] asked for with [`Work::Step`].
    fn step(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal>;

    /// Takes the examiner's reply to a [`Work::Assess`] or [`Work::Phrase`]. A mode that
    /// never asks the examiner keeps this default.
    fn take_examiner_reply(
        &mut self,
        _life: &mut Lifecycle,
        _reply: ExaminerReply,
        _now_ms: u64,
    ) -> Result<(), Refusal> {
        Err(Refusal::new(
            ErrorCode::Internal,
            format!(
                "a {} session asks the examiner nothing",
                self.kind().as_str()
            ),
        ))
    }

    /// Commits the candidate's answer to the open question and queues its `ack`.
    fn commit_answer(
        &mut self,
        life: &mut Lifecycle,
        input: AnswerInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal>;

    /// The user ends the session: it is graded as it stands.
    fn end(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal>;

    /// When the time limit runs out; `None` (the default) for an untimed mode.
    fn deadline_ms(&self) -> Option<u64> {
        None
    }

    /// Completes the session because its time limit ran out. Called only once
    /// [`SessionMode::deadline_ms`] has passed, so an untimed mode keeps this default.
    fn expire(
        &mut self,
        _life: &mut Lifecycle,
        _ctx: StepContext<'_>,
        _now_ms: u64,
    ) -> Result<(), Refusal> {
        Err(Refusal::new(
            ErrorCode::Internal,
            "this session has no time limit",
        ))
    }

    /// Queues what a resuming device needs after `session.resumed`: the open question,
    /// or the result.
    fn resume(
        &mut self,
        life: &mut Lifecycle,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal>;

    /// The result once completed, as sent in `session.completed`.
    fn result(&self) -> Option<SessionResult>;

    /// The result with its audit trail, for its owner once completed.
    fn result_with_audit(&self) -> Option<SessionResult>;

    /// The question asked and not yet assessed.
    fn open_question(&self) -> Option<OpenQuestionRef>;

    /// What the open question expects to hear, for spoken answers.
    fn listening(&self) -> Option<Listening<'_>>;

    /// Final element scores, for the user's `weak_areas` later (exams only).
    fn element_scores(&self) -> HashMap<String, Score> {
        HashMap::new()
    }

    /// Writes the mode's part of the checkpoint (`mode` and its own section).
    fn write_checkpoint(&self, checkpoint: &mut SessionCheckpoint);

    /// A copy behind a new box.
    fn clone_mode(&self) -> Box<dyn SessionMode>;
}

/// Rebuilds the mode a checkpoint names from its section of the checkpoint.
pub fn restore_mode(checkpoint: &SessionCheckpoint) -> Result<Box<dyn SessionMode>, String> {
    let missing = |mode: Mode| format!("mode {:?} without its state", mode.as_str());
    match checkpoint.mode {
        Mode::Exam => {
            let exam = checkpoint
                .exam
                .as_ref()
                .ok_or_else(|| missing(Mode::Exam))?;
            let core: ExamCore = restore_exam(exam, &checkpoint.transcript)?;
            Ok(Box::new(core))
        }
        Mode::Assessment => {
            let stored = checkpoint
                .assessment
                .as_ref()
                .ok_or_else(|| missing(Mode::Assessment))?;
            let core: AssessmentCore = restore_assessment(stored)?;
            Ok(Box::new(core))
        }
        Mode::Tutor => Err(missing(Mode::Tutor)),
    }
}
