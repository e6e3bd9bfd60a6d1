//! The session's work loop: it does what the state asks for (assess, phrase, a mode's call, a
//! step), here when it is done at once and off the mailbox when a slow examiner or a mode's
//! call makes it, commits once the session waits, and tells the supervisor when it ends.

use std::sync::Arc;

use kameo::actor::ActorRef;
use viva_protocol::server::{PauseReason, SessionStatus};

use super::actor::{LiveSession, SessionFinished};
use super::examining::phrase_streamed;
use super::in_flight::RunCall;
use viva_core::session::admission::Durability;
use viva_core::session::ahead::Offer;
use viva_core::session::lifecycle::Refusal;
use viva_core::session::state::{Call, Work, WorkReply};

/// What [`LiveSession::drive_from`] does next.
enum Next {
    /// A step was applied here (or refused).
    Stepped(Result<(), Refusal>),
    /// Nothing to do until the candidate acts.
    Idle,
    /// A slow examiner's call (or its speculation) is under way.
    Wait,
    /// This work goes to a slow examiner, or runs the mode's call, off the mailbox.
    Call(Work, Option<RunCall>),
}

impl LiveSession {
    /// Does the work the state asks for — assess, ask, judge, grade — from a committed state.
    pub(super) async fn drive(&mut self) {
        self.drive_from(false).await;
    }

    /// Does the work the state asks for; `unsaved`: the caller changed the state without
    /// committing it. Work done at once (an in-process examiner's) is applied step after
    /// step and committed once, when the session next waits for the candidate or for a slow
    /// examiner's call, which runs off the mailbox ([`ExaminerReturned`](super::ExaminerReturned)
    /// goes on from there): one checkpoint write per answer, not one per step. Nothing reaches
    /// the device before its commit, so grouping the steps changes what is stored at once, not
    /// what a device can see.
    pub(super) async fn drive_from(&mut self, mut unsaved: bool) {
        loop {
            match self.next_step(unsaved).await {
                Next::Stepped(Ok(())) => unsaved = true,
                Next::Stepped(Err(refusal)) => {
                    tracing::error!(session = %self.state.life().session_id, ?refusal, "session step refused");
                    self.settle(unsaved).await;
                    return;
                }
                Next::Wait => {
                    self.settle(unsaved).await;
                    return;
                }
                Next::Idle => {
                    if self.settle(unsaved).await {
                        self.speculate_next_question();
                    }
                    return;
                }
                Next::Call(work, run) => {
                    if self.settle(unsaved).await {
                        self.start_examiner_call(work, run);
                    }
                    return;
                }
            }
        }
    }

    /// The next piece of work, done here if it is done at once.
    async fn next_step(&mut self, unsaved: bool) -> Next {
        if self.in_flight.is_some() {
            return Next::Wait;
        }
        let now = self.now();
        let work = self.state.work();
        let slow = self.deps.examiner.is_slow();
        let stepped = match work {
            Work::Nothing => return Next::Idle,
            Work::Phrase(draft) if slow => match self.offer_speculated(&draft) {
                Offer::Ready(words) => self.take_reply(WorkReply::Phrased(draft, words), now),
                Offer::Coming => return Next::Wait,
                Offer::Missed | Offer::Nothing => return Next::Call(Work::Phrase(draft), None),
            },
            Work::Assess(_) if slow => return Next::Call(work, None),
            // A mode's call runs off the mailbox unless it was answered at once.
            Work::Call(_) => match self.state.call(Self::context(&self.deps), now) {
                Some(Call::Answered(answer)) => self.take_reply(WorkReply::Called(answer), now),
                Some(Call::Run(run)) => return Next::Call(work, Some(run)),
                None => Err(Refusal::new(
                    viva_protocol::ErrorCode::Internal,
                    "the session asked for a call it cannot make",
                )),
            },
            Work::Assess(request) => {
                let verdict = self.deps.examiner.assess(&request).await;
                self.take_reply(WorkReply::Assessed(verdict), now)
            }
            Work::Phrase(draft) => {
                // No preview of a question while what comes before it is not yet sent.
                let link = self.preview_link().filter(|_| !unsaved);
                let phrased =
                    phrase_streamed(&*self.deps.examiner, link, Arc::default(), &draft).await;
                self.take_reply(WorkReply::Phrased(draft, phrased), now)
            }
            Work::Step => self.state.step(Self::context(&self.deps), now),
        };
        Next::Stepped(stepped)
    }

    /// Commits the state if `unsaved`; whether it is durable (the session may go on).
    async fn settle(&mut self, unsaved: bool) -> bool {
        if !unsaved {
            return self.durability == Durability::Saved;
        }
        if !self.commit().await {
            return false;
        }
        self.notify_if_finished();
        true
    }

    pub(super) fn notify_if_finished(&self) {
        let status = self.state.life().status();
        if !matches!(status, SessionStatus::Completed | SessionStatus::Abandoned) {
            return;
        }
        let Some(supervisor) = self.supervisor.upgrade() else {
            return;
        };
        let finished = SessionFinished {
            session_id: self.state.life().session_id.clone(),
            status,
            history: self.state.history(),
        };
        // ignore: a stopped supervisor has no record left to update.
        let _ = supervisor.tell(finished).try_send();
    }

    pub(super) async fn pause_link(&mut self, reason: PauseReason, actor_ref: ActorRef<Self>) {
        if reason == PauseReason::OtherDevice {
            self.deps.metrics.takeovers.inc();
        }
        // The device losing the session sees no more of a question being written.
        if let Some(call) = &self.in_flight {
            call.mute();
        }
        let now = self.now();
        if self.state.life().phase.live().is_some()
            && self.state.life_mut().pause(reason, now).is_ok()
        {
            self.commit().await;
            self.start_abandon_timer(actor_ref);
        }
        // The device loses the session even if the write failed: tell it now (un-durable
        // acks stay held).
        self.flush_pause();
    }

    /// Completes an assessment whose time is up; true if it did (the result is sent).
    pub(super) async fn expire_if_due(&mut self) -> bool {
        let now = self.now();
        if !self.state.expire_if_due(Self::context(&self.deps), now) {
            return false;
        }
        if self.commit().await {
            self.notify_if_finished();
        }
        true
    }
}
