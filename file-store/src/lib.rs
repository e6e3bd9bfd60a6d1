//! Viva's embedded store (`viva-file-store`), the single-node adapter beside
//! `viva-redis-store`: one JSON file per record under the data directory, written
//! crash-safely (write a temporary file, fsync it, rename it over the old one, fsync the
//! directory), so a reader sees either the old record or the new one, never a torn one.
//!
//! Layout: `<data_dir>/sessions/<session_id>.json` (the head) beside `<session_id>.turns`
//! (its turn log, appended: `sessions`), `<data_dir>/users/<sha256(user_id)>.json`, the
//! operator's new-session switch in `<data_dir>/control/new-sessions.json`, and side records
//! in `<data_dir>/<kind>/<sha256(user_id, name)>.json` (`sides`; a student's snapshot of a
//! course under `tutor/`). Session ids are server-made UUIDs, and are checked before they
//! name a file. A user's file is named by the SHA-256 of the id (64 hex digits), so every
//! valid user id fits a file name. Data directories written before that named it by the
//! id's bytes in hex; such a record is still read, and moves to its digest name at its next
//! write.
#![warn(missing_docs)]

use std::fs;
use std::path::{Path, PathBuf};

mod files;
mod sessions;
mod sides;
mod users;

use files::{blocking, check_format, read_json, remove_durably, unavailable, write_json};

use viva_core::checkpoint::format::{
    CHECKPOINT_FORMAT, SWITCH_FORMAT, SessionCheckpoint, SwitchRecord, USER_RECORD_FORMAT,
    UserRecord,
};
use viva_core::checkpoint::{
    CheckpointStore, Claim, ClaimKind, SessionKey, SessionWrite, StoreError, StoreFuture,
    SwitchStore,
};

/// Crash-safe JSON files in a directory.
#[derive(Debug, Clone)]
pub struct FileStore {
    sessions: PathBuf,
    users: PathBuf,
    control: PathBuf,
    /// The data directory; side records live in a folder per kind under it.
    root: PathBuf,
    /// Held across each side-record claim and write (read, compare, write).
    side_lock: std::sync::Arc<tokio::sync::Mutex<()>>,
}

impl FileStore {
    /// Opens (creating) the store under `data_dir`.
    pub fn open(data_dir: &Path) -> Result<FileStore, StoreError> {
        let store = FileStore {
            sessions: data_dir.join("sessions"),
            users: data_dir.join("users"),
            control: data_dir.join("control"),
            root: data_dir.to_path_buf(),
            side_lock: Default::default(),
        };
        for dir in [&store.sessions, &store.users] {
            fs::create_dir_all(dir).map_err(|err| unavailable(dir, err))?;
        }
        Ok(store)
    }

    /// The file holding a session's checkpoint; `None` for an id that is not a plain token.
    pub fn session_path(&self, session_id: &str) -> Option<PathBuf> {
        is_plain_id(session_id).then(|| self.sessions.join(format!("{session_id}.json")))
    }

    fn switch_path(&self) -> PathBuf {
        self.control.join("new-sessions.json")
    }

    /// Every stored session id, the most recently written first (by file time). For operator
    /// tools (`viva plan audit`); the server reaches sessions through their owners.
    pub async fn session_ids_newest_first(&self) -> Result<Vec<String>, StoreError> {
        let dir = self.sessions.clone();
        tokio::task::spawn_blocking(move || list_newest_first(&dir))
            .await
            .map_err(|err| StoreError::Unavailable(format!("list task failed: {err}")))?
    }

    /// One session's checkpoint, whoever owns it. For operator tools only, like
    /// [`FileStore::session_ids_newest_first`].
    pub async fn inspect_session(
        &self,
        session_id: &str,
    ) -> Result<Option<SessionCheckpoint>, StoreError> {
        let Some(path) = self.session_path(session_id) else {
            return Ok(None);
        };
        let checkpoint = blocking(move || sessions::read_session(&path)).await?;
        let format = checkpoint.as_ref().map(|c| c.format);
        check_format(session_id, format, CHECKPOINT_FORMAT)?;
        Ok(checkpoint)
    }
}

