//! Node notices over Redis pub/sub: each node subscribes to `viva:node:<id>`; a node that
//! takes a session or a user's active exam publishes to the node that held it.
//!
//! Pub/sub rather than a stream: a notice only matters to a node that is alive and listening
//! right now, and it is delivered at most once either way. A node that misses one (it was
//! disconnected) is still safe: its next write for that session is refused by the fencing
//! token or the active-session check, and it pauses the device then. A stream would add
//! trimming and consumer bookkeeping for no stronger guarantee. In a cluster, `PUBLISH`
//! reaches every shard, so a subscriber on any one seed node hears all notices.

use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::mpsc;
use viva_core::checkpoint::{NodeBus, Notice, StoreError, StoreFuture};

use crate::conn::{Connection, RedisConfig};
use crate::keys::node_channel;

/// Notices waiting for the directory; beyond this a notice is dropped (and fencing decides).
pub const NOTICE_QUEUE: usize = 1024;

/// Publishes notices.
#[derive(Clone)]
pub struct RedisBus {
    conn: Connection,
}

impl RedisBus {
    /// A bus publishing over `conn`.
    pub fn new(conn: Connection) -> RedisBus {
        RedisBus { conn }
    }
}

impl NodeBus for RedisBus {
    fn publish<'a>(&'a self, node: &'a str, notice: &'a Notice) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let payload = serde_json::to_string(notice)
                .map_err(|err| StoreError::Unavailable(err.to_string()))?;
            let _: i64 = redis::cmd("PUBLISH")
                .arg(node_channel(node))
                .arg(payload)
                .query_async(&mut self.conn.clone())
                .await
                .map_err(|err| StoreError::Unavailable(format!("redis: {err}")))?;
            Ok(())
        })
    }
}

/// Listens for this node's notices until the receiver is dropped, resubscribing with backoff
/// after a lost connection (trying each seed URL in turn).
pub fn listen(config: RedisConfig, node_id: String) -> mpsc::Receiver<Notice> {
    let (sender, receiver) = mpsc::channel(NOTICE_QUEUE);
    tokio::spawn(async move {
        let mut backoff = Duration::from_millis(100);
        let mut seed = 0;
        while !sender.is_closed() {
            let Some(url) = config.urls.get(seed % config.urls.len().max(1)) else {
                tracing::error!("no Redis URL to listen on; node notices are off");
                return;
            };
            match forward(url, &node_id, &sender).await {
                Ok(()) => backoff = Duration::from_millis(100),
                Err(err) => tracing::warn!(url, %err, "notice subscription lost"),
            }
            seed += 1;
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(2));
        }
    });
    receiver
}

/// Subscribes on `url` and forwards notices until the connection ends.
async fn forward(
    url: &str,
    node_id: &str,
    sender: &mpsc::Sender<Notice>,
) -> redis::RedisResult<()> {
    let client = redis::Client::open(url)?;
    let mut pubsub = client.get_async_pubsub().await?;
    pubsub.subscribe(node_channel(node_id)).await?;
    tracing::info!(url, node = node_id, "listening for node notices");
    let mut messages = pubsub.on_message();
    while let Some(message) = messages.next().await {
        let payload: String = message.get_payload()?;
        match serde_json::from_str::<Notice>(&payload) {
            Ok(notice) => {
                if sender.try_send(notice).is_err() {
                    tracing::warn!("notice queue full or closed; notice dropped");
                }
            }
            Err(err) => tracing::warn!(%err, payload, "unreadable notice ignored"),
        }
    }
    Ok(())
}
