//! Listing stored sessions for operator tools (`viva plan audit`): `SCAN` over the session
//! keys of every master, one cursor step of at most [`SCAN_BATCH`] keys at a time, reading
//! each session's head (its checkpoint without the transcript) in one pipeline per step.
//!
//! A Redis Cluster is scanned master by master (`CLUSTER NODES` from the first seed that
//! answers names them); a key is read on the master that holds it. The server never scans.

use std::time::Duration;

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, ConnectionAddr, ConnectionInfo, IntoConnectionInfo};
use viva_core::checkpoint::SessionCheckpoint;

use crate::codec::{self, DecodeError};
use crate::conn::RedisConfig;
use crate::keys::{session_of_key, session_pattern};

/// The `COUNT` hint of each `SCAN` step, and so the most heads read in one pipeline.
pub const SCAN_BATCH: usize = 500;
/// How long one reply may take.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(10);

/// What to list.
#[derive(Debug, Clone, Default)]
pub struct ScanRequest {
    /// One session only.
    pub session_id: Option<String>,
    /// Read each session's transcript too (for one session's detail).
    pub with_turns: bool,
}

/// One session found.
#[derive(Debug)]
pub struct FoundSession {
    /// Its hash key.
    pub key: String,
    /// Its checkpoint (without the transcript unless asked for), or why it is unreadable.
    pub checkpoint: Result<SessionCheckpoint, DecodeError>,
}

/// Why a scan failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScanError {
    /// The session id is not a plain id (letters, digits, `-`).
    #[error("{0:?} is not a session id")]
    BadSessionId(String),
    /// Redis refused or could not be reached; retry.
    #[error("redis: {0}")]
    Redis(#[from] redis::RedisError),
}

/// Calls `each` with every stored session (or the one asked for); returns how many keys the
/// scan looked at.
pub async fn scan_sessions(
    config: &RedisConfig,
    request: &ScanRequest,
    mut each: impl FnMut(FoundSession),
) -> Result<usize, ScanError> {
    let id = request.session_id.as_deref();
    let pattern = session_pattern(id)
        .ok_or_else(|| ScanError::BadSessionId(id.unwrap_or_default().to_owned()))?;
    let mut seen = 0;
    for node in nodes(config).await? {
        let mut conn = connect(&node).await?;
        seen += scan_node(&mut conn, &pattern, request.with_turns, &mut each).await?;
    }
    Ok(seen)
}

async fn connect(node: &ConnectionInfo) -> redis::RedisResult<MultiplexedConnection> {
    let config = AsyncConnectionConfig::new()
        .set_connection_timeout(Some(RESPONSE_TIMEOUT))
        .set_response_timeout(Some(RESPONSE_TIMEOUT));
    redis::Client::open(node.clone())?
        .get_multiplexed_async_connection_with_config(&config)
        .await
}

/// The masters to scan: the one server, or every master of the cluster.
async fn nodes(config: &RedisConfig) -> Result<Vec<ConnectionInfo>, ScanError> {
    let mut last_error = None;
    for url in &config.urls {
        let seed = url.as_str().into_connection_info()?;
        if !config.cluster {
            return Ok(vec![seed]);
        }
        let listed = async {
            let mut conn = connect(&seed).await?;
            redis::cmd("CLUSTER")
                .arg("NODES")
                .query_async::<String>(&mut conn)
                .await
        };
        match listed.await {
            Ok(text) => {
                let masters = masters(&text).into_iter();
                return Ok(masters.map(|(host, port)| at(&seed, host, port)).collect());
            }
            Err(err) => last_error = Some(err),
        }
    }
    let none = || redis::RedisError::from((redis::ErrorKind::InvalidClientConfig, "no Redis URL"));
    Err(last_error.unwrap_or_else(none).into())
}

/// The seed's settings (credentials, TLS) at another host and port.
fn at(seed: &ConnectionInfo, host: String, port: u16) -> ConnectionInfo {
    let addr = match seed.addr().clone() {
        ConnectionAddr::TcpTls {
            insecure,
            tls_params,
            ..
        } => ConnectionAddr::TcpTls {
            host,
            port,
            insecure,
            tls_params,
        },
        _ => ConnectionAddr::Tcp(host, port),
    };
    seed.clone().set_addr(addr)
}

/// The reachable masters of a `CLUSTER NODES` reply, as host and port.
fn masters(cluster_nodes: &str) -> Vec<(String, u16)> {
    let mut found = Vec::new();
    for line in cluster_nodes.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (Some(address), Some(flags)) = (fields.get(1), fields.get(2)) else {
            continue;
        };
        let flags: Vec<&str> = flags.split(',').collect();
        let unusable = ["fail", "handshake", "noaddr"];
        if !flags.contains(&"master") || flags.iter().any(|f| unusable.contains(f)) {
            continue;
        }
        let host_port = address.split('@').next().unwrap_or_default();
        let Some((host, port)) = host_port.rsplit_once(':') else {
            continue;
        };
        if let (false, Ok(port)) = (host.is_empty(), port.parse::<u16>()) {
            found.push((host.to_owned(), port));
        }
    }
    found
}

