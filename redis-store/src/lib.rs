//! Viva's Redis storage: the `CheckpointStore` and `NodeBus` implementations that let several
//! server nodes share sessions safely.
//!
//! - [`keys`]: the key layout (one hash tag per user, so one Cluster slot per user).
//! - [`scripts`]: the Lua scripts — fenced claim, fenced write, lease renewal, user CAS.
//! - [`codec`]: the compact encoding (format byte + MessagePack), head and turns apart.
//! - [`store`]: `RedisStore`, the `CheckpointStore`.
//! - [`bus`]: `RedisBus` and `listen`, node notices over pub/sub.
//! - [`conn`]: one self-reconnecting connection for a server or a cluster.
//! - [`control`]: the operator's new-session switch, one key for every node.
//! - [`sides`]: side records (a student's snapshot of a course), claimed and written under a
//!   fence like sessions.
//! - [`scan`]: listing stored sessions for operator tools (`viva plan audit`), SCAN per master.
#![warn(missing_docs)]

pub mod bus;
pub mod codec;
pub mod conn;
pub mod control;
pub mod keys;
pub mod scan;
pub mod scripts;
pub mod sides;
pub mod store;

pub use bus::{RedisBus, listen};
pub use conn::{Connection, RedisConfig};
pub use store::{RedisStore, Retention};
