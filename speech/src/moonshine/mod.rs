//! Moonshine tiny-en (Useful Sensors, MIT): a speech-to-text model whose encoder runs on the
//! audio as long as it is, so a short answer costs little (whisper's encoder needs a window
//! of at least 10 s whatever was said). Run through ONNX Runtime ([`crate::onnx`]) from the
//! `.ort` files PyPI's `moonshine-voice` wheel carries: the encoder once, then the merged
//! decoder greedily, token by token, with its key/value cache fed back.
//!
//! One [`Moonshine`] per decoding thread: a session runs one inference at a time.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ort::session::{Session, SessionInputValue};
use ort::value::{DynValue, Tensor};
use viva_core::voice::DecodeError;

use crate::onnx::{self, OnnxError};

mod vocab;

pub use vocab::{Vocab, VocabError};

/// The folder `viva models install --model moonshine-tiny-en` makes in the models folder.
pub const MOONSHINE_DIR: &str = "moonshine-tiny-en";
/// The encoder's file in a Moonshine model folder.
pub const ENCODER_FILE: &str = "encoder_model.ort";
/// The merged decoder's file.
pub const DECODER_FILE: &str = "decoder_model_merged.ort";
/// The vocabulary's file.
pub const TOKENIZER_FILE: &str = "tokenizer.json";

/// Decoder layers of tiny-en, and the shape of each cached key or value.
const LAYERS: usize = 6;
const KV_HEADS: usize = 8;
const HEAD_DIM: usize = 36;
/// The first token the decoder is given, and the one that ends the text.
const START_TOKEN: u32 = 1;
const END_TOKEN: u32 = 2;
const SAMPLE_RATE: usize = 16_000;
/// Moonshine takes 0.1 s to 64 s: shorter clips are padded with silence, longer cut.
const MIN_SAMPLES: usize = SAMPLE_RATE / 10 + 1;
const MAX_SAMPLES: usize = 64 * SAMPLE_RATE - 1;

/// The most tokens a clip of `samples` may decode to: about 6 a second (fast speech is under
/// 4 words a second), plus room for punctuation. A model looping on noise stops there.
pub fn token_cap_for(samples: usize) -> usize {
    samples.div_ceil(SAMPLE_RATE) * 6 + 10
}

/// Where a Moonshine model's three files are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoonshineFiles {
    /// The folder holding [`ENCODER_FILE`], [`DECODER_FILE`] and [`TOKENIZER_FILE`].
    pub dir: PathBuf,
    /// ONNX Runtime's shared library.
    pub runtime: PathBuf,
}

/// One thread's Moonshine: its two sessions and the vocabulary.
pub struct Moonshine {
    encoder: Session,
    decoder: Session,
    vocab: Arc<Vocab>,
}

impl Moonshine {
    /// Loads the model in `files` on one intra-op thread, sharing `vocab`.
    pub fn load(files: &MoonshineFiles, vocab: Arc<Vocab>) -> Result<Moonshine, OnnxError> {
        let session = |name: &str| onnx::session(&files.runtime, &files.dir.join(name), 1);
        Ok(Moonshine {
            encoder: session(ENCODER_FILE)?,
            decoder: session(DECODER_FILE)?,
            vocab,
        })
    }

    /// Reads the vocabulary in `dir`.
    pub fn vocab(dir: &Path) -> Result<Vocab, OnnxError> {
        let path = dir.join(TOKENIZER_FILE);
        let failed = |detail: String| OnnxError::Model {
            path: path.clone(),
            detail,
        };
        let json = std::fs::read_to_string(&path).map_err(|err| failed(err.to_string()))?;
        Vocab::from_json(&json).map_err(|err| failed(err.to_string()))
    }

    /// The text of one clip of PCM16 mono 16 kHz audio; stops early when any of `stops` is set.
    pub fn transcribe(
        &mut self,
        audio: &[i16],
        stops: &[Arc<AtomicBool>],
    ) -> Result<String, DecodeError> {
        let stopped = || stops.iter().any(|s| s.load(Ordering::Relaxed));
        if stopped() {
            return Err(DecodeError::Aborted);
        }
        let samples = to_float(audio);
        let cap = token_cap_for(samples.len());
        let encoded = self.encode(&samples).map_err(failed)?;
        let mut step = Step::first().map_err(failed)?;
        let mut tokens = Vec::new();
        while tokens.len() < cap {
            if stopped() {
                return Err(DecodeError::Aborted);
            }
            let next = self.next_token(&mut step, &encoded).map_err(failed)?;
            if next == END_TOKEN {
                break;
            }
            tokens.push(next);
        }
        Ok(self.vocab.decode(&tokens).trim().to_owned())
    }

    /// The encoder's hidden states for the clip.
    fn encode(&mut self, samples: &[f32]) -> ort::Result<Encoded> {
        let length = samples.len();
        // Every sample is audio: made once per clip, for the encoder and each decoder step.
        let mask = Tensor::from_array(([1, length], vec![1i64; length]))?.into_dyn();
        let mut outputs = self.encoder.run(ort::inputs![
            "input_values" => Tensor::from_array(([1, length], samples.to_vec()))?,
            "attention_mask" => &mask,
        ])?;
        let hidden = outputs
            .remove("last_hidden_state")
            .ok_or_else(|| ort::Error::new("the encoder gave no last_hidden_state"))?;
        Ok(Encoded { hidden, mask })
    }

