//! Speech to text: a bounded pool of decoding threads over one speech model, whisper (one
//! shared model) or Moonshine (a session pair per thread, see [`crate::moonshine`]), each
//! thread's engine behind [`Recogniser`].
//!
//! One job decodes one utterance (or the part of it heard so far, for a partial) on one
//! thread: whisper.cpp's own thread pool spins while it waits, so on few cores one thread per
//! utterance and several utterances in parallel beat several threads per utterance. A final
//! that finds other threads idle and nothing queued borrows their cores, so a lone turn is
//! decoded on several threads (see [`crate::slots`]). Each
//! worker owns a `WhisperState`; the model weights are shared. The encoder window is scaled
//! to the clip (never below 500 frames: shorter windows make tiny.en loop), the tokens per
//! segment are capped, and every job can be aborted. A final that finds every thread busy
//! preempts a running partial (see [`crate::slots`]). Partials are previews: one starts only
//! when a thread is idle (with several threads, one more stays idle for finals), no final is
//! waiting and the partial budget has credit (see [`crate::budget`]); otherwise it is skipped,
//! never queued behind work that matters. A speculative decode (a turn during its pause) is
//! admitted the same way without the credit check, and the session tries it again later.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use whisper_rs::{FullParams, SamplingStrategy};

use crate::metrics::SpeechMetrics;
use crate::model::Model;
pub use crate::model::{LoadError, MAX_PROMPT_TOKENS, prompt_tokens};
use crate::moonshine::{Moonshine, MoonshineFiles};
use viva_core::voice::{DecodeError, DecodeJob, DecodeKind, SpeechToText, SubmitError};

use crate::budget::PartialBudget;
use crate::queue::{JobQueue, QueueFull};
use crate::slots::Slots;

/// Samples per second of the audio the pool takes.
pub const SAMPLE_RATE: usize = 16_000;
/// The smallest encoder window used (frames of 20 ms).
pub const MIN_AUDIO_CTX: usize = 500;
/// The full 30 s encoder window.
pub const FULL_AUDIO_CTX: usize = 1500;

/// The encoder window for a clip of `samples`: scaled to its length, at least
/// [`MIN_AUDIO_CTX`], at most [`FULL_AUDIO_CTX`].
pub fn audio_ctx_for(samples: usize) -> usize {
    let scaled = samples * FULL_AUDIO_CTX / (30 * SAMPLE_RATE) + 64;
    scaled.clamp(MIN_AUDIO_CTX, FULL_AUDIO_CTX)
}

/// The token cap per segment for a clip of `samples`: about 5 tokens a second of speech
/// (fast speech is under 4 words a second), plus room for punctuation; never above 224.
pub fn token_cap_for(samples: usize) -> usize {
    let seconds = samples.div_ceil(SAMPLE_RATE);
    (seconds * 5 + 16).min(224)
}

/// Clips shorter than this are padded with silence (whisper rejects very short input).
const MIN_SAMPLES: usize = SAMPLE_RATE + SAMPLE_RATE / 10;

/// PCM16 to the f32 whisper takes, padded to at least [`MIN_SAMPLES`].
pub fn to_float(audio: &[i16]) -> Vec<f32> {
    crate::pcm::padded_float(audio, MIN_SAMPLES, usize::MAX)
}

/// How the pool is sized.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoolSettings {
    /// Decoding threads.
    pub workers: usize,
    /// Finished turns that may wait for a thread; more are refused as overloaded.
    pub final_capacity: usize,
    /// The share of decoding time partials may take (0 turns them off, 1 lets them use any
    /// idle thread).
    pub partial_share: f64,
    /// Whether a final that finds other threads idle borrows their cores (off when the
    /// cores are shared with other work, so each decode keeps to one).
    pub lend_idle_cores: bool,
}

/// The model a pool decodes with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Engine {
    /// A whisper.cpp ggml model file.
    Whisper(std::path::PathBuf),
    /// A Moonshine model folder and the ONNX Runtime library that runs it.
    Moonshine(MoonshineFiles),
}

