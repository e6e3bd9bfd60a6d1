//! `viva-loadtest`'s engine: many simulated candidates against one or more server nodes,
//! started over a ramp-up, each running its scenario until the run's end, then merged into
//! one report with percentiles, throughput, errors by code and the zero-loss audit.
//!
//! - [`options`]: the knobs, from flags and a TOML scenario file.
//! - [`user`]: one simulated candidate (text exam, takeover, reconnect).
//! - [`recorder`]: hdrhistogram latencies per step and errors by code.
//! - [`audit`]: every acked answer must be in the session's result exactly once.
//! - [`http`]: a small GET for results.
//! - [`report`]: the JSON report and the threshold check.

pub mod audit;
pub mod http;
pub mod options;
pub mod recorder;
pub mod report;
pub mod user;

use std::time::{Duration, Instant};

use audit::Audit;
use options::Options;
use recorder::Recorder;
use user::{UserRun, UserSpec};

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
    /// Users that stopped early, and the first few reasons.
    pub failed_users: usize,
    /// Up to ten reasons users stopped early.
    pub failures: Vec<String>,
    /// From the first user's start to the last one's end.
    pub wall: Duration,
}

/// Runs the users the options describe and merges what they measured.
pub async fn run(options: &Options) -> RunResult {
    let started = Instant::now();
    let end = started + options.ramp_up + options.duration;
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..options.sessions {
        let spec = user_spec(options, index, end);
        let delay = options
            .ramp_up
            .mul_f64(index as f64 / options.sessions.max(1) as f64);
        tasks.spawn(async move {
            tokio::time::sleep(delay).await;
            user::run(spec).await
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
    UserSpec {
        token: options.token_for(&user),
        user,
        urls: rotate(&options.urls, index),
        scenario: options.scenario,
        think: options.think_time,
        end,
        every: options.every.max(1),
        task: options.task.clone(),
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
}
