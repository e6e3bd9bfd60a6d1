//! The examiner's voice at start-up: which engine speaks (`--tts`): Piper's en_US-joe voice
//! over ONNX Runtime when both are in the models folder, else festival, else none (devices
//! asking to hear the examiner then get text only, as before).

use std::path::PathBuf;
use std::sync::Arc;

use viva_core::voice::synth::ExaminerVoice;
use viva_speech::voice::{VoicePool, load_engines};

/// Which engine speaks for the examiner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum TtsEngine {
    /// Piper when installed, else festival, else silent.
    #[default]
    Auto,
    /// Piper only.
    Piper,
    /// festival only.
    Festival,
    /// Silent.
    Off,
}

/// The examiner's voice, as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TtsSettings {
    /// Which engine.
    pub engine: TtsEngine,
    /// The folder holding Piper's voice and ONNX Runtime (`viva models install`).
    pub models_dir: PathBuf,
    /// Synthesis threads (each holds one engine).
    pub threads: usize,
}

/// Starts the voice, or says loudly why there is none.
pub fn start(settings: &TtsSettings) -> Option<Arc<dyn ExaminerVoice>> {
    let dir = &settings.models_dir;
    let piper = match settings.engine {
        TtsEngine::Off => return None,
        TtsEngine::Festival => None,
        TtsEngine::Auto | TtsEngine::Piper => {
            let runtime = viva_speech::onnx::runtime_in(dir);
            match viva_speech::onnx::init_runtime(&runtime) {
                Ok(()) => Some(dir.as_path()),
                Err(err) => {
                    tracing::warn!(%err, "no ONNX Runtime for Piper's voice");
                    None
                }
            }
        }
    };
    let mut engines = load_engines(piper, settings.threads);
    if settings.engine == TtsEngine::Piper {
        engines.retain(|engine| engine.name() == "piper");
    }
    let Some(pool) = VoicePool::start(engines) else {
        tracing::warn!(
            "EXAMINER SILENT: no voice (`viva models install --model onnxruntime` and \
             `--model piper-joe`, or install festival); devices asking to hear it get text"
        );
        return None;
    };
    let (engine, threads) = (
        viva_core::voice::synth::ExaminerVoice::engine(&pool),
        settings.threads,
    );
    tracing::info!(engine, threads, "examiner's voice on");
    Some(Arc::new(pool))
}