impl Engine {
    /// What the engine is, for logs and metrics: `whisper` or `moonshine`.
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Whisper(_) => "whisper",
            Engine::Moonshine(_) => "moonshine",
        }
    }

    /// One recogniser per decoding thread (the pool's; the benchmark's in-process decoders).
    pub fn recognisers(&self, count: usize) -> Result<Vec<Box<dyn Recogniser>>, LoadError> {
        match self {
            Engine::Whisper(path) => {
                let model = Arc::new(Model::load(path)?);
                let whisper = |_| -> Result<Box<dyn Recogniser>, LoadError> {
                    let state = model.state()?;
                    Ok(Box::new(Whisper {
                        model: model.clone(),
                        state,
                    }))
                };
                (0..count).map(whisper).collect()
            }
            Engine::Moonshine(files) => {
                let fail = |err: crate::onnx::OnnxError| LoadError {
                    path: files.dir.display().to_string(),
                    reason: err.to_string(),
                };
                let vocab = Arc::new(Moonshine::vocab(&files.dir).map_err(fail)?);
                let moonshine = |_| -> Result<Box<dyn Recogniser>, LoadError> {
                    let loaded = Moonshine::load(files, vocab.clone()).map_err(fail)?;
                    Ok(Box::new(loaded))
                };
                (0..count).map(moonshine).collect()
            }
        }
    }

    /// Whether a decode can use more than one thread (whisper's can; a Moonshine session
    /// runs on the one it was made with).
    fn threads_scale(&self) -> bool {
        matches!(self, Engine::Whisper(_))
    }
}

/// What one decoding thread runs its jobs on.
pub trait Recogniser: Send + 'static {
    /// The text of one clip of PCM16 mono 16 kHz audio. `hint` is the text before the turn,
    /// for an engine that takes one (whisper's prompt); `run` says on how many threads, and
    /// what stops it.
    fn recognise(
        &mut self,
        audio: &[i16],
        hint: Option<&str>,
        run: Run<'_>,
    ) -> Result<String, DecodeError>;
}

/// A whisper decoding state and the model it was made from.
struct Whisper {
    model: Arc<Model>,
    state: whisper_rs::WhisperState,
}

impl Recogniser for Whisper {
    fn recognise(
        &mut self,
        audio: &[i16],
        hint: Option<&str>,
        run: Run<'_>,
    ) -> Result<String, DecodeError> {
        let prompt = hint.map_or_else(Vec::new, |hint| self.model.prompt_tokens(hint));
        decode_unless(&mut self.state, audio, &prompt, run)
    }
}

impl Recogniser for Moonshine {
    fn recognise(
        &mut self,
        audio: &[i16],
        _hint: Option<&str>,
        run: Run<'_>,
    ) -> Result<String, DecodeError> {
        self.transcribe(audio, run.stops)
    }
}

/// The decoding pool.
pub struct SpeechPool {
    queue: Arc<JobQueue<DecodeJob>>,
    slots: Arc<Slots>,
    budget: Arc<Mutex<PartialBudget>>,
    workers: usize,
    metrics: Arc<SpeechMetrics>,
}

impl SpeechPool {
    /// Loads the model and starts the decoding threads, which count into `metrics`.
    pub fn start(
        engine: &Engine,
        settings: PoolSettings,
        metrics: Arc<SpeechMetrics>,
    ) -> Result<SpeechPool, LoadError> {
        let fail = |reason: String| LoadError {
            path: engine.name().to_owned(),
            reason,
        };
        let workers = settings.workers.max(1);
        let recognisers = engine.recognisers(workers)?;
        let queue = Arc::new(JobQueue::new(settings.final_capacity.max(1), workers));
        let lend = settings.lend_idle_cores && engine.threads_scale();
        let slots = Arc::new(Slots::new(workers, lend));
        let budget = PartialBudget::new(settings.partial_share, workers, Instant::now());
        let budget = Arc::new(Mutex::new(budget));
        for (index, recogniser) in recognisers.into_iter().enumerate() {
            let worker = Worker {
                index,
                queue: queue.clone(),
                slots: slots.clone(),
                budget: budget.clone(),
                metrics: metrics.clone(),
            };
            std::thread::Builder::new()
                .name(format!("{}-{index}", engine.name()))
                .spawn(move || worker.run(recogniser))
                .map_err(|err| fail(format!("cannot start a decoding thread: {err}")))?;
        }
        Ok(SpeechPool {
            queue,
            slots,
            budget,
            workers,
            metrics,
        })
    }

