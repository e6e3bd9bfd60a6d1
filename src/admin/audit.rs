//! `viva plan audit`: reads the stored sessions — the data directory's files, the most
//! recently written first, or a Redis SCAN over every master — and turns each exam
//! checkpoint into its audit row with the pure `viva_core::audit`.

use anyhow::{Context, anyhow, bail};
use serde::Serialize;
use viva_core::audit::{UserShown, newest_first, plan_detail};
use viva_core::checkpoint::SessionCheckpoint;
use viva_file_store::FileStore;
use viva_redis_store::scan::{FoundSession, SCAN_BATCH, ScanRequest, scan_sessions};

use super::listing::Listing;
use super::storage::{Storage, StorageArgs};
use super::table;

/// `viva plan audit`.
#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    #[command(flatten)]
    pub storage: StorageArgs,
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

/// Prints the listing, or one plan in detail.
pub async fn run(storage: &Storage, args: &AuditArgs) -> anyhow::Result<()> {
    let shown = match args.show_users {
        true => UserShown::Plain,
        false => UserShown::Hashed,
    };
    if let Some(session_id) = &args.session {
        let checkpoint = one_session(storage, session_id).await?;
        let detail = plan_detail(&checkpoint, shown)
            .ok_or_else(|| anyhow!("session {session_id} is an assessment, not an exam plan"))?;
        return print(args.json, &detail, || table::detail(&detail));
    }
    let listing = match &storage.redis {
        Some(_) => from_redis(storage, args.limit, shown).await?,
        None => from_files(storage, args.limit, shown).await?,
    };
    print(args.json, &listing, || table::plans(&listing))
}

fn print<T: Serialize>(json: bool, value: &T, text: impl Fn() -> String) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(value)?);
    } else {
        print!("{}", text());
    }
    Ok(())
}

/// The newest files first, until `limit` plans are found: the file time is the last
/// checkpoint's, so older files cannot hold a more recent plan.
async fn from_files(storage: &Storage, limit: usize, shown: UserShown) -> anyhow::Result<Listing> {
    let store = FileStore::open(&storage.data_dir).context("opening the data directory")?;
    let ids = store.session_ids_newest_first().await?;
    let mut listing = Listing::default();
    for id in ids {
        if listing.plans.len() >= limit {
            break;
        }
        match store.inspect_session(&id).await {
            Ok(Some(checkpoint)) => listing.take(&id, Ok(checkpoint), shown),
            Ok(None) => {} // removed since the listing
            Err(err) => listing.take(&id, Err(err.to_string()), shown),
        }
    }
    newest_first(&mut listing.plans, limit);
    Ok(listing)
}

/// Every session head of every master, keeping the `limit` newest plans as it goes.
async fn from_redis(storage: &Storage, limit: usize, shown: UserShown) -> anyhow::Result<Listing> {
    let redis = storage.redis.as_ref().context("no Redis configured")?;
    let mut listing = Listing::default();
    let take = |found: FoundSession| {
        let read = found.checkpoint.map_err(|err| err.to_string());
        listing.take(&found.key, read, shown);
        if listing.plans.len() >= limit + SCAN_BATCH {
            newest_first(&mut listing.plans, limit);
        }
    };
    scan_sessions(&redis.connection, &ScanRequest::default(), take)
        .await
        .with_context(|| format!("scanning {}", storage.describe()))?;
    newest_first(&mut listing.plans, limit);
    Ok(listing)
}

/// One session's checkpoint, transcript included, whoever owns it.
async fn one_session(storage: &Storage, session_id: &str) -> anyhow::Result<SessionCheckpoint> {
    let Some(redis) = &storage.redis else {
        let store = FileStore::open(&storage.data_dir).context("opening the data directory")?;
        return store
            .inspect_session(session_id)
            .await?
            .ok_or_else(|| anyhow!("no session {session_id} in {}", storage.describe()));
    };
    let request = ScanRequest {
        session_id: Some(session_id.to_owned()),
        with_turns: true,
    };
    let mut found = Vec::new();
    scan_sessions(&redis.connection, &request, |session| found.push(session))
        .await
        .with_context(|| format!("scanning {}", storage.describe()))?;
    let Some(session) = found.pop() else {
        bail!("no session {session_id} in {}", storage.describe());
    };
    session
        .checkpoint
        .with_context(|| format!("session {session_id} is unreadable"))
}