    /// Runs the decoder one step: returns the likeliest next token and keeps the cache.
    fn next_token(&mut self, step: &mut Step, encoded: &Encoded) -> ort::Result<u32> {
        let mut inputs: Vec<(Cow<'_, str>, SessionInputValue<'_>)> = ort::inputs![
            "input_ids" => Tensor::from_array(([1usize, 1], vec![i64::from(step.token)]))?,
            "encoder_attention_mask" => &encoded.mask,
            "encoder_hidden_states" => &encoded.hidden,
            "use_cache_branch" => Tensor::from_array(([1usize], vec![step.cached]))?,
        ];
        for (name, value) in cache_names("past_key_values").zip(&step.cache) {
            inputs.push((name.into(), value.into()));
        }
        let mut outputs = self.decoder.run(inputs)?;
        let (shape, logits) = outputs["logits"].try_extract_tensor::<f32>()?;
        let vocab = usize::try_from(shape.last().copied().unwrap_or(1)).unwrap_or(1);
        let next = argmax(&logits[logits.len().saturating_sub(vocab)..]);
        for (slot, name) in step.cache.iter_mut().zip(cache_names("present")) {
            // The encoder's keys and values are made on the first step; later steps keep them.
            if step.cached && name.contains(".encoder.") {
                continue;
            }
            if let Some(value) = outputs.remove(name.as_str()) {
                *slot = value;
            }
        }
        step.cached = true;
        step.token = next;
        Ok(next)
    }
}

/// The encoder's output for one clip, and the clip's attention mask.
struct Encoded {
    hidden: DynValue,
    mask: DynValue,
}

/// The decoder's state between steps.
struct Step {
    token: u32,
    cached: bool,
    cache: Vec<DynValue>,
}

impl Step {
    /// Before the first step: the start token and a placeholder cache (that step ignores it).
    fn first() -> ort::Result<Step> {
        let placeholder = || -> ort::Result<DynValue> {
            let zeros = vec![0f32; KV_HEADS * HEAD_DIM];
            Ok(Tensor::from_array(([1usize, KV_HEADS, 1, HEAD_DIM], zeros))?.into_dyn())
        };
        Ok(Step {
            token: START_TOKEN,
            cached: false,
            cache: (0..4 * LAYERS)
                .map(|_| placeholder())
                .collect::<ort::Result<_>>()?,
        })
    }
}

/// `{prefix}.{layer}.{decoder|encoder}.{key|value}` for every layer, in the model's order.
fn cache_names(prefix: &'static str) -> impl Iterator<Item = String> {
    (0..LAYERS).flat_map(move |layer| {
        ["decoder", "encoder"].into_iter().flat_map(move |part| {
            ["key", "value"]
                .into_iter()
                .map(move |kind| format!("{prefix}.{layer}.{part}.{kind}"))
        })
    })
}

/// The index of the largest value (the first of equals); 0 for none.
fn argmax(values: &[f32]) -> u32 {
    let mut best = (0usize, f32::NEG_INFINITY);
    for (index, value) in values.iter().enumerate() {
        if *value > best.1 {
            best = (index, *value);
        }
    }
    u32::try_from(best.0).unwrap_or(0)
}

/// PCM16 to the f32 the encoder takes, padded or cut to the lengths Moonshine accepts.
fn to_float(audio: &[i16]) -> Vec<f32> {
    crate::pcm::padded_float(audio, MIN_SAMPLES, MAX_SAMPLES)
}

fn failed(err: ort::Error) -> DecodeError {
    DecodeError::Failed(err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_names_follow_the_models_order() {
        let names: Vec<String> = cache_names("past_key_values").collect();
        assert_eq!(names.len(), 24);
        assert_eq!(names[0], "past_key_values.0.decoder.key");
        assert_eq!(names[3], "past_key_values.0.encoder.value");
        assert_eq!(names[23], "past_key_values.5.encoder.value");
    }

    #[test]
    fn the_token_cap_follows_the_clip() {
        assert_eq!(token_cap_for(1), 16);
        assert_eq!(token_cap_for(10 * SAMPLE_RATE), 70);
    }

    #[test]
    fn argmax_takes_the_first_largest() {
        assert_eq!(argmax(&[0.1, 3.0, 3.0, -1.0]), 1);
        assert_eq!(argmax(&[]), 0);
    }

    #[test]
    fn clips_are_padded_or_cut_to_what_moonshine_takes() {
        assert_eq!(to_float(&[i16::MIN]).len(), MIN_SAMPLES);
        assert_eq!(to_float(&vec![0; 70 * SAMPLE_RATE]).len(), MAX_SAMPLES);
        assert!((to_float(&[i16::MIN])[0] + 1.0).abs() < 1e-6);
    }
}
