//! `RedisStore`: the `CheckpointStore` on Redis. Every write is one fenced Lua script call
//! (see `scripts`); reads of a session return its head and turns in one atomic call.

use std::time::Duration;

use redis::Value;
use viva_core::checkpoint::format::PhaseName;
use viva_core::checkpoint::{
    CheckpointStore, Claim, ClaimKind, HeadUpdate, SessionCheckpoint, SessionKey, SessionWrite,
    StoreError, StoreFuture, UserRecord,
};

use crate::codec::{self, DecodeError};
use crate::conn::Connection;
use crate::keys::{SessionKeys, user_key};
use crate::scripts;

/// How long finished and unfinished sessions are kept after their last write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Active or paused sessions (a paused session is abandoned well before this).
    pub open: Duration,
    /// Completed sessions, with their results.
    pub completed: Duration,
    /// Abandoned sessions.
    pub abandoned: Duration,
}

impl Default for Retention {
    fn default() -> Self {
        const DAY: u64 = 24 * 3600;
        Retention {
            open: Duration::from_secs(30 * DAY),
            completed: Duration::from_secs(365 * DAY),
            abandoned: Duration::from_secs(30 * DAY),
        }
    }
}

impl Retention {
    fn for_phase(&self, phase: PhaseName) -> Duration {
        match phase {
            PhaseName::Completed => self.completed,
            PhaseName::Abandoned => self.abandoned,
            PhaseName::Idle
            | PhaseName::QuestionAsked
            | PhaseName::AwaitingAnswer
            | PhaseName::Assessed
            | PhaseName::Paused => self.open,
        }
    }
}

/// Checkpoints and user records in Redis.
#[derive(Clone)]
pub struct RedisStore {
    pub(crate) conn: Connection,
    retention: Retention,
}

pub(crate) fn unavailable(err: redis::RedisError) -> StoreError {
    StoreError::Unavailable(format!("redis: {err}"))
}

fn corrupt(key: &str, err: DecodeError) -> StoreError {
    StoreError::Corrupt {
        key: key.to_owned(),
        reason: err.to_string(),
    }
}

/// The bytes of a bulk-string reply item.
fn bytes(value: &Value) -> Option<&[u8]> {
    match value {
        Value::BulkString(bytes) => Some(bytes),
        _ => None,
    }
}

fn int(value: &Value) -> Option<u64> {
    match value {
        Value::Int(n) => u64::try_from(*n).ok(),
        _ => None,
    }
}

impl RedisStore {
    /// A store over `conn`.
    pub fn new(conn: Connection, retention: Retention) -> RedisStore {
        RedisStore { conn, retention }
    }

    /// `{head, edit count, edits..., turns...}` as a checkpoint.
    pub(crate) fn checkpoint_from(
        key: &str,
        items: &[Value],
    ) -> Result<SessionCheckpoint, StoreError> {
        let malformed = || StoreError::Corrupt {
            key: key.to_owned(),
            reason: "malformed script reply".to_owned(),
        };
        let [head, count, rest @ ..] = items else {
            return Err(malformed());
        };
        let head = bytes(head).ok_or_else(malformed)?;
        let count = int(count).and_then(|n| usize::try_from(n).ok());
        let count = count.filter(|n| *n <= rest.len()).ok_or_else(malformed)?;
        let items: Vec<Vec<u8>> = rest
            .iter()
            .map(|item| bytes(item).map(<[u8]>::to_vec).ok_or_else(malformed))
            .collect::<Result<_, _>>()?;
        let (edits, turns) = items.split_at(count);
        codec::decode_checkpoint(head, edits, turns).map_err(|err| corrupt(key, err))
    }

    async fn claim(
        &self,
        key: &SessionKey,
        node: &str,
        kind: ClaimKind,
        lease_ms: u64,
    ) -> Result<Option<Claim>, StoreError> {
        let keys = SessionKeys::of(key);
        let create = kind == ClaimKind::Create;
        let reply: Vec<Value> = scripts::CLAIM
            .key(&keys.meta)
            .key(&keys.turns)
            .key(&keys.lease)
            .key(&keys.edits)
            .arg(node)
            .arg(lease_ms)
            .arg(u8::from(create))
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        let Some(token) = reply.first().and_then(int).filter(|t| *t > 0) else {
            return Ok(None);
        };
        let previous = reply.get(1).and_then(bytes).unwrap_or_default();
        let previous = String::from_utf8_lossy(previous).into_owned();
        let checkpoint = match create {
            true => None,
            false => Some(Self::checkpoint_from(
                &keys.meta,
                reply.get(2..).unwrap_or(&[]),
            )?),
        };
        Ok(Some(Claim {
            token,
            previous_owner: Some(previous).filter(|p| !p.is_empty() && p != node),
            checkpoint,
        }))
    }

    async fn save(&self, key: &SessionKey, write: SessionWrite<'_>) -> Result<(), StoreError> {
        let mut outcome = self.save_as(key, write, write.head).await?;
        if outcome == "whole" {
            // The edits were made on a head that is not the stored one (an earlier write's
            // outcome was unknown to its writer): store the whole head instead.
            outcome = self.save_as(key, write, &HeadUpdate::Whole).await?;
        }
        Self::outcome(key, &write, &outcome)
    }

