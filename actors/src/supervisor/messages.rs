//! The messages a `UserSupervisor` handles.

use std::collections::BTreeMap;

use kameo::message::{Context, Message};
use viva_protocol::config::SessionConfig;
use viva_protocol::result::SessionResult;
use viva_protocol::server::SessionStatus;

use super::actor::{Attached, UserSupervisor};
use super::record::{note_finished, repeated_open_start};
use crate::link::DeviceLink;
use crate::session::{Evict, Yield};
use crate::session::{Inspect, SessionFinished, Shutdown};
use viva_core::checkpoint::Notice;
use viva_core::checkpoint::UserRecord;
use viva_core::checkpoint::format::SessionEntry;
use viva_core::modes::restore;
use viva_core::review::ElementHistory;

/// `session.start`.
#[derive(Debug)]
pub struct StartSession {
    /// The device starting it.
    pub link: DeviceLink,
    /// The event id.
    pub event_id: Option<String>,
    /// Mode and config.
    pub config: SessionConfig,
}

impl Message<StartSession> for UserSupervisor {
    type Reply = Attached;

    async fn handle(&mut self, msg: StartSession, ctx: &mut Context<Self, Attached>) -> Attached {
        let me = ctx.actor_ref().clone();
        if let Err(refusal) = self.refresh_record().await {
            return Attached::Refused(refusal);
        }
        let outcome = match repeated_open_start(&self.record, msg.event_id.as_deref()) {
            Some(session_id) => self.repeat_start(msg, session_id, &me).await,
            None => self.start(msg, &me).await,
        };
        outcome.unwrap_or_else(Attached::Refused)
    }
}

/// `session.resume`.
#[derive(Debug)]
pub struct ResumeSession {
    /// The device resuming.
    pub link: DeviceLink,
    /// The event id.
    pub event_id: Option<String>,
    /// The session named, if any.
    pub session_id: Option<String>,
}

impl Message<ResumeSession> for UserSupervisor {
    type Reply = Attached;

    async fn handle(&mut self, msg: ResumeSession, ctx: &mut Context<Self, Attached>) -> Attached {
        let me = ctx.actor_ref().clone();
        if let Err(refusal) = self.refresh_record().await {
            return Attached::Refused(refusal);
        }
        self.resume(msg, &me)
            .await
            .unwrap_or_else(Attached::Refused)
    }
}

impl Message<SessionFinished> for UserSupervisor {
    type Reply = ();

    async fn handle(&mut self, msg: SessionFinished, _: &mut Context<Self, ()>) {
        // A finished session is durable and changes no more: forget its actor, so it stops
        // once its device lets go of it too (results are read from the checkpoint).
        self.sessions.remove(&msg.session_id);
        let finish = |record: &mut UserRecord| {
            note_finished(record, &msg.session_id, msg.status, &msg.history);
        };
        // ignore: failure is logged; the history is advisory and the next finish carries it.
        let _ = self.update_record(finish).await;
    }
}

/// A connection closed; its session (if any) is paused.
#[derive(Debug)]
pub struct ConnectionClosed {
    /// The connection.
    pub connection_id: u64,
}

impl Message<ConnectionClosed> for UserSupervisor {
    type Reply = ();

    async fn handle(&mut self, msg: ConnectionClosed, ctx: &mut Context<Self, ()>) {
        let me = ctx.actor_ref().clone();
        let connection_id = msg.connection_id;
        // A hibernated session of the connection is woken to be paused like a live one.
        self.wake_where(&me, |entry| entry.link.connection_id == connection_id)
            .await;
        for session in self.sessions.values() {
            let detach = crate::session::Detach {
                connection_id: msg.connection_id,
                reason: None,
            };
            // ignore: a stopped session holds no connection.
            let _ = session.tell(detach).await;
        }
    }
}

/// Where a result request stands.
#[derive(Debug, Clone, PartialEq, kameo::Reply)]
pub enum ResultLookup {
    /// The graded result.
    Completed(SessionResult),
    /// The user's session, not completed yet.
    NotCompleted,
    /// No session of this user has that id.
    NotFound,
    /// Storage could not be read; retry later.
    Unavailable,
}

/// Read a session's result.
#[derive(Debug)]
pub struct ReadResult {
    /// The session.
    pub session_id: String,
}

impl Message<ReadResult> for UserSupervisor {
    type Reply = ResultLookup;

    async fn handle(
        &mut self,
        msg: ReadResult,
        _: &mut Context<Self, ResultLookup>,
    ) -> ResultLookup {
        if self.refresh_record().await.is_err() {
            return ResultLookup::Unavailable;
        }
        if self.resolve(Some(&msg.session_id)).is_err() {
            return ResultLookup::NotFound;
        }
        if let Some(session) = self.sessions.get(&msg.session_id).filter(|s| s.is_alive())
            && let Ok(view) = session.ask(Inspect).await
        {
            return view
                .result
                .map_or(ResultLookup::NotCompleted, ResultLookup::Completed);
        }
        self.read_stored_result(&msg.session_id).await
    }
}

/// List the user's sessions (`GET /v1/sessions`): the record as it is stored now (another
/// node may have changed it), most recent first; `None` when storage could not be read.
#[derive(Debug)]
pub struct ListSessions;

impl Message<ListSessions> for UserSupervisor {
    type Reply = Option<Vec<SessionEntry>>;

