//! Start and resume: claim the session, take the user's active exam by compare-and-set, and
//! pause the device that held it — by a message here, or a notice to its node.

use kameo::actor::{ActorRef, Spawn};
use viva_protocol::ErrorCode;
use viva_protocol::server::SessionStatus;

use super::actor::{Attached, SESSION_MAILBOX, UserSupervisor, not_found};
use super::hibernation::WakeFailure;
use super::messages::{ResumeSession, StartSession};
use super::record::{label_session, note_session, note_start_event, open_marks, take_active};
use crate::link::DeviceLink;
use crate::session::{
    Attach, Begin, Inspect, LiveSession, Ownership, SessionDeps, SessionFinished, Yield,
};
use viva_core::checkpoint::format::Holder;
use viva_core::checkpoint::{Claim, ClaimKind, Notice, SessionKey};
use viva_core::modes::restore;
use viva_core::session::lifecycle::{Lifecycle, Refusal};
use viva_core::session::rules::refuse_beside;
use viva_core::session::state::SessionState;

/// Whether a session is opened by a new start, or by its start resent after that start's
/// node died before storing it (already counted against the user's limits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opening {
    New,
    Again,
}

fn unavailable(what: &str) -> Refusal {
    Refusal::new(
        ErrorCode::StorageUnavailable,
        format!("the session could not be {what}; retry"),
    )
}

impl UserSupervisor {
    pub(super) fn key(&self, session_id: &str) -> SessionKey {
        SessionKey::new(&self.user_id, session_id)
    }

    pub(super) fn node_id(&self) -> &str {
        &self.deps.session.node_id
    }

    async fn claim(&self, session_id: &str, kind: ClaimKind) -> Result<Option<Claim>, Refusal> {
        let lease_ms = self.deps.session.lease.as_millis() as u64;
        let key = self.key(session_id);
        let store = &self.deps.session.store;
        store
            .claim_session(&key, self.node_id(), kind, lease_ms)
            .await
            .map_err(|err| {
                tracing::error!(session = session_id, %err, "session not claimed");
                unavailable("claimed")
            })
    }

    pub(super) fn spawn_session(
        &mut self,
        state: SessionState,
        claim: Ownership,
        me: &ActorRef<Self>,
    ) -> ActorRef<LiveSession> {
        let session_id = claim.key.session_id.clone();
        let reports = me.clone().recipient::<SessionFinished>().downgrade();
        let actor = LiveSession::new(state, self.deps.session.clone(), reports, claim);
        let session =
            LiveSession::spawn_with_mailbox(actor, kameo::mailbox::bounded(SESSION_MAILBOX));
        // Sessions evicted by a newer claim elsewhere have stopped; forget them.
        self.sessions.retain(|_, existing| existing.is_alive());
        self.sessions.insert(session_id, session.clone());
        session
    }

    /// Pauses the device of the previous active exam: here if its session lives (or
    /// hibernates) here, else by a notice to the node that held it.
    async fn yield_previous(
        &mut self,
        previous: Option<Holder>,
        taker: &DeviceLink,
        keep: &str,
        me: &ActorRef<Self>,
    ) {
        let Some(Holder { session_id, node }) = previous else {
            return;
        };
        if let Some(session) = self.awake_session(&session_id, me).await {
            let yielding = Yield {
                taker_connection_id: Some(taker.connection_id),
                same_session: session_id == keep,
            };
            // ignore: a stopped session has nothing attached to pause.
            let _ = session.ask(yielding).await;
        }
        match node {
            Some(node) if node != self.node_id() => {
                let notice = Notice::Yield {
                    user_id: self.user_id.clone(),
                    active_session: keep.to_owned(),
                };
                self.publish(&node, &notice).await;
            }
            _ => {}
        }
    }

    pub(super) async fn publish(&self, node: &str, notice: &Notice) {
        if let Err(err) = self.deps.bus.publish(node, notice).await {
            // Fencing and the active check still hold; the pause only waits for a write.
            tracing::warn!(node, %err, "notice not sent");
        }
    }

