//! `SessionMode`: what a mode adds to the lifecycle every session shares. A session is a
//! [`Lifecycle`] plus one mode behind this trait ([`super::state::SessionState`]). Nothing
//! here names a mode: a mode is written under `crate::modes`, registered there (how it
//! opens from a config, how it restores from its checkpoint section), and the actors drive
//! it through this trait alone.
//!
//! A mode never owns the lifecycle: every call that changes the session gets it, so the
//! phase, `seq`, outbox and acknowledged `event_id`s stay in one place for every mode.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use viva_protocol::result::SessionResult;
use viva_protocol::{ErrorCode, Mode, ServerEvent};

use super::lifecycle::Lifecycle;
use super::rules::SessionMarks;
use super::side::{SideClaim, SideHold, SideKey, SideWrite};
use crate::base::{Listening, ModeInput, Refusal};
use crate::checkpoint::sections::ModeCheckpoint;
use crate::examiner::{AssessRequest, Examined, ExaminerAssessment, ExaminerCall, QuestionDraft};
use crate::review::ElementOutcome;
pub use crate::services::StepContext;

/// What the actor must do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    /// Ask the examiner to assess an answer; the verdict comes back as
    /// [`WorkReply::Assessed`].
    Assess(AssessRequest),
    /// Ask the examiner to phrase a question; the words come back as
    /// [`WorkReply::Phrased`].
    Phrase(QuestionDraft),
    /// Run the mode's own call ([`SessionMode::call`]), named by what it is for; the answer
    /// comes back as [`WorkReply::Called`].
    Call(String),
    /// A pure step the mode does itself ([`SessionMode::step`]).
    Step,
    /// Nothing: waiting for the candidate, paused, or ended.
    Nothing,
}

/// What came back for the work a mode asked for.
#[derive(Debug)]
pub enum WorkReply {
    /// The verdict on the committed answer.
    Assessed(Examined<ExaminerAssessment>),
    /// The words of the drafted question.
    Phrased(QuestionDraft, Examined<String>),
    /// The answer of the mode's own call.
    Called(CallAnswer),
}

impl WorkReply {
    /// The model call behind the reply, for the session's trace.
    pub fn model_call(&self) -> Option<&ExaminerCall> {
        match self {
            WorkReply::Assessed(verdict) => verdict.call.as_ref(),
            WorkReply::Phrased(_, words) => words.call.as_ref(),
            WorkReply::Called(answer) => answer.call.as_ref(),
        }
    }
}

/// The answer of a mode's call: the model call behind it (for the trace), and what the mode
/// takes back, which only the mode reads.
pub struct CallAnswer {
    /// The model call's turn log, when a model was called.
    pub call: Option<ExaminerCall>,
    /// What the mode reads back ([`CallAnswer::read`]).
    pub answer: Box<dyn Any + Send>,
}

impl fmt::Debug for CallAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallAnswer")
            .field("call", &self.call)
            .finish_non_exhaustive()
    }
}

impl CallAnswer {
    /// An answer carrying `answer`.
    pub fn new<T: Any + Send>(call: Option<ExaminerCall>, answer: T) -> CallAnswer {
        CallAnswer {
            call,
            answer: Box::new(answer),
        }
    }

    /// The answer as the type its mode put in; a refusal if it is another.
    pub fn read<T: Any>(self) -> Result<T, Refusal> {
        self.answer
            .downcast::<T>()
            .map(|boxed| *boxed)
            .map_err(|_| Refusal::new(ErrorCode::Internal, "a call answer of another kind"))
    }
}

/// Where a call sends what it writes while it runs (unsequenced events such as
/// `tutor.delta`); the actor stops passing them on when the device loses the session.
pub type EventSink = Arc<dyn Fn(ServerEvent) + Send + Sync>;

/// A call under way, off the actor's mailbox.
pub type CallFuture = Pin<Box<dyn Future<Output = CallAnswer> + Send>>;

