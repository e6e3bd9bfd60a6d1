//! An in-process checkpoint store with the full shared-store semantics (fencing tokens,
//! write versions, the active-session check, user-record compare-and-set), for unit tests of
//! the actors. Not for serving: nothing survives the process.

use std::collections::HashMap;
use std::sync::Mutex;

use super::error::{StoreError, StoreFuture};
use super::format::{SessionCheckpoint, SwitchRecord, UserRecord};
use super::side::{SideClaim, SideKey, StoredSide, check_fence, claimed};
use super::store::{
    CheckpointStore, Claim, ClaimKind, SessionKey, SessionWrite, SideStore, SwitchStore,
};

/// One session's stored state.
#[derive(Debug, Default)]
struct Slot {
    checkpoint: Option<SessionCheckpoint>,
    fence: u64,
    owner: Option<String>,
}

/// Records kept in memory.
#[derive(Debug, Default)]
pub struct MemoryStore {
    sessions: Mutex<HashMap<SessionKey, Slot>>,
    users: Mutex<HashMap<String, UserRecord>>,
    switch: Mutex<Option<SwitchRecord>>,
    sides: Mutex<HashMap<SideKey, StoredSide>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn active_session(&self, user_id: &str) -> Result<Option<String>, StoreError> {
        let users = self.users.lock().map_err(|_| poisoned())?;
        Ok(users.get(user_id).and_then(|r| r.active_session.clone()))
    }
}

fn poisoned() -> StoreError {
    StoreError::Unavailable("memory store lock poisoned".to_owned())
}

impl CheckpointStore for MemoryStore {
    fn claim_session<'a>(
        &'a self,
        key: &'a SessionKey,
        node: &'a str,
        kind: ClaimKind,
        _lease_ms: u64,
    ) -> StoreFuture<'a, Option<Claim>> {
        Box::pin(async move {
            let mut sessions = self.sessions.lock().map_err(|_| poisoned())?;
            let exists = sessions.get(key).is_some_and(|s| s.checkpoint.is_some());
            if exists != (kind == ClaimKind::Adopt) {
                return Ok(None);
            }
            let slot = sessions.entry(key.clone()).or_default();
            slot.fence += 1;
            let previous_owner = slot.owner.replace(node.to_owned()).filter(|o| o != node);
            Ok(Some(Claim {
                token: slot.fence,
                previous_owner,
                checkpoint: slot.checkpoint.clone(),
            }))
        })
    }

    fn renew_lease<'a>(
        &'a self,
        key: &'a SessionKey,
        _node: &'a str,
        token: u64,
        _lease_ms: u64,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let sessions = self.sessions.lock().map_err(|_| poisoned())?;
            Ok(sessions.get(key).is_some_and(|slot| slot.fence == token))
        })
    }

    fn release_lease<'a>(&'a self, key: &'a SessionKey, token: u64) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut sessions = self.sessions.lock().map_err(|_| poisoned())?;
            if let Some(slot) = sessions.get_mut(key).filter(|slot| slot.fence == token) {
                slot.owner = None;
            }
            Ok(())
        })
    }

    fn save_session<'a>(
        &'a self,
        key: &'a SessionKey,
        write: SessionWrite<'a>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let active = self.active_session(&key.user_id)?;
            let mut sessions = self.sessions.lock().map_err(|_| poisoned())?;
            let slot = sessions.entry(key.clone()).or_default();
            check_write(slot, key, &write, active.as_deref())?;
            slot.checkpoint = Some(write.checkpoint.clone());
            Ok(())
        })
    }

    fn load_session<'a>(
        &'a self,
        key: &'a SessionKey,
    ) -> StoreFuture<'a, Option<SessionCheckpoint>> {
        Box::pin(async move {
            let sessions = self.sessions.lock().map_err(|_| poisoned())?;
            Ok(sessions.get(key).and_then(|slot| slot.checkpoint.clone()))
        })
    }

    fn save_user<'a>(&'a self, record: &'a UserRecord) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut users = self.users.lock().map_err(|_| poisoned())?;
            let stored = users.get(&record.user_id).map_or(0, |r| r.version);
            if stored + 1 != record.version {
                return Err(StoreError::Conflict {
                    user_id: record.user_id.clone(),
                });
            }
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

