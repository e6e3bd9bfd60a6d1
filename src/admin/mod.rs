//! The operator's commands, run beside the servers on the storage they share: `viva plan
//! audit` (recent exam plans, read from the stored sessions) and `viva exams stop-new |
//! allow-new | use-config | status` (the new-session switch every node reads at each start).
//! The storage is the data directory, or Redis with `--redis`, with the flags, environment
//! and config file of `viva serve`.
//!
//! - `audit`: reading the sessions (file store or a Redis SCAN) into audit rows.
//! - `table`: the rows as a text table or JSON.
//! - `switch`: writing and reading the switch.

mod audit;
mod switch;
mod table;

use std::path::PathBuf;

use anyhow::{Context, bail};

use crate::config::{FileConfig, RedisSettings};

/// `viva plan …`.
#[derive(Debug, clap::Subcommand)]
pub enum PlanCommand {
    /// A table of recent exam plans (the most recently active first): planned, asked,
    /// follow-ups, bonus used, credited by mention, coverage. Assessments are not plans and
    /// are left out.
    Audit(AuditArgs),
}

/// `viva plan audit`.
#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    #[command(flatten)]
    storage: StorageArgs,
    /// How many plans to show.
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Show one plan in detail: every element in plan order, with where it stands.
    #[arg(long)]
    session: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Show user ids instead of short hashes of them.
    #[arg(long)]
    show_users: bool,
}

/// `viva exams …`: the switch that stops new sessions on every node sharing the storage.
#[derive(Debug, clap::Subcommand)]
pub enum ExamsCommand {
    /// Refuse new exams and assessments on every node (`new_sessions_disabled`); running
    /// sessions, resumes and result reads go on.
    StopNew(StorageArgs),
    /// Let new exams and assessments start on every node.
    AllowNew(StorageArgs),
    /// Remove the stored switch: each node follows its `[server] accept_new_sessions`.
    UseConfig(StorageArgs),
    /// Say whether new sessions may start, and why.
    Status(StorageArgs),
}

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
    redis: crate::RedisArgs,
}

/// The storage the servers use, resolved like `viva serve` resolves it.
struct Storage {
    data_dir: PathBuf,
    redis: Option<RedisSettings>,
    /// `[server] accept_new_sessions` of this config (default true).
    accept_configured: bool,
}

impl StorageArgs {
    fn resolve(&self) -> anyhow::Result<Storage> {
        let file = FileConfig::load(self.config.as_deref())?;
        let data_dir = self
            .data_dir
            .clone()
            .or_else(|| file.server.data_dir.clone())
            .unwrap_or_else(|| PathBuf::from(crate::DEFAULT_DATA_DIR));
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
    fn describe(&self) -> String {
        match &self.redis {
            Some(redis) => format!("Redis at {}", redis.connection.urls.join(",")),
            None => format!("the data directory {}", self.data_dir.display()),
        }
    }
}

/// A small runtime for one command's IO.
fn block_on<F: std::future::Future>(work: F) -> anyhow::Result<F::Output> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    Ok(runtime.block_on(work))
}

/// Runs `viva plan …`.
pub fn plan(command: PlanCommand) -> anyhow::Result<()> {
    match command {
        PlanCommand::Audit(args) => {
            let storage = args.storage.resolve()?;
            block_on(audit::run(&storage, &args))?
        }
    }
}

/// Runs `viva exams …`.
pub fn exams(command: ExamsCommand) -> anyhow::Result<()> {
    use switch::Action;
    let (args, action) = match &command {
        ExamsCommand::StopNew(args) => (args, Action::Set(false)),
        ExamsCommand::AllowNew(args) => (args, Action::Set(true)),
        ExamsCommand::UseConfig(args) => (args, Action::Clear),
        ExamsCommand::Status(args) => (args, Action::Show),
    };
    let storage = args.resolve()?;
    block_on(switch::run(&storage, action))?
}
