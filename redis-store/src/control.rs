//! The operator's new-session switch in Redis: one JSON string under
//! [`keys::SWITCH`](crate::keys::SWITCH), without a TTL, read by every node at each start.

use viva_core::checkpoint::format::SWITCH_FORMAT;
use viva_core::checkpoint::{StoreError, StoreFuture, SwitchRecord, SwitchStore};

use crate::keys::SWITCH;
use crate::store::{RedisStore, unavailable};

impl RedisStore {
    async fn load_switch_record(&self) -> Result<Option<SwitchRecord>, StoreError> {
        let stored: Option<String> = redis::cmd("GET")
            .arg(SWITCH)
            .query_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        let Some(text) = stored else {
            return Ok(None);
        };
        let corrupt = |reason: String| StoreError::Corrupt {
            key: SWITCH.to_owned(),
            reason,
        };
        let switch: SwitchRecord =
            serde_json::from_str(&text).map_err(|err| corrupt(err.to_string()))?;
        if switch.format != SWITCH_FORMAT {
            let known = SWITCH_FORMAT;
            return Err(corrupt(format!(
                "format {}, this build reads {known}",
                switch.format
            )));
        }
        Ok(Some(switch))
    }

    async fn save_switch_record(&self, switch: Option<&SwitchRecord>) -> Result<(), StoreError> {
        let command = match switch {
            Some(switch) => {
                let text = serde_json::to_string(switch)
                    .map_err(|err| StoreError::Unavailable(err.to_string()))?;
                let mut set = redis::cmd("SET");
                set.arg(SWITCH).arg(text);
                set
            }
            None => {
                let mut del = redis::cmd("DEL");
                del.arg(SWITCH);
                del
            }
        };
        let _: redis::Value = command
            .query_async(&mut self.conn.clone())
            .await
            .map_err(unavailable)?;
        Ok(())
    }
}

impl SwitchStore for RedisStore {
    fn load_switch(&self) -> StoreFuture<'_, Option<SwitchRecord>> {
        Box::pin(self.load_switch_record())
    }

    fn save_switch<'a>(&'a self, switch: Option<&'a SwitchRecord>) -> StoreFuture<'a, ()> {
        Box::pin(self.save_switch_record(switch))
    }
}