    pub(super) async fn start(
        &mut self,
        msg: StartSession,
        me: &ActorRef<Self>,
    ) -> Result<Attached, Refusal> {
        self.deps.new_sessions.check_start().await?;
        let session_id = uuid::Uuid::new_v4().to_string();
        self.open(msg, session_id, Opening::New, me)
            .await?
            .ok_or_else(|| Refusal::new(ErrorCode::Internal, "session id collision"))
    }

    /// A start resent with the event id of an open session: that session, resumed. When the
    /// start that created it never stored its first checkpoint (its node died in between),
    /// the device was never told of it, so it is opened now under the same id: the exam
    /// still starts once.
    pub(super) async fn repeat_start(
        &mut self,
        msg: StartSession,
        session_id: String,
        me: &ActorRef<Self>,
    ) -> Result<Attached, Refusal> {
        let resume = |msg: &StartSession| ResumeSession {
            link: msg.link.clone(),
            event_id: msg.event_id.clone(),
            session_id: Some(session_id.clone()),
        };
        match self.resume(resume(&msg), me).await {
            Err(refusal) if refusal.code == ErrorCode::SessionNotFound => {}
            outcome => return outcome,
        }
        let again = resume(&msg);
        match self
            .open(msg, session_id.clone(), Opening::Again, me)
            .await?
        {
            Some(attached) => Ok(attached),
            // Its first checkpoint landed meanwhile (its node was slow, not dead).
            None => self.resume(again, me).await,
        }
    }

    /// Opens session `session_id`: notes it in the user's record as the active exam, pauses
    /// the previous one and claims it. `None` when a checkpoint already exists under the id.
    async fn open(
        &mut self,
        msg: StartSession,
        session_id: String,
        opening: Opening,
        me: &ActorRef<Self>,
    ) -> Result<Option<Attached>, Refusal> {
        let label = self.label(&msg.config);
        let state = self
            .new_state(msg.config, &label, session_id.clone())
            .await?;
        if opening == Opening::New {
            self.check_limits(tokio::time::Instant::now())?;
        }
        let node = self.node_id().to_owned();
        let event_id = msg.event_id.clone();
        let previous = self
            .update_record(|record| {
                note_start_event(record, event_id.as_deref(), &session_id);
                let previous = take_active(record, &session_id, &node);
                label_session(record, &session_id, &label);
                previous
            })
            .await?;
        self.yield_previous(previous, &msg.link, &session_id, me)
            .await;
        let Some(claim) = self.claim(&session_id, ClaimKind::Create).await? else {
            return Ok(None);
        };
        let ownership = Ownership {
            key: self.key(&session_id),
            token: claim.token,
            version: 0,
            stored_turns: 0,
        };
        let session = self.spawn_session(state, ownership, me);
        let begin = Begin {
            link: msg.link,
            event_id: msg.event_id,
        };
        // ignore: a fresh session with a bounded mailbox of 64 has room for its first message.
        let _ = session.tell(begin).await;
        Ok(Some(Attached::Session {
            session_id,
            session,
        }))
    }

    /// The session id a resume means: the one named, or the active or latest paused one.
    pub(super) fn resolve(&self, requested: Option<&str>) -> Result<String, Refusal> {
        let sessions = &self.record.sessions;
        let owned = |id: &str| sessions.iter().any(|entry| entry.session_id == id);
        match requested {
            Some(id) if owned(id) => Ok(id.to_owned()),
            Some(_) => Err(not_found()),
            None => self
                .record
                .active_session
                .clone()
                .filter(|id| owned(id))
                .or_else(|| {
                    sessions
                        .iter()
                        .rev()
                        .find(|e| e.is_open())
                        .map(|e| e.session_id.clone())
                })
                .ok_or_else(|| Refusal::new(ErrorCode::SessionNotFound, "no session to resume")),
        }
    }

