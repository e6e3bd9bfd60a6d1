//! `UserSupervisor`: one actor per user on each node. It keeps the user's record (refreshed
//! from the store before every decision, and written by compare-and-set, so the one-active-
//! exam rule holds across nodes), pauses the device that loses the exam (here, or by a
//! notice to the node that holds it), and claims sessions from their checkpoints on resume.
//!
//! - [`record`]: reading and updating the user record.
//! - [`takeover`]: start, resume and the pausing of the previous device.
//! - [`tutoring`]: a new tutor session: the evaluation check and the snapshot claim.

use std::collections::HashMap;
use std::sync::Arc;

use kameo::Actor;
use kameo::actor::ActorRef;
use viva_protocol::ErrorCode;
use viva_protocol::config::SessionConfig;

use crate::session::{LiveSession, SessionDeps};
use record::SessionLabel;
use viva_core::checkpoint::{NodeBus, UserRecord};
use viva_core::exam::plan::PlanDefaults;
use viva_core::modes::assessment::AssessmentCore;
use viva_core::modes::exam::ExamCore;
use viva_core::session::lifecycle::{Lifecycle, Refusal};
use viva_core::modes::exam::snapshot::parse_scores;
use viva_core::session::state::SessionState;
use viva_core::modes::exam::transitions::NewExam;

mod hibernation;
mod messages;
mod record;
mod takeover;
mod tutoring;

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
    /// Plan sizing for new exams.
    pub plan_defaults: PlanDefaults,
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
    /// The state of a new session of the configured mode.
    async fn new_state(
        &self,
        config: SessionConfig,
        session_id: String,
    ) -> Result<SessionState, Refusal> {
        let thinking_pause_ms = config.thinking_pause_ms();
        if let Some(pause) = thinking_pause_ms
            && !viva_protocol::config::THINKING_PAUSE_MS.contains(&pause)
        {
            let message = format!("thinking_pause_ms {pause} is outside 500 to 30000");
            return Err(Refusal::new(ErrorCode::InvalidConfig, message));
        }
        let mut state = self.mode_state(config, session_id).await?;
        state.life_mut().thinking_pause_ms = thinking_pause_ms;
        Ok(state)
    }

    async fn mode_state(
        &self,
        config: SessionConfig,
        session_id: String,
    ) -> Result<SessionState, Refusal> {
        let now_ms = self.deps.session.clock.now_ms();
        let life = Lifecycle::new(session_id, self.user_id.clone(), now_ms);
        let seed = server_seed();
        match config {
            SessionConfig::Exam(config) => {
                let prior = parse_scores(&self.record.element_scores).unwrap_or_default();
                let rating = viva_core::modes::exam::rating_of(&config);
                let new = NewExam {
                    config,
                    default_seed: seed,
                    defaults: self.deps.plan_defaults,
                    prior_scores: &prior,
                };
                let core = ExamCore::create(new, self.deps.session.library.catalog(rating))?;
                Ok(SessionState::new(life, Box::new(core)))
            }
            SessionConfig::Assessment(config) => {
                let blueprints = &self.deps.session.blueprints;
                let core = AssessmentCore::create(
                    now_ms,
                    &config.assessment_id,
                    config.learning,
                    assessment_seed(config.learning, config.seed, seed),
                    blueprints,
                )?;
                Ok(SessionState::new(life, Box::new(core)))
            }
            SessionConfig::Tutor(config) => {
                let core = self.tutor_core(&config.course_id, &life, seed).await?;
                Ok(SessionState::new(life, Box::new(core)))
            }
        }
    }
}

impl UserSupervisor {
    /// What a session started with `config` is, for its user's list: "Private pilot oral
    /// exam", "Math fundamentals (evaluation)", "Arithmetic (tutoring)".
    fn label(&self, config: &SessionConfig) -> SessionLabel {
        let title = match config {
            SessionConfig::Exam(exam) => {
                let rating = match exam.rating {
                    viva_protocol::config::ExamRating::Private => "Private",
                    viva_protocol::config::ExamRating::Commercial => "Commercial",
                };
                format!("{rating} pilot oral exam")
            }
            SessionConfig::Assessment(assessment) => {
                let id = &assessment.assessment_id;
                let found = self.deps.session.blueprints.assessment(id);
                let name = found.map_or(id.as_str(), |a| a.title.as_str());
                let kind = if assessment.learning {
                    "learning"
                } else {
                    "evaluation"
                };
                format!("{name} ({kind})")
            }
            SessionConfig::Tutor(tutor) => {
                let id = &tutor.course_id;
                let found = self.deps.session.tutor.course(id);
                let name = found.map_or(id.as_str(), |(course, _)| course.doc.title.as_str());
                format!("{name} (tutoring)")
            }
        };
        let evaluation = matches!(config, SessionConfig::Assessment(c) if !c.learning);
        SessionLabel {
            mode: config.mode(),
            title,
            evaluation,
        }
    }
}

/// A fresh seed from the operating system's CSPRNG (uuid v4 draws from `getrandom`): nobody
/// outside the server can know or choose it.
fn server_seed() -> u64 {
    uuid::Uuid::new_v4().as_u64_pair().0
}

/// The seed an assessment's items come from. An evaluation always uses the server's own
/// seed: a client seed there would let a second run (or a learning run with the same seed)
/// replay the first run's items and so its keys. A learning session honours a client seed,
/// for reproducible practice.
fn assessment_seed(learning: bool, client_seed: Option<u64>, server_seed: u64) -> u64 {
    match client_seed {
        Some(seed) if learning => seed,
        _ => server_seed,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_learning_sessions_honour_a_client_seed() {
        assert_eq!(assessment_seed(true, Some(7), 99), 7);
        assert_eq!(assessment_seed(true, None, 99), 99);
        assert_eq!(assessment_seed(false, Some(7), 99), 99);
        assert_eq!(assessment_seed(false, None, 99), 99);
    }

    #[test]
    fn server_seeds_differ_between_sessions() {
        assert_ne!(server_seed(), server_seed());
    }
}
