//! Side records: what a mode keeps beside its sessions, outliving them (a student's
//! snapshot of a course). Stores keep them as opaque JSON bodies under a [`SideKey`],
//! claimed and written under a fence like sessions ([`super::store::SideStore`]); only the mode
//! that wrote a body reads it.

use serde::{Deserialize, Serialize};

use super::error::StoreError;

/// The current format of a stored side record.
pub const SIDE_FORMAT: u32 = 1;

/// Names a side record: its kind (one per mode's record, e.g. `tutor`), its user, and its
/// name within the kind (a course id).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SideKey {
    /// The kind of record; a short lowercase word, part of storage keys and paths.
    pub kind: &'static str,
    /// Its user.
    pub user_id: String,
    /// Its name within the kind.
    pub name: String,
}

/// A side record as a store keeps it: the body, and the claim that may write it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredSide {
    /// Format version.
    pub format: u32,
    /// What the mode stored (stored under `snapshot`, its name before side records were
    /// generic, so records written then still read).
    #[serde(rename = "snapshot")]
    pub body: serde_json::Value,
    /// The fencing token of the latest claim; only its holder may write.
    pub fence: u64,
    /// The session holding that claim.
    pub owner: String,
    /// When written, ms since the epoch.
    pub updated_at_ms: u64,
}

/// A session's claim on a side record: the fencing token its writes must carry, the
/// previous holder, and the record as stored (`cold`, stored by the claim, when none was).
#[derive(Debug, Clone, PartialEq)]
pub struct SideClaim {
    /// The record claimed.
    pub key: SideKey,
    /// The claim's fencing token; higher than any earlier claim's.
    pub fence: u64,
    /// The session that held the previous claim, if any.
    pub previous_owner: Option<String>,
    /// The record as stored now.
    pub stored: StoredSide,
}

/// A side record a session holds, and what to store if none is stored yet.
#[derive(Debug, Clone, PartialEq)]
pub struct SideHold {
    /// The record.
    pub key: SideKey,
    /// Stored by the claim when the store has none.
    pub cold: serde_json::Value,
}

/// A side record changed since it was last stored: the body to write under the session's
/// fence, and the revision it is.
#[derive(Debug, Clone, PartialEq)]
pub struct SideWrite {
    /// The record.
    pub key: SideKey,
    /// The body to store.
    pub body: serde_json::Value,
    /// The session's fence on the record.
    pub fence: u64,
    /// The mode's revision of the record this body is.
    pub revision: u64,
}

/// The claim rule every store shares: a token above the stored one, the owner noted, and
/// `cold` stored (with fence 1) when there is no record yet. Returns the claim; its
/// `stored` is what the store keeps from now on.
pub fn claimed(
    key: &SideKey,
    stored: Option<StoredSide>,
    cold: &serde_json::Value,
    owner: &str,
    now_ms: u64,
) -> SideClaim {
    let mut stored = stored.unwrap_or_else(|| StoredSide {
        format: SIDE_FORMAT,
        body: cold.clone(),
        fence: 0,
        owner: String::new(),
        updated_at_ms: now_ms,
    });
    let previous_owner = (!stored.owner.is_empty()).then(|| stored.owner.clone());
    stored.fence += 1;
    stored.owner = owner.to_owned();
    SideClaim {
        key: key.clone(),
        fence: stored.fence,
        previous_owner,
        stored,
    }
}

/// Refuses a write whose fence is not the stored (latest) claim's.
pub fn check_fence(stored_fence: u64, record: &StoredSide) -> Result<(), StoreError> {
    if stored_fence == record.fence {
        return Ok(());
    }
    Err(StoreError::Fenced {
        session_id: record.owner.clone(),
        token: record.fence,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> SideKey {
        SideKey {
            kind: "tutor",
            user_id: "ada".into(),
            name: "C".into(),
        }
    }

    #[test]
    fn a_claim_raises_the_fence_and_names_the_previous_holder() {
        let cold = serde_json::json!({"focus": "a"});
        let first = claimed(&key(), None, &cold, "s1", 5);
        assert_eq!((first.fence, first.previous_owner.as_deref()), (1, None));
        assert_eq!(first.stored.body, cold);
        let second = claimed(&key(), Some(first.stored.clone()), &cold, "s2", 6);
        assert_eq!(
            (second.fence, second.previous_owner.as_deref()),
            (2, Some("s1"))
        );
        assert!(check_fence(2, &second.stored).is_ok());
        assert!(
            check_fence(2, &first.stored).is_err(),
            "the older claim is fenced"
        );
    }

    #[test]
    fn a_record_stored_before_side_records_were_generic_still_reads() {
        let old =
            r#"{"format":1,"snapshot":{"user_id":"ada"},"fence":3,"owner":"s","updated_at_ms":9}"#;
        let read: StoredSide = serde_json::from_str(old).unwrap();
        assert_eq!(read.body["user_id"], "ada");
        assert_eq!(serde_json::to_string(&read).unwrap(), old);
    }
}
