//! Holding the session: lease renewal, retrying a held checkpoint, and eviction when another
//! node claims the session.

use kameo::message::{Context, Message};

use super::LiveSession;

/// Sent by the lease timer: renew the lease, or stop if another claim took the session.
#[derive(Debug)]
pub struct RenewLease;

impl Message<RenewLease> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, _: RenewLease, _: &mut Context<Self, ()>) {
        if self.evicted {
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

/// Sent by the retry timer: write the held checkpoint again. Replies whether it is durable
/// now (or nothing is held any more).
#[derive(Debug)]
pub struct RetryCommit;

impl Message<RetryCommit> for LiveSession {
    type Reply = bool;

    async fn handle(&mut self, _: RetryCommit, _: &mut Context<Self, bool>) -> bool {
        if !self.unsaved || self.evicted {
            return true;
        }
        if !self.commit().await {
            return self.evicted;
        }
        tracing::info!(session = %self.claim.key.session_id, "held checkpoint written; acks sent");
        self.notify_if_finished();
        self.drive().await;
        true
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
        let every = self.deps.lease / 3;
        self.lease_timer = Some(tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            ticks.tick().await;
            loop {
                ticks.tick().await;
                let Some(session) = me.upgrade() else { return };
                if session.tell(RenewLease).await.is_err() {
                    return;
                }
            }
        }));
    }
}
