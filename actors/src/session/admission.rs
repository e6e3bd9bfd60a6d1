//! The one admission guard every client event passes before it may change a session,
//! whichever way it arrived: a typed or chosen answer, a pause or end, or a spoken answer
//! whose transcript finished later (after a takeover, an outage or the time limit, maybe).

use viva_protocol::ErrorCode;

use super::LiveSession;
use viva_core::session::lifecycle::Refusal;

/// Whether an event may be applied now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Admission {
    /// Apply it.
    Admit,
    /// Its `event_id` was applied before: acknowledge it again, apply nothing.
    Repeated,
    /// Refused; nothing changed.
    Refused(Refusal),
}

impl LiveSession {
    /// The checks, in order: the sending device holds the session (and it was not taken by
    /// a newer claim); a repeated `event_id` is acknowledged again (once its write is
    /// durable); no earlier change is waiting to be saved; the time limit has not run out
    /// (if it has, the session completes here and the event is refused).
    pub(super) async fn admit(&mut self, connection_id: u64, event_id: Option<&str>) -> Admission {
        if let Some(refusal) = self.refusal_for(connection_id) {
            return Admission::Refused(refusal);
        }
        if event_id.is_some_and(|id| self.state.life().is_applied(id)) {
            return self.repeated().await;
        }
        if self.unsaved {
            let message = "an earlier event is not saved yet; this one was not applied, resend it";
            return Admission::Refused(Refusal::new(ErrorCode::StorageUnavailable, message));
        }
        if self.expire_if_due().await {
            let message = "the time limit has run out";
            return Admission::Refused(Refusal::new(ErrorCode::SessionCompleted, message));
        }
        Admission::Admit
    }

    /// A repeated event: the write it waits for is retried now; acknowledged once durable.
    async fn repeated(&mut self) -> Admission {
        if self.unsaved {
            if !self.commit().await {
                let message = "the session could not be saved";
                return Admission::Refused(Refusal::new(ErrorCode::StorageUnavailable, message));
            }
            self.drive().await;
        }
        Admission::Repeated
    }
}
