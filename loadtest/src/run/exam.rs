//! One simulated candidate's exams. It connects, starts a narrow-scope exam (or a
//! blueprint evaluation) and answers it — typed, or spoken at real-time pace — after think
//! times or on a paced schedule, until the exam completes or the run ends; then it ends it
//! and reads the result for the audit. The answers the server acked are kept for the audit.

use std::time::{Duration, Instant};

use serde_json::json;

use super::answer::{self, Answered};
use super::audit::{Matching, audit};
use super::user::{
    Live, Pace, Scenario, UserRun, UserSpec, code_of, fail_over, is_lost, read_result, start,
    take_over,
};
use crate::ws::{Socket, WsError, send, wait_for};

/// Runs one user until `spec.end`; never panics, every wait is bounded.
pub async fn run(spec: UserSpec) -> UserRun {
    let mut run = UserRun::default();
    let mut device = 0;
    let mut due = tokio::time::Instant::now();
    while Instant::now() < spec.end {
        spec.timeline.exams_open(1);
        let outcome = exam(&spec, &mut run, &mut device, &mut due).await;
        spec.timeline.exams_open(-1);
        if let Err(err) = outcome {
            run.error(&spec, &code_of(&err));
            run.failure = Some(format!("{}: {err}", spec.user));
            break;
        }
    }
    run
}

/// Waits until the next answer is due, or until `end`, whichever comes first.
async fn wait_turn(pace: Pace, due: &mut tokio::time::Instant, end: Instant) {
    let end = tokio::time::Instant::from_std(end);
    match pace {
        Pace::Think(think) => {
            tokio::time::sleep_until(end.min(tokio::time::Instant::now() + think)).await
        }
        Pace::Every(interval) => {
            let now = tokio::time::Instant::now();
            // Behind by more than a whole interval: start afresh rather than burst.
            *due = if *due + interval < now {
                now
            } else {
                *due + interval
            };
            tokio::time::sleep_until((*due).min(end)).await;
        }
    }
}

/// A server lets a client go after 45 s without a frame; a browser answers its heartbeat
/// pings, and a user thinking this long sends a `ping` event instead (which, unlike an
/// answer, lets an idle session hibernate).
const KEEP_ALIVE: Duration = Duration::from_secs(20);

/// Waits for `turn`, with a `ping` every [`KEEP_ALIVE`]. A ping that fails stops the pinging
/// and nothing else: the next step finds the socket lost, as it would have.
async fn keep_alive_until(turn: impl std::future::Future<Output = ()>, socket: &mut Socket) {
    let mut turn = std::pin::pin!(turn);
    let mut alive = true;
    loop {
        tokio::select! {
            _ = &mut turn => return,
            _ = tokio::time::sleep(KEEP_ALIVE), if alive => {
                let pinged = async {
                    send(socket, json!({"type": "ping"})).await?;
                    wait_for(socket, &["pong"]).await
                };
                alive = pinged.await.is_ok();
            }
        }
    }
}

/// One exam from start to result, audited.
async fn exam(
    spec: &UserSpec,
    run: &mut UserRun,
    device: &mut u64,
    due: &mut tokio::time::Instant,
) -> Result<(), WsError> {
    let mut live = start(spec, run, device).await?;
    run.exams += 1;
    let mut acked = Vec::new();
    let mut completed = false;
    while !completed && Instant::now() < spec.end {
        keep_alive_until(wait_turn(spec.pace, due, spec.end), &mut live.socket).await;
        if Instant::now() >= spec.end {
            break;
        }
        let n = run.answers + 1;
        let answered = if spec.scenario == Scenario::Voice {
            answer::speak(spec, run, &mut live, n).await?
        } else {
            answer::type_answer(spec, run, &mut live, n).await?
        };
        completed = match answered {
            Answered::Acked { text, completed } => {
                // A tutor's drill request carries no mark: acked, not audited.
                if !text.is_empty() {
                    acked.push(text);
                }
                run.answers += 1;
                completed
            }
            Answered::Completed => true,
        };
        if !completed && n.is_multiple_of(spec.every) && spec.scenario == Scenario::Takeover {
            live = take_over(spec, run, live).await?;
            completed = live.question["type"] == "session.completed";
        }
    }
    if !completed {
        end(spec, run, &mut live).await?;
    }
    *device = live.device + 1;
    // One socket per user at a time: the result is read after the exam's socket is closed.
    let session_id = live.session_id.clone();
    drop(live);
    let result = read_result(spec, &session_id).await?;
    let matching = if spec.scenario == Scenario::Voice {
        Matching::Whole
    } else {
        Matching::Mark
    };
    run.audit.merge(audit(&acked, &result, matching));
    Ok(())
}

/// `session.end`, and its `session.completed`; after a lost node, on another.
async fn end(spec: &UserSpec, run: &mut UserRun, live: &mut Live) -> Result<(), WsError> {
    let frame = json!({"type": "session.end", "event_id": "end"});
    let ended = async {
        send(&mut live.socket, frame.clone()).await?;
        wait_for(&mut live.socket, &["session.completed"]).await
    }
    .await;
    match ended {
        Ok(_) => Ok(()),
        Err(err) if is_lost(spec, &err) => {
            *live = fail_over(spec, run, live).await?;
            if live.question["type"] == "session.completed" {
                return Ok(());
            }
            send(&mut live.socket, frame).await?;
            wait_for(&mut live.socket, &["session.completed"])
                .await
                .map(drop)
        }
        Err(err) => Err(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_paced_user_keeps_its_schedule_and_never_bursts_to_catch_up() {
        let interval = Duration::from_secs(10);
        let far = Instant::now() + Duration::from_secs(3600);
        let start = tokio::time::Instant::now();
        let mut due = start;
        wait_turn(Pace::Every(interval), &mut due, far).await;
        assert_eq!(due, start + interval);
        // A slow answer (4 s) does not delay the next one: it stays on the schedule.
        tokio::time::sleep(Duration::from_secs(4)).await;
        wait_turn(Pace::Every(interval), &mut due, far).await;
        assert_eq!(due, start + 2 * interval);
        // Behind by more than an interval: the schedule restarts from now.
        tokio::time::sleep(Duration::from_secs(25)).await;
        let late = tokio::time::Instant::now();
        wait_turn(Pace::Every(interval), &mut due, far).await;
        assert_eq!(due, late);
    }

    #[tokio::test(start_paused = true)]
    async fn no_wait_outlasts_the_run() {
        let end = Instant::now() + Duration::from_secs(5);
        let before = tokio::time::Instant::now();
        let mut due = before;
        wait_turn(Pace::Think(Duration::from_secs(3600)), &mut due, end).await;
        let waited = before.elapsed();
        assert!(waited < Duration::from_secs(6), "{waited:?}");
    }
}
