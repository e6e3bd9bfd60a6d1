//! One connection handle for a standalone Redis or a Redis Cluster. Both reconnect by
//! themselves with backoff; every command has a response timeout, so an outage turns into
//! errors quickly instead of stuck sessions.

use std::time::Duration;

use redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use redis::cluster::ClusterClient;
use redis::cluster_async::ClusterConnection;
use redis::{Cmd, Pipeline, RedisFuture, Value};

/// Where Redis is and how to talk to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisConfig {
    /// `redis://host:port/` URLs: one server, or seed nodes of a cluster.
    pub urls: Vec<String>,
    /// The URLs are seeds of a Redis Cluster.
    pub cluster: bool,
    /// How long a command may wait for its reply.
    pub response_timeout: Duration,
    /// How long a connection attempt may take.
    pub connection_timeout: Duration,
}

impl RedisConfig {
    /// A standalone server at `url` with the default timeouts.
    pub fn standalone(url: &str) -> RedisConfig {
        RedisConfig {
            urls: vec![url.to_owned()],
            cluster: false,
            response_timeout: Duration::from_secs(2),
            connection_timeout: Duration::from_secs(1),
        }
    }
}

/// A cloneable, self-reconnecting connection.
#[derive(Clone)]
pub enum Connection {
    /// One server.
    Single(ConnectionManager),
    /// A cluster, routed by key slot.
    Cluster(ClusterConnection),
}

impl Connection {
    /// Connects (the first attempt must succeed; later losses reconnect by themselves).
    pub async fn open(config: &RedisConfig) -> redis::RedisResult<Connection> {
        if config.cluster {
            let client = ClusterClient::builder(config.urls.clone())
                .response_timeout(config.response_timeout)
                .connection_timeout(config.connection_timeout)
                .retries(2)
                .build()?;
            return Ok(Connection::Cluster(client.get_async_connection().await?));
        }
        let url = config
            .urls
            .first()
            .map_or("redis://127.0.0.1:6379/", String::as_str);
        let client = redis::Client::open(url)?;
        let manager_config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(config.response_timeout))
            .set_connection_timeout(Some(config.connection_timeout))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500));
        let manager = ConnectionManager::new_with_config(client, manager_config).await?;
        Ok(Connection::Single(manager))
    }
}

impl ConnectionLike for Connection {
    fn req_packed_command<'a>(&'a mut self, cmd: &'a Cmd) -> RedisFuture<'a, Value> {
        match self {
            Connection::Single(c) => c.req_packed_command(cmd),
            Connection::Cluster(c) => c.req_packed_command(cmd),
        }
    }

    fn req_packed_commands<'a>(
        &'a mut self,
        cmd: &'a Pipeline,
        offset: usize,
        count: usize,
    ) -> RedisFuture<'a, Vec<Value>> {
        match self {
            Connection::Single(c) => c.req_packed_commands(cmd, offset, count),
            Connection::Cluster(c) => c.req_packed_commands(cmd, offset, count),
        }
    }

    fn get_db(&self) -> i64 {
        match self {
            Connection::Single(c) => c.get_db(),
            Connection::Cluster(c) => c.get_db(),
        }
    }
}
