//! The examiner's calls from the session actor. A fast examiner (the embedded one) is
//! awaited inside `drive`. A slow one (a model) runs in a task of its own, so the actor keeps
//! handling its mailbox meanwhile: a takeover, a pause or a resume is answered at once, not
//! after the model. The task hands its answer back as [`ExaminerReturned`], which is applied
//! only if the session still wants exactly that work; otherwise (paused, ended, moved on) it
//! is dropped, and the work is asked for again when the session next needs it, from state
//! that was durable all along.
//!
//! What the device sees meanwhile is honest and in order: a slow assessment is announced by
//! `answer.assessing` once the answer is acked, and a question's `question.delta` pieces go
//! out only when nothing queued before them is still unsent (so never before the previous
//! answer's `assessment`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use viva_core::session::admission::Durability;

use kameo::message::{Context, Message};
use viva_protocol::server::{AnswerAssessing, QuestionDelta};
use viva_protocol::{ServerEvent, ServerMessage};

use super::actor::LiveSession;
use super::in_flight::{InFlight, RunCall};
use crate::link::DeviceLink;
use viva_core::examiner::{Examined, Examiner, ExaminerAssessment, ExaminerCall, QuestionDraft};
use viva_core::session::lifecycle::Refusal;
use viva_core::session::mode::{CallAnswer, EventSink};
use viva_core::session::state::{Work, WorkReply};

/// What a slow examiner's call gave.
#[derive(Debug)]
pub enum Answer {
    /// A question's words.
    Phrased(Examined<String>),
    /// A verdict.
    Assessed(Examined<ExaminerAssessment>),
    /// What the mode's own call gave.
    Called(CallAnswer),
}

/// A slow examiner's call finished: the work it was for, and its answer.
#[derive(Debug)]
pub struct ExaminerReturned {
    work: Work,
    answer: Answer,
}

impl Message<ExaminerReturned> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: ExaminerReturned, _: &mut Context<Self, ()>) {
        if self
            .in_flight
            .as_ref()
            .is_none_or(|call| call.work != msg.work)
        {
            return;
        }
        self.in_flight = None;
        let wanted = self.state.work() == msg.work;
        if self.admit_reply(wanted).await {
            let now = self.now();
            let stepped = match (msg.work, msg.answer) {
                (Work::Assess(_), Answer::Assessed(verdict)) => {
                    self.take_reply(WorkReply::Assessed(verdict), now)
                }
                (Work::Phrase(draft), Answer::Phrased(words)) => {
                    self.take_reply(WorkReply::Phrased(draft, words), now)
                }
                (Work::Call(_), Answer::Called(answer)) => {
                    self.take_reply(WorkReply::Called(answer), now)
                }
                _ => return,
            };
            match stepped {
                Ok(()) => self.drive_from(true).await,
                Err(refusal) => {
                    tracing::error!(session = %self.state.life().session_id, ?refusal, "session step refused");
                }
            }
            return;
        } else if self.durability != Durability::Saved {
            // Held or evicted: the retry that stores the held change asks again.
            return;
        }
        self.drive().await;
    }
}

impl LiveSession {
    /// Runs `work` (an assessment, a phrasing, or the mode's call `run`) in a task of its
    /// own; its answer comes back as [`ExaminerReturned`].
    pub(super) fn start_examiner_call(&mut self, work: Work, run: Option<RunCall>) {
        let (Some(me), true) = (self.me.clone(), self.in_flight.is_none()) else {
            return;
        };
        let examiner = self.deps.examiner.clone();
        let muted = Arc::new(AtomicBool::new(false));
        let (link, quiet) = (self.preview_link(), muted.clone());
        if matches!(work, Work::Assess(_)) {
            self.announce_assessing();
        }
        let call = work.clone();
        let task = tokio::spawn(async move {
            let answer = match &call {
                Work::Assess(request) => Answer::Assessed(examiner.assess(request).await),
                Work::Phrase(draft) => {
                    Answer::Phrased(phrase_streamed(&*examiner, link, quiet, draft).await)
                }
                Work::Call(_) => match run {
                    Some(run) => Answer::Called(run(event_sink(link, quiet)).await),
                    None => return,
                },
                Work::Step | Work::Nothing => return,
            };
            if let Some(session) = me.upgrade() {
                // ignore: a session that stopped meanwhile wants no answer.
                let _ = session.tell(ExaminerReturned { work: call, answer }).await;
            }
        });
        self.in_flight = Some(InFlight { work, muted, task });
    }

