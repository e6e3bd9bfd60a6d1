//! `viva exams stop-new | allow-new | use-config | status`: the new-session switch, stored
//! beside the sessions so that every node reads the same one at each start.

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use anyhow::Context;
use viva_actors::new_sessions::{Decision, NewSessionGate, Source};
use viva_core::checkpoint::{SwitchRecord, SwitchStore};
use viva_core::clock::{Clock, SystemClock};
use viva_file_store::FileStore;
use viva_redis_store::{Connection, RedisStore};

use super::storage::Storage;

/// What the command does with the switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Store it: open (`true`) or stop (`false`) new sessions everywhere.
    Set(bool),
    /// Remove it: each node follows its configuration.
    Clear,
    /// Only say where it stands.
    Show,
}

/// Applies `action`, then prints where the switch stands.
pub async fn run(storage: &Storage, action: Action) -> anyhow::Result<()> {
    let store = open(storage).await?;
    let record = match action {
        Action::Set(accept) => Some(SwitchRecord::new(accept, SystemClock.now_ms())),
        Action::Clear | Action::Show => None,
    };
    if action != Action::Show {
        store
            .save_switch(record.as_ref())
            .await
            .with_context(|| format!("writing the switch in {}", storage.describe()))?;
    }
    let gate = NewSessionGate::new(store, storage.accept_configured);
    let decision = gate
        .current()
        .await
        .with_context(|| format!("reading the switch in {}", storage.describe()))?;
    println!("{}", describe(decision, storage));
    Ok(())
}

/// The switch's store: the data directory's, or Redis's.
async fn open(storage: &Storage) -> anyhow::Result<Arc<dyn SwitchStore>> {
    let Some(redis) = &storage.redis else {
        let store = FileStore::open(&storage.data_dir).context("opening the data directory")?;
        return Ok(Arc::new(store));
    };
    let conn = Connection::open(&redis.connection)
        .await
        .with_context(|| format!("connecting to {}", storage.describe()))?;
    Ok(Arc::new(RedisStore::new(conn, redis.retention)))
}

/// One line: accepted or refused, and why.
fn describe(decision: Decision, storage: &Storage) -> String {
    let state = match decision.accept {
        true => "accepted",
        false => "REFUSED (new_sessions_disabled; running sessions go on)",
    };
    let why = match decision.source {
        Source::Stored { changed_at_ms } => {
            let at = UNIX_EPOCH + Duration::from_millis(changed_at_ms);
            format!(
                "switch set at {} in {}, for every node sharing it",
                humantime::format_rfc3339_seconds(at),
                storage.describe()
            )
        }
        Source::Configured => format!(
            "no switch stored in {}; each node follows its [server] accept_new_sessions \
             (this config: {})",
            storage.describe(),
            storage.accept_configured
        ),
    };
    format!("new sessions: {state}: {why}")
}
