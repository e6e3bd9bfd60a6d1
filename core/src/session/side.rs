//! Side records as the seam sees them: what a session holds beside itself, claims on
//! resume and writes after its commits, without knowing what they hold (the types live
//! with the store's format, [`crate::checkpoint::side`]).

pub use crate::checkpoint::side::{SideClaim, SideHold, SideKey, SideWrite, StoredSide};