    /// The live actor of a session: the one here, or a new one that claims the session from
    /// its checkpoint (telling the node that held it to let go).
    async fn live_session(
        &mut self,
        session_id: &str,
        me: &ActorRef<Self>,
    ) -> Result<ActorRef<LiveSession>, Refusal> {
        if let Some(session) = self.sessions.get(session_id).filter(|s| s.is_alive()) {
            return Ok(session.clone());
        }
        if let Some(entry) = self.deps.hibernation.take(&self.user_id, session_id) {
            match self.wake(entry, me).await {
                Ok(session) => return Ok(session),
                // Taken by a newer claim while it slept: claim it back, as for any resume.
                Err(WakeFailure::Moved) => {}
                Err(failure) => return Err(failure.refusal()),
            }
        }
        let claim = self
            .claim(session_id, ClaimKind::Adopt)
            .await?
            .ok_or_else(not_found)?;
        let checkpoint = claim.checkpoint.ok_or_else(not_found)?;
        let ownership = Ownership {
            key: self.key(session_id),
            token: claim.token,
            version: checkpoint.version,
            stored_turns: checkpoint.transcript.len(),
        };
        let mut state = restore(checkpoint).map_err(|err| {
            tracing::error!(%err, "checkpoint invalid");
            Refusal::new(ErrorCode::Internal, "the session could not be restored")
        })?;
        restore_pause(state.life_mut(), &self.deps.session);
        if let Some(node) = claim.previous_owner.filter(|n| n != self.node_id()) {
            let notice = Notice::Moved {
                user_id: self.user_id.clone(),
                session_id: session_id.to_owned(),
                token: claim.token,
            };
            self.publish(&node, &notice).await;
        }
        Ok(self.spawn_session(state, ownership, me))
    }

    pub(super) async fn resume(
        &mut self,
        msg: ResumeSession,
        me: &ActorRef<Self>,
    ) -> Result<Attached, Refusal> {
        let session_id = self.resolve(msg.session_id.as_deref())?;
        let session = self.live_session(&session_id, me).await?;
        let view = session.ask(Inspect).await.ok();
        let status = view.as_ref().map_or(SessionStatus::Active, |v| v.status);
        let open = matches!(status, SessionStatus::Active | SessionStatus::Paused);
        if let Some(view) = view.as_ref().filter(|_| open) {
            refuse_beside(view.marks, open_marks(&self.record))?;
        }
        if open {
            let node = self.node_id().to_owned();
            let previous = self
                .update_record(|record| take_active(record, &session_id, &node))
                .await?;
            self.yield_previous(previous, &msg.link, &session_id, me)
                .await;
        }
        let attach = Attach {
            link: msg.link,
            event_id: msg.event_id,
        };
        session.ask(attach).await.map_err(|err| match err {
            kameo::error::SendError::HandlerError(refusal) => refusal,
            other => {
                tracing::error!(session = %session_id, ?other, "attach failed");
                Refusal::new(ErrorCode::Internal, "the session could not be resumed")
            }
        })?;
        self.note_status(&session_id, &session).await;
        Ok(Attached::Session {
            session_id,
            session,
        })
    }

    /// Records a session's status after an attach (it may have completed or been abandoned).
    async fn note_status(&mut self, session_id: &str, session: &ActorRef<LiveSession>) {
        let Ok(view) = session.ask(Inspect).await else {
            return;
        };
        if matches!(view.status, SessionStatus::Active) {
            return;
        }
        let status = view.status;
        if matches!(status, SessionStatus::Completed | SessionStatus::Abandoned) {
            // Finished: the device's reference alone keeps the actor (see `SessionFinished`).
            self.sessions.remove(session_id);
        }
        // ignore: failure is logged; the session's own checkpoint is already durable.
        let _ = self
            .update_record(|record| note_session(record, session_id, status))
            .await;
    }
}

/// A session restored after a restart was left as it stood; treat it as paused since then,
/// and abandon it if that pause is already too long.
fn restore_pause(life: &mut Lifecycle, deps: &SessionDeps) {
    let now = deps.clock.now_ms();
    if life.phase.live().is_some() {
        let since = life.updated_at_ms;
        if life
            .pause(viva_protocol::server::PauseReason::ServerShutdown, since)
            .is_ok()
        {
            life.outbox.clear();
        }
    }
    let after = deps.abandon_after.as_millis() as u64;
    if life.abandon_if_stale(after, now) {
        tracing::info!(session = %life.session_id, "restored session was paused too long; abandoned");
    }
}
