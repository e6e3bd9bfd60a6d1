//! `LiveSession`: the actor that owns one live session (exam, assessment or tutoring). Handlers are
//! thin: each feeds the `SessionState`, writes a checkpoint at every committed boundary, and
//! only then sends what the state queued (so every `ack` follows a durable write).
//!
//! The actor holds its session by a claim (a fencing token, see `checkpoint`); each write
//! extends its node's lease, and it stops as soon as a write or a notice shows a newer claim.

use std::sync::Arc;
use std::time::Duration;

use kameo::Actor;
use kameo::actor::{ActorRef, WeakActorRef, WeakRecipient};
use tracing::Instrument;
use viva_protocol::server::{PauseReason, SessionStatus};
use viva_protocol::{ErrorCode, ServerMessage};

use crate::link::DeviceLink;
use crate::metrics::phase_index;
use crate::timer::Timer;
use viva_core::checkpoint::{CheckpointStore, HeadChain, SessionKey};
use viva_core::clock::Clock;
use viva_core::examiner::Examiner;
use viva_core::services::ModeServices;
use viva_core::session::admission::{Durability, MOVED};
use viva_core::session::ahead::Offer;
use viva_core::session::lifecycle::Refusal;
use viva_core::session::phase::Phase;
use viva_core::session::state::{Call, SessionState, StepContext, Work, WorkReply};

mod admission;
mod commit;
mod examining;
mod hibernate;
mod messages;
mod ownership;
mod question_speculation;
mod side_records;
mod timers;
mod voice;
mod voice_final;

pub use examining::ExaminerReturned;
use examining::phrase_streamed;
pub use hibernate::{Hibernate, Rejoin};
pub use messages::{
    AbandonCheck, Attach, Begin, Command, CommandOutcome, Detach, Inspect, SessionCommand,
    SessionFinished, SessionView, Shutdown, TimeLimitCheck, Yield,
};
pub use ownership::{Evict, RetryCommit};
pub use question_speculation::QuestionSpeculated;
pub use voice::{Audio, AudioControl, Transcribed, VoiceTick};

/// Shared services every session uses.
pub struct SessionDeps {
    /// Where checkpoints go.
    pub store: Arc<dyn CheckpointStore>,
    /// Phrases and assesses exam answers.
    pub examiner: Arc<dyn Examiner>,
    /// What the modes read: catalogs, blueprints, courses, the model tutor, plan sizing.
    pub modes: Arc<ModeServices>,
    /// Wall-clock time.
    pub clock: Arc<dyn Clock>,
    /// How long a paused session lives before it is abandoned.
    pub abandon_after: Duration,
    /// This server node's id, as lease owner and notice address.
    pub node_id: String,
    /// How long a node's lease on a session lasts after its last write (or its claim, or
    /// its hibernation): while it lasts, a claim elsewhere tells this node.
    pub lease: Duration,
    /// Speech to text; `None` runs text-only (audio gets `voice_unavailable`).
    pub speech: Option<Arc<dyn viva_core::voice::SpeechToText>>,
    /// Turn-taking settings for spoken answers.
    pub turns: viva_core::voice::TurnSettings,
    /// What the server counts.
    pub metrics: Arc<crate::metrics::SessionMetrics>,
    /// Side records (a student's snapshot of a course), beyond their sessions.
    pub sides: Arc<dyn viva_core::checkpoint::SideStore>,
    /// Whether a slow examiner phrases the likely next question while the candidate answers.
    pub phrase_ahead: bool,
}

/// One live session.
pub struct LiveSession {
    state: SessionState,
    deps: Arc<SessionDeps>,
    link: Option<DeviceLink>,
    /// Where the session reports its end (its user's supervisor).
    supervisor: WeakRecipient<SessionFinished>,
    pause_epoch: u64,
    /// The one pending abandonment timer; a new pause replaces it.
    abandon_timer: Option<Timer>,
    /// The time-limit timer of an assessment.
    deadline_timer: Option<Timer>,
    /// Retries a failed checkpoint with backoff.
    retry_timer: Option<Timer>,
    /// What this actor knows is stored of the head, so a write sends only what changed.
    stored_head: HeadChain,
    /// The wait before the next retry of a held write.
    retry_wait: Duration,
    /// How this actor holds its session in storage.
    claim: Ownership,
    /// Whether the state is stored, held unsaved (the outbox waits), or lost to a newer
    /// claim (the actor refuses everything and is stopping).
    durability: Durability,
    /// Spoken answers: created on the first audio, when the server has a speech model.
    voice: Option<voice::Voice>,
    /// The phase this actor is counted under in `viva_sessions`.
    counted_phase: Phase,
    /// `session` (session, user, node): the parent of every message's `turn` span.
    span: tracing::Span,
    me: Option<WeakActorRef<Self>>,
    /// The slow examiner's call under way, if any (never more than one).
    in_flight: Option<examining::InFlight>,
    /// The next question, phrased while the candidate answers (slow examiners only).
    phrasing_ahead: question_speculation::PhrasingAhead,
}

fn moved() -> Refusal {
    Refusal::new(ErrorCode::SessionMoved, MOVED)
}

/// What [`LiveSession::drive_from`] does next.
enum Next {
    /// A step was applied here (or refused).
    Stepped(Result<(), Refusal>),
    /// Nothing to do until the candidate acts.
    Idle,
    /// A slow examiner's call (or its speculation) is under way.
    Wait,
    /// This work goes to a slow examiner, or runs the mode's call, off the mailbox.
    Call(Work, Option<examining::RunCall>),
}

