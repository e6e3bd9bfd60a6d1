//! Hibernated sessions: what a node keeps of a session whose actor stopped because its device
//! sent nothing for a while (`[session] hibernate_after`). The checkpoint holds the session;
//! this holds only how to find it again and whom to tell — its id, the fencing token of the
//! claim it still has, and the device's link. The next event from that device, or anything
//! another device or node does to the session, wakes it from its checkpoint under the same
//! claim, as if it had never stopped.
//!
//! The map lives beside the supervisors, not in them, so a user whose sessions all hibernate
//! needs no supervisor either.

use dashmap::DashMap;

use crate::link::DeviceLink;

/// One hibernated session.
#[derive(Debug, Clone)]
pub struct Hibernated {
    /// The session.
    pub session_id: String,
    /// The fencing token of the claim the stopped actor held; the woken one holds it again.
    pub token: u64,
    /// The device the session is attached to.
    pub link: DeviceLink,
    /// The `seq` of the last event the device was sent.
    pub seq: u64,
    /// Whether the session was live (not paused) when it stopped.
    pub live: bool,
}

/// The hibernated sessions of this node, by user.
#[derive(Debug, Default)]
pub struct Hibernation {
    by_user: DashMap<String, Vec<Hibernated>>,
}

impl Hibernation {
    /// An empty map.
    pub fn new() -> Hibernation {
        Hibernation::default()
    }

    /// Keeps `entry` for `user_id`, replacing one of the same session.
    pub fn put(&self, user_id: &str, entry: Hibernated) {
        let mut entries = self.by_user.entry(user_id.to_owned()).or_default();
        entries.retain(|kept| kept.session_id != entry.session_id);
        entries.push(entry);
    }

    /// Takes the entry of `session_id`, if it is hibernated here.
    pub fn take(&self, user_id: &str, session_id: &str) -> Option<Hibernated> {
        self.take_where(user_id, |entry| entry.session_id == session_id)
            .pop()
    }

    /// Takes every entry of `user_id` that is `wanted`, leaving the others.
    pub fn take_where(
        &self,
        user_id: &str,
        wanted: impl Fn(&Hibernated) -> bool,
    ) -> Vec<Hibernated> {
        let Some(mut entries) = self.by_user.get_mut(user_id) else {
            return Vec::new();
        };
        let (taken, kept) = std::mem::take(&mut *entries)
            .into_iter()
            .partition(|entry| wanted(entry));
        *entries = kept;
        let now_empty = entries.is_empty();
        drop(entries);
        if now_empty {
            self.by_user
                .remove_if(user_id, |_, entries| entries.is_empty());
        }
        taken
    }

    /// Whether `user_id` has a session hibernated here.
    pub fn has_user(&self, user_id: &str) -> bool {
        self.by_user.contains_key(user_id)
    }

    /// The users with a session hibernated here.
    pub fn users(&self) -> Vec<String> {
        self.by_user
            .iter()
            .map(|entry| entry.key().clone())
            .collect()
    }

    /// How many sessions are hibernated here.
    pub fn len(&self) -> usize {
        self.by_user.iter().map(|entry| entry.value().len()).sum()
    }

    /// Whether no session is hibernated here.
    pub fn is_empty(&self) -> bool {
        self.by_user.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use tokio_util::sync::CancellationToken;

    use super::*;

    fn entry(session_id: &str, connection_id: u64) -> Hibernated {
        let (link, _) = DeviceLink::new(connection_id, "d".into(), CancellationToken::new());
        Hibernated {
            session_id: session_id.into(),
            token: 3,
            link,
            seq: 9,
            live: true,
        }
    }

    #[test]
    fn entries_are_taken_once_and_a_user_with_none_left_is_forgotten() {
        let hibernation = Hibernation::new();
        hibernation.put("u", entry("s1", 1));
        hibernation.put("u", entry("s2", 2));
        assert_eq!(hibernation.len(), 2);
        assert_eq!(hibernation.take("u", "s1").map(|e| e.token), Some(3));
        assert!(hibernation.take("u", "s1").is_none());
        assert!(
            hibernation.take("other", "s2").is_none(),
            "only through its user"
        );
        assert!(hibernation.has_user("u"));
        let on_two = hibernation.take_where("u", |e| e.link.connection_id == 2);
        assert_eq!(on_two.len(), 1);
        assert!(!hibernation.has_user("u"));
        assert!(hibernation.is_empty());
    }

    #[test]
    fn a_session_hibernated_again_replaces_its_entry() {
        let hibernation = Hibernation::new();
        hibernation.put("u", entry("s1", 1));
        hibernation.put("u", entry("s1", 7));
        assert_eq!(hibernation.len(), 1);
        let all = hibernation.take_where("u", |_| true);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].link.connection_id, 7);
        assert!(hibernation.users().is_empty());
    }
}
