//! Why a store operation failed, and the boxed future every store method returns.

use std::future::Future;
use std::pin::Pin;

/// A boxed future returned by store methods, so the trait stays object-safe.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The storage medium failed (disk full, permissions, connection lost). Retryable: the
    /// caller keeps its in-memory state and reports `storage_unavailable`.
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    /// A stored record could not be decoded (corrupt, or a format this build does not know).
    /// Terminal for that record.
    #[error("stored record {key} is unreadable: {reason}")]
    Corrupt {
        /// The record's key.
        key: String,
        /// What was wrong.
        reason: String,
    },
    /// Another claim of the session holds a newer fencing token: this owner is stale and
    /// must stop. Nothing was written.
    #[error("session {session_id} is owned by a newer claim; token {token} is stale")]
    Fenced {
        /// The session.
        session_id: String,
        /// The refused token.
        token: u64,
    },
    /// A live (unpaused) checkpoint of a session that is no longer the user's active one:
    /// another device took over. Nothing was written.
    #[error("session {session_id} is no longer the user's active session")]
    NotActive {
        /// The session.
        session_id: String,
    },
    /// A user record changed since it was read (compare-and-set on its version failed).
    #[error("user record {user_id} changed concurrently")]
    Conflict {
        /// The user.
        user_id: String,
    },
}
