//! Whether an event may change a session now: one pure step, [`admit`], that every way an
//! event arrives passes — a client command, a finished voice turn, an examiner's reply, the
//! retry of a held write — and the durability state machine it reads.
//!
//! Durability: a session is `Saved` (everything it sent is stored), `Holding` (a change is
//! not stored yet, so its acks and the rest of the outbox wait), or `Evicted` (a newer claim
//! took it; it changes and stores nothing more). Nothing is applied on top of a held change:
//! an event then is refused (and resent by the client) or dropped (an examiner's reply is
//! asked for again once the write is stored), so the device never sees an ack for a change
//! that could still be lost.

use viva_protocol::ErrorCode;

use super::lifecycle::Refusal;

/// Where a session's state stands against storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// Every change is stored.
    Saved,
    /// A change is not stored yet; the outbox is held until it is.
    Holding,
    /// A newer claim took the session: nothing more is applied or stored.
    Evicted,
}

impl Durability {
    /// After a write was stored.
    pub fn stored(self) -> Durability {
        match self {
            Durability::Evicted => Durability::Evicted,
            Durability::Saved | Durability::Holding => Durability::Saved,
        }
    }

    /// After a write failed for want of storage.
    pub fn held(self) -> Durability {
        match self {
            Durability::Evicted => Durability::Evicted,
            Durability::Saved | Durability::Holding => Durability::Holding,
        }
    }

    /// Whether a change is waiting to be stored.
    pub fn is_holding(self) -> bool {
        self == Durability::Holding
    }

    /// Whether a newer claim took the session.
    pub fn is_evicted(self) -> bool {
        self == Durability::Evicted
    }
}

/// A way an event reaches the session, with what the actor knows of it. Each way has its
/// own outcome type, so the actor matches only the outcomes its arrival can have.
pub trait Arrival {
    /// What the actor may be told to do with this kind of event.
    type Outcome;

    /// The admission rule for this kind of event.
    fn admit(self, durability: Durability, expired: bool) -> Self::Outcome;
}

/// A client's command, or a finished voice turn (which answers for its device as a typed
/// answer would, with its commit's `event_id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientEvent {
    /// The sending device is the one attached.
    pub attached: bool,
    /// Its `event_id` was applied before.
    pub repeated: bool,
}

/// An examiner's reply (an assessment or a phrasing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkReply {
    /// The session still wants exactly the work it answers.
    pub wanted: bool,
}

/// The retry timer of a held write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retry;

/// What the actor must do with a client's event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientAdmission {
    /// Apply it, then commit.
    Apply,
    /// Its `event_id` was applied and stored: acknowledge it again, apply nothing.
    AckAgain,
    /// Its `event_id` was applied but the change is held: write again, and acknowledge it
    /// again once that is stored (refuse with `storage_unavailable` if not).
    StoreThenAckAgain,
    /// The time limit ran out: complete the session as it stands, and refuse the event.
    Expire,
    /// Refuse it with this; nothing changed.
    Refuse(Refusal),
}

/// What the actor must do with an examiner's reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplyAdmission {
    /// Apply it, then commit.
    Apply,
    /// The time limit ran out: complete the session as it stands; the reply is not used.
    Expire,
    /// Ignore it: stale, or the session cannot store a change now (the work is asked for
    /// again once it can).
    Drop,
}

/// What the retry timer must do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryAdmission {
    /// Write the held change again.
    Store,
    /// Nothing is held (or the session was taken): stop retrying.
    Drop,
}

/// Told to a device that no longer holds its session.
const DETACHED: &str = "this device no longer holds the session; resume it first";
/// Told to a device whose session a newer claim took.
pub const MOVED: &str = "the session moved to another device or server; resume it to continue";
/// Told when an earlier change is still unsaved.
const HOLDING: &str = "an earlier event is not saved yet; this one was not applied, resend it";

/// The one admission rule, for every way an event arrives. `expired`: the session is live
/// and its time limit has passed.
///
/// A client's event is checked in order: its device holds the session; the session was not
/// taken by a newer claim; a repeated `event_id` is acknowledged again (once stored); no
/// earlier change is held; the time limit has not run out. An examiner's reply passes the
/// same durability and time checks, and is dropped where a client's event is refused.
pub fn admit<A: Arrival>(durability: Durability, arrival: A, expired: bool) -> A::Outcome {
    arrival.admit(durability, expired)
}

impl Arrival for ClientEvent {
    type Outcome = ClientAdmission;

