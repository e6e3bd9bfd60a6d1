//! The supervisor actor itself: what it holds, what supervisors share, the per-user limits,
//! and the reply to a start or resume. Its messages are in `messages`, `takeover` and
//! `hibernation`, which import this file (never `mod.rs`).

use std::collections::HashMap;
use std::sync::Arc;

use kameo::Actor;
use kameo::actor::ActorRef;
use viva_protocol::ErrorCode;

use crate::session::{LiveSession, SessionDeps};
use viva_core::checkpoint::{NodeBus, UserRecord};
use viva_core::session::lifecycle::Refusal;

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
    pub(super) user_id: String,
    pub(super) deps: Arc<SupervisorDeps>,
    pub(super) record: UserRecord,
    pub(super) sessions: HashMap<String, ActorRef<LiveSession>>,
    /// When recent sessions were started, for the per-minute limit (bounded by the limit).
    pub(super) recent_starts: std::collections::VecDeque<tokio::time::Instant>,
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

pub(super) fn not_found() -> Refusal {
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