/// How a session actor holds its session in storage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ownership {
    /// The session's storage key.
    pub key: SessionKey,
    /// The fencing token of this actor's claim.
    pub token: u64,
    /// The version of the latest write attempt (the stored checkpoint's, at first).
    pub version: u64,
    /// Transcript turns already stored.
    pub stored_turns: usize,
}

impl Actor for LiveSession {
    type Args = Self;
    type Error = std::convert::Infallible;

    /// Every message is handled inside a `turn` span under the session's span, naming the
    /// open question and the last sequence number, so each log line says where the exam
    /// stood. Afterwards the session is counted under its (maybe new) phase.
    fn on_message(
        &mut self,
        msg: kameo::message::BoxMessage<Self>,
        actor_ref: ActorRef<Self>,
        tx: Option<kameo::reply::BoxReplySender>,
        stop: &mut bool,
    ) -> impl std::future::Future<Output = Result<(), Box<dyn kameo::reply::ReplyError>>> + Send
    {
        // The fields are only evaluated when debug spans are on: no work on the hot path.
        let turn = tracing::debug_span!(
            parent: &self.span,
            "turn",
            question = self.state.open_question_id().as_deref(),
            seq = self.state.life().seq
        );
        async move {
            let handled = msg
                .handle_dyn(&mut *self, actor_ref, tx, stop)
                .instrument(turn)
                .await;
            self.count_phase();
            handled
        }
    }

    async fn on_start(mut state: Self, me: ActorRef<Self>) -> Result<Self, Self::Error> {
        state.me = Some(me.downgrade());
        state.counted_phase = state.state.life().phase;
        state.deps.metrics.sessions_in(state.counted_phase).inc();
        Ok(state)
    }

    async fn on_stop(
        &mut self,
        _: WeakActorRef<Self>,
        _: kameo::error::ActorStopReason,
    ) -> Result<(), Self::Error> {
        if let Some(call) = self.in_flight.take() {
            call.abort();
        }
        self.phrasing_ahead = Default::default();
        // Dropping a timer cancels it.
        self.abandon_timer = None;
        self.deadline_timer = None;
        self.retry_timer = None;
        self.deps.metrics.sessions_in(self.counted_phase).dec();
        Ok(())
    }
}

impl LiveSession {
    /// A session actor's state, before spawning, holding its session by `claim`.
    pub fn new(
        state: SessionState,
        deps: Arc<SessionDeps>,
        supervisor: WeakRecipient<SessionFinished>,
        claim: Ownership,
    ) -> LiveSession {
        let life = state.life();
        let span = tracing::info_span!(
            "session",
            session = %life.session_id,
            user = %life.user_id,
            node = %deps.node_id
        );
        LiveSession {
            span,
            state,
            deps,
            link: None,
            supervisor,
            pause_epoch: 0,
            abandon_timer: None,
            deadline_timer: None,
            retry_timer: None,
            stored_head: HeadChain::default(),
            retry_wait: commit::RETRY_FIRST,
            claim,
            durability: Durability::Saved,
            voice: None,
            counted_phase: Phase::Idle,
            me: None,
            in_flight: None,
            phrasing_ahead: Default::default(),
        }
    }

    /// Moves this actor's count in `viva_sessions` to its current phase.
    fn count_phase(&mut self) {
        let phase = self.state.life().phase;
        if phase_index(phase) != phase_index(self.counted_phase) {
            let metrics = &self.deps.metrics;
            metrics.sessions_in(self.counted_phase).dec();
            metrics.sessions_in(phase).inc();
            self.counted_phase = phase;
        }
    }

    fn now(&self) -> u64 {
        self.deps.clock.now_ms()
    }

    fn context(deps: &SessionDeps) -> StepContext<'_> {
        deps.modes.context()
    }

    /// Whether `connection_id` is the device attached to this session.
    fn is_attached(&self, connection_id: u64) -> bool {
        self.link
            .as_ref()
            .is_some_and(|link| link.connection_id == connection_id)
    }

    /// Why `connection_id` may not act on this session now; `None` when it may.
    fn refusal_for(&self, connection_id: u64) -> Option<Refusal> {
        if !self.is_attached(connection_id) {
            let message = "this device no longer holds the session; resume it first";
            return Some(Refusal::new(ErrorCode::SessionPaused, message));
        }
        self.durability.is_evicted().then(moved)
    }

    fn send_error(&self, code: ErrorCode, message: &str, event_id: Option<String>) {
        if let Some(link) = &self.link {
            link.send(ServerMessage::error(code, message, event_id));
        }
    }

    /// Does the work the state asks for — assess, ask, judge, grade — from a committed state.
    async fn drive(&mut self) {
        self.drive_from(false).await;
    }

    /// Does the work the state asks for; `unsaved`: the caller changed the state without
    /// committing it. Work done at once (an in-process examiner's) is applied step after
    /// step and committed once, when the session next waits for the candidate or for a slow
    /// examiner's call, which runs off the mailbox ([`ExaminerReturned`] goes on from
    /// there): one checkpoint write per answer, not one per step. Nothing reaches the device
    /// before its commit, so grouping the steps changes what is stored at once, not what a
    /// device can see.
    async fn drive_from(&mut self, mut unsaved: bool) {
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
                let link = self.link.clone().filter(|_| !unsaved);
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

    fn notify_if_finished(&self) {
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

    async fn pause_link(&mut self, reason: PauseReason, actor_ref: ActorRef<Self>) {
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
    async fn expire_if_due(&mut self) -> bool {
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
