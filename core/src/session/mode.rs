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
use super::tutor_mode::TutorCore;
use super::tutor_snapshot::restore_tutor;
use crate::checkpoint::format::SessionCheckpoint;
use crate::exam::acs::AcsLibrary;
use crate::exam::types::Score;
use crate::examiner::{AssessRequest, Examined, ExaminerAssessment};
use crate::tutor::brain::TutorInput;
use crate::tutor::library::TutorLibrary;
use crate::tutor::model::ModelAnswer;

/// The data the pure steps read.
#[derive(Clone, Copy)]
pub struct StepContext<'a> {
    /// ACS catalogs (exams).
    pub acs: &'a AcsLibrary,
    /// Skill and assessment blueprints (assessments, skill drills).
    pub blueprints: &'a BlueprintLibrary,
    /// Courses (tutoring).
    pub tutor: &'a TutorLibrary,
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
    /// Ask the model tutor to propose a turn for the pending message (its text); the answer
    /// comes back through [`SessionMode::take_tutor_answer`].
    Tutor(String),
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
        /// The exam's rating.
        rating: crate::exam::acs::Rating,
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
        _ctx: StepContext<'_>,
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

    /// Takes a model tutor's answer to a [`Work::Tutor`]; every other mode refuses it.
    fn take_tutor_answer(
        &mut self,
        _life: &mut Lifecycle,
        _answer: ModelAnswer,
        _ctx: StepContext<'_>,
        _now_ms: u64,
    ) -> Result<(), Refusal> {
        Err(Refusal::new(
            ErrorCode::Internal,
            format!("a {} session asks no model tutor", self.kind().as_str()),
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

    /// The question most likely asked after the open one, to phrase while the candidate
    /// answers (exams only; see `ExamCore::likely_next_question`).
    fn likely_next_question(&self, _life: &Lifecycle) -> Option<QuestionDraft> {
        None
    }

    /// Final element scores, for the user's `weak_areas` later (exams only).
    fn element_scores(&self) -> HashMap<String, Score> {
        HashMap::new()
    }

    /// Takes a tutor's card event or message; every other mode refuses it.
    fn take_tutor_input(
        &mut self,
        _life: &mut Lifecycle,
        _input: TutorInput,
        _event_id: Option<String>,
        _ctx: StepContext<'_>,
        _now_ms: u64,
    ) -> Result<(), Refusal> {
        Err(Refusal::new(
            ErrorCode::WrongMode,
            format!(
                "tutor events need a tutor session; this is a {} session",
                self.kind().as_str()
            ),
        ))
    }

    /// The tutor's state, in a tutoring session.
    fn tutor(&self) -> Option<&TutorCore> {
        None
    }

    /// The tutor's state, mutably, in a tutoring session.
    fn tutor_mut(&mut self) -> Option<&mut TutorCore> {
        None
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
        Mode::Tutor => {
            let stored = checkpoint
                .tutor
                .as_ref()
                .ok_or_else(|| missing(Mode::Tutor))?;
            let core: TutorCore = restore_tutor(stored, &checkpoint.transcript)?;
            Ok(Box::new(core))
        }
    }
}

#[cfg(test)]
mod tests {
    use viva_protocol::server::PlanSummary;

    use super::*;
    use crate::session::phase::PhaseEvent;
    use crate::session::state::SessionState;
    use crate::session::test_sessions::{START_MS, World, verdict};

    /// The smallest mode: one question, answered by any text, then complete. It is what a
    /// new mode needs to write — its state and the required methods — and nothing else.
    #[derive(Debug, Clone, Default)]
    struct OneQuestion {
        answer: Option<String>,
        asked: bool,
    }

    impl SessionMode for OneQuestion {
        fn kind(&self) -> Mode {
            Mode::Tutor
        }

        fn announce_start(&mut self, life: &mut Lifecycle, _ctx: StepContext<'_>) {
            let plan = PlanSummary {
                planned_questions: 1,
                queue_length: 1,
                study_mode: None,
                time_limit_seconds: None,
                bonus_max: 0,
                follow_up_max_per_element: 0,
            };
            life.announce(Mode::Tutor, plan);
        }

        fn work(&self, life: &Lifecycle) -> Work {
            let due = life.phase.live().is_some() && (!self.asked || self.answer.is_some());
            if due { Work::Step } else { Work::Nothing }
        }

        fn step(
            &mut self,
            life: &mut Lifecycle,
            _: StepContext<'_>,
            now: u64,
        ) -> Result<(), Refusal> {
            if self.asked {
                life.advance(PhaseEvent::Completed, now)
            } else {
                self.asked = true;
                life.advance(PhaseEvent::QuestionCommitted, now)
            }
        }

        fn commit_answer(
            &mut self,
            life: &mut Lifecycle,
            input: AnswerInput,
            event_id: Option<String>,
            _: StepContext<'_>,
            _: u64,
        ) -> Result<(), Refusal> {
            life.require_live()?;
            let AnswerInput::Text(text) = input else {
                return Err(Refusal::new(ErrorCode::InvalidAnswer, "say it"));
            };
            self.answer = Some(text);
            life.acknowledge(event_id);
            Ok(())
        }

        fn end(
            &mut self,
            life: &mut Lifecycle,
            _: StepContext<'_>,
            now: u64,
        ) -> Result<(), Refusal> {
            life.advance(PhaseEvent::Completed, now)
        }

        fn resume(&mut self, _: &mut Lifecycle, _: StepContext<'_>, _: u64) -> Result<(), Refusal> {
            Ok(())
        }

        fn result(&self) -> Option<SessionResult> {
            None
        }

        fn result_with_audit(&self) -> Option<SessionResult> {
            None
        }

        fn open_question(&self) -> Option<OpenQuestionRef> {
            let open = self.asked && self.answer.is_none();
            open.then(|| OpenQuestionRef {
                question_id: "t1".into(),
                kind: "primary",
            })
        }

        fn listening(&self) -> Option<Listening<'_>> {
            None
        }

        fn write_checkpoint(&self, checkpoint: &mut SessionCheckpoint) {
            checkpoint.mode = Mode::Tutor;
        }

        fn clone_mode(&self) -> Box<dyn SessionMode> {
            Box::new(self.clone())
        }
    }

    #[test]
    fn a_new_mode_is_a_type_and_the_lifecycle_rules_hold_for_it_unchanged() {
        let world = World::new();
        let mut state = SessionState::new(world.life(), Box::<OneQuestion>::default());
        state.announce_start(world.ctx());
        world.run(
            &mut state,
            crate::exam::types::Score::Satisfactory,
            START_MS,
        );
        assert_eq!(state.open_question_kind(), Some("primary"));
        state
            .life_mut()
            .pause(viva_protocol::server::PauseReason::User, START_MS)
            .unwrap();
        let paused =
            state.commit_answer(AnswerInput::Text("x".into()), None, world.ctx(), START_MS);
        assert_eq!(
            paused.unwrap_err().code,
            ErrorCode::SessionPaused,
            "the lifecycle refuses"
        );
        let reply = state.take_examiner_reply(
            verdict(crate::exam::types::Score::Partial),
            world.ctx(),
            START_MS,
        );
        assert_eq!(
            reply.unwrap_err().code,
            ErrorCode::Internal,
            "the default refuses a reply"
        );
        assert!(
            !state.expire_if_due(world.ctx(), u64::MAX),
            "untimed by default"
        );
        assert!(state.element_scores().is_empty());
    }

    #[test]
    fn a_checkpoint_names_a_mode_only_with_its_own_section() {
        let world = World::new();
        let mut exam = crate::session::snapshot::checkpoint_of(&world.exam());
        assert!(restore_mode(&exam).is_ok());
        let cases = [
            (Mode::Exam, "mode \"exam\" without its state"),
            (Mode::Assessment, "mode \"assessment\" without its state"),
            (Mode::Tutor, "mode \"tutor\" without its state"),
        ];
        for (mode, reason) in cases {
            exam.mode = mode;
            exam.exam = None;
            assert_eq!(restore_mode(&exam).unwrap_err(), reason);
        }
    }
}