/// How a mode's call runs.
pub enum Call {
    /// Answered at once (no model is configured): taken back inside the same step.
    Answered(CallAnswer),
    /// Run off the mailbox, streaming what it writes to the sink it is given.
    Run(Box<dyn FnOnce(EventSink) -> CallFuture + Send>),
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

/// What every mode gets for being a cloneable `'static` type: a boxed copy, and itself as
/// its own type for code that knows it (its tests, tools). Implemented for every mode by the
/// blanket impl below; a mode writes none of it.
pub trait ModeObject: Any + Send + Sync {
    /// A copy behind a new box.
    fn clone_mode(&self) -> Box<dyn SessionMode>;

    /// The mode as its own type.
    fn as_any(&self) -> &dyn Any;

    /// The mode as its own type, mutably.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: SessionMode + Clone + 'static> ModeObject for T {
    fn clone_mode(&self) -> Box<dyn SessionMode> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// One session mode: its state, its rules, and its checkpoint form.
pub trait SessionMode: ModeObject + fmt::Debug {
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

    /// The call a [`Work::Call`] runs. A mode that never asks for one keeps this default.
    fn call(&self, _ctx: StepContext<'_>, _now_ms: u64) -> Option<Call> {
        None
    }

    /// Takes what came back for the work it asked for. A mode that asks for nothing but
    /// steps keeps this default.
    fn take_reply(
        &mut self,
        _life: &mut Lifecycle,
        _reply: WorkReply,
        _ctx: StepContext<'_>,
        _now_ms: u64,
    ) -> Result<(), Refusal> {
        Err(unasked_reply())
    }

    /// Takes the client's input (an answer, or an event of the mode's own) and queues its
    /// `ack`; refuses, changing nothing, what it does not take.
    fn take_input(
        &mut self,
        life: &mut Lifecycle,
        input: ModeInput,
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

    /// The result once completed: as sent in `session.completed`, or with its audit trail
    /// for its owner.
    fn result(&self, with_audit: bool) -> Option<SessionResult>;

    /// What the session is, for the rules that span a user's sessions.
    fn marks(&self) -> SessionMarks {
        SessionMarks::default()
    }

    /// The question asked and not yet assessed.
    fn open_question(&self) -> Option<OpenQuestionRef>;

    /// What the open question expects to hear, for spoken answers.
    fn listening(&self) -> Option<Listening<'_>>;

    /// The question most likely asked after the open one, for a slow examiner to phrase
    /// while the candidate answers; `None` (the default) when the mode cannot tell.
    fn question_ahead(&self, _life: &Lifecycle) -> Option<QuestionDraft> {
        None
    }

    /// Outcomes by element, merged into the user's element history when the session ends
    /// (and read by the next session that opens): each with the time it was assessed, or
    /// `finished_ms` (the session's last change) where the mode did not note one.
    fn history(&self, _finished_ms: u64) -> Vec<ElementOutcome> {
        Vec::new()
    }

    /// The side records this session holds by a claim, with what it would store if none
    /// was stored yet: claimed again when a device resumes the session.
    fn side_holds(&self) -> Vec<SideHold> {
        Vec::new()
    }

    /// The side records changed since they were last stored.
    fn side_writes(&self) -> Vec<SideWrite> {
        Vec::new()
    }

    /// A side record's write at `revision` is stored.
    fn side_stored(&mut self, _key: &SideKey, _revision: u64) {}

    /// A side record claimed again on resume: the mode takes the new fence, and the stored
    /// record when another session wrote it meanwhile (`claim.previous_owner` is not
    /// `life.session_id`).
    fn side_reclaimed(&mut self, _life: &Lifecycle, _claim: SideClaim) -> Result<(), Refusal> {
        Ok(())
    }

    /// The mode's section of the checkpoint.
    fn checkpoint(&self) -> ModeCheckpoint;

    /// The transcript as stored, for the checkpoint (a mode without one keeps the default).
    fn transcript(&self) -> Vec<crate::checkpoint::format::TurnCheckpoint> {
        Vec::new()
    }
}

/// The refusal of a reply to work the mode never asked for.
pub fn unasked_reply() -> Refusal {
    Refusal::new(
        ErrorCode::Internal,
        "a reply to work this session did not ask for",
    )
}
