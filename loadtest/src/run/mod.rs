//! `viva-loadtest`'s engine: many simulated candidates against one or more server nodes,
//! started over a ramp-up, each running its scenario until the run's end, then merged into
//! one report with percentiles, throughput, errors by code, the zero-loss audit and the run
//! over time.
//!
//! - [`options`]: the knobs, from flags and a TOML scenario file.
//! - [`exam`]: one simulated candidate's exams (text exam, assessment, tutor, voice,
//!   takeover, reconnect, chaos), [`user`]: who it is and its connection, and [`answer`]:
//!   typing or speaking one answer.
//! - [`recorder`]: hdrhistogram latencies per step and errors by code.
//! - [`timeline`]: answers, latency, open exams and server RSS and CPU, per sample period.
//! - [`progress`]: the progress line on stderr every few seconds.
//! - [`cluster`]: the chaos scenario's nodes: started, one killed with SIGKILL, restarted.
//! - [`audit`]: every acked answer must be in the session's result exactly once.
//! - [`http`]: a small GET for results.
//! - [`report`]: the JSON report and the threshold check; [`html`]: the charts.

pub mod answer;
pub mod audit;
pub mod cluster;
pub mod exam;
pub mod html;
pub mod http;
pub mod options;
pub mod probe;
pub mod progress;
pub mod recorder;
pub mod report;
pub mod timeline;
pub mod user;

use std::sync::Arc;
use std::time::{Duration, Instant};

use audit::Audit;
use cluster::{Cluster, ClusterError};
use options::Options;
use recorder::Recorder;
use timeline::{Event, Sample, Timeline, Watched};
use user::{Pace, Scenario, UserRun, UserSpec};

use crate::voice::corpus::{self, Clip};

/// Everything a run measured.
#[derive(Debug, Default)]
pub struct RunResult {
    /// Merged latencies and errors.
    pub recorder: Recorder,
    /// Merged audit.
    pub audit: Audit,
    /// Answers acked in all.
    pub answers: u64,
    /// Exams started in all.
    pub exams: u64,
    /// Sessions resumed on another node after losing theirs.
    pub failovers: u64,
    /// Users that stopped early, and the first few reasons.
    pub failed_users: usize,
    /// Up to ten reasons users stopped early.
    pub failures: Vec<String>,
    /// From the first user's start to the last one's end.
    pub wall: Duration,
    /// The run over time.
    pub samples: Vec<Sample>,
    /// Nodes killed and restarted.
    pub events: Vec<Event>,
    /// The URLs the users drove (the cluster's, in a chaos run).
    pub urls: Vec<String>,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The chaos cluster did not start.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// The voice scenario's clips could not be made.
    #[error("voice clips: {0}")]
    Clips(String),
}

/// Runs the users the options describe and merges what they measured.
pub async fn run(options: &Options) -> Result<RunResult, RunError> {
    let watched = options
        .server_pids
        .iter()
        .map(|pid| Watched {
            name: format!("pid {pid}"),
            pid: Some(*pid),
        })
        .collect();
    let timeline = Arc::new(Timeline::new(watched));
    let clips = Arc::new(clips_for(options)?);
    let cluster = match options.scenario {
        Scenario::Chaos => Some(Cluster::start(&options.chaos, &timeline).await?),
        _ => None,
    };
    let urls = cluster
        .as_ref()
        .map_or_else(|| options.urls.clone(), Cluster::urls);
    let stop_sampling = tokio_util::sync::CancellationToken::new();
    let sampler = {
        let (timeline, stop) = (timeline.clone(), stop_sampling.clone());
        let every = options.sample_every;
        tokio::spawn(async move { timeline.sample(every, stop).await })
    };
    let progress = options.progress.map(|every| {
        let (timeline, stop) = (timeline.clone(), stop_sampling.clone());
        tokio::spawn(progress::report(timeline, every, stop))
    });
    let chaos = cluster.map(|cluster| {
        let (after, down) = (options.chaos.kill_after, options.chaos.restart_after);
        tokio::spawn(cluster.kill_and_restart(after, down, timeline.clone()))
    });
    let probe = spawn_probe(options, &urls);
    let mut result = run_users(options, &urls, &clips, &timeline).await;
    if let Ok(baseline) = probe.await {
        result.recorder.merge(&baseline);
    }
    stop_sampling.cancel();
    // ignore: a sampler that panicked leaves fewer samples, nothing else.
    let _ = sampler.await;
    if let Some(progress) = progress {
        // ignore: a progress printer that panicked printed fewer lines, nothing else.
        let _ = progress.await;
    }
    if let Some(chaos) = chaos
        && let Ok(cluster) = chaos.await
    {
        cluster.stop().await;
    }
    result.samples = timeline.samples();
    result.events = timeline.events();
    result.urls = urls;
    Ok(result)
}

