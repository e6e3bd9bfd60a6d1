//! NewSessionGate of new sessions: the operator's switch that stops `session.start` from opening
//! new exams and assessments while running sessions, resumes and result reads go on.
//!
//! A switch stored beside the sessions (one for every node sharing them; `viva exams
//! stop-new` and `allow-new` write it) wins. With none stored, each node follows its own
//! configuration (`[server] accept_new_sessions`, default true). A supervisor asks at every
//! new start — a rare event next to answers — so a change reaches every node with the next
//! start: no cache to expire, nothing to restart.

use std::sync::Arc;

use viva_protocol::ErrorCode;

use crate::stall::ride_out;
use viva_core::checkpoint::{StoreError, SwitchRecord, SwitchStore};
use viva_core::session::lifecycle::Refusal;

/// Where a node's answer to "may a new session start?" comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The switch an operator stored, at this time (ms since the epoch).
    Stored {
        /// When it was set.
        changed_at_ms: u64,
    },
    /// No switch is stored: this node's configuration.
    Configured,
}

/// Whether new sessions may start, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// New sessions may start.
    pub accept: bool,
    /// What decided it.
    pub source: Source,
}

/// The rule: a stored switch wins, else the node's configuration.
pub fn decide(stored: Option<&SwitchRecord>, configured: bool) -> Decision {
    match stored {
        Some(switch) => Decision {
            accept: switch.accept_new_sessions,
            source: Source::Stored {
                changed_at_ms: switch.changed_at_ms,
            },
        },
        None => Decision {
            accept: configured,
            source: Source::Configured,
        },
    }
}

/// One node's admission check.
#[derive(Clone)]
pub struct NewSessionGate {
    store: Arc<dyn SwitchStore>,
    configured: bool,
}

impl NewSessionGate {
    /// Reads the switch from `store`; `configured` applies while none is stored.
    pub fn new(store: Arc<dyn SwitchStore>, configured: bool) -> NewSessionGate {
        NewSessionGate { store, configured }
    }

    /// The decision as the store has it now (a read that meets a storage stall is tried
    /// again within the stall wait, `crate::stall`).
    pub async fn current(&self) -> Result<Decision, StoreError> {
        let stored = ride_out(|| self.store.load_switch()).await?;
        Ok(decide(stored.as_ref(), self.configured))
    }

    /// Lets a new session start, or refuses it with `new_sessions_disabled` (or
    /// `storage_unavailable` when the switch cannot be read).
    pub async fn check_start(&self) -> Result<(), Refusal> {
        let decision = self.current().await.map_err(|err| {
            tracing::error!(%err, "the new-session switch could not be read");
            Refusal::new(
                ErrorCode::StorageUnavailable,
                "the session could not be started; retry",
            )
        })?;
        if decision.accept {
            return Ok(());
        }
        Err(Refusal::new(
            ErrorCode::NewSessionsDisabled,
            "new sessions are stopped for now; started sessions can still be resumed, retry later",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use viva_core::checkpoint::{MemoryStore, StoreFuture};

    #[test]
    fn a_stored_switch_wins_over_the_configuration() {
        let check = |stored: Option<bool>, configured: bool, expected: Decision| {
            let record = stored.map(|accept| SwitchRecord::new(accept, 9));
            assert_eq!(
                decide(record.as_ref(), configured),
                expected,
                "{stored:?}, {configured}"
            );
        };
        let stored = |accept| Decision {
            accept,
            source: Source::Stored { changed_at_ms: 9 },
        };
        let configured = |accept| Decision {
            accept,
            source: Source::Configured,
        };
        check(None, true, configured(true));
        check(None, false, configured(false));
        check(Some(false), true, stored(false));
        check(Some(true), false, stored(true));
        check(Some(true), true, stored(true));
    }

    #[tokio::test]
    async fn starts_are_refused_with_the_code_while_the_switch_is_off() {
        let store = Arc::new(MemoryStore::new());
        let admission = NewSessionGate::new(store.clone(), true);
        assert_eq!(admission.check_start().await, Ok(()));
        let stopped = SwitchRecord::new(false, 1);
        store.save_switch(Some(&stopped)).await.unwrap();
        let refusal = admission.check_start().await.unwrap_err();
        assert_eq!(refusal.code, ErrorCode::NewSessionsDisabled);
        store.save_switch(None).await.unwrap();
        assert_eq!(admission.check_start().await, Ok(()));
    }

    struct Broken;

    impl SwitchStore for Broken {
        fn load_switch(&self) -> StoreFuture<'_, Option<SwitchRecord>> {
            Box::pin(async { Err(StoreError::Unavailable("down".into())) })
        }

        fn save_switch<'a>(&'a self, _: Option<&'a SwitchRecord>) -> StoreFuture<'a, ()> {
            Box::pin(async { Err(StoreError::Unavailable("down".into())) })
        }
    }

    #[tokio::test(start_paused = true)]
    async fn an_unreadable_switch_refuses_as_storage_unavailable() {
        let admission = NewSessionGate::new(Arc::new(Broken), true);
        let refusal = admission.check_start().await.unwrap_err();
        assert_eq!(refusal.code, ErrorCode::StorageUnavailable);
    }
}