    /// Decoding threads.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Whether a preview may start now: a thread is idle (and, with several, another stays
    /// idle for finals) and no final waits; a partial also needs credit left. A speculative
    /// decode does not: when its pause ends the turn it is the final, so it saves a decode
    /// rather than adding one (it is still charged, and partials wait for the credit).
    fn admits_preview(&self, kind: DecodeKind) -> bool {
        let credit =
            || kind == DecodeKind::Speculative || lock(&self.budget).allows(Instant::now());
        self.slots.has_room_for_partial() && self.queue.depth().0 == 0 && credit()
    }
}

fn lock(budget: &Mutex<PartialBudget>) -> std::sync::MutexGuard<'_, PartialBudget> {
    // The bucket is plain numbers: a panic elsewhere cannot leave it inconsistent.
    budget.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Drop for SpeechPool {
    fn drop(&mut self) {
        self.queue.close();
    }
}

impl SpeechToText for SpeechPool {
    fn submit(&self, job: DecodeJob) -> Result<(), SubmitError> {
        let is_final = job.kind == DecodeKind::Final;
        if !is_final && !self.admits_preview(job.kind) {
            self.metrics.partials_skipped.inc();
            return Err(SubmitError::PartialsFull);
        }
        self.queue
            .push(job, is_final)
            .map_err(|full| match full {
                QueueFull::Finals { waiting } => SubmitError::Overloaded { waiting },
                QueueFull::Partials => SubmitError::PartialsFull,
            })
            .inspect_err(|err| match err {
                SubmitError::Overloaded { .. } => self.metrics.overloaded.inc(),
                SubmitError::PartialsFull => self.metrics.partials_skipped.inc(),
            })?;
        if is_final && self.slots.make_room_for_final() {
            tracing::debug!("a final preempted a running partial");
        }
        Ok(())
    }

    fn depth(&self) -> (usize, usize) {
        self.queue.depth()
    }
}

/// One decoding thread.
struct Worker {
    index: usize,
    queue: Arc<JobQueue<DecodeJob>>,
    slots: Arc<Slots>,
    budget: Arc<Mutex<PartialBudget>>,
    metrics: Arc<SpeechMetrics>,
}

impl Worker {
    fn run(self, mut recogniser: Box<dyn Recogniser>) {
        while let Some(job) = self.queue.pop() {
            let started = Instant::now();
            let others_waiting = || self.queue.depth() != (0, 0);
            let begun = self.slots.begin(self.index, job.kind, others_waiting);
            let stops = [job.abort.clone(), begun.preempt];
            let run = Run {
                threads: begun.threads,
                stops: &stops,
            };
            let outcome = recogniser
                .recognise(&job.audio, job.hint.as_deref(), run)
                .map(|text| crate::loops::collapse_loops(&text));
            self.slots.end(self.index);
            let took = started.elapsed();
            self.metrics.decodes(job.kind).observe(took);
            if job.kind != DecodeKind::Final {
                lock(&self.budget).charge(took, Instant::now());
            }
            log_decode(&job, took, begun.threads, self.queue.depth(), &outcome);
            (job.reply)(outcome);
        }
    }
}

/// One line per decode with the queue depth behind it: at debug level, or at info while
/// finals are waiting (a backlog an operator should see).
fn log_decode(
    job: &DecodeJob,
    took: std::time::Duration,
    threads: usize,
    (finals_waiting, partials_waiting): (usize, usize),
    outcome: &Result<String, DecodeError>,
) {
    let audio_ms = job.audio.len() / 16;
    let decode_ms = took.as_millis() as u64;
    let failed = outcome.as_ref().err();
    if finals_waiting > 0 {
        tracing::info!(kind = ?job.kind, audio_ms, decode_ms, threads, finals_waiting, partials_waiting, ?failed, "decoded; finals are waiting");
    } else {
        tracing::debug!(kind = ?job.kind, audio_ms, decode_ms, threads, finals_waiting, partials_waiting, ?failed, "decoded");
    }
}

/// Runs whisper on one clip with the window, token cap and abort flag set.
pub fn decode(
    state: &mut whisper_rs::WhisperState,
    audio: &[i16],
    abort: &Arc<AtomicBool>,
) -> Result<String, DecodeError> {
    decode_unless(state, audio, &[], Run::alone(abort))
}

/// [`decode`] with `prompt` (from [`prompt_tokens`]) as the text before the clip.
pub fn decode_with_prompt(
    state: &mut whisper_rs::WhisperState,
    audio: &[i16],
    prompt: &[std::ffi::c_int],
    abort: &Arc<AtomicBool>,
) -> Result<String, DecodeError> {
    decode_unless(state, audio, prompt, Run::alone(abort))
}