/// The ids of `<dir>/*.json`, newest modification first (ties by id).
fn list_newest_first(dir: &Path) -> Result<Vec<String>, StoreError> {
    let entries = fs::read_dir(dir).map_err(|err| unavailable(dir, err))?;
    let mut found = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|err| unavailable(dir, err))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(id) = name.strip_suffix(".json").filter(|id| is_plain_id(id)) else {
            continue;
        };
        let modified = entry.metadata().and_then(|m| m.modified()).ok();
        found.push((modified, id.to_owned()));
    }
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    Ok(found.into_iter().map(|(_, id)| id).collect())
}

/// Letters, digits and `-` only, 1 to 64 characters: safe as a file name.
fn is_plain_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

impl CheckpointStore for FileStore {
    /// One node owns every session of a file store: claims always succeed, with token 0.
    fn claim_session<'a>(
        &'a self,
        key: &'a SessionKey,
        _node: &'a str,
        kind: ClaimKind,
        _lease_ms: u64,
    ) -> StoreFuture<'a, Option<Claim>> {
        Box::pin(async move {
            let checkpoint = match kind {
                ClaimKind::Create => None,
                ClaimKind::Adopt => match self.load_session(key).await? {
                    Some(checkpoint) => Some(checkpoint),
                    None => return Ok(None),
                },
            };
            Ok(Some(Claim {
                token: 0,
                previous_owner: None,
                checkpoint,
            }))
        })
    }

    fn renew_lease<'a>(
        &'a self,
        _key: &'a SessionKey,
        _node: &'a str,
        _token: u64,
        _lease_ms: u64,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async { Ok(true) })
    }

    fn release_lease<'a>(&'a self, _key: &'a SessionKey, _token: u64) -> StoreFuture<'a, ()> {
        Box::pin(async { Ok(()) })
    }

    fn save_session<'a>(
        &'a self,
        key: &'a SessionKey,
        write: SessionWrite<'a>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let path = self.session_path(&key.session_id).ok_or_else(|| {
                StoreError::Unavailable(format!("invalid session id {:?}", key.session_id))
            })?;
            let head = path.clone();
            let stored = blocking(move || sessions::stored_extent(&head)).await?;
            let from = write.turns_from.min(stored.count);
            let encoded = sessions::encode(write.checkpoint, from)?;
            blocking(move || sessions::store(&path, stored.bytes, encoded)).await
        })
    }

    fn load_session<'a>(
        &'a self,
        key: &'a SessionKey,
    ) -> StoreFuture<'a, Option<SessionCheckpoint>> {
        Box::pin(async move {
            let Some(path) = self.session_path(&key.session_id) else {
                return Ok(None);
            };
            let checkpoint = blocking(move || sessions::read_session(&path)).await?;
            check_format(
                &key.session_id,
                checkpoint.as_ref().map(|c| c.format),
                CHECKPOINT_FORMAT,
            )?;
            Ok(checkpoint.filter(|c| c.user_id == key.user_id))
        })
    }

    fn save_user<'a>(&'a self, record: &'a UserRecord) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let stored = self.load_user(&record.user_id).await?;
            if stored.map_or(0, |r| r.version) + 1 != record.version {
                return Err(StoreError::Conflict {
                    user_id: record.user_id.clone(),
                });
            }
            write_json(self.user_path(&record.user_id), record).await?;
            self.remove_legacy_user(&record.user_id).await
        })
    }

    fn load_user<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Option<UserRecord>> {
        Box::pin(async move {
            let record = self.read_user(user_id).await?;
            check_format(
                user_id,
                record.as_ref().map(|r| r.format),
                USER_RECORD_FORMAT,
            )?;
            Ok(record)
        })
    }
}

