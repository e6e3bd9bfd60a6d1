//! Riding out a storage stall (an append-only-file rewrite, a failover): an operation refused
//! for want of storage is tried again after short waits, for a bounded time, before its
//! error reaches the device. The caller waits meanwhile, and so does the connection that
//! asked (it reads nothing more until its reply): a stall slows input instead of refusing it.
//!
//! A session's own checkpoint write waits the same way in `session/commit.rs` (each attempt
//! there is a new version). [`StallRiding`] gives the rest — claims, reads, user records,
//! leases — the same patience; all of them are safe to repeat (a repeated claim only takes a
//! newer token, and a user record is compare-and-set).

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;
use viva_core::checkpoint::{
    CheckpointStore, Claim, ClaimKind, SessionCheckpoint, SessionKey, SessionWrite, StoreError,
    StoreFuture, UserRecord,
};

/// How long after its first attempt an operation may start another in a stall (an attempt
/// under way still runs to its own response timeout before the error is reported).
pub const STALL_WAIT: Duration = Duration::from_secs(5);
/// The first wait; each later one is twice as long, up to [`STALL_RETRY_MAX`].
const STALL_RETRY_FIRST: Duration = Duration::from_millis(50);
const STALL_RETRY_MAX: Duration = Duration::from_millis(800);

/// The waits left to one operation in a stall.
#[derive(Debug, Clone)]
pub struct StallBudget {
    started: Instant,
    wait: Duration,
}

impl StallBudget {
    /// A budget of [`STALL_WAIT`] from now.
    pub fn start() -> StallBudget {
        StallBudget {
            started: Instant::now(),
            wait: STALL_RETRY_FIRST,
        }
    }

    /// After `failure`, waits before the next attempt and returns true; false (at once) when
    /// the failure is not a stall or the budget is spent.
    pub async fn wait_after<T>(&mut self, failure: &Result<T, StoreError>) -> bool {
        let stalled = matches!(failure, Err(StoreError::Unavailable(_)));
        if !stalled || self.started.elapsed() + self.wait >= STALL_WAIT {
            return false;
        }
        tokio::time::sleep(self.wait).await;
        self.wait = (self.wait * 2).min(STALL_RETRY_MAX);
        true
    }
}

/// Runs `attempt` until it gives anything but a stall, or [`STALL_WAIT`] is spent.
pub async fn ride_out<'a, T>(
    mut attempt: impl FnMut() -> StoreFuture<'a, T>,
) -> Result<T, StoreError> {
    let mut budget = StallBudget::start();
    loop {
        let outcome = attempt().await;
        if !budget.wait_after(&outcome).await {
            return outcome;
        }
    }
}

/// A store whose operations ride out stalls, except `save_session`, which a session's
/// commit retries itself with a new version each time (repeating the same version would be
/// refused as stale).
pub struct StallRiding {
    inner: Arc<dyn CheckpointStore>,
}

impl StallRiding {
    /// `inner`, riding out its stalls.
    pub fn new(inner: Arc<dyn CheckpointStore>) -> StallRiding {
        StallRiding { inner }
    }
}

impl CheckpointStore for StallRiding {
    fn claim_session<'a>(
        &'a self,
        key: &'a SessionKey,
        node: &'a str,
        kind: ClaimKind,
        lease_ms: u64,
    ) -> StoreFuture<'a, Option<Claim>> {
        Box::pin(ride_out(move || {
            self.inner.claim_session(key, node, kind, lease_ms)
        }))
    }

    fn renew_lease<'a>(
        &'a self,
        key: &'a SessionKey,
        node: &'a str,
        token: u64,
        lease_ms: u64,
    ) -> StoreFuture<'a, bool> {
        Box::pin(ride_out(move || {
            self.inner.renew_lease(key, node, token, lease_ms)
        }))
    }

    fn release_lease<'a>(&'a self, key: &'a SessionKey, token: u64) -> StoreFuture<'a, ()> {
        Box::pin(ride_out(move || self.inner.release_lease(key, token)))
    }

    fn save_session<'a>(
        &'a self,
        key: &'a SessionKey,
        write: SessionWrite<'a>,
    ) -> StoreFuture<'a, ()> {
        self.inner.save_session(key, write)
    }

    fn load_session<'a>(
        &'a self,
        key: &'a SessionKey,
    ) -> StoreFuture<'a, Option<SessionCheckpoint>> {
        Box::pin(ride_out(move || self.inner.load_session(key)))
    }

    fn save_user<'a>(&'a self, record: &'a UserRecord) -> StoreFuture<'a, ()> {
        Box::pin(ride_out(move || self.inner.save_user(record)))
    }

    fn load_user<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Option<UserRecord>> {
        Box::pin(ride_out(move || self.inner.load_user(user_id)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// Rides out an operation that stalls `failures` times, then answers; how many times it
    /// was tried, and what it gave.
    async fn stalling(failures: u32) -> (u32, Result<u32, StoreError>) {
        let tries = AtomicU32::new(0);
        let outcome = ride_out(|| {
            let tried = tries.fetch_add(1, Ordering::SeqCst);
            Box::pin(async move {
                match tried < failures {
                    true => Err(StoreError::Unavailable("stalled".into())),
                    false => Ok(tried),
                }
            })
        })
        .await;
        (tries.load(Ordering::SeqCst), outcome)
    }

    #[tokio::test(start_paused = true)]
    async fn a_stall_shorter_than_the_wait_is_not_reported() {
        let started = Instant::now();
        let (tries, outcome) = stalling(4).await;
        assert_eq!((tries, outcome.unwrap()), (5, 4));
        // 50 + 100 + 200 + 400 ms of waiting.
        assert_eq!(started.elapsed(), Duration::from_millis(750));
    }

    #[tokio::test(start_paused = true)]
    async fn a_longer_one_is_reported_when_the_wait_is_spent() {
        let started = Instant::now();
        let (_, outcome) = stalling(u32::MAX).await;
        assert!(
            matches!(outcome, Err(StoreError::Unavailable(_))),
            "{outcome:?}"
        );
        assert!(started.elapsed() < STALL_WAIT, "{:?}", started.elapsed());
        assert!(started.elapsed() >= STALL_WAIT - STALL_RETRY_MAX);
    }

    #[tokio::test(start_paused = true)]
    async fn other_failures_are_reported_at_once() {
        let started = Instant::now();
        let outcome: Result<(), StoreError> = ride_out(|| {
            Box::pin(async {
                Err(StoreError::Conflict {
                    user_id: "u".into(),
                })
            })
        })
        .await;
        assert!(matches!(outcome, Err(StoreError::Conflict { .. })));
        assert_eq!(started.elapsed(), Duration::ZERO);
    }
}
