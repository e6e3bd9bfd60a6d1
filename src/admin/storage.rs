//! Where the sessions are: the storage flags of `viva plan` and `viva exams`, resolved the
//! way `viva serve` resolves its own.

use std::path::PathBuf;

use anyhow::bail;

use crate::config::{DEFAULT_DATA_DIR, FileConfig, RedisArgs, RedisSettings};

/// Where the sessions are: the same flags as `viva serve`.
#[derive(Debug, Clone, clap::Args)]
pub struct StorageArgs {
    /// The data directory of the file store.
    #[arg(long, env = "VIVA_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// The TOML config file of the servers.
    #[arg(long, env = "VIVA_CONFIG")]
    config: Option<PathBuf>,
    #[command(flatten)]
    redis: RedisArgs,
}

/// The storage the servers use, resolved like `viva serve` resolves it.
pub struct Storage {
    pub data_dir: PathBuf,
    pub redis: Option<RedisSettings>,
    /// `[server] accept_new_sessions` of this config (default true).
    pub accept_configured: bool,
}

impl StorageArgs {
    pub fn resolve(&self) -> anyhow::Result<Storage> {
        let file = FileConfig::load(self.config.as_deref())?;
        let data_dir = self
            .data_dir
            .clone()
            .or_else(|| file.server.data_dir.clone())
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR));
        let redis = file.redis(self.redis.redis.clone(), self.redis.redis_cluster)?;
        if redis.is_none() && !data_dir.is_dir() {
            bail!(
                "no data directory at {} (give the servers' --data-dir, or --redis)",
                data_dir.display()
            );
        }
        Ok(Storage {
            data_dir,
            redis,
            accept_configured: file.server.accept_new_sessions.unwrap_or(true),
        })
    }
}

impl Storage {
    /// The data directory or the Redis URLs, for messages.
    pub fn describe(&self) -> String {
        match &self.redis {
            Some(redis) => format!("Redis at {}", redis.connection.urls.join(",")),
            None => format!("the data directory {}", self.data_dir.display()),
        }
    }
}
