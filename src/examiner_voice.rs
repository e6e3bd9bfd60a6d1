//! The examiner's voice at start-up: which engine speaks (`--tts`): Piper's en_US-joe voice
//! over ONNX Runtime when both are in the models folder, else festival, else none (devices
//! asking to hear the examiner then get text only, as before). Each synthesis thread loads
//! its engine when its first utterance comes: a server no device asks to speak loads none.

use std::path::PathBuf;
use std::sync::Arc;

use viva_core::voice::synth::ExaminerVoice;
use viva_speech::voice::festival::Festival;
use viva_speech::voice::piper::PiperVoice;
use viva_speech::voice::{MakeEngine, VoicePool, load_engine};

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

/// Starts the voice's threads; `None` for `--tts off`.
pub fn start(settings: &TtsSettings) -> Option<Arc<dyn ExaminerVoice>> {
    let dir = settings.models_dir.clone();
    let make: MakeEngine = match settings.engine {
        TtsEngine::Off => return None,
        TtsEngine::Auto => Arc::new(move || logged(load_engine(Some(&dir)))),
        TtsEngine::Piper => Arc::new(move || match PiperVoice::load(&dir) {
            Ok(voice) => logged(Some(Box::new(voice))),
            Err(err) => {
                tracing::warn!(%err, "Piper voice not loaded");
                logged(None)
            }
        }),
        TtsEngine::Festival => Arc::new(|| match Festival::load() {
            Ok(festival) => logged(Some(Box::new(festival))),
            Err(err) => {
                tracing::warn!(%err, "festival does not speak");
                logged(None)
            }
        }),
    };
    let threads = settings.threads;
    tracing::info!(engine = ?settings.engine, threads, "examiner's voice starting");
    Some(Arc::new(VoicePool::start(make, threads)))
}

/// Says which engine a thread loaded, or loudly that there is none.
fn logged(
    engine: Option<Box<dyn viva_core::voice::synth::SpeechSynth>>,
) -> Option<Box<dyn viva_core::voice::synth::SpeechSynth>> {
    match &engine {
        Some(engine) => tracing::info!(engine = engine.name(), "examiner's voice on"),
        None => tracing::warn!(
            "EXAMINER SILENT: no voice (`viva models install --model onnxruntime` and \
             `--model piper-joe`, or install festival); devices asking to hear it get text"
        ),
    }
    engine
}
