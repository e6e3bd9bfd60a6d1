//! `UserSupervisor`: one actor per user. It owns the user's record, enforces one active exam
//! per user, pauses the device that loses the exam, and restores sessions lazily from their
//! checkpoints on resume.

use std::collections::HashMap;
use std::sync::Arc;

use kameo::Actor;
use kameo::actor::{ActorRef, Spawn};
use viva_protocol::ErrorCode;
use viva_protocol::config::SessionConfig;
use viva_protocol::server::SessionStatus;

use crate::checkpoint::UserRecord;
use crate::checkpoint::format::SessionEntry;
use crate::exam::plan::PlanDefaults;
use crate::link::DeviceLink;
use crate::session::actor::{Attach, Begin, Inspect, LiveSession, SessionDeps, Yield};
use crate::session::assessment::AssessmentCore;
use crate::session::core::ExamCore;
use crate::session::lifecycle::{Lifecycle, Refusal};
use crate::session::snapshot::{parse_scores, state_from_checkpoint};
use crate::session::state::SessionState;
use crate::session::transitions::NewExam;

mod messages;

pub use messages::{
    ConnectionClosed, IsIdle, ReadResult, ResultLookup, ResumeSession, Retire, SessionFinished,
    StartSession,
};

/// Capacity of each session actor's mailbox.
pub const SESSION_MAILBOX: usize = 64;
/// Sessions listed per user record; the oldest finished ones are dropped first.
pub const SESSIONS_PER_USER: usize = 100;
/// `session.start` event ids remembered per user.
pub const START_EVENT_IDS: usize = 32;

/// What supervisors share.
pub struct SupervisorDeps {
    /// What sessions share.
    pub session: Arc<SessionDeps>,
    /// Plan sizing for new exams.
    pub plan_defaults: PlanDefaults,
    /// Per-user limits on starting sessions.
    pub limits: SessionLimits,
}

/// Per-user limits on sessions; exceeding one is refused with `rate_limited`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLimits {
    /// Sessions a user may start within one minute.
    pub starts_per_minute: u32,
    /// Sessions a user may have open (active or paused) at once.
    pub open_sessions: u32,
}

impl Default for SessionLimits {
    fn default() -> Self {
        SessionLimits {
            starts_per_minute: 10,
            open_sessions: 5,
        }
    }
}

/// One user's supervisor.
pub struct UserSupervisor {
    user_id: String,
    deps: Arc<SupervisorDeps>,
    record: UserRecord,
    sessions: HashMap<String, ActorRef<LiveSession>>,
    /// When recent sessions were started, for the per-minute limit (bounded by the limit).
    recent_starts: std::collections::VecDeque<tokio::time::Instant>,
}

impl Actor for UserSupervisor {
    type Args = (String, Arc<SupervisorDeps>);
    type Error = crate::checkpoint::StoreError;

    async fn on_start((user_id, deps): Self::Args, _: ActorRef<Self>) -> Result<Self, Self::Error> {
        let record = deps
            .session
            .store
            .load_user(&user_id)
            .await?
            .unwrap_or_else(|| UserRecord::new(&user_id));
        Ok(UserSupervisor {
            user_id,
            deps,
            record,
            sessions: HashMap::new(),
            recent_starts: std::collections::VecDeque::new(),
        })
    }
}

fn not_found() -> Refusal {
    Refusal::new(ErrorCode::SessionNotFound, "no such session")
}

/// The reply to a start or resume: the session now attached to the device, or a refusal.
#[derive(Debug, kameo::Reply)]
pub enum Attached {
    /// The device holds this session.
    Session {
        /// Its id.
        session_id: String,
        /// Its actor.
        session: ActorRef<LiveSession>,
    },
    /// Refused; nothing changed.
    Refused(Refusal),
}

impl UserSupervisor {
    fn spawn_session(&mut self, state: SessionState, me: &ActorRef<Self>) -> ActorRef<LiveSession> {
        let session_id = state.life().session_id.clone();
        let actor = LiveSession::new(state, self.deps.session.clone(), me.downgrade());
        let session =
            LiveSession::spawn_with_mailbox(actor, kameo::mailbox::bounded(SESSION_MAILBOX));
        self.sessions.insert(session_id, session.clone());
        session
    }

