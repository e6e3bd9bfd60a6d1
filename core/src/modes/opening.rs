//! [`Opening`]: what a new session opens with besides its config, for every mode.

use std::collections::BTreeMap;

use crate::review::ElementHistory;
use crate::session::side::SideClaim;

/// What a new session opens with, besides its config.
#[derive(Debug, Clone, Default)]
pub struct Opening {
    /// Its id.
    pub session_id: String,
    /// Its user.
    pub user_id: String,
    /// Now, ms since the epoch.
    pub now_ms: u64,
    /// A fresh seed from the server's CSPRNG (nobody outside the server knows it).
    pub seed: u64,
    /// The user's latest outcome by element, as records written before the review history
    /// kept it (read for elements `element_history` does not hold).
    pub history: BTreeMap<String, String>,
    /// The user's review history by element, for weak areas (`crate::review`).
    pub element_history: BTreeMap<String, ElementHistory>,
    /// The side records claimed for it: those `crate::modes::side_holds` named.
    pub claims: Vec<SideClaim>,
}
