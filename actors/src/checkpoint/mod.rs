//! Durable session state: the versioned checkpoint format and the `CheckpointStore` trait.
//!
//! - [`format`]: `SessionCheckpoint` and `UserRecord`, the explicit, versioned on-disk layout
//!   (never the actor structs themselves).
//! - [`file`]: the embedded default store — one JSON file per record, written crash-safely.
//! - [`memory`]: an in-process store for unit tests of the actors.

pub mod file;
pub mod format;
pub mod memory;

use std::future::Future;
use std::pin::Pin;

pub use file::FileStore;
pub use format::{SessionCheckpoint, UserRecord};
pub use memory::MemoryStore;

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
}

/// Where checkpoints and user records live. Implementations must make a completed `save_*`
/// durable: after it returns `Ok`, a crash of the process or machine loses nothing.
pub trait CheckpointStore: Send + Sync + 'static {
    /// Writes a session checkpoint, replacing the previous one.
    fn save_session<'a>(&'a self, checkpoint: &'a SessionCheckpoint) -> StoreFuture<'a, ()>;
    /// Reads a session checkpoint.
    fn load_session<'a>(
        &'a self,
        session_id: &'a str,
    ) -> StoreFuture<'a, Option<SessionCheckpoint>>;
    /// Writes a user's record, replacing the previous one.
    fn save_user<'a>(&'a self, record: &'a UserRecord) -> StoreFuture<'a, ()>;
    /// Reads a user's record.
    fn load_user<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Option<UserRecord>>;
}
