//! Durable session state: the versioned checkpoint format and the `CheckpointStore` trait.
//!
//! - [`format`]: `SessionCheckpoint` and `UserRecord`, the explicit, versioned layout (never
//!   the actor structs themselves).
//! - [`memory`]: an in-process store for unit tests of the actors.
//! - [`bus`]: notices between server nodes (`NodeBus`), with the single-node no-op.
//! - [`store`]: the store ports (`CheckpointStore`, `SideStore`, `SwitchStore`) and what
//!   they take; [`error`]: `StoreError`.
//! - [`sections`]: each mode's `ModeCheckpoint` section; [`side`]: side records.
//! - [`SwitchStore`]: the operator's new-session switch, stored once for every node.
//!
//! Ownership: a node *claims* a session before it runs it and gets a fencing token; every
//! write carries that token and a strictly increasing version, and a store shared between
//! nodes refuses writes from any token but the latest claim (`StoreError::Fenced`).

pub mod bus;
pub mod delta;
pub mod error;
pub mod format;
pub mod memory;
pub mod mode_format;
pub mod sections;
pub mod side;
pub mod store;
pub mod tutor_format;

pub use bus::{LocalBus, NodeBus, Notice};
pub use delta::{HeadChain, HeadUpdate};
pub use error::{StoreError, StoreFuture};
pub use format::{SessionCheckpoint, SwitchRecord, UserRecord};
pub use memory::MemoryStore;
pub use sections::ModeCheckpoint;
pub use side::{SideClaim, SideHold, SideKey, SideWrite, StoredSide};
pub use store::{
    CheckpointStore, Claim, ClaimKind, Lease, SessionKey, SessionWrite, SideStore, SwitchStore,
};
