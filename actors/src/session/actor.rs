//! The session actor itself: what it holds, what sessions share, and how it starts and
//! stops. Its messages and its work live in the files beside this one, which import this
//! file (never `mod.rs`), so the files import in one direction.

use std::sync::Arc;
use std::time::Duration;

use kameo::Actor;
use kameo::actor::{ActorRef, WeakActorRef, WeakRecipient};
use tracing::Instrument;
use viva_protocol::ErrorCode;
use viva_protocol::ServerMessage;
use viva_protocol::server::SessionStatus;

use super::in_flight::InFlight;
use super::phrasing_ahead::PhrasingAhead;
use super::voice_state::Voice;
use crate::link::DeviceLink;
use crate::metrics::phase_index;
use crate::timer::Timer;
use viva_core::checkpoint::{CheckpointStore, HeadChain, SessionKey};
use viva_core::clock::Clock;
use viva_core::examiner::Examiner;
use viva_core::review::ElementOutcome;
use viva_core::services::ModeServices;
use viva_core::session::admission::{Durability, MOVED};
use viva_core::session::lifecycle::Refusal;
use viva_core::session::phase::Phase;
use viva_core::session::state::{SessionState, StepContext};

/// The first wait before retrying a held checkpoint write (it doubles up to a limit).
pub(super) const RETRY_FIRST: Duration = Duration::from_millis(100);

/// A session completed or was abandoned: the report a session sends to whoever supervises
/// it (a `WeakRecipient`, so the session never names its supervisor's type).
#[derive(Debug)]
pub struct SessionFinished {
    /// Which.
    pub session_id: String,
    /// Completed or abandoned.
    pub status: SessionStatus,
    /// Outcomes by element, each at the time it was assessed, merged into the user's
    /// element history (read by the next session that opens, for weak areas).
    pub history: Vec<ElementOutcome>,
}

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
    /// Judges whether a pause ends the answer (Smart Turn); `None` waits out the thinking
    /// pause (and still tells the client of pauses, as unjudged).
    pub judge: Option<Arc<dyn viva_core::voice::end_of_turn::TurnJudge>>,
    /// The examiner's voice for devices that ask to hear it; `None`: silent.
    pub voice: Option<Arc<dyn viva_core::voice::synth::ExaminerVoice>>,
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
    pub(super) state: SessionState,
    pub(super) deps: Arc<SessionDeps>,
    pub(super) link: Option<DeviceLink>,
    /// Where the session reports its end (its user's supervisor).
    pub(super) supervisor: WeakRecipient<SessionFinished>,
    pub(super) pause_epoch: u64,
    /// The one pending abandonment timer; a new pause replaces it.
    pub(super) abandon_timer: Option<Timer>,
    /// The time-limit timer of an assessment.
    pub(super) deadline_timer: Option<Timer>,
    /// Retries a failed checkpoint with backoff.
    pub(super) retry_timer: Option<Timer>,
    /// What this actor knows is stored of the head, so a write sends only what changed.
    pub(super) stored_head: HeadChain,
    /// The wait before the next retry of a held write.
    pub(super) retry_wait: Duration,
    /// How this actor holds its session in storage.
    pub(super) claim: Ownership,
    /// Whether the state is stored, held unsaved (the outbox waits), or lost to a newer
    /// claim (the actor refuses everything and is stopping).
    pub(super) durability: Durability,
    /// Spoken answers: created on the first audio, when the server has a speech model.
    pub(super) voice: Option<Voice>,
    /// The phase this actor is counted under in `viva_sessions`.
    pub(super) counted_phase: Phase,
    /// `session` (session, user, node): the parent of every message's `turn` span.
    pub(super) span: tracing::Span,
    pub(super) me: Option<WeakActorRef<Self>>,
    /// The slow examiner's call under way, if any (never more than one).
    pub(super) in_flight: Option<InFlight>,
    /// The next question, phrased while the candidate answers (slow examiners only).
    pub(super) phrasing_ahead: PhrasingAhead,
}

pub(super) fn moved() -> Refusal {
    Refusal::new(ErrorCode::SessionMoved, MOVED)
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
            retry_wait: RETRY_FIRST,
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

    pub(super) fn now(&self) -> u64 {
        self.deps.clock.now_ms()
    }

    pub(super) fn context(deps: &SessionDeps) -> StepContext<'_> {
        deps.modes.context()
    }

    /// Whether `connection_id` is the device attached to this session.
    pub(super) fn is_attached(&self, connection_id: u64) -> bool {
        self.link
            .as_ref()
            .is_some_and(|link| link.connection_id == connection_id)
    }

    /// Why `connection_id` may not act on this session now; `None` when it may.
    pub(super) fn refusal_for(&self, connection_id: u64) -> Option<Refusal> {
        if !self.is_attached(connection_id) {
            let message = "this device no longer holds the session; resume it first";
            return Some(Refusal::new(ErrorCode::SessionPaused, message));
        }
        self.durability.is_evicted().then(moved)
    }

    pub(super) fn send_error(&self, code: ErrorCode, message: &str, event_id: Option<String>) {
        if let Some(link) = &self.link {
            link.send(ServerMessage::error(code, message, event_id));
        }
    }
}
