//! `Directory`: the process-wide map from user id to that user's supervisor. It creates
//! supervisors on demand, retires idle ones, and retires them all at shutdown.

use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use kameo::actor::{ActorRef, Spawn};

use crate::supervisor::{Delivered, Retire, RetireIfIdle, SupervisorDeps, UserSupervisor};
use viva_core::checkpoint::Notice;

/// Supervisors retired at once at shutdown: each pauses and saves its sessions (waking
/// hibernated ones first), so many at once keep the shutdown within its grace.
const RETIRING_AT_ONCE: usize = 64;

/// Capacity of each supervisor's mailbox.
pub const SUPERVISOR_MAILBOX: usize = 128;

/// Supervisors by user id.
pub struct Directory {
    supervisors: DashMap<String, ActorRef<UserSupervisor>>,
    deps: Arc<SupervisorDeps>,
}

impl Directory {
    /// An empty directory.
    pub fn new(deps: Arc<SupervisorDeps>) -> Directory {
        Directory {
            supervisors: DashMap::new(),
            deps,
        }
    }

    /// The user's supervisor, spawned if there is none alive.
    pub fn supervisor(&self, user_id: &str) -> ActorRef<UserSupervisor> {
        if let Some(existing) = self.supervisors.get(user_id).filter(|s| s.is_alive()) {
            return existing.clone();
        }
        let mut entry = self
            .supervisors
            .entry(user_id.to_owned())
            .or_insert_with(|| self.spawn(user_id));
        if !entry.is_alive() {
            *entry = self.spawn(user_id);
        }
        entry.clone()
    }

    fn spawn(&self, user_id: &str) -> ActorRef<UserSupervisor> {
        let args = (user_id.to_owned(), self.deps.clone());
        UserSupervisor::spawn_with_mailbox(args, kameo::mailbox::bounded(SUPERVISOR_MAILBOX))
    }

    /// Hands a notice from another node to the user's supervisor, if the user has one here
    /// or a session hibernated here (a user with neither has no device here to pause).
    /// Asked, once more of a fresh supervisor if that one had just retired, so a notice is
    /// never dropped in a retiring supervisor's mailbox.
    pub async fn deliver(&self, notice: Notice) {
        let user_id = notice.user_id().to_owned();
        for _ in 0..2 {
            let here = self
                .supervisors
                .get(&user_id)
                .map(|entry| entry.value().clone())
                .filter(|s| s.is_alive());
            let supervisor = match here {
                Some(supervisor) => supervisor,
                None if self.deps.hibernation.has_user(&user_id) => self.supervisor(&user_id),
                None => return,
            };
            if supervisor.ask(Delivered(notice.clone())).await.is_ok() {
                return;
            }
        }
    }

    /// How many sessions are hibernated on this node.
    pub fn hibernated(&self) -> usize {
        self.deps.hibernation.len()
    }

    /// How many supervisors are live.
    pub fn len(&self) -> usize {
        self.supervisors.len()
    }

    /// Whether no supervisor is live.
    pub fn is_empty(&self) -> bool {
        self.supervisors.is_empty()
    }

    /// Retires supervisors none of whose sessions has a device attached.
    pub async fn reap_idle(&self) -> usize {
        let candidates: Vec<(String, ActorRef<UserSupervisor>)> = self
            .supervisors
            .iter()
            .map(|e| (e.key().clone(), e.value().clone()))
            .collect();
        let mut retired = 0;
        for (user_id, supervisor) in candidates {
            if self.retire_idle(&user_id, supervisor).await {
                retired += 1;
            }
        }
        retired
    }

    /// Retires the user's supervisor if none of its sessions has a device attached (a
    /// connection whose session just hibernated asks, so an idle user costs no actor).
    pub async fn retire_if_idle(&self, user_id: &str) -> bool {
        let supervisor = self.supervisors.get(user_id).map(|s| s.value().clone());
        match supervisor {
            Some(supervisor) => self.retire_idle(user_id, supervisor).await,
            None => false,
        }
    }

    async fn retire_idle(&self, user_id: &str, supervisor: ActorRef<UserSupervisor>) -> bool {
        // A supervisor that already stopped is as good as retired.
        let retired = supervisor.ask(RetireIfIdle).await.unwrap_or(true);
        if retired {
            self.supervisors
                .remove_if(user_id, |_, s| s.id() == supervisor.id());
        }
        retired
    }

    /// Retires every supervisor (sessions, hibernated ones too, pause and checkpoint),
    /// waiting at most `timeout`.
    pub async fn shutdown(&self, timeout: Duration) {
        for user_id in self.deps.hibernation.users() {
            self.supervisor(&user_id);
        }
        let all: Vec<ActorRef<UserSupervisor>> =
            self.supervisors.iter().map(|e| e.value().clone()).collect();
        self.supervisors.clear();
        let retire_all = async {
            let mut retiring = tokio::task::JoinSet::new();
            for supervisor in all {
                if retiring.len() >= RETIRING_AT_ONCE {
                    retiring.join_next().await;
                }
                // ignore: a stopped supervisor's sessions were already retired.
                retiring.spawn(async move { supervisor.ask(Retire).await.is_ok() });
            }
            while retiring.join_next().await.is_some() {}
        };
        if tokio::time::timeout(timeout, retire_all).await.is_err() {
            tracing::warn!("shutdown timed out before every session was saved");
        }
    }
}
