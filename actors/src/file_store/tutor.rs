//! Student snapshots in the file store: one JSON file per user and course under
//! `<data_dir>/tutor/`, named by the SHA-256 of both ids. One process owns a file store, so
//! a lock held across each read-compare-write makes claims and fenced writes atomic.

use std::path::PathBuf;

use viva_core::checkpoint::tutor_format::{SNAPSHOT_FORMAT, SnapshotRecord, StoredSnapshot};
use viva_core::checkpoint::{
    SnapshotClaim, StoreError, StoreFuture, TutorStore, check_snapshot_fence, claimed,
};

use super::{FileStore, check_format, read_json, write_json};

impl FileStore {
    fn snapshot_path(&self, user_id: &str, course_id: &str) -> PathBuf {
        use sha2::Digest;
        let mut hasher = sha2::Sha256::new();
        hasher.update(user_id.as_bytes());
        hasher.update([0]);
        hasher.update(course_id.as_bytes());
        let digest: String = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        self.tutor.join(format!("{digest}.json"))
    }

    async fn read_snapshot(
        &self,
        user_id: &str,
        course_id: &str,
    ) -> Result<Option<StoredSnapshot>, StoreError> {
        let stored: Option<StoredSnapshot> =
            read_json(self.snapshot_path(user_id, course_id)).await?;
        check_format(user_id, stored.as_ref().map(|s| s.format), SNAPSHOT_FORMAT)?;
        let theirs =
            |s: &StoredSnapshot| s.snapshot.user_id == user_id && s.snapshot.course_id == course_id;
        match stored {
            Some(stored) if !theirs(&stored) => Err(StoreError::Corrupt {
                key: user_id.to_owned(),
                reason: "the snapshot file holds another user's or course's snapshot".into(),
            }),
            stored => Ok(stored),
        }
    }
}

impl TutorStore for FileStore {
    fn claim_snapshot<'a>(
        &'a self,
        cold: &'a SnapshotRecord,
        owner: &'a str,
        now_ms: u64,
    ) -> StoreFuture<'a, SnapshotClaim> {
        Box::pin(async move {
            let _held = self.snapshot_lock.lock().await;
            let stored = self.read_snapshot(&cold.user_id, &cold.course_id).await?;
            let claim = claimed(stored, cold, owner, now_ms);
            let path = self.snapshot_path(&cold.user_id, &cold.course_id);
            write_json(path, &claim.stored).await?;
            Ok(claim)
        })
    }

    fn save_snapshot<'a>(&'a self, record: &'a StoredSnapshot) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let _held = self.snapshot_lock.lock().await;
            let (user, course) = (&record.snapshot.user_id, &record.snapshot.course_id);
            let stored = self.read_snapshot(user, course).await?;
            check_snapshot_fence(stored.map_or(0, |s| s.fence), record)?;
            write_json(self.snapshot_path(user, course), record).await
        })
    }

    fn load_snapshot<'a>(
        &'a self,
        user_id: &'a str,
        course_id: &'a str,
    ) -> StoreFuture<'a, Option<StoredSnapshot>> {
        Box::pin(async move { self.read_snapshot(user_id, course_id).await })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new student of course `C`, as stored.
    fn cold(user: &str) -> SnapshotRecord {
        viva_core::modes::tutor::snapshot::snapshot_record(
            &viva_core::tutor::snapshot::StudentSnapshot::cold_start(user, "C", "a"),
        )
    }

    #[tokio::test]
    async fn snapshots_survive_reopen_and_only_the_latest_claim_writes() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let first = store.claim_snapshot(&cold("ada"), "s1", 1).await.unwrap();
        let second = store.claim_snapshot(&cold("ada"), "s2", 2).await.unwrap();
        assert_eq!((first.fence, second.fence), (1, 2));
        assert_eq!(second.previous_owner.as_deref(), Some("s1"));
        let refused = store.save_snapshot(&first.stored).await.unwrap_err();
        assert!(matches!(refused, StoreError::Fenced { token: 1, .. }));
        let mut fresh = second.stored.clone();
        fresh.snapshot.revisit = vec!["a".into()];
        store.save_snapshot(&fresh).await.unwrap();
        let reopened = FileStore::open(dir.path()).unwrap();
        let read = reopened.load_snapshot("ada", "C").await.unwrap().unwrap();
        assert_eq!(read, fresh);
        assert_eq!(reopened.load_snapshot("bob", "C").await.unwrap(), None);
    }
}
