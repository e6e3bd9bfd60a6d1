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

/// How an event reached the session, with what the actor knows of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrival {
    /// A client's command, or a finished voice turn (which answers for its device as a typed
    /// answer would, with its commit's `event_id`).
    Client {
        /// The sending device is the one attached.
        attached: bool,
        /// Its `event_id` was applied before.
        repeated: bool,
    },
    /// An examiner's reply (an assessment or a phrasing).
    ExaminerReply {
        /// The session still wants exactly the work it answers.
        wanted: bool,
    },
    /// The retry timer of a held write.
    Retry,
}

/// What the actor must do with an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admission {
    /// Apply it, then commit.
    Apply,
    /// A repeated client event whose change is stored: acknowledge it again, apply nothing.
    AckAgain,
    /// A repeated client event whose change is held: write again, and acknowledge it again
    /// once that is stored (refuse with `storage_unavailable` if not).
    StoreThenAckAgain,
    /// Write the held change again (a retry).
    Store,
    /// The time limit ran out: complete the session as it stands, and refuse the event (a
    /// client's) or drop it.
    Expire,
    /// Refuse the client's event with this; nothing changed.
    Refuse(Refusal),
    /// Ignore it: a stale examiner reply, or a retry with nothing to write.
    Drop,
}

/// Told to a device that no longer holds its session.
const DETACHED: &str = "this device no longer holds the session; resume it first";
/// Told to a device whose session a newer claim took.
pub const MOVED: &str = "the session moved to another device or server; resume it to continue";
/// Told when an earlier change is still unsaved.
const HOLDING: &str = "an earlier event is not saved yet; this one was not applied, resend it";

/// The one admission rule. `expired`: the session is live and its time limit has passed.
///
/// A client's event is checked in order: its device holds the session; the session was not
/// taken by a newer claim; a repeated `event_id` is acknowledged again (once stored); no
/// earlier change is held; the time limit has not run out. An examiner's reply passes the
/// same durability and time checks, and is dropped where a client's event is refused.
pub fn admit(durability: Durability, arrival: Arrival, expired: bool) -> Admission {
    match arrival {
        Arrival::Client { attached, repeated } => {
            admit_client(durability, attached, repeated, expired)
        }
        Arrival::ExaminerReply { wanted } => admit_reply(durability, wanted, expired),
        Arrival::Retry => match durability {
            Durability::Holding => Admission::Store,
            Durability::Saved | Durability::Evicted => Admission::Drop,
        },
    }
}

fn admit_client(
    durability: Durability,
    attached: bool,
    repeated: bool,
    expired: bool,
) -> Admission {
    if !attached {
        return Admission::Refuse(Refusal::new(ErrorCode::SessionPaused, DETACHED));
    }
    match (durability, repeated) {
        (Durability::Evicted, _) => Admission::Refuse(Refusal::new(ErrorCode::SessionMoved, MOVED)),
        (Durability::Holding, true) => Admission::StoreThenAckAgain,
        (Durability::Saved, true) => Admission::AckAgain,
        (Durability::Holding, false) => {
            Admission::Refuse(Refusal::new(ErrorCode::StorageUnavailable, HOLDING))
        }
        (Durability::Saved, false) if expired => Admission::Expire,
        (Durability::Saved, false) => Admission::Apply,
    }
}

fn admit_reply(durability: Durability, wanted: bool, expired: bool) -> Admission {
    match durability {
        Durability::Evicted | Durability::Holding => Admission::Drop,
        Durability::Saved if !wanted => Admission::Drop,
        Durability::Saved if expired => Admission::Expire,
        Durability::Saved => Admission::Apply,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use Durability::{Evicted, Holding, Saved};

    fn client(attached: bool, repeated: bool) -> Arrival {
        Arrival::Client { attached, repeated }
    }

    fn code(admission: &Admission) -> Option<ErrorCode> {
        match admission {
            Admission::Refuse(refusal) => Some(refusal.code),
            _ => None,
        }
    }

    #[test]
    fn client_events_pass_the_checks_in_order() {
        use ErrorCode::{SessionMoved, SessionPaused, StorageUnavailable};
        let rows: &[(Durability, Arrival, bool, Admission, Option<ErrorCode>)] = &[
            (Saved, client(true, false), false, Admission::Apply, None),
            (Saved, client(true, true), false, Admission::AckAgain, None),
            (Saved, client(true, true), true, Admission::AckAgain, None),
            (
                Holding,
                client(true, true),
                false,
                Admission::StoreThenAckAgain,
                None,
            ),
            (Saved, client(true, false), true, Admission::Expire, None),
            (
                Holding,
                client(true, false),
                true,
                refusal(StorageUnavailable),
                Some(StorageUnavailable),
            ),
            (
                Holding,
                client(true, false),
                false,
                refusal(StorageUnavailable),
                Some(StorageUnavailable),
            ),
            (
                Evicted,
                client(true, false),
                false,
                refusal(SessionMoved),
                Some(SessionMoved),
            ),
            (
                Evicted,
                client(true, true),
                false,
                refusal(SessionMoved),
                Some(SessionMoved),
            ),
            (
                Saved,
                client(false, false),
                false,
                refusal(SessionPaused),
                Some(SessionPaused),
            ),
            (
                Evicted,
                client(false, true),
                true,
                refusal(SessionPaused),
                Some(SessionPaused),
            ),
        ];
        for (durability, arrival, expired, expected, expected_code) in rows {
            let admission = admit(*durability, *arrival, *expired);
            assert_eq!(
                code(&admission),
                *expected_code,
                "{durability:?} {arrival:?} {expired}"
            );
            if expected_code.is_none() {
                assert_eq!(admission, *expected, "{durability:?} {arrival:?} {expired}");
            }
        }
    }

    fn refusal(code: ErrorCode) -> Admission {
        Admission::Refuse(Refusal::new(code, ""))
    }

    #[test]
    fn an_examiner_reply_is_dropped_wherever_a_typed_answer_is_refused() {
        let rows = [
            (Saved, true, false, Admission::Apply),
            (Saved, false, false, Admission::Drop),
            (Saved, true, true, Admission::Expire),
            (Holding, true, false, Admission::Drop),
            (Holding, true, true, Admission::Drop),
            (Evicted, true, false, Admission::Drop),
        ];
        for (durability, wanted, expired, expected) in rows {
            let arrival = Arrival::ExaminerReply { wanted };
            assert_eq!(
                admit(durability, arrival, expired),
                expected,
                "{durability:?} {wanted} {expired}"
            );
            let typed = admit(durability, client(true, false), expired);
            if matches!(typed, Admission::Refuse(_)) {
                assert_eq!(admit(durability, arrival, expired), Admission::Drop);
            }
        }
    }

    #[test]
    fn a_retry_writes_only_a_held_change() {
        assert_eq!(admit(Holding, Arrival::Retry, false), Admission::Store);
        assert_eq!(admit(Saved, Arrival::Retry, false), Admission::Drop);
        assert_eq!(admit(Evicted, Arrival::Retry, true), Admission::Drop);
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
