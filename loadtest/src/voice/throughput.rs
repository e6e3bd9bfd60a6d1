//! Server throughput: `clients` sessions, each in a closed loop — wait for a question, send a
//! clip as fast as the socket takes it, `audio.commit`, wait for `transcript.final` — taking
//! clips from one shared counter, so the server decodes the same clips as the raw baseline.
//! Every client first answers one clip untimed (a warm-up); the clock starts when all have.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Barrier;

use super::client::{SessionSpec, VoiceSession};
use super::corpus::Clip;
use super::report::Failures;

/// A client gives up after this many failed clips.
const MAX_FAILURES: usize = 10;

/// What a throughput run measured.
#[derive(Debug, Clone)]
pub struct ThroughputRun {
    /// Concurrent clients.
    pub clients: usize,
    /// Clips answered with a final, with their commit → final time.
    pub finals: Vec<(usize, Duration)>,
    /// Seconds of audio in those clips.
    pub audio_seconds: f64,
    /// From the start line to the last client's end.
    pub wall: Duration,
    /// `transcript.partial` events received in the timed part.
    pub partials: usize,
    /// Failed clips.
    pub failures: Failures,
}

impl ThroughputRun {
    /// Finals per second of wall time.
    pub fn clips_per_second(&self) -> f64 {
        self.finals.len() as f64 / self.wall.as_secs_f64().max(f64::EPSILON)
    }

    /// Seconds of audio transcribed per second of wall time.
    pub fn audio_per_second(&self) -> f64 {
        self.audio_seconds / self.wall.as_secs_f64().max(f64::EPSILON)
    }
}

/// What the clients share.
struct Shared {
    url: String,
    clients: usize,
    clips: Arc<Vec<Clip>>,
    spec: SessionSpec,
    total: usize,
    limit: Duration,
    next: AtomicUsize,
    barrier: Barrier,
    start: std::sync::OnceLock<Instant>,
}

/// One client's share of the run.
#[derive(Default)]
struct ClientRun {
    finals: Vec<(usize, Duration)>,
    partials: usize,
    failures: Failures,
    end: Option<Instant>,
}

/// Runs `clients` clients until `total` clips are answered or `limit` has passed.
pub async fn run(
    url: &str,
    clips: Arc<Vec<Clip>>,
    clients: usize,
    total: usize,
    limit: Duration,
    spec: SessionSpec,
) -> ThroughputRun {
    let clients = clients.max(1);
    let shared = Arc::new(Shared {
        url: url.to_owned(),
        clients,
        clips: clips.clone(),
        spec,
        total,
        limit,
        next: AtomicUsize::new(0),
        barrier: Barrier::new(clients),
        start: std::sync::OnceLock::new(),
    });
    let tasks: Vec<_> = (0..clients)
        .map(|i| tokio::spawn(client(shared.clone(), i)))
        .collect();
    let mut runs = Vec::with_capacity(clients);
    let mut failures = Failures::default();
    for task in tasks {
        match task.await {
            Ok(run) => runs.push(run),
            Err(err) => failures.record(format!("client task: {err}")),
        }
    }
    gather(&shared, &clips, runs, failures)
}

fn gather(
    shared: &Shared,
    clips: &[Clip],
    runs: Vec<ClientRun>,
    mut failures: Failures,
) -> ThroughputRun {
    let start = shared.start.get().copied().unwrap_or_else(Instant::now);
    let end = runs.iter().filter_map(|r| r.end).max().unwrap_or(start);
    let mut finals = Vec::new();
    let mut partials = 0;
    for run in runs {
        finals.extend(run.finals);
        partials += run.partials;
        failures.merge(run.failures);
    }
    let audio_seconds = finals.iter().map(|(clip, _)| clips[*clip].seconds()).sum();
    ThroughputRun {
        clients: shared.clients,
        finals,
        audio_seconds,
        wall: end.saturating_duration_since(start),
        partials,
        failures,
    }
}

/// One client: open, warm up, wait at the start line, then clips until none are left.
async fn client(shared: Arc<Shared>, index: usize) -> ClientRun {
    let mut run = ClientRun::default();
    let user = format!("voice-tp-{index}");
    let session = match VoiceSession::open(&shared.url, &user, shared.spec).await {
        Ok(mut session) => {
            let clip = &shared.clips[index % shared.clips.len()];
            match answer(&mut session, clip).await {
                Ok(_) => Some(session),
                Err(err) => {
                    run.failures.record(format!("warm-up: {err}"));
                    None
                }
            }
        }
        Err(err) => {
            run.failures.record(format!("opening: {err}"));
            None
        }
    };
    shared.barrier.wait().await;
    let start = *shared.start.get_or_init(Instant::now);
    let Some(mut session) = session else {
        return run;
    };
    session.partials = 0;
    clips_until_done(&shared, start, &mut session, &mut run).await;
    run.partials = session.partials;
    run.end = Some(Instant::now());
    run
}

async fn clips_until_done(
    shared: &Shared,
    start: Instant,
    session: &mut VoiceSession,
    run: &mut ClientRun,
) {
    while start.elapsed() < shared.limit && run.failures.count < MAX_FAILURES {
        let k = shared.next.fetch_add(1, Ordering::Relaxed);
        if k >= shared.total {
            return;
        }
        let clip = &shared.clips[k % shared.clips.len()];
        match answer(session, clip).await {
            Ok(took) => run.finals.push((clip.index, took)),
            Err(err) => {
                run.failures.record(format!("clip {}: {err}", clip.index));
                if let Err(err) = session.reopen().await {
                    run.failures.record(format!("reopening: {err}"));
                    return;
                }
            }
        }
    }
}

/// Sends `clip` fast, commits, waits for the final and the next question; returns the
/// commit → final time.
async fn answer(session: &mut VoiceSession, clip: &Clip) -> Result<Duration, crate::ws::WsError> {
    session.send_fast(&clip.samples).await?;
    let committed = session.commit().await?;
    let heard = session.wait_final().await?;
    session.wait_question().await?;
    Ok(heard.at.saturating_duration_since(committed))
}
