//! The run's baseline: one extra connection to the first node sends a protocol-level `ping`
//! every 100 ms and times its `pong`, under the same load as the users. An answer's latency
//! over the ping's says how much of it is the exam's own work rather than the machine's
//! (sockets, scheduling, a busy CPU), which is what keeps figures comparable across noisy
//! runs.

use std::time::{Duration, Instant};

use serde_json::json;

use super::recorder::{Recorder, Step};
use crate::ws::{connect_url, send, wait_for};

/// Time between pings.
const EVERY: Duration = Duration::from_millis(100);

/// Pings `base` as `user` (development mode) or with `token` until `end`, recording the pings
/// begun within `measured`; a lost connection is reopened (the chaos scenario kills nodes), at most once per
/// ping period.
pub async fn run(
    base: String,
    auth: String,
    measured: std::ops::Range<Instant>,
    end: Instant,
) -> Recorder {
    let mut recorder = Recorder::new();
    let url = format!("{base}/v1/ws?{auth}");
    let mut seq = 0_u64;
    while Instant::now() < end {
        let Ok(mut socket) = connect_url(&url).await else {
            tokio::time::sleep(EVERY).await;
            continue;
        };
        let mut ticks = tokio::time::interval(EVERY);
        while Instant::now() < end {
            ticks.tick().await;
            seq += 1;
            let began = Instant::now();
            let ping = json!({"type": "ping", "event_id": format!("probe-{seq}")});
            if send(&mut socket, ping).await.is_err() {
                break;
            }
            if wait_for(&mut socket, &["pong"]).await.is_err() {
                break;
            }
            if measured.contains(&began) {
                recorder.record(Step::Ping, began.elapsed());
            }
        }
    }
    recorder
}