    fn admit(self, durability: Durability, expired: bool) -> ClientAdmission {
        let refuse = |code, message| ClientAdmission::Refuse(Refusal::new(code, message));
        if !self.attached {
            return refuse(ErrorCode::SessionPaused, DETACHED);
        }
        match (durability, self.repeated) {
            (Durability::Evicted, _) => refuse(ErrorCode::SessionMoved, MOVED),
            (Durability::Holding, true) => ClientAdmission::StoreThenAckAgain,
            (Durability::Saved, true) => ClientAdmission::AckAgain,
            (Durability::Holding, false) => refuse(ErrorCode::StorageUnavailable, HOLDING),
            (Durability::Saved, false) if expired => ClientAdmission::Expire,
            (Durability::Saved, false) => ClientAdmission::Apply,
        }
    }
}

impl Arrival for WorkReply {
    type Outcome = ReplyAdmission;

    fn admit(self, durability: Durability, expired: bool) -> ReplyAdmission {
        match durability {
            Durability::Evicted | Durability::Holding => ReplyAdmission::Drop,
            Durability::Saved if !self.wanted => ReplyAdmission::Drop,
            Durability::Saved if expired => ReplyAdmission::Expire,
            Durability::Saved => ReplyAdmission::Apply,
        }
    }
}

impl Arrival for Retry {
    type Outcome = RetryAdmission;

    fn admit(self, durability: Durability, _expired: bool) -> RetryAdmission {
        match durability {
            Durability::Holding => RetryAdmission::Store,
            Durability::Saved | Durability::Evicted => RetryAdmission::Drop,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use Durability::{Evicted, Holding, Saved};

    fn client(attached: bool, repeated: bool) -> ClientEvent {
        ClientEvent { attached, repeated }
    }

    /// The outcome as one word, with the refusal's code.
    fn outcome(admission: &ClientAdmission) -> String {
        match admission {
            ClientAdmission::Refuse(refusal) => format!("refuse {}", refusal.code.as_str()),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn client_events_pass_the_checks_in_order() {
        let rows = [
            (Saved, client(true, false), false, "Apply"),
            (Saved, client(true, true), false, "AckAgain"),
            (Saved, client(true, true), true, "AckAgain"),
            (Holding, client(true, true), false, "StoreThenAckAgain"),
            (Saved, client(true, false), true, "Expire"),
            (
                Holding,
                client(true, false),
                true,
                "refuse storage_unavailable",
            ),
            (
                Holding,
                client(true, false),
                false,
                "refuse storage_unavailable",
            ),
            (Evicted, client(true, false), false, "refuse session_moved"),
            (Evicted, client(true, true), false, "refuse session_moved"),
            (Saved, client(false, false), false, "refuse session_paused"),
            (Evicted, client(false, true), true, "refuse session_paused"),
        ];
        for (durability, arrival, expired, expected) in rows {
            let admission = admit(durability, arrival, expired);
            assert_eq!(
                outcome(&admission),
                expected,
                "{durability:?} {arrival:?} {expired}"
            );
        }
    }

    #[test]
    fn an_examiner_reply_is_dropped_wherever_a_typed_answer_is_refused() {
        let rows = [
            (Saved, true, false, ReplyAdmission::Apply),
            (Saved, false, false, ReplyAdmission::Drop),
            (Saved, true, true, ReplyAdmission::Expire),
            (Holding, true, false, ReplyAdmission::Drop),
            (Holding, true, true, ReplyAdmission::Drop),
            (Evicted, true, false, ReplyAdmission::Drop),
        ];
        for (durability, wanted, expired, expected) in rows {
            let reply = WorkReply { wanted };
            let got = admit(durability, reply, expired);
            assert_eq!(got, expected, "{durability:?} {wanted} {expired}");
            let typed = admit(durability, client(true, false), expired);
            if matches!(typed, ClientAdmission::Refuse(_)) {
                assert_eq!(got, ReplyAdmission::Drop);
            }
        }
    }

    #[test]
    fn a_retry_writes_only_a_held_change() {
        let rows = [
            (Holding, RetryAdmission::Store),
            (Saved, RetryAdmission::Drop),
            (Evicted, RetryAdmission::Drop),
        ];
        for (durability, expected) in rows {
            assert_eq!(admit(durability, Retry, true), expected, "{durability:?}");
        }
    }

    #[test]
    fn eviction_is_final() {
        for durability in [Saved, Holding, Evicted] {
            assert_eq!(durability.held().stored(), durability.stored());
        }
        assert_eq!(Evicted.stored(), Evicted);
        assert_eq!(Evicted.held(), Evicted);
        assert_eq!(Holding.stored(), Saved);
        assert_eq!(Saved.held(), Holding);
        assert!(Holding.is_holding() && Evicted.is_evicted() && !Saved.is_holding());
    }
}