/// Scans one node to the end of its cursor; returns how many keys it looked at.
async fn scan_node(
    conn: &mut MultiplexedConnection,
    pattern: &str,
    with_turns: bool,
    each: &mut impl FnMut(FoundSession),
) -> Result<usize, ScanError> {
    let (mut cursor, mut seen) = (0u64, 0);
    loop {
        let (next, keys): (u64, Vec<String>) = redis::cmd("SCAN")
            .arg(cursor)
            .arg("MATCH")
            .arg(pattern)
            .arg("COUNT")
            .arg(SCAN_BATCH)
            .query_async(conn)
            .await?;
        seen += keys.len();
        let hashes: Vec<String> = keys
            .into_iter()
            .filter(|key| session_of_key(key).is_some())
            .collect();
        read_sessions(conn, hashes, with_turns, each).await?;
        if next == 0 {
            return Ok(seen);
        }
        cursor = next;
    }
}

/// Reads the heads (and turns) of `hashes` in one pipeline.
async fn read_sessions(
    conn: &mut MultiplexedConnection,
    hashes: Vec<String>,
    with_turns: bool,
    each: &mut impl FnMut(FoundSession),
) -> Result<(), ScanError> {
    if hashes.is_empty() {
        return Ok(());
    }
    let mut pipe = redis::pipe();
    for key in &hashes {
        pipe.cmd("HGET").arg(key).arg("head");
        pipe.cmd("LRANGE")
            .arg(format!("{key}:edits"))
            .arg(0)
            .arg(-1);
        if with_turns {
            pipe.cmd("LRANGE")
                .arg(format!("{key}:turns"))
                .arg(0)
                .arg(-1);
        }
    }
    let replies: Vec<redis::Value> = pipe.query_async(conn).await?;
    let per_key = if with_turns { 3 } else { 2 };
    for (key, reply) in hashes.into_iter().zip(replies.chunks(per_key)) {
        let head: Option<Vec<u8>> =
            redis::from_redis_value_ref(&reply[0]).map_err(redis::RedisError::from)?;
        let Some(head) = head else {
            continue; // expired or deleted between the SCAN step and the read
        };
        let edits: Vec<Vec<u8>> =
            redis::from_redis_value_ref(&reply[1]).map_err(redis::RedisError::from)?;
        let turns: Vec<Vec<u8>> = match reply.get(2) {
            Some(turns) => redis::from_redis_value_ref(turns).map_err(redis::RedisError::from)?,
            None => Vec::new(),
        };
        let mut checkpoint = codec::decode_checkpoint(&head, &edits, &turns);
        if checkpoint.is_err() && !edits.is_empty() {
            // A whole head may have been written between the pipeline's two reads; read the
            // session again in one atomic step.
            checkpoint = read_atomically(conn, &key, with_turns).await?;
        }
        each(FoundSession { key, checkpoint });
    }
    Ok(())
}

/// One session's head, edits and (if asked) turns, read in one script call.
async fn read_atomically(
    conn: &mut MultiplexedConnection,
    key: &str,
    with_turns: bool,
) -> Result<Result<SessionCheckpoint, DecodeError>, ScanError> {
    let reply: Vec<redis::Value> = crate::scripts::READ
        .key(key)
        .key(format!("{key}:turns"))
        .key(format!("{key}:edits"))
        .invoke_async(conn)
        .await?;
    let read = crate::store::RedisStore::checkpoint_from(key, &reply);
    Ok(read
        .map(|mut checkpoint| {
            if !with_turns {
                checkpoint.transcript.clear();
            }
            checkpoint
        })
        .map_err(|err| DecodeError::Reply(err.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masters_are_read_from_cluster_nodes() {
        let reply = "\
07c3 127.0.0.1:30004@40004 slave e7d1 0 1426238317239 4 connected
67ed 127.0.0.1:30002@40002,host-b master - 0 1426238316232 2 connected 5461-10922
292f 127.0.0.1:30003@40003 master - 0 1426238318243 3 connected 10923-16383
6ec2 127.0.0.1:30005@40005 master,fail - 0 1426238316232 5 disconnected
824f :0@0 master,noaddr - 0 0 0 disconnected
e7d1 127.0.0.1:30001@40001 myself,master - 0 0 1 connected 0-5460
";
        let found = masters(reply);
        let expected = [30002, 30003, 30001].map(|port| ("127.0.0.1".to_owned(), port));
        assert_eq!(found, expected);
    }

    #[test]
    fn another_master_keeps_the_seeds_settings() {
        let seed = "redis://user:secret@127.0.0.1:7000/"
            .into_connection_info()
            .unwrap();
        let other = at(&seed, "10.0.0.2".into(), 7001);
        assert_eq!(other.addr(), &ConnectionAddr::Tcp("10.0.0.2".into(), 7001));
        let settings = other.redis_settings();
        assert_eq!(
            (settings.username(), settings.password()),
            (Some("user"), Some("secret"))
        );
    }
}
