//! The operator's commands, run beside the servers on the storage they share: `viva plan
//! audit` (recent exam plans, read from the stored sessions) and `viva exams stop-new |
//! allow-new | use-config | status` (the new-session switch every node reads at each start).
//! The storage is the data directory, or Redis with `--redis`, with the flags, environment
//! and config file of `viva serve`.
//!
//! - `storage`: the flags that say where the sessions are, resolved like `viva serve`'s.
//! - `audit`: reading the sessions (file store or a Redis SCAN) into audit rows.
//! - `listing`: the audit rows read, and what else was read on the way.
//! - `table`: the rows as a text table.
//! - `switch`: writing and reading the switch.

mod audit;
mod listing;
mod storage;
mod switch;
mod table;

use anyhow::Context;

use audit::AuditArgs;
use storage::StorageArgs;

/// `viva plan …`.
#[derive(Debug, clap::Subcommand)]
pub enum PlanCommand {
    /// A table of recent exam plans (the most recently active first): planned, asked,
    /// follow-ups, bonus used, credited by mention, coverage. Assessments are not plans and
    /// are left out.
    Audit(AuditArgs),
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