    async fn handle(
        &mut self,
        _: ListSessions,
        _: &mut Context<Self, Option<Vec<SessionEntry>>>,
    ) -> Option<Vec<SessionEntry>> {
        self.refresh_record().await.ok()?;
        let active = self.record.active_session.as_deref();
        let listed = self.record.sessions.iter().rev().map(|entry| {
            let mut entry = entry.clone();
            // The record names the one active session; another still marked active is
            // being paused by its actor (the mark follows when the pause is stored).
            if entry.status == SessionStatus::Active && active != Some(entry.session_id.as_str()) {
                entry.status = SessionStatus::Paused;
            }
            entry
        });
        Some(listed.collect())
    }
}

/// Read what the user's record knows of their elements (`GET /v1/progress`), as the record
/// is stored now (another node may have finished a session since).
#[derive(Debug)]
pub struct ReadElementRecords;

/// What a user's record knows of their elements.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ElementRecords {
    /// The review history by element.
    pub history: BTreeMap<String, ElementHistory>,
    /// The last score by element, as records kept it before the history (read for elements
    /// the history does not hold).
    pub last_scores: BTreeMap<String, String>,
}

impl Message<ReadElementRecords> for UserSupervisor {
    type Reply = Option<ElementRecords>;

    async fn handle(
        &mut self,
        _: ReadElementRecords,
        _: &mut Context<Self, Option<ElementRecords>>,
    ) -> Option<ElementRecords> {
        self.refresh_record().await.ok()?;
        Some(ElementRecords {
            history: self.record.element_history.clone(),
            last_scores: self.record.element_scores.clone(),
        })
    }
}

impl UserSupervisor {
    /// A result read from the stored checkpoint, without claiming the session.
    async fn read_stored_result(&self, session_id: &str) -> ResultLookup {
        let key = viva_core::checkpoint::SessionKey::new(&self.user_id, session_id);
        let checkpoint = match self.deps.session.store.load_session(&key).await {
            Ok(Some(checkpoint)) => checkpoint,
            Ok(None) => return ResultLookup::NotFound,
            Err(err) => {
                tracing::error!(session = session_id, %err, "checkpoint not read");
                return ResultLookup::Unavailable;
            }
        };
        match restore(checkpoint) {
            Ok(state) => state
                .result_with_audit()
                .map_or(ResultLookup::NotCompleted, ResultLookup::Completed),
            Err(err) => {
                tracing::error!(%err, "checkpoint invalid");
                ResultLookup::Unavailable
            }
        }
    }
}

/// Retire if idle — no session has a device attached — in one step, so nothing can attach a
/// device between the check and the stop: live sessions pause and checkpoint, and the
/// supervisor stops (sessions hibernated here stay so). Replies whether it retired; a message
/// that arrives after is refused (`ActorNotRunning`) and its sender asks a fresh supervisor.
#[derive(Debug)]
pub struct RetireIfIdle;

impl Message<RetireIfIdle> for UserSupervisor {
    type Reply = bool;

    async fn handle(&mut self, _: RetireIfIdle, ctx: &mut Context<Self, bool>) -> bool {
        for session in self.sessions.values() {
            if let Ok(view) = session.ask(Inspect).await
                && view.connection_id.is_some()
            {
                return false;
            }
        }
        self.shut_down_sessions().await;
        ctx.stop();
        true
    }
}

/// Stop every session, those hibernated here included (each is woken, pauses and
/// checkpoints, so its device hears of it as a live one's does), then stop: the node is
/// shutting down.
#[derive(Debug)]
pub struct Retire;

impl Message<Retire> for UserSupervisor {
    type Reply = ();

    async fn handle(&mut self, _: Retire, ctx: &mut Context<Self, ()>) {
        let me = ctx.actor_ref().clone();
        self.wake_where(&me, |_| true).await;
        self.shut_down_sessions().await;
        ctx.stop();
    }
}

impl UserSupervisor {
    async fn shut_down_sessions(&mut self) {
        for session in self.sessions.values() {
            // ignore: a session that already stopped has already checkpointed.
            let _ = session.ask(Shutdown).await;
        }
        self.sessions.clear();
    }
}

/// A notice from another node about this user.
#[derive(Debug)]
pub struct Delivered(pub Notice);

impl Message<Delivered> for UserSupervisor {
    type Reply = ();

    async fn handle(&mut self, Delivered(notice): Delivered, ctx: &mut Context<Self, ()>) {
        let me = ctx.actor_ref().clone();
        match notice {
            Notice::Moved {
                session_id, token, ..
            } => {
                // A hibernated session is told by its wake, which finds the newer claim.
                if let Some(session) = self.awake_session(&session_id, &me).await {
                    // ignore: a stopped session holds nothing to evict.
                    let _ = session.tell(Evict { token }).await;
                }
            }
            Notice::Yield { .. } => self.yield_to_stored_active(&me).await,
        }
    }
}

impl UserSupervisor {
    /// Pauses every session here with a device attached that is not the user's active exam
    /// as the store has it now (the notice may be older than a later takeover).
    async fn yield_to_stored_active(&mut self, me: &kameo::actor::ActorRef<Self>) {
        if self.refresh_record().await.is_err() {
            return;
        }
        let active = self.record.active_session.clone();
        let inactive = |id: &str| active.as_deref() != Some(id);
        self.wake_where(me, |entry| inactive(&entry.session_id))
            .await;
        for (session_id, session) in &self.sessions {
            if active.as_deref() == Some(session_id.as_str()) {
                continue;
            }
            let yielding = Yield {
                taker_connection_id: None,
                same_session: false,
            };
            // ignore: a stopped session has nothing attached to pause.
            let _ = session.tell(yielding).await;
        }
    }
}
