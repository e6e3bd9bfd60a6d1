//! The in-process baseline: `workers` recognisers (whisper states over one model, or
//! Moonshine sessions), each on its own thread, decoding clips of the corpus with the very
//! call the server's pool makes per utterance (`Recogniser::recognise`). It gives word accuracy (each clip's first decode against its
//! text) and the raw throughput the server is compared with.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, OnceLock};
use std::time::{Duration, Instant};

use viva_core::voice::listener::spoken_text;
use viva_speech::Engine;
use viva_speech::stt::{Recogniser, Run};

use super::BenchError;
use super::corpus::Clip;
use super::words::Tally;

/// One decode.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The clip's position in the corpus.
    pub clip: usize,
    /// Wall time of the decode.
    pub took: Duration,
    /// The transcript, or why there was none.
    pub text: Result<String, String>,
}

/// What a raw run measured.
#[derive(Debug, Clone)]
pub struct RawRun {
    /// The model's short name (`tiny.en`, `base`).
    pub model: String,
    /// Decoding threads.
    pub workers: usize,
    /// Every timed decode, warm-ups excluded.
    pub decoded: Vec<Decoded>,
    /// From the first timed decode's start to the last one's end.
    pub wall: Duration,
    /// Seconds of audio decoded in the timed part.
    pub audio_seconds: f64,
}

impl RawRun {
    /// Timed decodes per second of wall time.
    pub fn clips_per_second(&self) -> f64 {
        self.decoded.len() as f64 / self.wall.as_secs_f64().max(f64::EPSILON)
    }

    /// Seconds of audio decoded per second of wall time.
    pub fn audio_per_second(&self) -> f64 {
        self.audio_seconds / self.wall.as_secs_f64().max(f64::EPSILON)
    }

    /// Word accuracy over each clip's first decode: of whisper's text as it is, and of the
    /// answer the server takes from it (`spoken_text`: annotations and a looping decode's
    /// repeated sentences dropped).
    pub fn tally(&self, clips: &[Clip]) -> (Tally, Tally) {
        let (mut decoded_tally, mut answered) = (Tally::default(), Tally::default());
        for clip in clips {
            if let Some(decoded) = self.first(clip.index) {
                let text = decoded.text.as_deref().unwrap_or_default();
                decoded_tally.add(clip.text, text);
                answered.add(clip.text, &spoken_text(text).unwrap_or_default());
            }
        }
        (decoded_tally, answered)
    }

    /// The first decode of clip `index`.
    pub fn first(&self, index: usize) -> Option<&Decoded> {
        self.decoded.iter().find(|d| d.clip == index)
    }

    /// Decodes that failed.
    pub fn failures(&self) -> usize {
        self.decoded.iter().filter(|d| d.text.is_err()).count()
    }
}

/// `ggml-tiny.en.bin` → `tiny.en`.
pub fn model_name(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    stem.strip_prefix("ggml-").unwrap_or(&stem).to_owned()
}

/// The short name of the engine's model: `tiny.en`, or `moonshine-tiny-en` (its folder).
pub fn engine_name(engine: &Engine) -> String {
    match engine {
        Engine::Whisper(path) => model_name(path),
        Engine::Moonshine(files) => model_name(&files.dir),
    }
}

/// Decodes `total` clips, cycling through `clips`, on `workers` threads, stopping early after
/// `limit`. Each thread first decodes one clip untimed (a warm-up).
pub fn run(
    engine: &Engine,
    clips: &[Clip],
    workers: usize,
    total: usize,
    limit: Duration,
) -> Result<RawRun, BenchError> {
    let workers = workers.max(1);
    let states = engine.recognisers(workers)?;
    let next = AtomicUsize::new(0);
    let barrier = Barrier::new(workers);
    let started = OnceLock::new();
    let pull = Pull {
        clips,
        total,
        limit,
        next: &next,
        barrier: &barrier,
        started: &started,
    };
    let outcomes: Vec<(Vec<Decoded>, Instant)> = std::thread::scope(|scope| {
        let threads: Vec<_> = states
            .into_iter()
            .enumerate()
            .map(|(index, state)| scope.spawn(move || pull.work(index, state)))
            .collect();
        threads.into_iter().map(|t| t.join()).collect::<Vec<_>>()
    })
    .into_iter()
    .collect::<Result<_, _>>()
    .map_err(|_| BenchError::Whisper("a decoding thread panicked".to_owned()))?;
    let start = started.get().copied().unwrap_or_else(Instant::now);
    let end = outcomes.iter().map(|(_, end)| *end).max().unwrap_or(start);
    let decoded: Vec<Decoded> = outcomes.into_iter().flat_map(|(d, _)| d).collect();
    let audio_seconds = decoded.iter().map(|d| clips[d.clip].seconds()).sum();
    Ok(RawRun {
        model: engine_name(engine),
        workers,
        decoded,
        wall: end.saturating_duration_since(start),
        audio_seconds,
    })
}

/// What the threads share: the clips, the bounds, the next clip to take and the start line.
#[derive(Clone, Copy)]
struct Pull<'a> {
    clips: &'a [Clip],
    total: usize,
    limit: Duration,
    next: &'a AtomicUsize,
    barrier: &'a Barrier,
    started: &'a OnceLock<Instant>,
}

impl Pull<'_> {
    /// One thread: a warm-up decode, the start line, then clips until none are left or time
    /// is up. Returns its decodes and when it finished.
    fn work(self, index: usize, mut state: Box<dyn Recogniser>) -> (Vec<Decoded>, Instant) {
        let abort = [Arc::new(AtomicBool::new(false))];
        let run = || Run {
            threads: 1,
            stops: &abort,
        };
        if let Some(clip) = self.clips.get(index % self.clips.len().max(1)) {
            // ignore: the warm-up is not measured.
            let _ = state.recognise(&clip.samples, None, run());
        }
        self.barrier.wait();
        let start = *self.started.get_or_init(Instant::now);
        let mut decoded = Vec::new();
        while !self.clips.is_empty() && start.elapsed() < self.limit {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            if k >= self.total {
                break;
            }
            let clip = &self.clips[k % self.clips.len()];
            let begun = Instant::now();
            let text = state.recognise(&clip.samples, None, run());
            decoded.push(Decoded {
                clip: clip.index,
                took: begun.elapsed(),
                text: text.map_err(|err| err.to_string()),
            });
        }
        (decoded, Instant::now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_names_drop_the_prefix_and_extension() {
        assert_eq!(model_name(Path::new("/m/ggml-tiny.en.bin")), "tiny.en");
        assert_eq!(model_name(Path::new("ggml-base.bin")), "base");
        assert_eq!(model_name(Path::new("custom.bin")), "custom");
    }

    #[test]
    fn rates_divide_by_the_wall_time() {
        let run = RawRun {
            model: "m".into(),
            workers: 2,
            decoded: vec![
                Decoded {
                    clip: 0,
                    took: Duration::from_millis(500),
                    text: Ok("a".into()),
                };
                4
            ],
            wall: Duration::from_secs(2),
            audio_seconds: 10.0,
        };
        assert!((run.clips_per_second() - 2.0).abs() < 1e-9);
        assert!((run.audio_per_second() - 5.0).abs() < 1e-9);
        assert_eq!(run.failures(), 0);
    }
}