/// Steps that begin this close to the run's end are not measured: the users' ending (each
/// ends its exam and reads its result, all at once) is a burst no steady load has.
pub const MEASURE_TAIL: Duration = Duration::from_secs(1);

/// When measured steps must have begun by: [`MEASURE_TAIL`] before `end`, unless the run is
/// too short to spare it.
fn measure_until(end: Instant, duration: Duration) -> Instant {
    if duration > 4 * MEASURE_TAIL {
        end - MEASURE_TAIL
    } else {
        end
    }
}

/// The ping baseline, on the first node, for as long as the users run.
fn spawn_probe(options: &Options, urls: &[String]) -> tokio::task::JoinHandle<Recorder> {
    let started = Instant::now();
    let end = started + options.ramp_up + options.duration;
    let measure_from = if options.skip_ramp_up {
        started + options.ramp_up
    } else {
        started
    };
    let user = format!("lt-{}-probe", options.seed);
    let auth = user::auth_query(options.token_for(&user).as_deref(), &user);
    let base = urls.first().cloned().unwrap_or_default();
    let window = measure_from..measure_until(end, options.duration);
    tokio::spawn(probe::run(base, auth, window, end))
}

fn clips_for(options: &Options) -> Result<Vec<Clip>, RunError> {
    if options.scenario != Scenario::Voice {
        return Ok(Vec::new());
    }
    corpus::load(&options.voice_corpus, None).map_err(|err| RunError::Clips(err.to_string()))
}

async fn run_users(
    options: &Options,
    urls: &[String],
    clips: &Arc<Vec<Clip>>,
    timeline: &Arc<Timeline>,
) -> RunResult {
    let started = Instant::now();
    let end = started + options.ramp_up + options.duration;
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..options.sessions {
        let mut spec = user_spec(options, index, end);
        spec.urls = rotate(urls, index);
        spec.clips = clips.clone();
        spec.timeline = timeline.clone();
        let delay = options
            .ramp_up
            .mul_f64(index as f64 / options.sessions.max(1) as f64);
        tasks.spawn(async move {
            tokio::time::sleep(delay).await;
            exam::run(spec).await
        });
    }
    let mut result = RunResult::default();
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok(user) => merge(&mut result, user),
            Err(err) => note_failure(&mut result, format!("a user task failed: {err}")),
        }
    }
    result.wall = started.elapsed();
    result
}

fn user_spec(options: &Options, index: usize, end: Instant) -> UserSpec {
    let user = format!("lt-{}-{index}", options.seed);
    let pace = match options.target_rate {
        Some(rate) => Pace::Every(Duration::from_secs_f64(options.sessions as f64 / rate)),
        None => Pace::Think(options.think_time),
    };
    UserSpec {
        token: options.token_for(&user),
        user,
        urls: Vec::new(),
        scenario: options.scenario,
        pace,
        end,
        measure_from: if options.skip_ramp_up {
            end - options.duration
        } else {
            end - options.duration - options.ramp_up
        },
        measure_until: measure_until(end, options.duration),
        every: options.every.max(1),
        task: options.task.clone(),
        assessment: options.assessment.clone(),
        course: options.course.clone(),
        clips: Arc::new(Vec::new()),
        timeline: Arc::new(Timeline::new(Vec::new())),
    }
}

/// The URLs starting at `index`'s node, so users spread over the nodes.
fn rotate(urls: &[String], index: usize) -> Vec<String> {
    let mut urls = urls.to_vec();
    if !urls.is_empty() {
        let len = urls.len();
        urls.rotate_left(index % len);
    }
    urls
}

fn merge(result: &mut RunResult, user: UserRun) {
    result.recorder.merge(&user.recorder);
    result.audit.merge(user.audit);
    result.answers += user.answers;
    result.exams += user.exams;
    result.failovers += user.failovers;
    if let Some(failure) = user.failure {
        note_failure(result, failure);
    }
}

fn note_failure(result: &mut RunResult, failure: String) {
    result.failed_users += 1;
    if result.failures.len() < 10 {
        result.failures.push(failure);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_spread_over_the_nodes() {
        let urls = vec!["a".to_owned(), "b".to_owned(), "c".to_owned()];
        assert_eq!(rotate(&urls, 0)[0], "a");
        assert_eq!(rotate(&urls, 4), ["b", "c", "a"]);
        assert!(rotate(&[], 3).is_empty());
    }

    #[test]
    fn the_last_second_of_a_run_is_not_measured_unless_the_run_is_short() {
        let end = Instant::now() + Duration::from_secs(100);
        assert_eq!(
            measure_until(end, Duration::from_secs(60)),
            end - MEASURE_TAIL
        );
        assert_eq!(measure_until(end, Duration::from_secs(3)), end);
    }
}
