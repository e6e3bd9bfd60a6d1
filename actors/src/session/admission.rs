//! The actor's side of admission: what it knows of an arriving event, given to
//! `viva_core::session::admission::admit` (the one rule for client commands, finished voice
//! turns, examiner replies and retries), and what it then does.

use viva_core::session::admission::{
    Arrival, ClientAdmission, ClientEvent, ReplyAdmission, Retry, RetryAdmission, WorkReply, admit,
};
use viva_core::session::lifecycle::Refusal;
use viva_protocol::ErrorCode;

use super::actor::LiveSession;

/// What became of a client's event (a command or a finished voice turn) at the door.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Admitted {
    /// Apply it.
    Apply,
    /// Its `event_id` was applied before and is stored: acknowledge it again, apply nothing.
    Repeated,
    /// Refused; nothing changed.
    Refused(Refusal),
}

impl LiveSession {
    /// Admits a client's event from `connection_id`. A repeated event whose write is held
    /// is written again first; an event after the time limit completes the session.
    pub(super) async fn admit_client(
        &mut self,
        connection_id: u64,
        event_id: Option<&str>,
    ) -> Admitted {
        let arrival = ClientEvent {
            attached: self.is_attached(connection_id),
            repeated: event_id.is_some_and(|id| self.state.life().is_applied(id)),
        };
        match self.admission(arrival) {
            ClientAdmission::Apply => Admitted::Apply,
            ClientAdmission::AckAgain => Admitted::Repeated,
            ClientAdmission::StoreThenAckAgain => self.store_then_ack_again().await,
            ClientAdmission::Expire => {
                self.expire_if_due().await;
                let message = "the time limit has run out";
                Admitted::Refused(Refusal::new(ErrorCode::SessionCompleted, message))
            }
            ClientAdmission::Refuse(refusal) => Admitted::Refused(refusal),
        }
    }

    /// Whether an examiner's reply may be applied; one that arrives after the time limit
    /// completes the session instead.
    pub(super) async fn admit_reply(&mut self, wanted: bool) -> bool {
        match self.admission(WorkReply { wanted }) {
            ReplyAdmission::Apply => true,
            ReplyAdmission::Expire => {
                self.expire_if_due().await;
                false
            }
            ReplyAdmission::Drop => false,
        }
    }

    /// Whether the retry timer has a held write to store.
    pub(super) fn admit_retry(&self) -> bool {
        self.admission(Retry) == RetryAdmission::Store
    }

    fn admission<A: Arrival>(&self, arrival: A) -> A::Outcome {
        let expired = self.state.is_due_to_expire(self.now());
        admit(self.durability, arrival, expired)
    }

    /// A repeated event whose write is held: write it again; acknowledged once stored.
    async fn store_then_ack_again(&mut self) -> Admitted {
        if !self.commit().await {
            let message = "the session could not be saved";
            return Admitted::Refused(Refusal::new(ErrorCode::StorageUnavailable, message));
        }
        self.drive().await;
        Admitted::Repeated
    }
}
