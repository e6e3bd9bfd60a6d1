//! The key layout. Every key of a user carries the hash tag `{u:<hex user id>}`, so a user's
//! record and all of their sessions live in one Redis Cluster slot and one Lua script can
//! touch them together. The user id is hex-encoded so no id can forge another's keys.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `viva:{u:HEX}:user` | hash | `ver` (record version), `rec` (encoded record), `active` |
//! | `viva:{u:HEX}:s:SID` | hash | `fence` (latest claim's token), `ver` (write version), `head` |
//! | `viva:{u:HEX}:s:SID:turns` | list | encoded transcript turns, in order |
//! | `viva:{u:HEX}:s:SID:edits` | list | encoded head edits since `head` was written whole |
//! | `viva:{u:HEX}:s:SID:lease` | string | the owning node's id, with a TTL |
//! | `viva:{u:HEX}:KIND:HEX` | hash | a side record of one kind and name (a student's snapshot of a course: `tutor`): `fence`, `owner`, `rec` |
//! | `viva:node:NODE` | channel | notices to one node |
//! | `viva:control:new-sessions` | string | the operator's new-session switch (JSON), no TTL |
//!
//! Operator tools list sessions with `SCAN MATCH viva:{u:*}:s:*` (see [`session_pattern`]),
//! which also matches the `:turns` and `:lease` keys; [`session_of_key`] keeps the hashes.

use viva_core::checkpoint::{SessionKey, SideKey};

/// The keys of one session, in the order the scripts take them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionKeys {
    /// The session hash.
    pub meta: String,
    /// The transcript list.
    pub turns: String,
    /// The log of head edits written since the whole head.
    pub edits: String,
    /// The lease.
    pub lease: String,
    /// The owner's user record (for the active-session check).
    pub user: String,
}

impl SessionKeys {
    /// The keys of `key`.
    pub fn of(key: &SessionKey) -> SessionKeys {
        let tag = user_tag(&key.user_id);
        let meta = format!("viva:{tag}:s:{}", key.session_id);
        SessionKeys {
            turns: format!("{meta}:turns"),
            edits: format!("{meta}:edits"),
            lease: format!("{meta}:lease"),
            user: user_key(&key.user_id),
            meta,
        }
    }
}

/// `{u:<hex>}`: the hash tag shared by all of a user's keys.
fn user_tag(user_id: &str) -> String {
    let hex: String = user_id.bytes().map(|b| format!("{b:02x}")).collect();
    format!("{{u:{hex}}}")
}

/// The user record's key.
pub fn user_key(user_id: &str) -> String {
    format!("viva:{}:user", user_tag(user_id))
}

/// Side-record kinds that would collide with the user's other keys.
const RESERVED_KINDS: [&str; 2] = ["s", "user"];

/// The key of a side record (its name hex-encoded too, so no name forges a key); `None` for
/// a kind that is not a plain lowercase word, or one the layout reserves.
pub fn side_key(key: &SideKey) -> Option<String> {
    let kind = key.kind;
    let plain = !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_lowercase());
    if !plain || RESERVED_KINDS.contains(&kind) {
        return None;
    }
    let name: String = key.name.bytes().map(|b| format!("{b:02x}")).collect();
    Some(format!("viva:{}:{kind}:{name}", user_tag(&key.user_id)))
}

/// The operator's new-session switch, one for every node sharing this Redis.
pub const SWITCH: &str = "viva:control:new-sessions";

/// The SCAN pattern of every session's keys, or of one session's when `session_id` is given
/// (a plain id: letters, digits and `-`, so it holds no glob character).
pub fn session_pattern(session_id: Option<&str>) -> Option<String> {
    match session_id {
        None => Some("viva:{u:*}:s:*".to_owned()),
        Some(id) if is_plain_id(id) => Some(format!("viva:{{u:*}}:s:{id}")),
        Some(_) => None,
    }
}

/// The session id of a session hash key; `None` for any other key (turns, lease, user).
pub fn session_of_key(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("viva:{u:")?;
    let (_, session) = rest.split_once("}:s:")?;
    is_plain_id(session).then_some(session)
}

/// Letters, digits and `-`, 1 to 64 of them, as server-made session ids are.
fn is_plain_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// The channel a node listens on for notices.
pub fn node_channel(node_id: &str) -> String {
    format!("viva:node:{node_id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slot part of a key, as Redis Cluster hashes it.
    fn hash_tag(key: &str) -> &str {
        let open = key.find('{').unwrap();
        let close = key[open..].find('}').unwrap() + open;
        &key[open + 1..close]
    }

    #[test]
    fn a_users_keys_share_one_hash_tag() {
        let keys = SessionKeys::of(&SessionKey::new("al}ice{", "s-1"));
        let tags = [
            &keys.meta,
            &keys.turns,
            &keys.edits,
            &keys.lease,
            &keys.user,
        ]
        .map(|k| hash_tag(k));
        assert!(tags.iter().all(|t| *t == "u:616c7d6963657b"), "{tags:?}");
        assert_eq!(keys.turns, "viva:{u:616c7d6963657b}:s:s-1:turns");
    }

    #[test]
    fn a_scan_keeps_session_hashes_only() {
        let keys = SessionKeys::of(&SessionKey::new("alice", "0b6f-2b9e"));
        let check =
            |key: &str, expected: Option<&str>| assert_eq!(session_of_key(key), expected, "{key}");
        check(&keys.meta, Some("0b6f-2b9e"));
        check(&keys.turns, None);
        check(&keys.edits, None);
        check(&keys.lease, None);
        check(&keys.user, None);
        check(SWITCH, None);
        check("viva:node:one", None);
        assert_eq!(
            session_pattern(Some("0b6f-2b9e")).as_deref(),
            Some("viva:{u:*}:s:0b6f-2b9e")
        );
        assert_eq!(session_pattern(Some("a*")), None, "no glob from outside");
        assert_eq!(session_pattern(None).as_deref(), Some("viva:{u:*}:s:*"));
    }

    #[test]
    fn different_users_never_share_keys() {
        let a = SessionKeys::of(&SessionKey::new("a", "s"));
        let b = SessionKeys::of(&SessionKey::new("b", "s"));
        assert_ne!(a.meta, b.meta);
        assert_ne!(user_key("a"), user_key("b"));
    }
}
