//! Hibernation: a session whose device has sent nothing for a while stops, keeping only its
//! claim (see `crate::hibernation`), and is woken from its checkpoint by the next event.
//!
//! A session stops only when nothing would be lost: its state is stored (no write held), no
//! examiner call or spoken turn is under way, no decode is out, and no timer but the lease's
//! would fire (an assessment's time limit keeps it awake). Its lease is renewed as it stops,
//! so a claim elsewhere still sends this node its notice.

use kameo::message::{Context, Message};

use super::actor::LiveSession;
use crate::hibernation::Hibernated;
use crate::link::DeviceLink;
use viva_core::session::admission::Durability;
use viva_core::session::phase::Phase;

/// Stop if the session may hibernate; asked by the supervisor when `connection_id`, the
/// attached device, has been idle.
#[derive(Debug)]
pub struct Hibernate {
    /// The idle device.
    pub connection_id: u64,
}

impl Message<Hibernate> for LiveSession {
    type Reply = Option<Hibernated>;

    async fn handle(
        &mut self,
        msg: Hibernate,
        ctx: &mut Context<Self, Option<Hibernated>>,
    ) -> Option<Hibernated> {
        if !self.may_hibernate(msg.connection_id) || !self.hold_lease_asleep().await {
            return None;
        }
        let link = self.link.take()?;
        ctx.stop();
        self.deps.metrics.hibernations.inc();
        Some(Hibernated {
            session_id: self.claim.key.session_id.clone(),
            token: self.claim.token,
            link,
            seq: self.state.life().seq,
            live: self.state.life().phase.live().is_some(),
        })
    }
}

/// A woken session takes its device back, silently: the device never knew it had stopped.
#[derive(Debug)]
pub struct Rejoin {
    /// The device it was attached to.
    pub link: DeviceLink,
}

impl Message<Rejoin> for LiveSession {
    type Reply = ();

    async fn handle(&mut self, msg: Rejoin, ctx: &mut Context<Self, ()>) {
        self.link = Some(msg.link);
        // The device got everything before the session stopped (it stops only when stored
        // and sent), so the open question or turn is delivered, as it was before.
        let now = self.now();
        self.state.life_mut().mark_delivered(now);
        let me = ctx.actor_ref().clone();
        self.arm_deadline(me.clone());
        if matches!(self.state.life().phase, Phase::Paused { .. }) {
            self.start_abandon_timer(me);
        }
        if !self.expire_if_due().await {
            self.drive().await;
        }
    }
}

impl LiveSession {
    /// Whether stopping now loses nothing `connection_id` is owed.
    fn may_hibernate(&self, connection_id: u64) -> bool {
        self.is_attached(connection_id)
            && self.durability == Durability::Saved
            && self.in_flight.is_none()
            && self.retry_timer.is_none()
            && self.deadline_timer.is_none()
            && self.voice.as_ref().is_none_or(|voice| voice.is_quiet())
    }

    /// Renews the lease, so notices of a claim elsewhere still reach this node while the
    /// session sleeps; false (stay awake) if it could not be renewed.
    async fn hold_lease_asleep(&mut self) -> bool {
        let asleep_ms = self.deps.lease.as_millis() as u64;
        let key = &self.claim.key;
        let node = &self.deps.node_id;
        let renewed = self
            .deps
            .store
            .renew_lease(key, node, self.claim.token, asleep_ms)
            .await;
        match renewed {
            Ok(true) => true,
            Ok(false) => {
                self.evict("the lease was taken by a newer claim");
                false
            }
            Err(err) => {
                tracing::warn!(session = %key.session_id, %err, "lease not renewed; staying awake");
                false
            }
        }
    }
}
