//! Committing: write the checkpoint, then send what the state queued. A failed write holds
//! the outbox (acks included) and retries with backoff, so held acks go out in order once
//! storage recovers; a fenced write means another claim owns the session, and the actor
//! stops.

use std::time::Duration;

use viva_protocol::server::{PauseReason, ServerEvent};
use viva_protocol::{ErrorCode, ServerMessage};

use super::actor::{LiveSession, RETRY_FIRST};
use super::ownership::RetryCommit;
use crate::stall::StallBudget;
use crate::timer::tell_after;
use viva_core::checkpoint::{HeadUpdate, Lease, SessionCheckpoint, SessionWrite, StoreError};
use viva_core::session::admission::{Durability, MOVED};
use viva_core::session::snapshot::checkpoint_of;

/// The longest wait between retries of a held write (each waits twice the one before).
const RETRY_MAX: Duration = Duration::from_secs(2);

/// The head of `checkpoint` as a tree to diff against the stored one; `None` (write it
/// whole) if it does not convert, which a checkpoint's plain serde types never do.
fn head_tree(checkpoint: &SessionCheckpoint) -> Option<serde_json::Value> {
    serde_json::to_value(checkpoint.head()).ok()
}

impl LiveSession {
    /// Writes the checkpoint, then sends the outbox; false if nothing was made durable.
    pub(super) async fn commit(&mut self) -> bool {
        if self.durability.is_evicted() {
            return false;
        }
        match self.save_through_stall().await {
            Ok(()) => {
                // Side records too are written before the device is told (a progress read
                // right after a turn sees that turn).
                self.store_side_records().await;
                self.saved();
                self.log_turn_notes();
                true
            }
            Err(StoreError::NotActive { .. }) => {
                self.lose_to_other_device().await;
                false
            }
            Err(StoreError::Fenced { .. }) => {
                self.evict("a newer claim fenced this node's write");
                false
            }
            Err(err) => {
                self.hold(&err);
                false
            }
        }
    }

    /// Saves, riding out a storage stall (`crate::stall`): a write refused for want of
    /// storage is tried again, each time as a new version, while this actor takes no new
    /// input. Past the stall wait the write is held.
    async fn save_through_stall(&mut self) -> Result<(), StoreError> {
        let mut budget = StallBudget::start();
        loop {
            let saved = self.save().await;
            if !budget.wait_after(&saved).await {
                return saved;
            }
            self.deps.metrics.checkpoint_stall_waits.inc();
        }
    }

    async fn save(&mut self) -> Result<(), StoreError> {
        self.claim.version += 1;
        let mut checkpoint = checkpoint_of(&self.state);
        checkpoint.version = self.claim.version;
        let head = head_tree(&checkpoint);
        let update = match &head {
            Some(head) => self.stored_head.update_for(head),
            None => HeadUpdate::Whole,
        };
        let write = SessionWrite {
            checkpoint: &checkpoint,
            token: self.claim.token,
            turns_from: self.claim.stored_turns.saturating_sub(1),
            live: self.state.life().phase.live().is_some(),
            lease: Some(Lease {
                node: &self.deps.node_id,
                ms: self.deps.lease.as_millis() as u64,
            }),
            head: &update,
        };
        let started = std::time::Instant::now();
        let saved = self.deps.store.save_session(&self.claim.key, write).await;
        let metrics = &self.deps.metrics;
        match saved {
            Ok(()) => {
                metrics.checkpoint_seconds.observe(started.elapsed());
                if let Some(head) = head {
                    self.stored_head.stored(head, checkpoint.version, &update);
                }
            }
            Err(err) => {
                metrics.checkpoint_failures.inc();
                // The write may have been stored or not: the next one sends the whole head.
                self.stored_head.forget();
                return Err(err);
            }
        }
        self.claim.stored_turns = checkpoint.transcript.len();
        Ok(())
    }

    fn saved(&mut self) {
        self.durability = self.durability.stored();
        self.retry_timer = None;
        self.retry_wait = RETRY_FIRST;
        self.flush();
    }

