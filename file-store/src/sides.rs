//! Side records in the file store: one JSON file per record under `<data_dir>/<kind>/`,
//! named by the SHA-256 of the user and the record's name (a student's snapshot of a course
//! is `tutor/<sha256(user_id, course_id)>.json`, as before side records were generic). One
//! process owns a file store, so a lock held across each read-compare-write makes claims
//! and fenced writes atomic.

use std::path::PathBuf;

use viva_core::checkpoint::side::{SIDE_FORMAT, check_fence, claimed};
use viva_core::checkpoint::{SideClaim, SideKey, SideStore, StoreError, StoreFuture, StoredSide};

use crate::FileStore;
use crate::files::{check_format, read_json, write_json};

impl FileStore {
    /// The file of `key`; `None` for a kind that is not a plain lowercase word.
    fn side_path(&self, key: &SideKey) -> Result<PathBuf, StoreError> {
        let plain = !key.kind.is_empty() && key.kind.bytes().all(|b| b.is_ascii_lowercase());
        if !plain {
            return Err(StoreError::Corrupt {
                key: key.kind.to_owned(),
                reason: "a side record's kind must be a lowercase word".into(),
            });
        }
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        hasher.update(key.user_id.as_bytes());
        hasher.update([0]);
        hasher.update(key.name.as_bytes());
        let digest: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Ok(self.root.join(key.kind).join(format!("{digest}.json")))
    }

    async fn read_side(&self, key: &SideKey) -> Result<Option<StoredSide>, StoreError> {
        let stored: Option<StoredSide> = read_json(self.side_path(key)?).await?;
        check_format(&key.user_id, stored.as_ref().map(|s| s.format), SIDE_FORMAT)?;
        Ok(stored)
    }

    async fn write_side(&self, key: &SideKey, record: &StoredSide) -> Result<(), StoreError> {
        let path = self.side_path(key)?;
        if let Some(dir) = path.parent() {
            tokio::fs::create_dir_all(dir)
                .await
                .map_err(|err| StoreError::Unavailable(format!("{}: {err}", dir.display())))?;
        }
        write_json(path, record).await
    }
}

impl SideStore for FileStore {
    fn claim_side<'a>(
        &'a self,
        key: &'a SideKey,
        cold: &'a serde_json::Value,
        owner: &'a str,
        now_ms: u64,
    ) -> StoreFuture<'a, SideClaim> {
        Box::pin(async move {
            let _held = self.side_lock.lock().await;
            let stored = self.read_side(key).await?;
            let claim = claimed(key, stored, cold, owner, now_ms);
            self.write_side(key, &claim.stored).await?;
            Ok(claim)
        })
    }

    fn save_side<'a>(&'a self, key: &'a SideKey, record: &'a StoredSide) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let _held = self.side_lock.lock().await;
            let stored = self.read_side(key).await?;
            check_fence(stored.map_or(0, |s| s.fence), record)?;
            self.write_side(key, record).await
        })
    }

    fn load_side<'a>(&'a self, key: &'a SideKey) -> StoreFuture<'a, Option<StoredSide>> {
        Box::pin(async move { self.read_side(key).await })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(user: &str) -> SideKey {
        SideKey {
            kind: "tutor",
            user_id: user.into(),
            name: "C".into(),
        }
    }

    #[tokio::test]
    async fn side_records_survive_reopen_and_only_the_latest_claim_writes() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let cold = serde_json::json!({"focus": "a"});
        let ada = key("ada");
        let first = store.claim_side(&ada, &cold, "s1", 1).await.unwrap();
        let second = store.claim_side(&ada, &cold, "s2", 2).await.unwrap();
        assert_eq!((first.fence, second.fence), (1, 2));
        assert_eq!(second.previous_owner.as_deref(), Some("s1"));
        let refused = store.save_side(&ada, &first.stored).await.unwrap_err();
        assert!(matches!(refused, StoreError::Fenced { token: 1, .. }));
        let mut fresh = second.stored.clone();
        fresh.body = serde_json::json!({"focus": "b"});
        store.save_side(&ada, &fresh).await.unwrap();
        let reopened = FileStore::open(dir.path()).unwrap();
        let read = reopened.load_side(&ada).await.unwrap().unwrap();
        assert_eq!(read, fresh);
        assert_eq!(reopened.load_side(&key("bob")).await.unwrap(), None);
        let odd = SideKey {
            kind: "../x",
            ..key("ada")
        };
        assert!(
            reopened.load_side(&odd).await.is_err(),
            "a kind never leaves the data dir"
        );
    }

    #[tokio::test]
    async fn a_snapshot_written_before_side_records_were_generic_still_reads() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let ada = key("ada");
        let old = r#"{"format":1,"snapshot":{"user_id":"ada","course_id":"C"},"fence":4,"owner":"s9","updated_at_ms":7}"#;
        let path = store.side_path(&ada).unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, old).unwrap();
        let read = store.load_side(&ada).await.unwrap().unwrap();
        assert_eq!(
            (read.fence, read.body["course_id"].as_str()),
            (4, Some("C"))
        );
    }
}
