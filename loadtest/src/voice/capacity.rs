//! Capacity: `sessions` concurrent voice sessions, each speaking a clip at a microphone's
//! pace, committing it (push-to-talk), then idle, so that speech is `duty` of its wall time.
//! Sessions start staggered across one cycle. The figure is end of speech → final; the
//! stepping of the session count and the server pinned to one core are the caller's.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::time::sleep_until;

use super::client::{SessionSpec, VoiceSession};
use super::corpus::Clip;
use super::report::Failures;
use crate::ws::WsError;

/// A session stops after this many cycles whatever the clock says.
const MAX_CYCLES: usize = 10_000;
/// A session gives up after this many failed clips.
const MAX_FAILURES: usize = 10;

/// One step of the capacity run.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// Concurrent sessions.
    pub sessions: usize,
    /// How long sessions keep starting new cycles.
    pub duration: Duration,
    /// Speech's share of each session's wall time (0 to 1).
    pub duty: f64,
}

/// What one step measured.
#[derive(Debug, Clone, Default)]
pub struct StepRun {
    /// End of speech → final, one per answered clip.
    pub latencies: Vec<Duration>,
    /// Seconds of speech sent.
    pub speech_seconds: f64,
    /// `transcript.partial` events received.
    pub partials: usize,
    /// Cycles that ran over their length (the final came too late to keep the duty cycle).
    pub overruns: usize,
    /// Failed clips.
    pub failures: Failures,
    /// From the first session's start to the last one's end.
    pub wall: Duration,
}

/// The session counts to try, up to `max`: 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, …
pub fn steps(max: usize) -> Vec<usize> {
    let mut counts = vec![1, 2, 3];
    let mut base = 4;
    while base <= max {
        counts.extend([base, base * 3 / 2]);
        base *= 2;
    }
    counts.retain(|&n| n <= max);
    counts.dedup();
    counts
}

/// The largest session count whose p95 met `target`, every smaller step meeting it too.
pub fn largest_within(p95_by_sessions: &[(usize, Duration)], target: Duration) -> Option<usize> {
    p95_by_sessions
        .iter()
        .take_while(|(_, p95)| *p95 <= target)
        .map(|(sessions, _)| *sessions)
        .last()
}

/// A cycle's length: the clip's speech stretched so it is `duty` of the cycle.
pub fn cycle_length(speech: Duration, duty: f64) -> Duration {
    speech.div_f64(duty.clamp(0.01, 1.0))
}

/// Runs one step against the server at `url`.
pub async fn run(url: &str, clips: Arc<Vec<Clip>>, step: Step, spec: SessionSpec) -> StepRun {
    let sessions = step.sessions.max(1);
    let mean_speech = clips.iter().map(Clip::seconds).sum::<f64>() / clips.len().max(1) as f64;
    let mean_cycle = cycle_length(Duration::from_secs_f64(mean_speech), step.duty);
    let start = Instant::now();
    let end = start + step.duration;
    let tasks: Vec<_> = (0..sessions)
        .map(|i| {
            let begin = start + mean_cycle.mul_f64(i as f64 / sessions as f64);
            let (url, clips) = (url.to_owned(), clips.clone());
            tokio::spawn(async move { session(url, clips, i, begin, end, step, spec).await })
        })
        .collect();
    let mut run = StepRun::default();
    for task in tasks {
        match task.await {
            Ok(one) => merge(&mut run, one),
            Err(err) => run.failures.record(format!("session task: {err}")),
        }
    }
    run.wall = start.elapsed();
    run
}

fn merge(run: &mut StepRun, one: StepRun) {
    run.latencies.extend(one.latencies);
    run.speech_seconds += one.speech_seconds;
    run.partials += one.partials;
    run.overruns += one.overruns;
    run.failures.merge(one.failures);
}

/// One session: opens at `begin`, then cycles until `end`.
async fn session(
    url: String,
    clips: Arc<Vec<Clip>>,
    index: usize,
    begin: Instant,
    end: Instant,
    step: Step,
    spec: SessionSpec,
) -> StepRun {
    let mut run = StepRun::default();
    sleep_until(begin.into()).await;
    let user = format!("voice-cap-{}-{index}", step.sessions);
    let mut voice = match VoiceSession::open(&url, &user, spec).await {
        Ok(voice) => voice,
        Err(err) => {
            run.failures.record(format!("opening: {err}"));
            return run;
        }
    };
    for cycle in 0..MAX_CYCLES {
        let cycle_start = Instant::now();
        if cycle_start >= end || run.failures.count >= MAX_FAILURES {
            break;
        }
        let clip = &clips[(index * 7 + cycle) % clips.len()];
        match answer(&mut voice, clip).await {
            Ok(latency) => run.latencies.push(latency),
            Err(err) => {
                run.failures.record(format!("clip {}: {err}", clip.index));
                if let Err(err) = voice.reopen().await {
                    run.failures.record(format!("reopening: {err}"));
                    break;
                }
            }
        }
        run.speech_seconds += clip.seconds();
        let next = cycle_start + cycle_length(Duration::from_secs_f64(clip.seconds()), step.duty);
        if Instant::now() > next {
            run.overruns += 1;
        }
        sleep_until(next.min(end).into()).await;
    }
    run.partials = voice.partials;
    run
}

/// Speaks `clip`, commits, waits for the final and the next question; returns end of
/// speech → final.
async fn answer(voice: &mut VoiceSession, clip: &Clip) -> Result<Duration, WsError> {
    let spoken = voice.stream(&clip.samples).await?;
    voice.commit().await?;
    let heard = voice.wait_final().await?;
    voice.wait_question().await?;
    Ok(heard.at.saturating_duration_since(spoken))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_grow_by_half_then_double() {
        assert_eq!(steps(1), vec![1]);
        assert_eq!(steps(8), vec![1, 2, 3, 4, 6, 8]);
        assert_eq!(steps(20), vec![1, 2, 3, 4, 6, 8, 12, 16]);
        assert_eq!(steps(32), vec![1, 2, 3, 4, 6, 8, 12, 16, 24, 32]);
    }

    #[test]
    fn the_largest_passing_step_stops_at_the_first_failure() {
        let s = Duration::from_millis;
        let steps = [(1, s(700)), (2, s(900)), (3, s(1200)), (4, s(950))];
        assert_eq!(largest_within(&steps, s(1000)), Some(2));
        assert_eq!(largest_within(&steps, s(600)), None);
    }

    #[test]
    fn a_thirty_percent_duty_cycle_stretches_speech() {
        let cycle = cycle_length(Duration::from_secs(3), 0.3);
        assert!((cycle.as_secs_f64() - 10.0).abs() < 1e-9);
    }
}
