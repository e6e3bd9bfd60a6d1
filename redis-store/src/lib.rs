//! Viva's Redis storage: the `CheckpointStore` and `NodeBus` implementations that let several
//! server nodes share sessions safely.
//!
//! - [`keys`]: the key layout (one hash tag per user, so one Cluster slot per user).
//! - [`scripts`]: the Lua scripts — fenced claim, fenced write, lease renewal, user CAS.
//! - [`codec`]: the compact encoding (format byte + MessagePack), head and turns apart.
//! - [`store`]: `RedisStore`, the `CheckpointStore`.
//! - [`bus`]: `RedisBus` and `listen`, node notices over pub/sub.
//! - [`conn`]: one self-reconnecting connection for a server or a cluster.
#![warn(missing_docs)]

pub mod bus;
pub mod codec;
pub mod conn;
pub mod keys;
pub mod scripts;
pub mod store;

pub use bus::{RedisBus, listen};
pub use conn::{Connection, RedisConfig};
pub use store::{RedisStore, Retention};
