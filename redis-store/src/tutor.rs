//! Student snapshots in Redis: one hash per user and course in the user's slot, claimed and
//! written by fenced scripts like sessions. The hash's `fence` and `owner` fields are the
//! truth; the encoded record's own copies are overwritten by them on every read.

use redis::Value;
use viva_core::checkpoint::tutor_format::{SNAPSHOT_FORMAT, SnapshotRecord, StoredSnapshot};
use viva_core::checkpoint::{SnapshotClaim, StoreError, StoreFuture, TutorStore};

use crate::codec;
use crate::keys::snapshot_key;
use crate::scripts;
use crate::store::{RedisStore, unavailable};

fn decode(key: &str, bytes: &[u8]) -> Result<StoredSnapshot, StoreError> {
    codec::decode_snapshot(bytes).map_err(|err| StoreError::Corrupt {
        key: key.to_owned(),
        reason: err.to_string(),
    })
}

fn malformed(key: &str) -> StoreError {
    StoreError::Corrupt {
        key: key.to_owned(),
        reason: "unexpected reply to a snapshot script".to_owned(),
    }
}

impl RedisStore {
    async fn claim_stored(
        &self,
        cold: &SnapshotRecord,
        owner: &str,
        now_ms: u64,
    ) -> Result<SnapshotClaim, StoreError> {
        let key = snapshot_key(&cold.user_id, &cold.course_id);
        let initial = StoredSnapshot {
            format: SNAPSHOT_FORMAT,
            snapshot: cold.clone(),
            fence: 0,
            owner: String::new(),
            updated_at_ms: now_ms,
        };
        let reply: Vec<Value> = scripts::CLAIM_SNAPSHOT
            .key(&key)
            .arg(owner)
            .arg(codec::encode_snapshot(&initial))
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        let (
            Some(Value::Int(fence)),
            Some(Value::BulkString(previous)),
            Some(Value::BulkString(rec)),
        ) = (reply.first(), reply.get(1), reply.get(2))
        else {
            return Err(malformed(&key));
        };
        let mut stored = decode(&key, rec)?;
        stored.fence = *fence as u64;
        stored.owner = owner.to_owned();
        let previous = String::from_utf8_lossy(previous).into_owned();
        Ok(SnapshotClaim {
            fence: stored.fence,
            previous_owner: (!previous.is_empty()).then_some(previous),
            stored,
        })
    }

    async fn save_stored(&self, record: &StoredSnapshot) -> Result<(), StoreError> {
        let key = snapshot_key(&record.snapshot.user_id, &record.snapshot.course_id);
        let saved: u8 = scripts::SAVE_SNAPSHOT
            .key(&key)
            .arg(record.fence)
            .arg(codec::encode_snapshot(record))
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        match saved {
            1 => Ok(()),
            _ => Err(StoreError::Fenced {
                session_id: record.owner.clone(),
                token: record.fence,
            }),
        }
    }

    async fn load_stored(
        &self,
        user_id: &str,
        course_id: &str,
    ) -> Result<Option<StoredSnapshot>, StoreError> {
        let key = snapshot_key(user_id, course_id);
        let (rec, fence, owner): (Option<Vec<u8>>, Option<u64>, Option<String>) =
            redis::cmd("HMGET")
                .arg(&key)
                .arg("rec")
                .arg("fence")
                .arg("owner")
                .query_async(&mut self.conn.clone())
                .await
                .map_err(unavailable)?;
        let Some(rec) = rec else { return Ok(None) };
        let mut stored = decode(&key, &rec)?;
        stored.fence = fence.unwrap_or(0);
        stored.owner = owner.unwrap_or_default();
        Ok(Some(stored))
    }
}

impl TutorStore for RedisStore {
    fn claim_snapshot<'a>(
        &'a self,
        cold: &'a SnapshotRecord,
        owner: &'a str,
        now_ms: u64,
    ) -> StoreFuture<'a, SnapshotClaim> {
        Box::pin(self.claim_stored(cold, owner, now_ms))
    }

    fn save_snapshot<'a>(&'a self, record: &'a StoredSnapshot) -> StoreFuture<'a, ()> {
        Box::pin(self.save_stored(record))
    }

    fn load_snapshot<'a>(
        &'a self,
        user_id: &'a str,
        course_id: &'a str,
    ) -> StoreFuture<'a, Option<StoredSnapshot>> {
        Box::pin(self.load_stored(user_id, course_id))
    }
}