impl SwitchStore for MemoryStore {
    fn load_switch(&self) -> StoreFuture<'_, Option<SwitchRecord>> {
        Box::pin(async move { Ok(self.switch.lock().map_err(|_| poisoned())?.clone()) })
    }

    fn save_switch<'a>(&'a self, switch: Option<&'a SwitchRecord>) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            *self.switch.lock().map_err(|_| poisoned())? = switch.cloned();
            Ok(())
        })
    }
}

/// The checks a shared store makes before a session write, in the Redis script's order.
fn check_write(
    slot: &Slot,
    key: &SessionKey,
    write: &SessionWrite<'_>,
    active: Option<&str>,
) -> Result<(), StoreError> {
    if slot.fence != write.token {
        return Err(StoreError::Fenced {
            session_id: key.session_id.clone(),
            token: write.token,
        });
    }
    let stored_version = slot.checkpoint.as_ref().map_or(0, |c| c.version);
    if stored_version >= write.checkpoint.version {
        return Err(StoreError::Fenced {
            session_id: key.session_id.clone(),
            token: write.token,
        });
    }
    if write.live && active != Some(key.session_id.as_str()) {
        return Err(StoreError::NotActive {
            session_id: key.session_id.clone(),
        });
    }
    Ok(())
}

impl SideStore for MemoryStore {
    fn claim_side<'a>(
        &'a self,
        key: &'a SideKey,
        cold: &'a serde_json::Value,
        owner: &'a str,
        now_ms: u64,
    ) -> StoreFuture<'a, SideClaim> {
        Box::pin(async move {
            let mut sides = self.sides.lock().map_err(|_| poisoned())?;
            let claim = claimed(key, sides.remove(key), cold, owner, now_ms);
            sides.insert(key.clone(), claim.stored.clone());
            Ok(claim)
        })
    }

    fn save_side<'a>(&'a self, key: &'a SideKey, record: &'a StoredSide) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let mut sides = self.sides.lock().map_err(|_| poisoned())?;
            check_fence(sides.get(key).map_or(0, |s| s.fence), record)?;
            sides.insert(key.clone(), record.clone());
            Ok(())
        })
    }

    fn load_side<'a>(&'a self, key: &'a SideKey) -> StoreFuture<'a, Option<StoredSide>> {
        Box::pin(async move {
            let sides = self.sides.lock().map_err(|_| poisoned())?;
            Ok(sides.get(key).cloned())
        })
    }
}

#[cfg(test)]
mod side_tests {
    use super::*;

    fn key(user: &str) -> SideKey {
        SideKey {
            kind: "tutor",
            user_id: user.into(),
            name: "C".into(),
        }
    }

    /// Runs a memory-store future, which never waits.
    fn ready<T>(future: impl std::future::Future<Output = T>) -> T {
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        match std::pin::pin!(future).poll(&mut cx) {
            std::task::Poll::Ready(value) => value,
            std::task::Poll::Pending => panic!("a memory store never waits"),
        }
    }

    #[test]
    fn only_the_latest_claim_may_write_a_side_record() {
        let store = MemoryStore::new();
        let cold = serde_json::json!({"focus": "a"});
        let ada = key("ada");
        let first = ready(store.claim_side(&ada, &cold, "s1", 1)).unwrap();
        assert_eq!((first.fence, first.previous_owner.as_deref()), (1, None));
        let second = ready(store.claim_side(&ada, &cold, "s2", 2)).unwrap();
        assert_eq!(
            (second.fence, second.previous_owner.as_deref()),
            (2, Some("s1"))
        );
        let mut stale = first.stored.clone();
        stale.body = serde_json::json!({"focus": "b"});
        let refused = ready(store.save_side(&ada, &stale)).unwrap_err();
        assert!(
            matches!(refused, StoreError::Fenced { token: 1, .. }),
            "{refused}"
        );
        let mut fresh = second.stored.clone();
        fresh.body = serde_json::json!({"focus": "c"});
        ready(store.save_side(&ada, &fresh)).unwrap();
        let read = ready(store.load_side(&ada)).unwrap().unwrap();
        assert_eq!(read.body["focus"], "c");
        assert_eq!(ready(store.load_side(&key("bob"))).unwrap(), None);
    }
}
