//! `SessionState`: a session of any mode, as the actor sees it. The actor asks it for work,
//! runs the examiner when an exam needs one, and lets it do everything else itself.

use std::collections::HashMap;

use viva_blueprint::library::BlueprintLibrary;
use viva_protocol::result::{AssessmentTrigger, SessionResult, Trigger};
use viva_protocol::{ErrorCode, Mode};

use super::assessment::{AnswerInput, AssessmentCore, AssessmentWork, Response};
use super::core::{ExamCore, PendingWork, QuestionDraft};
use super::lifecycle::{Lifecycle, Refusal};
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

/// A session of either mode.
#[derive(Debug, Clone)]
pub enum SessionState {
    /// An ACS oral exam.
    Exam(Box<ExamCore>),
    /// A blueprint assessment.
    Assessment(Box<AssessmentCore>),
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

/// What the actor must do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    /// Ask the examiner to assess an exam answer.
    Assess(AssessRequest),
    /// Ask the examiner to phrase an exam question.
    Phrase(QuestionDraft),
    /// A pure step the state does itself ([`SessionState::step`]).
    Step,
    /// Nothing: waiting for the candidate, paused, or ended.
    Nothing,
}

impl SessionState {
    /// The shared lifecycle.
    pub fn life(&self) -> &Lifecycle {
        match self {
            SessionState::Exam(core) => &core.life,
            SessionState::Assessment(core) => &core.life,
        }
    }

    /// The shared lifecycle, mutably.
    pub fn life_mut(&mut self) -> &mut Lifecycle {
        match self {
            SessionState::Exam(core) => &mut core.life,
            SessionState::Assessment(core) => &mut core.life,
        }
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        match self {
            SessionState::Exam(_) => Mode::Exam,
            SessionState::Assessment(_) => Mode::Assessment,
        }
    }

    /// What to do next; pure.
    pub fn work(&self) -> Work {
        match self {
            SessionState::Exam(core) => match core.pending_work() {
                PendingWork::Assess(request) => Work::Assess(request),
                PendingWork::Ask(draft) => Work::Phrase(draft),
                PendingWork::Finish => Work::Step,
                PendingWork::Nothing => Work::Nothing,
            },
            SessionState::Assessment(core) => match core.pending_work() {
                AssessmentWork::Nothing => Work::Nothing,
                _ => Work::Step,
            },
        }
    }

    /// Does one pure step: grade a finished exam; judge, ask or grade an assessment.
    pub fn step(&mut self, ctx: StepContext<'_>, now_ms: u64) -> Result<(), Refusal> {
        match self {
            SessionState::Exam(core) => {
                let catalog = ctx.acs.catalog(core.rating());
                core.complete(Trigger::AllTasksCovered, catalog, now_ms)
            }
            SessionState::Assessment(core) => match core.pending_work() {
                AssessmentWork::Judge => core.judge(now_ms),
                AssessmentWork::Ask(index) => ask_slot(core, index, ctx.blueprints, now_ms),
                AssessmentWork::Finish => {
                    core.complete(core.finish_trigger(), ctx.blueprints, now_ms)
                }
                AssessmentWork::Nothing => Ok(()),
            },
        }
    }

    /// Stores an exam assessment.
    pub fn store_assessment(
        &mut self,
        verdict: Examined<ExaminerAssessment>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        match self {
            SessionState::Exam(core) => core.store_assessment(verdict, now_ms),
            SessionState::Assessment(_) => Err(Refusal::new(ErrorCode::Internal, "not an exam")),
        }
    }

    /// Commits a phrased exam question.
    pub fn commit_question(
        &mut self,
        draft: QuestionDraft,
        phrased: Examined<String>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        match self {
            SessionState::Exam(core) => core.commit_question(draft, phrased, now_ms),
            SessionState::Assessment(_) => Err(Refusal::new(ErrorCode::Internal, "not an exam")),
        }
    }

    /// Queues `session.started`.
    pub fn announce_start(&mut self, ctx: StepContext<'_>) {
        match self {
            SessionState::Exam(core) => core.announce_start(),
            SessionState::Assessment(core) => core.announce_start(ctx.blueprints),
        }
    }

