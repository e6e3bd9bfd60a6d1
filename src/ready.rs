//! `/readyz`: whether this node should get new traffic. `/healthz` says the process is alive
//! (always 200); `/readyz` answers 200 only when storage is reachable, the node accepts new
//! sessions and it is not draining, else 503 naming the checks that failed.
//!
//! The storage probe reads the new-session switch (a `GET` in Redis, a file read in the data
//! directory; its answer is the second check) and, for the data directory, writes and removes
//! a probe file. It is bounded by [`PROBE_TIMEOUT`], and its result is kept for
//! [`PROBE_FRESH_FOR`]: probes arriving meanwhile, or while one runs, share it, so a storm of
//! readiness requests costs storage at most one round trip per interval.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::Value;
use viva_actors::new_sessions::decide;
use viva_core::checkpoint::SwitchStore;

use crate::problem::Problem;

/// The longest a storage probe may take; a slower one counts as unreachable.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(1);
/// How long one probe's result answers later requests.
pub const PROBE_FRESH_FOR: Duration = Duration::from_secs(1);
/// `Retry-After` of a 503 from `/readyz`, in seconds.
pub const RETRY_AFTER_SECS: u64 = 5;

/// What readiness is decided on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checks {
    /// Storage answered the probe in time.
    pub storage: bool,
    /// New sessions may start here (the operator's switch, else the configuration).
    pub new_sessions: bool,
    /// Graceful shutdown has begun.
    pub draining: bool,
}

/// One check that can fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    Storage,
    NewSessions,
    Draining,
}

impl Check {
    /// Its name in the 503 body's `failed` list.
    pub fn name(self) -> &'static str {
        match self {
            Check::Storage => "storage",
            Check::NewSessions => "new_sessions",
            Check::Draining => "draining",
        }
    }
}

/// The rule: the checks that fail, in a fixed order; ready when none does.
pub fn failed(checks: Checks) -> Vec<Check> {
    let mut failed = Vec::new();
    if !checks.storage {
        failed.push(Check::Storage);
    }
    if !checks.new_sessions {
        failed.push(Check::NewSessions);
    }
    if checks.draining {
        failed.push(Check::Draining);
    }
    failed
}

/// The 503 a node that is not ready answers.
pub fn not_ready(failed: &[Check]) -> Problem {
    let names: Vec<&str> = failed.iter().map(|check| check.name()).collect();
    Problem::new(StatusCode::SERVICE_UNAVAILABLE, "not_ready", "Not ready")
        .detail(format!("failed checks: {}", names.join(", ")))
        .retry_after(RETRY_AFTER_SECS)
        .with("failed", Value::from(names))
}

/// What a probe found.
#[derive(Debug, Clone, Copy)]
struct Probed {
    storage: bool,
    new_sessions: bool,
}

/// One node's readiness: the probe, its cached result and the draining flag.
pub struct Readiness {
    switch: Arc<dyn SwitchStore>,
    accept_configured: bool,
    /// The data directory to write a probe file in (file store only).
    probe_dir: Option<PathBuf>,
    draining: AtomicBool,
    last: tokio::sync::Mutex<Option<(Instant, Probed)>>,
}

impl Readiness {
    /// Probes `switch` (where the new-session switch is stored); `probe_dir` is the data
    /// directory when sessions are kept there.
    pub fn new(
        switch: Arc<dyn SwitchStore>,
        accept_configured: bool,
        probe_dir: Option<PathBuf>,
    ) -> Readiness {
        Readiness {
            switch,
            accept_configured,
            probe_dir,
            draining: AtomicBool::new(false),
            last: tokio::sync::Mutex::new(None),
        }
    }

    /// Marks the node as draining: `/readyz` fails from now on.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::Relaxed);
    }

    /// The checks now, probing storage unless a fresh result is at hand.
    pub async fn checks(&self) -> Checks {
        let probed = self.probed().await;
        Checks {
            storage: probed.storage,
            new_sessions: probed.new_sessions,
            draining: self.draining.load(Ordering::Relaxed),
        }
    }

    /// The last probe's result while fresh, else a new one. The lock is held over the probe,
    /// so concurrent requests wait for one probe instead of starting their own.
    async fn probed(&self) -> Probed {
        let mut last = self.last.lock().await;
        if let Some((at, probed)) = *last
            && at.elapsed() < PROBE_FRESH_FOR
        {
            return probed;
        }
        let probed = self.probe().await;
        *last = Some((Instant::now(), probed));
        probed
    }

    async fn probe(&self) -> Probed {
        let switch = tokio::time::timeout(PROBE_TIMEOUT, self.switch.load_switch()).await;
        let (mut storage, new_sessions) = match switch {
            Ok(Ok(stored)) => (true, decide(stored.as_ref(), self.accept_configured).accept),
            Ok(Err(err)) => {
                tracing::warn!(%err, "readiness: storage probe failed");
                // Unknown while storage is down; only the storage check fails.
                (false, true)
            }
            Err(_) => {
                tracing::warn!(timeout = ?PROBE_TIMEOUT, "readiness: storage probe timed out");
                (false, true)
            }
        };
        if let Some(dir) = &self.probe_dir {
            let write = tokio::time::timeout(PROBE_TIMEOUT, write_probe_file(dir.clone()));
            if let Ok(Err(err)) | Err(err) = write.await.map_err(std::io::Error::other) {
                tracing::warn!(%err, dir = %dir.display(), "readiness: the data directory is not writable");
                storage = false;
            }
        }
        Probed {
            storage,
            new_sessions,
        }
    }
}

/// Writes and removes `<dir>/.readyz`.
async fn write_probe_file(dir: PathBuf) -> std::io::Result<()> {
    let path = dir.join(".readyz");
    tokio::fs::write(&path, b"ok").await?;
    tokio::fs::remove_file(&path).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_only_when_every_check_passes() {
        let check = |storage, new_sessions, draining, expected: &[Check]| {
            let checks = Checks {
                storage,
                new_sessions,
                draining,
            };
            assert_eq!(failed(checks), expected, "{checks:?}");
        };
        use Check::*;
        check(true, true, false, &[]);
        check(false, true, false, &[Storage]);
        check(true, false, false, &[NewSessions]);
        check(true, true, true, &[Draining]);
        check(false, false, true, &[Storage, NewSessions, Draining]);
        check(false, true, true, &[Storage, Draining]);
    }

    #[test]
    fn not_ready_names_the_failed_checks_and_asks_for_a_retry() {
        let problem = not_ready(&[Check::Storage, Check::Draining]);
        assert_eq!(problem.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(problem.retry_after, Some(RETRY_AFTER_SECS));
        let body = problem.body();
        assert_eq!(body["failed"], serde_json::json!(["storage", "draining"]));
        assert_eq!(body["code"], "not_ready");
    }
}