/// [`decode`] on `threads` whisper threads, as a final that borrowed idle cores runs.
pub fn decode_on_threads(
    state: &mut whisper_rs::WhisperState,
    audio: &[i16],
    threads: usize,
    abort: &Arc<AtomicBool>,
) -> Result<String, DecodeError> {
    let run = Run {
        threads,
        ..Run::alone(abort)
    };
    decode_unless(state, audio, &[], run)
}

/// How one decode runs: its threads, and what stops it.
pub struct Run<'a> {
    /// Threads the decode may use.
    pub threads: usize,
    /// Set, any of them, to stop it.
    pub stops: &'a [Arc<AtomicBool>],
}

impl<'a> Run<'a> {
    /// One thread, stopped by `abort` only.
    fn alone(abort: &'a Arc<AtomicBool>) -> Run<'a> {
        Run {
            threads: 1,
            stops: std::slice::from_ref(abort),
        }
    }
}

/// [`decode_with_prompt`] on `run.threads` threads, stopped when any of `run.stops` is set.
fn decode_unless(
    state: &mut whisper_rs::WhisperState,
    audio: &[i16],
    prompt: &[std::ffi::c_int],
    run: Run<'_>,
) -> Result<String, DecodeError> {
    let Run { threads, stops } = run;
    let stopped = |stops: &[Arc<AtomicBool>]| stops.iter().any(|s| s.load(Ordering::Relaxed));
    if stopped(stops) {
        return Err(DecodeError::Aborted);
    }
    let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
    params.set_n_threads(threads.try_into().unwrap_or(1));
    params.set_language(Some("en"));
    params.set_no_context(true);
    params.set_no_timestamps(true);
    params.set_suppress_blank(true);
    params.set_print_progress(false);
    params.set_print_realtime(false);
    params.set_print_special(false);
    params.set_print_timestamps(false);
    params.set_audio_ctx(audio_ctx_for(audio.len()) as i32);
    params.set_max_tokens(token_cap_for(audio.len()) as i32);
    if !prompt.is_empty() {
        params.set_tokens(prompt);
    }
    let flags = stops.to_vec();
    // Pre-boxed: whisper-rs 0.16 misreads an unboxed closure here, and every run then
    // fails with GenericError(-6) (measured; see silverstein/minutes#951).
    let check: Box<dyn FnMut() -> bool> = Box::new(move || stopped(&flags));
    params.set_abort_callback_safe(check);
    let outcome = state.full(params, &to_float(audio));
    // An aborted run also reports an error: look at the flags first.
    if stopped(stops) {
        return Err(DecodeError::Aborted);
    }
    outcome.map_err(|err| DecodeError::Failed(err.to_string()))?;
    let mut text = String::new();
    for segment in state.as_iter() {
        let piece = segment
            .to_str_lossy()
            .map_err(|err| DecodeError::Failed(err.to_string()))?;
        text.push_str(&piece);
    }
    Ok(text.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_scales_with_the_clip_within_bounds() {
        let cases = [
            (0, 500),
            (SAMPLE_RATE, 500),
            (8 * SAMPLE_RATE, 500),
            (10 * SAMPLE_RATE, 564),
            (30 * SAMPLE_RATE, 1500),
            (60 * SAMPLE_RATE, 1500),
        ];
        for (samples, expected) in cases {
            assert_eq!(audio_ctx_for(samples), expected, "{samples} samples");
        }
    }

    #[test]
    fn the_token_cap_grows_with_the_clip_and_is_bounded() {
        assert_eq!(token_cap_for(1), 21);
        assert_eq!(token_cap_for(10 * SAMPLE_RATE), 66);
        assert_eq!(token_cap_for(600 * SAMPLE_RATE), 224);
    }

    #[test]
    fn short_clips_are_padded_and_scaled() {
        let samples = to_float(&[i16::MAX, i16::MIN, 0]);
        assert_eq!(samples.len(), MIN_SAMPLES);
        assert!((samples[0] - 1.0).abs() < 1e-4 && (samples[1] + 1.0).abs() < 1e-6);
        assert_eq!(to_float(&vec![0; 2 * SAMPLE_RATE]).len(), 2 * SAMPLE_RATE);
    }
}