    /// One write, with the head stored as `head`; the script's outcome.
    async fn save_as(
        &self,
        key: &SessionKey,
        write: SessionWrite<'_>,
        head: &HeadUpdate,
    ) -> Result<String, StoreError> {
        let keys = SessionKeys::of(key);
        let checkpoint = write.checkpoint;
        let ttl = self.retention.for_phase(checkpoint.phase).as_millis() as u64;
        let (head, parent) = match head {
            HeadUpdate::Whole => (codec::encode_head(checkpoint), String::new()),
            HeadUpdate::Edits {
                parent_version,
                edits,
            } => (codec::encode_edits(edits), parent_version.to_string()),
        };
        let mut invocation = scripts::SAVE.prepare_invoke();
        invocation
            .key(&keys.meta)
            .key(&keys.turns)
            .key(&keys.user)
            .key(&keys.lease)
            .key(&keys.edits)
            .arg(write.token)
            .arg(checkpoint.version)
            .arg(head)
            .arg(write.turns_from)
            .arg(u8::from(write.live))
            .arg(ttl)
            .arg(write.lease.map_or("", |lease| lease.node))
            .arg(write.lease.map_or(0, |lease| lease.ms))
            .arg(parent);
        for turn in checkpoint.transcript.iter().skip(write.turns_from) {
            invocation.arg(codec::encode_turn(turn));
        }
        invocation
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)
    }

    fn outcome(
        key: &SessionKey,
        write: &SessionWrite<'_>,
        outcome: &str,
    ) -> Result<(), StoreError> {
        match outcome {
            "ok" => Ok(()),
            "inactive" => Err(StoreError::NotActive {
                session_id: key.session_id.clone(),
            }),
            _ => Err(StoreError::Fenced {
                session_id: key.session_id.clone(),
                token: write.token,
            }),
        }
    }

    async fn load(&self, key: &SessionKey) -> Result<Option<SessionCheckpoint>, StoreError> {
        let keys = SessionKeys::of(key);
        let reply: Vec<Value> = scripts::READ
            .key(&keys.meta)
            .key(&keys.turns)
            .key(&keys.edits)
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        if reply.is_empty() {
            return Ok(None);
        }
        Self::checkpoint_from(&keys.meta, &reply).map(Some)
    }

    async fn renew(
        &self,
        key: &SessionKey,
        node: &str,
        token: u64,
        lease_ms: u64,
    ) -> Result<bool, StoreError> {
        let keys = SessionKeys::of(key);
        let renewed: u8 = scripts::RENEW
            .key(&keys.meta)
            .key(&keys.lease)
            .arg(token)
            .arg(node)
            .arg(lease_ms)
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        Ok(renewed == 1)
    }

    async fn release(&self, key: &SessionKey, token: u64) -> Result<(), StoreError> {
        let keys = SessionKeys::of(key);
        let _: u8 = scripts::RELEASE
            .key(&keys.meta)
            .key(&keys.lease)
            .arg(token)
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        Ok(())
    }

    async fn save_record(&self, record: &UserRecord) -> Result<(), StoreError> {
        let saved: u8 = scripts::SAVE_USER
            .key(user_key(&record.user_id))
            .arg(record.version)
            .arg(codec::encode_user(record))
            .arg(record.active_session.as_deref().unwrap_or(""))
            .invoke_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        match saved {
            1 => Ok(()),
            _ => Err(StoreError::Conflict {
                user_id: record.user_id.clone(),
            }),
        }
    }

    async fn load_record(&self, user_id: &str) -> Result<Option<UserRecord>, StoreError> {
        let key = user_key(user_id);
        let stored: Option<Vec<u8>> = redis::cmd("HGET")
            .arg(&key)
            .arg("rec")
            .query_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        stored
            .map(|bytes| codec::decode_user(&bytes).map_err(|err| corrupt(&key, err)))
            .transpose()
    }
}

impl CheckpointStore for RedisStore {
    fn claim_session<'a>(
        &'a self,
        key: &'a SessionKey,
        node: &'a str,
        kind: ClaimKind,
        lease_ms: u64,
    ) -> StoreFuture<'a, Option<Claim>> {
        Box::pin(self.claim(key, node, kind, lease_ms))
    }

    fn renew_lease<'a>(
        &'a self,
        key: &'a SessionKey,
        node: &'a str,
        token: u64,
        lease_ms: u64,
    ) -> StoreFuture<'a, bool> {
        Box::pin(self.renew(key, node, token, lease_ms))
    }

    fn release_lease<'a>(&'a self, key: &'a SessionKey, token: u64) -> StoreFuture<'a, ()> {
        Box::pin(self.release(key, token))
    }

    fn save_session<'a>(
        &'a self,
        key: &'a SessionKey,
        write: SessionWrite<'a>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.save(key, write))
    }

    fn load_session<'a>(
        &'a self,
        key: &'a SessionKey,
    ) -> StoreFuture<'a, Option<SessionCheckpoint>> {
        Box::pin(self.load(key))
    }

    fn save_user<'a>(&'a self, record: &'a UserRecord) -> StoreFuture<'a, ()> {
        Box::pin(self.save_record(record))
    }

    fn load_user<'a>(&'a self, user_id: &'a str) -> StoreFuture<'a, Option<UserRecord>> {
        Box::pin(self.load_record(user_id))
    }
}
