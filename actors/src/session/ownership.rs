//! Holding the session: retrying a held checkpoint, and eviction when another node claims
//! the session. (The lease that tells other nodes where the session lives is extended by
//! every write, so there is no renewal timer.)

use kameo::message::{Context, Message};

use super::actor::LiveSession;

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