impl SwitchStore for FileStore {
    fn load_switch(&self) -> StoreFuture<'_, Option<SwitchRecord>> {
        Box::pin(async move {
            let switch: Option<SwitchRecord> = read_json(self.switch_path()).await?;
            check_format(
                "new-sessions",
                switch.as_ref().map(|s| s.format),
                SWITCH_FORMAT,
            )?;
            Ok(switch)
        })
    }

    fn save_switch<'a>(&'a self, switch: Option<&'a SwitchRecord>) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let path = self.switch_path();
            fs::create_dir_all(&self.control).map_err(|err| unavailable(&self.control, err))?;
            match switch {
                Some(switch) => write_json(path, switch).await,
                None => tokio::task::spawn_blocking(move || remove_durably(&path))
                    .await
                    .map_err(|err| StoreError::Unavailable(format!("remove task failed: {err}")))?,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    #[test]
    fn plain_ids_only() {
        let check = |id: &str, expected: bool| assert_eq!(is_plain_id(id), expected, "{id:?}");
        check("0b6f2b9e-1c7a-4c1e-9d43-2f9f0c3a1b55", true);
        check("", false);
        check("../etc/passwd", false);
        check("a/b", false);
        check(&"a".repeat(65), false);
    }

    #[tokio::test]
    async fn user_records_round_trip_and_survive_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let mut record = UserRecord::new("alice/../x");
        record.version = 1;
        record.active_session = Some("s1".into());
        store.save_user(&record).await.unwrap();
        let reopened = FileStore::open(dir.path()).unwrap();
        assert_eq!(
            reopened.load_user("alice/../x").await.unwrap(),
            Some(record)
        );
        assert_eq!(reopened.load_user("bob").await.unwrap(), None);
        let leftovers: Vec<_> = fs::read_dir(dir.path().join("users")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary file left behind");
    }

    #[tokio::test]
    async fn a_users_review_history_is_stored_with_the_record_and_compare_and_set() {
        use viva_core::review::{ElementOutcome, Recall, merge_outcomes};
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let mut record = UserRecord::new("erin");
        record.version = 1;
        let outcome = ElementOutcome {
            element: "PA.I.A.K1".into(),
            recall: Recall::Partial,
            at_ms: 1_765_000_000_000,
        };
        merge_outcomes(&mut record.element_history, &[outcome]);
        store.save_user(&record).await.unwrap();
        let mut stale = record.clone();
        stale.element_history.clear();
        assert!(matches!(
            store.save_user(&stale).await,
            Err(StoreError::Conflict { .. })
        ));
        let reopened = FileStore::open(dir.path()).unwrap();
        assert_eq!(reopened.load_user("erin").await.unwrap(), Some(record));
    }

    #[tokio::test]
    async fn unknown_format_is_reported_as_corrupt() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let mut record = UserRecord::new("carol");
        record.format = 99;
        record.version = 1;
        store.save_user(&record).await.unwrap();
        assert!(matches!(
            store.load_user("carol").await,
            Err(StoreError::Corrupt { .. })
        ));
    }

    #[tokio::test]
    async fn bad_session_ids_never_touch_the_disk() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let key = SessionKey::new("u", "../../secret");
        assert_eq!(store.load_session(&key).await.unwrap(), None);
    }

    #[tokio::test]
    async fn the_switch_is_stored_read_back_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        assert_eq!(store.load_switch().await.unwrap(), None);
        let stopped = SwitchRecord {
            format: SWITCH_FORMAT,
            accept_new_sessions: false,
            changed_at_ms: 7,
        };
        store.save_switch(Some(&stopped)).await.unwrap();
        let reopened = FileStore::open(dir.path()).unwrap();
        assert_eq!(reopened.load_switch().await.unwrap(), Some(stopped));
        reopened.save_switch(None).await.unwrap();
        reopened.save_switch(None).await.unwrap();
        assert_eq!(store.load_switch().await.unwrap(), None);
    }

    #[tokio::test]
    async fn sessions_are_listed_newest_first_and_read_whoever_owns_them() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let sessions = dir.path().join("sessions");
        fs::write(sessions.join("older.json"), "{}").unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        File::options()
            .write(true)
            .open(sessions.join("older.json"))
            .unwrap()
            .set_modified(old)
            .unwrap();
        fs::write(sessions.join("newer.json"), "{}").unwrap();
        fs::write(sessions.join("torn.json.tmp"), "{").unwrap();
        let ids = store.session_ids_newest_first().await.unwrap();
        assert_eq!(ids, ["newer", "older"]);
        assert_eq!(store.inspect_session("missing").await.unwrap(), None);
        assert!(matches!(
            store.inspect_session("newer").await,
            Err(StoreError::Corrupt { .. })
        ));
    }

    #[tokio::test]
    async fn user_records_are_compare_and_set_on_their_version() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::open(dir.path()).unwrap();
        let mut record = UserRecord::new("dave");
        record.version = 2;
        assert!(matches!(
            store.save_user(&record).await,
            Err(StoreError::Conflict { .. })
        ));
        record.version = 1;
        store.save_user(&record).await.unwrap();
        assert!(matches!(
            store.save_user(&record).await,
            Err(StoreError::Conflict { .. })
        ));
        record.version = 2;
        store.save_user(&record).await.unwrap();
    }
}
