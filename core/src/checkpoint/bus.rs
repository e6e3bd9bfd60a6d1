//! Notices between server nodes. A node that takes a user's active exam, or claims a session
//! another node still holds, tells that node so it pauses its device at once instead of at
//! its next write (which fencing would refuse anyway: notices make takeover prompt, fencing
//! makes it safe).

use serde::{Deserialize, Serialize};

use super::error::StoreFuture;

/// A notice addressed to one node.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "notice", rename_all = "snake_case")]
pub enum Notice {
    /// The user's active exam is now `active_session`: pause every other session of the user
    /// with a device attached on this node (reason `other_device`).
    Yield {
        /// The user.
        user_id: String,
        /// The session that is active now.
        active_session: String,
    },
    /// Another node claimed `session_id` with fencing token `token`: pause its device here
    /// and stop its actor, if this node's claim is older.
    Moved {
        /// The user.
        user_id: String,
        /// The session.
        session_id: String,
        /// The new claim's token.
        token: u64,
    },
}

impl Notice {
    /// The user the notice is about.
    pub fn user_id(&self) -> &str {
        match self {
            Notice::Yield { user_id, .. } | Notice::Moved { user_id, .. } => user_id,
        }
    }
}

/// Delivers notices to nodes, at most once: a lost notice only delays a pause until the
/// stale side's next write is refused.
pub trait NodeBus: Send + Sync + 'static {
    /// Sends `notice` to `node`.
    fn publish<'a>(&'a self, node: &'a str, notice: &'a Notice) -> StoreFuture<'a, ()>;
}

/// The bus of a single-node server: every session lives in this process, so there is never
/// another node to tell.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalBus;

impl NodeBus for LocalBus {
    fn publish<'a>(&'a self, node: &'a str, notice: &'a Notice) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            tracing::debug!(node, ?notice, "single-node server: notice not sent");
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_have_a_stable_json_shape() {
        let notice = Notice::Moved {
            user_id: "u".into(),
            session_id: "s".into(),
            token: 7,
        };
        let json = serde_json::to_string(&notice).unwrap();
        assert_eq!(
            json,
            r#"{"notice":"moved","user_id":"u","session_id":"s","token":7}"#
        );
        assert_eq!(serde_json::from_str::<Notice>(&json).unwrap(), notice);
    }
}
