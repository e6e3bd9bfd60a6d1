//! The neural voice: a Piper VITS model (en_US-joe-medium) run with ONNX Runtime. One
//! sentence is one call: phonemes from espeak-ng, ids from the voice's `.onnx.json`, inputs
//! `input` (int64 [1, n]), `input_lengths` ([1]) and `scales` (noise, length, noise_w), out
//! f32 audio at the voice's rate, on the ONNX Runtime library in the same folder.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use ort::session::Session;
use ort::value::Tensor;
use serde::Deserialize;
use viva_core::voice::synth::{SpeechSynth, SynthError, to_pcm16};

use super::phonemes::{PhonemeIds, phonemize};
use crate::onnx::{self, OnnxError};

/// The installed model's file name (`viva models install --model piper-joe`).
pub const MODEL_FILE: &str = "en_US-joe-medium.onnx";
/// Its configuration, beside it.
pub const CONFIG_FILE: &str = "en_US-joe-medium.onnx.json";
/// Threads one synthesis uses: one, so a speaking session costs at most one core while it
/// makes audio (about a tenth of the audio's length, docs/benchmarks.md).
const INTRA_THREADS: usize = 1;

/// Why a voice did not load. Terminal for this voice: the server falls back to festival.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VoiceLoadError {
    /// A file could not be read.
    #[error("reading {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The `.onnx.json` is not a Piper voice configuration.
    #[error("{path} is not a Piper voice configuration: {source}")]
    Config {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: serde_json::Error,
    },
    /// ONNX Runtime is not loaded or refused the model.
    #[error(transparent)]
    Onnx(#[from] OnnxError),
}

/// The parts of a Piper `.onnx.json` a synthesis needs.
#[derive(Debug, Clone, Deserialize)]
struct VoiceConfig {
    audio: AudioConfig,
    espeak: EspeakConfig,
    inference: Inference,
    phoneme_id_map: HashMap<String, Vec<i64>>,
}

#[derive(Debug, Clone, Deserialize)]
struct AudioConfig {
    sample_rate: u32,
}

#[derive(Debug, Clone, Deserialize)]
struct EspeakConfig {
    voice: String,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct Inference {
    noise_scale: f32,
    length_scale: f32,
    noise_w: f32,
}

/// One Piper voice loaded for one thread.
#[derive(Debug)]
pub struct PiperVoice {
    session: Session,
    ids: PhonemeIds,
    espeak_voice: String,
    rate: u32,
    scales: [f32; 3],
}

impl PiperVoice {
    /// Loads `dir/`[`MODEL_FILE`] with its [`CONFIG_FILE`].
    pub fn load(dir: &Path) -> Result<PiperVoice, VoiceLoadError> {
        let (model, config_path) = (dir.join(MODEL_FILE), dir.join(CONFIG_FILE));
        let text = std::fs::read_to_string(&config_path).map_err(|source| VoiceLoadError::Io {
            path: config_path.clone(),
            source,
        })?;
        let config: VoiceConfig =
            serde_json::from_str(&text).map_err(|source| VoiceLoadError::Config {
                path: config_path,
                source,
            })?;
        let session = onnx::session(&onnx::runtime_in(dir), &model, INTRA_THREADS)?;
        let Inference {
            noise_scale,
            length_scale,
            noise_w,
        } = config.inference;
        Ok(PiperVoice {
            session,
            ids: PhonemeIds::new(config.phoneme_id_map),
            espeak_voice: config.espeak.voice,
            rate: config.audio.sample_rate,
            scales: [noise_scale, length_scale, noise_w],
        })
    }

    /// The voice's audio for phoneme ids.
    fn run(&mut self, ids: Vec<i64>) -> Result<Vec<f32>, ort::Error> {
        let n = ids.len();
        let input = Tensor::from_array(([1usize, n], ids))?;
        let lengths = Tensor::from_array(([1usize], vec![n as i64]))?;
        let scales = Tensor::from_array(([3usize], self.scales.to_vec()))?;
        let outputs = self.session.run(ort::inputs![
            "input" => input,
            "input_lengths" => lengths,
            "scales" => scales,
        ])?;
        let (_, audio) = outputs[0].try_extract_tensor::<f32>()?;
        Ok(audio.to_vec())
    }
}

impl SpeechSynth for PiperVoice {
    fn name(&self) -> &'static str {
        "piper"
    }

    fn sample_rate(&self) -> u32 {
        self.rate
    }

    fn synthesize(&mut self, sentence: &str) -> Result<Vec<i16>, SynthError> {
        let phonemes = phonemize(&self.espeak_voice, sentence)?;
        let ids = self.ids.ids(&phonemes);
        let audio = self
            .run(ids)
            .map_err(|e| SynthError::Failed(format!("piper: {e}")))?;
        Ok(to_pcm16(&audio))
    }
}
