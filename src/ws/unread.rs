//! How much of what the server wrote a client has not yet read. The writer numbers its bytes
//! and, every [`CONFIRM_EVERY_BYTES`], sends a WebSocket ping carrying the count so far; a
//! client's WebSocket layer answers each ping with a pong carrying the same bytes once it has
//! read up to it (RFC 6455 §5.5.2; browsers and every client library do this on their own).
//! What was written after the last answered ping is unread. Each ping's payload carries a
//! tag keyed by a per-connection secret, so a pong only counts if it answers a ping the
//! client actually read: a pong made up without reading confirms nothing. A client with more than
//! [`UNREAD_LIMIT_BYTES`] unread gets `rate_limited` for each event it sends, and nothing is
//! applied, until it reads: a client that never reads cannot make the server work, and store,
//! turn after turn for it.

use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};

/// A ping carrying the byte count goes out after this many bytes since the last one.
pub const CONFIRM_EVERY_BYTES: u64 = 16 * 1024;
/// More unread bytes than this, and the client's events are refused until it reads.
pub const UNREAD_LIMIT_BYTES: u64 = 128 * 1024;

/// Bytes written to one client and bytes it confirmed reading, shared by its reader and
/// writer.
#[derive(Debug, Default)]
pub struct Unread {
    written: AtomicU64,
    confirmed: AtomicU64,
    /// The per-connection key of the pings' tags.
    key: RandomState,
}

impl Unread {
    /// Counts `bytes` more written; returns the total.
    pub fn wrote(&self, bytes: usize) -> u64 {
        self.written.fetch_add(bytes as u64, Ordering::Relaxed) + bytes as u64
    }

    /// The total written so far.
    pub fn written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }

    /// A pong's payload: confirms the byte count its ping carried, if the ping was ours.
    pub fn confirm(&self, pong: &[u8]) {
        let Some((count, tag)) = pong
            .split_first_chunk::<8>()
            .and_then(|(count, rest)| Some((*count, <[u8; 8]>::try_from(rest).ok()?)))
        else {
            return;
        };
        let count = u64::from_be_bytes(count);
        if u64::from_be_bytes(tag) != self.tag(count) || count > self.written() {
            return;
        }
        self.confirmed.fetch_max(count, Ordering::Relaxed);
    }

    /// The payload of the ping sent when `written` bytes had gone out: the count and its tag.
    pub fn ping_payload(&self, written: u64) -> Vec<u8> {
        let mut payload = written.to_be_bytes().to_vec();
        payload.extend_from_slice(&self.tag(written).to_be_bytes());
        payload
    }

    fn tag(&self, count: u64) -> u64 {
        self.key.hash_one(count)
    }

    /// Bytes written that the client has not confirmed reading.
    pub fn unread(&self) -> u64 {
        self.written()
            .saturating_sub(self.confirmed.load(Ordering::Relaxed))
    }

    /// Whether the client must read before it may send more events.
    pub fn over_limit(&self) -> bool {
        self.unread() > UNREAD_LIMIT_BYTES
    }
}

/// Whether a ping is due: `written` is at least [`CONFIRM_EVERY_BYTES`] past the last one.
pub fn ping_due(written: u64, last_ping_at: u64) -> bool {
    written.saturating_sub(last_ping_at) >= CONFIRM_EVERY_BYTES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_pong_confirms_is_read_and_the_rest_unread() {
        let unread = Unread::default();
        assert_eq!(unread.wrote(100_000), 100_000);
        assert_eq!(unread.unread(), 100_000);
        unread.confirm(&unread.ping_payload(60_000));
        assert_eq!(unread.unread(), 40_000);
        unread.confirm(&unread.ping_payload(10_000));
        assert_eq!(
            unread.unread(),
            40_000,
            "an older pong confirms nothing more"
        );
        let mut forged = 100_000u64.to_be_bytes().to_vec();
        forged.extend_from_slice(&[0; 8]);
        let other_connection = Unread::default().ping_payload(100_000);
        for pong in [&b"not ours"[..], &[], &forged, &other_connection] {
            unread.confirm(pong);
            assert_eq!(
                unread.unread(),
                40_000,
                "a pong to no ping of ours: {pong:?}"
            );
        }
        unread.confirm(&unread.ping_payload(200_000));
        assert_eq!(unread.unread(), 40_000, "nothing beyond what was written");
        unread.confirm(&unread.ping_payload(100_000));
        assert_eq!(unread.unread(), 0);
    }

    #[test]
    fn events_are_refused_only_beyond_the_limit() {
        let cases = [
            (0, false),
            (UNREAD_LIMIT_BYTES, false),
            (UNREAD_LIMIT_BYTES + 1, true),
        ];
        for (bytes, over) in cases {
            let unread = Unread::default();
            unread.wrote(bytes as usize);
            assert_eq!(unread.over_limit(), over, "{bytes}");
        }
    }

    #[test]
    fn a_ping_is_due_every_confirm_interval() {
        let cases = [
            (0, 0, false),
            (CONFIRM_EVERY_BYTES - 1, 0, false),
            (CONFIRM_EVERY_BYTES, 0, true),
            (CONFIRM_EVERY_BYTES + 5, 5, true),
            (CONFIRM_EVERY_BYTES + 5, 6, false),
        ];
        for (written, last, due) in cases {
            assert_eq!(ping_due(written, last), due, "{written} {last}");
        }
    }
}
