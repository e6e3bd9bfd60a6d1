//! `UserSupervisor`: one actor per user on each node. It keeps the user's record (refreshed
//! from the store before every decision, and written by compare-and-set, so the one-active-
//! exam rule holds across nodes), pauses the device that loses the exam (here, or by a
//! notice to the node that holds it), and claims sessions from their checkpoints on resume.
//!
//! - [`record`]: reading and updating the user record.
//! - [`takeover`]: start, resume and the pausing of the previous device.
//!
//! A new session is opened through `viva_core::modes` alone: the supervisor asks what it
//! is ([`modes::label`]), checks the rules that span the user's sessions against it, claims
//! the side records it names ([`modes::side_holds`]) and opens it ([`modes::open`]); it
//! never knows which mode it opened.

use std::collections::HashMap;
use std::sync::Arc;

use kameo::Actor;
use kameo::actor::ActorRef;
use viva_protocol::ErrorCode;
use viva_protocol::config::SessionConfig;

use crate::session::{LiveSession, SessionDeps};
use crate::stall::ride_out;
use record::open_marks;
use viva_core::checkpoint::{NodeBus, SideClaim, SideHold, UserRecord};
use viva_core::modes::{self, Opening};
use viva_core::session::lifecycle::{Lifecycle, Refusal};
use viva_core::session::rules::{SessionLabel, refuse_beside};
use viva_core::session::state::SessionState;

mod hibernation;
mod messages;
mod record;
mod takeover;

pub use crate::session::SessionFinished;
pub use hibernation::{HibernateSession, WakeSession};
pub use messages::{
    ConnectionClosed, Delivered, ListSessions, ReadResult, ResultLookup, ResumeSession, Retire,
    RetireIfIdle, StartSession,
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
    /// Per-user limits on starting sessions.
    pub limits: SessionLimits,
    /// Notices to other nodes.
    pub bus: Arc<dyn NodeBus>,
    /// The operator's switch for new sessions, asked before each new start.
    pub new_sessions: crate::new_sessions::NewSessionGate,
    /// The sessions hibernated on this node (shared by every user's supervisor).
    pub hibernation: Arc<crate::hibernation::Hibernation>,
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
    type Error = std::convert::Infallible;

    /// Starts with an empty record: every decision reads the stored one first, so a store
    /// outage refuses that request (`storage_unavailable`) instead of killing the supervisor.
    async fn on_start((user_id, deps): Self::Args, _: ActorRef<Self>) -> Result<Self, Self::Error> {
        Ok(UserSupervisor {
            record: UserRecord::new(&user_id),
            user_id,
            deps,
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
    /// What a session started with `config` is, for its user's list and the rules that span
    /// sessions.
    fn label(&self, config: &SessionConfig) -> SessionLabel {
        modes::label(config, self.deps.session.modes.context())
    }

    /// The state of a new session of the configured mode, once the rules that span the
    /// user's sessions allow it and the side records it names are claimed.
    async fn new_state(
        &self,
        config: SessionConfig,
        label: &SessionLabel,
        session_id: String,
    ) -> Result<SessionState, Refusal> {
        refuse_beside(label.marks, open_marks(&self.record))?;
        let now_ms = self.deps.session.clock.now_ms();
        let ctx = self.deps.session.modes.context();
        let holds = modes::side_holds(&config, &self.user_id, ctx);
        let claims = self.claim_side_records(holds, &session_id, now_ms).await?;
        let opening = Opening {
            session_id,
            user_id: self.user_id.clone(),
            now_ms,
            seed: server_seed(),
            history: self.record.element_scores.clone(),
            claims,
        };
        modes::open(config, opening, ctx)
    }

    /// Claims each side record a new session names (a claim repeated in a stall only takes
    /// a newer fence).
    async fn claim_side_records(
        &self,
        holds: Vec<SideHold>,
        session_id: &str,
        now_ms: u64,
    ) -> Result<Vec<SideClaim>, Refusal> {
        let sides = &self.deps.session.sides;
        let mut claims = Vec::with_capacity(holds.len());
        for hold in holds {
            let claiming = || sides.claim_side(&hold.key, &hold.cold, session_id, now_ms);
            let claim = ride_out(claiming).await.map_err(|err| {
                tracing::error!(user = %self.user_id, kind = hold.key.kind, %err, "side record not claimed");
                Refusal::new(
                    ErrorCode::StorageUnavailable,
                    "the session could not be started; retry",
                )
            })?;
            claims.push(claim);
        }
        Ok(claims)
    }
}

/// A fresh seed from the operating system's CSPRNG (uuid v4 draws from `getrandom`): nobody
/// outside the server can know or choose it.
fn server_seed() -> u64 {
    uuid::Uuid::new_v4().as_u64_pair().0
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_seeds_differ_between_sessions() {
        assert_ne!(server_seed(), server_seed());
    }
}
