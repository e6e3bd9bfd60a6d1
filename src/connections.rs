//! Connection limits: the server's `max_connections` and each user's
//! `max_connections_per_user`, one slot of each held by every open WebSocket and released when
//! it ends.

use std::sync::Arc;

use dashmap::DashMap;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Connections the server holds at once, by default.
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
/// Connections one user holds at once, by default: enough for every device and a few
/// reconnects still being noticed, far below the server's limit.
pub const DEFAULT_MAX_CONNECTIONS_PER_USER: usize = 16;

/// How many connections may be open, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// In all.
    pub total: usize,
    /// Per user.
    pub per_user: usize,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            total: DEFAULT_MAX_CONNECTIONS,
            per_user: DEFAULT_MAX_CONNECTIONS_PER_USER,
        }
    }
}

/// Why a connection was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The user already holds `per_user` connections.
    User,
    /// The server holds `total` connections.
    Server,
}

/// The open connections, counted in all and per user.
pub struct ConnectionLimits {
    caps: Caps,
    total: Arc<Semaphore>,
    /// User id → open connections; a user with none has no entry.
    users: Arc<DashMap<String, usize>>,
}

/// One open connection's place in both limits; dropping it frees both.
#[derive(Debug)]
pub struct ConnectionSlot {
    _total: OwnedSemaphorePermit,
    _user: UserSlot,
}

#[derive(Debug)]
struct UserSlot {
    users: Arc<DashMap<String, usize>>,
    user: String,
}

impl Drop for UserSlot {
    fn drop(&mut self) {
        // The count and the removal of a user's last entry happen under one shard lock,
        // so a connection opening meanwhile either sees the old count or a fresh entry.
        self.users.remove_if_mut(&self.user, |_, open| {
            *open = open.saturating_sub(1);
            *open == 0
        });
    }
}

impl ConnectionLimits {
    /// Limits with these caps; both must be at least 1.
    pub fn new(caps: Caps) -> ConnectionLimits {
        ConnectionLimits {
            caps,
            total: Arc::new(Semaphore::new(caps.total)),
            users: Arc::new(DashMap::new()),
        }
    }

    /// A slot for one more connection of `user`, unless the user or the server is full.
    pub fn open(&self, user: &str) -> Result<ConnectionSlot, Refused> {
        let user_slot = self.take_user_slot(user)?;
        let total = self
            .total
            .clone()
            .try_acquire_owned()
            .map_err(|_| Refused::Server)?;
        Ok(ConnectionSlot {
            _total: total,
            _user: user_slot,
        })
    }

    fn take_user_slot(&self, user: &str) -> Result<UserSlot, Refused> {
        let mut open = self.users.entry(user.to_owned()).or_insert(0);
        if *open >= self.caps.per_user {
            return Err(Refused::User);
        }
        *open += 1;
        Ok(UserSlot {
            users: self.users.clone(),
            user: user.to_owned(),
        })
    }

    /// Connections open now.
    pub fn open_connections(&self) -> usize {
        self.caps.total - self.total.available_permits()
    }

    /// Users with at least one connection open.
    #[cfg(test)]
    fn users(&self) -> usize {
        self.users.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(total: usize, per_user: usize) -> ConnectionLimits {
        ConnectionLimits::new(Caps { total, per_user })
    }

    #[test]
    fn a_user_is_refused_beyond_their_cap_and_others_are_not() {
        let limits = limits(10, 2);
        let a1 = limits.open("alice").expect("first");
        let _a2 = limits.open("alice").expect("second");
        assert_eq!(limits.open("alice").unwrap_err(), Refused::User);
        let _b = limits.open("bob").expect("bob has his own cap");
        assert_eq!(limits.open_connections(), 3);
        drop(a1);
        let _a3 = limits
            .open("alice")
            .expect("a closed connection frees its user slot");
    }

    #[test]
    fn the_server_cap_still_holds_and_a_refusal_keeps_no_user_slot() {
        let limits = limits(2, 5);
        let _a = limits.open("alice").expect("first");
        let _b = limits.open("bob").expect("second");
        assert_eq!(limits.open("carol").unwrap_err(), Refused::Server);
        assert_eq!(limits.users(), 2, "carol's refused attempt left no entry");
        assert_eq!(limits.open_connections(), 2);
    }

    #[test]
    fn users_without_connections_cost_nothing() {
        let limits = limits(100, 3);
        let slots: Vec<_> = (0..30)
            .map(|n| limits.open(&format!("user-{}", n % 10)).expect("room"))
            .collect();
        assert_eq!(limits.users(), 10);
        drop(slots);
        assert_eq!(
            limits.users(),
            0,
            "every entry went with its last connection"
        );
        assert_eq!(limits.open_connections(), 0);
    }
}
