//! An in-process checkpoint store, for unit tests of the actors (not for serving).

use std::collections::HashMap;
use std::sync::Mutex;

use super::format::{SessionCheckpoint, UserRecord};
use super::{CheckpointStore, StoreError, StoreFuture};

/// Records kept in memory; `saves` counts successful session writes.
#[derive(Debug, Default)]
pub struct MemoryStore {
    sessions: Mutex<HashMap<String, SessionCheckpoint>>,
    users: Mutex<HashMap<String, UserRecord>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
}

fn poisoned() -> StoreError {
    StoreError::Unavailable("memory store lock poisoned".to_owned())
}

impl CheckpointStore for MemoryStore {
    fn save_session<'a>(&'a self, checkpoint: &'a SessionCheckpoint) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut sessions = self.sessions.lock().map_err(|_| poisoned())?;
            sessions.insert(checkpoint.session_id.clone(), checkpoint.clone());
            Ok(())
        })
    }

    fn load_session<'a>(
        &'a self,
        session_id: &'a str,
    ) -> StoreFuture<'a, Option<SessionCheckpoint>> {
        Box::pin(async move {
            let sessions = self.sessions.lock().map_err(|_| poisoned())?;
            Ok(sessions.get(session_id).cloned())
        })
    }

    fn save_user<'a>(&'a self, record: &'a UserRecord) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut users = self.users.lock().map_err(|_| poisoned())?;
            users.insert(record.user_id.clone(), record.clone());
            Ok(())
        })
    }

    fn load_user<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Option<UserRecord>> {
        Box::pin(async move {
            let users = self.users.lock().map_err(|_| poisoned())?;
            Ok(users.get(user_id).cloned())
        })
    }
}
