//! The messages a `UserSupervisor` handles.

use std::collections::HashMap;

use kameo::message::{Context, Message};
use viva_protocol::config::SessionConfig;
use viva_protocol::result::SessionResult;
use viva_protocol::server::SessionStatus;

use super::{Attached, UserSupervisor};
use crate::exam::types::Score;
use crate::link::DeviceLink;
use crate::session::actor::{Inspect, Shutdown};

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
        let repeated = msg.event_id.as_ref().and_then(|id| {
            self.record
                .start_event_ids
                .iter()
                .find(|(seen, _)| seen == id)
                .map(|(_, session)| session.clone())
        });
        let outcome = match repeated {
            Some(session_id) => {
                let resume = ResumeSession {
                    link: msg.link,
                    event_id: msg.event_id,
                    session_id: Some(session_id),
                };
                self.resume(resume, &me).await
            }
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
        self.resume(msg, &me)
            .await
            .unwrap_or_else(Attached::Refused)
    }
}

/// A session completed or was abandoned.
#[derive(Debug)]
pub struct SessionFinished {
    /// Which.
    pub session_id: String,
    /// Completed or abandoned.
    pub status: SessionStatus,
    /// Final element scores, for `weak_areas` later.
    pub scores: HashMap<String, Score>,
}

impl Message<SessionFinished> for UserSupervisor {
    type Reply = ();

    async fn handle(&mut self, msg: SessionFinished, _: &mut Context<Self, ()>) {
        for (code, score) in msg.scores {
            self.record
                .element_scores
                .insert(code, score.as_str().to_owned());
        }
        if self.record.active_session.as_deref() == Some(msg.session_id.as_str()) {
            self.record.active_session = None;
        }
        self.note_session(&msg.session_id, msg.status);
        // ignore: failure is logged; scores are advisory and the next save carries them.
        let _ = self.save_record().await;
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

    async fn handle(&mut self, msg: ConnectionClosed, _: &mut Context<Self, ()>) {
        for session in self.sessions.values() {
            let detach = crate::session::actor::Detach {
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
        ctx: &mut Context<Self, ResultLookup>,
    ) -> ResultLookup {
        if self.resolve(Some(&msg.session_id)).is_err() {
            return ResultLookup::NotFound;
        }
        let me = ctx.actor_ref().clone();
        let Ok(session) = self.live_session(&msg.session_id, &me).await else {
            return ResultLookup::NotFound;
        };
        match session.ask(Inspect).await {
            Ok(view) => view
                .result
                .map_or(ResultLookup::NotCompleted, ResultLookup::Completed),
            Err(_) => ResultLookup::NotFound,
        }
    }
}

/// Whether the supervisor can be retired: no session has a device attached.
#[derive(Debug)]
pub struct IsIdle;

impl Message<IsIdle> for UserSupervisor {
    type Reply = bool;

    async fn handle(&mut self, _: IsIdle, _: &mut Context<Self, bool>) -> bool {
        for session in self.sessions.values() {
            if let Ok(view) = session.ask(Inspect).await
                && view.connection_id.is_some()
            {
                return false;
            }
        }
        true
    }
}

/// Stop every session (each pauses and checkpoints), then stop.
#[derive(Debug)]
pub struct Retire;

impl Message<Retire> for UserSupervisor {
    type Reply = ();

    async fn handle(&mut self, _: Retire, ctx: &mut Context<Self, ()>) {
        for session in self.sessions.values() {
            // ignore: a session that already stopped has already checkpointed.
            let _ = session.ask(Shutdown).await;
        }
        self.sessions.clear();
        ctx.stop();
    }
}
