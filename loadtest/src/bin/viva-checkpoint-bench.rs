//! `viva-checkpoint-bench`: fenced checkpoint writes to Redis at a paced, open-loop rate,
//! against a baseline of plain `SET`s of the same size through the same connection.
//!
//! It claims `--sessions` new sessions, then issues `--rate` writes per second for
//! `--seconds`, round-robin over them; each write is the session's next checkpoint (see
//! `viva_loadtest::checkpoint`) saved by `RedisStore::save_session` — one `EVALSHA`. The
//! template is a real checkpoint read from Redis (`--template-user`/`--template-session`) or a
//! synthetic one. The baseline issues `SET key <first write's size>` at the same rate first.
//! Each run follows `--warmup` seconds of the same operations at the same rate, unmeasured.
//! Redis's AOF rewrites are watched during both runs, and the samples that overlapped one are
//! also reported apart.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use clap::Parser;
use viva_core::checkpoint::format::TurnCheckpoint;
use viva_core::checkpoint::{
    CheckpointStore, ClaimKind, HeadUpdate, SessionCheckpoint, SessionKey, SessionWrite,
};
use viva_loadtest::aof::{self, RewriteWatch, Window};
use viva_loadtest::checkpoint;
use viva_loadtest::pace::{self, PacedRun};
use viva_loadtest::stats::Summary;
use viva_redis_store::{Connection, RedisConfig, RedisStore, Retention, codec};

/// Command-line options.
#[derive(Debug, Parser)]
struct Args {
    /// Redis to write to (never a production server: the bench leaves its keys behind).
    #[arg(long)]
    redis: String,
    /// Sessions the writes are spread over, round-robin.
    #[arg(long, default_value_t = 200)]
    sessions: usize,
    /// Writes issued per second.
    #[arg(long, default_value_t = 2000.0)]
    rate: f64,
    /// How long each of the two runs lasts.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// User of a real checkpoint to use as the template.
    #[arg(long, requires = "template_session")]
    template_user: Option<String>,
    /// Session of a real checkpoint to use as the template.
    #[arg(long, requires = "template_user")]
    template_session: Option<String>,
    /// Answered turns of the synthetic template (without `--template-*`).
    #[arg(long, default_value_t = 20)]
    synthetic_turns: usize,
    /// Seconds of unmeasured writes at the same rate before each measured run.
    #[arg(long, default_value_t = 1.0)]
    warmup: f64,
}

/// Lease the bench's claims take; longer than any run.
const LEASE_MS: u64 = 600_000;
/// How often Redis is asked whether an AOF rewrite is running.
const AOF_POLL: Duration = Duration::from_millis(20);

/// One bench session: its key, fencing token and latest checkpoint.
struct BenchSession {
    key: SessionKey,
    token: u64,
    checkpoint: Arc<SessionCheckpoint>,
}

/// Everything a run needs.
struct Bench {
    args: Args,
    conn: Connection,
    store: RedisStore,
    sessions: Vec<BenchSession>,
    pool: Vec<TurnCheckpoint>,
    /// The baseline's value size: the bytes of a session's first write.
    value_bytes: usize,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut bench = Bench::prepare(Args::parse()).await?;
    let (warmup, measured) = (
        bench.count(bench.args.warmup),
        bench.count(bench.args.seconds),
    );
    println!("baseline value bytes: {}", bench.value_bytes);
    bench.baseline(warmup).await;
    let watch = RewriteWatch::start(bench.conn.clone(), AOF_POLL);
    let baseline = bench.baseline(measured).await;
    let base = bench.print_run("SET (baseline)", &baseline, &watch.finish().await);
    bench.checkpoints(warmup, &mut Vec::new()).await;
    let watch = RewriteWatch::start(bench.conn.clone(), AOF_POLL);
    let mut bytes = Vec::new();
    let writes = bench.checkpoints(measured, &mut bytes).await;
    let summary = bench.print_run("checkpoint write", &writes, &watch.finish().await);
    let mean = bytes.iter().sum::<usize>() / bytes.len().max(1);
    let (min, max) = (bytes.iter().min(), bytes.iter().max());
    println!(
        "per-write bytes (every 10th write): mean {mean}, min {}, max {}",
        min.copied().unwrap_or_default(),
        max.copied().unwrap_or_default()
    );
    println!("{}", summary.ratios("checkpoint / SET", &base));
    Ok(())
}

impl Bench {
    async fn prepare(args: Args) -> anyhow::Result<Bench> {
        anyhow::ensure!(
            args.rate > 0.0 && args.seconds > 0.0 && args.warmup >= 0.0,
            "--rate and --seconds must be positive, --warmup not negative"
        );
        anyhow::ensure!(args.sessions > 0, "--sessions must be positive");
        let conn = Connection::open(&RedisConfig::standalone(&args.redis))
            .await
            .with_context(|| format!("connecting to {}", args.redis))?;
        let store = RedisStore::new(conn.clone(), Retention::default());
        let template = load_template(&store, &args).await?;
        let pool = checkpoint::turn_pool(&template);
        describe_template(&template, &pool);
        let sessions = claim_sessions(&store, &template, args.sessions).await?;
        let value_bytes = estimate_bytes(&template, &pool);
        Ok(Bench {
            args,
            conn,
            store,
            sessions,
            pool,
            value_bytes,
        })
    }

