//! Hibernating and waking a user's sessions. A connection idle for `hibernate_after` asks
//! for its session to hibernate; its next event asks for it back. Whatever else reaches a
//! hibernated session — another device taking it, a notice from another node, its
//! connection closing, a shutdown — wakes it first and then acts on it as on any live one,
//! so its device is told exactly what it would have been told.

use std::time::Instant;

use kameo::actor::ActorRef;
use kameo::message::{Context, Message};
use viva_protocol::server::{PauseReason, ServerEvent, SessionPaused};
use viva_protocol::{ErrorCode, ServerMessage};

use super::actor::{Attached, UserSupervisor, not_found};
use crate::hibernation::Hibernated;
use crate::session::{Hibernate, Inspect, LiveSession, Ownership, Rejoin};
use viva_core::modes::restore;
use viva_core::session::admission::MOVED;
use viva_core::session::lifecycle::Refusal;

/// The attached connection has been idle: hibernate its session if nothing would be lost.
#[derive(Debug)]
pub struct HibernateSession {
    /// The session.
    pub session_id: String,
    /// The idle connection.
    pub connection_id: u64,
}

impl Message<HibernateSession> for UserSupervisor {
    type Reply = bool;

    async fn handle(&mut self, msg: HibernateSession, _: &mut Context<Self, bool>) -> bool {
        let Some(session) = self.sessions.get(&msg.session_id).cloned() else {
            return false;
        };
        let asked = Hibernate {
            connection_id: msg.connection_id,
        };
        let Ok(Some(entry)) = session.ask(asked).await else {
            return false;
        };
        self.sessions.remove(&msg.session_id);
        self.deps.hibernation.put(&self.user_id, entry);
        true
    }
}

/// The attached connection has an event for its hibernated session: wake it.
#[derive(Debug)]
pub struct WakeSession {
    /// The session.
    pub session_id: String,
    /// The connection.
    pub connection_id: u64,
}

impl Message<WakeSession> for UserSupervisor {
    type Reply = Attached;

    async fn handle(&mut self, msg: WakeSession, ctx: &mut Context<Self, Attached>) -> Attached {
        let me = ctx.actor_ref().clone();
        match self.wake_for(&msg, &me).await {
            Ok(session) => Attached::Session {
                session_id: msg.session_id,
                session,
            },
            Err(refusal) => Attached::Refused(refusal),
        }
    }
}

fn no_longer_here() -> Refusal {
    let message = "the session is no longer live here; resume it";
    Refusal::new(ErrorCode::SessionPaused, message)
}

/// Why a hibernated session could not be woken.
pub(super) enum WakeFailure {
    /// A newer claim took it while it slept; its device has been told.
    Moved,
    /// Storage could not be reached; it stays hibernated.
    Unavailable(Refusal),
    /// Its checkpoint is gone or unreadable.
    Lost(Refusal),
}

impl WakeFailure {
    pub(super) fn refusal(self) -> Refusal {
        match self {
            WakeFailure::Moved => Refusal::new(ErrorCode::SessionMoved, MOVED),
            WakeFailure::Unavailable(refusal) | WakeFailure::Lost(refusal) => refusal,
        }
    }
}

impl UserSupervisor {
    /// The session `msg.connection_id` holds, awake: the live actor if something woke it
    /// already and it is still attached there, else woken from hibernation.
    async fn wake_for(
        &mut self,
        msg: &WakeSession,
        me: &ActorRef<Self>,
    ) -> Result<ActorRef<LiveSession>, Refusal> {
        if let Some(session) = self.sessions.get(&msg.session_id).filter(|s| s.is_alive()) {
            let view = session.ask(Inspect).await.map_err(|_| no_longer_here())?;
            return match view.connection_id == Some(msg.connection_id) {
                true => Ok(session.clone()),
                false => Err(no_longer_here()),
            };
        }
        let held_here = |entry: &Hibernated| {
            entry.session_id == msg.session_id && entry.link.connection_id == msg.connection_id
        };
        let entry = self
            .deps
            .hibernation
            .take_where(&self.user_id, held_here)
            .pop()
            .ok_or_else(no_longer_here)?;
        self.wake(entry, me).await.map_err(WakeFailure::refusal)
    }