    /// Pauses the active exam if another session or device is taking over.
    async fn yield_active(&self, taker: &DeviceLink, keep: Option<&str>) {
        let Some(active) = self.record.active_session.as_deref() else {
            return;
        };
        let Some(session) = self.sessions.get(active) else {
            return;
        };
        let same_session = keep == Some(active);
        // ignore: a stopped session has nothing attached to pause.
        let _ = session
            .ask(Yield {
                taker_connection_id: taker.connection_id,
                same_session,
            })
            .await;
    }

    async fn save_record(&self) -> Result<(), Refusal> {
        self.deps
            .session
            .store
            .save_user(&self.record)
            .await
            .map_err(|err| {
                tracing::error!(user = %self.user_id, %err, "user record not saved");
                Refusal::new(
                    ErrorCode::StorageUnavailable,
                    "the session could not be saved; resend the event",
                )
            })
    }

    fn note_session(&mut self, session_id: &str, status: SessionStatus) {
        let status = status_name(status).to_owned();
        match self
            .record
            .sessions
            .iter_mut()
            .find(|entry| entry.session_id == session_id)
        {
            Some(entry) => entry.status = status,
            None => self.record.sessions.push(SessionEntry {
                session_id: session_id.to_owned(),
                status,
            }),
        }
        while self.record.sessions.len() > SESSIONS_PER_USER {
            let oldest_finished = self
                .record
                .sessions
                .iter()
                .position(|e| e.status == "completed" || e.status == "abandoned");
            self.record.sessions.remove(oldest_finished.unwrap_or(0));
        }
    }

    /// Refuses a start beyond the per-minute or open-session limits.
    fn check_limits(&mut self, now: tokio::time::Instant) -> Result<(), Refusal> {
        let minute = std::time::Duration::from_secs(60);
        while self
            .recent_starts
            .front()
            .is_some_and(|at| now.duration_since(*at) >= minute)
        {
            self.recent_starts.pop_front();
        }
        let limits = self.deps.limits;
        if self.recent_starts.len() >= limits.starts_per_minute as usize {
            let message = format!(
                "at most {} sessions may be started per minute",
                limits.starts_per_minute
            );
            return Err(Refusal::new(ErrorCode::RateLimited, message));
        }
        let open = self
            .record
            .sessions
            .iter()
            .filter(|e| e.status == "active" || e.status == "paused")
            .count();
        if open >= limits.open_sessions as usize {
            let message = format!(
                "at most {} sessions may be open at once; end or finish one",
                limits.open_sessions
            );
            return Err(Refusal::new(ErrorCode::RateLimited, message));
        }
        self.recent_starts.push_back(now);
        Ok(())
    }

    /// The state of a new session of the configured mode.
    fn new_state(
        &self,
        config: SessionConfig,
        session_id: String,
    ) -> Result<SessionState, Refusal> {
        let now_ms = self.deps.session.clock.now_ms();
        let seed = uuid::Uuid::new_v4().as_u64_pair().0;
        match config {
            SessionConfig::Exam(config) => {
                let prior = parse_scores(&self.record.element_scores).unwrap_or_default();
                let rating = crate::session::core::rating_of(&config);
                let new = NewExam {
                    session_id,
                    user_id: self.user_id.clone(),
                    config,
                    default_seed: seed,
                    defaults: self.deps.plan_defaults,
                    prior_scores: &prior,
                    now_ms,
                };
                let core = ExamCore::create(new, self.deps.session.library.catalog(rating))?;
                Ok(SessionState::Exam(Box::new(core)))
            }
            SessionConfig::Assessment(config) => {
                let life = Lifecycle::new(session_id, self.user_id.clone(), now_ms);
                let blueprints = &self.deps.session.blueprints;
                let core = AssessmentCore::create(
                    life,
                    &config.assessment_id,
                    config.learning,
                    seed,
                    blueprints,
                )?;
                Ok(SessionState::Assessment(Box::new(core)))
            }
            SessionConfig::Tutor(_) => Err(Refusal::new(
                ErrorCode::Unsupported,
                "tutor mode is not available yet",
            )),
        }
    }