    /// Operations in `seconds` at the offered rate.
    fn count(&self, seconds: f64) -> u64 {
        (self.args.rate * seconds).round() as u64
    }

    /// `count` plain `SET`s of the baseline's value size, round-robin over one key per session.
    async fn baseline(&self, count: u64) -> PacedRun {
        let value = Arc::new(vec![b'x'; self.value_bytes]);
        let keys = self.sessions.len() as u64;
        pace::run(self.args.rate, count, |i| {
            let mut conn = self.conn.clone();
            let value = Arc::clone(&value);
            async move {
                redis::cmd("SET")
                    .arg(format!("viva-bench:set:{}", i % keys))
                    .arg(value.as_slice())
                    .query_async::<()>(&mut conn)
                    .await
            }
        })
        .await
    }

    /// `count` checkpoint writes, round-robin over the sessions; the payload size of every
    /// 10th goes to `bytes`.
    async fn checkpoints(&mut self, count: u64, bytes: &mut Vec<usize>) -> PacedRun {
        let (store, pool) = (&self.store, &self.pool);
        let len = self.sessions.len() as u64;
        let sessions = &mut self.sessions;
        pace::run(self.args.rate, count, |i| {
            let session = &mut sessions[(i % len) as usize];
            let next = Arc::make_mut(&mut session.checkpoint);
            let turns_from = checkpoint::advance(next, pool);
            if i % 10 == 0 {
                bytes.push(checkpoint::write_bytes(next, turns_from));
            }
            let (store, key, token) = (store.clone(), session.key.clone(), session.token);
            let snapshot = Arc::clone(&session.checkpoint);
            async move {
                let write = SessionWrite {
                    checkpoint: &snapshot,
                    token,
                    turns_from,
                    live: false,
                    lease: None,
                    head: &HeadUpdate::Whole,
                };
                store.save_session(&key, write).await
            }
        })
        .await
    }

    /// Prints a run's percentiles, rates, errors and issue lag, and its percentiles apart
    /// from and during the AOF rewrites in `windows`.
    fn print_run(&self, label: &str, run: &PacedRun, windows: &[Window]) -> Summary {
        let summary = Summary::of(&run.latencies);
        let lag = Summary::of(&run.lag);
        let first_error = run.first_error.as_deref().map(|e| format!(" (first: {e})"));
        println!("{}", summary.line(label));
        println!(
            "{label:<30} offered {:.0}/s (asked {:.0}/s), achieved {:.0}/s, errors {}{}; \
             issue lag p99 {:.2?}, max {:.2?}; AOF rewrites during the run: {}",
            run.offered_rate(),
            self.args.rate,
            run.achieved_rate(),
            run.errors,
            first_error.unwrap_or_default(),
            lag.p99,
            lag.max,
            windows.len(),
        );
        if !windows.is_empty() {
            let (outside, during) =
                aof::split(run.started, &run.issued_at, &run.latencies, windows);
            println!("{}", Summary::of(&outside).line("  outside AOF rewrites"));
            println!("{}", Summary::of(&during).line("  overlapping a rewrite"));
        }
        summary
    }
}

async fn load_template(store: &RedisStore, args: &Args) -> anyhow::Result<SessionCheckpoint> {
    let (Some(user), Some(session)) = (&args.template_user, &args.template_session) else {
        println!(
            "template: synthetic, {} answered turns",
            args.synthetic_turns
        );
        return Ok(checkpoint::synthetic(args.synthetic_turns));
    };
    let key = SessionKey::new(user, session);
    let template = store
        .load_session(&key)
        .await?
        .with_context(|| format!("no checkpoint of session {session} of user {user}"))?;
    println!("template: real checkpoint of session {session} (user {user})");
    Ok(template)
}

fn describe_template(template: &SessionCheckpoint, pool: &[TurnCheckpoint]) {
    let turn_bytes: usize = pool.iter().map(|t| codec::encode_turn(t).len()).sum();
    println!(
        "template: head {} bytes encoded, {} turns stored, {} applied event ids, mode {}; \
         appended turns average {} bytes",
        codec::encode_head(template).len(),
        template.transcript.len(),
        template.applied_event_ids.len(),
        template.state.mode().as_str(),
        turn_bytes / pool.len().max(1),
    );
}

/// The size of a session's first write, for the baseline's value.
fn estimate_bytes(template: &SessionCheckpoint, pool: &[TurnCheckpoint]) -> usize {
    let mut first = template.clone();
    let turns_from = checkpoint::advance(&mut first, pool);
    checkpoint::write_bytes(&first, turns_from)
}

async fn claim_sessions(
    store: &RedisStore,
    template: &SessionCheckpoint,
    count: usize,
) -> anyhow::Result<Vec<BenchSession>> {
    let run = SystemTime::now().duration_since(UNIX_EPOCH)?.as_millis();
    let mut sessions = Vec::with_capacity(count);
    for i in 0..count {
        let user = format!("ckpt-{i}");
        let session = format!("bench-{run}-{i}");
        let key = SessionKey::new(&user, &session);
        let claim = store
            .claim_session(&key, "bench", ClaimKind::Create, LEASE_MS)
            .await?
            .with_context(|| format!("session {session} exists already"))?;
        let checkpoint = Arc::new(checkpoint::for_session(template, &user, &session));
        sessions.push(BenchSession {
            key,
            token: claim.token,
            checkpoint,
        });
    }
    Ok(sessions)
}