    /// The session's actor if it is awake here, woken if it is hibernated here.
    pub(super) async fn awake_session(
        &mut self,
        session_id: &str,
        me: &ActorRef<Self>,
    ) -> Option<ActorRef<LiveSession>> {
        if let Some(session) = self.sessions.get(session_id).filter(|s| s.is_alive()) {
            return Some(session.clone());
        }
        let entry = self.deps.hibernation.take(&self.user_id, session_id)?;
        self.wake(entry, me).await.ok()
    }

    /// Wakes every session of this user hibernated here for which `wanted` holds; each joins
    /// `sessions`, where the caller acts on it as on any live one.
    pub(super) async fn wake_where(
        &mut self,
        me: &ActorRef<Self>,
        wanted: impl Fn(&Hibernated) -> bool,
    ) {
        for entry in self.deps.hibernation.take_where(&self.user_id, wanted) {
            // ignore: a session that could not be woken was told why, or stays hibernated.
            let _ = self.wake(entry, me).await;
        }
    }

    /// Restores a hibernated session from its checkpoint under the claim it held, and
    /// gives it back its device.
    pub(super) async fn wake(
        &mut self,
        entry: Hibernated,
        me: &ActorRef<Self>,
    ) -> Result<ActorRef<LiveSession>, WakeFailure> {
        let started = Instant::now();
        let ownership = match self.reclaim_asleep(&entry).await {
            Ok(claim) => claim,
            Err(WakeFailure::Moved) => {
                told_moved(&entry);
                return Err(WakeFailure::Moved);
            }
            Err(WakeFailure::Unavailable(refusal)) => {
                self.deps.hibernation.put(&self.user_id, entry);
                return Err(WakeFailure::Unavailable(refusal));
            }
            Err(lost) => return Err(lost),
        };
        let (state, claim) = ownership;
        let session = self.spawn_session(state, claim, me);
        let rejoin = Rejoin { link: entry.link };
        // ignore: a fresh session with a bounded mailbox of 64 has room for its first message.
        let _ = session.tell(rejoin).await;
        self.deps
            .session
            .metrics
            .wake_seconds
            .observe(started.elapsed());
        Ok(session)
    }

    /// The session's state from its checkpoint and the claim it still holds — if it does.
    async fn reclaim_asleep(
        &self,
        entry: &Hibernated,
    ) -> Result<(viva_core::session::state::SessionState, Ownership), WakeFailure> {
        let key = self.key(&entry.session_id);
        let store = &self.deps.session.store;
        let lease_ms = self.deps.session.lease.as_millis() as u64;
        let unavailable = |err: viva_core::checkpoint::StoreError| {
            tracing::error!(session = %entry.session_id, %err, "hibernated session not woken");
            let message = "the session could not be reached; retry";
            WakeFailure::Unavailable(Refusal::new(ErrorCode::StorageUnavailable, message))
        };
        let renewed = store.renew_lease(&key, self.node_id(), entry.token, lease_ms);
        if !renewed.await.map_err(unavailable)? {
            return Err(WakeFailure::Moved);
        }
        let checkpoint = store
            .load_session(&key)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| WakeFailure::Lost(not_found()))?;
        let ownership = Ownership {
            key,
            token: entry.token,
            version: checkpoint.version,
            stored_turns: checkpoint.transcript.len(),
        };
        let state = restore(checkpoint).map_err(|err| {
            tracing::error!(%err, "checkpoint invalid");
            let refusal = Refusal::new(ErrorCode::Internal, "the session could not be restored");
            WakeFailure::Lost(refusal)
        })?;
        Ok((state, ownership))
    }
}

/// Tells a hibernated session's device what a live session tells it when a newer claim
/// takes it: `session_moved`, and `session.paused` (`other_device`) if it was live.
fn told_moved(entry: &Hibernated) {
    entry
        .link
        .send(ServerMessage::error(ErrorCode::SessionMoved, MOVED, None));
    if entry.live {
        let paused = SessionPaused {
            session_id: entry.session_id.clone(),
            reason: PauseReason::OtherDevice,
        };
        entry.link.send(ServerMessage {
            seq: Some(entry.seq + 1),
            event: ServerEvent::SessionPaused(paused),
        });
    }
}