    async fn start(&mut self, msg: StartSession, me: &ActorRef<Self>) -> Result<Attached, Refusal> {
        let session_id = uuid::Uuid::new_v4().to_string();
        let state = self.new_state(msg.config, session_id.clone())?;
        self.check_limits(tokio::time::Instant::now())?;
        self.yield_active(&msg.link, None).await;
        self.record.active_session = Some(session_id.clone());
        self.note_session(&session_id, SessionStatus::Active);
        if let Some(event_id) = &msg.event_id {
            self.record
                .start_event_ids
                .push((event_id.clone(), session_id.clone()));
            let excess = self
                .record
                .start_event_ids
                .len()
                .saturating_sub(START_EVENT_IDS);
            self.record.start_event_ids.drain(..excess);
        }
        self.save_record().await?;
        let session = self.spawn_session(state, me);
        // ignore: a fresh session with a bounded mailbox of 64 has room for its first message.
        let _ = session
            .tell(Begin {
                link: msg.link,
                event_id: msg.event_id,
            })
            .await;
        Ok(Attached::Session {
            session_id,
            session,
        })
    }

    /// The session id a resume means: the one named, or the active or latest paused one.
    fn resolve(&self, requested: Option<&str>) -> Result<String, Refusal> {
        let owned = |id: &str| {
            self.record
                .sessions
                .iter()
                .any(|entry| entry.session_id == id)
        };
        match requested {
            Some(id) if owned(id) => Ok(id.to_owned()),
            Some(_) => Err(not_found()),
            None => self
                .record
                .active_session
                .clone()
                .filter(|id| owned(id))
                .or_else(|| {
                    let paused = self
                        .record
                        .sessions
                        .iter()
                        .rev()
                        .find(|e| e.status == "paused" || e.status == "active");
                    paused.map(|entry| entry.session_id.clone())
                })
                .ok_or_else(|| Refusal::new(ErrorCode::SessionNotFound, "no session to resume")),
        }
    }

    /// The live actor of a session, restoring it from its checkpoint if needed.
    async fn live_session(
        &mut self,
        session_id: &str,
        me: &ActorRef<Self>,
    ) -> Result<ActorRef<LiveSession>, Refusal> {
        if let Some(session) = self.sessions.get(session_id).filter(|s| s.is_alive()) {
            return Ok(session.clone());
        }
        let store = &self.deps.session.store;
        let checkpoint = store.load_session(session_id).await.map_err(|err| {
            tracing::error!(session = session_id, %err, "checkpoint unreadable");
            Refusal::new(
                ErrorCode::StorageUnavailable,
                "the session could not be loaded",
            )
        })?;
        let checkpoint = checkpoint
            .filter(|c| c.user_id == self.user_id)
            .ok_or_else(not_found)?;
        let mut state = state_from_checkpoint(checkpoint).map_err(|err| {
            tracing::error!(%err, "checkpoint invalid");
            Refusal::new(ErrorCode::Internal, "the session could not be restored")
        })?;
        restore_pause(state.life_mut(), &self.deps.session);
        Ok(self.spawn_session(state, me))
    }

    async fn resume(
        &mut self,
        msg: ResumeSession,
        me: &ActorRef<Self>,
    ) -> Result<Attached, Refusal> {
        let session_id = self.resolve(msg.session_id.as_deref())?;
        let session = self.live_session(&session_id, me).await?;
        self.yield_active(&msg.link, Some(&session_id)).await;
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
        let view = session.ask(Inspect).await.ok();
        let status = view.map_or(SessionStatus::Active, |v| v.status);
        if status == SessionStatus::Active {
            self.record.active_session = Some(session_id.clone());
        }
        self.note_session(&session_id, status);
        // ignore: failure is logged; the session's own checkpoint is already durable.
        let _ = self.save_record().await;
        Ok(Attached::Session {
            session_id,
            session,
        })
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

/// The name of a status in the user record.
pub fn status_name(status: SessionStatus) -> &'static str {
    match status {
        SessionStatus::Active => "active",
        SessionStatus::Paused => "paused",
        SessionStatus::Completed => "completed",
        SessionStatus::Abandoned => "abandoned",
    }
}
