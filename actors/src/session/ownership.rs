//! Holding the session: lease renewal, retrying a held checkpoint, and eviction when another
//! node claims the session.

use kameo::message::{Context, Message};

use super::LiveSession;
use crate::timer::tell_every;

/// Sent by the lease timer: renew the lease, or stop if another claim took the session.
#[derive(Debug)]
pub struct RenewLease;

impl Message<RenewLease> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, _: RenewLease, _: &mut Context<Self, ()>) {
        if self.durability.is_evicted() {
            return;
        }
        let lease_ms = self.deps.lease.as_millis() as u64;
        let renewed = self
            .deps
            .store
            .renew_lease(
                &self.claim.key,
                &self.deps.node_id,
                self.claim.token,
                lease_ms,
            )
            .await;
        match renewed {
            Ok(true) => {}
            Ok(false) => self.evict("the lease was taken by a newer claim"),
            // Storage is down: keep the in-memory state; writes are held until it returns.
            Err(err) => {
                tracing::warn!(session = %self.claim.key.session_id, %err, "lease not renewed")
            }
        }
    }
}

/// Sent by the retry timer: write the held checkpoint again (a failure arms the next retry,
/// after twice the wait).
#[derive(Debug)]
pub struct RetryCommit;

impl Message<RetryCommit> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, _: RetryCommit, _: &mut Context<Self, ()>) {
        self.retry_timer = None;
        if !self.admit_retry() || !self.commit().await {
            return;
        }
        tracing::info!(session = %self.claim.key.session_id, "held checkpoint written; acks sent");
        self.notify_if_finished();
        self.drive().await;
    }
}

/// Another node claimed the session with `token`: if that is newer than this actor's claim,
/// pause the device here (`other_device`) and stop.
#[derive(Debug)]
pub struct Evict {
    /// The newer claim's fencing token.
    pub token: u64,
}

impl Message<Evict> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Evict, _: &mut Context<Self, ()>) {
        if msg.token > self.claim.token {
            self.evict("another node claimed the session");
        }
    }
}

impl LiveSession {
    /// Renews the lease every third of its length while the actor lives.
    pub(super) fn start_lease_timer(&mut self) {
        let Some(me) = self.me.clone() else { return };
        self.lease_timer = Some(tell_every(me, self.deps.lease / 3, || RenewLease));
    }
}
