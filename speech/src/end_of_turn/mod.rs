//! Smart Turn v3.2, Pipecat's end-of-turn model, run through ONNX Runtime on a thread of its
//! own behind a bounded queue: the `TurnJudge` the session submits a pause's audio to.
//!
//! - [`features`]: the model's input, Whisper-style log-mel features of the last 8 s.

pub mod features;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::Instant;

use ort::session::Session;
use ort::value::TensorRef;
use viva_core::voice::end_of_turn::{JudgeBusy, JudgeError, JudgeJob, TurnJudge};

use crate::onnx::{self, OnnxError};
use features::{Features, N_FRAMES, N_MELS};

/// Pauses that may wait for the model: a few sessions' worth; beyond it a pause goes
/// unjudged and its turn waits out the thinking pause.
pub const QUEUE: usize = 8;
/// The model's file name, as installed in the models folder.
pub const SMART_TURN_FILE: &str = "smart-turn-v3.2-cpu.onnx";

/// The model, loaded, with its feature extractor; one inference at a time on one thread.
pub struct SmartTurn {
    session: Session,
    features: Features,
}

impl std::fmt::Debug for SmartTurn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmartTurn").finish_non_exhaustive()
    }
}

impl SmartTurn {
    /// Loads ONNX Runtime from `runtime` (once per process) and the model from `model`, to
    /// run on the calling thread alone.
    pub fn load(runtime: &Path, model: &Path) -> Result<SmartTurn, OnnxError> {
        onnx::init_runtime(runtime)?;
        Ok(SmartTurn {
            session: onnx::session(runtime, model, 1)?,
            features: Features::new(),
        })
    }

    /// The probability that a turn whose audio so far is `audio` (PCM16 mono 16 kHz) is
    /// complete; only its last 8 s count.
    pub fn probability(&mut self, audio: &[i16]) -> Result<f32, OnnxError> {
        let samples: Vec<f32> = audio.iter().map(|&s| f32::from(s) / 32768.0).collect();
        self.probability_of(&samples)
    }

    /// The same for samples in [-1, 1].
    pub fn probability_of(&mut self, samples: &[f32]) -> Result<f32, OnnxError> {
        let run = |e: ort::Error| OnnxError::Run(e.to_string());
        let input = self.features.compute(samples);
        let tensor =
            TensorRef::from_array_view(([1usize, N_MELS, N_FRAMES], &input[..])).map_err(run)?;
        let outputs = self
            .session
            .run(ort::inputs!["input_features" => tensor])
            .map_err(run)?;
        let (_, probabilities) = outputs[0].try_extract_tensor::<f32>().map_err(run)?;
        probabilities
            .first()
            .copied()
            .ok_or_else(|| OnnxError::Run("the model gave no probability".to_owned()))
    }
}

/// [`SmartTurn`] on a thread of its own, fed by a bounded queue; the thread stops when this
/// is dropped and the queue has drained.
pub struct SmartTurnJudge {
    jobs: SyncSender<JudgeJob>,
    waiting: Arc<AtomicUsize>,
}

impl std::fmt::Debug for SmartTurnJudge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmartTurnJudge")
            .field("waiting", &self.waiting.load(Ordering::Relaxed))
            .finish()
    }
}

impl SmartTurnJudge {
    /// Loads the model (see [`SmartTurn::load`]) and starts its thread.
    pub fn start(runtime: &Path, model: &Path) -> Result<SmartTurnJudge, OnnxError> {
        let smart_turn = SmartTurn::load(runtime, model)?;
        let (jobs, queue) = sync_channel(QUEUE);
        let waiting = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&waiting);
        std::thread::Builder::new()
            .name("smart-turn".to_owned())
            .spawn(move || judge(smart_turn, &queue, &counter))
            .map_err(|e| OnnxError::Run(format!("cannot start the smart-turn thread: {e}")))?;
        Ok(SmartTurnJudge { jobs, waiting })
    }
}

impl TurnJudge for SmartTurnJudge {
    fn submit(&self, job: JudgeJob) -> Result<(), JudgeBusy> {
        let waiting = self.waiting.fetch_add(1, Ordering::Relaxed);
        match self.jobs.try_send(job) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.waiting.fetch_sub(1, Ordering::Relaxed);
                Err(JudgeBusy { waiting })
            }
        }
    }
}

/// The judge's thread: one job at a time until the queue closes.
fn judge(mut model: SmartTurn, queue: &Receiver<JudgeJob>, waiting: &AtomicUsize) {
    for job in queue {
        waiting.fetch_sub(1, Ordering::Relaxed);
        let started = Instant::now();
        let result = model
            .probability(&job.audio)
            .map_err(|e| JudgeError::Failed(e.to_string()));
        tracing::debug!(
            samples = job.audio.len(),
            ms = started.elapsed().as_millis() as u64,
            ?result,
            "pause judged"
        );
        (job.reply)(result);
    }
}
