//! A user record's file name: the SHA-256 of the user id, so every valid id fits a file
//! name; and the records of older data directories, named by the id's bytes in hex, read
//! where they are and moved to their digest name at their next write.

use std::fs;
use std::path::PathBuf;

use crate::FileStore;
use crate::files::{read_json, unavailable};
use viva_core::checkpoint::{StoreError, UserRecord};

impl FileStore {
    pub(super) fn user_path(&self, user_id: &str) -> PathBuf {
        self.users.join(format!("{}.json", user_digest(user_id)))
    }

    /// Where a record was kept before digests: the id's bytes in hex. `None` where that name
    /// is too long for a file (such a record could never have been written).
    fn legacy_user_path(&self, user_id: &str) -> Option<PathBuf> {
        let hex: String = user_id.bytes().map(|b| format!("{b:02x}")).collect();
        let longest = hex.len() + ".json.tmp".len();
        (longest <= MAX_FILE_NAME).then(|| self.users.join(format!("{hex}.json")))
    }

    /// The user's record, from its digest name or else its legacy name.
    pub(super) async fn read_user(&self, user_id: &str) -> Result<Option<UserRecord>, StoreError> {
        let record = match read_json(self.user_path(user_id)).await? {
            Some(record) => Some(record),
            None => match self.legacy_user_path(user_id) {
                Some(path) => read_json(path).await?,
                None => None,
            },
        };
        check_owner(user_id, record)
    }

    /// Removes a record's legacy file once the record lives under its digest name.
    pub(super) async fn remove_legacy_user(&self, user_id: &str) -> Result<(), StoreError> {
        let Some(path) = self.legacy_user_path(user_id) else {
            return Ok(());
        };
        tokio::task::spawn_blocking(move || match fs::remove_file(&path) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(unavailable(&path, err)),
            _ => Ok(()),
        })
        .await
        .map_err(|err| StoreError::Unavailable(format!("remove task failed: {err}")))?
    }
}

/// The longest file name common file systems take, in bytes.
const MAX_FILE_NAME: usize = 255;

/// The SHA-256 of a user id, in lowercase hex.
fn user_digest(user_id: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(user_id.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A record read under a user's name must be that user's.
fn check_owner(
    user_id: &str,
    record: Option<UserRecord>,
) -> Result<Option<UserRecord>, StoreError> {
    match record {
        Some(record) if record.user_id != user_id => Err(StoreError::Corrupt {
            key: user_id.to_owned(),
            reason: "the file holds another user's record".to_owned(),
        }),
        record => Ok(record),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use viva_core::checkpoint::CheckpointStore;

    #[tokio::test]
    async fn the_longest_user_ids_fit_a_file_name() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        // 128 characters of 4 bytes each: 512 bytes, the most auth accepts.
        let user_id = "\u{1F600}".repeat(128);
        let mut record = UserRecord::new(&user_id);
        record.version = 1;
        store.save_user(&record).await.unwrap();
        assert_eq!(store.load_user(&user_id).await.unwrap(), Some(record));
        let names: Vec<String> = fs::read_dir(dir.path().join("users"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, vec![format!("{}.json", user_digest(&user_id))]);
    }

    #[tokio::test]
    async fn a_legacy_record_is_read_and_moves_to_its_digest_name_on_write() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let mut record = UserRecord::new("erin");
        record.version = 1;
        let legacy = dir.path().join("users").join("6572696e.json");
        fs::write(&legacy, serde_json::to_vec(&record).unwrap()).unwrap();
        assert_eq!(store.load_user("erin").await.unwrap(), Some(record.clone()));
        record.version = 2;
        store.save_user(&record).await.unwrap();
        assert!(!legacy.exists(), "the legacy file is gone");
        assert_eq!(store.load_user("erin").await.unwrap(), Some(record));
    }

    #[tokio::test]
    async fn a_file_holding_another_users_record_is_corrupt() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let mut record = UserRecord::new("frank");
        record.version = 1;
        let path = dir
            .path()
            .join("users")
            .join(format!("{}.json", user_digest("grace")));
        fs::write(&path, serde_json::to_vec(&record).unwrap()).unwrap();
        assert!(matches!(
            store.load_user("grace").await,
            Err(StoreError::Corrupt { .. })
        ));
    }
}
