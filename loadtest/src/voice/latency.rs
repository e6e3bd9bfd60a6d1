//! End of speech → `transcript.final`, one session speaking at a microphone's pace (100 ms
//! frames every 100 ms): push-to-talk (`audio.commit` right after the speech), and the
//! server's own end of turn (silence streamed on until the thinking pause has passed).

use std::sync::Arc;
use std::time::Duration;

use super::client::{SessionSpec, VoiceSession};
use super::corpus::Clip;
use super::report::Failures;
use crate::ws::WsError;

/// How the turn ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnEnd {
    /// `audio.commit` right after the speech.
    PushToTalk,
    /// The server's voice activity detection, after the thinking pause.
    Pause(Duration),
}

/// One answered clip.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The clip's position in the corpus.
    pub clip: usize,
    /// End of speech (the last frame sent) → final.
    pub latency: Duration,
    /// What the server heard.
    pub text: String,
}

/// What a latency run measured.
#[derive(Debug, Clone)]
pub struct LatencyRun {
    /// How turns ended.
    pub end: TurnEnd,
    /// One per answered clip.
    pub samples: Vec<Sample>,
    /// `transcript.partial` events received.
    pub partials: usize,
    /// Failed clips.
    pub failures: Failures,
}

impl LatencyRun {
    /// The latencies alone.
    pub fn latencies(&self) -> Vec<Duration> {
        self.samples.iter().map(|s| s.latency).collect()
    }
}

/// Extra time, beyond the pause, a final may take in end-of-turn mode.
const FINAL_GRACE: Duration = Duration::from_secs(20);

/// Says the first `count` clips (cycling) one after another on each of `sessions` sessions
/// at once (session `k` starts `k` clips in, so they do not speak in step); the samples of
/// all of them together.
pub async fn run_concurrently(
    url: &str,
    clips: Arc<Vec<Clip>>,
    (count, sessions): (usize, usize),
    end: TurnEnd,
    spec: SessionSpec,
) -> LatencyRun {
    let runs = (0..sessions.max(1)).map(|k| {
        let rotated: Vec<Clip> = clips
            .iter()
            .cycle()
            .skip(k)
            .take(clips.len())
            .cloned()
            .collect();
        run(url, Arc::new(rotated), count, end, spec, k)
    });
    let mut merged = LatencyRun {
        end,
        samples: Vec::new(),
        partials: 0,
        failures: Failures::default(),
    };
    for one in futures_util::future::join_all(runs).await {
        merged.samples.extend(one.samples);
        merged.partials += one.partials;
        merged.failures.merge(one.failures);
    }
    merged
}

/// Says the first `count` clips (cycling) one after another on one session, as user
/// number `index` of its kind.
pub async fn run(
    url: &str,
    clips: Arc<Vec<Clip>>,
    count: usize,
    end: TurnEnd,
    spec: SessionSpec,
    index: usize,
) -> LatencyRun {
    let mut run = LatencyRun {
        end,
        samples: Vec::with_capacity(count),
        partials: 0,
        failures: Failures::default(),
    };
    let user = match end {
        TurnEnd::PushToTalk => format!("voice-ptt-{index}"),
        TurnEnd::Pause(_) => format!("voice-vad-{index}"),
    };
    let mut session = match VoiceSession::open(url, &user, spec).await {
        Ok(session) => session,
        Err(err) => {
            run.failures.record(format!("opening: {err}"));
            return run;
        }
    };
    for clip in clips.iter().cycle().take(count) {
        match answer(&mut session, clip, end).await {
            Ok(sample) => run.samples.push(sample),
            Err(err) => {
                run.failures.record(format!("clip {}: {err}", clip.index));
                if let Err(err) = session.reopen().await {
                    run.failures.record(format!("reopening: {err}"));
                    break;
                }
            }
        }
    }
    run.partials = session.partials;
    run
}

async fn answer(session: &mut VoiceSession, clip: &Clip, end: TurnEnd) -> Result<Sample, WsError> {
    let spoken = session.stream(&clip.samples).await?;
    let heard = match end {
        TurnEnd::PushToTalk => {
            session.commit().await?;
            session.wait_final().await?
        }
        TurnEnd::Pause(pause) => session.silence_until_final(pause + FINAL_GRACE).await?,
    };
    session.wait_question().await?;
    Ok(Sample {
        clip: clip.index,
        latency: heard.at.saturating_duration_since(spoken),
        text: heard.text,
    })
}
