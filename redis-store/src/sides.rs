//! Side records in Redis: one hash per user, kind and name in the user's slot (a student's
//! snapshot of a course under `tutor`), claimed and written by fenced scripts like sessions. The hash's `fence` and `owner` fields are the
//! truth; the encoded record's own copies are overwritten by them on every read.

use redis::Value;
use viva_core::checkpoint::side::SIDE_FORMAT;
use viva_core::checkpoint::{SideClaim, SideKey, SideStore, StoreError, StoreFuture, StoredSide};

use crate::codec;
use crate::keys::side_key;
use crate::scripts;
use crate::store::{RedisStore, unavailable};

fn decode(key: &str, bytes: &[u8]) -> Result<StoredSide, StoreError> {
    codec::decode_side(bytes).map_err(|err| StoreError::Corrupt {
        key: key.to_owned(),
        reason: err.to_string(),
    })
}

fn malformed(key: &str) -> StoreError {
    StoreError::Corrupt {
        key: key.to_owned(),
        reason: "unexpected reply to a side-record script".to_owned(),
    }
}

fn key_of(key: &SideKey) -> Result<String, StoreError> {
    side_key(key).ok_or_else(|| StoreError::Corrupt {
        key: key.kind.to_owned(),
        reason: "a side record's kind must be a lowercase word the key layout does not use"
            .to_owned(),
    })
}

impl RedisStore {
    async fn claim_stored(
        &self,
        side: &SideKey,
        cold: &serde_json::Value,
        owner: &str,
        now_ms: u64,
    ) -> Result<SideClaim, StoreError> {
        let key = key_of(side)?;
        let initial = StoredSide {
            format: SIDE_FORMAT,
            body: cold.clone(),
            fence: 0,
            owner: String::new(),
            updated_at_ms: now_ms,
        };
        let reply: Vec<Value> = scripts::CLAIM_SIDE
            .key(&key)
            .arg(owner)
            .arg(codec::encode_side(&initial))
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
        Ok(SideClaim {
            key: side.clone(),
            fence: stored.fence,
            previous_owner: (!previous.is_empty()).then_some(previous),
            stored,
        })
    }

    async fn save_stored(&self, side: &SideKey, record: &StoredSide) -> Result<(), StoreError> {
        let key = key_of(side)?;
        let saved: u8 = scripts::SAVE_SIDE
            .key(&key)
            .arg(record.fence)
            .arg(codec::encode_side(record))
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

    async fn load_stored(&self, side: &SideKey) -> Result<Option<StoredSide>, StoreError> {
        let key = key_of(side)?;
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

impl SideStore for RedisStore {
    fn claim_side<'a>(
        &'a self,
        key: &'a SideKey,
        cold: &'a serde_json::Value,
        owner: &'a str,
        now_ms: u64,
    ) -> StoreFuture<'a, SideClaim> {
        Box::pin(self.claim_stored(key, cold, owner, now_ms))
    }

    fn save_side<'a>(&'a self, key: &'a SideKey, record: &'a StoredSide) -> StoreFuture<'a, ()> {
        Box::pin(self.save_stored(key, record))
    }

    fn load_side<'a>(&'a self, key: &'a SideKey) -> StoreFuture<'a, Option<StoredSide>> {
        Box::pin(self.load_stored(key))
    }
}
