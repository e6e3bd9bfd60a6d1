//! An open-loop driver: operation `i` is issued at `start + i / rate` whatever happened to the
//! earlier ones, each on its own task, so a slow operation never lowers the offered rate.
//!
//! Latency is measured from the moment an operation is issued (its future built, about to be
//! spawned) to its completion. Tokio's timer has millisecond resolution, so operations due
//! within the same millisecond are issued together; how late each was issued against its
//! schedule is reported as `lag`.

use std::fmt::Display;
use std::future::Future;
use std::time::{Duration, Instant};

use tokio::task::JoinSet;

/// What an open-loop run measured.
#[derive(Debug)]
pub struct PacedRun {
    /// When the run began.
    pub started: Instant,
    /// Latency of each successful operation.
    pub latencies: Vec<Duration>,
    /// When each successful operation was issued, after `started` (in `latencies`' order).
    pub issued_at: Vec<Duration>,
    /// How late each operation was issued against its schedule.
    pub lag: Vec<Duration>,
    /// Failed operations.
    pub errors: usize,
    /// The first failure, for the report.
    pub first_error: Option<String>,
    /// From the first issue to the last completion.
    pub wall: Duration,
    /// From the first issue to the last issue.
    pub issuing: Duration,
}

impl PacedRun {
    /// Successful operations per second over the whole run.
    pub fn achieved_rate(&self) -> f64 {
        self.latencies.len() as f64 / self.wall.as_secs_f64().max(f64::EPSILON)
    }

    /// Operations issued per second.
    pub fn offered_rate(&self) -> f64 {
        let issued = self.latencies.len() + self.errors;
        issued.saturating_sub(1) as f64 / self.issuing.as_secs_f64().max(f64::EPSILON)
    }

    fn new(started: Instant) -> PacedRun {
        PacedRun {
            started,
            latencies: Vec::new(),
            issued_at: Vec::new(),
            lag: Vec::new(),
            errors: 0,
            first_error: None,
            wall: Duration::ZERO,
            issuing: Duration::ZERO,
        }
    }

    fn record(&mut self, outcome: Outcome) {
        match outcome {
            (issued, latency, None) => {
                self.issued_at
                    .push(issued.saturating_duration_since(self.started));
                self.latencies.push(latency);
            }
            (_, _, Some(err)) => {
                self.errors += 1;
                self.first_error.get_or_insert(err);
            }
        }
    }
}

/// An operation's issue time, latency, and failure if it failed.
type Outcome = (Instant, Duration, Option<String>);

/// Issues `count` operations at `rate` per second; `op(i)` builds the `i`th.
pub async fn run<F, Fut, E>(rate: f64, count: u64, mut op: F) -> PacedRun
where
    F: FnMut(u64) -> Fut,
    Fut: Future<Output = Result<(), E>> + Send + 'static,
    E: Display,
{
    let start = Instant::now();
    let mut run = PacedRun::new(start);
    let mut tasks = JoinSet::new();
    for i in 0..count {
        let due = start + Duration::from_secs_f64(i as f64 / rate);
        if due > Instant::now() {
            tokio::time::sleep_until(due.into()).await;
        }
        let operation = op(i);
        let issued = Instant::now();
        run.lag.push(issued.saturating_duration_since(due));
        tasks.spawn(async move {
            let outcome = operation.await.err().map(|err| err.to_string());
            (issued, issued.elapsed(), outcome)
        });
        while let Some(done) = tasks.try_join_next() {
            run.record(done.unwrap_or_else(|err| (start, Duration::ZERO, Some(err.to_string()))));
        }
    }
    run.issuing = start.elapsed();
    while let Some(done) = tasks.join_next().await {
        run.record(done.unwrap_or_else(|err| (start, Duration::ZERO, Some(err.to_string()))));
    }
    run.wall = start.elapsed();
    run
}