    /// The device's link for previews (`question.delta`, `answer.assessing`, a mode's call's
    /// pieces): only while every sequenced event queued before them has been sent, so a
    /// preview never overtakes what comes before it.
    pub(super) fn preview_link(&self) -> Option<DeviceLink> {
        let unsent = !self.state.life().outbox.is_empty();
        self.link.clone().filter(|_| !unsent)
    }

    /// A device attached while a slow examiner judges the open question's answer: it is told
    /// too (the call goes on, and its verdict will go to this device).
    pub(super) fn announce_assessing_to_new_device(&self) {
        let assessing = |call: &InFlight| matches!(call.work, Work::Assess(_));
        if self.in_flight.as_ref().is_some_and(assessing) {
            self.announce_assessing();
        }
    }

    /// Tells the device that the answer to the open question is being judged (a slow
    /// examiner's call is starting; the answer's `ack` is already sent).
    fn announce_assessing(&self) {
        let (Some(link), Some(question_id)) = (self.preview_link(), self.state.open_question_id())
        else {
            return;
        };
        let assessing = ServerEvent::AnswerAssessing(AnswerAssessing { question_id });
        link.send(ServerMessage::unsequenced(assessing));
    }

    /// Hands the examiner's reply to the session, logging the model call behind it.
    pub(super) fn take_reply(&mut self, reply: WorkReply, now: u64) -> Result<(), Refusal> {
        self.log_examiner_call(reply.model_call());
        self.state.take_reply(reply, Self::context(&self.deps), now)
    }

    /// The turn log of one model call, in the trace under this session. (The session's
    /// audit keeps it in the transcript; the LLM crate counts it in its own metrics.)
    fn log_examiner_call(&self, call: Option<&ExaminerCall>) {
        let Some(call) = call else { return };
        tracing::info!(
            session = %self.state.life().session_id,
            call = %call.call,
            model = %call.model,
            prompt_hash = %call.prompt_hash,
            latency_ms = call.latency_ms,
            first_token_ms = ?call.first_token_ms,
            prompt_tokens = call.prompt_tokens,
            completion_tokens = call.completion_tokens,
            outcome = %call.outcome,
            fallback_reason = ?call.fallback_reason,
            "examiner call"
        );
    }
}

/// Where a mode's call sends what it writes: `link`'s device, as unsequenced events,
/// until `muted`.
fn event_sink(link: Option<DeviceLink>, muted: Arc<AtomicBool>) -> EventSink {
    Arc::new(move |event: ServerEvent| {
        if let Some(link) = link.as_ref().filter(|_| !muted.load(Ordering::Relaxed)) {
            link.send(ServerMessage::unsequenced(event));
        }
    })
}

/// The examiner's words for `draft`, streamed to `link`'s device as `question.delta`
/// pieces while a model writes them, until `muted`.
pub(super) async fn phrase_streamed(
    examiner: &dyn Examiner,
    link: Option<DeviceLink>,
    muted: Arc<AtomicBool>,
    draft: &QuestionDraft,
) -> Examined<String> {
    let (question_id, number) = (draft.question_id(), draft.number);
    let deltas = move |text: &str| {
        let Some(link) = link.as_ref().filter(|_| !muted.load(Ordering::Relaxed)) else {
            return;
        };
        let delta = QuestionDelta {
            question_id: question_id.clone(),
            number,
            text: text.to_owned(),
        };
        link.send(ServerMessage::unsequenced(ServerEvent::QuestionDelta(
            delta,
        )));
    };
    examiner.phrase(&draft.request, &deltas).await
}