    /// Commits an answer and queues its `ack`.
    pub fn commit_answer(
        &mut self,
        input: AnswerInput,
        event_id: Option<String>,
        ctx: StepContext<'_>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        match (self, input) {
            (SessionState::Exam(core), AnswerInput::Text(text)) => {
                core.commit_answer(text, event_id, now_ms)
            }
            (SessionState::Exam(core), _) => {
                core.life.require_live()?;
                Err(Refusal::new(
                    ErrorCode::InvalidAnswer,
                    "exam questions are answered with answer.text",
                ))
            }
            (SessionState::Assessment(core), input) => {
                let allow_skip = ctx
                    .blueprints
                    .assessment(&core.assessment_id)
                    .is_some_and(|a| a.allow_skip);
                core.commit_answer(input, allow_skip, event_id, now_ms)
            }
        }
    }

    /// The user ends the session: it is graded as it stands.
    pub fn end(&mut self, ctx: StepContext<'_>, now_ms: u64) -> Result<(), Refusal> {
        self.life().require_live()?;
        match self {
            SessionState::Exam(core) => {
                core.complete(Trigger::UserEnded, ctx.acs.catalog(core.rating()), now_ms)
            }
            SessionState::Assessment(core) => {
                core.complete(AssessmentTrigger::UserEnded, ctx.blueprints, now_ms)
            }
        }
    }

    /// Whether the session is live and its time limit has run out.
    pub fn is_due_to_expire(&self, now_ms: u64) -> bool {
        match self {
            SessionState::Exam(_) => false,
            SessionState::Assessment(core) => {
                core.is_expired(now_ms) && core.life.phase.live().is_some()
            }
        }
    }

    /// Completes an assessment whose time limit has run out; true if it did.
    pub fn expire_if_due(&mut self, ctx: StepContext<'_>, now_ms: u64) -> bool {
        if !self.is_due_to_expire(now_ms) {
            return false;
        }
        let SessionState::Assessment(core) = self else {
            return false;
        };
        core.complete(AssessmentTrigger::TimeLimit, ctx.blueprints, now_ms)
            .is_ok()
    }

    /// When the time limit runs out: for timed assessments only.
    pub fn deadline_ms(&self) -> Option<u64> {
        match self {
            SessionState::Exam(_) => None,
            SessionState::Assessment(core) => core.deadline_ms,
        }
    }

    /// Resumes; queues `session.resumed` and the open question or the result.
    pub fn resume(&mut self, ctx: StepContext<'_>, now_ms: u64) -> Result<(), Refusal> {
        match self {
            SessionState::Exam(core) => core.resume(now_ms),
            SessionState::Assessment(core) => core.resume(ctx.blueprints, now_ms),
        }
    }

    /// The result once completed, as sent in `session.completed`.
    pub fn result(&self) -> Option<SessionResult> {
        match self {
            SessionState::Exam(core) => core.result.clone().map(SessionResult::Exam),
            SessionState::Assessment(core) => core.result.clone().map(SessionResult::Assessment),
        }
    }

    /// The result with the audit trail, for its owner once completed.
    pub fn result_with_audit(&self) -> Option<SessionResult> {
        match self {
            SessionState::Exam(core) => core.result_with_transcript().map(SessionResult::Exam),
            SessionState::Assessment(core) => {
                core.result_with_audit().map(SessionResult::Assessment)
            }
        }
    }

    /// The kind of the open question (`primary`, `follow_up`, `bonus`, or `item` in an
    /// assessment), while one awaits an answer.
    pub fn open_question_kind(&self) -> Option<&'static str> {
        if self.life().phase.live() != Some(crate::session::phase::LivePhase::AwaitingAnswer) {
            return None;
        }
        match self {
            SessionState::Exam(core) => core.open_question.as_ref().map(|q| q.kind.as_str()),
            SessionState::Assessment(_) => Some("item"),
        }
    }

    /// The id of the open question (`q3`, `i7`), asked and not yet assessed.
    pub fn open_question_id(&self) -> Option<String> {
        match self {
            SessionState::Exam(core) => core.open_question.as_ref().map(|q| q.question_id.clone()),
            SessionState::Assessment(core) => core.current.map(|index| format!("i{}", index + 1)),
        }
    }

    /// What the open question expects to hear, while one awaits an answer: for spoken
    /// answers, the recogniser's hint and the reading of an item's answer.
    pub fn open_listening(&self) -> Option<Listening<'_>> {
        self.open_question_kind()?;
        match self {
            SessionState::Exam(core) => core.open_question.as_ref().map(|q| Listening::Exam {
                question_id: &q.question_id,
                question: &q.text,
                element_code: &q.element_code,
            }),
            SessionState::Assessment(core) => {
                let index = core.current?;
                let item = core.items.get(index)?.item.as_ref()?;
                Some(Listening::Item {
                    question_id: format!("i{}", index + 1),
                    item,
                })
            }
        }
    }

    /// Final element scores of an exam, for `weak_areas` later.
    pub fn element_scores(&self) -> HashMap<String, Score> {
        match self {
            SessionState::Exam(core) => core.plan.scores.clone(),
            SessionState::Assessment(_) => HashMap::new(),
        }
    }
}

/// Generates and asks slot `index`. A skill that cannot generate (a defect in a blueprint
/// written elsewhere; the shipped ones are property-tested) loses its slot, which is
/// recorded as skipped and logged, rather than stalling the session.
fn ask_slot(
    core: &mut AssessmentCore,
    index: usize,
    blueprints: &BlueprintLibrary,
    now_ms: u64,
) -> Result<(), Refusal> {
    match core.generate_slot(index, blueprints) {
        Ok(item) => core.ask(index, item, blueprints, now_ms),
        Err(err) => {
            tracing::error!(session = %core.life.session_id, %err, "item generation failed; slot dropped");
            core.items[index].response = Some(Response {
                given: None,
                correct: false,
                skipped: true,
                answered_at_ms: now_ms,
            });
            Ok(())
        }
    }
}