    /// The write failed for want of storage: keep the state, hold the outbox, tell the
    /// device (once per outage, not at every retry), and retry.
    fn hold(&mut self, err: &StoreError) {
        tracing::error!(session = %self.state.life().session_id, %err, "checkpoint failed");
        let first = !self.durability.is_holding();
        self.durability = self.durability.held();
        self.schedule_retry();
        if !first {
            return;
        }
        let message = "the session could not be saved; its ack is held until storage recovers";
        self.send_error(ErrorCode::StorageUnavailable, message, self.held_event_id());
    }

    /// The event id of the latest ack held in the outbox.
    fn held_event_id(&self) -> Option<String> {
        self.state
            .life()
            .outbox
            .iter()
            .rev()
            .find_map(|message| match &message.event {
                ServerEvent::Ack(ack) => Some(ack.event_id.clone()),
                _ => None,
            })
    }

    /// Arms the next retry unless one is pending: the first after [`RETRY_FIRST`], each later
    /// one (until a write is stored) after twice the wait, up to [`RETRY_MAX`].
    fn schedule_retry(&mut self) {
        if self.retry_timer.is_some() {
            return;
        }
        let Some(me) = self.me.clone() else { return };
        let wait = self.retry_wait;
        self.retry_wait = (wait * 2).min(RETRY_MAX);
        self.retry_timer = Some(tell_after(me, wait, RetryCommit));
    }

    /// Another device took the user's active exam (the store refused a live checkpoint):
    /// pause here with `other_device`, and make that pause durable.
    async fn lose_to_other_device(&mut self) {
        self.deps.metrics.takeovers.inc();
        let now = self.now();
        if self
            .state
            .life_mut()
            .pause(PauseReason::OtherDevice, now)
            .is_err()
        {
            return;
        }
        match self.save().await {
            Ok(()) => self.saved(),
            Err(StoreError::Fenced { .. }) => self.evict("fenced while pausing"),
            Err(err) => self.hold(&err),
        }
        self.flush_pause();
        self.link = None;
        if let Some(me) = self.me.as_ref().and_then(|me| me.upgrade()) {
            self.start_abandon_timer(me);
        }
    }

    /// A newer claim owns the session: drop what was never durable, tell the device the
    /// session moved and is paused here, and stop.
    pub(super) fn evict(&mut self, why: &str) {
        if self.durability.is_evicted() {
            return;
        }
        tracing::warn!(session = %self.state.life().session_id, why, "session moved to another claim");
        self.durability = Durability::Evicted;
        let event_id = self.held_event_id();
        self.state.life_mut().outbox.clear();
        self.send_error(ErrorCode::SessionMoved, MOVED, event_id);
        let now = self.now();
        if self.state.life().phase.live().is_some() {
            // ignore: a live phase always accepts Paused; the message is all that matters.
            let _ = self.state.life_mut().pause(PauseReason::OtherDevice, now);
        }
        self.flush_pause();
        self.link = None;
        if let Some(me) = self.me.as_ref().and_then(|me| me.upgrade()) {
            tokio::spawn(async move {
                // ignore: the actor may already be stopping.
                let _ = me.stop_gracefully().await;
            });
        }
    }

    /// Sends the outbox.
    pub(super) fn flush(&mut self) {
        let outbox = std::mem::take(&mut self.state.life_mut().outbox);
        let Some(link) = &self.link else { return };
        let mut said = None;
        for message in outbox {
            said = super::speaking::spoken(&message).or(said);
            link.send(message);
        }
        if !link.is_closed() {
            let now = self.now();
            self.state.life_mut().mark_delivered(now);
        }
        if let Some((text, question_id)) = said {
            self.speak(text, question_id);
        }
    }

    /// Sends the outbox if it is durable; else only its `session.paused`, holding the rest.
    pub(super) fn flush_pause(&mut self) {
        if !self.durability.is_holding() {
            self.flush();
            return;
        }
        let outbox = &mut self.state.life_mut().outbox;
        let is_pause = |m: &ServerMessage| matches!(m.event, ServerEvent::SessionPaused(_));
        let pauses: Vec<ServerMessage> = outbox.iter().filter(|m| is_pause(m)).cloned().collect();
        outbox.retain(|m| !is_pause(m));
        if let Some(link) = &self.link {
            for message in pauses {
                link.send(message);
            }
        }
    }
}
