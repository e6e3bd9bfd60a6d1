//! The store ports: where checkpoints, user records, side records and the operator's switch
//! live (`CheckpointStore`, `SideStore`, `SwitchStore`), and the claims and writes they take.

use super::delta::HeadUpdate;
use super::error::StoreFuture;
use super::format::{SessionCheckpoint, SwitchRecord, UserRecord};
use super::side::{SideClaim, SideKey, StoredSide};

/// A session's identity in storage. Both ids are part of every key, so a session can only be
/// reached through its owner, and one user's records share one Redis Cluster slot.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SessionKey {
    /// The owner.
    pub user_id: String,
    /// The session.
    pub session_id: String,
}

impl SessionKey {
    /// The key of `session_id` owned by `user_id`.
    pub fn new(user_id: &str, session_id: &str) -> SessionKey {
        SessionKey {
            user_id: user_id.to_owned(),
            session_id: session_id.to_owned(),
        }
    }
}

/// What a claim wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimKind {
    /// A new session: there must be no checkpoint yet.
    Create,
    /// An existing session: there must be a checkpoint.
    Adopt,
}

/// A successful claim: this node now owns the session.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// The fencing token; higher than any earlier claim's.
    pub token: u64,
    /// The node whose lease was still live when this claim took the session, if another.
    pub previous_owner: Option<String>,
    /// The latest checkpoint (`None` for `Create`, or an `Adopt` of an unknown session).
    pub checkpoint: Option<SessionCheckpoint>,
}

/// One checkpoint write.
#[derive(Debug, Clone, Copy)]
pub struct SessionWrite<'a> {
    /// The full logical checkpoint; its `version` must exceed the stored one.
    pub checkpoint: &'a SessionCheckpoint,
    /// The writer's fencing token.
    pub token: u64,
    /// Transcript turns before this index are stored unchanged already; a store that keeps
    /// the transcript apart rewrites only the rest.
    pub turns_from: usize,
    /// The session is live (neither paused nor finished): a store shared between nodes
    /// refuses it unless the session is its user's active one (`StoreError::NotActive`).
    pub live: bool,
    /// The writing node's lease on the session, extended by the write (a store shared
    /// between nodes keeps it, so a claim elsewhere knows which node to tell).
    pub lease: Option<Lease<'a>>,
    /// How the head is stored: whole, or as edits on the stored one (a store that keeps no
    /// log of edits writes it whole either way).
    pub head: &'a HeadUpdate,
}

/// A node's lease on a session: which node holds it, and for how long after this.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease<'a> {
    /// The node.
    pub node: &'a str,
    /// How long the lease lasts, ms.
    pub ms: u64,
}

/// Where checkpoints and user records live. Implementations must make a completed write
/// durable: after it returns `Ok`, a crash of the process or machine loses nothing.
pub trait CheckpointStore: Send + Sync + 'static {
    /// Claims a session for `node`: a new fencing token, a lease of `lease_ms`, and the
    /// latest checkpoint, atomically, so no write of an earlier owner can follow unseen.
    fn claim_session<'a>(
        &'a self,
        key: &'a SessionKey,
        node: &'a str,
        kind: ClaimKind,
        lease_ms: u64,
    ) -> StoreFuture<'a, Option<Claim>>;
    /// Renews `node`'s lease; `Ok(false)` when another claim has taken the session.
    fn renew_lease<'a>(
        &'a self,
        key: &'a SessionKey,
        node: &'a str,
        token: u64,
        lease_ms: u64,
    ) -> StoreFuture<'a, bool>;
    /// Drops `node`'s lease (at shutdown), if it still holds it.
    fn release_lease<'a>(&'a self, key: &'a SessionKey, token: u64) -> StoreFuture<'a, ()>;
    /// Writes a checkpoint if `write.token` is the latest claim and its version is newer.
    fn save_session<'a>(
        &'a self,
        key: &'a SessionKey,
        write: SessionWrite<'a>,
    ) -> StoreFuture<'a, ()>;
    /// Reads a session checkpoint without claiming it.
    fn load_session<'a>(
        &'a self,
        key: &'a SessionKey,
    ) -> StoreFuture<'a, Option<SessionCheckpoint>>;
    /// Writes a user's record if the stored one has version `record.version - 1` (or none,
    /// for version 1); else `StoreError::Conflict`.
    fn save_user<'a>(&'a self, record: &'a UserRecord) -> StoreFuture<'a, ()>;
    /// Reads a user's record.
    fn load_user<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Option<UserRecord>>;
}

/// Where side records live beyond their sessions ([`side`]), fenced like sessions: a
/// session claims a record (a new token) when it starts or resumes, and a write carrying
/// any token but the latest is refused (`StoreError::Fenced`).
pub trait SideStore: Send + Sync + 'static {
    /// Claims `key` for session `owner`; stores `cold` (fence 1) when there is none.
    fn claim_side<'a>(
        &'a self,
        key: &'a SideKey,
        cold: &'a serde_json::Value,
        owner: &'a str,
        now_ms: u64,
    ) -> StoreFuture<'a, SideClaim>;
    /// Writes `record` under `key` if `record.fence` is the latest claim's.
    fn save_side<'a>(&'a self, key: &'a SideKey, record: &'a StoredSide) -> StoreFuture<'a, ()>;
    /// Reads a record without claiming it.
    fn load_side<'a>(&'a self, key: &'a SideKey) -> StoreFuture<'a, Option<StoredSide>>;
}

/// Where the operator's new-session switch lives: beside the sessions, so every node that
/// shares them reads the same switch (`viva exams stop-new` writes it).
pub trait SwitchStore: Send + Sync + 'static {
    /// The stored switch; `None` when none is set.
    fn load_switch(&self) -> StoreFuture<'_, Option<SwitchRecord>>;
    /// Stores the switch, or removes it (`None`) so that nodes follow their configuration.
    fn save_switch<'a>(&'a self, switch: Option<&'a SwitchRecord>) -> StoreFuture<'a, ()>;
}
