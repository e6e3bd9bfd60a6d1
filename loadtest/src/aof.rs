//! Watches a Redis server's AOF rewrites by polling `INFO persistence`, so the latency
//! samples taken while one ran (a fork, then a child writing the whole dataset to the same
//! disk the fsyncs wait on) can be told apart from the rest.

use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use viva_redis_store::Connection;

/// A span that covers one rewrite: from the last poll that saw none running to the first
/// poll that saw it finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Start of the span.
    pub from: Instant,
    /// End of the span.
    pub to: Instant,
}

/// A running watch; [`RewriteWatch::finish`] stops it and returns the rewrite windows.
pub struct RewriteWatch {
    stop: oneshot::Sender<()>,
    task: JoinHandle<Vec<Window>>,
}

impl RewriteWatch {
    /// Polls `conn` every `every` until finished.
    pub fn start(conn: Connection, every: Duration) -> RewriteWatch {
        let (stop, mut stopped) = oneshot::channel();
        let task = tokio::spawn(async move {
            let mut windows = Vec::new();
            let mut quiet_since = Instant::now();
            let mut open: Option<Instant> = None;
            loop {
                tokio::select! {
                    _ = &mut stopped => break,
                    _ = tokio::time::sleep(every) => {}
                }
                let now = Instant::now();
                match (rewriting(&conn).await, open) {
                    (Some(true), None) => open = Some(quiet_since),
                    (Some(false), Some(from)) => {
                        windows.push(Window { from, to: now });
                        open = None;
                    }
                    _ => {}
                }
                if open.is_none() {
                    quiet_since = now;
                }
            }
            if let Some(from) = open {
                windows.push(Window {
                    from,
                    to: Instant::now(),
                });
            }
            windows
        });
        RewriteWatch { stop, task }
    }

    /// Stops polling; the windows seen (none if the watch failed).
    pub async fn finish(self) -> Vec<Window> {
        // ignore: the task may have ended already; its windows are still returned.
        let _ = self.stop.send(());
        self.task.await.unwrap_or_default()
    }
}

/// Whether an AOF rewrite is running; `None` when Redis could not be asked.
async fn rewriting(conn: &Connection) -> Option<bool> {
    let info: String = redis::cmd("INFO")
        .arg("persistence")
        .query_async(&mut conn.clone())
        .await
        .ok()?;
    info.lines()
        .find_map(|line| line.strip_prefix("aof_rewrite_in_progress:"))
        .map(|flag| flag.trim() == "1")
}

/// Latencies of operations that overlapped no window, and of those that overlapped one.
/// `issued_at` is each operation's issue time after `started`.
pub fn split(
    started: Instant,
    issued_at: &[Duration],
    latencies: &[Duration],
    windows: &[Window],
) -> (Vec<Duration>, Vec<Duration>) {
    let mut outside = Vec::new();
    let mut during = Vec::new();
    for (issued, latency) in issued_at.iter().zip(latencies) {
        let (from, to) = (started + *issued, started + *issued + *latency);
        match windows.iter().any(|w| from <= w.to && w.from <= to) {
            true => during.push(*latency),
            false => outside.push(*latency),
        }
    }
    (outside, during)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_overlapping_a_window_are_set_apart() {
        let started = Instant::now();
        let ms = Duration::from_millis;
        let windows = [Window {
            from: started + ms(100),
            to: started + ms(200),
        }];
        let issued = [ms(10), ms(95), ms(150), ms(201), ms(300)];
        let latencies = [ms(1), ms(10), ms(1), ms(1), ms(1)];
        let (outside, during) = split(started, &issued, &latencies, &windows);
        assert_eq!(outside, [ms(1), ms(1), ms(1)]);
        assert_eq!(during, [ms(10), ms(1)]);
    }
}
